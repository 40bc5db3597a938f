// The canvas from the keyboard: Tab reaches it, the arrows move between connected nodes,
// Alt+arrows move the selected node, Enter edits it, Delete removes it and focus stays on the
// canvas; the run keys work in the browser too; focus comes back where the person was after
// the node search.
import type { Page } from '@playwright/test';
import { addNode, boxOf, canvas, expect, node, test } from './fixtures';
import { fastest, importJson, inputBox, runStatus, timeline } from './run-panel';

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const focusedNode = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-node-id') ?? null);

/** start → a → b → end, laid out left to right. */
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

test('the arrows walk the graph from the canvas, Enter edits, Alt+arrows move, Delete keeps focus on the canvas', async ({ editor: page }) => {
  await importJson(page, CHAIN, 'a');
  await page.keyboard.press('Escape');
  await canvas(page).focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => focusedNode(page), 'the start node takes the keyboard first').toBe('start');
  await expect(node(page, 'start')).toHaveClass(/selected/);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => focusedNode(page)).toBe('a');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => focusedNode(page)).toBe('b');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => focusedNode(page)).toBe('a');
  await expect(node(page, 'a')).toHaveClass(/selected/);
  // Alt+Down moves it a grid step down, one step of undo.
  const y = (await boxOf(node(page, 'a'))).y;
  await page.keyboard.press('Alt+ArrowDown');
  await expect.poll(async () => (await boxOf(node(page, 'a'))).y).toBeGreaterThan(y + 5);
  // Enter puts the keyboard in the node's first field.
  await page.keyboard.press('Enter');
  await expect(inspector(page).getByRole('textbox', { name: 'Id', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  // Back on the node (Shift+Tab from the inspector is far; the node is focused again by click).
  await node(page, 'b').click();
  await page.keyboard.press('Delete');
  await expect(node(page, 'b')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('canvas'))).toBe(true);
});

test('Tab reaches the selected node, and the search dialog gives the found node the focus', async ({ editor: page }) => {
  const id = await addNode(page, 'Set');
  await page.keyboard.press('ControlOrMeta+K');
  await page.keyboard.type('start');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect.poll(() => focusedNode(page)).toBe('start');
  // The selected node is the canvas's one stop in the tab order.
  await expect(node(page, 'start')).toHaveAttribute('tabindex', '0');
  await expect(node(page, id)).toHaveAttribute('tabindex', '-1');
});

test('F5 runs, F9 goes back, F10 steps and Shift+F5 resets in the browser; Ctrl+Enter runs from the Input', async ({ editor: page }) => {
  await importJson(page, CHAIN, 'a');
  await fastest(page);
  await canvas(page).focus();
  await page.keyboard.press('F5');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  const last = Number(await timeline(page).getAttribute('max'));
  await page.keyboard.press('F9');
  await expect(timeline(page)).toHaveValue(String(last - 1));
  await page.keyboard.press('F10');
  await expect(timeline(page)).toHaveValue(String(last));
  await page.keyboard.press('Shift+F5');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'none');
  await inputBox(page).fill('{"n": 5}');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
});

test('Tab indents in a script field and Shift+Tab outdents; Escape leaves the field with the text kept', async ({ editor: page }) => {
  const id = await addNode(page, 'Script');
  await expect(inspector(page).getByRole('textbox', { name: 'Id', exact: true })).toHaveValue(id);
  const script = inspector(page).getByRole('textbox', { name: 'Script', exact: true });
  await script.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('if true {');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.type('#{ n: 1 }');
  await expect(script, 'Tab put an indent, focus stayed').toHaveValue('if true {\n    #{ n: 1 }');
  await expect(script).toBeFocused();
  // Both lines selected: Tab indents each, Shift+Tab takes it back.
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Tab');
  await expect(script).toHaveValue('    if true {\n        #{ n: 1 }');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(script).toHaveValue('if true {\n#{ n: 1 }');
  // Escape is the way out of the field: it leaves it, keeping the text.
  await page.keyboard.press('Escape');
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName ?? ''), { message: 'focus left the field' }).not.toBe('TEXTAREA');
  await node(page, id).click();
  await expect(inspector(page).getByRole('textbox', { name: 'Script', exact: true })).toHaveValue('if true {\n#{ n: 1 }');
});
