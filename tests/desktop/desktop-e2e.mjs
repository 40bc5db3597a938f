// Desktop end-to-end test: the Tauri app under Xvfb, driven through tauri-driver and
// WebKitWebDriver with the plain WebDriver protocol.
// 1. The app starts, a template is opened, it is saved as a file, and the file on disk is the
//    expected document.
// 2. Files from outside: started with a graph file as its argument, the app shows that graph
//    (title and nodes); an edit is saved back to the file. A second launch with another file
//    hands it to the running app (single instance, over D-Bus: run under dbus-run-session); a
//    launch with a file that is not a graph, or is missing, opens nothing and says why. When
//    the binary is an installed one (a root with its desktop entry), the file is also opened
//    the way a file manager's double click does: `gio open`, through the desktop entry.
// 3. Native menus, through real key presses (xdotool, XTEST) reaching GTK: File ▸ Open Recent
//    by its mnemonics (and the list in the settings file); shortcuts acting on the graph
//    (Select All, Undo, Redo, Save, Export through the save dialog, Paste from the system
//    clipboard, Cut) or on the focused text field (Select All, Copy, Paste, Undo); Run ▸ Run,
//    Back, Step, Continue and Reset; the native menus (as the app reports them), the command
//    palette (opened by Ctrl+Shift+P) and Help list the same commands and keys; Help ▸ The
//    graph format and About open their windows; File ▸ New; File ▸ Close closes the app. The file left unsaved in the read-only folder (part 2)
//    is written once the folder is writable again.
// 4. MCP: a graph whose server is the reference memory server started as `node …` (from
//    tests/mcp) asks before its run, showing the whole command line; once allowed, the run
//    completes with the server's answer as the tool message, the line is kept in the settings
//    file, and a second run does not ask. The app closes the server when the window closes.
//
// 5. Traces: a real Arize Phoenix (tests/otel/phoenix.py); the Traces setting (Settings) points
//    at it, with headers (one names the Phoenix project, so the headers reach the collector),
//    and is kept in the settings file; the approval template runs (a session waiting for a
//    person, then one answered); both sessions are traces in Phoenix, read back through its REST
//    API, under the ids the run panel and the record show: a `run <graph>` root, `chat` spans
//    with GenAI attributes for the mock model's calls, no message content by default and no
//    header value. Phoenix is stopped on every way out.
//
// Usage: SWITCHYARD_PHOENIX_PYTHON=<Phoenix's venv>/bin/python \
//          node tests/desktop/desktop-e2e.mjs <path to switchyard-desktop> [screenshot.png]
// (./dev test desktop sets it, from ensure_phoenix; with a screenshot path, part 5 also saves
// Phoenix's page of the trace, through Playwright and Chromium.)
// (SWITCHYARD_DESKTOP_E2E_ONLY=mcp runs part 4 alone, =traces part 5 alone.)
import { spawn, spawnSync } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, existsSync, writeFileSync, readdirSync, mkdirSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';

