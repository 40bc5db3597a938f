// Failing storage and untrusted input: a full localStorage makes the editor ask before
// another graph replaces the unsaved one, a file over 32 MiB is refused by name with nothing
// changed, and the page runs under a Content Security Policy.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { addNode, expect, nodeIds, test } from './fixtures';

const library = (page: Page) => page.getByRole('region', { name: 'Library' });

/** Fills localStorage until the browser refuses more (QuotaExceededError). */
async function fillStorage(page: Page): Promise<void> {
  const refused = await page.evaluate(() => {
    let chunk = 'x'.repeat(1 << 20);
    for (let i = 0; ; i++) {
      try {
        localStorage.setItem(`filler.${i}`, chunk);
      } catch (e) {
        if (chunk.length <= 16) return (e as Error).name;
        chunk = chunk.slice(0, chunk.length / 2);
      }
    }
  });
  expect(refused).toContain('Quota');
}

test('storage full: the unsaved graph is kept; opening another asks first, and Cancel keeps the edit', async ({ editor: page }) => {
  // Two graphs, the second one open.
  await library(page).getByRole('button', { name: 'New graph' }).click();
  await expect(library(page).getByRole('button', { name: 'My first workflow (2)', exact: true })).toBeVisible();
  const before = await nodeIds(page);

  await fillStorage(page);
  const added = await addNode(page, 'Set');
  // The autosave fails and says so; the work stays on the canvas.
  await expect(page.getByRole('alert').filter({ hasText: 'Could not save' }).first()).toBeVisible();

  await library(page).getByRole('button', { name: 'My first workflow', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'Unsaved work' });
  await expect(ask).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Export', exact: true })).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Discard', exact: true })).toBeVisible();
  await ask.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(ask).toHaveCount(0);
  expect(await nodeIds(page)).toEqual([...before, added]);

  // New asks too; Export keeps a copy (with the edit) and then goes on.
  await library(page).getByRole('button', { name: 'New graph' }).click();
  await expect(ask).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), ask.getByRole('button', { name: 'Export', exact: true }).click()]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  expect(exported.nodes.map((n: { id: string }) => n.id)).toContain(added);
  await expect(ask).toHaveCount(0);
  await expect.poll(() => nodeIds(page)).toEqual(before);
});

test('an import over 32 MiB is refused by name and nothing changes', async ({ editor: page }) => {
  const before = await nodeIds(page);
  const size = Math.round(40.2 * 1024 * 1024);
  const big = Buffer.alloc(size, ' ');
  big.write('{"format":"switchyard/graph@1","nodes":[],"edges":[]}');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await dialog.getByLabel('Import file').setInputFiles({ name: 'big.json', mimeType: 'application/json', buffer: big });
  await expect(page.getByRole('alert').filter({ hasText: '“big.json” is 40.2 MiB; the limit for an imported graph is 32 MiB' })).toHaveCount(1);
  expect(await nodeIds(page)).toEqual(before);
  await expect(library(page).getByRole('button', { name: 'big', exact: false })).toHaveCount(0);
});

test('the page carries a Content Security Policy with no inline script, and the editor runs under it', async ({ editor: page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) violations.push(m.text());
  });
  const html = await (await page.request.get('/')).text();
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(policy).toContain("object-src 'none'");
  expect(policy.split(';').find((d) => d.trim().startsWith('script-src'))).not.toContain('unsafe-inline');
  // Every script is a file.
  expect(html.match(/<script(?![^>]*\bsrc=)[^>]*>/g) ?? []).toEqual([]);
  // The editor works under it: a reload starts it again without a violation.
  await page.reload();
  await expect(page.locator('[data-node-id]').first()).toBeVisible();
  expect(violations).toEqual([]);
});

test('Settings keeps a key per origin: listed by origin only, and removed by origin', async ({ editor: page }) => {
  const KEY = 'sk-test-origin-abcdef123456';
  const openSettings = async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    return page.getByRole('dialog', { name: 'Settings' });
  };
  let settings = await openSettings();
  await expect(settings.getByRole('list', { name: 'Origins with keys' })).toHaveText('No keys kept yet');
  // Not an origin: the key is not saved and the dialog stays.
  await settings.getByRole('textbox', { name: 'Key origin' }).fill('api.example.test');
  await settings.getByLabel('API key').fill(KEY);
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'is not an http(s) origin' })).toHaveCount(1);
  await expect(settings).toBeVisible();
  await settings.getByRole('textbox', { name: 'Key origin' }).fill('HTTPS://API.Example.test:443/v1');
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings).toHaveCount(0);

  settings = await openSettings();
  const list = settings.getByRole('list', { name: 'Origins with keys' });
  await expect(list.getByRole('listitem')).toHaveText(['https://api.example.test — OpenAI-compatible Remove']);
  await expect(settings).not.toContainText(KEY);
  await settings.getByRole('button', { name: 'Remove the key for https://api.example.test' }).click();
  await expect(list).toHaveText('No keys kept yet');
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  expect(stored).not.toContain(KEY);
});

test('closing the tab warns only while the work cannot be saved', async ({ editor: page }) => {
  const warnings: string[] = [];
  page.on('dialog', async (d) => {
    warnings.push(d.type());
    await d.dismiss();
  });
  // Saved work: leaving asks nothing.
  await addNode(page, 'Set');
  await page.reload({ waitUntil: 'load' });
  await expect(page.locator('[data-node-id]').first()).toBeVisible();
  expect(warnings).toEqual([]);

  // Storage full and an unsaved edit: the browser's leave-page warning comes up, and
  // dismissing it keeps the page and the edit.
  await fillStorage(page);
  const added = await addNode(page, 'Script');
  await expect(page.getByRole('alert').filter({ hasText: 'Could not save' }).first()).toBeVisible();
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => warnings).toEqual(['beforeunload']);
  expect(page.isClosed()).toBe(false);
  expect(await nodeIds(page)).toContain(added);
});
