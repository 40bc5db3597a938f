// Runs and versions of their graph (issue 14): a run carries the hash of the graph it ran.
// When the graph has changed since (an expression edited in the Inspector), the run panel says
// so, names what changed, and offers "Fork anyway": a new run of the graph as it is now, which
// goes on with the new expression. The old run can still be stepped through, but it is not run
// on (its form is not offered, Continue and Step stop at its last step). An unchanged graph or
// a moved node shows no notice; a run that ran a node since removed says which node. And
// Export writes the document's `$schema` first, and a file carrying one imports.
//
// The graph (graphs/versions.json): start → greet (a set node) → ask (a human question) → reply (a set node making
// `reply` from the answer) → end. Screenshots of the notice go to the test's output folder.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { graph } from './agent-runs';
import { dragNode, expect, node, test } from './fixtures';
import {
  fastest,
  historyRegion,
  importJson,
  inputRequired,
  runButton,
  runRegion,
  runStatus,
  startRun,
  stateRegion,
  timeline,
} from './run-panel';

const HEADING = 'This run was made with an earlier version of this graph';

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const notice = (page: Page) => runRegion(page).getByRole('region', { name: 'Graph version', exact: true });
const forkAnyway = (page: Page) => notice(page).getByRole('button', { name: 'Fork anyway', exact: true });
const stateValue = (page: Page, key: string) => stateRegion(page).locator(`[data-key="${key}"]`).first();
const savedRuns = (page: Page) => historyRegion(page).locator('[data-run-id]');

async function selectNode(page: Page, id: string): Promise<void> {
  await node(page, id).locator('.node-head').click();
  await expect(inspector(page).getByRole('textbox', { name: 'Id', exact: true })).toHaveValue(id);
}

async function commit(box: Locator, text: string): Promise<void> {
  await box.fill(text);
  await box.press('Tab');
}

/** Changes the expression `reply` node sets `reply` to, through the Inspector. */
async function changeReply(page: Page, expression: string): Promise<void> {
  await selectNode(page, 'reply');
  await commit(inspector(page).getByRole('textbox', { name: 'Expression for reply', exact: true }), expression);
  await page.keyboard.press('Escape');
}

/** Imports the graph and runs it until `ask` waits for its answer. */
async function runToQuestion(page: Page, topic: string): Promise<void> {
  await importJson(page, graph('versions.json'), 'ask');
  await fastest(page);
  await startRun(page, { topic });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await expect(inputRequired(page)).toContainText(`About ${topic}: what do you think?`);
}

async function answer(page: Page, text: string): Promise<void> {
  await inputRequired(page).getByRole('textbox', { name: 'Answer', exact: true }).fill(text);
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();
}

/** The stored document of graph "Versions" (what a reload opens), as text. */
async function storedGraph(page: Page): Promise<string> {
  return page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const value = localStorage.getItem(localStorage.key(i) ?? '') ?? '';
      if (value.includes('"switchyard/graph@1"') && value.includes('"Versions"')) return value;
    }
    return '';
  });
}

/** Waits until autosave has stored a document other than `before`. */
async function savedSince(page: Page, before: string): Promise<void> {
  await expect.poll(() => storedGraph(page), { message: 'autosave stores the edit', timeout: 5_000 }).not.toBe(before);
}

