// The editor's main user scenarios, end to end: building a graph by mouse, validation shown
// while editing, undo/redo, autosave across a reload, export/import round trips, broken
// imports, HTML in labels, share links, and the smaller conveniences (clipboard across tabs,
// duplicate, search, zoom, marquee, help, theme, templates).
//
// Everything is found as README, The editor describes it: roles and accessible names (the
// inspector's fields are named by their labels), data-node-id, data-handle, data-edge-from/to
// and role=alert. A node's position is read from where it is drawn on screen.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import {
  addNode,
  boxOf,
  canvas,
  center,
  connect,
  connectChain,
  dragNode,
  dragPointer,
  edge,
  edgePairs,
  expect,
  node,
  nodeHeader,
  nodeIds,
  openEditor,
  type Point,
  test,
} from './fixtures';

const TEMPLATES = resolve(import.meta.dirname, '../../templates');
const XSS = '<img src=x onerror="window.__xss=1">';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const library = (page: Page) => page.getByRole('region', { name: 'Library', exact: true });
const problems = (page: Page) => inspector(page).getByRole('region', { name: 'Problems', exact: true });
const button = (page: Page | Locator, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, name: string) => inspector(page).getByRole('textbox', { name, exact: true });

/** Clicks in the middle of a locator by mouse, without scrolling anything. */
async function clickAt(page: Page, locator: Locator, modifiers: ('Shift' | 'Control')[] = []): Promise<void> {
  const p = center(await boxOf(locator));
  for (const m of modifiers) await page.keyboard.down(m);
  await page.mouse.click(p.x, p.y);
  for (const m of modifiers) await page.keyboard.up(m);
}

/** Selects a node by clicking its header, as a person would. */
async function selectNode(page: Page, id: string): Promise<void> {
  await clickAt(page, await nodeHeader(page, id));
  await expect(field(page, 'Id'), `the inspector shows node ${id}`).toHaveValue(id);
}

/** Where a node is drawn (page coordinates). */
async function nodeBox(page: Page, id: string) {
  return boxOf(node(page, id));
}

/** Every node's drawn box, by id. */
async function nodeBoxes(page: Page): Promise<Record<string, { x: number; y: number; width: number; height: number }>> {
  const out: Record<string, { x: number; y: number; width: number; height: number }> = {};
  for (const id of await nodeIds(page)) out[id] = await nodeBox(page, id);
  return out;
}

function expectNear(actual: Point, expected: Point, tolerance: number, what: string): void {
  expect(Math.abs(actual.x - expected.x), `${what}: x ${actual.x} ≈ ${expected.x}`).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual.y - expected.y), `${what}: y ${actual.y} ≈ ${expected.y}`).toBeLessThanOrEqual(tolerance);
}

/** Where an edge's curve passes half-way, in page coordinates (a point on its hit path). */
async function edgeMidpoint(page: Page, from: string, to: string): Promise<Point> {
  return edge(page, from, to).evaluate((g) => {
    const path = g.querySelector('path') as SVGPathElement;
    const p = path.getPointAtLength(path.getTotalLength() / 2);
    const m = path.getScreenCTM();
    if (!m) throw new Error('edge path is not rendered');
    const q = new DOMPoint(p.x, p.y).matrixTransform(m);
    return { x: q.x, y: q.y };
  });
}

/** Clicks an edge on its curve. */
async function clickEdge(page: Page, from: string, to: string): Promise<void> {
  const p = await edgeMidpoint(page, from, to);
  await page.mouse.click(p.x, p.y);
}

/** `from→to` strings, sorted. */
async function edgeList(page: Page): Promise<string[]> {
  return (await edgePairs(page)).map((p) => p.join('→')).sort();
}

/** The names of the graphs listed in the library. */
async function libraryNames(page: Page): Promise<string[]> {
  // Each saved graph is one button named by the graph's name (plus Rename/Duplicate/Delete).
  const names = await library(page)
    .getByRole('button', { name: /^Rename / })
    .evaluateAll((els) => els.map((e) => (e.getAttribute('aria-label') ?? '').replace(/^Rename /, '')));
  return names.sort();
}

/** Clicks `Export` and returns the downloaded document's text and file name. */
async function exportDocument(page: Page): Promise<{ text: string; file: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export').click()]);
  const path = await download.path();
  return { text: readFileSync(path, 'utf8'), file: download.suggestedFilename() };
}