const [app, shot] = process.argv.slice(2);
if (!app || !existsSync(app)) throw new Error(`no desktop binary at ${app}`);
const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-desktop-'));
const port = 4444 + Math.floor(Math.random() * 1000);
const driver = spawn('tauri-driver', ['--port', String(port)], {
  // While WebKitWebDriver starts, tauri-driver logs refused connections; without a
  // backtrace each is one line.
  env: { ...process.env, SWITCHYARD_DATA_DIR: dataDir, RUST_BACKTRACE: '0', RUST_LIB_BACKTRACE: '0' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Selects a node as a press of the mouse on it does. (WebDriver's element clicks were
// intercepted by the wrong element once the window had a native menu bar above the page.)
const selectNode = (exec, id) => exec(`
  const n = document.querySelector('[data-node-id="${id}"]'), r = n.getBoundingClientRect();
  const at = { bubbles: true, button: 0, pointerId: 1, isPrimary: true, clientX: r.x + 12, clientY: r.y + 12 };
  n.dispatchEvent(new PointerEvent('pointerdown', at));
  window.dispatchEvent(new PointerEvent('pointerup', at));`);
// A key pressed in the page of the open session, through WebDriver (not through the window:
// GTK's menu shortcuts never see it).
const pageKey = (key) => wd('POST', `/session/${session}/actions`, { actions: [{ type: 'key', id: 'keys', actions: [{ type: 'keyDown', value: key }, { type: 'keyUp', value: key }] }] });
const template = (name) => readFileSync(new URL(`../../templates/${name}.json`, import.meta.url), 'utf8');

async function wd(method, path, body) {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.value)}`);
  return json.value;
}

let session;
// Starts the app through tauri-driver with `args`, and waits for the editor; helpers bound to
// that session. WebKit's web process sometimes aborts as it starts under Xvfb in a D-Bus
// session ("getauxval () failed: Interrupted system call"), which WebDriver reports as a page
// crash: then the app is started again, said in the log, at most twice.
async function open(args = []) {
  for (let attempt = 1; ; attempt++) {
    const s = await wd('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'wry', 'tauri:options': { application: resolve(app), args } } } });
    session = s.sessionId;
    const sp = `/session/${session}`;
    const exec = (script, args = []) => wd('POST', `${sp}/execute/sync`, { script, args });
    const waitFor = async (script, what, ms = 20000) => {
      const t = Date.now();
      while (Date.now() - t < ms) {
        const v = await exec(script);
        if (v) return v;
        await sleep(150);
      }
      throw new Error(`timed out waiting for ${what}`);
    };
    try {
      await waitFor('return document.querySelectorAll("[data-node-id]").length >= 1', 'the editor');
      return { sp, exec, waitFor };
    } catch (e) {
      if (attempt > 2 || !/page crash|parse script result/.test(String(e))) throw e;
      console.log(`desktop: the web process died as the app started (${String(e).slice(0, 120)}); starting it again`);
      await wd('DELETE', `/session/${session}`).catch(() => {});
      session = undefined;
    }
  }
}

try {
  for (let i = 0; ; i++) {
    try { await fetch(base + '/status'); break; } catch { if (i > 100) throw new Error('tauri-driver did not start'); await sleep(100); }
  }
  if (process.env.SWITCHYARD_DESKTOP_E2E_ONLY === 'mcp') {
    await mcpConsent();
  } else if (process.env.SWITCHYARD_DESKTOP_E2E_ONLY === 'traces') {
    await traces();
  } else {
    await everyPart();
  }
} finally {
  if (session) await wd('DELETE', `/session/${session}`).catch(() => {});
  // SIGTERM, never SIGKILL: tauri-driver must stop WebKitWebDriver itself.
  driver.kill('SIGTERM');
}

async function everyPart() {
  const started = Date.now();
  const { sp, exec, waitFor } = await open();

  await waitFor('return document.querySelectorAll("[data-node-id]").length >= 2', 'the editor');
  console.log(`desktop: editor up ${Date.now() - started} ms after the session request`);
  // Open the approval template from the gallery.
  await exec(`document.querySelector('button[data-template="003-approval"]').click();`);
  await waitFor('return !!document.querySelector("[data-node-id=get_approval]")', 'the template on the canvas');
  // Autosave writes it as a file in the workflows folder.
  const file = join(dataDir, 'workflows', 'approval-workflow.json');
  const t = Date.now();
  while (!existsSync(file) && Date.now() - t < 10000) await sleep(100);
  assert.ok(existsSync(file), `no file ${file}; folder holds ${readdirSync(join(dataDir, 'workflows'))}`);
  await sleep(800);
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  const template = JSON.parse(readFileSync(new URL('../../templates/003-approval.json', import.meta.url), 'utf8'));
  delete saved.layout?.viewport;
  assert.deepEqual(saved, template, 'the saved file is the template document');
  // The window title names the file.
  const title = await wd('GET', `${sp}/title`);
  console.log(`desktop: window title "${title}"`);
  if (shot) {
    const png = await wd('GET', `${sp}/screenshot`);
    writeFileSync(shot, Buffer.from(png, 'base64'));
  }
  console.log('desktop: ok: the app starts, opens a template and saves it as the expected file');
  await testsOnTheDesktop(exec, waitFor);
  await wd('DELETE', `/session/${session}`);
  session = undefined;
  // The next launch must not find this instance still on D-Bus as it exits: it would try to
  // hand its files over to it, and fail.
  await windowsGone(' — Switchyard');
  await sleep(500);
  const files = await filesFromOutside();
  await menus(files);
  await windowsGone(' — Switchyard');
  await sleep(500);
  await mcpConsent();
  await sleep(500);
  await traces();
}

// The evaluation loop from the gallery comes with its suite; its cases replay in WebKitGTK
// (recorded replies, an LLM judge on mock replies) and pass, and the suite is kept beside the
// graph's file as <stem>.tests.json.
async function testsOnTheDesktop(exec, waitFor) {
  await exec(`document.querySelector('button[data-template="008-evaluation-loop"]').click();`);
  await waitFor('return !!document.querySelector("[data-node-id=judge]")', 'the evaluation loop on the canvas');
  await exec(`document.querySelector('button[aria-label="Tests"]').click();`);
  await waitFor('return document.querySelectorAll("#tests-panel li.case").length === 3', 'its three test cases');
  await exec(`[...document.querySelectorAll('#tests-panel button')].find((b) => b.textContent.trim() === 'Run tests').click();`);
  await waitFor('return document.querySelectorAll("#tests-panel li.case[data-status=pass]").length === 3', 'all three cases passing', 60000);
  const judged = await exec('return [...document.querySelectorAll("#tests-panel li.case .scores li")].filter((li) => li.textContent.includes("judge")).length');
  assert.equal(judged, 3, 'the LLM judge scored every case');
  const suiteFile = join(dataDir, 'workflows', 'evaluation-loop.tests.json');
  const t = Date.now();
  while (!existsSync(suiteFile) && Date.now() - t < 10000) await sleep(100);
  assert.ok(existsSync(suiteFile), `no ${suiteFile}; folder holds ${readdirSync(join(dataDir, 'workflows'))}`);
  const suite = JSON.parse(readFileSync(suiteFile, 'utf8'));
  assert.equal(suite.format, 'switchyard/tests@1');
  assert.equal(suite.cases.length, 3, 'the suite file holds the three cases');
  console.log('desktop: ok: the evaluation loop\'s suite came with it, its 3 cases pass in WebKitGTK, and it is kept as evaluation-loop.tests.json');
}

// Part 4 (see the top of the file).
async function mcpConsent() {
  const tools = process.env.SWITCHYARD_MCP_TOOLS ?? new URL('../mcp/node_modules', import.meta.url).pathname;
  const serverJs = join(tools, '@modelcontextprotocol/server-memory/dist/index.js');
  assert.ok(existsSync(serverJs), `no ${serverJs}: ./dev installs tests/mcp (or set SWITCHYARD_MCP_TOOLS)`);
  const work = mkdtempSync(join(tmpdir(), 'switchyard-mcp-'));
  const memory = join(work, 'memory.jsonl');
  const create = { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] };
  const graph = {
    format: 'switchyard/graph@1',
    name: 'Remembers people',
    state: { messages: { type: 'messages' } },
    mcp_servers: { memory: { command: 'node', args: [serverJs], env: { MEMORY_FILE_PATH: memory } } },
    tools: { create_entities: { run: { mcp: { server: 'memory' } } } },
    nodes: [
      { id: 'start', kind: 'start' },
      { id: 'agent', kind: 'llm', messages: 'state.messages', tools: ['create_entities'], writes: 'messages',
        model: { provider: 'mock', responses: [{ content: '', tool_calls: [{ name: 'create_entities', arguments: create }] }] } },
      { id: 'remember', kind: 'tools', messages: 'messages', on_error: 'fail' },
      { id: 'end', kind: 'end' },
    ],
    edges: [{ from: 'start', to: 'agent' }, { from: 'agent', to: 'remember' }, { from: 'remember', to: 'end' }],
  };
  const file = join(work, 'remember.switchyard.json');
  writeFileSync(file, JSON.stringify(graph, null, 2));
  const line = `MEMORY_FILE_PATH=${memory} node ${serverJs}`;
  const { sp, exec, waitFor } = await open([file]);
  await waitFor('return !!document.querySelector("[data-node-id=remember]") && document.title.includes("remember.switchyard.json")', 'the MCP graph');
  const startRun = () => exec(`
    const region = document.querySelector('[role=region][aria-label="Run"]');
    const box = region.querySelector('textarea[aria-label="Input"]');
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(box, arguments[0]);
    box.dispatchEvent(new Event('input', { bubbles: true }));
    region.querySelector('button[aria-label="Run"]').click();`, [JSON.stringify({ messages: 'Remember Ada Lovelace' })]);
  const dialog = '[role=dialog][aria-label="Programs and origins"]';
  const runs = () => exec('return document.querySelectorAll("[aria-label=\'Run history\'] [data-run-id]").length');

  // The first run asks, showing the whole command line; nothing starts before the answer.
  await startRun();
  await waitFor(`return !!document.querySelector('${dialog}')`, 'the consent dialog');
  const shown = await exec(`return [...document.querySelectorAll('${dialog} [aria-label="Command lines"] li')].map((li) => li.textContent)`);
  assert.deepEqual(shown, [line], 'the dialog shows the whole command line');
  assert.ok(!existsSync(memory), 'nothing started before the answer');
  if (shot) {
    const png = await wd('GET', `${sp}/screenshot`);
    writeFileSync(shot.replace(/\.png$/, '') + '-mcp-consent.png', Buffer.from(png, 'base64'));
  }
  // Accessibility: axe-core (as tests/e2e/a11y.spec.ts uses it) finds no serious or critical
  // violation in the dialog, and its buttons are named.
  const axe = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');
  const found = await wd('POST', `${sp}/execute/async`, {
    script: `${axe};
      const done = arguments[arguments.length - 1];
      axe.run(document.querySelector('${dialog}'), { rules: { 'label-content-name-mismatch': { enabled: true } } })
        .then((r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.help)),
              (e) => done(['axe failed: ' + e]));`,
    args: [],
  });
  assert.deepEqual(found, [], 'no serious or critical axe violation in the consent dialog');
  await exec(`[...document.querySelectorAll('${dialog} button')].find((b) => b.textContent === 'Allow and run').click()`);
  await waitFor('return document.querySelector("[data-run-status]")?.dataset.runStatus === "completed"', 'the run to complete', 60000);
  const toolText = await waitFor('return document.querySelector("[role=region][aria-label=State] [data-role=tool]")?.textContent', 'the tool message');
  assert.match(toolText, /Ada/, `the tool message is the server's answer: ${toolText}`);
  assert.match(readFileSync(memory, 'utf8'), /"name":"Ada"/, 'the memory server kept the entity');
  const settings = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
  assert.deepEqual(settings.allowed_commands, [line], 'the line is kept in the settings file');
  console.log(`desktop: allowed \`${line}\`; the run called create_entities: ${toolText.slice(0, 120)}`);

  // A second run does not ask.
  const before = await runs();
  await startRun();
  await waitFor(`return document.querySelectorAll("[aria-label='Run history'] [data-run-id]").length > ${before} && document.querySelector("[data-run-status]")?.dataset.runStatus === "completed"`, 'the second run to complete', 60000);
  assert.ok(!(await exec(`return !!document.querySelector('${dialog}')`)), 'the second run did not ask');
  // Closing the window (as File ▸ Close does) leaves no server behind: this test's servers
  // are the processes whose environment names its memory file.
  const servers = () => readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try { return readFileSync(`/proc/${p}/environ`, 'latin1').split('\0').includes(`MEMORY_FILE_PATH=${memory}`); } catch { return false; }
  });
  await exec('window.__TAURI_INTERNALS__.invoke("close_window", { args: {} })').catch(() => {});
  await windowsGone(' — Switchyard');
  await wd('DELETE', `/session/${session}`).catch(() => {});
  session = undefined;
  const t = Date.now();
  while (servers().length && Date.now() - t < 15000) await sleep(200);
  assert.deepEqual(servers(), [], 'the memory server ended with the window');
  console.log('desktop: ok: an MCP program asks once for its whole command line, runs, and ends with the window');
}

