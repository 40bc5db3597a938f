// The editor's test harness: a `test` whose `editor` fixture opens the app in a fresh browser
// context (so localStorage starts empty for every test) and waits until it is ready, plus
// helpers that build graphs by mouse as a person would. Find things by role and accessible
// name, or by the data-* attributes in README, The editor.
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export { expect };

/** Every node kind's palette title, in palette order (the buttons are named `Add <Title>`). */
export const KINDS = [
  'Start', 'End', 'Set', 'Script', 'Router', 'Human', 'LLM', 'HTTP', 'Subgraph', 'Tools', 'Note',
] as const;
export type Kind = (typeof KINDS)[number];

export interface Point {
  x: number;
  y: number;
}

/** The canvas element (pan, zoom, nodes and edges live in it). */
export function canvas(page: Page): Locator {
  return page.locator('.canvas');
}

/** The node with this id. */
export function node(page: Page, id: string): Locator {
  return page.locator(`[data-node-id="${cssEscape(id)}"]`);
}

/** A node's connection handle: `in` (left) or `out` (right). */
export function handle(page: Page, id: string, which: 'in' | 'out'): Locator {
  return node(page, id).locator(`[data-handle="${which}"]`);
}

/** The edges from `from` to `to` (usually one). */
export function edge(page: Page, from: string, to: string): Locator {
  return page.locator(`[data-edge-from="${cssEscape(from)}"][data-edge-to="${cssEscape(to)}"]`);
}

/** The ids of the nodes on the canvas, in document order. */
export async function nodeIds(page: Page): Promise<string[]> {
  return page.locator('[data-node-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-node-id') ?? ''));
}

/** `[from, to]` of every edge on the canvas. */
export async function edgePairs(page: Page): Promise<[string, string][]> {
  return page
    .locator('[data-edge-from]')
    .evaluateAll((els) => els.map((e) => [e.getAttribute('data-edge-from') ?? '', e.getAttribute('data-edge-to') ?? ''] as [string, string]));
}

/** Opens the editor at `/` and waits until the canvas shows its first nodes. */
export async function openEditor(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('button', { name: 'New', exact: true })).toBeVisible();
  await expect(page.locator('[data-node-id]').first()).toBeVisible();
}

/**
 * Clicks `Add <kind>` in the palette and returns the new node's id (the one id that was not
 * on the canvas before).
 */
export async function addNode(page: Page, kind: Kind): Promise<string> {
  const before = new Set(await nodeIds(page));
  await page.getByRole('button', { name: `Add ${kind}`, exact: true }).click();
  let added: string[] = [];
  await expect
    .poll(async () => {
      added = (await nodeIds(page)).filter((id) => !before.has(id));
      return added.length;
    }, { message: `a new ${kind} node appears` })
    .toBe(1);
  return added[0];
}

/** A point given relative to the canvas's top-left corner, in page (CSS pixel) coordinates. */
export async function onCanvas(page: Page, at: Point): Promise<Point> {
  const box = await boxOf(canvas(page));
  return { x: box.x + at.x, y: box.y + at.y };
}

/** Presses at `from`, moves to `to` in `steps` pointer moves, and releases there. */
export async function dragPointer(page: Page, from: Point, to: Point, steps = 12): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + Math.sign(to.x - from.x || 1) * 5, from.y + Math.sign(to.y - from.y || 1) * 5);
  await page.mouse.move(to.x, to.y, { steps });
  await page.mouse.up();
}

/** A node's header (what a person grabs to move it), or the node itself if it has none. */
export async function nodeHeader(page: Page, id: string): Promise<Locator> {
  const header = node(page, id).locator('.node-head');
  return (await header.count()) ? header : node(page, id);
}

/**
 * Drags node `id` by the middle of its header so that this point ends at `to`, a point
 * relative to the canvas's top-left corner (screen pixels). Returns where the middle of the
 * header is afterwards, relative to the canvas (it may differ from `to` by the snap grid).
 */
export async function dragNode(page: Page, id: string, to: Point): Promise<Point> {
  const grab = center(await boxOf(await nodeHeader(page, id)));
  await dragPointer(page, grab, await onCanvas(page, to));
  const after = center(await boxOf(await nodeHeader(page, id)));
  const origin = await boxOf(canvas(page));
  return { x: after.x - origin.x, y: after.y - origin.y };
}

/**
 * Draws an edge by mouse: press on `from`'s out handle, move, release on `to`'s in handle.
 * Waits for the edge to appear.
 */
export async function connect(page: Page, from: string, to: string): Promise<Locator> {
  const start = center(await boxOf(handle(page, from, 'out')));
  const end = center(await boxOf(handle(page, to, 'in')));
  const before = await edge(page, from, to).count();
  await dragPointer(page, start, end);
  const made = edge(page, from, to);
  await expect(made, `edge ${from} → ${to} is drawn`).toHaveCount(before + 1);
  return made;
}

/** Connects `ids` in order by mouse: ids[0] → ids[1] → … */
export async function connectChain(page: Page, ids: string[]): Promise<void> {
  for (let i = 1; i < ids.length; i++) await connect(page, ids[i - 1], ids[i]);
}

/**
 * The element's box in page coordinates. Never scrolls: the canvas clips its content, and
 * scrolling it would shift everything drawn on it.
 */
export async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`no bounding box for ${locator}`);
  return box;
}

export function center(box: { x: number; y: number; width: number; height: number }): Point {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

function cssEscape(s: string): string {
  return s.replace(/["\\]/g, '\\$&');
}

/**
 * `test` with an `editor` fixture: the page, already showing the editor. Playwright gives each
 * test a new browser context, so storage (the saved graphs) starts empty every time.
 */
export const test = base.extend<{ editor: Page }>({
  editor: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await openEditor(page);
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});
