// Desktop end-to-end test: the Tauri app under Xvfb, driven through tauri-driver and
// WebKitWebDriver with the plain WebDriver protocol. The app starts, a template is opened,
// it is saved as a file, and the file on disk is the expected document.
//
// Usage: node tests/desktop/desktop-e2e.mjs <path to switchyard-desktop> [screenshot.png]
import { spawn } from 'node:child_process';
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
try {
  for (let i = 0; ; i++) {
    try { await fetch(base + '/status'); break; } catch { if (i > 100) throw new Error('tauri-driver did not start'); await sleep(100); }
  }
  const started = Date.now();
  const s = await wd('POST', '/session', { capabilities: { alwaysMatch: { browserName: 'wry', 'tauri:options': { application: resolve(app) } } } });
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
} finally {
  if (session) await wd('DELETE', `/session/${session}`).catch(() => {});
  // SIGTERM, never SIGKILL: tauri-driver must stop WebKitWebDriver itself.
  driver.kill('SIGTERM');
}
