// Accessibility: axe-core finds no serious or critical violation on any of the editor's
// screens (a new graph, every gallery template, the Inspector of every node kind and of an
// edge, the graph's MCP servers, the run panel waiting for input, after a run and scrubbed back, the Library, the
// dialogs, an import error, a subgraph entered, two runs compared), and a graph is built and run from the
// keyboard alone. Violations are listed by screen, rule and element when a test fails.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { KINDS, addNode, edge, expect, node, nodeIds, test } from './fixtures';
import { fastest, inputBox, inputRequired, runButton, runRegion, runStatus, stepsRegion, timeline } from './run-panel';

/** The serious and critical violations on the page as it is, one line each. */
async function violations(page: Page, screen: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    // Off by default in axe (experimental), but it is the rule a visible label that differs
    // from a control's name breaks.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${screen}: ${v.id} (${v.impact}) at ${n.target.join(' ')}: ${v.help}`));
}

/** Checks every screen `visit` shows (it calls `scan` on each) and fails listing them all. */
async function expectNoViolations(page: Page, visit: (scan: (screen: string) => Promise<void>) => Promise<void>) {
  const found: string[] = [];
  await visit(async (screen) => {
    found.push(...(await violations(page, screen)));
  });
  expect(found, `serious or critical axe violations:\n${found.join('\n')}`).toEqual([]);
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });

async function newGraph(page: Page): Promise<void> {
  await button(page, 'New').click();
  await expect(node(page, 'start')).toBeVisible();
}

