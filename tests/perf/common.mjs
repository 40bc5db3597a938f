// What the perf scripts share: command-line options, the Chromium they run in, and the
// table they print.
import { chromium } from '@playwright/test';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const args = process.argv.slice(2);

/** The value after `--name`, or `fallback`. */
export const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};

/** The editor's release build to serve (`--dist`, SWITCHYARD_DIST, else dist/). */
export const DIST = resolve(opt('--dist', process.env.SWITCHYARD_DIST ?? join(here, '../../dist')));
export const JSON_OUT = args.includes('--json');
const CHROMIUM = process.env.SWITCHYARD_CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium (Debian's) with background activity off; `extra` flags are added. */
export function launch(extra = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...extra],
  });
}

/** Prints rows of [measure, value, target, verdict] as aligned columns under a header. */
export function printTable(rows) {
  const w = [0, 1, 2, 3].map((c) => Math.max(...rows.map((row) => row[c].length)));
  console.log(['measure'.padEnd(w[0]), 'value'.padStart(w[1]), 'target'.padEnd(w[2]), ''].join('  '));
  for (const row of rows) console.log([row[0].padEnd(w[0]), row[1].padStart(w[1]), row[2].padEnd(w[2]), row[3]].join('  '));
}
