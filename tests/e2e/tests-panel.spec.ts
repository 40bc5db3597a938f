// The Tests panel (README, Tests): a run of the approval template saved as a test passes;
// an edit to its router fails it on "Check against saved runs", naming the first differing
// step, and Compare opens that step; a layout change passes; the suite survives a reload;
// datasets are imported (a bad line named), run with a progress bar, scored, and stopped.
import type { Page } from '@playwright/test';
import { expect, node, test } from './fixtures';
import { fastest, inputRequired, runButton, runRegion, runStatus, startRun } from './run-panel';

const testsRegion = (page: Page) => page.getByRole('region', { name: 'Tests', exact: true });
const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const theCase = (page: Page, name: string) => testsRegion(page).locator(`li.case[data-case="${name}"]`);
const errors = (page: Page) => page.locator('.alert.error, [role="alert"]');

async function openApproval(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open template Approval workflow', exact: true }).click();
  await expect(node(page, 'get_approval')).toBeVisible();
  await fastest(page);
}

/** Runs the approval template for `request` and approves it. */
async function runApproved(page: Page, request: string): Promise<void> {
  await startRun(page, { request });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  const form = inputRequired(page);
  await form.getByRole('textbox', { name: 'Decision', exact: true }).fill('approve');
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
}

/** Opens the Tests panel from the command palette, by keyboard. */
async function openTestsByKeyboard(page: Page): Promise<void> {
  await page.keyboard.press('ControlOrMeta+Shift+P');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  await page.keyboard.type('Tests');
  await expect(palette.getByRole('option', { name: /^Tests/ }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(testsRegion(page)).toBeVisible();
}

async function closeTests(page: Page): Promise<void> {
  await testsRegion(page).getByRole('button', { name: 'Close the Tests panel' }).click();
  await expect(inspector(page)).toBeVisible();
}

const SUITE_WITH_EVALUATOR = {
  format: 'switchyard/tests@1',
  graph: { name: 'Approval workflow' },
  cases: [],
  evaluators: [{ name: 'outcome', expression: 'output.final_status == reference', threshold: 1 }],
};

/** `n` dataset rows: even rows approved, odd rejected; all expect "completed". */
function datasetRows(n: number): string {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const decision = i % 2 === 0 ? 'approve' : 'reject';
    rows.push(JSON.stringify({
      name: `row ${i + 1}`,
      input: { request: `item ${i + 1}` },
      answers: [{ node: 'get_approval', value: { decision } }],
      reference: 'completed',
    }));
  }
  return rows.join('\n');
}

async function chooseFile(page: Page, label: string, name: string, text: string): Promise<void> {
  await testsRegion(page).getByLabel(label, { exact: true }).setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

test('a run saved as a test passes; a router edit fails it at the first differing step; a layout change does not', async ({ editor: page }) => {
  await openApproval(page);
  await runApproved(page, 'two laptops');

  await runRegion(page).getByRole('button', { name: 'Save as test', exact: true }).click();
  const name = runRegion(page).getByRole('textbox', { name: 'Test name' });
  await expect(name).toHaveValue('request: two laptops');
  await expect(name).toBeFocused();
  await name.fill('laptops approved');
  await page.keyboard.press('Enter');

  await page.getByRole('button', { name: 'Tests', exact: true }).click();
  await expect(testsRegion(page)).toBeVisible();
  await expect(theCase(page, 'laptops approved')).toHaveAttribute('data-status', 'not-run');
  await testsRegion(page).getByRole('button', { name: 'Run tests', exact: true }).click();
  await expect(theCase(page, 'laptops approved')).toHaveAttribute('data-status', 'pass');

  // The router now sends every decision to the rejected branch.
  await closeTests(page);
  await node(page, 'check_approval').click();
  const route = inspector(page).getByRole('textbox', { name: 'Route', exact: true });
  await route.fill('"rejected"');
  await route.press('Tab');
  await openTestsByKeyboard(page);
  await testsRegion(page).getByRole('button', { name: 'Check against saved runs', exact: true }).click();
  const failing = theCase(page, 'laptops approved');
  await expect(failing).toHaveAttribute('data-status', 'fail');
  await expect(failing.locator('.test-badge')).toHaveText('changed');
  await expect(failing.locator('.case-reason')).toContainText(/step \d+/);
  // The route is decided at step 2 (step 1 takes the answer): the runs part there.
  const reason = (await failing.locator('.case-reason').textContent()) ?? '';
  const first = /step (\d+)/.exec(reason)?.[1];
  expect(first, reason).toBe('2');
  await page.screenshot({ path: test.info().outputPath('tests-panel.png') });

  await failing.getByRole('button', { name: /^Compare/ }).click();
  const compare = page.getByRole('dialog', { name: 'Compare runs' });
  await expect(compare).toBeVisible();
  await expect(compare.getByRole('option', { selected: true })).toHaveAttribute('data-step', first ?? '');
  await page.screenshot({ path: test.info().outputPath('compare-from-test.png') });
  await page.keyboard.press('Escape');
  await expect(compare).toHaveCount(0);

  // Undo the edit, and rearrange the nodes instead: it ends the same.
  await closeTests(page);
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(node(page, 'check_approval')).toBeVisible();
  await page.getByRole('button', { name: 'Auto layout', exact: true }).click();
  await page.getByRole('button', { name: 'Tests', exact: true }).click();
  await testsRegion(page).getByRole('button', { name: 'Check against saved runs', exact: true }).click();
  await expect(theCase(page, 'laptops approved').locator('.test-badge')).toHaveText('same');

  // The suite is kept with the graph.
  const stored = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('switchyard.tests.')));
  expect(stored).toHaveLength(1);
  await page.reload();
  await expect(node(page, 'get_approval')).toBeVisible();
  await page.getByRole('button', { name: 'Tests', exact: true }).click();
  await expect(theCase(page, 'laptops approved')).toHaveAttribute('data-status', 'not-run');

  // Deleted, it is gone after a reload too.
  await theCase(page, 'laptops approved').getByRole('button', { name: /^Delete/ }).click();
  await expect(theCase(page, 'laptops approved')).toHaveCount(0);
  await expect(testsRegion(page)).toContainText('No tests yet');
});

