// End-to-end tests of the editor: the release build in dist/, served by a small static server,
// driven in Debian's Chromium (/usr/bin/chromium; Playwright downloads no browser here).
// `./dev test` builds dist/, picks a free port and runs:
//   npx playwright test -c tests/e2e/playwright.config.ts
import { defineConfig } from '@playwright/test';
import { resolve } from 'node:path';

const here = import.meta.dirname;
const port = Number(process.env.SWITCHYARD_E2E_PORT ?? 4173);
const dist = process.env.SWITCHYARD_DIST ?? resolve(here, '../../dist');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: resolve(here, 'test-results'),
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two cores: one browser at a time keeps timings steady; raise with --workers.
  workers: 1,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], [resolve(here, 'summary-reporter.ts')]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    headless: true,
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.SWITCHYARD_CHROMIUM ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: `node ${JSON.stringify(resolve(here, 'static-server.mjs'))} --dir ${JSON.stringify(dist)} --port ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 15_000,
    stdout: 'ignore',
  },
});
