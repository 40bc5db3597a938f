// Human forms, ends that fail the run, and breakpoints in the editor (format.md §4, human; format.md §4, end, the
// breakpoints of section 5, and section 6): a waiting form answered field by field in
// `Input required` (prefilled defaults, a wrong value refused next to its field, routing by
// `route_by`, the run kept across a reload), a failing end drawn as such and named with its
// message when a run ends there, a human node's form and an end's outcome edited in the
// Inspector, and a breakpoint set from the keyboard that stops the run until Continue.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { graph } from './agent-runs';
import { addNode, expect, node, nodeHeader, test } from './fixtures';
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
} from './run-panel';

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const form = (page: Page) => inputRequired(page).getByRole('form');
const control = (page: Page, role: 'textbox' | 'spinbutton' | 'combobox' | 'checkbox', name: string) =>
  inputRequired(page).getByRole(role, { name, exact: true });
/** A node that ran in the shown step (active) or before it (done). */
const RAN = /^(active|done)$/;
const stateValue = (page: Page, key: string) => stateRegion(page).locator(`[data-key="${key}"]`).first();

/** Selects a node by clicking its header, as a person would. */
async function selectNode(page: Page, id: string): Promise<void> {
  await (await nodeHeader(page, id)).click();
  await expect(inspector(page).getByRole('textbox', { name: 'Id', exact: true })).toHaveValue(id);
}

/** Imports the review form graph and starts a run for `topic`; the form is then waiting. */
async function runToForm(page: Page, topic: string): Promise<void> {
  await importJson(page, graph('review-form.json'), 'review');
  await fastest(page);
  await startRun(page, { topic });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await expect(inputRequired(page)).toContainText(`Review the draft: Plan for ${topic}`);
}

/** The error shown next to a field: the element the control is described by. */
async function errorOf(field: Locator): Promise<string> {
  const id = await field.getAttribute('aria-describedby');
  if (!id) return '';
  return (await field.page().locator(`[id="${id}"]`).textContent()) ?? '';
}

test('a form is prefilled with its defaults, edited, submitted, routed by its decision, and kept across a reload', async ({ editor: page }) => {
  await runToForm(page, 'launch');
  // One control per field, named by its label, holding the default evaluated when it waited.
  await expect(control(page, 'combobox', 'Decision')).toHaveValue('approve');
  await expect(control(page, 'textbox', 'Comment')).toHaveValue('Plan for launch');
  await expect(control(page, 'spinbutton', 'Score')).toHaveValue('3');
  await expect(control(page, 'checkbox', 'Urgent')).not.toBeChecked();
  await expect(inputRequired(page).getByRole('button', { name: 'Submit', exact: true })).toHaveCount(1);

  await control(page, 'textbox', 'Comment').fill('Ship it on Monday');
  await control(page, 'spinbutton', 'Score').fill('5');
  await control(page, 'checkbox', 'Urgent').check();
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();

  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(inputRequired(page)).toHaveCount(0);
  // route_by: the decision took the approve edge, so `approved` ran and `rejected` did not.
  await expect(node(page, 'approved')).toHaveAttribute('data-status', RAN);
  await expect(node(page, 'rejected')).toHaveAttribute('data-status', 'idle');
  await expect(stateValue(page, 'result')).toContainText('approved: Ship it on Monday');
  await expect(stateValue(page, 'score')).toContainText('5');
  await expect(stateValue(page, 'urgent')).toContainText('true');

  // The run, with the answer in its state, is in the history after a reload.
  await page.reload();
  await expect(node(page, 'review')).toBeVisible();
  const saved = historyRegion(page).getByRole('button', { name: /^completed/ });
  await expect(saved).toHaveCount(1);
  await saved.click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(stateValue(page, 'comment')).toContainText('Ship it on Monday');
  await expect(stateValue(page, 'decision')).toContainText('approve');
});

test('a form left waiting comes back after a reload, and its answer goes on from there', async ({ editor: page }) => {
  await runToForm(page, 'budget');
  await page.reload();
  await expect(inputRequired(page)).toContainText('Review the draft: Plan for budget');
  await expect(control(page, 'textbox', 'Comment')).toHaveValue('Plan for budget');
  await control(page, 'combobox', 'Decision').selectOption('approve');
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(stateValue(page, 'result')).toContainText('approved: Plan for budget');
});

test('a wrong value is named next to its field and announced; the form is not sent until it is right', async ({ editor: page }) => {
  await runToForm(page, 'hiring');
  const score = control(page, 'spinbutton', 'Score');
  await score.fill('2.5');
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(score).toHaveAttribute('aria-invalid', 'true');
  expect(await errorOf(score)).toContain('not a whole number');
  await expect(form(page).getByRole('alert')).toContainText('`2.5` is not a whole number.');
  await expect(score).toBeFocused();
  // Still waiting: nothing was sent.
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  // Editing the field clears its error; a right value is accepted.
  await score.fill('4');
  await expect(score).not.toHaveAttribute('aria-invalid', 'true');
  await expect(form(page).getByRole('alert')).toHaveCount(0);
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
});

