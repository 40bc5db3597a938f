// Commands declared once: the command palette (Ctrl+Shift+P or F1) lists every command with
// its keys, filters as one types, runs the chosen one with Enter and gives the focus back on
// Escape; Help lists exactly the palette's commands and keys; the toolbar's tooltips come
// from the same table; Cut and the run keys work in the browser; the palette passes axe in
// both themes.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { canvas, expect, node, nodeIds, test } from './fixtures';
import { fastest, importJson, inputBox, runStatus, timeline } from './run-panel';

const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' });
const paletteInput = (page: Page) => palette(page).getByRole('combobox', { name: 'Command' });
const rows = (page: Page) => palette(page).getByRole('option');
const help = (page: Page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' });

/** start → a → b → end: a run of a few steps, no model. */
const CHAIN = {
  format: 'switchyard/graph@1',
  name: 'Chain',
  state: { n: { type: 'integer' } },
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'a', kind: 'set', set: { n: 'state.n + 1' } },
    { id: 'b', kind: 'set', set: { n: 'state.n + 1' } },
    { id: 'end', kind: 'end' },
  ],
  edges: [{ from: 'start', to: 'a' }, { from: 'a', to: 'b' }, { from: 'b', to: 'end' }],
  layout: { start: { x: 0, y: 0 }, a: { x: 300, y: 0 }, b: { x: 600, y: 0 }, end: { x: 900, y: 0 } },
};

/** Each row of a list: its command id, its name and the keys shown in it. */
async function listed(list: Locator, name: string): Promise<string[]> {
  return list.evaluateAll((els, name) => els.map((el) => {
    const keys = [...el.querySelectorAll('kbd')].map((k) => k.textContent).join(' ');
    return `${el.getAttribute('data-command')} | ${el.querySelector(name)?.textContent} | ${keys}`;
  }), name);
}

test('Ctrl+Shift+P and F1 open the palette; typing filters it, Enter runs the command and closes it', async ({ editor: page }) => {
  await importJson(page, CHAIN, 'a');
  await fastest(page);
  await canvas(page).focus();
  await page.keyboard.press('ControlOrMeta+Shift+P');
  await expect(palette(page)).toBeVisible();
  await expect(paletteInput(page)).toBeFocused();
  const all = await rows(page).count();
  expect(all).toBeGreaterThan(25);
  // Ctrl+Shift+P again closes it; F1 opens it too.
  await page.keyboard.press('ControlOrMeta+Shift+P');
  await expect(palette(page)).toHaveCount(0);
  await page.keyboard.press('F1');
  await expect(palette(page)).toBeVisible();
  // Typing keeps the commands whose name matches, best first.
  await paletteInput(page).fill('zoom');
  await expect(rows(page)).toHaveText([/Zoom in/, /Zoom out/]);
  await paletteInput(page).fill('sel a');
  await expect(rows(page).first()).toContainText('Select all');
  await paletteInput(page).fill('no such command');
  await expect(rows(page)).toHaveCount(0);
  await expect(palette(page)).toContainText('No command has that name');
  // Enter runs the first row: Run runs the graph.
  await paletteInput(page).fill('run');
  await expect(rows(page).first()).toContainText('Run');
  await expect(rows(page).first()).toContainText('F5');
  await page.keyboard.press('Enter');
  await expect(palette(page)).toHaveCount(0);
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
});