/** Opens the Import dialog. */
async function openImport(page: Page): Promise<Locator> {
  await button(page, 'Import').click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Imports `text` as a file through the `Import file` input. */
async function importFile(page: Page, text: string, name = 'graph.json'): Promise<void> {
  const dialog = await openImport(page);
  await dialog.getByLabel('Import file', { exact: true }).setInputFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(text, 'utf8'),
  });
}

/** Imports `text` through the paste box. */
async function importPasted(page: Page, text: string): Promise<Locator> {
  const dialog = await openImport(page);
  await dialog.getByRole('textbox', { name: 'Paste JSON', exact: true }).fill(text);
  await button(dialog, 'Import pasted JSON').click();
  return dialog;
}

/** Waits until localStorage holds a saved graph (not the index) whose text has every needle. */
async function waitForSaved(page: Page, needles: string[]): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate((needles) => {
          for (let i = 0; i < localStorage.length; i++) {
            const key = localStorage.key(i) ?? '';
            if (!key.startsWith('switchyard.')) continue;
            const value = localStorage.getItem(key) ?? '';
            if (value.includes('"switchyard/graph@1"') && needles.every((n) => value.includes(n))) return true;
          }
          return false;
        }, needles),
      { message: `autosave writes a graph holding ${needles.join(', ')}`, timeout: 5_000 },
    )
    .toBe(true);
}

/** Opens another page in the same context, showing the editor, with page errors collected. */
async function secondPage(context: BrowserContext, errors: string[], path = '/'): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await openEditor(page, path);
  return page;
}

/** Waits for every image load started so far to settle, so a failing `<img>` would have run its onerror. */
async function settleImages(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const probe = new Image();
        probe.onerror = () => done();
        probe.onload = () => done();
        probe.src = `x?probe=${Date.now()}`;
      }),
  );
  // Two animation frames: anything rendered in reaction has been drawn.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function expectNoInjectedHtml(page: Page): Promise<void> {
  await settleImages(page);
  await expect(page.locator('img[src="x"]'), 'no <img> was created from text').toHaveCount(0);
  await expect(canvas(page).locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), 'no script ran').toBeUndefined();
}

/** A fresh context's editor (empty storage), with page errors collected. */
async function freshEditor(browser: Browser, errors: string[], path = '/'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  await openEditor(page, path);
  return { context, page };
}

/** The canvas's size. */
async function canvasSize(page: Page): Promise<{ w: number; h: number }> {
  const b = await boxOf(canvas(page));
  return { w: b.width, h: b.height };
}

/** Adds a Set node, drags it below the start→end line and connects start → set → end. */
async function buildSmallGraph(page: Page): Promise<string> {
  const { w, h } = await canvasSize(page);
  await dragNode(page, 'start', { x: w * 0.2, y: h * 0.3 });
  await dragNode(page, 'end', { x: w * 0.8, y: h * 0.3 });
  const set = await addNode(page, 'Set');
  await dragNode(page, set, { x: w * 0.5, y: h * 0.7 });
  await connectChain(page, ['start', set, 'end']);
  return set;
}

// ---------------------------------------------------------------------------------------------
// 1. Building a graph by mouse
// ---------------------------------------------------------------------------------------------

