// The engine runs in a Web Worker: a step that runs for minutes (a script that never yields)
// leaves the editor drawing and answering, and Pause and Reset stop it at once. Before the
// worker, each click below waited for the step to end (Playwright's click would time out).
import type { Page } from '@playwright/test';
import { expect, node, test } from './fixtures';
import { importJson, runButton, runStatus, startRun, timeline } from './run-panel';

// `spin` reverses a 50,000-item list ten million times: minutes of work, within `max_ops`.
const spinning = {
  format: 'switchyard/graph@1',
  name: 'A step that runs for minutes',
  state: { turns: { type: 'integer' } },
  limits: { max_ops: 100_000_000, node_timeout_ms: 3_600_000, run_timeout_ms: 3_600_000 },
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'warm', kind: 'set', set: { turns: '0' } },
    { id: 'spin', kind: 'script', script: 'let a = []; a.pad(50000, 1); let i = 0; while i < 10000000 { a.reverse(); i += 1; } #{ turns: i }' },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { from: 'start', to: 'warm' },
    { from: 'warm', to: 'spin' },
    { from: 'spin', to: 'end' },
  ],
};

const inspectorId = (page: Page) =>
  page.getByRole('region', { name: 'Inspector', exact: true }).getByRole('textbox', { name: 'Id', exact: true });

/** Starts the run and waits until `spin`'s step is running. */
async function spinUp(page: Page): Promise<void> {
  await importJson(page, spinning, 'spin');
  await startRun(page, {});
  await expect(node(page, 'spin'), 'the step running now is marked').toHaveAttribute('data-running', 'true');
  await expect(node(page, 'spin')).toHaveAttribute('data-status', 'active');
  await expect(runStatus(page)).toContainText('running');
}

test('while a long step runs the editor answers: a node is selected, the view zooms', async ({ editor: page }) => {
  await spinUp(page);
  await node(page, 'end').click();
  await expect(inspectorId(page), 'the click selected the node during the step').toHaveValue('end');
  const zoom = page.getByRole('button', { name: 'Zoom in', exact: true });
  const before = await node(page, 'end').boundingBox();
  await zoom.click();
  await expect.poll(async () => (await node(page, 'end').boundingBox())?.width, { message: 'the canvas redraws' }).toBeGreaterThan(before!.width);
  await expect(node(page, 'spin'), 'the step still runs').toHaveAttribute('data-running', 'true');
  await runButton(page, 'Reset').click();
});

test('Pause stops a running step at once; the run goes on from the step before it', async ({ editor: page }) => {
  await spinUp(page);
  await runButton(page, 'Pause').click();
  await expect(runStatus(page), 'paused at once, not after the step').toContainText('paused');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'running');
  await expect(node(page, 'spin')).not.toHaveAttribute('data-running', 'true');
  // The run kept its first step (`warm`), and `spin` is what comes next.
  await expect(timeline(page)).toHaveValue('1');
  await expect(node(page, 'warm')).toHaveAttribute('data-status', 'active');
  // Stepping on runs `spin` again, from the same state (a fresh worker holds the run).
  await runButton(page, 'Step').click();
  await expect(node(page, 'spin')).toHaveAttribute('data-running', 'true');
  await expect(runStatus(page)).toContainText('running');
  // Reset ends it too, and the panel says there is no run.
  await runButton(page, 'Reset').click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'none');
  await expect(node(page, 'spin')).toHaveAttribute('data-status', 'idle');
});

test('a new Run during a long step replaces it, and runs to the end', async ({ editor: page }) => {
  await spinUp(page);
  // Make `spin` quick (the run of the old graph is left behind), and run again.
  await node(page, 'spin').click();
  const script = page.getByRole('region', { name: 'Inspector', exact: true }).getByRole('textbox', { name: 'Script', exact: true });
  await script.fill('#{ turns: 3 }');
  await expect(runButton(page, 'Run'), 'Run is offered during a step').toBeEnabled();
  await runButton(page, 'Run').click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(page.getByRole('region', { name: 'State', exact: true })).toContainText('3');
});

test('a step that brings the engine down (a list nested 200,000 deep) leaves the editor working and says so', async ({ editor: page }) => {
  const deep = {
    format: 'switchyard/graph@1',
    name: 'Nested too deep',
    state: { x: { type: 'any' } },
    limits: { max_ops: 100_000_000 },
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'deep', kind: 'script', script: 'let a = []; let i = 0; while i < 200000 { a = [a]; i += 1; } #{ x: a }' },
      { id: 'end', kind: 'end' },
    ],
    edges: [{ from: 'start', to: 'deep' }, { from: 'deep', to: 'end' }],
  };
  await importJson(page, deep, 'deep');
  await startRun(page, {});
  await expect(page.getByRole('alert').filter({ hasText: 'The engine stopped during this step' })).toBeVisible({ timeout: 60_000 });
  await expect(runStatus(page)).toContainText('paused');
  await expect(node(page, 'deep')).not.toHaveAttribute('data-running', 'true');
  // The page itself is fine: a node is selected by a click, and Reset clears the run.
  await node(page, 'end').click();
  await expect(inspectorId(page)).toHaveValue('end');
  await runButton(page, 'Reset').click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'none');
});
