#!/usr/bin/env node
// Builds the page of `askhost web` into dist/ (committed, so building askhost needs no Node):
// src/app.ts and what it shares with the VS Code panel (editor-bridges/shared/: the dialog model,
// its drawing, the rule for agent text) compiled by the VS Code bridge's TypeScript, flattened into
// dist/ beside src/'s index.html and style.css. The server embeds every file of dist/.
//
// usage: build.mjs            write dist/
//        build.mjs --check    build into a temporary folder and compare with dist/: exit 1 and
//                             name the files when dist/ is stale (the meson test `web dist_fresh`)
// exit 77 when the VS Code bridge's npm packages are not installed (./dev vscode-setup).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PAGE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(PAGE, '..', '..', '..');
const TSC = path.join(ROOT, 'editor-bridges', 'vscode', 'node_modules', 'typescript', 'bin', 'tsc');
const DIST = path.join(PAGE, 'dist');
// Where each served file comes from: compiled (relative to the compiler's output) or copied.
const COMPILED = {
  'app.js': path.join('host', 'web', 'page', 'src', 'app.js'),
  'push.js': path.join('host', 'web', 'page', 'src', 'push.js'),
  'model.js': path.join('editor-bridges', 'shared', 'model.js'),
  'dom.js': path.join('editor-bridges', 'shared', 'dom.js'),
  'text.js': path.join('editor-bridges', 'shared', 'text.js'),
};
const COPIED = ['index.html', 'style.css', 'sw.js', 'manifest.webmanifest', 'icon-180.png', 'icon-192.png', 'icon-512.png'];

function build(into) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'askhost-page-tsc-'));
  try {
    const r = spawnSync(process.execPath, [TSC, '-p', path.join(PAGE, 'tsconfig.json'), '--outDir', out], {
      encoding: 'utf8',
    });
    if (r.status !== 0) {
      process.stdout.write(r.stdout + r.stderr);
      console.error('build.mjs: tsc failed');
      return false;
    }
    fs.mkdirSync(into, { recursive: true });
    for (const [name, from] of Object.entries(COMPILED)) fs.copyFileSync(path.join(out, from), path.join(into, name));
    for (const name of COPIED) fs.copyFileSync(path.join(PAGE, 'src', name), path.join(into, name));
    return true;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

function check() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'askhost-page-check-'));
  try {
    if (!build(tmp)) return 1;
    const want = fs.readdirSync(tmp).sort();
    const have = fs.existsSync(DIST) ? fs.readdirSync(DIST).sort() : [];
    const stale = [];
    for (const f of want) {
      if (!have.includes(f)) stale.push(`${f}: missing from dist/`);
      else if (!fs.readFileSync(path.join(tmp, f)).equals(fs.readFileSync(path.join(DIST, f)))) stale.push(`${f}: differs from its sources`);
    }
    for (const f of have) if (!want.includes(f)) stale.push(`${f}: in dist/ but built from nothing`);
    if (stale.length > 0) {
      console.log('host/web/page/dist/ is stale: run node host/web/page/build.mjs and commit dist/');
      for (const s of stale) console.log('  ' + s);
      return 1;
    }
    console.log(`host/web/page/dist/ is up to date (${want.length} files: ${want.join(', ')})`);
    return 0;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (!fs.existsSync(TSC)) {
  console.log(`build.mjs: no TypeScript in editor-bridges/vscode/node_modules: run ./dev vscode-setup`);
  process.exit(77);
}
if (process.argv.includes('--check')) process.exit(check());
fs.rmSync(DIST, { recursive: true, force: true });
process.exit(build(DIST) ? 0 : 1);
