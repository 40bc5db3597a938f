// MCP servers in the editor (issue 31): the graph inspector's MCP servers section and the run
// panel's MCP calls, against the real reference server `server-everything` (tests/mcp, started
// here over Streamable HTTP on a free port; it allows web pages). A person adds the server by
// URL, Connect lists what the server says it is and its tools, Add tools makes graph tools of
// them, an LLM node offers `echo`, and a run shows the call with the server's answer. A program
// (stdio) cannot be started from a web page: its Connect says so, pointing to the desktop app.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { graph } from './agent-runs';
import { boxOf, expect, nodeHeader, test } from './fixtures';
import { fastest, importJson, runRegion, runStatus, startRun } from './run-panel';

const EVERYTHING = resolve(
  import.meta.dirname,
  process.env.SWITCHYARD_MCP_TOOLS ?? '../mcp/node_modules',
  '@modelcontextprotocol/server-everything/dist/index.js',
);

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector', exact: true });
const section = (page: Page) => inspector(page).getByRole('group', { name: 'MCP servers', exact: true });
const card = (page: Page, name: string) => inspector(page).getByRole('group', { name: `MCP server ${name}`, exact: true });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

async function exported(page: Page): Promise<Doc> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  return JSON.parse(readFileSync(await download.path(), 'utf8'));
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
    s.on('error', fail);
  });
}

/** Resolves once something accepts connections on `port` (the server is up), or fails when it exits first. */
async function listening(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server-everything exited (${child.exitCode})`);
    const up = await new Promise<boolean>((done) => {
      const c = tcpConnect(port, '127.0.0.1', () => { c.end(); done(true); });
      c.on('error', () => done(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listened on ${port} within a minute`);
}

let server: ChildProcess | undefined;
let url = '';

test.beforeAll(async () => {
  const port = await freePort();
  server = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  await listening(port, server);
  url = `http://127.0.0.1:${port}/mcp`;
});

test.afterAll(() => {
  server?.kill();
});

/** Nothing selected: the Inspector shows the graph's form, with its MCP servers. */
async function selectNothing(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(section(page)).toBeVisible();
}

async function selectNode(page: Page, id: string): Promise<void> {
  const b = await boxOf(await nodeHeader(page, id));
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
  await expect(inspector(page).getByRole('textbox', { name: 'Id', exact: true })).toHaveValue(id);
}

async function addServer(page: Page, by: 'url' | 'command', text: string): Promise<void> {
  await section(page).getByRole('combobox', { name: 'Add MCP server by' }).selectOption(by);
  const box = section(page).getByRole('textbox', { name: by === 'url' ? 'Server URL' : 'Server command line', exact: true });
  await box.fill(text);
  await box.press('Enter');
}

