// Measures the run debugger with a long run: a loop of two set nodes and a conditional edge
// that runs 10,000 steps, run in the browser at the fastest speed, then scrubbed through.
// Run by `./dev perf` after a release build (dist/); not part of `./dev test`.
//
//   node tests/perf/run-perf.mjs [--dist DIR] [--steps N] [--scrubs K] [--run-timeout S] [--json]
//   node tests/perf/run-perf.mjs --print-graph     (only print the generated graph document)
//
// Reports:
//   run       click on Run → data-run-status "completed" (every step played and drawn)
//   scrub     the Timeline set to a new value (an `input` event, as the slider sends) → the page
//             shows that step (the State region's values, the node statuses), and → the next
//             frame after that (requestAnimationFrame, then a task: the frame was produced);
//             for jumps to random steps and for moves to a neighbouring step
//   memory    the saved run in localStorage (characters; the JSON inside, unpacked), the JS
//             heap (performance.memory, after a forced GC) and the wasm linear memory, before
//             and after the run; the number of DOM elements
import { args, DIST, JSON_OUT, launch, opt, printTable } from './common.mjs';
import { inflateRawSync } from 'node:zlib';
import { serve } from '../e2e/static-server.mjs';

const STEPS = Number(opt('--steps', 10000));
const SCRUBS = Number(opt('--scrubs', 60));
const RUN_TIMEOUT_S = Number(opt('--run-timeout', 900));
const TARGETS = { scrub: 50 };

if (STEPS % 2 !== 0 || STEPS < 2) throw new Error('--steps must be even and at least 2 (the loop has two nodes)');

// ---------------------------------------------------------------------------------------
// The graph: start → a → b, and b → a while n < STEPS/2, b → end after. `a` counts loops in
// `n`, `b` writes the step number to `m`; so after step k, n = ceil(k/2) and m = k rounded down
// to even, and exactly one of them changed (what `scrub` below checks).

function makeGraph(steps = STEPS) {
  const loops = steps / 2;
  return {
    format: 'switchyard/graph@1',
    name: `Perf loop ${steps} steps`,
    description: `Two set nodes in a loop with a conditional edge: ${steps} steps, for ./dev perf`,
    state: {
      n: { type: 'number', default: 0 },
      m: { type: 'number', default: 0 },
    },
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'a', kind: 'set', label: 'Count', set: { n: 'state.n + 1' } },
      { id: 'b', kind: 'set', label: 'Mark', set: { m: 'step' } },
      { id: 'end', kind: 'end' },
    ],
    edges: [
      { from: 'start', to: 'a' },
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a', when: `state.n < ${loops}` },
      { from: 'b', to: 'end', when: `state.n >= ${loops}` },
    ],
    limits: { max_steps: steps * 2, run_timeout_ms: 24 * 3600 * 1000 },
    layout: {
      start: { x: 0, y: 0 },
      a: { x: 300, y: 0 },
      b: { x: 600, y: 0 },
      end: { x: 900, y: 0 },
    },
  };
}

// ---------------------------------------------------------------------------------------
// In the page.

