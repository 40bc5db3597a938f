// The run debugger: running graphs in the browser, answering human nodes, stepping and
// scrubbing through a run, forking with an edited state, failures and step limits, and the
// same record as the CLI for the same graph and input. Everything is found through the editor's
// testable surface (roles, accessible names, data-* attributes) and the run panel's accessible names.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, node, test } from './fixtures';
import {
  fastest, historyRegion, importJson, inputRequired, runButton, runRegion, runStatus, startRun, stateRegion,
  stepsRegion, timeline,
} from './run-panel';

const ROOT = resolve(import.meta.dirname, '../..');
const template = (file: string) => readFileSync(join(ROOT, 'templates', file), 'utf8');

// ---------------------------------------------------------------------------------------
// The run panel.

async function openTemplate(page: Page, name: string, firstNode: string): Promise<void> {
  await page.getByRole('button', { name: `Open template ${name}`, exact: true }).click();
  await expect(node(page, firstNode)).toBeVisible();
}

/** Every node's data-status, by id. */
async function statuses(page: Page): Promise<Record<string, string>> {
  return page.locator('[data-node-id]').evaluateAll((els) =>
    Object.fromEntries(els.map((e) => [e.getAttribute('data-node-id'), e.getAttribute('data-status')])),
  );
}

/** The edges with data-taken="true", as "from>to", sorted. */
async function takenEdges(page: Page): Promise<string[]> {
  return page.locator('[data-edge-from]').evaluateAll((els) =>
    els
      .filter((e) => e.getAttribute('data-taken') === 'true')
      .map((e) => `${e.getAttribute('data-edge-from')}>${e.getAttribute('data-edge-to')}`)
      .sort(),
  );
}

interface Entry {
  value: string;
  changed: string | null;
}

/**
 * The State region's top-level entries: key → shown value (the entry's text without its key)
 * and data-changed.
 */
async function shownState(page: Page): Promise<Record<string, Entry>> {
  return stateRegion(page)
    .locator('[data-key]')
    .evaluateAll((els) =>
      Object.fromEntries(
        els
          .filter((e) => !e.parentElement?.closest('[data-key]'))
          .map((e) => {
            const key = e.getAttribute('data-key') ?? '';
            const text = (e.textContent ?? '').trim();
            return [key, { value: text.startsWith(key) ? text.slice(key.length).trim() : text, changed: e.getAttribute('data-changed') }];
          }),
      ),
    );
}

/** key → shown value only. */
async function shownValues(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await shownState(page)).map(([k, e]) => [k, e.value]));
}

/** The keys marked data-changed="true", sorted. */
async function changedKeys(page: Page): Promise<string[]> {
  return Object.entries(await shownState(page))
    .filter(([, e]) => e.changed === 'true')
    .map(([k]) => k)
    .sort();
}

// ---------------------------------------------------------------------------------------
// The approval template (templates/003-approval.json) and what each step of an approved
// run must show.

const APPROVAL_NODES = [
  'start', 'get_approval', 'check_approval', 'approved_action', 'rejected_action', 'unknown_decision',
  'finish_approved', 'finish_rejected', 'end_halted', 'end_approved', 'end_rejected',
];
const DONE_TEXT = 'Done: two laptops is arranged for a colleague.';
const DONE = `"${DONE_TEXT}"`;
const SORRY_TEXT = 'Sorry, a colleague: your request for a new monitor was declined. The approver says: not this quarter.';
const SORRY = `"${SORRY_TEXT}"`;

interface Expected {
  /** Nodes not listed are idle. */
  status: Record<string, string>;
  taken: string[];
  changed: string[];
  /** A subset of the shown state. */
  state: Record<string, string>;
}

function allStatuses(nodes: string[], set: Record<string, string>): Record<string, string> {
  return Object.fromEntries(nodes.map((id) => [id, set[id] ?? 'idle']));
}

const APPROVED_STEPS: Expected[] = [
  {
    status: {},
    taken: [],
    changed: [],
    state: {
      request: '"two laptops"', requester: '"a colleague"', decision: '""', comments: '""', action_result: '""', notification: '""',
      final_status: '""', final_result: '""',
    },
  },
  {
    status: { get_approval: 'active' },
    taken: ['get_approval>check_approval'],
    changed: ['decision'],
    state: { decision: '"approve"', comments: '""', action_result: '""' },
  },
  {
    status: { get_approval: 'done', check_approval: 'active' },
    taken: ['check_approval>approved_action'],
    changed: [],
    state: { decision: '"approve"', action_result: '""' },
  },
  {
    status: { get_approval: 'done', check_approval: 'done', approved_action: 'active' },
    taken: ['approved_action>finish_approved'],
    changed: ['action_result'],
    state: { decision: '"approve"', action_result: DONE, notification: '""', final_status: '""' },
  },
  {
    // The last step of a completed run: nothing is active any more.
    status: { get_approval: 'done', check_approval: 'done', approved_action: 'done', finish_approved: 'done' },
    taken: ['finish_approved>end_approved'],
    changed: ['final_result', 'final_status'],
    state: { decision: '"approve"', action_result: DONE, notification: '""', final_status: '"completed"', final_result: `"Approved. ${DONE_TEXT}"` },
  },
];