// Part 5 (see the top of the file). Arize Phoenix, started by tests/otel/phoenix.py with the
// Python of its virtual environment (./dev passes SWITCHYARD_PHOENIX_PYTHON), on free ports with
// a temporary folder of its own; the app sends into a project of this test's own through the header Phoenix
// reads (x-project-name), which is how the test sees that the setting's headers reach the
// collector. The spans are read back through Phoenix's REST API. Phoenix is stopped on every way
// out: the finally below, a signal to this process, and (killed outright) phoenix.py notices its
// parent is gone (--exit-with-parent).
async function startPhoenix() {
  const python = process.env.SWITCHYARD_PHOENIX_PYTHON;
  if (!python || !existsSync(python)) throw new Error(`SWITCHYARD_PHOENIX_PYTHON (${python}): the Python of Phoenix's virtual environment (./dev's ensure_phoenix) is needed for part 5`);
  const port = await new Promise((r) => { const s = createNetServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
  const script = fileURLToPath(new URL('../otel/phoenix.py', import.meta.url));
  const started = Date.now();
  // Without --dir, phoenix.py works in a temporary folder of its own and removes it as it stops.
  const child = spawn(python, [script, '--port', String(port), '--exit-with-parent'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { out += c; });
  const exited = new Promise((r) => child.once('exit', r));
  const onSignal = (sig) => { child.kill('SIGTERM'); process.exit(128 + (sig === 'SIGINT' ? 2 : 15)); };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, onSignal);
  const stop = async () => {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeListener(sig, onSignal);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // phoenix.py stops `phoenix serve` and its process group before it exits.
      let timer;
      const inTime = await Promise.race([exited.then(() => true), new Promise((r) => { timer = setTimeout(r, 40000, false); })]);
      clearTimeout(timer);
      if (!inTime) child.kill('SIGKILL');
    }
    // No process of this Phoenix is left (phoenix.py gives `phoenix serve` its port this way).
    const left = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try { return `\0${readFileSync(`/proc/${p}/environ`, 'latin1')}`.includes(`\0PHOENIX_PORT=${port}\0`); } catch { return false; }
    });
    assert.deepEqual(left, [], 'no Phoenix process is left');
  };
  try {
    while (!out.includes('Phoenix is up at')) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`phoenix.py exited (${child.exitCode ?? child.signalCode}):\n${out.slice(-3000)}`);
      if (Date.now() - started > 180000) throw new Error(`Phoenix did not start within 180 s:\n${out.slice(-3000)}`);
      await sleep(200);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const url = `http://127.0.0.1:${port}`;
  console.log(`desktop: Arize Phoenix up at ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const get = async (path) => {
    const res = await fetch(url + path);
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`Phoenix GET ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  // The spans of one trace of `project` once its root is there and nothing more arrives for a
  // moment (Phoenix inserts in batches).
  const trace = async (project, traceId, within = 60000) => {
    const t = Date.now();
    let seen = -1, stableSince = 0, spans = [];
    for (;;) {
      const page = await get(`/v1/projects/${encodeURIComponent(project)}/spans?trace_id=${traceId}&limit=1000`);
      spans = page?.data ?? [];
      if (spans.length !== seen) [seen, stableSince] = [spans.length, Date.now()];
      else if (spans.some((s) => s.parent_id === null) && Date.now() - stableSince >= 1000) return spans;
      if (Date.now() - t > within) throw new Error(`Phoenix holds ${spans.length} span(s) of trace ${traceId} in ${project}, and no root, after ${within} ms`);
      await sleep(250);
    }
  };
  return { url, get, trace, stop };
}

