// Definitions (format.md §9; README, The editor): a graph named once in the document and run by several
// subgraph nodes. The graph in graphs/definitions.json defines `greet` and uses it twice with
// different inputs. The test runs it, opens a use's nested run, opens the definition from the
// Inspector's list (nothing selected), edits it, goes back by the path bar and runs again
// (both uses run the edit), and has a new subgraph node pick the definition in its Inspector.
//
// What the document holds is read from Export, as a person would check a saved file.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { graph } from './agent-runs';
import { addNode, expect, node, test } from './fixtures';
import { fastest, importJson, runButton, runRegion, runStatus, startRun, stateRegion, stepsRegion } from './run-panel';

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const path = (page: Page) => page.getByRole('navigation', { name: 'Subgraph path' });
const definitions = (page: Page) => inspector(page).getByRole('group', { name: 'Definitions', exact: true });
const card = (page: Page, name: string) => inspector(page).getByRole('group', { name: `Definition ${name}`, exact: true });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

async function exported(page: Page): Promise<Doc> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  return JSON.parse(readFileSync(await download.path(), 'utf8'));
}

/** The State region's value of top-level key `key`, as shown (the entry's text without its key). */
async function shown(page: Page, key: string): Promise<string> {
  const text = ((await stateRegion(page).locator(`[data-key="${key}"]`).first().textContent()) ?? '').trim();
  return text.startsWith(key) ? text.slice(key.length).trim() : text;
}

async function commit(box: Locator, text: string): Promise<void> {
  await box.fill(text);
  await box.press('Tab');
}

/** Nothing selected: the Inspector shows the graph's form. */
async function selectNothing(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(definitions(page)).toBeVisible();
}

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('.inspector').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

test('a definition used twice: both uses run it with their own input, and an edit to it reaches both', async ({ editor: page }) => {
  test.slow();
  await importJson(page, graph('definitions.json'), 'ada');
  await fastest(page);

  // The canvas says which definition each node runs.
  await expect(node(page, 'ada')).toContainText('uses definition greet');
  await expect(node(page, 'bob')).toContainText('uses definition greet');

  // Run: both uses done, each with its own result.
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect(node(page, 'ada')).toHaveAttribute('data-status', 'done');
  await expect(node(page, 'bob')).toHaveAttribute('data-status', 'done');
  await expect.poll(() => shown(page, 'first')).toContain('Hello, Ada');
  await expect.poll(() => shown(page, 'second')).toContain('Hello, Bob');

  // A use's nested run opens like an embedded subgraph's: the definition's graph with its run.
  await stepsRegion(page).getByRole('button', { name: 'Open the steps of subgraph bob' }).click();
  await expect(path(page)).toContainText('bob (greet)');
  await expect(node(page, 'compose')).toHaveAttribute('data-status', 'done');
  await expect.poll(() => shown(page, 'greeting')).toContain('Hello, Bob');
  await runRegion(page).getByRole('button', { name: 'Back to the parent run' }).click();
  await expect(path(page)).toHaveCount(0);
  await expect(node(page, 'ada')).toBeVisible();

  // The Inspector lists the definition: its size and who uses it.
  await runButton(page, 'Reset').click();
  await selectNothing(page);
  await expect(card(page, 'greet')).toContainText('3 nodes · used by 2 nodes');
  await expect(card(page, 'greet').getByRole('list', { name: 'Users of definition greet' })).toContainText('node `ada`');
  await page.screenshot({ path: test.info().outputPath('definitions-list.png') });
  expect(await seriousViolations(page)).toEqual([]);

  // Removing it is refused while it is used, naming the users.
  await card(page, 'greet').getByRole('button', { name: 'Remove definition greet' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'is used by node `ada`, node `bob`' })).toBeVisible();
  expect(Object.keys((await exported(page)).definitions)).toEqual(['greet']);

  // Open it for editing: the path bar says where we are; the Inspector is the definition's.
  await card(page, 'greet').getByRole('button', { name: 'Edit definition greet' }).click();
  await expect(path(page)).toContainText('Greetings');
  await expect(path(page)).toContainText('greet');
  await expect(node(page, 'compose')).toBeVisible();
  await expect(node(page, 'ada')).toHaveCount(0);
  await expect(inspector(page).getByRole('heading', { name: 'Definition greet', exact: true })).toBeVisible();
  await node(page, 'compose').click();
  await commit(inspector(page).getByRole('textbox', { name: 'Expression for greeting', exact: true }), '"Hi, " + state.who + "!"');
  await page.screenshot({ path: test.info().outputPath('definition-open.png') });
  await expect
    .poll(async () => (await exported(page)).definitions.greet.nodes.find((n: Doc) => n.id === 'compose').set.greeting)
    .toBe('"Hi, " + state.who + "!"');

  // Back by the path bar; run again: both uses run the edited definition.
  // (From the keyboard: an alert may lie over the path bar.)
  await path(page).getByRole('button', { name: 'Greetings', exact: true }).press('Enter');
  await expect(path(page)).toHaveCount(0);
  await startRun(page, {});
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');
  await expect.poll(() => shown(page, 'first')).toContain('Hi, Ada!');
  await expect.poll(() => shown(page, 'second')).toContain('Hi, Bob!');

  // Undo reaches the edit made inside the definition (and shows it there).
  await runButton(page, 'Reset').click();
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(path(page)).toContainText('greet');
  await expect
    .poll(async () => (await exported(page)).definitions.greet.nodes.find((n: Doc) => n.id === 'compose').set.greeting)
    .toBe('"Hello, " + state.who');
  await path(page).getByRole('button', { name: 'Leave the subgraph' }).press('Enter');
  await expect(path(page)).toHaveCount(0);
});