/** Polls quickly at first: the page updates within a frame or two. */
const QUICK = { intervals: [20, 50, 100, 250] };

/** Waits until the page shows step `k` as `want` describes. */
async function expectStep(page: Page, k: number, want: Expected): Promise<void> {
  await expect(timeline(page), `the Timeline shows step ${k}`).toHaveValue(String(k));
  await expect
    .poll(() => statuses(page), { ...QUICK, message: `node statuses at step ${k}` })
    .toEqual(allStatuses(APPROVAL_NODES, want.status));
  await expect.poll(() => takenEdges(page), { ...QUICK, message: `taken edges at step ${k}` }).toEqual(want.taken);
  await expect.poll(() => changedKeys(page), { ...QUICK, message: `changed keys at step ${k}` }).toEqual(want.changed);
  await expect
    .poll(async () => {
      const shown = await shownValues(page);
      return Object.fromEntries(Object.keys(want.state).map((key) => [key, shown[key]]));
    }, { ...QUICK, message: `the State region shows each key's value at step ${k}` })
    .toEqual(want.state);
}

/** Runs the approval template with `request` until it waits for the approver. */
async function runApprovalUntilWaiting(page: Page, request = 'two laptops'): Promise<void> {
  await openTemplate(page, 'Approval workflow', 'get_approval');
  await fastest(page);
  await startRun(page, { request });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await expect(node(page, 'get_approval')).toHaveAttribute('data-status', 'waiting');
  await expect(inputRequired(page)).toContainText(`a colleague asks for: ${request}. Approve or reject`);
}

/** Answers the approval form: its decision (typed: the form takes any text), and comments when given. */
async function answer(page: Page, decision: string, comments?: string): Promise<void> {
  const form = inputRequired(page);
  await form.getByRole('textbox', { name: 'Decision', exact: true }).fill(decision);
  if (comments !== undefined) await form.getByRole('textbox', { name: 'Comments', exact: true }).fill(comments);
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(inputRequired(page)).toHaveCount(0);
}

// ---------------------------------------------------------------------------------------
// Saved runs in localStorage: `switchyard.runs.<graph>` (the list, newest first) and
// `switchyard.run.<graph>.<run>` ("graph=" + base64url of the raw-deflated JSON
// `{record, initial}`).

interface StoredRuns {
  graph: string;
  list: { run_id: string; status: string; steps: number }[];
  raw: Record<string, string>;
}

async function storedRuns(page: Page): Promise<StoredRuns[]> {
  return page.evaluate(() => {
    const out: StoredRuns[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? '';
      if (!key.startsWith('switchyard.runs.')) continue;
      const graph = key.slice('switchyard.runs.'.length);
      const list = JSON.parse(localStorage.getItem(key) ?? '[]');
      const raw: Record<string, string> = {};
      for (const r of list) raw[r.run_id] = localStorage.getItem(`switchyard.run.${graph}.${r.run_id}`) ?? '';
      out.push({ graph, list, raw });
    }
    return out;
  });
}

/** The one graph with saved runs, once it holds `count` runs. */
async function theStoredRuns(page: Page, count: number): Promise<StoredRuns> {
  let found: StoredRuns[] = [];
  await expect
    .poll(async () => {
      found = await storedRuns(page);
      return found.map((g) => g.list.length);
    }, { message: `one graph with ${count} saved run(s)` })
    .toEqual([count]);
  return found[0];
}

function unpack(value: string): { record: Record<string, unknown>; initial: Record<string, unknown> } {
  expect(value.startsWith('graph='), 'a saved run is a share-style "graph=…" string').toBe(true);
  const bytes = Buffer.from(value.slice('graph='.length), 'base64url');
  return JSON.parse(inflateRawSync(bytes).toString('utf8'));
}

// ---------------------------------------------------------------------------------------