function pageProbe() {
  // The wasm instance's exports (its linear memory), caught as the app instantiates it.
  for (const name of ['instantiateStreaming', 'instantiate']) {
    const original = WebAssembly[name];
    if (typeof original !== 'function') continue;
    WebAssembly[name] = async function (...a) {
      const result = await original.apply(this, a);
      const instance = result instanceof WebAssembly.Instance ? result : result?.instance;
      if (instance?.exports?.memory instanceof WebAssembly.Memory) window.__wasm = instance.exports;
      return result;
    };
  }
  window.__run = { clickAt: null, doneAt: null, status: null };
  document.addEventListener(
    'click',
    (e) => {
      const b = e.target instanceof Element ? e.target.closest('button') : null;
      if (b && b.textContent?.trim() === 'Run' && b.closest('[aria-label="Run"]')) {
        window.__run = { clickAt: performance.now(), doneAt: null, status: null };
      }
    },
    true,
  );
  // The end of the run: data-run-status leaves none/running.
  new MutationObserver(() => {
    const el = document.querySelector('[data-run-status]');
    const s = el?.getAttribute('data-run-status');
    const r = window.__run;
    if (r.clickAt !== null && r.doneAt === null && s && s !== 'none' && s !== 'running') {
      r.doneAt = performance.now();
      r.status = s;
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-run-status'], childList: true });
}

/** In the page: memory figures. */
function memoryNow() {
  if (typeof window.gc === 'function') {
    window.gc();
    window.gc();
  }
  const m = performance.memory;
  return {
    heapUsed: m ? m.usedJSHeapSize : null,
    heapTotal: m ? m.totalJSHeapSize : null,
    wasm: window.__wasm?.memory?.buffer?.byteLength ?? null,
    elements: document.getElementsByTagName('*').length,
  };
}

/**
 * In the page: sets the Timeline to each target in turn and times how long until the page
 * shows that step, and until the frame after that.
 */
async function scrub(targets) {
  const slider = document.querySelector('input[type=range][aria-label="Timeline"]');
  const region = document.querySelector('[aria-label="State"]');
  const expectedAt = (k) => ({
    n: Math.ceil(k / 2),
    m: k - (k % 2),
    changed: k === 0 ? [] : k % 2 ? ['n'] : ['m'],
    a: k === 0 ? 'idle' : k % 2 ? 'active' : 'done',
  });
  // An entry's shown value: its text without the key.
  const shown = (key) => {
    const el = region.querySelector(`[data-key="${key}"]`);
    if (!el) return { present: false };
    const text = (el.textContent ?? '').trim();
    return { present: true, value: text.startsWith(key) ? text.slice(key.length).trim() : text, changed: el.getAttribute('data-changed') === 'true' };
  };
  let hiddenValues = 0;
  const reflects = (k) => {
    const want = expectedAt(k);
    const status = document.querySelector('[data-node-id="a"]')?.getAttribute('data-status');
    if (status !== want.a) return false;
    for (const key of ['n', 'm']) {
      const s = shown(key);
      if (!s.present) return false;
      const changed = want.changed.includes(key);
      if (s.changed !== changed) return false;
      if (s.value !== String(want[key])) {
        // A changed value the State region does not show (see the report) still counts as
        // shown once its key is marked changed; the unchanged key pins the step down.
        if (!(changed && s.value === '')) return false;
      }
    }
    return true;
  };
  const out = [];
  for (const k of targets) {
    const r = await new Promise((done) => {
      let t0 = 0;
      let settled = false;
      const finish = (tDom) => {
        if (settled) return;
        settled = true;
        observer.disconnect();
        clearTimeout(timer);
        requestAnimationFrame(() => setTimeout(() => done({ k, dom: tDom - t0, frame: performance.now() - t0 }), 0));
      };
      const observer = new MutationObserver(() => reflects(k) && finish(performance.now()));
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      const timer = setTimeout(() => {
        observer.disconnect();
        settled = true;
        done({ k, dom: NaN, frame: NaN, timedOut: true });
      }, 30_000);
      t0 = performance.now();
      slider.value = String(k);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      // Already shown (no mutation will come), or shown synchronously by the handler.
      if (reflects(k)) finish(performance.now());
    });
    if (shown(r.k % 2 ? 'n' : 'm').value === '' && r.k > 0) hiddenValues++;
    out.push(r);
  }
  return { samples: out, hiddenValues };
}

// ---------------------------------------------------------------------------------------

function seeded(seed) {
  return (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
}

/** Jumps to random steps, then moves of one step back and forth. */
function scrubTargets(steps, count) {
  const rand = seeded(4242);
  const jumps = [];
  let at = steps;
  while (jumps.length < count) {
    const k = rand(steps + 1);
    if (k !== at) jumps.push((at = k));
  }
  const moves = [];
  at = Math.floor(steps / 2);
  moves.push(at);
  for (let i = 0; i < count; i++) {
    at += i % 7 < 4 ? 1 : -1;
    moves.push(at);
  }
  return { jumps, moves };
}

function stats(samples, field) {
  const xs = samples.map((s) => s[field]).filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  const q = (p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(xs.length * p))] : NaN);
  return { n: xs.length, median: q(0.5), p95: q(0.95), worst: xs.length ? xs[xs.length - 1] : NaN };
}

async function main() {
  const graph = makeGraph();
  const text = JSON.stringify(graph, null, 2);
  if (args.includes('--print-graph')) {
    process.stdout.write(`${text}\n`);
    return;
  }
  const server = await serve(DIST, 0);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await launch(['--enable-precise-memory-info', '--js-flags=--expose-gc']);
  const results = { steps: STEPS };
  const pageErrors = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.addInitScript(pageProbe);
    await page.goto(`${base}/`);
    await page.locator('[data-node-id]').first().waitFor();
    await page.waitForFunction(() => window.__wasm !== undefined, null, { timeout: 10_000 }).catch(() => {});
    results.memoryBefore = await page.evaluate(memoryNow);

    // Import the graph (as a paste does: the whole text in one input event).
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('textbox', { name: 'Paste JSON' }).evaluate((el, value) => {
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, text);
    await page.getByRole('button', { name: 'Import pasted JSON' }).click();
    await page.locator('[data-node-id="b"]').waitFor();

    // The fastest speed, an empty input, Run.
    const run = page.getByRole('region', { name: 'Run', exact: true });
    const speed = run.getByRole('combobox', { name: 'Speed' });
    const values = await speed.locator('option').evaluateAll((os) => os.map((o) => o.value));
    await speed.selectOption(values.reduce((a, b) => (Number(b) < Number(a) ? b : a)));
    await run.getByRole('textbox', { name: 'Input', exact: true }).fill('{}');
    await run.getByRole('button', { name: 'Run', exact: true }).click();
    const slider = page.getByRole('slider', { name: 'Timeline' });
    const started = Date.now();
    let lastReport = 0;
    for (;;) {
      const r = await page.evaluate(() => window.__run);
      if (r.doneAt !== null) break;
      if (Date.now() - started > RUN_TIMEOUT_S * 1000) {
        // Too slow to wait for: pause, and measure what there is.
        await run.getByRole('button', { name: 'Pause', exact: true }).click();
        await page.waitForFunction(
          () => [...document.querySelectorAll('[aria-label="Run"] button')].find((b) => b.textContent?.trim() === 'Pause')?.disabled === true,
          null,
          { timeout: 60_000 },
        );
        break;
      }
      if (!JSON_OUT && Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        process.stderr.write(`  running: step ${await slider.getAttribute('max')} of ${STEPS} after ${Math.round((Date.now() - started) / 1000)} s\n`);
      }
      await page.waitForTimeout(250);
    }
    const r = await page.evaluate(() => window.__run);
    const reached = Number(await slider.getAttribute('max'));
    const finished = r.doneAt !== null;
    results.run = finished
      ? { finished, ms: r.doneAt - r.clickAt, status: r.status, steps: reached }
      : { finished, ms: (await page.evaluate(() => performance.now())) - r.clickAt, status: 'paused', steps: reached };
    if (finished && (r.status !== 'completed' || reached !== STEPS)) {
      throw new Error(`the run ended ${r.status} after ${reached} steps (expected completed after ${STEPS})`);
    }
    // A finished run is saved when it stops; read what it takes.
    results.storage = null;
    if (finished) {
      await page.waitForFunction(() => Object.keys(localStorage).some((k) => k.startsWith('switchyard.run.')));
      const stored = await page.evaluate(() => {
        const out = {};
        for (const k of Object.keys(localStorage)) if (k.startsWith('switchyard.run')) out[k] = localStorage.getItem(k);
        return out;
      });
      const runKeys = Object.keys(stored).filter((k) => k.startsWith('switchyard.run.'));
      const packed = stored[runKeys[0]];
      const json = inflateRawSync(Buffer.from(packed.slice(packed.indexOf('=') + 1), 'base64url')).toString('utf8');
      results.storage = {
        runs: runKeys.length,
        chars: packed.length,
        // Chromium counts localStorage in UTF-16 code units: two bytes a character.
        bytes: packed.length * 2,
        indexChars: Object.entries(stored).filter(([k]) => k.startsWith('switchyard.runs.')).reduce((s, [, v]) => s + v.length, 0),
        json: Buffer.byteLength(json),
        savedSteps: JSON.parse(json).record.steps.length,
      };
    }
    results.memoryAfter = await page.evaluate(memoryNow);

    // Scrub.
    await slider.waitFor();
    const { jumps, moves } = scrubTargets(reached, SCRUBS);
    const j = await page.evaluate(scrub, jumps);
    const m = await page.evaluate(scrub, moves.slice(1));
    results.scrub = {
      jumps: { dom: stats(j.samples, 'dom'), frame: stats(j.samples, 'frame'), timedOut: j.samples.filter((s) => s.timedOut).length },
      moves: { dom: stats(m.samples, 'dom'), frame: stats(m.samples, 'frame'), timedOut: m.samples.filter((s) => s.timedOut).length },
      hiddenValues: j.hiddenValues + m.hiddenValues,
      total: j.samples.length + m.samples.length,
    };
    results.memoryScrubbed = await page.evaluate(memoryNow);
    await context.close();
  } finally {
    await browser.close();
    server.close();
  }
  results.pageErrors = pageErrors;
  results.graph = { nodes: graph.nodes.length, edges: graph.edges.length };
  report(results);
}

function report(r) {
  if (JSON_OUT) {
    console.log(JSON.stringify(r, null, 2));
    return;
  }
  const ms = (x) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(1) : Math.round(x)} ms` : 'n/a');
  const size = (x) => (x === null || x === undefined ? 'n/a' : x >= 1 << 20 ? `${(x / (1 << 20)).toFixed(1)} MB` : `${(x / 1024).toFixed(0)} KB`);
  const delta = (a, b) => (a === null || b === null ? 'n/a' : `${b >= a ? '+' : '-'}${size(Math.abs(b - a))}`);
  const ok = (good) => (good ? 'ok' : 'MISSED');
  const s = r.scrub;
  const rows = [
    r.run.finished
      ? [`run ${r.steps} steps at the fastest speed (click → completed)`, `${(r.run.ms / 1000).toFixed(1)} s`, '', '']
      : [`run ${r.steps} steps at the fastest speed: paused after ${(r.run.ms / 1000).toFixed(0)} s at step`, String(r.run.steps), '', 'DID NOT FINISH'],
    ['  per step', ms(r.run.ms / r.run.steps), '', ''],
    [`scrub: jump to a random step (${s.jumps.dom.n}×), to DOM, median / p95`, `${ms(s.jumps.dom.median)} / ${ms(s.jumps.dom.p95)}`, '', ''],
    ['  … to the next frame, median / p95', `${ms(s.jumps.frame.median)} / ${ms(s.jumps.frame.p95)}`, `< ${TARGETS.scrub} ms`,
      ok(s.jumps.frame.median < TARGETS.scrub && s.jumps.frame.p95 < TARGETS.scrub && !s.jumps.timedOut)],
    ['  worst', ms(s.jumps.frame.worst), '', s.jumps.timedOut ? `${s.jumps.timedOut} TIMED OUT` : ''],
    [`scrub: move one step (${s.moves.dom.n}×), to DOM, median / p95`, `${ms(s.moves.dom.median)} / ${ms(s.moves.dom.p95)}`, '', ''],
    ['  … to the next frame, median / p95', `${ms(s.moves.frame.median)} / ${ms(s.moves.frame.p95)}`, `< ${TARGETS.scrub} ms`,
      ok(s.moves.frame.median < TARGETS.scrub && s.moves.frame.p95 < TARGETS.scrub && !s.moves.timedOut)],
    ['  worst', ms(s.moves.frame.worst), '', s.moves.timedOut ? `${s.moves.timedOut} TIMED OUT` : ''],
    ...(r.storage
      ? [
          ['saved run in localStorage (characters; bytes as UTF-16)', `${size(r.storage.chars)} (${size(r.storage.bytes)})`, '', ''],
          ['  … the JSON inside, unpacked', `${size(r.storage.json)} (${r.storage.savedSteps} steps)`, '', ''],
        ]
      : [['saved run in localStorage', 'n/a', '', 'not saved: the run did not finish']]),
    ['JS heap used: before run / after run / after scrubbing', `${size(r.memoryBefore.heapUsed)} / ${size(r.memoryAfter.heapUsed)} / ${size(r.memoryScrubbed.heapUsed)}`, '', ''],
    ['  the run added', delta(r.memoryBefore.heapUsed, r.memoryAfter.heapUsed), '', ''],
    ['wasm memory: before / after run', `${size(r.memoryBefore.wasm)} / ${size(r.memoryAfter.wasm)}`, '', ''],
    ['DOM elements: before / after run', `${r.memoryBefore.elements} / ${r.memoryAfter.elements}`, '', ''],
  ];
  console.log(`\nRun debugger performance: a ${r.graph.nodes}-node loop of ${r.steps} steps, run, then scrubbed over ${r.run.steps} steps\n`);
  printTable(rows);
  if (s.hiddenValues) {
    console.log(`\nnote: at ${s.hiddenValues} of ${s.total} scrubbed steps the State region marked the changed key but did not show its value`);
  }
  if (r.pageErrors.length) console.log(`\npage errors:\n  ${r.pageErrors.join('\n  ')}`);
}

main().catch((e) => {
  console.error(String(e?.stack ?? e).slice(0, 2000));
  process.exit(1);
});
