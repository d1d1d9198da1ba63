// Shared test helpers: where the real askhost and the scripted agent are, temporary folders, polling.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const EXTENSION_ROOT = path.resolve(__dirname, '..', '..', '..');
export const REPO_ROOT = path.resolve(EXTENSION_ROOT, '..', '..');

/** The askhost under test: $ASKHOST (meson sets it), else the repository's build. */
export function askhostPath(): string {
  const p = path.resolve(process.env.ASKHOST || path.join(REPO_ROOT, 'build', 'askhost'));
  if (!fs.existsSync(p)) throw new Error(`askhost not found at ${p}: build it, or set ASKHOST`);
  return p;
}

export const SCRIPTED_AGENT = path.join(REPO_ROOT, 'tests', 'agents', 'scripted-agent');

const made: string[] = [];
function removeMade(): void {
  for (const d of made.splice(0)) {
    try {
      // maxRetries: an askhost the same signal reached may still be writing in it.
      fs.rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    } catch {
      // the next one still goes
    }
  }
}
process.on('exit', removeMade);
// A signal ends the process without its 'exit' handlers (meson's timeout sends SIGTERM to the
// test's process group, Ctrl-C SIGINT): the folders go first, then it exits. First: under
// `node --test` the runner's own 'exit' handler may throw (its pipe to the killed parent is gone).
// Kept for every signal (`on`, not `once`): the runner sends its file's process a SIGTERM of its
// own just after meson's, which would otherwise end it halfway through.
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(sig, () => {
    removeMade();
    process.exit(128 + os.constants.signals[sig]);
  });
}

/** A temporary folder, removed when the test file's process exits or is ended by a signal. */
export function tempDir(prefix = 'askhost-vscode-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(d);
  return d;
}

/**
 * A scripted agent run (tests/agents/scripted-agent): writes the steps to a file and returns
 * the argv to start it with and the file where it records what it received.
 */
export function scriptedAgent(steps: unknown[], dir = tempDir()): { argv: string[]; record: string; line: string } {
  const script = path.join(dir, 'script.json');
  const record = path.join(dir, 'received.jsonl');
  fs.writeFileSync(script, JSON.stringify(steps));
  const argv = [SCRIPTED_AGENT, script, record];
  return { argv, record, line: argv.map((a) => `'${a}'`).join(' ') };
}

/** What the agent received so far, one JSON value per line ("EOF" when its stdin closed). */
export function received(record: string): any[] {
  if (!fs.existsSync(record)) return [];
  return fs
    .readFileSync(record, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (l === 'EOF' ? 'EOF' : JSON.parse(l)));
}

export async function waitFor<T>(what: string, fn: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function receivedResponse(record: string, n = 1, timeoutMs = 5000): Promise<any[]> {
  return waitFor(`${n} response(s) in ${record}`, () => {
    const r = received(record);
    return r.length >= n ? r : undefined;
  }, timeoutMs);
}

export function ask(requestId: string, questions: unknown[], extra: Record<string, unknown> = {}) {
  return { send: { type: 'ask_user_request', requestId, questions, ...extra } };
}

export const DATABASE = {
  question: 'Which database should we use?',
  header: 'Database',
  options: [
    { label: 'PostgreSQL (Recommended)', description: 'Battle-tested relational DB' },
    { label: 'SQLite', description: 'Lightweight, file-based', preview: '```sql\nCREATE TABLE t (id INTEGER);\n```' },
    { label: 'MongoDB', description: 'Document store' },
  ],
};
export const SERVICE = { question: 'What should we name this service?', header: 'Service Name' };
export const FEATURES = {
  question: 'Which features should we include?',
  header: 'Features',
  multiSelect: true,
  options: [
    { label: 'Authentication', description: 'OAuth2 + JWT' },
    { label: 'REST API', description: 'OpenAPI spec included' },
    { label: 'Admin Dashboard' },
  ],
};