test('approval: run, answer approve, then step and scrub through the run', async ({ editor: page }) => {
  await runApprovalUntilWaiting(page);
  // Waiting before any step: the approver's node waits, the slider has nothing to move to.
  await expect(timeline(page)).toHaveValue('0');
  await expect(timeline(page)).toHaveAttribute('max', '0');
  expect(await statuses(page)).toEqual(allStatuses(APPROVAL_NODES, { get_approval: 'waiting' }));
  await expect(inputRequired(page).getByRole('textbox', { name: 'Decision', exact: true })).toBeVisible();

  await answer(page, 'approve');
  await expect(timeline(page)).toHaveAttribute('max', '4');
  await expectStep(page, 4, APPROVED_STEPS[4]);
  await expect(runButton(page, 'Step')).toBeDisabled();
  await expect(runButton(page, 'Continue')).toBeDisabled();

  // From the start, one step at a time.
  await timeline(page).fill('0');
  await expectStep(page, 0, APPROVED_STEPS[0]);
  await expect(runButton(page, 'Back')).toBeDisabled();
  for (let k = 1; k <= 4; k++) {
    await runButton(page, 'Step').click();
    await expectStep(page, k, APPROVED_STEPS[k]);
  }
  await expect(runButton(page, 'Step')).toBeDisabled();
  for (let k = 3; k >= 0; k--) {
    await runButton(page, 'Back').click();
    await expectStep(page, k, APPROVED_STEPS[k]);
  }
  await expect(runButton(page, 'Back')).toBeDisabled();

  // Scrubbing the Timeline back and forth, by value and by keyboard.
  for (const k of [4, 1, 3, 0, 2, 4, 3, 0, 1]) {
    await timeline(page).fill(String(k));
    await expectStep(page, k, APPROVED_STEPS[k]);
  }
  await timeline(page).focus();
  await page.keyboard.press('End');
  await expectStep(page, 4, APPROVED_STEPS[4]);
  await page.keyboard.press('ArrowLeft');
  await expectStep(page, 3, APPROVED_STEPS[3]);
  await page.keyboard.press('Home');
  await expectStep(page, 0, APPROVED_STEPS[0]);
  await page.keyboard.press('ArrowRight');
  await expectStep(page, 1, APPROVED_STEPS[1]);

  // Continue plays the rest of the recorded run.
  await runButton(page, 'Continue').click();
  await expectStep(page, 4, APPROVED_STEPS[4]);
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');

  // Reset clears the run from the canvas.
  await runButton(page, 'Reset').click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'none');
  await expect.poll(() => statuses(page)).toEqual(allStatuses(APPROVAL_NODES, {}));
  await expect.poll(() => takenEdges(page)).toEqual([]);
});

test('a human node is answered after a reload: the waiting run comes back and completes', async ({ editor: page }) => {
  await runApprovalUntilWaiting(page, 'a new monitor');
  const before = await theStoredRuns(page, 1);
  expect(before.list[0].status).toBe('interrupted');

  await page.reload();
  await expect(node(page, 'get_approval')).toBeVisible();
  // The app reopens the last interrupted run.
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await expect(node(page, 'get_approval')).toHaveAttribute('data-status', 'waiting');
  await expect(inputRequired(page)).toContainText('a colleague asks for: a new monitor. Approve or reject');

  await fastest(page);
  await answer(page, 'reject', 'not this quarter');
  await expect(timeline(page)).toHaveValue('4');
  await expect
    .poll(() => statuses(page))
    .toEqual(
      allStatuses(APPROVAL_NODES, { get_approval: 'done', check_approval: 'done', rejected_action: 'done', finish_rejected: 'done' }),
    );
  await expect.poll(() => takenEdges(page)).toEqual(['finish_rejected>end_rejected']);
  await expect.poll(() => changedKeys(page)).toEqual(['final_result', 'final_status']);
  const state = await shownValues(page);
  expect(state).toMatchObject({
    request: '"a new monitor"', decision: '"reject"', comments: '"not this quarter"', notification: SORRY, action_result: '""',
    final_status: '"completed"', final_result: `"Rejected. ${SORRY_TEXT}"`,
  });

  // The same run was continued (not a new one) and saved as completed.
  const after = await theStoredRuns(page, 1);
  expect(after.list[0]).toMatchObject({ run_id: before.list[0].run_id, status: 'completed', steps: 4 });
  await expect(historyRegion(page).getByRole('listitem')).toHaveCount(1);
});

