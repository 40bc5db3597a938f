// Desktop end-to-end test: the Tauri app under Xvfb, driven through tauri-driver and
// WebKitWebDriver with the plain WebDriver protocol.
// 1. The app starts, a template is opened, it is saved as a file, and the file on disk is the
//    expected document.
// 2. Files from outside: started with a graph file as its argument, the app shows that graph
//    (title and nodes); an edit is saved back to the file. A second launch with another file
//    hands it to the running app (single instance, over D-Bus: run under dbus-run-session); a
//    launch with a file that is not a graph, or is missing, opens nothing and says why.
//
// Usage: node tests/desktop/desktop-e2e.mjs <path to switchyard-desktop> [screenshot.png]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, writeFileSync, readdirSync } from 'node:fs';
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

async function wd(method, path, body) {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.value)}`);
  return json.value;
}

let session;
// Starts the app through tauri-driver with `args`; helpers bound to that session.
async function open(args = []) {
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
  return { sp, exec, waitFor };
}

try {
  for (let i = 0; ; i++) {
    try { await fetch(base + '/status'); break; } catch { if (i > 100) throw new Error('tauri-driver did not start'); await sleep(100); }
  }
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
  await wd('DELETE', `/session/${session}`);
  session = undefined;
  await filesFromOutside();
} finally {
  if (session) await wd('DELETE', `/session/${session}`).catch(() => {});
  // SIGTERM, never SIGKILL: tauri-driver must stop WebKitWebDriver itself.
  driver.kill('SIGTERM');
}

// Part 2 (see the top of the file).
async function filesFromOutside() {
  const work = mkdtempSync(join(tmpdir(), 'switchyard-files-'));
  const template = (name) => readFileSync(new URL(`../../templates/${name}.json`, import.meta.url), 'utf8');
  const flow = join(work, 'my-flow.switchyard.json');
  writeFileSync(flow, template('006-map-reduce'));
  const { sp, exec, waitFor } = await open([flow]);
  const title = () => exec('return document.title');
  await waitFor('return !!document.querySelector("[data-node-id=summarize]") && document.title.includes("my-flow.switchyard.json")', 'the graph given on the command line');
  console.log(`desktop: opened from the command line, title "${await title()}"`);

  // An edit is saved back to that file: delete the node `nothing` with the keyboard.
  const node = await wd('POST', `${sp}/element`, { using: 'css selector', value: '[data-node-id="nothing"]' });
  await wd('POST', `${sp}/element/${Object.values(node)[0]}/click`, {});
  await wd('POST', `${sp}/actions`, { actions: [{ type: 'key', id: 'keys', actions: [{ type: 'keyDown', value: '\uE017' }, { type: 'keyUp', value: '\uE017' }] }] });
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
  launch(join(work, 'missing.json'));
  await waitFor(`return [...document.querySelectorAll('[role=alert]')].some((a) => a.textContent.includes('missing.json') && a.textContent.includes('no such file'))`, 'the error for a missing file');
  assert.equal(await title(), before, 'the open graph is untouched');
  assert.ok(await exec('return !!document.querySelector("[data-node-id=get_approval]")'), 'its nodes are still shown');
  if (shot) {
    const png = await wd('GET', `${sp}/screenshot`);
    writeFileSync(shot.replace(/\.png$/, '') + '-files.png', Buffer.from(png, 'base64'));
  }
  console.log('desktop: ok: files from the command line and a second launch open, save back, and bad ones are refused');
}
