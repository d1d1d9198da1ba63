// The standing host: the extension starts askhost for the window's folders, and an agent started
// outside VS Code (an `askhost mcp` process in a folder of the workspace) asks in the panel.
import assert from 'node:assert/strict';
import { ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { FakeWebviewPanel, fake, fakeContext, install, setFolders } from './fake-vscode';
import { DATABASE, EXTENSION_ROOT, askhostPath, tempDir, waitFor } from './helpers';
import { askerName } from '../src/status';

install();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ext = require('../src/extension') as typeof import('../src/extension');

let api: import('../src/extension').AskhostApi;
let context: ReturnType<typeof fakeContext>;
let runtime: string;
let workspace: string;

beforeEach(() => {
  fake.reset();
  // Only this test's hosts in the registry: askhost (spawned by the extension) and the outside
  // agent both read XDG_RUNTIME_DIR.
  runtime = tempDir('askhost-run-');
  fs.chmodSync(runtime, 0o700);
  process.env.XDG_RUNTIME_DIR = runtime;
  fake.settings['askhost.path'] = askhostPath();
  workspace = fs.realpathSync(tempDir('askhost-ws-'));
  fake.folders = [workspace];
  context = fakeContext(EXTENSION_ROOT);
  api = ext.activate(context as any);
});

afterEach(async () => {
  await ext.deactivate();
  for (const d of context.subscriptions) d.dispose();
});

function hosts(dir: string): any {
  fs.mkdirSync(dir, { recursive: true });
  return JSON.parse(execFileSync(askhostPath(), ['hosts', '--json'], { cwd: dir, encoding: 'utf8' }));
}

/** An agent in its own terminal: askhost mcp in `cwd`, asking one question. */
function outsideAgent(cwd: string, questions: unknown[]): { proc: ChildProcessWithoutNullStreams; result: Promise<any> } {
  fs.mkdirSync(cwd, { recursive: true });
  const env = { ...process.env };
  delete env.ASKHOST_SOCKET;
  const proc = spawn(askhostPath(), ['mcp'], { cwd, env });
  const send = (m: unknown) => proc.stdin.write(JSON.stringify(m) + '\n');
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'codex-mcp-client', version: '1' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_user_question', arguments: { questions } } });
  let buf = '';
  const result = new Promise<any>((resolve) => {
    proc.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      for (const line of buf.split('\n').slice(0, -1)) {
        const m = JSON.parse(line);
        if (m.id === 2) resolve(m.result);
      }
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
    });
  });
  return { proc, result };
}

const strict = (q: any) => ({ ...q, options: q.options.map((o: any) => ({ description: '', ...o })) });

describe('the standing host', () => {
  test('starts with the window; an agent started outside VS Code asks in the panel', async () => {
    await waitFor('the standing host', () => api.client?.socket);
    assert.equal(hosts(path.join(workspace, 'src')).chosen, api.client!.socket, 'registered for the workspace folder');
    const agent = outsideAgent(path.join(workspace, 'src', 'api'), [strict(DATABASE)]);
    try {
      const p: FakeWebviewPanel = await waitFor('the panel', () => {
        const q = fake.panels[0];
        return q && !q.disposed && q.view ? q : undefined;
      });
      assert.equal(p.title, 'codex · MCP asks: Database', 'the panel names the agent and the route');
      await waitFor('the status bar count', () => (api.status as any).text.includes('1 question waiting'));
      p.send({ type: 'row', row: 1 }); // SQLite
      const result = await agent.result;
      assert.deepEqual(result.structuredContent.answers, { 'Which database should we use?': 'SQLite' });
    } finally {
      agent.proc.kill();
    }
  });

  test('follows the workspace folders', async () => {
    await waitFor('the standing host', () => api.client?.socket);
    const other = fs.realpathSync(tempDir('askhost-other-'));
    setFolders([workspace, other]);
    await waitFor('the added folder registered', () => hosts(other).chosen === api.client!.socket);
    setFolders([other]);
    await waitFor('the removed folder gone', () => hosts(workspace).chosen === null);
  });

  test('off with askhost.standingHost = false', async () => {
    await ext.deactivate();
    fake.settings['askhost.standingHost'] = false;
    api = ext.activate(fakeContext(EXTENSION_ROOT) as any);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(api.client, undefined);
    assert.deepEqual(hosts(workspace).hosts, []);
  });
});

describe('who asks', () => {
  // The rule itself is the host's (tests/text/who_asks.json): the panel shows what it says.
  test('as the host names it, the agent alone from a host that does not say', () => {
    assert.equal(askerName({ agent: 'codex', who: 'codex · MCP' }), 'codex · MCP');
    assert.equal(askerName({ agent: 'claude', who: 'claude · hook' }), 'claude · hook');
    assert.equal(askerName({ agent: 'demo-agent' }), 'demo-agent');
    assert.equal(askerName({}), 'agent');
  });
});