test('fork from step 2 with an edited state; the original run is unchanged', async ({ editor: page }) => {
  await runApprovalUntilWaiting(page);
  await answer(page, 'approve');
  await expectStep(page, 4, APPROVED_STEPS[4]);
  const originalState = await shownValues(page);
  const originalSteps = (await stepsRegion(page).textContent()) ?? '';
  const stored = await theStoredRuns(page, 1);
  const originalId = stored.list[0].run_id;
  const originalRaw = stored.raw[originalId];
  await expect(historyRegion(page).getByRole('listitem')).toHaveCount(1);
  const originalLabel = ((await historyRegion(page).getByRole('button').first().textContent()) ?? '').trim();
  expect(originalLabel).toContain(originalId);

  // Edit the state at step 2 and run on from there.
  await timeline(page).fill('2');
  await expectStep(page, 2, APPROVED_STEPS[2]);
  await stateRegion(page).getByRole('button', { name: 'Edit and fork' }).click();
  const editor = stateRegion(page).getByRole('textbox', { name: 'Edited state' });
  const edited = JSON.parse(await editor.inputValue());
  expect(edited).toMatchObject({ request: 'two laptops', requester: 'a colleague', decision: 'approve', action_result: '' });
  edited.requester = 'the finance team';
  await editor.fill(JSON.stringify(edited, null, 2));
  await stateRegion(page).getByRole('button', { name: 'Run from step 2' }).click();

  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  const forks = await theStoredRuns(page, 2);
  const forkId = forks.list[0].run_id;
  expect(forkId).not.toBe(originalId);
  await expect(timeline(page)).toHaveValue('4');
  await expect
    .poll(() => shownValues(page))
    .toEqual({
      ...originalState,
      requester: '"the finance team"',
      // The action's mock reply follows the state it is given, and the final result quotes it.
      action_result: '"Done: two laptops is arranged for the finance team."',
      final_result: '"Approved. Done: two laptops is arranged for the finance team."',
    });
  // The forked run ran the approved action with the edited requester, then reported it.
  const fork = unpack(forks.raw[forkId]).record as { steps: { ran: string[]; details?: Record<string, { prompt?: string }> }[] };
  expect(fork.steps.at(-1)?.ran).toEqual(['finish_approved']);
  expect(fork.steps.at(-2)?.ran).toEqual(['approved_action']);
  expect(fork.steps.at(-2)?.details?.approved_action?.prompt).toBe(
    "Carry out this approved request for the finance team: two laptops. Approver's comments: none.",
  );

  // The original is untouched, in storage and when opened again from the history.
  expect(forks.raw[originalId], 'the saved original run is byte for byte the same').toBe(originalRaw);
  await expect(historyRegion(page).getByRole('listitem')).toHaveCount(2);
  await historyRegion(page).getByRole('button', { name: originalLabel, exact: true }).click();
  await expect(timeline(page)).toHaveValue('4');
  await expect.poll(() => shownValues(page)).toEqual(originalState);
  await expect(stepsRegion(page)).toHaveText(originalSteps);
  await expectStep(page, 4, APPROVED_STEPS[4]);
  await timeline(page).fill('2');
  await expectStep(page, 2, APPROVED_STEPS[2]);
});

const FAILING = {
  format: 'switchyard/graph@1',
  name: 'Failing node',
  state: { x: { type: 'number' }, y: { type: 'string' } },
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'prep', kind: 'set', set: { x: '1' } },
    { id: 'boom', kind: 'set', set: { y: 'throw "boom"' } },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { from: 'start', to: 'prep' },
    { from: 'prep', to: 'boom' },
    { from: 'boom', to: 'end' },
  ],
};

test('a failing node shows its error on the node and in an alert', async ({ editor: page }) => {
  await importJson(page, FAILING, 'boom');
  await fastest(page);
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'failed');
  await expect(node(page, 'boom')).toHaveAttribute('data-status', 'error');
  await expect(node(page, 'prep')).toHaveAttribute('data-status', 'done');
  const alert = page.getByRole('alert').filter({ hasText: 'boom' });
  await expect(alert).toHaveCount(1);
  await expect(alert).toContainText('`boom`');
  await expect(alert).toContainText('set.y');
  // The state is kept as of the last good step.
  await expect.poll(() => shownValues(page)).toEqual({ x: '1', y: '""' });

  // Retrying runs the step again (and, this graph being deterministic, fails again).
  await stateRegion(page).getByRole('button', { name: 'Retry step' }).click();
  await theStoredRuns(page, 2);
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'failed');
  await expect(node(page, 'boom')).toHaveAttribute('data-status', 'error');
});

const LOOP = {
  format: 'switchyard/graph@1',
  name: 'Endless loop',
  state: { n: { type: 'number', reducer: 'add', default: 0 } },
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'ping', kind: 'set', set: { n: '1' } },
    { id: 'pong', kind: 'set', set: { n: '1' } },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { from: 'start', to: 'ping' },
    { from: 'ping', to: 'pong' },
    { from: 'pong', to: 'ping' },
  ],
  limits: { max_steps: 6 },
};

test('a loop that reaches max_steps says so', async ({ editor: page }) => {
  await importJson(page, LOOP, 'ping');
  await fastest(page);
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'limit_reached');
  const alert = page.getByRole('alert').filter({ hasText: /step limit/i });
  await expect(alert).toHaveCount(1);
  await expect(alert).toContainText('max_steps (6)');
  await expect(timeline(page)).toHaveAttribute('max', '6');
  await expect(timeline(page)).toHaveValue('6');
  await expect.poll(() => shownValues(page)).toEqual({ n: '6' });
  // Step 6 ran pong; its edge back to ping was followed (ping would run next). The run has
  // stopped, so pong is done, not active.
  await expect(node(page, 'pong')).toHaveAttribute('data-status', 'done');
  await expect(node(page, 'ping')).toHaveAttribute('data-status', 'done');
  await expect.poll(() => takenEdges(page)).toEqual(['pong>ping']);
});