test('an end with outcome failed is drawn as such; a run ending there names the end and shows its message', async ({ editor: page }) => {
  await importJson(page, graph('review-form.json'), 'refused');
  const refused = node(page, 'refused');
  await expect(refused).toHaveAttribute('data-outcome', 'failed');
  await expect(refused).toContainText('✖ fails run');
  await expect(refused).toContainText('fails the run: Rejected with score');
  await expect(node(page, 'done')).not.toHaveAttribute('data-outcome', 'failed');
  await expect(node(page, 'done')).not.toContainText('fails run');

  await fastest(page);
  await startRun(page, { topic: 'mergers' });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await control(page, 'combobox', 'Decision').selectOption('reject');
  await control(page, 'textbox', 'Comment').fill('too risky');
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();

  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'failed');
  const shown = runRegion(page).getByRole('region', { name: 'Run error' });
  await expect(shown).toContainText('The run ended failed at end `refused`');
  await expect(shown).toContainText('Rejected with score 3: too risky');
  await expect(node(page, 'rejected')).toHaveAttribute('data-status', RAN);
  await expect(node(page, 'approved')).toHaveAttribute('data-status', 'idle');
});

test('the Inspector edits a human node\'s form and route_by, and an end\'s outcome and message, with undo', async ({ editor: page }) => {
  const ask = await addNode(page, 'Human');
  await selectNode(page, ask);
  const panel = inspector(page);
  // The first field takes over the node's single answer: named after Writes, with its options.
  await panel.getByRole('button', { name: 'Add field', exact: true }).click();
  const decision = panel.getByRole('group', { name: 'Field decision', exact: true });
  await expect(decision.getByRole('textbox', { name: 'Field name', exact: true })).toBeFocused();
  await expect(decision.getByRole('textbox', { name: 'Option 1', exact: true })).toHaveValue('approve');
  await expect(decision.getByRole('textbox', { name: 'Option 2', exact: true })).toHaveValue('reject');
  await expect(panel.getByRole('textbox', { name: 'Writes', exact: true })).toHaveCount(0);
  await decision.getByRole('textbox', { name: 'Field label', exact: true }).fill('Decision');
  await decision.getByRole('textbox', { name: 'Field label', exact: true }).press('Enter');
  // A second field: a number with a default expression, optional.
  await panel.getByRole('button', { name: 'Add field', exact: true }).click();
  const second = panel.getByRole('group', { name: 'Field field_1', exact: true });
  await second.getByRole('combobox', { name: 'Field type', exact: true }).selectOption('integer');
  await second.getByRole('checkbox', { name: 'Required', exact: true }).uncheck();
  await second.getByRole('textbox', { name: 'Default', exact: true }).fill('1 + 2');
  await second.getByRole('textbox', { name: 'Default', exact: true }).press('Enter');
  // Route by offers the fields with options.
  const routeBy = panel.getByRole('combobox', { name: 'Route by', exact: true });
  await expect(routeBy.locator('option')).toHaveText(['none', 'decision']);
  await routeBy.selectOption('decision');
  await expect(node(page, ask)).toContainText('form: decision, field_1 · routes by decision');
  // Renaming the field renames route_by with it.
  await decision.getByRole('textbox', { name: 'Field name', exact: true }).fill('verdict');
  await decision.getByRole('textbox', { name: 'Field name', exact: true }).press('Enter');
  const verdict = panel.getByRole('group', { name: 'Field verdict', exact: true });
  await expect(verdict).toBeVisible();
  await expect(routeBy).toHaveValue('verdict');
  await expect(node(page, ask)).toContainText('form: verdict, field_1 · routes by verdict');

  // Removing the routed field clears route_by; undo brings both back.
  await panel.getByRole('button', { name: 'Remove field verdict', exact: true }).click();
  await expect(verdict).toHaveCount(0);
  await expect(node(page, ask)).toContainText('form: field_1');
  await expect(node(page, ask)).not.toContainText('routes by');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(verdict).toBeVisible();
  await expect(routeBy).toHaveValue('verdict');

  // An end: Outcome failed shows Message, and the canvas says the end fails the run.
  const end = await addNode(page, 'End');
  await selectNode(page, end);
  await panel.getByRole('combobox', { name: 'Outcome', exact: true }).selectOption('failed');
  const message = panel.getByRole('textbox', { name: 'Message', exact: true });
  await message.fill('Stopped: {{ state.reason }}');
  await message.press('Tab');
  await expect(node(page, end)).toHaveAttribute('data-outcome', 'failed');
  await expect(node(page, end)).toContainText('fails the run: Stopped: {{ state.reason }}');
  await panel.getByRole('combobox', { name: 'Outcome', exact: true }).selectOption('completed');
  await expect(message).toHaveCount(0);
  await expect(node(page, end)).not.toHaveAttribute('data-outcome', 'failed');
});

