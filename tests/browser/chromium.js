// Chromium for the browser tests (tests/web/e2e.js: the page of askhost web; tests/vscode/e2e.js:
// the VS Code extension in code-server): Debian's chromium (./dev vscode-setup installs it),
// driven through the VS Code bridge's playwright-core, headless, with nothing that reaches out of
// this machine on its own (no sync, updates or background networking, no QUIC).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..');
const PLAYWRIGHT = path.join(REPO, 'editor-bridges', 'vscode', 'node_modules', 'playwright-core');
const CHROMIUM = process.env.ASKHOST_CHROMIUM || '/usr/bin/chromium';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

/** What a browser test needs and lacks, each as "what (path)"; empty when it can run. */
function missingBrowser() {
  const need = { Chromium: CHROMIUM, 'playwright-core': PLAYWRIGHT };
  return Object.entries(need).filter(([, p]) => !fs.existsSync(p)).map(([what, p]) => `${what} (${p})`);
}

/** A headless Chromium (playwright's Browser); close it when done. */
async function launchChromium() {
  const { chromium } = require(PLAYWRIGHT);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** A headless Chromium with a profile of its own in `dir` (playwright's BrowserContext, with
 *  `options` as newContext takes them); close the context when done. Unlike launchChromium's
 *  contexts it is not incognito, where Chromium takes no page as installable. */
async function launchChromiumProfile(dir, options) {
  const { chromium } = require(PLAYWRIGHT);
  return chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, headless: true, args: ARGS, ...options });
}

module.exports = { CHROMIUM, PLAYWRIGHT, launchChromium, launchChromiumProfile, missingBrowser };
