// The editor around the canvas, as a person arranges and uses it: the run panel's height is
// theirs (dragged or set from the keyboard, kept across a reload) and its controls never move
// during a run; the minimap never takes a press meant for a node; a narrow window keeps the
// canvas wide; new nodes land in free space; a fresh human node runs; deleting a graph asks
// in the editor's own dialog; a required input left empty is refused with its name.
import type { Page } from '@playwright/test';
import { addNode, boxOf, canvas, center, connect, expect, node, nodeIds, test } from './fixtures';
import { fastest, importJson, inputBox, runButton, runRegion, runStatus, startRun } from './run-panel';

const splitter = (page: Page) => page.getByRole('separator', { name: 'Run panel height' });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** A graph whose script step runs long enough to see the panel during a run. */
const LOOP = {
  format: 'switchyard/graph@1',
  name: 'Counter',
  state: { n: { type: 'integer' } },
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'count', kind: 'script', script: '#{ n: state.n + 1 }' },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { from: 'start', to: 'count' },
    { from: 'count', to: 'count', when: 'state.n < 6' },
    { from: 'count', to: 'end', when: 'state.n >= 6' },
  ],
};

test('the run panel keeps the height the person drags, across a reload, and from the keyboard', async ({ editor: page }) => {
  const panel = runRegion(page);
  const before = (await boxOf(panel)).height;
  const grip = center(await boxOf(splitter(page)));
  await page.mouse.move(grip.x, grip.y);
  await page.mouse.down();
  await page.mouse.move(grip.x, grip.y - 120, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await boxOf(panel)).height - before)).toBeGreaterThanOrEqual(110);
  const dragged = (await boxOf(panel)).height;
  await page.reload();
  await expect.poll(async () => Math.round((await boxOf(runRegion(page))).height)).toBe(Math.round(dragged));
  // From the keyboard: arrows grow and shrink it by a step, Home makes it smallest.
  await splitter(page).focus();
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => Math.round((await boxOf(runRegion(page))).height)).toBe(Math.round(dragged - 24));
  await page.keyboard.press('Home');
  await expect(splitter(page)).toHaveAttribute('aria-valuenow', '140');
});

test('the run controls stay where they are and the panel does not grow as a run goes on', async ({ editor: page }) => {
  await importJson(page, LOOP, 'count');
  const where = async () => {
    const boxes = await Promise.all(['Run', 'Pause', 'Back', 'Step', 'Continue', 'Reset'].map((n) => boxOf(runButton(page, n))));
    return { buttons: boxes.map((b) => [Math.round(b.x), Math.round(b.y)]), panel: Math.round((await boxOf(runRegion(page))).height) };
  };
  const idle = await where();
  await runRegion(page).getByRole('combobox', { name: 'Speed' }).selectOption({ label: 'Slow' });
  await startRun(page, { n: 0 });
  await expect(runStatus(page)).toContainText('running');
  expect(await where(), 'while it runs').toEqual(idle);
  await runButton(page, 'Pause').click();
  await expect(runStatus(page), 'a run between steps that does not play on is paused').toContainText('paused');
  expect(await where(), 'paused').toEqual(idle);
  await fastest(page);
  await runButton(page, 'Continue').click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  expect(await where(), 'after the run').toEqual(idle);
  // At the end of a completed run nothing is active.
  await expect(page.locator('[data-node-id][data-status="active"]')).toHaveCount(0);
});

test('the minimap fades over a node and lets the press through to it; it can be hidden and stays so', async ({ editor: page }) => {
  const map = page.getByRole('group', { name: 'Minimap' });
  const mapBox = await boxOf(map.locator('svg'));
  // Drag the end node under the minimap.
  const head = center(await boxOf(node(page, 'end').locator('.node-head')));
  await page.mouse.move(head.x, head.y);
  await page.mouse.down();
  await page.mouse.move(mapBox.x + 40, mapBox.y + 30, { steps: 10 });
  await page.mouse.up();
  await expect(map).toHaveClass(/over-node/);
  // A press there selects the node, not the map.
  await page.mouse.click(mapBox.x + 40, mapBox.y + 30);
  await expect(node(page, 'end')).toHaveClass(/selected/);
  await button(page, 'Show minimap').click();
  await expect(map.locator('svg')).toHaveCount(0);
  await expect(button(page, 'Show minimap')).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  await expect(page.getByRole('group', { name: 'Minimap' }).locator('svg')).toHaveCount(0);
});

test('nodes added from the palette land in free space, the newest selected and in view', async ({ editor: page }) => {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push(await addNode(page, 'Set'));
  const boxes = await Promise.all((await nodeIds(page)).map((id) => boxOf(node(page, id))));
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlap, `nodes ${i} and ${j} overlap`).toBe(false);
    }
  }
  await expect(node(page, ids[4])).toHaveClass(/selected/);
  const c = await boxOf(canvas(page));
  const last = await boxOf(node(page, ids[4]));
  expect(last.x >= c.x && last.x + last.width <= c.x + c.width && last.y >= c.y && last.y + last.height <= c.y + c.height).toBe(true);
});