test('1. a four-node graph built by mouse from New: start → set → router → end', async ({ editor: page }) => {
  await button(page, 'New').click();
  await expect(library(page).getByRole('button', { name: 'My first workflow (2)', exact: true })).toBeVisible();
  await expect(library(page).getByRole('button', { name: 'My first workflow', exact: true }), 'the first graph is kept').toBeVisible();
  await expect.poll(() => nodeIds(page).then((ids) => ids.sort())).toEqual(['end', 'start']);
  await expect(edge(page, 'start', 'end')).toHaveCount(1);

  // Delete the start → end edge: click it, press Delete.
  await clickEdge(page, 'start', 'end');
  await expect(inspector(page).getByRole('combobox', { name: 'From', exact: true }), 'the edge is selected').toBeVisible();
  await page.keyboard.press('Delete');
  await expect(page.locator('[data-edge-from]')).toHaveCount(0);
  expect((await nodeIds(page)).sort(), 'deleting the edge keeps both nodes').toEqual(['end', 'start']);

  const { w, h } = await canvasSize(page);
  // A Z: start top left, set top right, router bottom left, end bottom right.
  const places: Record<string, Point> = {
    start: { x: w * 0.2, y: h * 0.25 },
    set: { x: w * 0.7, y: h * 0.25 },
    router: { x: w * 0.2, y: h * 0.7 },
    end: { x: w * 0.7, y: h * 0.7 },
  };
  const startBefore = await nodeBox(page, 'start');
  const endBefore = await nodeBox(page, 'end');
  await dragNode(page, 'start', places.start);
  await dragNode(page, 'end', places.end);

  const set = await addNode(page, 'Set');
  await expect(node(page, set)).toHaveAttribute('data-kind', 'set');
  const setBefore = await nodeBox(page, set);
  const setAt = await dragNode(page, set, places.set);

  const router = await addNode(page, 'Router');
  await expect(node(page, router)).toHaveAttribute('data-kind', 'router');
  const routerBefore = await nodeBox(page, router);
  const routerAt = await dragNode(page, router, places.router);

  // Every dragged node moved, and landed about where it was dropped (the grid snaps by ≤ 20 canvas units).
  const moved = async (id: string, before: { x: number; y: number }) => {
    const after = await nodeBox(page, id);
    expect(Math.abs(after.x - before.x) + Math.abs(after.y - before.y), `${id} moved`).toBeGreaterThan(20);
  };
  await moved('start', startBefore);
  await moved('end', endBefore);
  await moved(set, setBefore);
  await moved(router, routerBefore);
  expectNear(setAt, places.set, 30, 'the set node lands where it was dropped');
  expectNear(routerAt, places.router, 30, 'the router lands where it was dropped');

  await connect(page, 'start', set);
  await connect(page, set, router);
  await connect(page, router, 'end');

  await expect(page.locator('[data-edge-from][data-edge-to]')).toHaveCount(3);
  expect(await edgeList(page)).toEqual([`${router}→end`, `${set}→${router}`, `start→${set}`].sort());
  expect((await nodeIds(page)).sort()).toEqual(['end', router, set, 'start'].sort());
});

// ---------------------------------------------------------------------------------------------
// 2. Validation while editing a router
// ---------------------------------------------------------------------------------------------

test('2. a broken router expression shows a problem, which clears when fixed; the problem selects its node', async ({
  editor: page,
}) => {
  const { w, h } = await canvasSize(page);
  const router = await addNode(page, 'Router');
  await dragNode(page, router, { x: w * 0.5, y: h * 0.75 });
  await connect(page, 'start', router);
  await connect(page, router, 'end');

  const errorBadge = node(page, router).locator('.badge.error[data-problems]');
  const compileProblem = problems(page).getByRole('button', { name: /does not compile/ });
  await expect(errorBadge, 'a fresh router has no error').toHaveCount(0);
  await expect(compileProblem).toHaveCount(0);

  await selectNode(page, router);
  const route = field(page, 'Route');
  await expect(route).toBeVisible();

  // While typing, the field says at once that the expression does not compile, and where:
  // its status line reads "✗ <Rhai's message> (line L, position P)". The words "does not
  // compile" are the Problems list's, after the commit.
  await route.fill('');
  await route.pressSequentially('state.status ==');
  const bad = inspector(page).getByRole('status').filter({ hasText: '✗' });
  await expect(bad, 'the Route field reports the error while typing').toBeVisible();
  await expect(bad).toContainText(/line \d+, position \d+/);
  // Not committed yet: the canvas has no error badge.
  await expect(errorBadge).toHaveCount(0);

  // Commit (leave the field): the node carries an error badge and the Problems list says why.
  await route.press('Tab');
  await expect(errorBadge, 'the router shows an error badge').toBeVisible();
  await expect(errorBadge).toHaveAttribute('data-problems', /^[1-9]\d*$/);
  await expect(compileProblem).toHaveCount(1);
  await expect(compileProblem).toContainText('Error');
  await expect(compileProblem).toContainText('route');
  await expect(problems(page).getByRole('heading')).toHaveText(/^Problems \(\d+\)$/);

  // Clicking the problem (with nothing selected) selects the router.
  await page.keyboard.press('Escape');
  await expect(field(page, 'Id'), 'nothing is selected').toHaveCount(0);
  await compileProblem.click();
  await expect(field(page, 'Id'), 'the problem selected its node').toHaveValue(router);
  await expect(field(page, 'Route')).toHaveValue('state.status ==');

  // Fix it: the status says it compiles, and the badge and problem go away.
  await field(page, 'Route').fill('state.status');
  await expect(inspector(page).getByRole('status').filter({ hasText: '✓ compiles' })).toBeVisible();
  await field(page, 'Route').press('Tab');
  await expect(errorBadge).toHaveCount(0);
  await expect(compileProblem).toHaveCount(0);
  await expect(inspector(page).getByRole('status').filter({ hasText: '✗' })).toHaveCount(0);
});

