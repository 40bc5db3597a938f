// Measures the Tests panel with a 200-case suite: how fast the page replays it (Run tests),
// then checks it against the graph after an edit (Check against saved runs), and whether the
// page keeps drawing meanwhile. Run by `./dev perf tests` (or `./dev perf`) after a release
// build (dist/); not part of `./dev test`.
//
//   node tests/perf/tests-perf.mjs [--dist DIR] [--cases N] [--json]
//
// The suite: the evaluation loop template's three cases (templates/tests/), repeated under new
// names up to N (default 200), with its two evaluators (an expression and an LLM-judge graph
// on mock replies), so every case is a whole replayed run of 13–17 steps plus a judge run.
// Reports, for each pass: its time from the click to the last case marked, cases per second,
// frames the page drew per second and the longest gap between two frames.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, JSON_OUT, launch, opt, printTable } from './common.mjs';
import { serve } from '../e2e/static-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const CASES = Number(opt('--cases', 200));
const base = JSON.parse(readFileSync(resolve(here, '../../templates/tests/008-evaluation-loop.tests.json'), 'utf8'));
const suite = { ...base, graph: { name: base.graph.name }, cases: [] };
for (let i = 0; suite.cases.length < CASES; i++) {
  const c = base.cases[i % base.cases.length];
  suite.cases.push({ ...c, name: `${c.name} #${Math.floor(i / base.cases.length) + 1}` });
}

/** Clicks `button` and times it until every case's badge reads `badge` (`pass` after Run
 * tests, `same` after a check), counting frames meanwhile. */
async function timedPass(page, panel, button, badge) {
  await page.evaluate(() => {
    window.__frames = [];
    window.__stopFrames = false;
    const tick = (t) => {
      window.__frames.push(t);
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const t0 = Date.now();
  await panel.getByRole('button', { name: button, exact: true }).click();
  await page.waitForFunction(
    ([n, b]) => [...document.querySelectorAll('#tests-panel li.case .test-badge')].filter((e) => e.textContent.trim() === b).length === n,
    [CASES, badge], { timeout: 1_800_000, polling: 50 });
  const ms = Date.now() - t0;
  const frames = await page.evaluate(() => {
    window.__stopFrames = true;
    return window.__frames;
  });
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  return { ms, cases_per_s: CASES / (ms / 1000), fps: frames.length / (ms / 1000), longest_gap_ms: Math.max(0, ...gaps) };
}

const server = await serve(DIST, 0);
const browser = await launch();
const figures = {};
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.getByRole('button', { name: 'Open template Evaluation loop', exact: true }).click();
  await page.locator('[data-node-id="judge"]').waitFor();
  await page.getByRole('button', { name: 'Tests', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Tests', exact: true });
  await panel.getByLabel('Import tests', { exact: true })
    .setInputFiles({ name: 'perf.tests.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(suite)) });
  await page.waitForFunction((n) => document.querySelectorAll('#tests-panel li.case').length === n, CASES, { timeout: 60_000 });

  figures.run = await timedPass(page, panel, 'Run tests', 'pass');
  // An edit: Auto layout moves every node (the graph changes, the runs must not).
  await page.getByRole('button', { name: 'Auto layout', exact: true }).click();
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  if (await undo.isDisabled()) throw new Error('Auto layout made no edit to check');
  figures.check = await timedPass(page, panel, 'Check against saved runs', 'same');
} finally {
  await browser.close();
  server.close();
}

if (JSON_OUT) {
  console.log(JSON.stringify(figures));
} else {
  const rows = [];
  for (const [key, label] of [['run', 'Run tests'], ['check', 'Check against saved runs, after an edit']]) {
    const f = figures[key];
    rows.push([`${label}: ${CASES} cases`, `${(f.ms / 1000).toFixed(2)} s`, '', '']);
    rows.push(['  cases per second', f.cases_per_s.toFixed(1), '', '']);
    rows.push(['  frames per second meanwhile', f.fps.toFixed(1), '', '']);
    rows.push(['  longest time without a frame', `${Math.round(f.longest_gap_ms)} ms`, '', '']);
  }
  printTable(rows);
}