test('a breakpoint set from the keyboard stops the run before its node, shows a dot, is kept per graph, and Continue goes on', async ({ editor: page }) => {
  await importJson(page, graph('review-form.json'), 'write');
  await selectNode(page, 'write');
  const before = inspector(page).getByRole('checkbox', { name: 'Break before', exact: true });
  await before.focus();
  await page.keyboard.press('Space');
  await expect(before).toBeChecked();
  const dot = node(page, 'write').getByRole('img', { name: 'Breakpoint before', exact: true });
  await expect(dot).toBeVisible();
  await expect(node(page, 'write')).toHaveAttribute('data-breakpoints', 'before');

  // Kept with this graph's editor settings, not in the document.
  await page.reload();
  await expect(dot).toBeVisible();
  const stored = await page.evaluate(() =>
    Object.keys(localStorage).map((k) => [k, localStorage.getItem(k) ?? ''] as [string, string]),
  );
  const settings = stored.filter(([k]) => k.startsWith('switchyard.setting.breakpoints'));
  expect(settings.map(([, v]) => JSON.parse(v))).toEqual([{ before: ['write'], after: [] }]);
  const graphs = stored.filter(([, v]) => v.includes('"Review form"') && v.includes('"nodes"'));
  expect(graphs.length, 'the graph is saved').toBeGreaterThan(0);
  for (const [, v] of graphs) expect(v, 'the document holds no breakpoints').not.toContain('before');

  await fastest(page);
  await startRun(page, { topic: 'offsite' });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await expect(runStatus(page)).toContainText('stopped at a breakpoint');
  const stop = runRegion(page).getByRole('region', { name: 'Breakpoint', exact: true });
  await expect(stop).toContainText('Stopped at a breakpoint before `write` runs');
  // Not run: it waits at its breakpoint.
  await expect(node(page, 'write')).toHaveAttribute('data-status', 'waiting');
  await expect(inputRequired(page)).toHaveCount(0);

  await runButton(page, 'Continue').click();
  await expect(stop).toHaveCount(0);
  await expect(node(page, 'write')).toHaveAttribute('data-status', RAN);
  await expect(inputRequired(page)).toContainText('Review the draft: Plan for offsite');
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');

  // The node's menu (context-menu key on the canvas) toggles a breakpoint after a node.
  await node(page, 'approved').click({ button: 'right' });
  const menu = page.getByRole('menu', { name: 'Node menu' });
  await expect(menu.getByRole('menuitemcheckbox', { name: 'Break before' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitemcheckbox', { name: 'Break after' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await expect(node(page, 'approved').getByRole('img', { name: 'Breakpoint after', exact: true })).toBeVisible();
  // Unchecked in the Inspector, the dot goes.
  await selectNode(page, 'write');
  await inspector(page).getByRole('checkbox', { name: 'Break before', exact: true }).uncheck();
  await expect(dot).toHaveCount(0);
});

/** The serious and critical axe violations on the page as it is, one line each. */
async function violations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include('[aria-label="Run"]')
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${screen}: ${v.id} (${v.impact}) at ${n.target.join(' ')}: ${v.help}`));
}

test('axe finds no serious violation in a waiting form (with an error shown), a breakpoint stop, or a run ended failed', async ({ editor: page }) => {
  const found: string[] = [];
  await importJson(page, graph('review-form.json'), 'write');
  await selectNode(page, 'write');
  await inspector(page).getByRole('checkbox', { name: 'Break after', exact: true }).check();
  await fastest(page);
  await startRun(page, { topic: 'audit' });
  await expect(runRegion(page).getByRole('region', { name: 'Breakpoint', exact: true })).toContainText('after `write` ran');
  found.push(...(await violations(page, 'a breakpoint stop')));
  await runButton(page, 'Continue').click();
  await expect(inputRequired(page)).toBeVisible();
  await control(page, 'spinbutton', 'Score').fill('');
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(form(page).getByRole('alert')).toContainText('This field is required.');
  found.push(...(await violations(page, 'a form with an error')));
  await control(page, 'spinbutton', 'Score').fill('1');
  await control(page, 'combobox', 'Decision').selectOption('reject');
  await inputRequired(page).getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'failed');
  found.push(...(await violations(page, 'a run ended failed')));
  expect(found, `serious or critical axe violations:\n${found.join('\n')}`).toEqual([]);
});