// ---------------------------------------------------------------------------------------------
// 3. Undo and redo
// ---------------------------------------------------------------------------------------------

test('3. undo and redo, by button and by keyboard, restore and reapply added and moved nodes', async ({
  editor: page,
}) => {
  const { w, h } = await canvasSize(page);
  const initialIds = (await nodeIds(page)).sort();

  const set = await addNode(page, 'Set');
  const placed = await nodeBox(page, set);
  await dragNode(page, set, { x: w * 0.5, y: h * 0.8 });
  const moved = await nodeBox(page, set);
  expect(Math.abs(moved.y - placed.y), 'the drag moved the node').toBeGreaterThan(40);

  const at = async () => {
    const b = await nodeBox(page, set);
    return { x: b.x, y: b.y };
  };
  const isAt = async (where: { x: number; y: number }, what: string) =>
    expect.poll(at, { message: what }).toEqual({ x: where.x, y: where.y });
  const ids = () => nodeIds(page).then((v) => v.sort());

  // Undo (button): the move is undone.
  await button(page, 'Undo').click();
  await isAt(placed, 'Undo puts the node back where it was added');
  // Undo (Ctrl+Z): the node is gone.
  await page.keyboard.press('Control+z');
  await expect(node(page, set)).toHaveCount(0);
  expect(await ids()).toEqual(initialIds);

  // Redo (button): the node is back, where it was added.
  await expect(button(page, 'Redo')).toBeEnabled();
  await button(page, 'Redo').click();
  await expect(node(page, set)).toHaveCount(1);
  await isAt(placed, 'Redo brings the node back where it was added');
  // Redo (Ctrl+Shift+Z): moved again.
  await page.keyboard.press('Control+Shift+Z');
  await isAt(moved, 'Ctrl+Shift+Z redoes the move');
  await expect(button(page, 'Redo')).toBeDisabled();

  // Ctrl+Z then Ctrl+Y.
  await page.keyboard.press('Control+z');
  await isAt(placed, 'Ctrl+Z undoes the move');
  await page.keyboard.press('Control+y');
  await isAt(moved, 'Ctrl+Y redoes the move');

  // Undo both steps: back to the graph we started with.
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await expect(node(page, set)).toHaveCount(0);
  expect(await ids()).toEqual(initialIds);
});

// ---------------------------------------------------------------------------------------------
// 4. Autosave and reload
// ---------------------------------------------------------------------------------------------

test('4. after autosave, a reload reopens the same graph with its nodes, edges and positions; the Library lists it', async ({
  editor: page,
}) => {
  const set = await buildSmallGraph(page);
  // Name the graph (nothing selected: the inspector edits the graph).
  await page.keyboard.press('Escape');
  await field(page, 'Name').fill('Persisted graph');
  await field(page, 'Name').press('Enter');
  await expect(library(page).getByRole('button', { name: 'Persisted graph', exact: true })).toBeVisible();

  const ids = (await nodeIds(page)).sort();
  const edges = await edgeList(page);
  const boxes = await nodeBoxes(page);
  expect(ids).toContain(set);
  expect(edges).toEqual([`${set}→end`, `start→end`, `start→${set}`].sort());

  // The rename is the last edit: once it is saved, so is everything before it.
  await waitForSaved(page, ['"Persisted graph"', `"${set}"`]);

  await page.reload();
  await expect(page.locator('[data-node-id]').first()).toBeVisible();
  await expect.poll(() => nodeIds(page).then((v) => v.sort())).toEqual(ids);
  expect(await edgeList(page)).toEqual(edges);
  const after = await nodeBoxes(page);
  for (const id of ids) {
    expectNear(after[id], boxes[id], 1, `${id} is drawn where it was before the reload`);
  }
  await expect(library(page).getByRole('button', { name: 'Persisted graph', exact: true })).toBeVisible();
  await expect(field(page, 'Name')).toHaveValue('Persisted graph');
});

// ---------------------------------------------------------------------------------------------
// 5. Export, import, export
// ---------------------------------------------------------------------------------------------

