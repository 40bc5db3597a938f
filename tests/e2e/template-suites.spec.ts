// Every template's suite in templates/tests/ (made from real CLI runs) passes in the page on
// the unchanged template, replayed in the cases' worker with no network; the evaluation loop
// opened from the gallery comes with its suite and its LLM judge, which scores in the page.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const TEMPLATES = resolve(import.meta.dirname, '../../templates');
const suites = readdirSync(resolve(TEMPLATES, 'tests'))
  .filter((f) => f.endsWith('.tests.json'))
  .sort()
  .map((file) => {
    const text = readFileSync(resolve(TEMPLATES, 'tests', file), 'utf8');
    const suite = JSON.parse(text);
    return { file, text, name: suite.graph.name as string, cases: suite.cases.length as number };
  });

const testsRegion = (page: Page) => page.getByRole('region', { name: 'Tests', exact: true });

/** Opens the Tests panel (the toolbar button toggles it: left open, it stays). */
async function openTests(page: Page): Promise<void> {
  if (!(await testsRegion(page).isVisible())) await page.getByRole('button', { name: 'Tests', exact: true }).click();
  await expect(testsRegion(page)).toBeVisible();
}

test('every template suite passes in the page, offline', async ({ editor: page }) => {
  test.setTimeout(240_000);
  // No request leaves the page while the suites run: every reply comes from the suite.
  const outside: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.hostname !== '127.0.0.1' && url.protocol !== 'data:' && url.protocol !== 'blob:') outside.push(r.url());
  });
  expect(suites.length).toBeGreaterThanOrEqual(9);
  for (const s of suites) {
    await page.getByRole('button', { name: `Open template ${s.name}`, exact: true }).click();
    await openTests(page);
    await testsRegion(page).getByLabel('Import tests', { exact: true })
      .setInputFiles({ name: s.file, mimeType: 'application/json', buffer: Buffer.from(s.text) });
    const cases = testsRegion(page).locator('li.case');
    await expect(cases, s.file).toHaveCount(s.cases);
    await testsRegion(page).getByRole('button', { name: 'Run tests', exact: true }).click();
    await expect(testsRegion(page).locator('li.case[data-status="pass"]'), s.file).toHaveCount(s.cases, { timeout: 60_000 });
    await expect(testsRegion(page).locator('li.case[data-status="fail"]'), s.file).toHaveCount(0);
  }
  expect(outside).toEqual([]);
});

test('the evaluation loop from the gallery comes with its suite and an LLM judge that scores in the page', async ({ editor: page }) => {
  await page.getByRole('button', { name: 'Open template Evaluation loop', exact: true }).click();
  await openTests(page);
  const cases = testsRegion(page).locator('li.case');
  await expect(cases).toHaveCount(3);
  await testsRegion(page).getByRole('button', { name: 'Run tests', exact: true }).click();
  await expect(testsRegion(page).locator('li.case[data-status="pass"]')).toHaveCount(3, { timeout: 60_000 });
  // The judge graph (inline in the suite, a mock LLM judge) scored every case.
  const judged = testsRegion(page).locator('li.case .scores li', { hasText: 'judge' });
  await expect(judged).toHaveCount(3);
  await expect(judged.first()).toContainText('1.00');
  await expect(testsRegion(page).getByRole('table', { name: 'Evaluator means' })).toContainText('judge');
  // A reload keeps the suite with the graph.
  await page.reload();
  await openTests(page);
  await expect(testsRegion(page).locator('li.case')).toHaveCount(3);
});
