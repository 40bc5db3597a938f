// Runs as OpenTelemetry traces in the browser (README, See runs in Phoenix, Langfuse or
// Jaeger): the run panel shows the trace id of the run's latest session, the same id as the
// downloaded record's `trace_id` (what `switchyard trace` exports it under), and the id comes
// back with the run after a reload, from the History and from an imported record. The page
// itself sends nothing: it has no exporter.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, node, test } from './fixtures';
import { fastest, historyRegion, inputRequired, runButton, runRegion, runStatus, startRun } from './run-panel';

const traceRegion = (page: Page) => runRegion(page).getByRole('region', { name: 'Trace', exact: true });
const shownTrace = async (page: Page) => {
  const code = traceRegion(page).locator('[data-trace-id]');
  await expect(code).toHaveText(/^[0-9a-f]{32}$/);
  const id = await code.getAttribute('data-trace-id');
  expect(await code.textContent()).toBe(id);
  return id as string;
};

async function download(page: Page): Promise<Record<string, any>> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    traceRegion(page).getByRole('button', { name: 'Download record', exact: true }).click(),
  ]);
  expect(file.suggestedFilename()).toMatch(/^approval-workflow-.+\.run\.json$/);
  return JSON.parse(readFileSync(await file.path(), 'utf8'));
}

test('the run panel shows the trace id, the downloaded record has it, and it survives reload and import', async ({ editor: page }) => {
  const sent: string[] = [];
  page.on('request', (r) => {
    if (/\/v1\/traces/.test(r.url())) sent.push(r.url());
  });
  await page.getByRole('button', { name: 'Open template Approval workflow', exact: true }).click();
  await expect(node(page, 'get_approval')).toBeVisible();
  await fastest(page);
  await startRun(page, { request: 'two laptops' });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  // The first session ended waiting for a person: it has its trace.
  const waiting = await shownTrace(page);

  const form = inputRequired(page);
  await form.getByRole('textbox', { name: 'Decision', exact: true }).fill('approve');
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  const shown = await shownTrace(page);

  // The copy button is reached by the keyboard and says what it copied.
  const copy = traceRegion(page).getByRole('button', { name: 'Copy the trace id', exact: true });
  await copy.focus();
  await expect(copy).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Copied the trace id ${shown}`)).toBeVisible();

  const record = await download(page);
  expect(record.format).toBe('switchyard/run@1');
  expect(record.trace_id).toBe(shown);
  const sessions = (record.traces as { trace_id: string; from_step: number }[]).map((t) => t.trace_id);
  expect(sessions.at(-1)).toBe(shown);
  expect(sessions).toContain(waiting);
  // Stamped with the time of day, so a tracing tool places the run when it ran.
  const started = (record.steps as { started_ms?: number }[]).map((s) => s.started_ms);
  expect(started.every((t) => typeof t === 'number' && Math.abs(t - Date.now()) < 10 * 60_000), `${started}`).toBe(true);

  // Saved with the run: after a reload, opened from the History.
  await page.reload();
  await expect(node(page, 'get_approval')).toBeVisible();
  await historyRegion(page).getByRole('button', { name: new RegExp(record.run_id) }).first().click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  expect(await shownTrace(page)).toBe(shown);

  // Deleted, then imported from the downloaded file: the same trace.
  await historyRegion(page).getByRole('button', { name: 'Delete this run' }).click();
  await expect(historyRegion(page).getByRole('listitem')).toHaveCount(0);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await dialog.getByRole('textbox', { name: 'Paste JSON' }).fill(JSON.stringify(record, null, 2));
  await dialog.getByRole('button', { name: 'Import pasted JSON' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  expect(await shownTrace(page)).toBe(shown);
  expect(sent, 'the browser sends no traces').toEqual([]);
});