for (const source of ['a graph built by mouse', 'a template'] as const) {
  test(`5. exporting ${source}, importing it and exporting again gives the same document`, async ({
    editor: page,
  }) => {
    if (source === 'a template') {
      await library(page).getByRole('button', { name: 'Open template Approval workflow', exact: true }).click();
      await expect(library(page).getByRole('button', { name: 'Approval workflow', exact: true })).toBeVisible();
    } else {
      const set = await buildSmallGraph(page);
      await selectNode(page, set);
      await field(page, 'Label').fill('Classify “this” & that');
      await field(page, 'Label').press('Enter');
      await expect(node(page, set)).toContainText('Classify “this” & that');
    }

    const first = await exportDocument(page);
    const doc = JSON.parse(first.text);
    expect(doc.format).toBe('switchyard/graph@1');
    expect(first.file).toMatch(/\.json$/);
    const name: string = doc.name;
    const idsBefore = (await nodeIds(page)).sort();
    const edgesBefore = await edgeList(page);
    expect(doc.nodes.map((n: { id: string }) => n.id).sort()).toEqual(idsBefore);

    await importFile(page, first.text, first.file);
    // Importing opens the document as a new graph. The library already holds one of that
    // name, so the import is renamed "<name> (2)"; it is otherwise the same document.
    const importedName = `${name} (2)`;
    await expect(library(page).getByRole('button', { name: importedName, exact: true })).toBeVisible();
    await expect(library(page).getByRole('button', { name, exact: true })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Import' })).toHaveCount(0);
    await expect.poll(() => nodeIds(page).then((v) => v.sort())).toEqual(idsBefore);
    expect(await edgeList(page)).toEqual(edgesBefore);

    const second = await exportDocument(page);
    const secondDoc = JSON.parse(second.text);
    expect(secondDoc.name, 'the import was renamed').toBe(importedName);
    // Byte-identical once the name is put back.
    const normalised = second.text.replace(
      `"name": ${JSON.stringify(importedName)}`,
      `"name": ${JSON.stringify(name)}`,
    );
    expect(normalised).toBe(first.text);
  });
}

// ---------------------------------------------------------------------------------------------
// 6. Broken imports
// ---------------------------------------------------------------------------------------------

test('6. importing broken JSON shows an alert saying where, and changes nothing', async ({ editor: page }) => {
  await buildSmallGraph(page);
  // The view can still move just after the drags that built the graph: in CI the saved
  // viewport changed during the first import below, by the same amount every time, but never
  // after a pause (moving the pointer away does not help). Let it come to rest before the
  // document is taken as the reference; the cause is not found yet.
  await page.waitForTimeout(1500);
  const before = await exportDocument(page);
  const ids = (await nodeIds(page)).sort();
  const edges = await edgeList(page);
  const graphs = await libraryNames(page);
  const alerts = page.getByRole('alert');
  await expect(alerts).toHaveCount(0);

  const unchanged = async (what: string) => {
    expect((await nodeIds(page)).sort(), `${what}: the nodes are unchanged`).toEqual(ids);
    expect(await edgeList(page), `${what}: the edges are unchanged`).toEqual(edges);
    expect(await libraryNames(page), `${what}: the library is unchanged`).toEqual(graphs);
    expect((await exportDocument(page)).text, `${what}: the document is unchanged`).toBe(before.text);
  };

  // Truncated, pasted.
  const truncated = before.text.slice(0, Math.floor(before.text.length / 2));
  const lines = truncated.split('\n').length;
  const dialog = await importPasted(page, truncated);
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toContainText('the pasted text');
  await expect(alerts).toContainText(new RegExp(`line ${lines}, column \\d+`));
  await expect(alerts).toContainText(/truncated|ends too early/);
  await expect(dialog, 'the dialog stays open to fix the text').toBeVisible();
  await button(dialog, 'Cancel').click();
  await unchanged('a truncated paste');
  await alerts.getByRole('button', { name: 'Dismiss' }).click();
  await expect(alerts).toHaveCount(0);

  // Truncated, as a file.
  await importFile(page, truncated, 'broken.json');
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toContainText('broken.json');
  await expect(alerts).toContainText(new RegExp(`line ${lines}, column \\d+`));
  await unchanged('a truncated file');
  await alerts.getByRole('button', { name: 'Dismiss' }).click();

  // Well-formed JSON with a misspelt field: the alert names its path.
  const doc = JSON.parse(before.text);
  doc.nodes[1].lable = 'typo';
  await importPasted(page, JSON.stringify(doc, null, 2));
  await expect(alerts).toHaveCount(1);
  await expect(alerts).toContainText('nodes[1].lable');
  await page.keyboard.press('Escape');
  await unchanged('a misspelt field');
});

// ---------------------------------------------------------------------------------------------
// 7. HTML in labels is text
// ---------------------------------------------------------------------------------------------

test('7. a label holding HTML is shown as text and runs nothing (typed, and imported)', async ({ editor: page }) => {
  const set = await addNode(page, 'Set');
  await selectNode(page, set);
  await field(page, 'Label').fill(XSS);
  await field(page, 'Label').press('Enter');
  await expect(node(page, set), 'the node shows the literal text').toContainText(XSS);
  await expect(inspector(page).getByRole('heading', { name: XSS, exact: true })).toBeVisible();
  await expectNoInjectedHtml(page);

  // An imported document with HTML in a label, a description, an edge label and the name.
  const doc = {
    format: 'switchyard/graph@1',
    name: `Evil ${XSS}`,
    description: XSS,
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'evil', kind: 'set', label: XSS, description: `<b>bold</b> ${XSS}`, set: { x: '1' } },
      { id: 'note', kind: 'note', text: `<script>window.__xss=2</script>${XSS}` },
      { id: 'end', kind: 'end' },
    ],
    edges: [
      { from: 'start', to: 'evil', label: XSS },
      { from: 'evil', to: 'end' },
    ],
  };
  await importFile(page, JSON.stringify(doc, null, 2), 'evil.json');
  await expect(node(page, 'evil')).toBeVisible();
  await expect(node(page, 'evil')).toContainText(XSS);
  await expect(library(page).getByRole('button', { name: `Evil ${XSS}`, exact: true })).toBeVisible();
  await selectNode(page, 'evil');
  await expect(field(page, 'Description')).toHaveValue(`<b>bold</b> ${XSS}`);
  await expect(inspector(page).locator('b')).toHaveCount(0);
  await expectNoInjectedHtml(page);
  await expect(page.locator('script:has-text("__xss")')).toHaveCount(0);
});