async function traces() {
  const phoenix = await startPhoenix();
  const endpoint = phoenix.url;
  const project = `desktop-${randomBytes(4).toString('hex')}`;
  try {
    const { sp, exec, waitFor } = await open();
    const setValue = (selector, value) => exec(`
      const box = document.querySelector(arguments[0]);
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(box, arguments[1]);
      box.dispatchEvent(new Event('input', { bubbles: true }));`, [selector, value]);
    // The setting, in Settings.
    await exec('document.querySelector(\'button[aria-label="Settings"]\').click()');
    const dialog = '[role=dialog][aria-label="Settings"]';
    await waitFor(`return !!document.querySelector('${dialog} input[aria-label="Send traces to"]')`, 'the Traces setting');
    await setValue(`${dialog} input[aria-label="Send traces to"]`, endpoint);
    await setValue(`${dialog} input[aria-label="Trace headers"]`, `x-project-name=${project},x-team=blue%20team`);
    await exec(`document.querySelector('${dialog} input[aria-label="Send traces to"]').scrollIntoView()`);
    if (shot) writeFileSync(shot.replace(/\.png$/, '') + '-traces-setting.png', Buffer.from(await wd('GET', `${sp}/screenshot`), 'base64'));
    await exec(`[...document.querySelectorAll('${dialog} button')].find((b) => b.textContent === 'Save').click()`);
    await waitFor(`return !document.querySelector('${dialog}')`, 'the dialog to close');
    const settingsFile = join(dataDir, 'settings.json');
    const t0 = Date.now();
    while (!JSON.parse(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : '{}').traces && Date.now() - t0 < 10000) await sleep(100);
    const kept = JSON.parse(readFileSync(settingsFile, 'utf8')).traces;
    assert.deepEqual(kept, { endpoint, headers: [['x-project-name', project], ['x-team', 'blue team']], capture_content: false }, 'the setting is in the settings file');
    // Opened again, the dialog shows the address and the headers' names, never their values.
    await exec('document.querySelector(\'button[aria-label="Settings"]\').click()');
    await waitFor(`return document.querySelector('${dialog} input[aria-label="Send traces to"]')?.value === ${JSON.stringify(endpoint)}`, 'the setting shown again');
    assert.ok(!(await exec(`return document.querySelector('${dialog}').textContent.includes('blue team')`)), 'no header value in the page');
    await exec(`[...document.querySelectorAll('${dialog} button')].find((b) => b.textContent === 'Cancel').click()`);

    // A run: a session waiting for a person, then the answered one.
    await exec(`document.querySelector('button[data-template="003-approval"]').click();`);
    await waitFor('return !!document.querySelector("[data-node-id=get_approval]")', 'the template on the canvas');
    await exec(`
      const region = document.querySelector('[role=region][aria-label="Run"]');
      const box = region.querySelector('textarea[aria-label="Input"]');
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(box, arguments[0]);
      box.dispatchEvent(new Event('input', { bubbles: true }));
      region.querySelector('button[aria-label="Run"]').click();`, [JSON.stringify({ request: 'two laptops' })]);
    const traceShown = 'return document.querySelector("[role=region][aria-label=Trace] [data-trace-id]")?.dataset.traceId';
    await waitFor('return document.querySelector("[data-run-status]")?.dataset.runStatus === "interrupted"', 'the run to wait', 60000);
    const first = await waitFor(traceShown, 'the first session\'s trace id');
    await exec(`
      const form = document.querySelector('[role=region][aria-label="Input required"]');
      const box = form.querySelector('[aria-label="Decision"]');
      const proto = box instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(proto, 'value').set.call(box, 'approve');
      box.dispatchEvent(new Event('input', { bubbles: true }));
      [...form.querySelectorAll('button')].find((b) => b.textContent === 'Submit').click();`);
    await waitFor('return document.querySelector("[data-run-status]")?.dataset.runStatus === "completed"', 'the run to complete', 60000);
    const shown = await waitFor(traceShown, 'the trace id');
    assert.match(shown, /^[0-9a-f]{32}$/);
    await exec('document.querySelector("[role=region][aria-label=Trace]").scrollIntoView()');
    if (shot) writeFileSync(shot.replace(/\.png$/, '') + '-trace-id.png', Buffer.from(await wd('GET', `${sp}/screenshot`), 'base64'));
    // The record saved beside the graph names the same trace.
    const runsDir = join(dataDir, 'workflows', 'runs');
    const saved = readdirSync(runsDir, { recursive: true }).filter((f) => String(f).endsWith('.json')).map((f) => JSON.parse(readFileSync(join(runsDir, String(f)), 'utf8')));
    const record = saved.map((s) => s.record ?? s).find((r) => r.trace_id === shown);
    assert.ok(record, `a saved record with trace ${shown}: ${saved.map((s) => (s.record ?? s).trace_id)}`);
    const sessions = record.traces.map((t) => t.trace_id);
    assert.ok(sessions.includes(first), `the waiting session ${first} is one of ${sessions}`);

    // Both sessions are traces in Phoenix, in the project the header names, under the ids the
    // run panel and the record show: each one tree under a `run <graph>` root, the model's
    // calls as `chat` spans with their GenAI attributes, and no content or header value.
    const got = {};
    for (const id of sessions) got[id] = await phoenix.trace(project, id);
    const all = Object.values(got).flat();
    for (const [id, spans] of Object.entries(got)) {
      assert.ok(spans.every((s) => s.context.trace_id === id), `trace ${id}: every span has its id`);
      const roots = spans.filter((s) => s.parent_id === null);
      // The graph's name as the record has it: "Approval workflow", or "(2)" after it when an
      // earlier part of this test already made one.
      assert.deepEqual(roots.map((s) => s.name), [`run ${record.graph}`], `trace ${id}: one root, the run`);
      assert.match(record.graph, /^Approval workflow( \(\d+\))?$/, `the run is of the approval template`);
    }
    assert.ok(got[shown].length > 1, `the record's trace ${shown} has the run's steps (${got[shown].map((s) => s.name)})`);
    const chats = all.filter((s) => s.name.startsWith('chat '));
    assert.ok(chats.length >= 1, `a chat span among ${all.map((s) => s.name)}`);
    for (const c of chats) {
      assert.equal(c.attributes['gen_ai.operation.name'], 'chat', `${c.name}: gen_ai.operation.name`);
      assert.equal(c.attributes['gen_ai.provider.name'], 'switchyard.mock', `${c.name}: gen_ai.provider.name`);
      assert.equal(`chat ${c.attributes['gen_ai.request.model']}`, c.name, `${c.name}: gen_ai.request.model`);
    }
    const text = JSON.stringify(all);
    assert.ok(!text.includes('two laptops'), 'no input or message content without the opt-in');
    assert.ok(!text.includes('blue team') && !text.includes('blue%20team'), 'headers are not span data');
    console.log(`desktop: ok: the Traces setting sends the run's sessions (${sessions.join(', ')}) to Arize Phoenix: ${all.length} spans in project ${project}, ${chats.length} chat span(s) (${[...new Set(chats.map((c) => c.name))]})`);
    if (shot) await phoenixShot(phoenix, shown, shot.replace(/\.png$/, '') + '-phoenix.png');
    await exec('window.__TAURI_INTERNALS__.invoke("close_window", { args: {} })').catch(() => {});
    await windowsGone(' — Switchyard');
    await wd('DELETE', `/session/${session}`).catch(() => {});
    session = undefined;
  } finally {
    await phoenix.stop();
  }
}

