// Every gallery template as it opens on a 1440×900 screen: laid out and fitted so that the
// whole graph is on the canvas, clear of the minimap, at a zoom where a node's title is at
// least 12px; handles on the sides the layout flows to; edge labels where no node or other
// label covers them. And Auto layout (top down) leaves it on screen, fitted, the same way.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, type Page } from './fixtures';

const TEMPLATES = resolve(import.meta.dirname, '../../templates');
const templates = readdirSync(TEMPLATES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => {
    const doc = JSON.parse(readFileSync(resolve(TEMPLATES, file), 'utf8'));
    const start = doc.nodes.find((n: { kind: string }) => n.kind === 'start').id as string;
    return { key: file.replace(/\.json$/, ''), name: doc.name as string, start, nodes: doc.nodes.length as number };
  });

// The linear orchestrator's line of six agent slots is taller than this canvas at a readable
// zoom: it opens readable from its start, the rest a pan away.
const SHOWN_IN_PART = new Set(['004-linear-orchestrator']);
// Auto layout puts one node a layer; the task loop's 23 nodes and its loop then take more
// layers than its hand layout, which packs independent stages side by side: after Auto
// layout it too is shown in part, from its start.
const LAID_OUT_IN_PART = new Set([...SHOWN_IN_PART, '000-task-loop']);

/** The smallest node title in CSS pixels as drawn. */
const READABLE_PX = 12;

test.use({ viewport: { width: 1440, height: 900 } });

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Seen {
  canvas: Box;
  minimap: Box | null;
  zoom: number;
  titlePx: number[];
  nodes: { id: string; box: Box; flowDown: boolean; handleIn: Box | null; handleOut: Box | null }[];
  labels: { text: string; box: Box }[];
}

/** Where everything is on screen now (CSS pixels), and the canvas's zoom. */
async function look(page: Page): Promise<Seen> {
  // Let the fit (made once the canvas has its size) and the labels' placement settle.
  await page.waitForTimeout(300);
  return page.evaluate(() => {
    const box = (e: Element): Box => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const transform = getComputedStyle(document.querySelector('.viewport')!).transform;
    const zoom = transform === 'none' ? 1 : new DOMMatrix(transform).a;
    const map = document.querySelector('.minimap');
    return {
      canvas: box(document.querySelector('.canvas')!),
      minimap: map ? box(map) : null,
      zoom,
      titlePx: [...document.querySelectorAll('.node-title')].map((t) => parseFloat(getComputedStyle(t).fontSize) * zoom),
      nodes: [...document.querySelectorAll('[data-node-id]')].map((n) => {
        const handle = (which: string) => n.querySelector(`[data-handle="${which}"]`);
        const [hin, hout] = [handle('in'), handle('out')];
        return {
          id: n.getAttribute('data-node-id') ?? '',
          box: box(n),
          flowDown: n.classList.contains('flow-down'),
          handleIn: hin ? box(hin) : null,
          handleOut: hout ? box(hout) : null,
        };
      }),
      labels: [...document.querySelectorAll('.edge-label')].map((l) => ({ text: l.textContent ?? '', box: box(l) })),
    };
  });
}

const overlaps = (a: Box, b: Box) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
const inside = (a: Box, outer: Box) =>
  a.left >= outer.left - 1 && a.right <= outer.right + 1 && a.top >= outer.top - 1 && a.bottom <= outer.bottom + 1;
const middle = (b: Box) => ({ x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 });