async function importDoc(page: Page, doc: object, firstNode: string): Promise<void> {
  await button(page, 'Import').click();
  const dialog = page.getByRole('dialog', { name: 'Import' });
  await dialog.getByRole('textbox', { name: 'Paste JSON' }).fill(JSON.stringify(doc));
  await dialog.getByRole('button', { name: 'Import pasted JSON' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(node(page, firstNode)).toBeVisible();
}

// MCP servers, one by URL and one by command, and a tool run by one: the graph's Inspector.
const MCP_SERVERS = {
  format: 'switchyard/graph@1',
  name: 'MCP',
  tools: { read_graph: { description: 'Reads the memory', run: { mcp: { server: 'memory' } } } },
  mcp_servers: {
    remote: { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'docs' } },
    memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/tmp/m.jsonl' } },
  },
  nodes: [{ id: 'start', kind: 'start' }, { id: 'end', kind: 'end' }],
  edges: [{ from: 'start', to: 'end' }],
};

// A person's answer and a subgraph: one graph showing most run screens.
const REVIEW = {
  format: 'switchyard/graph@1',
  name: 'Review',
  state: { draft: { type: 'string', default: '' }, decision: { type: 'string', default: '' }, v: { type: 'number', default: 0 } },
  nodes: [
    { id: 'start', kind: 'start' },
    { id: 'write', kind: 'set', set: { draft: '"Plan for " + input.topic' } },
    { id: 'review', kind: 'human', prompt: 'Approve {{ state.draft }}?', writes: 'decision', options: ['approve', 'reject'] },
    {
      id: 'inner',
      kind: 'subgraph',
      inputs: { v: '2' },
      outputs: { v: 'result.v' },
      graph: {
        format: 'switchyard/graph@1',
        name: 'Doubler',
        state: { v: { type: 'number', default: 0 } },
        nodes: [
          { id: 'start', kind: 'start' },
          { id: 'double', kind: 'set', set: { v: 'state.v * 2' } },
          { id: 'end', kind: 'end' },
        ],
        edges: [
          { from: 'start', to: 'double' },
          { from: 'double', to: 'end' },
        ],
      },
    },
    { id: 'done', kind: 'end' },
  ],
  edges: [
    { from: 'start', to: 'write' },
    { from: 'write', to: 'review' },
    { from: 'review', to: 'inner', label: 'approve' },
    { from: 'review', to: 'done', label: 'reject' },
    { from: 'inner', to: 'done' },
  ],
};

test.describe('no serious or critical axe violation', () => {
  // Each axe scan takes a second or more on a busy machine.
  test.describe.configure({ timeout: 300_000 });

  test('a new graph, the Library, the dialogs and an import error', async ({ editor: page }) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expectNoViolations(page, async (scan) => {
      await newGraph(page);
      await scan('a new graph');
      await importDoc(page, REVIEW, 'review');
      await expect.poll(() => page.locator('[data-graph-id]').count()).toBeGreaterThan(1);
      await scan('the Library with saved graphs');
      for (const [opener, dialog] of [
        ['Settings', 'Settings'],
        ['Help', 'Keyboard shortcuts'],
        ['Search', 'Find a node'],
        ['Share', 'Share link'],
        ['Import', 'Import'],
      ]) {
        await button(page, opener).click();
        await expect(page.getByRole('dialog', { name: dialog })).toBeVisible();
        await scan(`the ${dialog} dialog`);
        if (dialog !== 'Import') await page.keyboard.press('Escape');
      }
      const importDialog = page.getByRole('dialog', { name: 'Import' });
      await importDialog.getByRole('textbox', { name: 'Paste JSON' }).fill('{"format": "switchyard/graph@1", "nodes": [');
      await importDialog.getByRole('button', { name: 'Import pasted JSON' }).click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      await scan('an import error');
      await importDialog.getByRole('textbox', { name: 'Paste JSON' }).fill(
        JSON.stringify({ format: 'switchyard/graph@1', nodes: [{ id: 'a', kind: 'set' }], edges: [{ from: 'a', to: 'b' }] }),
      );
      await importDialog.getByRole('button', { name: 'Import pasted JSON' }).click();
      await scan('an import with problems');
    });
  });

  test('every gallery template', async ({ editor: page }) => {
    const templates = await page.locator('button[data-template]').evaluateAll((els) => els.map((e) => e.getAttribute('data-template') ?? ''));
    expect(templates.length).toBeGreaterThanOrEqual(7);
    await expectNoViolations(page, async (scan) => {
      for (const key of templates) {
        const before = await page.locator('.graph-item').count();
        await page.locator(`button[data-template="${key}"]`).click();
        await expect(page.locator('.graph-item')).toHaveCount(before + 1);
        await scan(`template ${key}`);
      }
    });
  });

  test('the Inspector of every node kind and of an edge', async ({ editor: page }) => {
    await expectNoViolations(page, async (scan) => {
      await newGraph(page);
      for (const kind of KINDS) {
        const id = await addNode(page, kind);
        await expect(node(page, id)).toHaveClass(/selected/);
        await scan(`the ${kind} node's Inspector`);
        const outcome = inspector(page).getByRole('combobox', { name: 'Outcome' });
        if (kind === 'End' && (await outcome.count()) > 0) {
          await outcome.selectOption('failed');
          await scan("a failing end's Inspector");
        }
      }
      await node(page, 'start').click();
      await inspector(page).getByRole('button', { name: /^Edge / }).first().click();
      await expect(inspector(page).getByRole('button', { name: 'Delete', exact: true })).toBeVisible();
      await scan("an edge's Inspector");
      await importDoc(page, MCP_SERVERS, 'start');
      await page.keyboard.press('Escape');
      await expect(inspector(page).getByRole('group', { name: 'MCP server memory', exact: true })).toBeVisible();
      await scan("the graph's MCP servers and an MCP tool");
    });
  });

  test('the run panel: input required, after a run, scrubbed back, and a subgraph entered', async ({ editor: page }) => {
    await importDoc(page, REVIEW, 'review');
    await fastest(page);
    await expectNoViolations(page, async (scan) => {
      await node(page, 'review').click();
      await scan("a human node's Inspector");
      await inputBox(page).fill('{\n  "topic": "the launch"\n}');
      await runButton(page, 'Run').click();
      await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
      await expect(inputRequired(page)).toBeVisible();
      await scan('Input required');
      await inputRequired(page).getByRole('button', { name: 'approve', exact: true }).click();
      await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
      await scan('the run panel after a run');
      const last = (await timeline(page).getAttribute('max')) ?? '0';
      await timeline(page).fill('1');
      await expect(page.locator('[data-node-id][data-status="active"]').first()).toBeVisible();
      await scan('the timeline scrubbed back');
      await timeline(page).fill(last);
      await stepsRegion(page).getByRole('button', { name: 'Open the steps of subgraph inner' }).click();
      await expect(page.getByRole('navigation', { name: 'Subgraph path' })).toContainText('inner');
      await expect(node(page, 'double')).toBeVisible();
      await scan("a subgraph's nested run");
      await runRegion(page).getByRole('button', { name: 'Back to the parent run' }).click();
      await runButton(page, 'Reset').click();
      // The subgraph node may be off screen: find it (Ctrl+K centres it), then open it.
      await page.keyboard.press('ControlOrMeta+K');
      await page.keyboard.type('inner');
      await page.keyboard.press('Enter');
      await button(page, 'Open subgraph inner').click();
      await expect(node(page, 'double')).toBeVisible();
      await scan('a subgraph entered for editing');
    });
  });

  test('Compare runs: two runs of the History side by side', async ({ editor: page }) => {
    await importDoc(page, REVIEW, 'review');
    await fastest(page);
    for (const answer of ['approve', 'reject']) {
      await inputBox(page).fill('{"topic": "the launch"}');
      await runButton(page, 'Run').click();
      await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
      await inputRequired(page).getByRole('button', { name: answer, exact: true }).click();
      await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
    }
    const runs = page.getByRole('region', { name: 'Run history' }).getByRole('listitem');
    await expect(runs).toHaveCount(2);
    await expectNoViolations(page, async (scan) => {
      await runs.nth(1).getByRole('button', { name: 'Compare with…', exact: true }).click();
      await scan('History, a run picked to compare');
      await runs.nth(0).getByRole('button', { name: 'Compare', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Compare runs' });
      await expect(dialog.locator('[role="option"][aria-selected="true"]')).toHaveAttribute('data-differs', 'true');
      await scan('the Compare runs dialog');
    });
  });
});

test('a graph is built and run from the keyboard alone: add, connect, run', async ({ editor: page }) => {
  // Every action below is a key press on the focused control; `focus()` stands in for the
  // Tab presses that would reach it.
  const before = new Set(await nodeIds(page));
  expect(before).toEqual(new Set(['start', 'end']));
  await expect(edge(page, 'start', 'end')).toHaveCount(1);

  // Add: the palette button adds a node and selects it, so the Inspector shows its form.
  await button(page, 'Add Set').focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await nodeIds(page)).filter((id) => !before.has(id)).length).toBe(1);
  const set = (await nodeIds(page)).find((id) => !before.has(id)) ?? '';
  await expect(node(page, set)).toHaveClass(/selected/);

  // Connect the new node to end: its only possible target is offered first.
  const connectTo = inspector(page).getByRole('combobox', { name: 'Connect to', exact: true });
  await connectTo.focus();
  await expect(connectTo).toHaveValue('end');
  await page.keyboard.press('Tab');
  await expect(inspector(page).getByRole('button', { name: 'Connect', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(edge(page, set, 'end')).toHaveCount(1);

  // Find start (Ctrl+K), connect it to the new node, and remove its edge straight to end.
  const findStart = async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('start');
    await page.keyboard.press('Enter');
    await expect(node(page, 'start')).toHaveClass(/selected/);
  };
  await findStart();
  await connectTo.focus();
  while ((await connectTo.inputValue()) !== set) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(edge(page, 'start', set)).toHaveCount(1);
  await findStart();
  await inspector(page).getByRole('button', { name: 'Edge start → end', exact: true }).focus();
  await page.keyboard.press('Enter');
  await inspector(page).getByRole('button', { name: 'Delete', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(edge(page, 'start', 'end')).toHaveCount(0);

  // Run: type the input, then Run.
  await inputBox(page).focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('{}');
  await runButton(page, 'Run').focus();
  await page.keyboard.press('Enter');
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(node(page, set)).toHaveAttribute('data-status', /done|active/);
  await expect(stepsRegion(page)).toContainText(set);
  await expect(edge(page, 'start', set)).toHaveCount(1);
  await expect(edge(page, set, 'end')).toHaveCount(1);
});

// The Tests panel (README, Tests): a run saved as a test from the keyboard alone, the panel
// with a failing case after an edit, its progress and scores, and the comparison it opens.
test('the Tests panel: Save as test by keyboard, a failing case, and Compare runs', async ({ editor: page }) => {
  test.setTimeout(120_000);
  const tests = () => page.getByRole('region', { name: 'Tests', exact: true });
  await importDoc(page, REVIEW, 'review');
  await fastest(page);
  await inputBox(page).fill('{"topic": "the launch"}');
  await runButton(page, 'Run').click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'interrupted');
  await inputRequired(page).getByRole('button', { name: 'approve', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');

  // Save as test and name it without the mouse.
  await runButton(page, 'Save as test').focus();
  await page.keyboard.press('Enter');
  const name = runRegion(page).getByRole('textbox', { name: 'Test name' });
  await expect(name).toBeFocused();
  await expect(name).toHaveValue('topic: the launch');
  await page.keyboard.press('Enter');
  await expect(name).toHaveCount(0);

  await expectNoViolations(page, async (scan) => {
    await button(page, 'Tests').focus();
    await page.keyboard.press('Enter');
    await expect(tests()).toBeVisible();
    await expect(tests().locator('h2')).toBeFocused();
    await tests().getByRole('button', { name: 'Run tests', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(tests().locator('li.case[data-status="pass"]')).toHaveCount(1);
    await scan('the Tests panel after Run tests');

    // An edit that changes what the run writes: the case no longer ends the same.
    await tests().getByRole('button', { name: 'Close the Tests panel' }).click();
    await node(page, 'write').click();
    const draft = inspector(page).getByRole('textbox', { name: 'Expression for draft', exact: true });
    await draft.fill('"Draft for " + input.topic');
    await draft.press('Tab');
    await button(page, 'Tests').click();
    await tests().getByRole('button', { name: 'Check against saved runs', exact: true }).click();
    await expect(tests().locator('li.case[data-status="fail"]')).toHaveCount(1);
    await scan('the Tests panel with a failing case');
    await tests().getByRole('button', { name: /^Compare/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Compare runs' })).toBeVisible();
    await scan('Compare runs from a failing test');
  });
});