// Phoenix's own page of the trace, in the Chromium the editor's end-to-end tests use (Playwright
// with Debian's /usr/bin/chromium, or SWITCHYARD_CHROMIUM); a picture only, so no Chromium is
// said and skipped.
async function phoenixShot(phoenix, traceId, path) {
  let chromium;
  try {
    ({ chromium } = await import('playwright'));
  } catch (e) {
    console.log(`desktop: no screenshot of Phoenix (no Playwright: ${String(e).slice(0, 100)})`);
    return;
  }
  const executablePath = process.env.SWITCHYARD_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) {
    console.log(`desktop: no screenshot of Phoenix (no Chromium at ${executablePath})`);
    return;
  }
  const browser = await chromium.launch({ executablePath });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    // Phoenix's own link to a trace by its OpenTelemetry id.
    await page.goto(`${phoenix.url}/redirects/traces/${traceId}`);
    await page.getByText('run Approval workflow').first().waitFor({ timeout: 30000 });
    await sleep(1000);
    await page.screenshot({ path });
    console.log(`desktop: Phoenix's page of trace ${traceId}: ${path}`);
  } finally {
    await browser.close();
  }
}

// Part 2 (see the top of the file).
async function filesFromOutside() {
  const work = mkdtempSync(join(tmpdir(), 'switchyard-files-'));
  const flow = join(work, 'my-flow.switchyard.json');
  writeFileSync(flow, template('006-map-reduce'));
  const { sp, exec, waitFor } = await open([flow]);
  const title = () => exec('return document.title');
  await waitFor('return !!document.querySelector("[data-node-id=summarize]") && document.title.includes("my-flow.switchyard.json")', 'the graph given on the command line');
  console.log(`desktop: opened from the command line, title "${await title()}"`);

  // An edit is saved back to that file: delete the node `nothing` with the keyboard.
  await selectNode(exec, 'nothing');
  await pageKey('\uE017'); // Delete
  await waitFor('return !document.querySelector("[data-node-id=nothing]")', 'the node deleted');
  const t = Date.now();
  let onDisk;
  while (Date.now() - t < 10000) {
    onDisk = JSON.parse(readFileSync(flow, 'utf8'));
    if (!onDisk.nodes.some((n) => n.id === 'nothing')) break;
    await sleep(150);
  }
  assert.ok(!onDisk.nodes.some((n) => n.id === 'nothing'), 'the edit was saved back to the file given');
  assert.ok(onDisk.nodes.some((n) => n.id === 'summarize'), 'the rest of the graph is still in the file');

  // A second launch hands its file to the running app, and exits.
  const second = join(work, 'approval.switchyard.json');
  writeFileSync(second, template('003-approval'));
  const launch = (file) => spawnSync(resolve(app), [file], { env: { ...process.env, SWITCHYARD_DATA_DIR: dataDir }, timeout: 20000 });
  const handed = launch(second);
  assert.equal(handed.status, 0, `the second launch exits at once (${handed.stderr})`);
  await waitFor('return !!document.querySelector("[data-node-id=get_approval]") && document.title.includes("approval.switchyard.json")', 'the file of the second launch in the running window');
  console.log(`desktop: a second launch handed over its file, title "${await title()}"`);

  // Files that are not graphs, or are missing, open nothing and say why.
  const before = await title();
  const broken = join(work, 'notes.json');
  writeFileSync(broken, '{"nodes": 3');
  launch(broken);
  await waitFor(`return [...document.querySelectorAll('[role=alert]')].some((a) => a.textContent.includes('Could not open ${broken}'))`, 'the error for a file that is not a graph');
  const missing = join(work, 'missing.json');
  launch(missing);
  await waitFor(`return [...document.querySelectorAll('[role=alert]')].some((a) => a.textContent.includes('missing.json') && a.textContent.includes('no such file'))`, 'the error for a missing file');
  assert.equal(await title(), before, 'the open graph is untouched');
  assert.ok(await exec('return !!document.querySelector("[data-node-id=get_approval]")'), 'its nodes are still shown');
  if (shot) {
    const png = await wd('GET', `${sp}/screenshot`);
    writeFileSync(shot.replace(/\.png$/, '') + '-files.png', Buffer.from(png, 'base64'));
  }
  await openedLikeADoubleClick(work, waitFor, title);
  const locked = await readOnlyFolder(work, launch, exec, waitFor, title);
  console.log('desktop: ok: files from the command line and a second launch open, save back, and bad ones are refused');
  return { sp, exec, waitFor, title, flow, second, missing, locked };
}