// ---------------------------------------------------------------------------------------------
// 8. Share links
// ---------------------------------------------------------------------------------------------

test('8. a share link opens the same graph elsewhere', async ({ editor: page, browser }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const set = await buildSmallGraph(page);
  const ids = (await nodeIds(page)).sort();
  const edges = await edgeList(page);

  await button(page, 'Share').click();
  const dialog = page.getByRole('dialog', { name: 'Share link' });
  await expect(dialog).toBeVisible();
  const link = await dialog.getByRole('textbox', { name: 'Share link', exact: true }).inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*#graph=[A-Za-z0-9_-]+$/);
  // The dialog says the link was copied to the clipboard.
  await expect(dialog).toContainText('copied to your clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await button(dialog, 'Done').click();
  await expect(dialog).toHaveCount(0);

  // In a new tab of the same browser: the shared graph is imported next to the original.
  const errors: string[] = [];
  const other = await secondPage(page.context(), errors, link);
  await expect.poll(() => nodeIds(other).then((v) => v.sort())).toEqual(ids);
  expect(await edgeList(other)).toEqual(edges);
  await expect(library(other).getByRole('button', { name: 'My first workflow (2)', exact: true })).toBeVisible();
  // The fragment is dropped, so a reload does not import it again.
  expect(new URL(other.url()).hash).toBe('');
  await other.close();

  // In a fresh browser with empty storage.
  const fresh = await freshEditor(browser, errors, link);
  await expect.poll(() => nodeIds(fresh.page).then((v) => v.sort())).toEqual(ids);
  expect(await edgeList(fresh.page)).toEqual(edges);
  await expect(node(fresh.page, set)).toHaveAttribute('data-kind', 'set');
  await fresh.context.close();
  expect(errors, 'uncaught errors in the other pages').toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// Smaller checks
// ---------------------------------------------------------------------------------------------

test.describe('conveniences', () => {
  for (const clipboard of ['with', 'without'] as const) {
  test(`copy in one tab, paste in another (Ctrl+C / Ctrl+V), ${clipboard} clipboard permissions`, async ({ editor: page }) => {
    // Without permission the system clipboard stays empty; the app falls back to local storage.
    if (clipboard === 'with') await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const set = await addNode(page, 'Set');
    await selectNode(page, set);
    await field(page, 'Label').fill('Copied node');
    await field(page, 'Label').press('Enter');
    await expect(node(page, set)).toContainText('Copied node');
    await clickAt(page, await nodeHeader(page, set));
    await page.keyboard.press('Control+c');
    await expect(page.getByRole('status').filter({ hasText: 'Copied 1 node' })).toBeVisible();

    const errors: string[] = [];
    const other = await secondPage(page.context(), errors);
    const before = await nodeIds(other);
    await other.keyboard.press('Control+v');
    await expect.poll(() => nodeIds(other).then((v) => v.length), { message: 'a node is pasted' }).toBe(before.length + 1);
    const pasted = (await nodeIds(other)).filter((id) => !before.includes(id));
    expect(pasted).toHaveLength(1);
    await expect(node(other, pasted[0])).toHaveAttribute('data-kind', 'set');
    await expect(node(other, pasted[0])).toContainText('Copied node');
    await expect(other.getByRole('status').filter({ hasText: 'Pasted 1 node' })).toBeVisible();
    expect(errors).toEqual([]);
  });
  }

  test('Ctrl+D duplicates the selected node', async ({ editor: page }) => {
    const set = await addNode(page, 'Set');
    await selectNode(page, set);
    const before = await nodeIds(page);
    await page.keyboard.press('Control+d');
    await expect.poll(() => nodeIds(page).then((v) => v.length)).toBe(before.length + 1);
    const copy = (await nodeIds(page)).find((id) => !before.includes(id))!;
    await expect(node(page, copy)).toHaveAttribute('data-kind', 'set');
    const a = await nodeBox(page, set);
    const b = await nodeBox(page, copy);
    expect(Math.abs(a.x - b.x) + Math.abs(a.y - b.y), 'the copy is offset from the original').toBeGreaterThan(10);
    await expect(field(page, 'Id'), 'the copy is selected').toHaveValue(copy);
  });

  test('Ctrl+K finds a node, selects it and centres it', async ({ editor: page }) => {
    const { w, h } = await canvasSize(page);
    const set = await addNode(page, 'Set');
    await dragNode(page, set, { x: w * 0.85, y: h * 0.85 });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Find a node' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Find a node' }).fill(set);
    await expect(dialog.getByRole('option')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(field(page, 'Id')).toHaveValue(set);
    const c = center(await nodeBox(page, set));
    const cv = await boxOf(canvas(page));
    // The app centres the node's box as the model sizes it (72 units high) while it is drawn
    // 64 high, so the drawn centre is a few pixels off (reported); 10 px is still "centred".
    expectNear(c, center(cv), 10, 'the found node is in the middle of the canvas');
  });

  test('Zoom in, Zoom out and Fit view change the canvas scale', async ({ editor: page }) => {
    const width = async () => (await nodeBox(page, 'start')).width;
    const w0 = await width();
    await button(page, 'Zoom in').click();
    await expect.poll(width).toBeCloseTo(w0 * 1.25, 0);
    await button(page, 'Zoom out').click();
    await button(page, 'Zoom out').click();
    await expect.poll(width).toBeCloseTo(w0 * 0.8, 0);
    // Pan the graph mostly out of sight, then Fit view brings every node back into view.
    const cv = await boxOf(canvas(page));
    await dragPointer(page, { x: cv.x + 20, y: cv.y + cv.height - 20 }, { x: cv.x + cv.width - 20, y: cv.y + cv.height - 20 });
    await button(page, 'Fit view').click();
    for (const id of await nodeIds(page)) {
      const b = await nodeBox(page, id);
      expect(b.x, `${id} inside the canvas`).toBeGreaterThanOrEqual(cv.x);
      expect(b.x + b.width).toBeLessThanOrEqual(cv.x + cv.width);
      expect(b.y).toBeGreaterThanOrEqual(cv.y);
      expect(b.y + b.height).toBeLessThanOrEqual(cv.y + cv.height);
    }
  });

  test('a large graph seen from far out shows plain boxes, and labels near the screen once zoomed in', async ({ editor: page }) => {
    // 400 set nodes on a 20-wide grid, chained.
    const nodes: object[] = [{ id: 'start', kind: 'start' }];
    const edges: object[] = [];
    const positions: Record<string, { x: number; y: number }> = { start: { x: 0, y: 0 } };
    let prev = 'start';
    for (let i = 1; i <= 400; i++) {
      const id = `s${i}`;
      nodes.push({ id, kind: 'set', label: `Step ${i}`, set: { n: String(i) } });
      edges.push({ from: prev, to: id });
      positions[id] = { x: (i % 20) * 260, y: Math.floor(i / 20) * 140 };
      prev = id;
    }
    const doc = { format: 'switchyard/graph@1', name: 'Big', nodes, edges, layout: positions };
    const dialog = await openImport(page);
    // The whole text in one input event, as a paste does (typing 60 KB would take minutes).
    await dialog.getByRole('textbox', { name: 'Paste JSON', exact: true }).evaluate((el, value) => {
      (el as HTMLTextAreaElement).value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, JSON.stringify(doc));
    await button(dialog, 'Import pasted JSON').click();
    await expect(page.locator('[data-node-id]')).toHaveCount(401);
    // Fit view stops where text is still readable (a graph this big is shown in part, from
    // its start); zooming out from there reaches the far view.
    await button(page, 'Fit view').click();
    await expect(node(page, 'start')).toBeInViewport();
    await expect(node(page, 'start').locator('.node-title')).toBeVisible();
    for (let i = 0; i < 12 && (await page.locator('.node-head').count()) > 0; i++) {
      await button(page, 'Zoom out').click();
    }
    // From far out: every node is there (with its data attributes), without its inner text.
    await expect(page.locator('.node-head')).toHaveCount(0);
    await expect(node(page, 's250')).toHaveAttribute('data-kind', 'set');
    await expect(page.locator('[data-edge-from]')).toHaveCount(400);
    // Closer in, the nodes near the screen show their labels again; those far from it stay
    // plain boxes (every node is still there with its data attributes) until the view comes
    // near them.
    await button(page, 'Fit view').click();
    await expect(node(page, 'start').locator('.node-title')).toBeVisible();
    await expect(node(page, 's399')).toHaveAttribute('data-kind', 'set');
    await expect(node(page, 's399').locator('.node-title')).toHaveCount(0);
    await expect(node(page, 's399')).toHaveClass(/\bplain\b/);
    const detailed = await page.locator('.node-head').count();
    expect(detailed).toBeGreaterThan(0);
    expect(detailed).toBeLessThan(401);
    await page.keyboard.press('Control+k');
    await page.getByRole('textbox', { name: 'Find a node' }).fill('s399');
    await page.keyboard.press('Enter');
    await expect(node(page, 's399').locator('.node-title')).toHaveText('Step 399');
    await expect(node(page, 's399')).toBeInViewport();
    await expect(node(page, 'start').locator('.node-title')).toHaveCount(0);
  });

  test('Shift+drag on the background selects several nodes with a marquee', async ({ editor: page }) => {
    const cv = await boxOf(canvas(page));
    const ids = await nodeIds(page);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    await page.keyboard.down('Shift');
    await dragPointer(page, { x: cv.x + 5, y: cv.y + 5 }, { x: cv.x + cv.width - 120, y: cv.y + cv.height - 5 });
    await page.keyboard.up('Shift');
    await expect(inspector(page).getByRole('heading', { name: `${ids.length} items selected` })).toBeVisible();
    await page.keyboard.press('Delete');
    await expect(page.locator('[data-node-id]')).toHaveCount(0);
  });

  test('the help panel lists the keyboard shortcuts', async ({ editor: page }) => {
    await page.getByRole('button', { name: 'Help', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(dialog).toBeVisible();
    for (const key of ['Ctrl+Z', 'Ctrl+Shift+Z / Ctrl+Y', 'Ctrl+C', 'Ctrl+V', 'Ctrl+D', 'Ctrl+K', 'Shift+drag']) {
      await expect(dialog.getByRole('row').filter({ hasText: key }).first()).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await page.keyboard.press('?');
    await expect(dialog).toBeVisible();
  });

  test('the theme button toggles dark mode on <html>, and it stays after a reload', async ({ editor: page }) => {
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'light');
    await page.getByRole('button', { name: 'Dark theme', exact: true }).click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.getByRole('button', { name: 'Light theme', exact: true }).click();
    await expect(html).toHaveAttribute('data-theme', 'light');
  });

  test('the template gallery opens a template as a new graph', async ({ editor: page }) => {
    const tpl = JSON.parse(readFileSync(resolve(TEMPLATES, '002-agent-graph.json'), 'utf8'));
    await library(page).getByRole('button', { name: `Open template ${tpl.name}`, exact: true }).click();
    await expect(library(page).getByRole('button', { name: tpl.name, exact: true })).toBeVisible();
    await expect
      .poll(() => nodeIds(page).then((v) => v.sort()))
      .toEqual(tpl.nodes.map((n: { id: string }) => n.id).sort());
    expect(await edgeList(page)).toEqual(tpl.edges.map((e: { from: string; to: string }) => `${e.from}→${e.to}`).sort());
    await expect(problems(page).getByRole('heading')).toHaveText(/No problems|Problems/);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