test('datasets: a bad line is named, a good one runs with progress and scores, and Stop stops it', async ({ editor: page }) => {
  await openApproval(page);
  await page.getByRole('button', { name: 'Tests', exact: true }).click();
  await chooseFile(page, 'Import tests', 'approval.tests.json', JSON.stringify(SUITE_WITH_EVALUATOR));

  await chooseFile(page, 'Import dataset', 'bad.jsonl', '{"input": {"request": "a"}}\n{"input": 5}\n');
  await expect(errors(page).filter({ hasText: 'line 2' })).toBeVisible();

  await chooseFile(page, 'Import dataset', 'rows.jsonl', datasetRows(4));
  const scores = testsRegion(page).getByRole('table', { name: 'Dataset scores' });
  await expect(scores).toBeVisible();
  await expect(testsRegion(page).getByRole('list', { name: 'Dataset rows' }).locator('li')).toHaveCount(4);
  // Approved rows complete; rejected ones complete too (the template ends either way).
  await expect(scores.locator('tr[data-evaluator="outcome"] td.mean')).toHaveText('1.00');
  await testsRegion(page).screenshot({ path: test.info().outputPath('tests-panel-dataset.png') });

  // A long dataset shows its progress and stops when asked.
  await chooseFile(page, 'Import dataset', 'many.jsonl', datasetRows(3000));
  const bar = testsRegion(page).getByRole('progressbar', { name: 'Running the dataset' });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  await testsRegion(page).getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(bar).toHaveCount(0);
  const ran = await testsRegion(page).getByRole('list', { name: 'Dataset rows' }).locator('li').count();
  expect(ran).toBeGreaterThan(0);
  expect(ran).toBeLessThan(3000);
});
