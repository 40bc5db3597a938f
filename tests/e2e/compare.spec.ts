// Compare runs: two saved runs of a graph, picked in the run History, side by side step by
// step. Two runs of the approval workflow that took different paths open on their first
// differing step with its state difference, the differences are walked with the keyboard and
// the buttons, and Escape gives the focus back; two runs that did the same say so.
import type { Locator, Page } from '@playwright/test';
import { expect, node, test } from './fixtures';
import { fastest, historyRegion, inputRequired, runStatus, startRun } from './run-panel';

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Compare runs' });
const steps = (page: Page) => dialog(page).getByRole('listbox', { name: 'Steps compared' });
const selected = (page: Page) => steps(page).locator('[role="option"][aria-selected="true"]');
const difference = (page: Page) => dialog(page).getByRole('region', { name: 'State difference' });
const changedKey = (page: Page, key: string) => difference(page).locator(`[data-key="${key}"][data-changed="true"]`);

/** Runs the approval template with the same request each time, answered with `decision`. */
async function approvalRun(page: Page, decision: string): Promise<void> {
  await startRun(page, { request: 'two laptops' });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  const form = inputRequired(page);
  await form.getByRole('textbox', { name: 'Decision', exact: true }).fill(decision);
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
}

/** Opens the approval workflow and makes one finished run per decision, saved to History. */
async function runsOf(page: Page, decisions: string[]): Promise<Locator> {
  await page.getByRole('button', { name: 'Open template Approval workflow', exact: true }).click();
  await expect(node(page, 'get_approval')).toBeVisible();
  await fastest(page);
  for (const d of decisions) await approvalRun(page, d);
  // Every finished run is saved to the graph's History on its own, newest first.
  const runs = historyRegion(page).getByRole('listitem');
  await expect(runs).toHaveCount(decisions.length);
  return runs;
}

/** The step of the selected row. */
async function selectedStep(page: Page): Promise<string | null> {
  return selected(page).getAttribute('data-step');
}

test('two runs that took different paths: the first differing step and the differences, by keyboard', async ({ editor: page }) => {
  const runs = await runsOf(page, ['approve', 'reject']);
  // Pick the older run (approved) first, then the newer (rejected).
  const approved = runs.nth(1).getByRole('button', { name: /^(Compare with…|Cancel compare)$/ });
  await approved.click();
  await expect(historyRegion(page).getByRole('status')).toContainText('Pick the run to compare with');
  await expect(approved).toHaveText('Cancel compare');
  const rejected = runs.nth(0).getByRole('button', { name: 'Compare', exact: true });
  await rejected.click();

  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByRole('status')).toContainText('They first differ at step 1');
  // One row per step, both runs have four; the first differing step is selected and in view.
  await expect(steps(page).getByRole('option')).toHaveCount(4);
  await expect(selected(page)).toHaveAttribute('data-step', '1');
  await expect(selected(page)).toBeInViewport();
  await expect(steps(page)).toBeFocused();
  await expect(difference(page)).toContainText('State after step 1');
  await expect(changedKey(page, 'decision')).toContainText('"approve"');
  await expect(changedKey(page, 'decision')).toContainText('"reject"');
  await expect(difference(page).locator('[data-key="request"]')).toHaveCount(0);

  // Step 2: the router took a different edge in each run, named by its ends.
  await page.keyboard.press('Alt+ArrowDown');
  await expect.poll(() => selectedStep(page)).toBe('2');
  await expect(selected(page)).toContainText('check_approval → approved_action');
  await expect(selected(page)).toContainText('check_approval → rejected_action');
  // Step 3: a different action ran, and each wrote its own key.
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => selectedStep(page)).toBe('3');
  await expect(selected(page)).toContainText('approved_action');
  await expect(selected(page)).toContainText('rejected_action');
  await expect(changedKey(page, 'action_result')).toContainText('Done: two laptops');
  await expect(changedKey(page, 'notification')).toContainText('Sorry, a colleague');
  await page.keyboard.press('Home');
  await expect.poll(() => selectedStep(page)).toBe('1');
  await page.keyboard.press('End');
  await expect.poll(() => selectedStep(page)).toBe('4');
  await expect(dialog(page).getByRole('button', { name: 'Next difference' })).toBeDisabled();
  await dialog(page).getByRole('button', { name: 'Previous difference' }).click();
  await expect.poll(() => selectedStep(page)).toBe('3');
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => selectedStep(page)).toBe('2');

  // Escape closes, and the focus is back on the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  // (The pick is over, so that button reads Compare with… again.)
  await expect(runs.nth(0).getByRole('button', { name: 'Compare with…', exact: true })).toBeFocused();
});

test('two runs that did the same say so; picking is done from the keyboard', async ({ editor: page }) => {
  const runs = await runsOf(page, ['approve', 'approve']);
  const first = runs.nth(0).getByRole('button', { name: 'Compare with…', exact: true });
  await first.focus();
  await page.keyboard.press('Enter');
  // Escape gives up a pick; a second pick goes through.
  await page.keyboard.press('Escape');
  await expect(first).toHaveText('Compare with…');
  await page.keyboard.press('Enter');
  await runs.nth(1).getByRole('button', { name: 'Compare', exact: true }).focus();
  await page.keyboard.press('Enter');

  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByRole('status')).toContainText('The two runs are the same');
  await expect(steps(page).locator('[data-differs="true"]')).toHaveCount(0);
  await expect(selected(page)).toHaveAttribute('data-step', '1');
  await expect(difference(page)).toContainText('the same in both runs');
  await expect(dialog(page).getByRole('button', { name: 'Next difference' })).toBeDisabled();
  await dialog(page).getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog(page)).toHaveCount(0);
});