/** The serious and critical axe violations on the page, one line each. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${v.help}`));
}

test('a run of an earlier version names what changed, is only looked at, and Fork anyway goes on against the new graph', async ({ editor: page }) => {
  test.slow();
  await runToQuestion(page, 'tea');
  await expect(notice(page), 'the run was made with the graph as it is').toHaveCount(0);

  // The graph changes while its run waits: the run on display is now of an earlier version.
  const before = await storedGraph(page);
  await changeReply(page, '"Filed: " + state.answer');
  await expect(notice(page)).toContainText(HEADING);
  await expect(notice(page)).toContainText('node reply changed');
  await savedSince(page, before);

  // Come back to it after a reload (a run left waiting reopens), and from the history.
  await page.reload();
  await expect(node(page, 'ask')).toBeVisible();
  await expect(page.getByText('Reopened the last run, made with an earlier version of this graph')).toBeVisible();
  await expect(notice(page)).toContainText(HEADING);
  await expect(notice(page).getByRole('listitem')).toHaveText(['node reply changed']);
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await expect(savedRuns(page)).toHaveCount(1);
  const oldRun = (await savedRuns(page).first().getAttribute('data-run-id')) ?? '';
  await historyRegion(page).getByRole('button', { name: new RegExp(oldRun) }).first().click();
  await expect(notice(page)).toContainText('node reply changed');

  // It is not run on against the changed graph: no answer is asked for, and Step and
  // Continue stop at its last step. Its steps can still be looked at.
  await expect(inputRequired(page)).toHaveCount(0);
  const steps = Number(await timeline(page).getAttribute('max'));
  expect(steps).toBeGreaterThan(0);
  await expect(timeline(page)).toHaveValue(String(steps));
  await expect(runButton(page, 'Continue')).toBeDisabled();
  await expect(runButton(page, 'Step')).toBeDisabled();
  await runButton(page, 'Back').click();
  await expect(timeline(page)).toHaveValue(String(steps - 1));
  await expect(notice(page), 'the notice stays while its steps are looked at').toBeVisible();
  await runButton(page, 'Step').click();
  await expect(timeline(page)).toHaveValue(String(steps));

  // Axe finds nothing serious with the notice shown; the notice as a person sees it.
  expect(await violations(page), 'serious or critical axe violations').toEqual([]);
  const shot = (name: string) => test.info().outputPath(name);
  await notice(page).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await runRegion(page).screenshot({ path: shot('version-notice-light.png') });
  await notice(page).screenshot({ path: shot('version-notice-only-light.png') });
  await page.getByRole('button', { name: 'Dark theme', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await violations(page), 'serious or critical axe violations (dark theme)').toEqual([]);
  await runRegion(page).screenshot({ path: shot('version-notice-dark.png') });
  await notice(page).screenshot({ path: shot('version-notice-only-dark.png') });
  await page.getByRole('button', { name: 'Light theme', exact: true }).click();

  // Fork anyway: a new run of the graph as it is now, from the step shown, which goes on.
  await forkAnyway(page).click();
  await expect(notice(page)).toHaveCount(0);
  await expect(savedRuns(page)).toHaveCount(2);
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await answer(page, 'yes');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(stateValue(page, 'reply'), 'the new expression made the reply').toContainText('Filed: yes');
  await expect(notice(page)).toHaveCount(0);
  // The new run says where it came from; the old one is kept, still of the earlier version.
  await expect(savedRuns(page)).toHaveCount(2);
  await expect(historyRegion(page).locator(`[data-run-id="${oldRun}"]`)).toHaveCount(1);
  await historyRegion(page).locator(`[data-run-id="${oldRun}"]`).getByRole('button', { name: new RegExp(oldRun) }).click();
  await expect(notice(page)).toContainText('node reply changed');
});

test('an unchanged graph and a moved node show no notice; the saved run goes on as before', async ({ editor: page }) => {
  await runToQuestion(page, 'coffee');
  await expect(notice(page)).toHaveCount(0);

  // Moving a node changes the layout only: the run is still of this version.
  const stored = await storedGraph(page);
  const before = await node(page, 'reply').boundingBox();
  await dragNode(page, 'reply', { x: 520, y: 300 });
  await expect.poll(async () => (await node(page, 'reply').boundingBox())?.x).not.toBe(before?.x);
  await expect(notice(page)).toHaveCount(0);
  await savedSince(page, stored);

  await page.reload();
  await expect(node(page, 'ask')).toBeVisible();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await expect(notice(page)).toHaveCount(0);
  await answer(page, 'black');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(stateValue(page, 'reply')).toContainText('Noted: black');
  await expect(notice(page)).toHaveCount(0);
});

test('a run that ran a node since removed says which node, offers no fork, and stays on display', async ({ editor: page }) => {
  await runToQuestion(page, 'juice');
  await answer(page, 'orange');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');

  await selectNode(page, 'reply');
  await page.keyboard.press('Delete');
  await expect(node(page, 'reply')).toHaveCount(0);
  await expect(notice(page)).toContainText(HEADING);
  await expect(notice(page)).toContainText('node reply removed');
  await expect(notice(page)).toContainText(/It cannot be forked against this version: node reply, which it ran in step \d+, no longer exists\./);
  await expect(forkAnyway(page)).toHaveCount(0);
  // Still the old run, to look at.
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(stateValue(page, 'reply')).toContainText('Noted: orange');
  await runButton(page, 'Back').click();
  await expect(notice(page)).toBeVisible();

  // Undo brings the graph back to the run's version: the notice goes.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(node(page, 'reply')).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
});

test('Export writes the document’s $schema first, and a file carrying one imports', async ({ editor: page }) => {
  await importJson(page, graph('versions.json'), 'ask');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  const text = readFileSync(await download.path(), 'utf8');
  expect(text.startsWith('{\n  "$schema": "urn:switchyard:graph@1",\n  "format": "switchyard/graph@1"'), text.slice(0, 120)).toBe(true);

  const doc = JSON.parse(text);
  doc.name = 'Versions with a schema';
  await importJson(page, doc, 'ask');
  await expect(page.getByRole('region', { name: 'Library', exact: true }).getByRole('button', { name: 'Versions with a schema', exact: true })).toBeVisible();
  const [again] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  const back = JSON.parse(readFileSync(await again.path(), 'utf8'));
  expect(Object.keys(back)[0]).toBe('$schema');
  expect(back.nodes).toEqual(doc.nodes);
});
