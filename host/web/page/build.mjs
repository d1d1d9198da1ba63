#!/usr/bin/env node
// Builds the page of `askhost web` into dist/ (committed, so building askhost needs no Node):
// src/app.ts and what it shares with the VS Code panel (editor-bridges/shared/: the dialog model,
// its drawing, the rule for agent text) compiled by the VS Code bridge's TypeScript, and the
// service worker src/sw.ts (a classic script with the worker's lib: tsconfig.sw.json), flattened
// into dist/ beside src/'s index.html and style.css. The server embeds every file of dist/.
//
// Beside dist/ it writes dist-hashes.json: the SHA-256 of every file dist/ was built from (each
// file the compiler read, each file copied, this script, the two tsconfigs), the TypeScript version
// that built it, and the SHA-256 of every file of dist/. tests/web/dist_fresh.py compares those
// with the tree where no TypeScript is installed, so a stale dist/ fails everywhere.
//
// usage: build.mjs            write dist/ and dist-hashes.json
//        build.mjs --check    build into a temporary folder and compare with dist/ and
//                             dist-hashes.json byte for byte: exit 1 and name the files when
//                             they are stale (tests/web/dist_fresh.py runs it where it can)
// exit 77 when the VS Code bridge's npm packages are not installed (./dev vscode-setup).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PAGE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(PAGE, '..', '..', '..');
const BRIDGE = path.join(ROOT, 'editor-bridges', 'vscode');
const TSC = path.join(BRIDGE, 'node_modules', 'typescript', 'bin', 'tsc');
const DIST = path.join(PAGE, 'dist');
const HASHES = path.join(PAGE, 'dist-hashes.json');
// The two programs: the page's (ES modules, the DOM's lib) and its service worker's (a script).
const PROGRAMS = ['tsconfig.json', 'tsconfig.sw.json'];
// Where each served file comes from: compiled (relative to its program's output) or copied.
const COMPILED_SW = { 'sw.js': 'sw.js' };
const COMPILED = {
  'app.js': path.join('host', 'web', 'page', 'src', 'app.js'),
  'push.js': path.join('host', 'web', 'page', 'src', 'push.js'),
  'protocol.js': path.join('host', 'web', 'page', 'src', 'protocol.js'),
  'model.js': path.join('editor-bridges', 'shared', 'model.js'),
  'dom.js': path.join('editor-bridges', 'shared', 'dom.js'),
  'draw.js': path.join('editor-bridges', 'shared', 'draw.js'),
  'text.js': path.join('editor-bridges', 'shared', 'text.js'),
};
const COPIED = ['index.html', 'style.css', 'manifest.webmanifest', 'icon-180.png', 'icon-192.png', 'icon-512.png'];

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const repoPath = (file) => path.relative(ROOT, file).split(path.sep).join('/');

/** The TypeScript version the bridge's lockfile pins (what dist/ is built with). */
function typescriptVersion() {
  const lock = JSON.parse(fs.readFileSync(path.join(BRIDGE, 'package-lock.json'), 'utf8'));
  return lock.packages?.['node_modules/typescript']?.version ?? 'unknown';
}

/** Compiles `tsconfig` into `out`; the files the compiler read (ours, not its lib), or undefined. */
function compile(tsconfig, out) {
  const r = spawnSync(process.execPath, [TSC, '-p', path.join(PAGE, tsconfig), '--outDir', out, '--listFiles'], { encoding: 'utf8' });
  if (r.status !== 0) {
    process.stdout.write(r.stdout + r.stderr);
    console.error(`build.mjs: tsc -p ${tsconfig} failed`);
    return undefined;
  }
  // --listFiles names every file the compiler read: ours, and its own lib files (the version).
  return r.stdout.split('\n').filter((f) => path.isAbsolute(f) && !f.split(/[\\/]/).includes('node_modules'));
}

/** Builds the served files into `into`; returns what dist-hashes.json says of them, or undefined. */
function build(into) {
  const out = PROGRAMS.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'askhost-page-tsc-')));
  try {
    const read = PROGRAMS.map((p, i) => compile(p, out[i]));
    if (read.some((r) => r === undefined)) return undefined;
    const inputs = [...new Set(read.flat())];
    inputs.push(...COPIED.map((n) => path.join(PAGE, 'src', n)), fileURLToPath(import.meta.url), ...PROGRAMS.map((p) => path.join(PAGE, p)));
    fs.mkdirSync(into, { recursive: true });
    for (const [name, from] of Object.entries(COMPILED)) fs.copyFileSync(path.join(out[0], from), path.join(into, name));
    for (const [name, from] of Object.entries(COMPILED_SW)) fs.copyFileSync(path.join(out[1], from), path.join(into, name));
    for (const name of COPIED) fs.copyFileSync(path.join(PAGE, 'src', name), path.join(into, name));
    const sorted = (entries) => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return {
      about: 'Written by host/web/page/build.mjs with dist/; read by tests/web/dist_fresh.py (docs/web-page.md).',
      typescript: typescriptVersion(),
      sources: sorted(inputs.map((f) => [repoPath(f), sha256(f)])),
      dist: sorted(fs.readdirSync(into).map((n) => [n, sha256(path.join(into, n))])),
    };
  } finally {
    for (const o of out) fs.rmSync(o, { recursive: true, force: true });
  }
}

const hashesText = (hashes) => JSON.stringify(hashes, null, 2) + '\n';

function check() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askhost-page-check-'));
  try {
    const hashes = build(tmp);
    if (!hashes) return 1;
    const want = fs.readdirSync(tmp).sort();
    const have = fs.existsSync(DIST) ? fs.readdirSync(DIST).sort() : [];
    const stale = [];
    for (const f of want) {
      if (!have.includes(f)) stale.push(`${f}: missing from dist/`);
      else if (!fs.readFileSync(path.join(tmp, f)).equals(fs.readFileSync(path.join(DIST, f)))) stale.push(`${f}: differs from its sources`);
    }
    for (const f of have) if (!want.includes(f)) stale.push(`${f}: in dist/ but built from nothing`);
    if (!fs.existsSync(HASHES) || fs.readFileSync(HASHES, 'utf8') !== hashesText(hashes)) stale.push('dist-hashes.json: not what this build writes');
    if (stale.length > 0) {
      console.log('host/web/page/dist/ is stale: run node host/web/page/build.mjs and commit dist/ and dist-hashes.json');
      for (const s of stale) console.log('  ' + s);
      return 1;
    }
    console.log(`host/web/page/dist/ is what its sources build, byte for byte (${want.length} files: ${want.join(', ')})`);
    return 0;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// meson's timeout sends SIGTERM to the test's process group, tsc included. With a listener the
// signal no longer ends this process on the spot: the synchronous code goes on (tsc has ended) and
// the finally blocks above remove the temporary folders before it exits.
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => process.exit(128 + os.constants.signals[sig]));
if (!fs.existsSync(TSC)) {
  console.log(`build.mjs: no TypeScript in editor-bridges/vscode/node_modules: run ./dev vscode-setup`);
  process.exit(77);
}
if (process.argv.includes('--check')) process.exit(check());
fs.rmSync(DIST, { recursive: true, force: true });
const hashes = build(DIST);
if (hashes) fs.writeFileSync(HASHES, hashesText(hashes));
process.exit(hashes ? 0 : 1);
