// Measures running the 1,000-node graph of `editor-perf.mjs` in the editor at the fastest
// speed: how long from Run to the end, how many frames the page drew meanwhile, and whether
// the run was kept in the history (its size in storage). Run by `./dev perf big-run` after a
// release build (dist/); not part of `./dev test`.
//
//   node tests/perf/big-run-perf.mjs [--dist DIR] [--json]
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, JSON_OUT, launch, printTable } from './common.mjs';
import { serve } from '../e2e/static-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const TARGETS = { fps: 50 };
const text = execFileSync(process.execPath, [join(here, 'editor-perf.mjs'), '--print-graph'], { encoding: 'utf8', maxBuffer: 64 << 20 });
const graph = JSON.parse(text);

const server = await serve(DIST, 0);
const browser = await launch();
const r = {};
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.locator('[data-node-id]').first().waitFor();
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByRole('textbox', { name: 'Paste JSON' }).evaluate((el, value) => {
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
  await page.getByRole('button', { name: 'Import pasted JSON' }).click();
  await page.locator('[data-node-id="end"]').waitFor({ state: 'attached' });
  const run = page.getByRole('region', { name: 'Run', exact: true });
  await run.getByRole('combobox', { name: 'Speed' }).selectOption({ label: 'Instant' });
  await page.evaluate(() => {
    window.__frames = [];
    const tick = (t) => {
      window.__frames.push(t);
      if (!window.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const t0 = Date.now();
  await run.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-run-status]')?.getAttribute('data-run-status');
    return s && s !== 'running' && s !== 'none';
  }, null, { timeout: 900_000, polling: 100 });
  r.ms = Date.now() - t0;
  r.status = await page.locator('[data-run-status]').getAttribute('data-run-status');
  const frames = await page.evaluate(() => {
    window.__stop = true;
    const f = window.__frames;
    let longest = 0;
    for (let i = 1; i < f.length; i++) longest = Math.max(longest, f[i] - f[i - 1]);
    return { count: f.length, span: f[f.length - 1] - f[0], longest };
  });
  r.fps = (frames.count / frames.span) * 1000;
  r.longest = frames.longest;
  r.steps = await page.getByRole('slider', { name: 'Timeline' }).getAttribute('max');
  // The history lists the run once it is saved.
  await page.waitForTimeout(500);
  r.saved = await page.evaluate(() => {
    let bytes = 0;
    let runs = 0;
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k.startsWith('switchyard.run.')) {
        runs += 1;
        bytes += localStorage.getItem(k).length;
      }
    }
    return { runs, bytes };
  });
  r.alerts = await page.getByRole('alert').allTextContents();
  r.errors = errors;
} finally {
  await browser.close();
  server.close();
}

if (JSON_OUT) {
  console.log(JSON.stringify(r, null, 2));
} else {
  const ok = (good) => (good ? 'ok' : 'MISSED');
  console.log(`\nRunning the ${graph.nodes.length}-node graph at Instant\n`);
  printTable([
    ['Run → the run ended', `${(r.ms / 1000).toFixed(1)} s`, '', r.status],
    ['steps', String(r.steps), '', ''],
    ['frames per second meanwhile', r.fps.toFixed(1), `>= ${TARGETS.fps}`, ok(r.fps >= TARGETS.fps)],
    ['longest time without a frame', `${Math.round(r.longest)} ms`, '', ''],
    ['kept in the history (saved runs, characters in storage)', `${r.saved.runs}, ${(r.saved.bytes / 1024).toFixed(0)} K`, '1 run', ok(r.saved.runs >= 1)],
    ['alerts', r.alerts.join(' | ') || 'none', '', ''],
  ]);
  if (r.errors.length) console.log(`\npage errors:\n  ${r.errors.join('\n  ')}`);
}