// A file whose folder turns read-only: an edit cannot be saved, an alert says so, and the work
// stays in the window (marked unsaved); once the folder is writable again, Save writes it.
// Root writes through file modes, so for root the folder is made immutable (`chattr +i`).
async function readOnlyFolder(work, launch, exec, waitFor, title) {
  const folder = join(work, 'read-only');
  mkdirSync(folder);
  const file = join(folder, 'locked.switchyard.json');
  writeFileSync(file, template('003-approval'));
  launch(file);
  await waitFor('return document.title.includes("locked.switchyard.json") && !!document.querySelector("[data-node-id=get_approval]")', 'the file in the folder to lock');
  const root = process.getuid?.() === 0;
  const lock = (on) => root
    ? spawnSync('chattr', [on ? '+i' : '-i', folder]).status === 0
    : (chmodSync(folder, on ? 0o555 : 0o755), chmodSync(file, on ? 0o444 : 0o644), true);
  if (!lock(true)) {
    console.log('desktop: this file system cannot make a folder read-only for root (chattr): the read-only save is not tried');
    return undefined;
  }
  try {
    await selectNode(exec, 'get_approval');
    await pageKey('\uE017'); // Delete
    await waitFor(`return [...document.querySelectorAll('[role=alert]')].some((a) => a.textContent.includes('Could not save') && a.textContent.includes('read-only') && a.textContent.includes('kept in this window'))`, 'the alert of a save to a read-only folder');
    assert.ok(!(await exec('return !!document.querySelector("[data-node-id=get_approval]")')), 'the edit is still in the window');
    assert.match(await title(), /•/, 'the title marks the work unsaved');
    assert.ok(readFileSync(file, 'utf8').includes('get_approval'), 'the file is as it was');
  } finally {
    lock(false);
  }
  console.log(`desktop: a save to a read-only folder said so and kept the work, title "${await title()}"`);
  return file;
}

// An installed binary (<root>/usr/bin/switchyard-desktop) has its desktop entry in
// <root>/usr/share/applications: a file opened with `gio open` (a file manager's double
// click) starts it through that entry, and it hands the file to the running app.
async function openedLikeADoubleClick(work, waitFor, title) {
  const root = resolve(app, '../../..');
  if (!existsSync(join(root, 'usr/share/applications/Switchyard.desktop'))) {
    console.log('desktop: not an installed binary: the double click through the desktop entry is not tried');
    return;
  }
  const clicked = join(work, 'clicked.switchyard.json');
  writeFileSync(clicked, template('001-step-engine'));
  const env = { ...process.env, SWITCHYARD_DATA_DIR: dataDir, XDG_DATA_DIRS: `${join(root, 'usr/share')}:/usr/share`, PATH: `${join(root, 'usr/bin')}:${process.env.PATH}` };
  const opened = spawnSync('gio', ['open', clicked], { env, timeout: 20000, encoding: 'utf8' });
  assert.equal(opened.status, 0, `gio open: ${opened.stderr}`);
  await waitFor('return document.title.includes("clicked.switchyard.json")', 'the double-clicked file in the running window');
  console.log(`desktop: a double click (gio open, through the desktop entry) opened it, title "${await title()}"`);
}

