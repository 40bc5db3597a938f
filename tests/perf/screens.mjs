// Screenshots of the editor as a person first sees it: every template of the gallery as it
// opens, at 1440×900 and 1024×700, light and dark, plus what the text on the canvas measures
// (the smallest node title, kind badge and edge label, in CSS pixels at the opening zoom).
// Run by `./dev screens` after a release build; not part of `./dev test`.
//
//   node tests/perf/screens.mjs [--dist DIR] [--out DIR] [--only WORD]
//
// The pictures go to --out (default target/screens/), one PNG per template, size and theme;
// the table printed lists each with its canvas's size, its zoom, its text sizes, whether every
// node is on screen and clear of the minimap, and which edge labels a node or another label
// covers.
import { DIST, launch, opt, printTable } from './common.mjs';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve } from '../e2e/static-server.mjs';

const OUT = resolve(opt('--out', join(import.meta.dirname, '../../target/screens')));
const ONLY = opt('--only', '');
const SIZES = [[1440, 900], [1024, 700]];
const THEMES = ['light', 'dark'];

mkdirSync(OUT, { recursive: true });
const server = await serve(DIST, 0);
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await launch();
const rows = [];
try {
  for (const [width, height] of SIZES) {
    for (const theme of THEMES) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme: theme });
      const page = await context.newPage();
      await page.goto(base);
      await page.getByRole('button', { name: 'New', exact: true }).waitFor();
      const keys = await page.locator('[data-template]').evaluateAll((els) => els.map((e) => e.getAttribute('data-template')));
      for (const key of keys.filter((k) => k.includes(ONLY))) {
        // A narrow window keeps the library closed, behind the toolbar's Library button.
        const open = page.locator(`[data-template="${key}"]`);
        if (!(await open.isVisible())) await page.getByRole('button', { name: 'Library', exact: true }).click();
        await open.click();
        await page.locator('[data-node-id]').first().waitFor();
        // Let the fit and the first frames settle.
        await page.waitForTimeout(400);
        const file = join(OUT, `${key}-${width}x${height}-${theme}.png`);
        await page.screenshot({ path: file });
        rows.push(await measure(page, key, width, height, theme));
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
printTable([
  ['template @ size theme (canvas)', 'zoom · title · badge · label', 'nodes seen · minimap · labels covered', ''],
  ...rows.map((r) => [
    `${r.name} (${r.canvas})`,
    `${r.zoom} · ${r.title}px · ${r.badge}px · ${r.label}px`,
    `${r.seen}/${r.nodes} · ${r.clear ? 'clear' : 'under map'} · ${r.covered.length ? r.covered.join(', ') : 'none'}`,
    r.ok ? 'ok' : 'LOOK',
  ]),
]);
console.log(`pictures in ${OUT}`);

/** Zoom, smallest text, and whether every node is inside the canvas and off the minimap. */
async function measure(page, key, width, height, theme) {
  return page.evaluate(({ key, width, height, theme }) => {
    const canvas = document.querySelector('.canvas').getBoundingClientRect();
    const map = document.querySelector('.minimap')?.getBoundingClientRect();
    const nodes = [...document.querySelectorAll('[data-node-id]')];
    const inside = (r) => r.left >= canvas.left - 1 && r.right <= canvas.right + 1 && r.top >= canvas.top - 1 && r.bottom <= canvas.bottom + 1;
    const hits = (r, m) => m && r.left < m.right && m.left < r.right && r.top < m.bottom && m.top < r.bottom;
    const transform = getComputedStyle(document.querySelector('.viewport')).transform;
    const zoom = transform === 'none' ? 1 : new DOMMatrix(transform).a;
    const px = (sel) => {
      const sizes = [...document.querySelectorAll(sel)].map((e) => parseFloat(getComputedStyle(e).fontSize) * zoom);
      return sizes.length ? Math.min(...sizes).toFixed(1) : '-';
    };
    const rects = nodes.map((n) => n.getBoundingClientRect());
    const seen = rects.filter(inside).length;
    const clear = !rects.some((r) => hits(r, map));
    const title = px('.node-title');
    // Edge labels a node or another label covers (by the boxes of their text).
    const labels = [...document.querySelectorAll('.edge-label')].map((e) => ({ text: e.textContent, r: e.getBoundingClientRect() }));
    const covered = [];
    labels.forEach((l, i) => {
      if (rects.some((r) => hits(r, l.r)) || labels.some((o, j) => j !== i && hits(o.r, l.r))) covered.push(`"${l.text}"`);
    });
    return {
      name: `${key} @ ${width}x${height} ${theme}`, canvas: `${Math.round(canvas.width)}x${Math.round(canvas.height)}`,
      zoom: zoom.toFixed(2), title, badge: px('.node-kind'), label: px('.edge-label'),
      nodes: nodes.length, seen, clear, covered, ok: seen === nodes.length && clear && Number(title) >= 12 && covered.length === 0,
    };
  }, { key, width, height, theme });
}
