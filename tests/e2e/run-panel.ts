// The run panel and the State region as a person finds them (README, The editor and the run
// panel's accessible names), and the Import dialog: shared by the run specs.
import type { Page } from '@playwright/test';
import { expect, node } from './fixtures';

export const runRegion = (page: Page) => page.getByRole('region', { name: 'Run', exact: true });
export const stateRegion = (page: Page) => page.getByRole('region', { name: 'State', exact: true });
export const inputBox = (page: Page) => runRegion(page).getByRole('textbox', { name: 'Input', exact: true });
export const timeline = (page: Page) => page.getByRole('slider', { name: 'Timeline' });
export const runStatus = (page: Page) => page.locator('[data-run-status]');
export const inputRequired = (page: Page) => page.getByRole('region', { name: 'Input required' });
export const historyRegion = (page: Page) => page.getByRole('region', { name: 'Run history' });
export const stepsRegion = (page: Page) => page.getByRole('region', { name: 'Steps', exact: true });
export const runButton = (page: Page, name: string) => runRegion(page).getByRole('button', { name, exact: true });

/** Imports a graph document through Import → Paste JSON → Import pasted JSON. */
export async function importJson(page: Page, doc: object, firstNode: string): Promise<void> {
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await dialog.getByRole('textbox', { name: 'Paste JSON' }).fill(JSON.stringify(doc, null, 2));
  await dialog.getByRole('button', { name: 'Import pasted JSON' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(node(page, firstNode)).toBeVisible();
}

/** Picks the fastest entry of the Speed select (the one with the shortest pause). */
export async function fastest(page: Page): Promise<void> {
  const speed = runRegion(page).getByRole('combobox', { name: 'Speed' });
  const values = await speed.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const best = values.reduce((a, b) => (Number(b) < Number(a) ? b : a));
  await speed.selectOption(best);
  await expect(speed).toHaveValue(best);
}

/** Fills Input with `input` and presses Run. */
export async function startRun(page: Page, input: object): Promise<void> {
  await inputBox(page).fill(JSON.stringify(input));
  await runButton(page, 'Run').click();
}