// Part 3 (see the top of the file). Keys go to the focused window through XTEST, as a
// keyboard's would, so GTK's menu shortcuts see them before the page does.
async function menus({ exec, waitFor, title, flow, second, missing, locked }) {
  const xdo = (...args) => {
    const r = spawnSync('xdotool', args, { encoding: 'utf8' });
    assert.equal(r.status, 0, `xdotool ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const windowNamed = (name) => spawnSync('xdotool', ['search', '--onlyvisible', '--name', name], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  // Each key, or chord, alone, then a pause: a submenu opens after a short delay of GTK's.
  const keys = async (...k) => {
    const [main] = windowNamed('Switchyard');
    xdo('windowfocus', '--sync', main);
    for (const key of k) {
      xdo('key', key);
      await sleep(400);
    }
  };
  const nodes = () => exec('return document.querySelectorAll("[data-node-id]").length');
  const selected = () => exec('return document.querySelectorAll("[data-node-id].selected").length');

  // Back to a file with a graph to edit: File ▸ Open Recent ▸ the second entry (Alt+F, R, 2).
  const settings = () => JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'));
  const recent = settings().recent;
  assert.ok(!recent.includes(missing), 'a missing file is not in Open Recent');
  assert.ok(recent.indexOf(second) >= 0 && recent.indexOf(flow) > recent.indexOf(second), `Open Recent, newest first: ${recent}`);
  // The oldest: the map-reduce graph, whose run takes several steps (mocked model).
  const target = recent[recent.length - 1];
  await keys('alt+f', 'r', String(recent.length));
  await waitFor(`return document.title.includes(${JSON.stringify(target.split('/').pop())})`, 'the second recent file, opened from File ▸ Open Recent');
  console.log(`desktop: File ▸ Open Recent ▸ ${recent.length} opened "${await title()}"`);
  if (locked) {
    // The work kept after the read-only failure was saved on leaving, the folder writable again.
    const t = Date.now();
    while (readFileSync(locked, 'utf8').includes('"get_approval"') && Date.now() - t < 10000) await sleep(150);
    assert.ok(!readFileSync(locked, 'utf8').includes('"get_approval"'), 'the kept edit reached the file once it could be written');
  }

  // Edit ▸ Select All (Ctrl+A) on the canvas selects every node; in a text field, its text.
  await exec('document.activeElement?.blur()');
  await keys('ctrl+a');
  await waitFor(`return document.querySelectorAll("[data-node-id].selected").length === ${await nodes()}`, 'every node selected by Ctrl+A');
  await pageKey('\uE00C'); // Escape: nothing selected
  await waitFor('return !document.querySelector("[data-node-id].selected")', 'the selection cleared');
  await selectNode(exec, await exec('return document.querySelector("[data-node-id]").dataset.nodeId'));
  const before = await selected();
  await exec('const i = document.querySelector("input[aria-label=Input], textarea[aria-label=Input]"); i.focus(); i.setSelectionRange(0, 0);');
  await keys('ctrl+a');
  const field = await exec('const i = document.activeElement; return [i.selectionStart, i.selectionEnd, i.value.length];');
  assert.deepEqual(field.slice(0, 2), [0, field[2]], 'Ctrl+A in a text field selects its text');
  assert.equal(await selected(), before, 'and leaves the nodes as they were');
  // Copy, Paste and Undo in the field act on its text (WebKit's own editing commands).
  const original = await exec('return document.activeElement.value');
  const inGraph = await nodes();
  await keys('ctrl+c');
  await exec('const i = document.activeElement; i.setSelectionRange(i.value.length, i.value.length);');
  await keys('ctrl+v');
  await waitFor(`return document.activeElement.value === ${JSON.stringify(original + original)}`, 'the field\'s text pasted after itself (Ctrl+C, Ctrl+V)');
  await keys('ctrl+z');
  await waitFor(`return document.activeElement.value === ${JSON.stringify(original)}`, 'the paste undone in the field (Ctrl+Z)');
  assert.equal(await nodes(), inGraph, 'and the nodes stay as they were (none pasted)');
  // Paste (Ctrl+V) on the canvas reads the system clipboard: a node copied as text, from the
  // field, by WebKit (the editor's own last copy holds no such node).
  const clip = JSON.stringify({ id: 'from_clipboard', kind: 'note', text: 'Pasted from the system clipboard' });
  await exec(`const i = document.activeElement; i.value = ${JSON.stringify(clip)}; i.dispatchEvent(new Event('input', { bubbles: true })); i.select();`);
  await keys('ctrl+c');
  await exec('document.activeElement.blur()');
  await keys('ctrl+v');
  await waitFor('return !!document.querySelector("[data-node-id=from_clipboard]")', 'the node on the system clipboard pasted by Ctrl+V');
  await exec('document.activeElement.blur()');

  // Edit ▸ Undo (Ctrl+Z) brings back a deleted node.
  const count = await nodes();
  await selectNode(exec, await exec('return document.querySelector("[data-node-id]:not([data-kind=start])").dataset.nodeId'));
  // Delete is the page's own key (no menu has it): sent to the page through WebDriver.
  await pageKey('\uE017'); // Delete
  await waitFor(`return document.querySelectorAll("[data-node-id]").length === ${count - 1}`, 'a node deleted');
  await keys('ctrl+z');
  await waitFor(`return document.querySelectorAll("[data-node-id]").length === ${count}`, 'the node back after Ctrl+Z');
  await keys('ctrl+shift+z');
  await waitFor(`return document.querySelectorAll("[data-node-id]").length === ${count - 1}`, 'the node deleted again after Ctrl+Shift+Z');
  await keys('ctrl+z');
  await waitFor(`return document.querySelectorAll("[data-node-id]").length === ${count}`, 'the node back again');
  // Edit ▸ Cut (Ctrl+X) takes the selected node away; Undo brings it back.
  await selectNode(exec, await exec('return document.querySelector("[data-node-id]:not([data-kind=start])").dataset.nodeId'));
  await keys('ctrl+x');
  await waitFor(`return document.querySelectorAll("[data-node-id]").length === ${count - 1}`, 'a node cut by Ctrl+X');
  await keys('ctrl+z');
  await waitFor(`return document.querySelectorAll("[data-node-id]").length === ${count}`, 'the cut node back after Ctrl+Z');

  // File ▸ Save (Ctrl+S) says where it saved.
  await keys('ctrl+s');
  await waitFor(`return [...document.querySelectorAll('[role=status], [role=alert]')].some((a) => a.textContent.includes('Saved ${target}'))`, 'the Saved message of Ctrl+S');

  // File ▸ Export… (Ctrl+E): a copy where the save dialog says; the open file stays open.
  const titleBefore = await title();
  const exported = join(mkdtempSync(join(tmpdir(), 'switchyard-export-')), 'copy.json');
  await keys('ctrl+e');
  await waitForWindow(windowNamed, 'Save File');
  xdo('windowfocus', '--sync', windowNamed('Save File')[0]);
  xdo('key', 'ctrl+a');
  xdo('type', '--delay', '20', exported);
  await sleep(300);
  xdo('key', 'Return');
  await waitFor(`return [...document.querySelectorAll('[role=status]')].some((a) => a.textContent.includes('Exported a copy to ${exported}'))`, 'the Exported message');
  assert.equal(JSON.parse(readFileSync(exported, 'utf8')).name, JSON.parse(readFileSync(target, 'utf8')).name, 'the copy is the open graph');
  assert.equal(await title(), titleBefore, 'the open file stays the one open');

  // Run ▸ Run (F5) runs the graph; Run ▸ Back (Shift+F10) shows the step before.
  // An input with two sections, so the run maps over them for several steps.
  await exec(`const i = document.querySelector("textarea[aria-label=Input]");
    i.value = JSON.stringify({ document: "## One\\nfirst part\\n## Two\\nsecond part" });
    i.dispatchEvent(new Event("input", { bubbles: true }));`);
  await keys('F5');
  await waitFor('return document.querySelectorAll(".step-list li").length > 2', 'steps of the run started by F5');
  await waitFor('return /History · [1-9]\\d* runs?/.test(document.querySelector("[aria-label=\'Run history\']")?.textContent ?? "")', 'the run saved in the history');
  assert.ok(!(await exec('return [...document.querySelectorAll("[role=alert]")].some((a) => a.textContent.includes("Could not save the run"))')), 'the run of a file from elsewhere is saved');
  const shown = () => exec('return document.querySelector(".step-list li.current")?.textContent ?? ""');
  const last = await shown();
  await keys('F9');
  await waitFor(`return (document.querySelector(".step-list li.current")?.textContent ?? "") !== ${JSON.stringify(last)}`, 'an earlier step shown after F9');
  const earlier = await shown();
  await keys('F10');
  await waitFor(`return (document.querySelector(".step-list li.current")?.textContent ?? "") === ${JSON.stringify(last)}`, 'the later step again after F10');
  await keys('F9', 'F9');
  await keys('F8');
  await waitFor(`return (document.querySelector(".step-list li.current")?.textContent ?? "") === ${JSON.stringify(last)}`, 'the last step again after F8 (Continue)');
  await keys('shift+F5');
  await waitFor('return document.querySelectorAll(".step-list li").length === 1', 'the run reset by Shift+F5');
  console.log(`desktop: menus: Open Recent, Select All, Paste, Undo, Redo, Save, Export, Run, Back, Step, Continue and Reset by their keys (steps "${last.slice(0, 24)}" → "${earlier.slice(0, 24)}" → back)`);

  await commandsAsInTheMenus(exec, waitFor, keys);

  // Help ▸ The graph format (Alt+H, F) and Help ▸ About open their windows.
  await keys('alt+h', 'f');
  await waitForWindow(windowNamed, 'The Switchyard graph format');
  await keys('alt+h', 'a');
  await waitForWindow(windowNamed, 'About Switchyard');
  await keys('Escape');

  // File ▸ New (Ctrl+N): a new graph in the workflows folder.
  await keys('ctrl+n');
  await waitFor(`return !document.title.includes(${JSON.stringify(target.split('/').pop())})`, 'a new graph after Ctrl+N');
  const fresh = await title();
  console.log(`desktop: File ▸ New opened "${fresh}"`);

  // File ▸ Close (Ctrl+W) saves and closes the window, and with it the app.
  await keys('ctrl+w');
  const t = Date.now();
  while (windowNamed(' — Switchyard').length && Date.now() - t < 10000) await sleep(200);
  assert.equal(windowNamed(' — Switchyard').length, 0, 'the window is closed after Ctrl+W');
  await wd('DELETE', `/session/${session}`).catch(() => {});
  session = undefined;
  console.log('desktop: ok: the native menus do what the toolbar does, by their keys and mnemonics');
}

// The native menus and the command palette list the same commands, names and keys: the menus
// as the app built them (its `menu_items` command), the palette opened by its accelerator
// (Ctrl+Shift+P, through GTK). Help then lists the palette's rows with the desktop's keys.
async function commandsAsInTheMenus(exec, waitFor, keys) {
  const items = await wd('POST', `/session/${session}/execute/async`, {
    script: 'const done = arguments[arguments.length - 1]; window.__TAURI_INTERNALS__.invoke("menu_items", { args: {} }).then(done, (e) => done({ error: String(e) }));',
    args: [],
  });
  assert.ok(Array.isArray(items), `menu_items: ${JSON.stringify(items)}`);
  // The app's own items (the format reference; Open recent and About are not plain items).
  const editorItems = items.filter((i) => i.id !== 'help.reference');
  assert.deepEqual([...new Set(items.map((i) => i.menu))], ['File', 'Edit', 'View', 'Run', 'Help'], 'the menus, in order');
  await exec('document.activeElement?.blur()');
  await keys('ctrl+shift+p');
  await waitFor('return !!document.querySelector("[role=dialog][aria-label=\'Command palette\']")', 'the palette opened by Ctrl+Shift+P');
  const rows = await exec(`return [...document.querySelectorAll('[role=dialog][aria-label="Command palette"] [role=option]')].map((r) => ({
    id: r.dataset.command, name: r.querySelector('.result-title').textContent, accelerator: r.dataset.accelerator ?? null,
    keys: [...r.querySelectorAll('kbd')].map((k) => k.textContent) }))`);
  const plain = (text) => text.replace(/&(.)/g, '$1');
  assert.deepEqual(rows.map((r) => r.id), editorItems.map((i) => i.id), 'the palette lists the menus\' commands, in their order');
  for (const [i, item] of editorItems.entries()) {
    const row = rows[i];
    assert.equal(row.name, plain(item.text), `${item.id}: the same name`);
    assert.equal(row.accelerator, item.accelerator, `${item.id}: the same accelerator`);
    if (item.accelerator) assert.equal(row.keys[0], item.accelerator.replace('CmdOrCtrl', 'Ctrl'), `${item.id}: the palette shows the menu's key first`);
  }
  assert.deepEqual(rows.find((r) => r.id === 'file.new').keys, ['Ctrl+N'], 'the desktop has Ctrl+N for New');
  await pageKey('\uE00C'); // Escape
  await waitFor('return !document.querySelector("[role=dialog]")', 'the palette closed');
  // Help (?) lists the same rows and keys.
  await pageKey('?');
  await waitFor('return !!document.querySelector("[role=dialog][aria-label=\'Keyboard shortcuts\']")', 'Help opened by ?');
  const inHelp = await exec(`return [...document.querySelectorAll('table[aria-label=Commands] tr')].map((r) => ({
    id: r.dataset.command, name: r.querySelector('.help-name').textContent, keys: [...r.querySelectorAll('kbd')].map((k) => k.textContent) }))`);
  assert.deepEqual(inHelp, rows.map(({ id, name, keys }) => ({ id, name, keys })), 'Help lists the palette\'s commands and keys');
  await pageKey('\uE00C');
  await waitFor('return !document.querySelector("[role=dialog]")', 'Help closed');
  console.log(`desktop: the menus, the palette and Help list the same ${rows.length} commands and keys`);
}

async function windowsGone(name) {
  const t = Date.now();
  while (spawnSync('xdotool', ['search', '--name', name]).status === 0) {
    if (Date.now() - t > 15000) throw new Error(`the window "${name}" is still there`);
    await sleep(200);
  }
}

async function waitForWindow(windowNamed, name) {
  const t = Date.now();
  while (!windowNamed(name).length) {
    if (Date.now() - t > 10000) throw new Error(`no window "${name}"`);
    await sleep(200);
  }
  console.log(`desktop: window "${name}" opened`);
}
