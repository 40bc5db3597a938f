// The editor's forms for agent graphs (format.md §4 (llm, tools) and §8; format.md §5, map edges; README, The editor): the graph's tools edited in the
// Inspector when nothing is selected (parameters as checked JSON: a wrong draft shows its
// error as the box's description and never reaches the document), an LLM node offering a
// tool and answering by a rule, undo and redo across all of it, an edge's map and `as` from
// the mouse and from the keyboard, `Add Tools` in the palette with its messages field chosen
// among the graph's transcripts, and no serious accessibility violation (axe) in these forms.
//
// What the document holds is read from Export, as a person would check a saved file.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { addNode, boxOf, canvas, connect, dragNode, edge, expect, node, nodeHeader, nodeIds, test } from './fixtures';

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const button = (scope: Page | Locator, name: string) => scope.getByRole('button', { name, exact: true });
const field = (page: Page, name: string) => inspector(page).getByRole('textbox', { name, exact: true });
const select = (page: Page, name: string) => inspector(page).getByRole('combobox', { name, exact: true });
const toolsSection = (page: Page) => inspector(page).getByRole('group', { name: 'Tools', exact: true });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

/** Clicks `Export` and returns the downloaded document. */
async function exported(page: Page): Promise<{ text: string; doc: Doc }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export').click()]);
  const text = readFileSync(await download.path(), 'utf8');
  return { text, doc: JSON.parse(text) };
}

/** Types into a field and commits it the way a person leaves it (Tab). */
async function commit(box: Locator, text: string): Promise<void> {
  await box.fill(text);
  await box.press('Tab');
}

/** A new graph (start and end), nothing selected: the Inspector shows the graph's form. */
async function newGraph(page: Page): Promise<void> {
  await button(page, 'New').click();
  await expect.poll(() => nodeIds(page).then((ids) => ids.sort())).toEqual(['end', 'start']);
  await page.keyboard.press('Escape');
  await expect(inspector(page).getByRole('heading', { name: 'Graph', exact: true })).toBeVisible();
}

async function selectNode(page: Page, id: string): Promise<void> {
  const b = await boxOf(await nodeHeader(page, id));
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  await expect(field(page, 'Id')).toHaveValue(id);
}

