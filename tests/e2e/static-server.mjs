// A tiny static file server for the built editor (Trunk's dist/), used by the end-to-end
// tests and the performance script. Serves files only, from one folder, on loopback.
//
//   node tests/e2e/static-server.mjs [--dir dist] [--port 4173]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** Starts serving `dir` on 127.0.0.1:`port` (0 picks a free port); resolves to the server. */
export function serve(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      let file = normalize(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(403).end();
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file).catch(() => null);
      if (body === null) {
        // A missing asset is a 404 (never the page: that would hide a stale or broken build);
        // any other unknown path is a route of the single-page app and gets the page.
        if (extname(path)) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${path}`);
          return;
        }
        const index = await readFile(join(root, 'index.html'));
        res.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' }).end(index);
        return;
      }
      res
        .writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        })
        .end(body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ok(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const dir = arg('--dir', 'dist');
  const server = await serve(dir, Number(arg('--port', '4173')));
  console.log(`serving ${resolve(dir)} on http://127.0.0.1:${server.address().port}`);
}
