// Measures the editor with a large graph: 1,000 nodes and 1,500 edges laid out on a grid.
// Run by `./dev perf` after a release build (dist/); not part of `./dev test`.
//
//   node tests/perf/editor-perf.mjs [--dist DIR] [--nodes N] [--edges M] [--seconds S] [--runs R] [--json]
//   node tests/perf/editor-perf.mjs --print-graph     (only print the generated graph document)
//   node tests/perf/editor-perf.mjs --css '.viewport { will-change: transform }'
//                                  (try a style rule without rebuilding: added to every page)
//
// Reports:
//   open      navigation → all nodes in the DOM, the graph saved in localStorage beforehand
//   import    click on "Import pasted JSON" → all nodes in the DOM
//             (with --runs R, both are the medians of R runs in fresh pages, their range beside)
//   pan       frames per second while dragging the empty canvas background
//   drag      frames per second while dragging one node by its header, and which other
//             nodes and edges the DOM changes of that drag touched (none should be)
//   type      a key typed into the Label of a node → the frame showing it; Tab (the commit) → the frame after
//   wasm      the release .wasm files in dist/ (the editor's and the run worker's), raw and gzipped
// Frames are counted in the page with requestAnimationFrame; input is real mouse events
// (Chromium's input pipeline), sent as fast as the page takes them.
import { args, DIST, JSON_OUT, launch, opt, printTable } from './common.mjs';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { serve } from '../e2e/static-server.mjs';

const NODES = Number(opt('--nodes', 1000));
const EDGES = Number(opt('--edges', 1500));
const SECONDS = Number(opt('--seconds', 2));
// Opening and importing are timed this many times (fresh pages); the table gives their medians.
const RUNS = Math.max(1, Number(opt('--runs', 1)));
const EXTRA_CSS = opt('--css');
// A key shows within two frames at 60 fps; a commit of one field within 100 ms.
const TARGETS = { open: 1000, fps: 50, gzip: 600 * 1024, key: 34, commit: 100 };

// ---------------------------------------------------------------------------------------
// The graph: start → n0001 → … → end as a chain, plus forward "skip" edges chosen by a seeded
// generator, every node on a grid. All `set` nodes, so the document is valid and runnable.

function makeGraph(nodeCount = NODES, edgeCount = EDGES) {
  const middle = nodeCount - 2;
  const id = (i) => (i === 0 ? 'start' : i === nodeCount - 1 ? 'end' : `n${String(i).padStart(4, '0')}`);
  const nodes = [];
  for (let i = 0; i < nodeCount; i++) {
    if (i === 0) nodes.push({ id: 'start', kind: 'start' });
    else if (i === nodeCount - 1) nodes.push({ id: 'end', kind: 'end' });
    else nodes.push({ id: id(i), kind: 'set', label: `Step ${i}`, set: { count: '1' } });
  }
  const edges = [];
  const seen = new Set();
  const add = (a, b) => {
    const key = `${a}>${b}`;
    if (a === b || seen.has(key)) return false;
    seen.add(key);
    edges.push({ from: id(a), to: id(b) });
    return true;
  };
  for (let i = 0; i < nodeCount - 1; i++) add(i, i + 1);
  let seed = 12345;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  while (edges.length < edgeCount) {
    const a = 1 + rand(middle); // a set node
    const b = Math.min(a + 2 + rand(30), nodeCount - 1); // a later node, or end
    add(a, b);
  }
  const columns = Math.ceil(Math.sqrt(nodeCount * 1.6));
  const layout = {};
  nodes.forEach((n, i) => {
    layout[n.id] = { x: (i % columns) * 300, y: Math.floor(i / columns) * 160 };
  });
  return {
    format: 'switchyard/graph@1',
    name: `Perf ${nodeCount} nodes`,
    description: `${nodeCount} nodes and ${edges.length} edges on a grid, for ./dev perf`,
    state: { count: { type: 'number', reducer: 'add', default: 0 } },
    nodes,
    edges,
    limits: { max_steps: nodeCount + 10 },
    layout,
  };
}