/** Serious or critical axe violations inside the Inspector, as `rule: target` lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('.inspector').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary ?? ''})`));
}

test('a tool made in the graph inspector, offered by an LLM node that answers by a rule; undo and redo', async ({
  editor: page,
}, testInfo) => {
  // Many edits, exports and two axe scans: more than the default 30 s on a busy machine.
  test.slow();
  await newGraph(page);
  await expect(toolsSection(page)).toContainText('No tools');

  // Add a tool: its name box has the cursor; name it from the keyboard.
  await button(toolsSection(page), 'Add tool').click();
  const name = field(page, 'Name of tool tool');
  await expect(name).toBeFocused();
  await name.fill('search');
  await name.press('Enter');
  await expect(inspector(page).getByRole('group', { name: 'Tool search', exact: true })).toBeVisible();
  await commit(field(page, 'Description of tool search'), 'Searches the web');

  // Parameters are checked JSON. A broken draft says what is wrong, as the box's description
  // (not an alert), and the document keeps its last good value.
  const params = field(page, 'Parameters of tool search');
  const before = await exported(page);
  await commit(params, '{"type": "object", "properties": {"q": ');
  await expect(params).toHaveAttribute('aria-invalid', 'true');
  await expect(params).toHaveAccessibleDescription(/^✗/);
  await expect(page.getByRole('alert'), 'a draft is not an emergency').toHaveCount(0);
  expect((await exported(page)).text, 'invalid JSON does not change the document').toBe(before.text);
  // Valid JSON that is not an object schema is refused too.
  await commit(params, '[1, 2]');
  await expect(params).toHaveAccessibleDescription(/JSON Schema object/);
  expect((await exported(page)).text).toBe(before.text);

  const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
  await commit(params, JSON.stringify(schema));
  await expect(params).toHaveAttribute('aria-invalid', 'false');
  await expect(params).toHaveAccessibleDescription('✓ JSON Schema: 1 argument');
  let { doc } = await exported(page);
  expect(doc.tools).toEqual({
    search: { description: 'Searches the web', parameters: schema, run: { script: '"ok"' } },
  });

  // Run it over HTTP instead: method, URL (a template with args) replace the script.
  await select(page, 'Run of tool search').selectOption('http');
  await commit(field(page, 'URL of tool search'), 'https://search.example/api?q={{ args.q }}');
  await select(page, 'Method of tool search').selectOption('POST');
  ({ doc } = await exported(page));
  expect(doc.tools.search.run).toEqual({ http: { method: 'POST', url: 'https://search.example/api?q={{ args.q }}' } });

  await page.setViewportSize({ width: 1400, height: 1600 });
  await toolsSection(page).screenshot({ path: testInfo.outputPath('graph-inspector-tools.png') });
  expect(await seriousViolations(page), 'graph inspector with a tool').toEqual([]);
  await page.setViewportSize({ width: 1400, height: 900 });

  // An LLM node offers it: one checkbox per tool of the graph, named by the tool.
  const llm = await addNode(page, 'LLM');
  await expect(field(page, 'Id')).toHaveValue(llm);
  const offer = inspector(page).getByRole('checkbox', { name: 'search', exact: true });
  await offer.focus();
  await page.keyboard.press('Space');
  await expect(offer).toBeChecked();
  await commit(field(page, 'Messages'), 'state.messages');

  // Its mock answers by a rule: when a message is there, call the tool.
  await button(inspector(page), 'Add response').click();
  await select(page, 'Kind of response 2').selectOption('rule');
  await commit(field(page, 'When of response 2'), 'messages.len() > 0');
  await select(page, 'Reply of response 2').selectOption('tool_call');
  await expect(select(page, 'Tool of call 1 of response 2 reply'), 'a new call goes to the first tool').toHaveValue('search');
  const args = field(page, 'Arguments of call 1 of response 2 reply');
  await commit(args, '{"q": ');
  await expect(args).toHaveAttribute('aria-invalid', 'true');
  await commit(args, '{"q": "weather"}');
  const rule = { when: 'messages.len() > 0', reply: { tool_calls: [{ name: 'search', arguments: { q: 'weather' } }] } };
  const withRule = await exported(page);
  const agent = () => withRule.doc.nodes.find((n: Doc) => n.id === llm);
  expect(agent().tools).toEqual(['search']);
  expect(agent().messages).toBe('state.messages');
  expect(agent().model.responses).toEqual(['A short summary.', rule]);

  await page.setViewportSize({ width: 1400, height: 2600 });
  await inspector(page).locator('.node-form').screenshot({ path: testInfo.outputPath('llm-inspector.png') });
  expect(await seriousViolations(page), 'LLM node inspector').toEqual([]);
  await page.setViewportSize({ width: 1400, height: 900 });

  // Undo takes back the rule one edit at a time (arguments, reply kind, when, kind, added).
  const undo = button(page, 'Undo');
  await undo.click();
  ({ doc } = await exported(page));
  expect(doc.nodes.find((n: Doc) => n.id === llm).model.responses[1].reply.tool_calls[0].arguments).toEqual({});
  for (let i = 0; i < 4; i++) await undo.click();
  ({ doc } = await exported(page));
  expect(doc.nodes.find((n: Doc) => n.id === llm).model.responses).toEqual(['A short summary.']);
  expect(doc.nodes.find((n: Doc) => n.id === llm).tools, 'the tool is still offered').toEqual(['search']);
  for (let i = 0; i < 5; i++) await button(page, 'Redo').click();
  expect((await exported(page)).text, 'redo gives the same document back').toBe(withRule.text);

  // Renaming the tool follows into the node that offers it, as one step of undo.
  await page.keyboard.press('Escape');
  await commit(field(page, 'Name of tool search'), 'web_search');
  ({ doc } = await exported(page));
  expect(Object.keys(doc.tools)).toEqual(['web_search']);
  expect(doc.nodes.find((n: Doc) => n.id === llm).tools).toEqual(['web_search']);
  expect(doc.nodes.find((n: Doc) => n.id === llm).model.responses[1].reply.tool_calls[0].name, 'mock calls keep their text').toBe('search');
  await undo.click();
  expect((await exported(page)).text).toBe(withRule.text);

  // Anthropic takes a token budget; a real model has no canned responses.
  await selectNode(page, llm);
  await select(page, 'Provider').selectOption('anthropic');
  await expect(field(page, 'Base URL')).toHaveAttribute('placeholder', 'https://api.anthropic.com');
  await commit(field(page, 'Max tokens'), '2048');
  await expect(inspector(page).getByRole('group', { name: 'Responses', exact: true })).toHaveCount(0);
  ({ doc } = await exported(page));
  expect(doc.nodes.find((n: Doc) => n.id === llm).model).toEqual({ provider: 'anthropic', max_tokens: 2048 });

  // Without tools, the LLM node says where they are made.
  await button(page, 'New').click();
  await addNode(page, 'LLM');
  await expect(inspector(page).getByRole('group', { name: 'Tools', exact: true })).toContainText('no tools yet');
});

test('an edge maps over a list: map and as, by mouse and from the keyboard', async ({ editor: page }, testInfo) => {
  await newGraph(page);
  const b = await boxOf(canvas(page));
  await dragNode(page, 'start', { x: b.width * 0.15, y: b.height * 0.3 });
  await dragNode(page, 'end', { x: b.width * 0.85, y: b.height * 0.3 });
  const set = await addNode(page, 'Set');
  await dragNode(page, set, { x: b.width * 0.5, y: b.height * 0.7 });
  await connect(page, 'start', set);
  await connect(page, set, 'end');

  // Mouse: click the edge's curve, then fill in map and as.
  const mid = await edge(page, 'start', set).evaluate((g) => {
    const path = g.querySelector('path') as SVGPathElement;
    const p = path.getPointAtLength(path.getTotalLength() / 2);
    const q = new DOMPoint(p.x, p.y).matrixTransform(path.getScreenCTM() as DOMMatrix);
    return { x: q.x, y: q.y };
  });
  await page.mouse.click(mid.x, mid.y);
  await expect(select(page, 'From')).toHaveValue('start');
  await expect(field(page, 'As'), 'as is offered once the edge maps').toHaveCount(0);
  await commit(field(page, 'Map'), 'state.sections');
  await expect(edge(page, 'start', set)).toHaveAttribute('data-edge-map', 'true');
  // A name that hides `state` is refused with an alert, and nothing is written.
  await field(page, 'As').fill('state');
  await field(page, 'As').press('Enter');
  await expect(page.getByRole('alert')).toContainText('would hide');
  await expect(field(page, 'As')).toHaveValue('');
  await button(page.getByRole('alert'), 'Dismiss').click();
  await commit(field(page, 'As'), 'section');
  let { doc } = await exported(page);
  expect(doc.edges.find((e: Doc) => e.from === 'start' && e.to === set)).toMatchObject({
    map: 'state.sections',
    as: 'section',
  });
  await expect(edge(page, 'start', set).locator('.edge-label')).toContainText('each of state.sections as section');

  // The mapped node's expressions may use the item's name and `index`.
  await selectNode(page, set);
  const expr = field(page, 'Expression for status');
  await expr.fill('section.title + " #" + index');
  await expect(expr).toHaveAccessibleDescription('✓ compiles');
  await expr.fill('sections.title');
  await expect(expr, 'other names are still unknown').toHaveAccessibleDescription(/^✗/);
  await expr.fill('"ready"');

  // Keyboard: from the node's form, the edge's button opens its form with the focus in it.
  const open = button(inspector(page), `Edge ${set} → end`);
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(select(page, 'From'), 'the focus moved into the edge form').toBeFocused();
  await expect(select(page, 'To')).toHaveValue('end');
  await commit(field(page, 'Map'), 'state.items');
  await commit(field(page, 'As'), 'entry');
  ({ doc } = await exported(page));
  expect(doc.edges.find((e: Doc) => e.from === set && e.to === 'end')).toMatchObject({ map: 'state.items', as: 'entry' });
  expect(await seriousViolations(page), 'edge inspector').toEqual([]);
  await inspector(page).locator('.edge-form').screenshot({ path: testInfo.outputPath('edge-inspector.png') });

  // Undo takes back `as`, then `map`.
  await button(page, 'Undo').click();
  await button(page, 'Undo').click();
  ({ doc } = await exported(page));
  const back = doc.edges.find((e: Doc) => e.from === set && e.to === 'end');
  expect(back.map).toBeUndefined();
  expect(back.as).toBeUndefined();
});

test('Add Tools in the palette; its messages field is chosen among the transcripts', async ({ editor: page }, testInfo) => {
  await newGraph(page);
  const tools = await addNode(page, 'Tools');
  await expect(node(page, tools)).toHaveAttribute('data-kind', 'tools');
  await expect(node(page, tools)).toContainText('⚒');
  // No transcript declared yet: a text box, with a word on declaring one.
  await expect(field(page, 'Messages')).toHaveValue('messages');
  await expect(inspector(page)).toContainText('No state field has type messages yet');

  // Declare a transcript: type messages brings its reducer.
  await page.keyboard.press('Escape');
  await button(inspector(page), 'Add state field').click();
  await commit(field(page, 'Name of field'), 'chat');
  await select(page, 'Type of chat').selectOption('messages');
  await expect(select(page, 'Reducer of chat')).toHaveValue('messages');
  await expect(inspector(page)).toContainText('A leading system message is always kept.');

  await selectNode(page, tools);
  const pick = select(page, 'Messages');
  await expect(pick.locator('option')).toHaveText(['messages', 'chat']);
  await pick.selectOption('chat');
  const { doc } = await exported(page);
  expect(doc.state.chat).toEqual({ type: 'messages', reducer: 'messages' });
  expect(doc.nodes.find((n: Doc) => n.id === tools).messages).toBe('chat');
  expect(await seriousViolations(page), 'tools node inspector').toEqual([]);
  await page.locator('.palette').screenshot({ path: testInfo.outputPath('palette.png') });
  await page.setViewportSize({ width: 1400, height: 1400 });
  await inspector(page).locator('.node-form').screenshot({ path: testInfo.outputPath('tools-node-inspector.png') });
});

test('the graph form shows the types of the graph on screen after another graph was open', async ({ editor: page }) => {
  // The state cards are kept between graphs: their selects must follow the new document.
  await button(page, 'Open template Tool-calling agent').click();
  await expect(select(page, 'Type of question')).toHaveValue('string');
  await expect(select(page, 'Type of messages')).toHaveValue('messages');
  await button(page, 'Open template Map-reduce summary').click();
  await expect(select(page, 'Type of sections')).toHaveValue('list');
  await expect(select(page, 'Type of summaries')).toHaveValue('list');
  await expect(select(page, 'Reducer of summaries')).toHaveValue('append');
});
