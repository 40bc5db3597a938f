// The desktop app's Debian package, checked the way a desktop reads it: its control fields,
// then, unpacked into a temporary root with `dpkg-deb -x` (what dpkg installs), the binary,
// the desktop entry (valid, passing files with %f/%F, naming the MIME types), the icons at the
// sizes their folders say, and the MIME type: with the root's folders added to the search
// paths, GIO (what GNOME's file manager asks) must call a `*.switchyard.json` file a
// Switchyard graph and name Switchyard as its application, and offer it for any `.json`.
//
// Usage: node tests/desktop/package.mjs <package.deb> <root to unpack into>
// The root is left for the desktop test, which starts the installed binary from it.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync, readdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import assert from 'node:assert/strict';

const [deb, root] = process.argv.slice(2);
if (!deb || !root) throw new Error('usage: package.mjs <package.deb> <root>');
// Standard error is kept (a failure's message carries it), not echoed: update-mime-database
// warns that the root is not on the search path, which is the point.
const run = (cmd, args, env = {}) => execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });

// Control fields.
const field = (name) => run('dpkg-deb', ['-f', deb, name]).trim();
assert.equal(field('Package'), 'switchyard');
assert.match(field('Depends'), /libwebkit2gtk-4\.1-0/, 'it depends on the WebKitGTK it links');
assert.ok(field('Description').length > 0, 'it has a description');
console.log(`package: ${deb}: ${(statSync(deb).size / 1e6).toFixed(1)} MB, ${field('Package')} ${field('Version')} ${field('Architecture')}`);

// Unpacked as dpkg would install it.
run('dpkg-deb', ['-x', deb, root]);
const bin = join(root, 'usr/bin/switchyard-desktop');
assert.ok(statSync(bin).mode & 0o111, 'the binary is executable');
assert.equal(readFileSync(bin).subarray(0, 4).toString('latin1'), '\x7fELF', 'the binary is an ELF program');

// The desktop entry.
const apps = join(root, 'usr/share/applications');
const entries = readdirSync(apps).filter((f) => f.endsWith('.desktop'));
assert.equal(entries.length, 1, `one desktop entry (found ${entries})`);
const entryPath = join(apps, entries[0]);
const validated = spawnSync('desktop-file-validate', [entryPath], { encoding: 'utf8' });
assert.equal(validated.status, 0, `desktop-file-validate: ${validated.stdout}${validated.stderr}`);
const entry = Object.fromEntries(
  readFileSync(entryPath, 'utf8').split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);
assert.match(entry.Exec, /^switchyard-desktop %[fF]$/, `Exec passes the files (${entry.Exec})`);
const mimeTypes = entry.MimeType.split(';').filter(Boolean);
assert.ok(mimeTypes.includes('application/x-switchyard-graph+json'), `MimeType names Switchyard graphs (${entry.MimeType})`);
assert.ok(mimeTypes.includes('application/json'), `MimeType offers any JSON (${entry.MimeType})`);

// The icon it names, at every size, each PNG as large as its folder says.
const hicolor = join(root, 'usr/share/icons/hicolor');
const sizes = readdirSync(hicolor).filter((d) => existsSync(join(hicolor, d, 'apps', `${entry.Icon}.png`)));
assert.ok(sizes.includes('128x128') && sizes.includes('256x256'), `the icon at 128 and 256 px (found ${sizes})`);
for (const size of sizes) {
  const png = readFileSync(join(hicolor, size, 'apps', `${entry.Icon}.png`));
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  assert.equal(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, size, `the ${size} icon's dimensions`);
}

// The MIME type, as the desktop sees it once the root's databases are built (dpkg's triggers
// do this on a real install).
run('update-mime-database', [join(root, 'usr/share/mime')]);
run('update-desktop-database', [apps]);
const desktopEnv = { XDG_DATA_DIRS: `${join(root, 'usr/share')}:/usr/share`, PATH: `${join(root, 'usr/bin')}:${process.env.PATH}` };
const sample = join(mkdtempSync(join(tmpdir(), 'switchyard-mime-')), 'flow.switchyard.json');
writeFileSync(sample, '{}');
const info = run('gio', ['info', '-a', 'standard::content-type', sample], desktopEnv);
assert.match(info, /content-type: application\/x-switchyard-graph\+json/, `a *.switchyard.json file's type:\n${info}`);
const graphApps = run('gio', ['mime', 'application/x-switchyard-graph+json'], desktopEnv);
assert.match(graphApps, new RegExp(`Default application for .*: ${entries[0].replace('.', '\\.')}`), graphApps);
const jsonApps = run('gio', ['mime', 'application/json'], desktopEnv);
assert.match(jsonApps, new RegExp(`Registered applications:[\\s\\S]*${entries[0].replace('.', '\\.')}`), jsonApps);
console.log(`package: ok: binary, ${entries[0]} (Exec "${entry.Exec}", MimeType ${entry.MimeType}), icons ${sizes.join(' ')}, *.switchyard.json opens with it`);
