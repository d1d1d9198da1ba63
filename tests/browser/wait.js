// Waiting in the browser tests (tests/web/e2e.js, tests/vscode/e2e.js): a pause at a person's pace,
// and a condition polled until it holds or its time runs out.
'use strict';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** fn's first truthy value; throws, naming `what` and fn's last error, after timeoutMs. */
async function waitFor(what, fn, timeoutMs = 20000, everyMs = 100) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? ': ' + last.message : ''}`);
    await sleep(everyMs);
  }
}

module.exports = { sleep, waitFor };
