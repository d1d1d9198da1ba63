// Chromium for the browser tests (tests/web/e2e.js: the page of askhost web; tests/vscode/e2e.js:
// the VS Code extension in code-server; the panel's drawing test): Debian's, driven through the VS
// Code bridge's playwright-core, headless, with nothing that reaches out of this machine on its own
// (no sync, updates or background networking, no QUIC).
//
// Two builds of the same Chromium (./dev vscode-setup installs both):
// - chromium-headless-shell (Debian's package of that name; playwright's own choice for headless
//   Chromium): the same Blink, V8 and network stack without the browser's windowing layer. A page
//   scenario of tests/web takes about 4 CPU-seconds less in it (about half), a VS Code scenario
//   about 5. Every scenario runs in it but those that follow:
// - chromium, the whole browser: notifications. The shell grants no notification permission, so
//   the scenarios that subscribe to push or show notifications as a phone does (launchChromium's
//   `notifications`) run here. Where the shell is not installed, everything runs here.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');
const PLAYWRIGHT = path.join(REPO, 'editor-bridges', 'vscode', 'node_modules', 'playwright-core');
const CHROMIUM = process.env.ASKHOST_CHROMIUM || '/usr/bin/chromium';
const SHELL = process.env.ASKHOST_CHROMIUM_SHELL || '/usr/lib/chromium/chromium-headless-shell';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** The program for a browser that needs `notifications` or not. */
function executable(notifications) {
  return !notifications && fs.existsSync(SHELL) ? SHELL : CHROMIUM;
}

/** What a browser test needs and lacks, each as "what (path)"; empty when it can run. */
function missingBrowser() {
  const need = { Chromium: CHROMIUM, 'playwright-core': PLAYWRIGHT };
  return Object.entries(need).filter(([, p]) => !fs.existsSync(p)).map(([what, p]) => `${what} (${p})`);
}

/** A headless Chromium (playwright's Browser); close it when done. notifications: one that grants
 *  the notification permission (the whole browser, not the shell). */
async function launchChromium({ notifications = false } = {}) {
  const { chromium } = require(PLAYWRIGHT);
  return chromium.launch({ executablePath: executable(notifications), headless: true, args: ARGS });
}

/** A headless Chromium with a profile of its own in `dir` (playwright's BrowserContext, with
 *  `options` as newContext takes them); close the context when done. Unlike launchChromium's
 *  contexts it is not incognito, where Chromium takes no page as installable. */
async function launchChromiumProfile(dir, options) {
  const { chromium } = require(PLAYWRIGHT);
  return chromium.launchPersistentContext(dir, { executablePath: executable(false), headless: true, args: ARGS, ...options });
}

module.exports = { CHROMIUM, PLAYWRIGHT, launchChromium, launchChromiumProfile, missingBrowser };
