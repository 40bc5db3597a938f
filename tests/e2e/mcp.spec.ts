// MCP servers in the editor in a browser (format.md §2.11, §8), against the reference
// server-everything from tests/mcp over Streamable HTTP (it allows web pages: CORS):
// - a graph whose server is a program gets an alert naming the desktop app, and is not asked
//   about (a page cannot start programs);
// - a mock agent calls `echo` over HTTP and the tool message shows `Echo: …`, the server's
//   origin asked about like any other;
// - a bearer token kept in Settings (provider "MCP server (bearer token)") goes with every
//   request to that exact origin and to no other, and is in no saved run or export.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fastest, importJson, runStatus, startRun, stateRegion } from './run-panel';

const tools = process.env.SWITCHYARD_MCP_TOOLS ?? resolve(import.meta.dirname, '../mcp/node_modules');
const everythingJs = join(tools, '@modelcontextprotocol/server-everything/dist/index.js');

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

async function listening(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server-everything exited (${child.exitCode}) before listening on ${port}`);
    const up = await new Promise<boolean>((done) => {
      const c = connect(port, '127.0.0.1', () => { c.end(); done(true); });
      c.on('error', () => done(false));
    });
    if (up) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** server-everything over Streamable HTTP on a free port. */
async function everything(): Promise<{ child: ChildProcess; port: number; url: string }> {
  if (!existsSync(everythingJs)) throw new Error(`no ${everythingJs}: ./dev installs tests/mcp (or set SWITCHYARD_MCP_TOOLS)`);
  const port = await freePort();
  const child = spawn(process.execPath, [everythingJs, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  await listening(port, child);
  return { child, port, url: `http://127.0.0.1:${port}/mcp` };
}

/** A mock agent calling `tool` of server `server`, then a tools node. */
function agentGraph(name: string, server: object, tool: string, args: object): object {
  return {
    format: 'switchyard/graph@1',
    name,
    state: { messages: { type: 'messages' } },
    mcp_servers: { srv: server },
    tools: { [tool]: { run: { mcp: { server: 'srv' } } } },
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'agent', kind: 'llm', messages: 'state.messages', tools: [tool], writes: 'messages',
        model: { provider: 'mock', responses: [{ content: '', tool_calls: [{ name: tool, arguments: args }] }] } },
      { id: 'call', kind: 'tools', messages: 'messages', on_error: 'fail' },
      { id: 'end', kind: 'end' },
    ],
    edges: [{ from: 'start', to: 'agent' }, { from: 'agent', to: 'call' }, { from: 'call', to: 'end' }],
  };
}

const toolMessage = (page: Page) => stateRegion(page).locator('[data-role="tool"]');

let a: Awaited<ReturnType<typeof everything>>;
let b: Awaited<ReturnType<typeof everything>>;
test.beforeAll(async () => {
  [a, b] = await Promise.all([everything(), everything()]);
});
test.afterAll(() => {
  a?.child.kill();
  b?.child.kill();
});

test('a graph whose MCP server is a program is not asked about, and its run says to use the desktop app', async ({ editor: page }) => {
  const marker = '/tmp/switchyard-mcp-never-started';
  const graph = agentGraph('Starts a program', { command: 'touch', args: [marker] }, 'anything', {});
  await importJson(page, graph, 'agent');
  await fastest(page);
  await startRun(page, { messages: 'hi' });
  await expect(page.getByRole('alert').filter({ hasText: 'desktop app' }).first()).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'touch /tmp/switchyard-mcp-never-started' }).first()).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'failed');
  expect(existsSync(marker)).toBe(false);
});

test('a mock agent calls echo of server-everything over HTTP; a token kept for its origin goes there only', async ({ editor: page }) => {
  const seen: { url: string; auth: string | undefined }[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/mcp')) seen.push({ url: r.url(), auth: r.headers().authorization });
  });
  // First run: the server's origin is new, asked about like any other; no token kept yet.
  await importJson(page, agentGraph('Echoes', { url: a.url }, 'echo', { message: 'hi from the page' }), 'agent');
  await fastest(page);
  await startRun(page, { messages: 'hi' });
  const dialog = page.getByRole('dialog', { name: 'New origins' });
  await expect(dialog.getByRole('listitem')).toHaveText([`http://127.0.0.1:${a.port}`]);
  await dialog.getByRole('button', { name: 'Run anyway', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed', { timeout: 20_000 });
  await expect(toolMessage(page)).toContainText('Echo: hi from the page');
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((r) => r.auth === undefined), 'no token yet').toBe(true);

  // A token for A's origin, kept in Settings under the MCP provider.
  const token = 'tok-mcp-page-0123456789';
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByLabel('Key origin').fill(`http://127.0.0.1:${a.port}`);
  await settings.getByLabel('Key provider').selectOption({ label: 'MCP server (bearer token)' });
  await settings.getByLabel('API key').fill(token);
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings).toHaveCount(0);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(settings.getByRole('list', { name: 'Origins with keys' })).toContainText(`http://127.0.0.1:${a.port} — MCP server (bearer token)`);
  await settings.getByRole('button', { name: 'Cancel', exact: true }).click();

  seen.length = 0;
  await startRun(page, { messages: 'hi again' });
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed', { timeout: 20_000 });
  await expect(toolMessage(page)).toContainText('Echo: hi from the page');
  const toA = seen.filter((r) => r.url.startsWith(`http://127.0.0.1:${a.port}/`));
  expect(toA.length).toBeGreaterThan(0);
  expect(toA.every((r) => r.auth === `Bearer ${token}`), JSON.stringify(toA)).toBe(true);

  // The same graph pointed at B: B's origin is asked about, and B gets no token.
  seen.length = 0;
  await importJson(page, agentGraph('Echoes elsewhere', { url: b.url }, 'echo', { message: 'hi B' }), 'agent');
  await startRun(page, { messages: 'hi' });
  await expect(dialog.getByRole('listitem')).toHaveText([`http://127.0.0.1:${b.port}`]);
  await dialog.getByRole('button', { name: 'Run anyway', exact: true }).click();
  await expect(runStatus(page)).toHaveAttribute('data-run-status', 'completed', { timeout: 20_000 });
  await expect(toolMessage(page)).toContainText('Echo: hi B');
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((r) => r.auth === undefined), JSON.stringify(seen)).toBe(true);

  // The token is in no stored run, and no export.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  expect(stored.split(token).length - 1, 'only the key store holds it').toBeLessThanOrEqual(1);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  expect(readFileSync(await download.path(), 'utf8')).not.toContain(token);
});