test('a new subgraph node picks a definition in its Inspector; renaming the definition follows into its uses', async ({ editor: page }) => {
  await importJson(page, graph('definitions.json'), 'ada');
  const id = await addNode(page, 'Subgraph');
  const pick = inspector(page).getByRole('combobox', { name: 'Definition', exact: true });
  await expect(pick).toHaveValue('');
  await pick.selectOption('greet');
  await expect(node(page, id)).toContainText('uses definition greet');
  let doc = await exported(page);
  let added = doc.nodes.find((n: Doc) => n.id === id);
  expect(added.use).toBe('greet');
  expect(added.graph).toBeUndefined();
  // The embedded graph's JSON is not offered for a node using a definition.
  await expect(inspector(page).getByRole('textbox', { name: 'Graph', exact: true })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // One step of undo brings the embedded graph back.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(pick).toHaveValue('');
  added = (await exported(page)).nodes.find((n: Doc) => n.id === id);
  expect(added.use).toBeUndefined();
  expect(added.graph.nodes.map((n: Doc) => n.id)).toEqual(['start', 'end']);
  await page.getByRole('button', { name: 'Redo', exact: true }).click();
  await expect(pick).toHaveValue('greet');

  // Rename the definition in the graph's Inspector: every use follows.
  await page.keyboard.press('Escape');
  await expect(card(page, 'greet')).toContainText('used by 3 nodes');
  await commit(card(page, 'greet').getByRole('textbox', { name: 'Name of definition greet' }), 'salute');
  await expect(card(page, 'salute')).toBeVisible();
  doc = await exported(page);
  expect(Object.keys(doc.definitions)).toEqual(['salute']);
  expect(doc.nodes.filter((n: Doc) => n.kind === 'subgraph').map((n: Doc) => n.use)).toEqual(['salute', 'salute', 'salute']);

  // Add a definition: a working start → end graph, unused, which can be removed.
  await definitions(page).getByRole('button', { name: 'Add definition', exact: true }).click();
  await expect(card(page, 'definition')).toContainText('2 nodes · unused');
  await card(page, 'definition').getByRole('button', { name: 'Remove definition definition' }).click();
  await expect(card(page, 'definition')).toHaveCount(0);
});