test('a human node fresh from the palette runs between start and end: its first edge is its default', async ({ editor: page }) => {
  // Remove the start → end edge, then put the human node between them.
  await page.locator('[data-edge-from="start"][data-edge-to="end"] .edge-hit').first().click({ force: true });
  await page.keyboard.press('Delete');
  await expect(page.locator('[data-edge-from="start"][data-edge-to="end"]')).toHaveCount(0);
  const ask = await addNode(page, 'Human');
  await connect(page, 'start', ask);
  await connect(page, ask, 'end');
  await expect(page.getByRole('region', { name: 'Problems' })).toContainText('No problems');
  await fastest(page);
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await page.getByRole('region', { name: 'Input required' }).getByRole('button', { name: 'reject', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
});

test('deleting a graph asks in the editor’s own dialog; Cancel keeps it, Delete removes it', async ({ editor: page }) => {
  const library = page.getByRole('region', { name: 'Library', exact: true });
  const first = (await page.locator('.graph-name').textContent()) ?? '';
  // A second graph (the open one), so that deleting it opens the first again.
  await button(page, 'New').click();
  await expect(page.locator('.graph-name')).not.toHaveText(first);
  const name = (await page.locator('.graph-name').textContent()) ?? '';
  const del = library.getByRole('button', { name: `Delete ${name}`, exact: true });
  await del.click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete graph' });
  await expect(dialog).toContainText(name);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(del).toHaveCount(1);
  await del.click();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(del).toHaveCount(0);
  await expect(page.locator('.graph-name')).toHaveText(first);
});

test('a required input left empty is refused with its name, and the first run says what to do', async ({ editor: page }) => {
  await expect(runRegion(page).getByRole('note')).toContainText('press Run');
  await importJson(page, {
    format: 'switchyard/graph@1',
    state: { request: { type: 'string' } },
    nodes: [{ id: 'start', kind: 'start', required: ['request'] }, { id: 'end', kind: 'end' }],
    edges: [{ from: 'start', to: 'end' }],
  }, 'start');
  await expect(inputBox(page)).toHaveValue('{"request":""}');
  await runButton(page, 'Run').click();
  await expect(page.getByRole('alert').filter({ hasText: '`request` is required' })).toBeVisible();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'none');
  await startRun(page, { request: 'Plan the offsite' });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
});

test.describe('a narrow window (1024×700)', () => {
  test.use({ viewport: { width: 1024, height: 700 } });

  test('keeps the canvas wide: the library opens over it and closes once a node is added', async ({ editor: page }) => {
    const library = page.getByRole('region', { name: 'Library', exact: true });
    await expect(library).toBeHidden();
    expect((await boxOf(canvas(page))).width).toBeGreaterThan(650);
    await button(page, 'Library').click();
    await expect(library).toBeVisible();
    await expect(button(page, 'Library')).toHaveAttribute('aria-expanded', 'true');
    const before = new Set(await nodeIds(page));
    await button(page, 'Add Set').click();
    await expect(library).toBeHidden();
    await expect.poll(async () => (await nodeIds(page)).filter((id) => !before.has(id)).length).toBe(1);
    // Every run control is inside the window.
    for (const name of ['Run', 'Pause', 'Back', 'Step', 'Continue', 'Reset']) {
      const b = await boxOf(runButton(page, name));
      expect(b.x + b.width, name).toBeLessThanOrEqual((await boxOf(runRegion(page))).x + (await boxOf(runRegion(page))).width);
      expect(b.y + b.height, name).toBeLessThanOrEqual(700);
    }
  });
});

/** start → s01 → … → s12 → end in a row far wider than the window. */
function longRow() {
  const ids = ['start', ...Array.from({ length: 12 }, (_, k) => `s${String(k + 1).padStart(2, '0')}`), 'end'];
  return {
    format: 'switchyard/graph@1',
    name: 'Long row',
    state: { n: { type: 'integer' } },
    nodes: ids.map((id) => (id === 'start' || id === 'end' ? { id, kind: id } : { id, kind: 'set', set: { n: 'state.n + 1' } })),
    edges: ids.slice(1).map((to, k) => ({ from: ids[k], to })),
    layout: Object.fromEntries(ids.map((id, k) => [id, { x: k * 420, y: 0 }])),
  };
}

/** Whether node `id` lies wholly inside the canvas. */
async function onScreen(page: Page, id: string): Promise<boolean> {
  const c = await boxOf(canvas(page));
  const b = await node(page, id).boundingBox();
  return !!b && b.x >= c.x && b.y >= c.y && b.x + b.width <= c.x + c.width && b.y + b.height <= c.y + c.height;
}

test('a playing run keeps its current node in view, and the selected node stays in view as the run panel grows', async ({ editor: page }) => {
  await importJson(page, longRow(), 's01');
  await button(page, 'Zoom in').click();
  await button(page, 'Zoom in').click();
  await expect.poll(() => onScreen(page, 's12'), { message: 'the last step starts off screen' }).toBe(false);
  await fastest(page);
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect.poll(() => onScreen(page, 's12'), { message: 'the view followed the run to its last step' }).toBe(true);

  // The selected node sits low on the canvas; the run panel grows over it, and the view pans.
  await node(page, 's12').click();
  const canvasBox = await boxOf(canvas(page));
  const grip = center(await boxOf(splitter(page)));
  const nodeBox = await boxOf(node(page, 's12'));
  const rise = Math.max(60, grip.y - (nodeBox.y + nodeBox.height) + 40);
  expect(rise, 'the drag covers the node').toBeLessThan(canvasBox.height - 80);
  await page.mouse.move(grip.x, grip.y);
  await page.mouse.down();
  await page.mouse.move(grip.x, grip.y - rise, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => onScreen(page, 's12'), { message: 'the selected node is still in view' }).toBe(true);
});
