// Measures the editor while one long script step runs: does the page keep drawing, and how
// soon does Reset stop the run? Run by `./dev perf` (or `./dev perf step`) after a release
// build (dist/); not part of `./dev test`.
//
//   node tests/perf/step-perf.mjs [--dist DIR] [--loops N] [--json]
//
// The graph: start → spin → end, where `spin` is a script that counts to N (default 6 million
// iterations: a few seconds, under the graph's raised `max_ops`). Reports:
//   step      how long the script step took (Run → data-run-status "completed")
//   fps       frames the page drew per second while the step ran (requestAnimationFrame)
//   longest   the longest gap between two frames during the step
//   stop      a second run: Reset pressed half a second into the step → the run panel says
//             there is no run (data-run-status "none")
import { DIST, JSON_OUT, launch, opt, printTable } from './common.mjs';
import { serve } from '../e2e/static-server.mjs';

const LOOPS = Number(opt('--loops', 6_000_000));
const TARGETS = { fps: 50, stop: 100 };

const graph = {
  format: 'switchyard/graph@1',
  name: 'Long script step',
  state: { total: { type: 'integer' } },
  limits: { max_ops: 100_000_000, node_timeout_ms: 600_000, run_timeout_ms: 900_000 },
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'spin', kind: 'script', script: `let i = 0; let s = 0; while i < ${LOOPS} { s += i % 7; i += 1; } #{ total: s }` },
    { id: 'end', kind: 'end' },
  ],
  edges: [{ from: 'start', to: 'spin' }, { from: 'spin', to: 'end' }],
};

const server = await serve(DIST, 0);
const browser = await launch();
const rows = [];
const figures = {};
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByRole('textbox', { name: 'Paste JSON' }).fill(JSON.stringify(graph));
  await page.getByRole('button', { name: 'Import pasted JSON' }).click();
  await page.locator('[data-node-id="spin"]').waitFor();
  const run = page.getByRole('region', { name: 'Run', exact: true });
  await run.getByRole('combobox', { name: 'Speed' }).selectOption({ label: 'Instant' });
  const status = page.locator('[data-run-status]');

  // The page counts its own frames from before Run until the run has completed.
  await page.evaluate(() => {
    window.__frames = [];
    const tick = (t) => {
      window.__frames.push(t);
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const t0 = Date.now();
  await run.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-run-status]')?.getAttribute('data-run-status') === 'completed', null, { timeout: 600_000, polling: 50 });
  const stepMs = Date.now() - t0;
  const frames = await page.evaluate(() => {
    window.__stopFrames = true;
    return window.__frames;
  });
  const during = frames.filter((t, i) => i > 0 && t - frames[0] <= stepMs);
  const gaps = during.map((t, i) => t - (i === 0 ? frames[0] : during[i - 1]));
  figures.step_ms = stepMs;
  figures.fps = during.length / (stepMs / 1000);
  figures.longest_gap_ms = Math.max(0, ...gaps);

  // A second run, stopped by Reset half a second into its long step.
  await run.getByRole('button', { name: 'Reset', exact: true }).click();
  await status.and(page.locator('[data-run-status="none"]')).waitFor();
  // Run is pressed from inside the page, a task later, so that the step does not run inside
  // this script's own click (whose answer would then wait for the whole step).
  await page.evaluate(() => {
    const run = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Run');
    setTimeout(() => run.click(), 0);
  });
  await page.waitForTimeout(500);
  const s0 = Date.now();
  await run.getByRole('button', { name: 'Reset', exact: true }).click({ timeout: 600_000 });
  await page.waitForFunction(() => document.querySelector('[data-run-status]')?.getAttribute('data-run-status') === 'none', null, { timeout: 600_000, polling: 10 });
  figures.stop_ms = Date.now() - s0;
} finally {
  await browser.close();
  server.close();
}

if (JSON_OUT) {
  console.log(JSON.stringify(figures));
} else {
  const ok = (good) => (good ? 'ok' : 'MISSED');
  rows.push(['step (a script counting to ' + LOOPS.toLocaleString('en') + ')', `${(figures.step_ms / 1000).toFixed(2)} s`, '', '']);
  rows.push(['frames per second during the step', figures.fps.toFixed(1), `>= ${TARGETS.fps}`, ok(figures.fps >= TARGETS.fps)]);
  rows.push(['longest time without a frame', `${Math.round(figures.longest_gap_ms)} ms`, '', '']);
  rows.push(['Reset during the step → no run', `${figures.stop_ms} ms`, `<= ${TARGETS.stop} ms`, ok(figures.stop_ms <= TARGETS.stop)]);
  printTable(rows);
}