// ---------------------------------------------------------------------------------------
// Subgraphs: the run's nested steps, and the canvas entering the embedded graph.

const WITH_SUBGRAPH = {
  format: 'switchyard/graph@1',
  name: 'Outer',
  state: { x: { type: 'number', default: 0 }, y: { type: 'number', default: 0 } },
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'prep', kind: 'set', set: { x: '2' } },
    {
      id: 'inner',
      kind: 'subgraph',
      inputs: { v: 'state.x' },
      outputs: { y: 'result.v' },
      graph: {
        format: 'switchyard/graph@1',
        name: 'Doubler',
        state: { v: { type: 'number', default: 0 } },
        nodes: [
          { id: 'start', kind: 'start' },
          { id: 'double', kind: 'set', set: { v: 'state.v * 2' } },
          { id: 'again', kind: 'set', set: { v: 'state.v * 2' } },
          { id: 'end', kind: 'end' },
        ],
        edges: [
          { from: 'start', to: 'double' },
          { from: 'double', to: 'again' },
          { from: 'again', to: 'end' },
        ],
      },
    },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { from: 'start', to: 'prep' },
    { from: 'prep', to: 'inner' },
    { from: 'inner', to: 'end' },
  ],
};

async function exported(page: Page): Promise<{ nodes: { id: string; graph?: { nodes: { id: string }[] } }[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  return JSON.parse(readFileSync(await download.path(), 'utf8'));
}

const innerIds = async (page: Page) =>
  ((await exported(page)).nodes.find((n) => n.id === 'inner')?.graph?.nodes ?? []).map((n) => n.id);

test('a subgraph step opens its nested run, and the canvas enters the embedded graph', async ({ editor: page }) => {
  await importJson(page, WITH_SUBGRAPH, 'inner');
  await fastest(page);
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect.poll(() => shownValues(page)).toEqual({ x: '2', y: '8' });

  // The step that ran the subgraph lists its run; opening it shows the inner graph and run.
  await stepsRegion(page).getByRole('button', { name: 'Open the steps of subgraph inner' }).click();
  const path = page.getByRole('navigation', { name: 'Subgraph path' });
  await expect(path).toContainText('inner');
  await expect(node(page, 'double')).toBeVisible();
  await expect(node(page, 'prep')).toHaveCount(0);
  await expect(timeline(page)).toHaveAttribute('max', '2');
  await timeline(page).fill('1');
  await expect(node(page, 'double')).toHaveAttribute('data-status', 'active');
  await expect(node(page, 'again')).toHaveAttribute('data-status', 'idle');
  await expect.poll(() => takenEdges(page)).toEqual(['double>again']);
  await expect.poll(() => shownValues(page)).toEqual({ v: '4' });
  await timeline(page).fill('2');
  await expect(node(page, 'double')).toHaveAttribute('data-status', 'done');
  await expect(node(page, 'again')).toHaveAttribute('data-status', 'done');
  await expect.poll(() => shownValues(page)).toEqual({ v: '8' });

  // Back to the parent run: the outer graph and its run again.
  await runRegion(page).getByRole('button', { name: 'Back to the parent run' }).click();
  await expect(path).toHaveCount(0);
  await expect(node(page, 'prep')).toBeVisible();
  await expect(node(page, 'inner')).toHaveAttribute('data-status', 'done');
  await expect.poll(() => shownValues(page)).toEqual({ x: '2', y: '8' });

  // Editing inside: delete a node of the embedded graph, leave, undo from outside.
  await runButton(page, 'Reset').click();
  await page.getByRole('button', { name: 'Open subgraph inner', exact: true }).click();
  await expect(node(page, 'again')).toBeVisible();
  await node(page, 'again').click();
  await page.keyboard.press('Delete');
  await expect(node(page, 'again')).toHaveCount(0);
  await path.getByRole('button', { name: 'Leave the subgraph' }).click();
  await expect(node(page, 'prep')).toBeVisible();
  await expect.poll(() => innerIds(page)).toEqual(['start', 'double', 'end']);
  await page.keyboard.press('Control+z');
  // Undo goes back into the subgraph, where the edit was made.
  await expect(node(page, 'again')).toBeVisible();
  await expect(path).toContainText('inner');
  await expect.poll(() => innerIds(page)).toEqual(['start', 'double', 'again', 'end']);

  // A run from inside a subgraph runs the whole document, shown from the top.
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(path).toHaveCount(0);
  await expect.poll(() => shownValues(page)).toEqual({ x: '2', y: '8' });
});

// ---------------------------------------------------------------------------------------
// Models and HTTP through fetch. Playwright answers for the two made-up hosts, standing in
// for an OpenAI-compatible server and an API; the requests are what the page really sent.

const EFFECTS = {
  format: 'switchyard/graph@1',
  name: 'Effects',
  state: { name: { type: 'string' }, reply: { type: 'string' }, items: { type: 'any' } },
  nodes: [
    { id: 'start', kind: 'start', required: ['name'] },
    { id: 'ask', kind: 'llm', prompt: 'Say hello to {{ state.name }}', writes: 'reply', model: { provider: 'openai', model: 'test-model' } },
    { id: 'fetch', kind: 'http', method: 'GET', url: 'http://api.test/items/{{ state.name }}', writes: 'items', parse: 'json' },
    { id: 'end', kind: 'end' },
  ],
  edges: [
    { from: 'start', to: 'ask' },
    { from: 'ask', to: 'fetch' },
    { from: 'fetch', to: 'end' },
  ],
};

/** The origins the run asks about before it starts, then presses `answer` there. */
async function answerNewOrigins(page: Page, origins: string[], answer: 'Run anyway' | 'Cancel'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'New origins' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveText(origins);
  await dialog.getByRole('button', { name: answer, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

/** Playwright stands in for the made-up hosts; `seen` gets every request they answer. */
async function routeEffects(page: Page, seen: { url: string; auth: string | null; body: string | null }[]): Promise<void> {
  const CORS = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-allow-methods': 'GET, POST',
  };
  const preflight = async (route: import('@playwright/test').Route) => {
    if (route.request().method() !== 'OPTIONS') return false;
    await route.fulfill({ status: 204, headers: CORS });
    return true;
  };
  for (const host of ['http://models.test/**', 'http://other.test/**']) {
    await page.route(host, async (route) => {
      if (await preflight(route)) return;
      const r = route.request();
      seen.push({ url: r.url(), auth: r.headers()['authorization'] ?? null, body: r.postData() });
      await route.fulfill({
        status: 200,
        headers: { 'content-type': 'application/json', ...CORS },
        body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Hello, Ada!' } }] }),
      });
    });
  }
  await page.route('http://api.test/**', async (route) => {
    if (await preflight(route)) return;
    const url = route.request().url();
    seen.push({ url, auth: route.request().headers()['authorization'] ?? null, body: null });
    if (url.endsWith('/broken')) {
      await route.fulfill({ status: 503, headers: CORS, body: 'upstream is down for maintenance' });
    } else {
      await route.fulfill({ status: 200, headers: { 'content-type': 'application/json', ...CORS }, body: '[{"id":1},{"id":2}]' });
    }
  });
}

test('llm and http nodes run through fetch; the key kept for the model origin goes there only and is never saved', async ({ editor: page }) => {
  const KEY = 'sk-test-e2e-0123456789';
  const seen: { url: string; auth: string | null; body: string | null }[] = [];
  await routeEffects(page, seen);

  // A key typed with a Base URL is kept for that URL's origin; the dialog lists origins only.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('textbox', { name: 'Base URL' }).fill('http://models.test/v1');
  await settings.getByLabel('API key').fill(KEY);
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings).toHaveCount(0);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const keys = settings.getByRole('list', { name: 'Origins with keys' });
  await expect(keys.getByRole('listitem')).toHaveCount(1);
  await expect(keys).toContainText('http://models.test');
  await expect(settings).not.toContainText(KEY);
  await expect(settings.getByLabel('API key')).toHaveValue('');
  await settings.getByRole('button', { name: 'Cancel', exact: true }).click();

  await importJson(page, EFFECTS, 'ask');
  await fastest(page);
  // The model's origin has a key (so it is one the person uses); the API's is new.
  await startRun(page, { name: 'Ada' });
  await answerNewOrigins(page, ['http://api.test'], 'Run anyway');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect.poll(() => shownValues(page)).toMatchObject({ reply: '"Hello, Ada!"' });

  const model = seen.find((r) => r.url.startsWith('http://models.test/'));
  expect(model?.url).toBe('http://models.test/v1/chat/completions');
  expect(model?.auth).toBe(`Bearer ${KEY}`);
  expect(JSON.parse(model?.body ?? '{}').messages.at(-1)).toEqual({ role: 'user', content: 'Say hello to Ada' });
  expect(seen.find((r) => r.url === 'http://api.test/items/Ada')?.auth, 'the key goes only to the model').toBeNull();

  // The key is in no saved run and no exported document.
  const stored = await theStoredRuns(page, 1);
  const saved = unpack(stored.raw[stored.list[0].run_id]);
  expect((saved.record as { state: Record<string, unknown> }).state.items).toEqual([{ id: 1 }, { id: 2 }]);
  const record = JSON.stringify(saved);
  expect(record).toContain('Hello, Ada!');
  expect(record).not.toContain(KEY);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  expect(readFileSync(await download.path(), 'utf8')).not.toContain(KEY);

  // A graph naming another model server gets no key, and the step's details say why.
  const elsewhere = structuredClone(EFFECTS) as typeof EFFECTS & { nodes: Record<string, unknown>[] };
  elsewhere.name = 'Effects elsewhere';
  elsewhere.nodes[1].model = { provider: 'openai', model: 'test-model', base_url: 'http://other.test/v1' };
  await importJson(page, elsewhere, 'ask');
  await startRun(page, { name: 'Ada' });
  await answerNewOrigins(page, ['http://other.test'], 'Run anyway');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  const other = seen.find((r) => r.url.startsWith('http://other.test/'));
  expect(other?.url).toBe('http://other.test/v1/chat/completions');
  expect(other?.auth, 'no key to an origin it was not kept for').toBeNull();
  const runs = await storedRuns(page);
  const elsewhereRuns = runs.find((g) => g.list.length === 1 && JSON.stringify(unpack(g.raw[g.list[0].run_id])).includes('other.test'));
  const details = JSON.stringify(unpack(elsewhereRuns!.raw[elsewhereRuns!.list[0].run_id]));
  expect(details).toContain('no key sent: no key for http://other.test is kept in Settings');
  expect(details).not.toContain(KEY);

  // A non-2xx reply is the node's error, with the status and the start of the body.
  const broken = structuredClone(EFFECTS);
  broken.name = 'Effects broken';
  broken.nodes[2].url = 'http://api.test/broken';
  await importJson(page, broken, 'fetch');
  await startRun(page, { name: 'Ada' });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'failed');
  await expect(node(page, 'fetch')).toHaveAttribute('data-status', 'error');
  await expect(node(page, 'ask')).toHaveAttribute('data-status', 'done');
  const alert = page.getByRole('alert').filter({ hasText: '503' });
  await expect(alert).toContainText('`fetch`');
  await expect(alert).toContainText('upstream is down');

  // A server that cannot be reached (or refuses the page by CORS) is a node error too.
  const refused = structuredClone(EFFECTS);
  refused.name = 'Effects unreachable';
  refused.nodes[2].url = 'http://127.0.0.1:9/items';
  await importJson(page, refused, 'fetch');
  await startRun(page, { name: 'Ada' });
  await answerNewOrigins(page, ['http://127.0.0.1:9'], 'Run anyway');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'failed');
  await expect(node(page, 'fetch')).toHaveAttribute('data-status', 'error');
  await expect(page.getByRole('alert').filter({ hasText: 'http://127.0.0.1:9/items' })).toHaveCount(1);
});