test('the arrows move the active row, disabled commands are skipped, a click runs a row', async ({ editor: page }) => {
  await page.keyboard.press('F1');
  await paletteInput(page).fill('zoom');
  const [zoomIn, zoomOut] = [rows(page).nth(0), rows(page).nth(1)];
  await expect(zoomIn).toHaveAttribute('aria-selected', 'true');
  await expect(paletteInput(page)).toHaveAttribute('aria-activedescendant', (await zoomIn.getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await expect(zoomOut).toHaveAttribute('aria-selected', 'true');
  await expect(paletteInput(page)).toHaveAttribute('aria-activedescendant', (await zoomOut.getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await expect(zoomIn).toHaveAttribute('aria-selected', 'true', { timeout: 2000 });
  // With no run, Back and Step cannot act: shown disabled, and Enter on them does nothing.
  await paletteInput(page).fill('back');
  const back = palette(page).locator('[data-command="run.back"]');
  await expect(back).toHaveAttribute('aria-disabled', 'true');
  await expect(back).toHaveClass(/disabled/);
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeVisible();
  const colour = (row: Locator) => row.evaluate((el) => getComputedStyle(el).color);
  const zoomRow = palette(page).locator('[data-command="view.zoom_in"]');
  await paletteInput(page).fill('');
  expect(await colour(back), 'a disabled row is greyed').not.toBe(await colour(zoomRow));
  // A click runs a row: Keyboard shortcuts opens Help.
  await paletteInput(page).fill('keyboard');
  await rows(page).filter({ hasText: 'Keyboard shortcuts' }).click();
  await expect(palette(page)).toHaveCount(0);
  await expect(help(page)).toBeVisible();
});

test('Escape closes the palette and gives the focus back where it was', async ({ editor: page }) => {
  await inputBox(page).click();
  await expect(inputBox(page)).toBeFocused();
  // The palette's keys work while typing in a field.
  await page.keyboard.press('ControlOrMeta+Shift+P');
  await expect(paletteInput(page)).toBeFocused();
  await page.keyboard.type('fit');
  await page.keyboard.press('Escape');
  await expect(palette(page)).toHaveCount(0);
  await expect(inputBox(page)).toBeFocused();
  // From a node on the canvas, too.
  await node(page, 'start').focus();
  await page.keyboard.press('F1');
  await expect(paletteInput(page)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(palette(page)).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-node-id'))).toBe('start');
});

test('Help lists exactly the palette’s commands with the same keys, and the browser’s own keys as such', async ({ editor: page }) => {
  await page.keyboard.press('F1');
  const inPalette = await listed(rows(page), '.result-title');
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(help(page)).toBeVisible();
  const inHelp = await listed(help(page).getByRole('table', { name: 'Commands' }).getByRole('row'), '.help-name');
  expect(inHelp).toEqual(inPalette);
  expect(inPalette.length).toBeGreaterThan(25);
  // The run keys work in the browser; Ctrl+N is the browser's, Open… is the desktop app's.
  expect(inPalette).toContain('run.step | Step | F10');
  expect(inPalette).toContain('edit.cut | Cut | Ctrl+X');
  expect(inPalette).toContain('file.new | New | ');
  expect(inPalette.some((r) => r.startsWith('file.open '))).toBe(false);
  await expect(help(page).locator('[data-command="file.new"]')).toContainText('Ctrl+N is the browser\'s');
  // The gestures have a table of their own.
  await expect(help(page).getByRole('table', { name: 'On the canvas' })).toContainText('Shift+drag');
});

test('the toolbar and run panel buttons take their tooltips from the command table', async ({ editor: page }) => {
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  await expect(button('Undo')).toHaveAttribute('title', 'Undo the last edit (Ctrl+Z)');
  await expect(button('Redo')).toHaveAttribute('title', 'Redo the edit undone (Ctrl+Shift+Z / Ctrl+Y)');
  await expect(button('New')).toHaveAttribute('title', 'Start a new graph');
  await expect(button('Search')).toHaveAttribute('title', 'Find a node by name, id or kind (Ctrl+K)');
  await expect(button('Command palette')).toHaveAttribute('title', /\(Ctrl\+Shift\+P \/ F1\)$/);
  await expect(button('Step')).toHaveAttribute('title', 'Run one step, or show the next (F10)');
  await expect(button('Reset')).toHaveAttribute('title', 'Clear the run shown (Shift+F5)');
});

test('Cut (Ctrl+X) takes the selected node away, and Ctrl+V brings it back', async ({ editor: page }) => {
  await importJson(page, CHAIN, 'a');
  await node(page, 'b').click();
  await page.keyboard.press('ControlOrMeta+X');
  await expect(node(page, 'b')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Copied 1 node' })).toBeVisible();
  await canvas(page).focus();
  const before = await nodeIds(page);
  await page.keyboard.press('ControlOrMeta+V');
  await expect.poll(() => nodeIds(page).then((v) => v.length), { message: 'the cut node pasted' }).toBe(before.length + 1);
  // In a text field, Ctrl+X is the field's own.
  await inputBox(page).fill('{"n": 1}');
  await inputBox(page).selectText();
  const count = (await nodeIds(page)).length;
  await page.keyboard.press('ControlOrMeta+X');
  await expect(inputBox(page)).toHaveValue('');
  expect((await nodeIds(page)).length).toBe(count);
});

test('the run keys act in the browser: F5 runs, F9 goes back, F10 steps', async ({ editor: page }) => {
  await importJson(page, CHAIN, 'a');
  await fastest(page);
  await canvas(page).focus();
  await page.keyboard.press('F5');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  const last = Number(await timeline(page).getAttribute('max'));
  await page.keyboard.press('F9');
  await page.keyboard.press('F9');
  await expect(timeline(page)).toHaveValue(String(last - 2));
  await page.keyboard.press('F10');
  await expect(timeline(page)).toHaveValue(String(last - 1));
});

test('the palette has no serious axe violation, light or dark', async ({ editor: page }, info) => {
  for (const theme of ['light', 'dark']) {
    if (theme === 'dark') await page.getByRole('button', { name: 'Dark theme', exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await page.keyboard.press('F1');
    await paletteInput(page).fill('s');
    await page.keyboard.press('ArrowDown');
    const result = await new AxeBuilder({ page })
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze();
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${theme}: ${v.id} at ${n.target.join(' ')}: ${v.help}`));
    expect(serious).toEqual([]);
    await page.screenshot({ path: info.outputPath(`palette-${theme}.png`) });
    await page.keyboard.press('Escape');
  }
});
