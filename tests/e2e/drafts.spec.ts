// Nothing typed in the inspector is lost, whatever the person does next: each gesture that
// takes a field away (a press on another node, on the canvas, on another panel, Escape, a
// shortcut, a reload) keeps the text on the canvas, in the saved graph and as one step of
// undo. The `editor` fixture fails a test on any uncaught page error (a Rust panic is one).
import type { Locator, Page } from '@playwright/test';
import { addNode, boxOf, canvas, center, expect, node, nodeHeader, test } from './fixtures';

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const field = (page: Page, name: string) => inspector(page).getByRole('textbox', { name, exact: true });

async function clickAt(page: Page, target: Locator | { x: number; y: number }): Promise<void> {
  const p = 'x' in target ? target : center(await boxOf(target));
  await page.mouse.click(p.x, p.y);
}

/** A new Set node, selected, with `text` typed into its Label field (not committed yet). */
async function typeLabel(page: Page, text: string): Promise<string> {
  const id = await addNode(page, 'Set');
  await expect(field(page, 'Id')).toHaveValue(id);
  await field(page, 'Label').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
  await expect(field(page, 'Label'), 'the typed text is a draft').toHaveAttribute('data-draft', '');
  return id;
}

/**
 * The label shows on the canvas and is one step of undo (Undo takes it back, Redo brings it
 * again), and it was saved: it is there after a reload.
 */
async function expectKept(page: Page, id: string, text: string, undo = true): Promise<void> {
  await expect(node(page, id), 'the label is on the canvas').toContainText(text);
  if (undo) {
    await clickAt(page, page.getByRole('button', { name: 'Undo', exact: true }));
    await expect(node(page, id), 'one Undo takes the label back').not.toContainText(text);
    await clickAt(page, page.getByRole('button', { name: 'Redo', exact: true }));
    await expect(node(page, id), 'Redo brings it again').toContainText(text);
  }
  await page.reload();
  await expect(node(page, id), 'the label was saved').toContainText(text);
}

/** A point on the empty canvas, away from every node (its bottom-left corner area). */
async function emptyCanvas(page: Page): Promise<{ x: number; y: number }> {
  const box = await boxOf(canvas(page));
  return { x: box.x + 24, y: box.y + box.height - 24 };
}

const GESTURES: [string, (page: Page) => Promise<void>][] = [
  ['a press on another node', async (page) => clickAt(page, await nodeHeader(page, 'start'))],
  ['a press on the empty canvas', async (page) => clickAt(page, await emptyCanvas(page))],
  ['a press on another panel (the toolbar’s Fit view)', async (page) => clickAt(page, page.getByRole('button', { name: 'Fit view' }))],
  ['Escape', async (page) => page.keyboard.press('Escape')],
  ['a reload', async (page) => { await page.reload(); }],
];

for (const [name, gesture] of GESTURES) {
  test(`a label typed in the inspector is kept after ${name}`, async ({ editor: page }) => {
    const text = `Fetch the weather ${name.length}`;
    const id = await typeLabel(page, text);
    await gesture(page);
    // A reload starts a new undo log: there, only what was saved is checked.
    await expectKept(page, id, text, name !== 'a reload');
  });
}

test('Escape keeps what was typed, leaves the field and clears the selection, without a panic', async ({ editor: page }) => {
  const id = await typeLabel(page, 'Kept after Escape');
  await page.keyboard.press('Escape');
  await expect(field(page, 'Id'), 'nothing is selected').toHaveCount(0);
  await expect(node(page, id)).toContainText('Kept after Escape');
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');
});

test('a route expression typed into a router is kept when another node is pressed', async ({ editor: page }) => {
  const id = await addNode(page, 'Router');
  const route = field(page, 'Route');
  await route.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('"left"');
  await clickAt(page, await nodeHeader(page, 'end'));
  await expect(field(page, 'Id')).toHaveValue('end');
  await clickAt(page, await nodeHeader(page, id));
  await expect(field(page, 'Route')).toHaveValue('"left"');
});

test('a shortcut typed in a field acts on what was typed: Ctrl+K finds the node by its new label', async ({ editor: page }) => {
  await typeLabel(page, 'Zebra crossing');
  await page.keyboard.press('ControlOrMeta+K');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await page.keyboard.type('Zebra');
  await expect(dialog.getByText('Zebra crossing').first()).toBeVisible();
});