test('a shared graph naming a new origin: Run asks first; Cancel sends nothing, Run anyway runs and is remembered', async ({ editor: page }) => {
  const seen: { url: string; auth: string | null; body: string | null }[] = [];
  await routeEffects(page, seen);
  const graph = {
    format: 'switchyard/graph@1',
    name: 'From a stranger',
    state: { reply: { type: 'string' } },
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'ask', kind: 'llm', prompt: 'Hi', writes: 'reply', model: { provider: 'openai', model: 'm', base_url: 'http://other.test/v1' } },
      { id: 'end', kind: 'end' },
    ],
    edges: [
      { from: 'start', to: 'ask' },
      { from: 'ask', to: 'end' },
    ],
  };
  await importJson(page, graph, 'ask');
  await fastest(page);
  await startRun(page, {});
  await answerNewOrigins(page, ['http://other.test'], 'Cancel');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'none');
  expect(seen, 'nothing was sent').toEqual([]);

  await runButton(page, 'Run').click();
  await answerNewOrigins(page, ['http://other.test'], 'Run anyway');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  expect(seen.map((r) => r.url)).toEqual(['http://other.test/v1/chat/completions']);

  // Approved once, not asked again.
  await runButton(page, 'Run').click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect.poll(() => seen.length).toBe(2);
  await expect(page.getByRole('dialog', { name: 'New origins' })).toHaveCount(0);
});