// ---------------------------------------------------------------------------------------
// In the page: a MutationObserver notes when the N-th node appears, and a frame counter.

function pageProbe(expected) {
  const perf = { expected, firstNodeAt: null, allNodesAt: null, paintedAt: null, clickAt: null };
  window.__perf = perf;
  const check = () => {
    if (perf.firstNodeAt === null && document.querySelector('[data-node-id]')) perf.firstNodeAt = performance.now();
    if (perf.allNodesAt === null && document.querySelectorAll('[data-node-id]').length >= perf.expected) {
      perf.allNodesAt = performance.now();
      requestAnimationFrame(() => setTimeout(() => (perf.paintedAt = performance.now()), 0));
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  // Clicks on the import button are timed from the moment they happen.
  document.addEventListener(
    'click',
    (e) => {
      if (e.target instanceof Element && e.target.closest('button')?.textContent?.trim() === 'Import pasted JSON') {
        perf.clickAt = performance.now();
        perf.allNodesAt = null;
        perf.paintedAt = null;
      }
    },
    true,
  );
  // Frame counting, started and stopped from the test. It also times each pointermove from
  // a capturing listener on window (runs before the app's) to one added on window after the
  // app's: that is the app's script time per move, its DOM updates included (Leptos applies
  // them in microtasks, which run before the next listener).
  let moveStart = 0;
  window.addEventListener('pointermove', () => (moveStart = performance.now()), true);
  const afterApp = () => {
    if (window.__frames.running) window.__frames.script.push(performance.now() - moveStart);
  };
  window.__frames = {
    start() {
      this.times = [];
      this.script = [];
      this.moves = 0;
      this.loaf = [];
      this.running = true;
      window.removeEventListener('pointermove', afterApp);
      window.addEventListener('pointermove', afterApp);
      const tick = (t) => {
        if (!this.running) return;
        this.times.push(t);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    stop() {
      this.running = false;
      const t = this.times;
      const gaps = t.slice(1).map((x, i) => x - t[i]).sort((a, b) => a - b);
      const span = t.length > 1 ? t[t.length - 1] - t[0] : 0;
      const script = [...this.script].sort((a, b) => a - b);
      return {
        scriptMedian: script.length ? script[Math.floor(script.length / 2)] : 0,
        scriptWorst: script.length ? script[script.length - 1] : 0,
        frames: t.length,
        fps: span > 0 ? ((t.length - 1) * 1000) / span : 0,
        p95: gaps.length ? gaps[Math.floor(gaps.length * 0.95)] : 0,
        worst: gaps.length ? gaps[gaps.length - 1] : 0,
        moves: this.moves,
        longFrames: this.loaf.length,
        longScript: this.loaf.reduce((sum, x) => sum + x.script, 0),
        longStyleLayout: this.loaf.reduce((sum, x) => sum + x.styleLayout, 0),
        longTotal: this.loaf.reduce((sum, x) => sum + x.duration, 0),
      };
    },
  };
  window.addEventListener('pointermove', () => window.__frames.running && window.__frames.moves++, true);
  // Long animation frames (over 50 ms) seen while measuring: how much of them was script and
  // how much style and layout (the rest of a frame's cost, paint and raster, is not on the
  // main thread).
  try {
    new PerformanceObserver((list) => {
      if (!window.__frames.running) return;
      for (const e of list.getEntries()) {
        const renderStart = e.renderStart || e.startTime + e.duration;
        const styleStart = e.styleAndLayoutStart || renderStart;
        window.__frames.loaf.push({
          duration: e.duration,
          script: e.scripts.reduce((sum, x) => sum + x.duration, 0),
          styleLayout: e.startTime + e.duration - styleStart,
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: false });
  } catch {
    // Not supported: no breakdown.
  }
}

async function waitForAllNodes(page, what) {
  await page.waitForFunction(() => window.__perf.paintedAt !== null, null, { timeout: 60_000 }).catch(() => {
    throw new Error(`${what}: the ${NODES} nodes did not all appear within 60 s`);
  });
  return page.evaluate(() => window.__perf);
}

/** A point in the canvas with nothing on it (so a drag there pans), near `prefer`. */
async function emptyCanvasPoint(page) {
  return page.evaluate(() => {
    const canvas = document.querySelector('.canvas');
    const r = canvas.getBoundingClientRect();
    const busy = '[data-node-id], .edge, .minimap, button, input, select, textarea, [role=dialog]';
    let best = null;
    for (let fy = 0.5; fy < 0.95 && !best; fy += 0.02) {
      for (let fx = 0.5; fx < 0.95; fx += 0.02) {
        for (const [x, y] of [[r.left + r.width * fx, r.top + r.height * fy], [r.left + r.width * (1 - fx), r.top + r.height * (1 - fy)]]) {
          const el = document.elementFromPoint(x, y);
          if (el && canvas.contains(el) && !el.closest(busy)) {
            best = { x, y };
            break;
          }
        }
        if (best) break;
      }
    }
    return best;
  });
}

/** Holds the mouse down at `from` and moves it back and forth for `seconds`. */
async function measureDrag(page, from, seconds, radius = 150) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 6, from.y + 6);
  await page.evaluate(() => window.__frames.start());
  const started = Date.now();
  let i = 0;
  while (Date.now() - started < seconds * 1000) {
    const a = (i++ / 40) * Math.PI * 2;
    await page.mouse.move(from.x + Math.sin(a) * radius, from.y + Math.sin(2 * a) * radius * 0.4);
  }
  // End well away from the start, so that the gesture has a visible result.
  await page.mouse.move(from.x + radius, from.y + radius / 2);
  const result = await page.evaluate(() => window.__frames.stop());
  await page.mouse.up();
  return { ...result, sent: i };
}

/** In the page: starts noting which nodes and edges the DOM changes of a gesture touch. */
function watchMutations() {
  const nodes = new Set();
  const edges = new Set();
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target instanceof Element ? r.target : r.target.parentElement;
      const n = el?.closest('[data-node-id]');
      if (n) nodes.add(n.getAttribute('data-node-id'));
      const e = el?.closest('[data-edge-index]');
      if (e) edges.add(e);
    }
  });
  observer.observe(document.querySelector('.viewport'), { subtree: true, childList: true, attributes: true, characterData: true });
  window.__mutations = {
    // What was touched besides node `id` and the edges into or out of it.
    stop(id) {
      observer.takeRecords();
      observer.disconnect();
      const own = (e) => e.getAttribute('data-edge-from') === id || e.getAttribute('data-edge-to') === id;
      return {
        node: nodes.has(id),
        otherNodes: [...nodes].filter((n) => n !== id).length,
        ownEdges: [...edges].filter(own).length,
        otherEdges: [...edges].filter((e) => !own(e)).length,
      };
    },
  };
}

async function idleFps(page, seconds = 1) {
  await page.evaluate(() => window.__frames.start());
  await page.waitForTimeout(seconds * 1000);
  return page.evaluate(() => window.__frames.stop());
}

/** The editor's module (loaded before the first paint) and the run worker's (after it). */
function wasmSizes() {
  const size = (file) => {
    const path = join(DIST, file);
    if (!readdirSync(DIST).includes(file)) throw new Error(`no ${file} in ${DIST}: build first (./dev perf does)`);
    const bytes = readFileSync(path);
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length };
  };
  return { ...size('app_bg.wasm'), worker: size('worker_bg.wasm') };
}

/**
 * Typing into the selected node's Label on the large graph: how long from a key press to the
 * frame that shows it (the median of five), and from Tab (which commits the label: an edit of
 * the document, validated again) to the frame after it.
 */
async function measureTyping(page, id) {
  await page.locator(`[data-node-id="${id}"]`).click();
  const label = page.getByRole('region', { name: 'Inspector', exact: true }).getByRole('textbox', { name: 'Label', exact: true });
  await label.click();
  const frameAfter = async (key) => {
    await page.evaluate((key) => {
      window.__typed = null;
      document.addEventListener('keydown', (e) => {
        if (e.key !== key) return;
        const t0 = performance.now();
        requestAnimationFrame(() => requestAnimationFrame(() => { window.__typed = performance.now() - t0; }));
      }, { capture: true, once: true });
    }, key);
    await page.keyboard.press(key);
    await page.waitForFunction(() => window.__typed !== null);
    return page.evaluate(() => window.__typed);
  };
  const keys = [];
  for (const k of ['q', 'u', 'i', 'e', 't']) keys.push(await frameAfter(k));
  const commit = await frameAfter('Tab');
  return { key: median(keys), commit };
}

async function main() {
  const graph = makeGraph();
  const text = JSON.stringify(graph, null, 2);
  if (args.includes('--print-graph')) {
    process.stdout.write(`${text}\n`);
    return;
  }
  const wasm = wasmSizes();

  const server = await serve(DIST, 0);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launch();
  const results = {};
  const pageErrors = [];
  try {
    const newPage = async () => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      await page.addInitScript(pageProbe, NODES);
      if (EXTRA_CSS) {
        await page.addInitScript((css) => {
          document.addEventListener('DOMContentLoaded', () => {
            const style = document.createElement('style');
            style.textContent = css;
            document.head.append(style);
          });
        }, EXTRA_CSS);
      }
      // A blank page on the app's origin, to write localStorage before the app starts.
      await page.route('**/__blank', (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
      return page;
    };

    // Opening a saved 1,000-node graph: navigation → every node in the DOM (and painted).
    const openGraph = async () => {
      const page = await newPage();
      await page.goto(`${base}/__blank`);
      await page.evaluate((doc) => {
        const id = 'perf-graph';
        localStorage.clear();
        localStorage.setItem(`switchyard.graph.${id}`, doc);
        localStorage.setItem('switchyard.index', JSON.stringify({ entries: [{ id, name: 'Perf graph', updated: Date.now() }] }));
        localStorage.setItem('switchyard.setting.current', id);
      }, text);
      await page.goto(`${base}/`);
      const p = await waitForAllNodes(page, 'open');
      const nav = await page.evaluate(() => {
        const n = performance.getEntriesByType('navigation')[0];
        const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
        return { domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd, wasmLoaded: wasm?.responseEnd ?? 0 };
      });
      return { page, open: { ms: p.allNodesAt, paintedMs: p.paintedAt, ...nav } };
    };
    // Importing the same graph through the Import dialog's pasted JSON: click → every node.
    const importGraph = async () => {
      const page = await newPage();
      await page.goto(`${base}/`);
      await page.locator('[data-node-id]').first().waitFor();
      const start = await page.evaluate(() => {
        const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
        return { ms: window.__perf.firstNodeAt, wasmLoaded: wasm?.responseEnd ?? 0 };
      });
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      // As a paste does: the whole text at once, one input event. (Playwright's fill() types
      // multi-line text into a textarea in time that grows with the square of its length:
      // 20 s for 40 KB even on a bare page.)
      const area = page.getByRole('textbox', { name: 'Paste JSON' });
      await area.evaluate((el, value) => {
        el.value = value;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, text);
      await page.getByRole('button', { name: 'Import pasted JSON' }).click();
      const p = await waitForAllNodes(page, 'import');
      await page.context().close();
      return { ms: p.allNodesAt - p.clickAt, paintedMs: p.paintedAt - p.clickAt, start };
    };

    // 1. Opening, then in the same page the idle frame rate, panning and dragging.
    {
      const { page, open } = await openGraph();
      results.open = open;
      results.openRuns = [open.ms];
      results.nodesInDom = await page.locator('[data-node-id]').count();
      results.edgesInDom = await page.locator('[data-edge-from]').count();
      await page.waitForTimeout(500);
      results.idle = await idleFps(page);

      // 2. Panning: drag the empty background.
      const empty = await emptyCanvasPoint(page);
      if (!empty) throw new Error('found no empty point on the canvas to pan from');
      const before = await page.locator('.viewport').evaluate((el) => el.style.transform);
      results.pan = await measureDrag(page, empty, SECONDS);
      const after = await page.locator('.viewport').evaluate((el) => el.style.transform);
      results.pan.panned = before !== after;
      results.pan.transform = after;

      // 3. Dragging one node by its header (a node near the middle of the canvas).
      const target = await page.evaluate(() => {
        const r = document.querySelector('.canvas').getBoundingClientRect();
        const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('[data-node-id]');
        const all = [...document.querySelectorAll('[data-node-id]')];
        const pick = el ?? all.find((n) => {
          const b = n.getBoundingClientRect();
          return b.left > r.left && b.right < r.right && b.top > r.top && b.bottom < r.bottom;
        });
        return pick?.getAttribute('data-node-id') ?? null;
      });
      if (!target) throw new Error('found no node inside the canvas to drag');
      // By its header; from far out a large graph's nodes are plain boxes, dragged anywhere.
      const head = page.locator(`[data-node-id="${target}"] .node-head`);
      const grip = (await head.count()) > 0 ? head : page.locator(`[data-node-id="${target}"]`);
      const box = await grip.boundingBox();
      const nodeBefore = await page.locator(`[data-node-id="${target}"]`).boundingBox();
      await page.evaluate(watchMutations);
      results.drag = await measureDrag(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 }, SECONDS, 60);
      results.drag.touched = await page.evaluate((id) => window.__mutations.stop(id), target);
      const nodeAfter = await page.locator(`[data-node-id="${target}"]`).boundingBox();
      results.drag.node = target;
      results.drag.moved = Math.round(Math.hypot(nodeAfter.x - nodeBefore.x, nodeAfter.y - nodeBefore.y));
      results.zoom = await page.locator('.viewport').evaluate((el) => /scale\(([^)]+)\)/.exec(el.style.transform)?.[1] ?? '?');
      // 4. Typing a label into the node just dragged, and committing it.
      results.typing = await measureTyping(page, target);
      await page.context().close();
    }

    // 5. Importing, then both again for the medians.
    results.import = await importGraph();
    results.start = results.import.start;
    results.importRuns = [results.import.ms];
    for (let run = 1; run < RUNS; run++) {
      const { page, open } = await openGraph();
      results.openRuns.push(open.ms);
      await page.context().close();
      results.importRuns.push((await importGraph()).ms);
    }
    results.open.ms = median(results.openRuns);
    results.import.ms = median(results.importRuns);
  } finally {
    await browser.close();
    server.close();
  }

  results.wasm = wasm;
  results.pageErrors = pageErrors;
  results.graph = { nodes: graph.nodes.length, edges: graph.edges.length, bytes: text.length };
  report(results);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** `(min–max of N runs)` after a median, when there was more than one run. */
function spread(xs) {
  return xs.length > 1 ? ` (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}, ${xs.length} runs)` : '';
}

/** The long-animation-frame breakdown of a gesture, as table rows. */
function longFrames(g) {
  if (!g.longFrames) return [];
  const ms = (x) => `${Math.round(x)} ms`;
  return [[
    `  ${g.longFrames} long frames: script / style+layout / total`,
    `${ms(g.longScript)} / ${ms(g.longStyleLayout)} / ${ms(g.longTotal)}`,
    '',
    '',
  ]];
}

function report(r) {
  if (JSON_OUT) {
    console.log(JSON.stringify(r, null, 2));
    return;
  }
  const ms = (x) => `${Math.round(x)} ms`;
  const kb = (x) => `${(x / 1024).toFixed(0)} KB`;
  const ok = (good) => (good ? 'ok' : 'MISSED');
  const rows = [
    ['empty editor (navigation → starter graph in DOM)', ms(r.start.ms), '', ''],
    ['  … of which loading the wasm', ms(r.start.wasmLoaded), '', ''],
    [`open saved graph (navigation → all nodes in DOM)${r.openRuns.length > 1 ? ', median' : ''}`, `${ms(r.open.ms)}${spread(r.openRuns)}`, `< ${TARGETS.open} ms`, ok(r.open.ms < TARGETS.open)],
    ['  … and painted', ms(r.open.paintedMs), '', ''],
    [`import pasted JSON (click → all nodes in DOM)${r.importRuns.length > 1 ? ', median' : ''}`, `${ms(r.import.ms)}${spread(r.importRuns)}`, `< ${TARGETS.open} ms`, ok(r.import.ms < TARGETS.open)],
    ['  … and painted', ms(r.import.paintedMs), '', ''],
    ['idle frame rate', `${r.idle.fps.toFixed(1)} fps`, '', ''],
    [`pan the background (${SECONDS} s drag)`, `${r.pan.fps.toFixed(1)} fps`, `>= ${TARGETS.fps} fps`, ok(r.pan.fps >= TARGETS.fps && r.pan.panned)],
    ['  worst / p95 frame', `${ms(r.pan.worst)} / ${ms(r.pan.p95)}`, '', ''],
    ['  pointer moves handled', `${r.pan.moves} (${(r.pan.moves / SECONDS).toFixed(0)}/s)`, '', r.pan.panned ? '' : 'DID NOT PAN'],
    ['  app script per move, median / worst', `${ms(r.pan.scriptMedian)} / ${ms(r.pan.scriptWorst)}`, '', ''],
    ...longFrames(r.pan),
    [`drag node ${r.drag.node} (${SECONDS} s drag)`, `${r.drag.fps.toFixed(1)} fps`, `>= ${TARGETS.fps} fps`, ok(r.drag.fps >= TARGETS.fps && r.drag.moved > 0)],
    ['  worst / p95 frame', `${ms(r.drag.worst)} / ${ms(r.drag.p95)}`, '', ''],
    ['  pointer moves handled', `${r.drag.moves} (${(r.drag.moves / SECONDS).toFixed(0)}/s)`, '', r.drag.moved > 0 ? '' : 'DID NOT MOVE'],
    ['  app script per move, median / worst', `${ms(r.drag.scriptMedian)} / ${ms(r.drag.scriptWorst)}`, '', ''],
    ['  DOM changed: other nodes / other edges (its own edges)',
      `${r.drag.touched.otherNodes} / ${r.drag.touched.otherEdges} (${r.drag.touched.ownEdges})`, '0 / 0',
      ok(r.drag.touched.node && r.drag.touched.otherNodes === 0 && r.drag.touched.otherEdges === 0)],
    ...longFrames(r.drag),
    ['type into the Label (key → frame shown), median of 5', ms(r.typing.key), `<= ${TARGETS.key} ms`, ok(r.typing.key <= TARGETS.key)],
    ['  commit it with Tab (key → frame after the edit)', ms(r.typing.commit), `<= ${TARGETS.commit} ms`, ok(r.typing.commit <= TARGETS.commit)],
    ['wasm raw (editor / run worker)', `${kb(r.wasm.raw)} / ${kb(r.wasm.worker.raw)}`, '', ''],
    ['wasm gzip -9 (editor / run worker)', `${kb(r.wasm.gzip)} / ${kb(r.wasm.worker.gzip)}`, `<= ${kb(TARGETS.gzip)}`, ok(r.wasm.gzip <= TARGETS.gzip)],
    ['wasm brotli (editor / run worker)', `${kb(r.wasm.brotli)} / ${kb(r.wasm.worker.brotli)}`, '', ''],
  ];
  if (EXTRA_CSS) console.log(`\nwith extra CSS: ${EXTRA_CSS}`);
  console.log(`\nEditor performance: ${r.graph.nodes} nodes, ${r.graph.edges} edges (${kb(r.graph.bytes)} of JSON); ` +
    `${r.nodesInDom} nodes and ${r.edgesInDom} edges in the DOM; zoom ${Number(r.zoom).toFixed(3)}\n`);
  printTable(rows);
  if (r.pageErrors.length) console.log(`\npage errors:\n  ${r.pageErrors.join('\n  ')}`);
}

main().catch((e) => {
  // Playwright's messages can quote the whole 300 KB document.
  console.error(String(e?.stack ?? e).slice(0, 2000));
  process.exit(1);
});