async function seriousViolations(page: Page, include: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(include).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary ?? ''})`));
}

async function shoot(page: Page, target: Locator, name: string, testInfo: { outputPath: (n: string) => string }): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  for (const theme of ['light', 'dark'] as const) {
    const now = await page.locator('html').getAttribute('data-theme');
    if (now !== theme) {
      await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme', exact: true }).click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    }
    await target.screenshot({ path: testInfo.outputPath(`${name}-${theme}.png`) });
  }
}

test('an MCP server added by URL: Connect lists its tools, Add tools makes graph tools, and a run shows the call', async ({ editor: page }, testInfo) => {
  test.slow();
  await importJson(page, graph('mcp-echo.json'), 'agent');
  await fastest(page);
  await selectNothing(page);
  await expect(section(page)).toContainText('No MCP servers');

  // A wrong URL is said under the field; nothing is added.
  await addServer(page, 'url', 'ftp://example.com/mcp');
  await expect(section(page).getByRole('status')).toContainText('not an http:// or https:// URL');
  await addServer(page, 'url', url);
  const server = card(page, 'server');
  await expect(server).toBeVisible();
  expect((await exported(page)).mcp_servers).toEqual({ server: { url } });

  // Connect: what the server says it is, and its tools with their parameters.
  await server.getByRole('button', { name: 'Connect to MCP server server' }).click();
  const listing = server.getByRole('status', { name: 'Tools of MCP server server' });
  await expect(listing).toContainText('mcp-servers/everything');
  await expect(listing).toContainText(/protocol 20\d\d-\d\d-\d\d/);
  const echo = listing.getByRole('listitem').filter({ hasText: /^echo/ });
  await expect(echo).toContainText('message: string*');

  // Rename the server: its name is the document's key.
  const name = server.getByRole('textbox', { name: 'Name of MCP server server' });
  await name.fill('everything');
  await name.press('Enter');
  const everything = card(page, 'everything');
  await expect(everything).toBeVisible();

  await everything.getByRole('button', { name: 'Connect to MCP server everything' }).click();
  await everything.getByRole('button', { name: 'Add tools from MCP server everything' }).click();
  let doc = await exported(page);
  expect(doc.tools.echo.run).toEqual({ mcp: { server: 'everything' } });
  expect(doc.tools.echo.parameters.properties.message.type).toBe('string');
  expect(Object.values(doc.tools).every((t: Doc) => t.run.mcp.server === 'everything')).toBe(true);

  // The tool card shows the MCP run: the server and the server's tool.
  const tool = inspector(page).getByRole('group', { name: 'Tool echo', exact: true });
  await expect(tool.getByRole('combobox', { name: 'Run of tool echo' })).toHaveValue('mcp');
  await expect(tool.getByRole('combobox', { name: 'MCP server of tool echo' })).toHaveValue('everything');

  await page.setViewportSize({ width: 1400, height: 1600 });
  await shoot(page, everything, 'mcp-server-connected', testInfo);
  expect(await seriousViolations(page, '.inspector'), 'the MCP servers section, connected').toEqual([]);
  await page.setViewportSize({ width: 1400, height: 900 });

  // The agent offers echo (the picker lists the new tools), and a run calls it.
  await selectNode(page, 'agent');
  const offer = inspector(page).getByRole('checkbox', { name: 'echo', exact: true });
  await offer.check();
  await expect(offer).toBeChecked();
  await startRun(page, { text: 'hello from the editor' });
  // The server's origin is new to this browser: asked about, like any other.
  const asked = page.getByRole('dialog', { name: 'New origins' });
  await expect(asked.getByRole('list', { name: 'Origins' })).toContainText(new URL(url).origin);
  await asked.getByRole('button', { name: 'Run anyway', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed');

  // The tools node's MCP call: server, tool, arguments, result, duration.
  await selectNode(page, 'tools');
  const call = runRegion(page).getByRole('group', { name: 'MCP call echo on everything' });
  await expect(call).toContainText('everything · echo');
  await expect(call).toContainText('"message": "hello from the editor"');
  await expect(call).toContainText('Echo: hello from the editor');
  await expect(call).toContainText(/\d+ ms|\d\.\d\d s/);
  await shoot(page, call, 'mcp-call', testInfo);
  expect(await seriousViolations(page, '.mcp-calls'), 'the run panel MCP call').toEqual([]);

  // Removing the server takes its tools along, as one step of undo.
  await selectNothing(page);
  await everything.getByRole('button', { name: 'Remove MCP server everything' }).click();
  doc = await exported(page);
  expect(doc.mcp_servers).toBeUndefined();
  expect(doc.tools).toBeUndefined();
  await page.keyboard.press('ControlOrMeta+z');
  await expect(card(page, 'everything')).toBeVisible();
});

test('a program (stdio) added by command cannot start in a web page: Connect says so and points to the desktop app', async ({ editor: page }) => {
  await importJson(page, graph('mcp-echo.json'), 'agent');
  await selectNothing(page);
  await addServer(page, 'command', `node ${EVERYTHING} stdio`);
  const server = card(page, 'everything');
  await expect(server.getByRole('textbox', { name: 'Command of MCP server everything' })).toHaveValue('node');
  await expect(server.getByRole('textbox', { name: 'Argument 2' })).toHaveValue('stdio');
  await server.getByRole('button', { name: 'Connect to MCP server everything' }).click();
  const alert = server.getByRole('alert');
  await expect(alert).toContainText('a web page cannot start programs');
  await expect(alert).toContainText('desktop app');
  expect((await exported(page)).mcp_servers).toEqual({ everything: { command: 'node', args: [EVERYTHING, 'stdio'] } });
});