// ---------------------------------------------------------------------------------------
// Browser and CLI agree.

test.describe('the browser and the CLI', () => {
  let cli = '';

  // The CLI from this checkout: `cargo build -p switchyard` (a no-op when up to date; it may
  // wait for other builds' lock), or the binary named by SWITCHYARD_CLI.
  test.beforeAll(() => {
    test.setTimeout(900_000);
    if (process.env.SWITCHYARD_CLI) {
      cli = resolve(process.env.SWITCHYARD_CLI);
      return;
    }
    const build = spawnSync('cargo', ['build', '-q', '-p', 'switchyard'], { cwd: ROOT, encoding: 'utf8', timeout: 880_000 });
    if (build.status !== 0) {
      throw new Error(`cargo build -p switchyard failed (${build.error ?? `exit ${build.status}`}):\n${build.stderr}`);
    }
    const meta = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    cli = join(JSON.parse(meta.stdout).target_directory, 'debug', 'switchyard');
  });

  /** Runs the CLI, expecting exit code `code`; returns the record it prints. */
  function cliRun(args: string[], code: number): Record<string, unknown> {
    const r = spawnSync(cli, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(r.status, `switchyard ${args.join(' ')}: ${r.stderr}`).toBe(code);
    return JSON.parse(r.stdout);
  }

  /** What may differ between two runs: ids (the trace ids derive from the run id) and times. */
  const VARYING = new Set(['run_id', 'duration_ms', 'trace_id', 'traces', 'started_ms', 'timings']);

  /** The record without what may differ between two runs. */
  function comparable(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(comparable);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => !VARYING.has(k))
          .map(([k, x]) => [k, comparable(x)]),
      );
    }
    return v;
  }

  function expectSameRun(browser: Record<string, unknown>, native: Record<string, unknown>): void {
    const b = comparable(browser) as { steps: Record<string, unknown>[] };
    const n = comparable(native) as { steps: Record<string, unknown>[] };
    expect(b.steps.length, 'as many steps').toBe(n.steps.length);
    for (let i = 0; i < n.steps.length; i++) {
      for (const field of ['ran', 'updates', 'errors', 'patch', 'state', 'next', 'taken']) {
        expect(b.steps[i][field], `step ${i + 1} ${field}`).toEqual(n.steps[i][field]);
      }
      expect(b.steps[i], `step ${i + 1} in full`).toEqual(n.steps[i]);
    }
    expect(b, 'the whole record').toEqual(n);
  }

  test('the approval template, answered approve', async ({ editor: page }, info) => {
    await runApprovalUntilWaiting(page);
    await answer(page, 'approve');
    const stored = await theStoredRuns(page, 1);
    const browser = unpack(stored.raw[stored.list[0].run_id]).record;

    const first = info.outputPath('interrupted.json');
    const interrupted = cliRun(['run', join(ROOT, 'templates/003-approval.json'), '--input', JSON.stringify({ request: 'two laptops' })], 3);
    writeFileSync(first, JSON.stringify(interrupted));
    const native = cliRun(['resume', first, '--graph', join(ROOT, 'templates/003-approval.json'), '--answer', JSON.stringify({ get_approval: { decision: 'approve' } })], 0);
    expectSameRun(browser, native);
  });

  test('a record printed by the CLI imports into the open graph and plays back; one of another graph is refused', async ({ editor: page }, info) => {
    const graph = join(ROOT, 'templates/003-approval.json');
    const first = info.outputPath('interrupted.json');
    writeFileSync(first, JSON.stringify(cliRun(['run', graph, '--input', JSON.stringify({ request: 'a desk lamp' })], 3)));
    const native = cliRun(['resume', first, '--graph', graph, '--answer', JSON.stringify({ get_approval: { decision: 'reject' } })], 0);
    const paste = async (record: unknown) => {
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Import' });
      await dialog.getByRole('textbox', { name: 'Paste JSON' }).fill(JSON.stringify(record, null, 2));
      await dialog.getByRole('button', { name: 'Import pasted JSON' }).click();
    };
    await openTemplate(page, JSON.parse(template('003-approval.json')).name, 'get_approval');

    // A run of another version of the graph: refused, nothing saved.
    await paste({ ...native, graph_hash: '0'.repeat(64) });
    await expect(page.getByRole('alert').filter({ hasText: 'belongs to' })).toBeVisible();
    expect(await storedRuns(page)).toEqual([]);
    await page.getByRole('dialog', { name: 'Import' }).getByRole('button', { name: 'Cancel' }).click();

    await paste(native);
    await expect(page.getByRole('dialog', { name: 'Import' })).toHaveCount(0);
    await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
    await expect(historyRegion(page).getByRole('button', { name: new RegExp(native.run_id as string) })).toBeVisible();
    const stored = await theStoredRuns(page, 1);
    expect(unpack(stored.raw[native.run_id as string]).record, 'the history keeps the record as imported').toEqual(native);
  });

  test('the task loop template on a complex request', async ({ editor: page }) => {
    const input = {
      request:
        'Analyze and compare three databases for our analytics workload, research their costs, and then recommend the best one for a team of twenty engineers with a tight budget',
    };
    const name = JSON.parse(template('000-task-loop.json')).name;
    await openTemplate(page, name, 'assess');
    await fastest(page);
    await startRun(page, input);
    await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
    const stored = await theStoredRuns(page, 1);
    const browser = unpack(stored.raw[stored.list[0].run_id]).record;
    const native = cliRun(['run', join(ROOT, 'templates/000-task-loop.json'), '--input', JSON.stringify(input)], 0);
    expect((native.steps as unknown[]).length, 'the complex path loops').toBeGreaterThan(8);
    expectSameRun(browser, native);
  });
});