/** What every template must show, whole or (when it is too big) in part from its start. */
function expectReadableAndClear(seen: Seen, key: string, start: string, whole: boolean) {
  expect(seen.titlePx.length, `${key}: node titles drawn`).toBeGreaterThan(0);
  expect(Math.min(...seen.titlePx), `${key}: smallest title (px)`).toBeGreaterThanOrEqual(READABLE_PX - 0.05);
  const onCanvas = seen.nodes.filter((n) => inside(n.box, seen.canvas));
  if (whole) {
    expect(seen.nodes.filter((n) => !inside(n.box, seen.canvas)).map((n) => n.id), `${key}: nodes off the canvas`).toEqual([]);
    if (seen.minimap) {
      const map = seen.minimap;
      expect(seen.nodes.filter((n) => overlaps(n.box, map)).map((n) => n.id), `${key}: nodes under the minimap`).toEqual([]);
    }
  } else {
    expect(onCanvas.map((n) => n.id), `${key}: its start is in view`).toContain(start);
  }
  // Labels: none under a node or another label (those of the nodes in view, for a graph in part).
  const labels = whole ? seen.labels : seen.labels.filter((l) => inside(l.box, seen.canvas));
  const covered = labels
    .filter((l, i) => seen.nodes.some((n) => overlaps(n.box, l.box)) || labels.some((o, j) => j !== i && overlaps(o.box, l.box)))
    .map((l) => l.text);
  expect(covered, `${key}: labels covered by a node or another label`).toEqual([]);
}

/** Every node's handles follow the flow: top down, `in` above the middle and `out` below it. */
function expectHandlesDown(seen: Seen, key: string) {
  for (const n of seen.nodes) {
    expect(n.flowDown, `${key}: ${n.id} is drawn top down`).toBe(true);
    const c = middle(n.box);
    if (n.handleIn) {
      expect(middle(n.handleIn).y, `${key}: ${n.id}'s in handle is above its middle`).toBeLessThan(c.y - 5);
      expect(Math.abs(middle(n.handleIn).x - c.x), `${key}: ${n.id}'s in handle is centred`).toBeLessThan(2);
    }
    if (n.handleOut) expect(middle(n.handleOut).y, `${key}: ${n.id}'s out handle is below its middle`).toBeGreaterThan(c.y + 5);
  }
}

async function openTemplate(page: Page, name: string, nodes: number) {
  await page.getByRole('button', { name: `Open template ${name}`, exact: true }).click();
  await expect(page.locator('[data-node-id]')).toHaveCount(nodes);
}

for (const t of templates) {
  test(`${t.key} opens laid out top down, fitted and readable, its labels clear`, async ({ editor: page }) => {
    await openTemplate(page, t.name, t.nodes);
    const seen = await look(page);
    expectReadableAndClear(seen, t.key, t.start, !SHOWN_IN_PART.has(t.key));
    expectHandlesDown(seen, t.key);
    if (SHOWN_IN_PART.has(t.key)) {
      // Shown in part only because it is too big: at the readable limit, not further in.
      expect(Math.min(...seen.titlePx)).toBeLessThan(READABLE_PX + 0.5);
    }
  });
}

test('Auto layout keeps each template top down, on screen, fitted and readable', async ({ editor: page }) => {
  for (const t of templates) {
    await openTemplate(page, t.name, t.nodes);
    // Pan away first, so that only the fit after the layout can bring the graph back.
    const box = await page.locator('.canvas').boundingBox();
    if (!box) throw new Error('no canvas');
    await page.mouse.move(box.x + 30, box.y + 30);
    await page.mouse.down();
    await page.mouse.move(box.x + 400, box.y + 300, { steps: 5 });
    await page.mouse.up();
    // The direction offered is the way the template flows: Auto layout keeps it top down.
    await expect(page.getByRole('combobox', { name: 'Layout direction' }), `${t.key}: layout direction offered`).toHaveValue('td');
    await page.getByRole('button', { name: 'Auto layout', exact: true }).click();
    const seen = await look(page);
    expect(Math.min(...seen.titlePx), `${t.key}: smallest title (px)`).toBeGreaterThanOrEqual(READABLE_PX - 0.05);
    const off = seen.nodes.filter((n) => !inside(n.box, seen.canvas)).map((n) => n.id);
    if (LAID_OUT_IN_PART.has(t.key)) {
      expect(seen.nodes.filter((n) => inside(n.box, seen.canvas)).map((n) => n.id), `${t.key}: its start is in view`).toContain(t.start);
    } else {
      expect(off, `${t.key}: nodes off the canvas after Auto layout`).toEqual([]);
    }
    expectHandlesDown(seen, t.key);
  }
});
