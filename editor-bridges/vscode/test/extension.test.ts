// The whole extension in a fake VS Code (test/fake-vscode.ts) against the real askhost and the
// scripted agent: commands, settings, the status bar, the panel's messages, closing and withdrawing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { FakeWebviewPanel, fake, fakeContext, install, nextMessage } from './fake-vscode';
import { DATABASE, EXTENSION_ROOT, FEATURES, SERVICE, ask, askhostPath, received, receivedResponse, scriptedAgent, tempDir, waitFor } from './helpers';

install();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ext = require('../src/extension') as typeof import('../src/extension');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscode = require('vscode');

let api: import('../src/extension').AskhostApi;
let context: ReturnType<typeof fakeContext>;

beforeEach(() => {
  fake.reset();
  fake.settings['askhost.path'] = askhostPath();
  fake.settings['askhost.standingHost'] = false; // test/standing.test.ts has the standing host
  fake.folders = [tempDir('askhost-ws-')];
  context = fakeContext(EXTENSION_ROOT);
  api = ext.activate(context as any);
});

afterEach(async () => {
  await ext.deactivate();
  for (const d of context.subscriptions) d.dispose();
});

/** Start Agent with the scripted agent as the configured command (first in the quick pick). */
async function start(steps: unknown[]) {
  const agent = scriptedAgent(steps);
  fake.settings['askhost.agentCommand'] = agent.line;
  fake.quickPicks.push(agent.line);
  await fake.commands.get('askhost.startAgent')!();
  return agent;
}

async function panel(n = 1): Promise<FakeWebviewPanel> {
  return waitFor(`panel ${n} with a view`, () => {
    const p = fake.panels[n - 1];
    return p && !p.disposed && p.view ? p : undefined;
  });
}

const status = () => api.status as unknown as { text: string; visible: boolean; command: string };

describe('commands', () => {
  test('activation registers the commands; the status item starts hidden', () => {
    assert.deepEqual([...fake.commands.keys()].sort(), [
      'askhost.sendPrompt',
      'askhost.showOutput',
      'askhost.showQuestions',
      'askhost.showWebUrl',
      'askhost.startAgent',
      'askhost.stopAgent',
    ]);
    assert.equal(status().visible, false);
    assert.equal(status().command, 'askhost.showQuestions');
    const pkg = JSON.parse(fs.readFileSync(path.join(EXTENSION_ROOT, 'package.json'), 'utf8'));
    const contributed = pkg.contributes.commands.map((c: any) => c.command).sort();
    assert.deepEqual(contributed, [...fake.commands.keys()].sort());
    assert.deepEqual(Object.keys(pkg.contributes.configuration.properties).sort(), [
      'askhost.adapter', 'askhost.agentCommand', 'askhost.focusPanel', 'askhost.path', 'askhost.standingHost', 'askhost.timeout',
    ]);
  });

  test('Show Web Page Address: the URL of the askhost web that runs, with a Copy action', async () => {
    // askhost web and this command in folders of their own (its token, its record in the registry).
    const dir = tempDir('askhost-web-');
    const xdg: Record<string, string> = { XDG_RUNTIME_DIR: 'run', XDG_STATE_HOME: 'state', XDG_CONFIG_HOME: 'config' };
    const saved: Record<string, string | undefined> = {};
    for (const [k, sub] of Object.entries(xdg)) {
      saved[k] = process.env[k];
      process.env[k] = path.join(dir, sub);
      fs.mkdirSync(process.env[k]!, { mode: 0o700 });
    }
    try {
      // None runs: an error that says so and how to start one; nothing is copied.
      await fake.commands.get('askhost.showWebUrl')!();
      const refused = await nextMessage((m) => m.kind === 'error');
      assert.match(refused.message, /^askhost: no askhost web is running .*Start it with `askhost web`/);
      assert.equal(fake.clipboard, '');

      const web = spawn(askhostPath(), ['web', '--listen', '127.0.0.1:0'], { env: process.env, stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          readline.createInterface({ input: web.stdout! }).once('line', resolve);
          web.once('exit', (code) => reject(new Error(`askhost web ended (${code})`)));
        });
        assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=./);
        fake.respond = (m) => (m.items.includes('Copy') ? 'Copy' : undefined);
        await fake.commands.get('askhost.showWebUrl')!();
        const shown = fake.messages.find((m) => m.items.includes('Copy'));
        assert.ok(shown, 'a message with a Copy action');
        assert.equal(shown.kind, 'info');
        assert.ok(shown.message.includes(url), `the URL with its token in: ${shown.message}`);
        assert.equal(fake.clipboard, url);
        await nextMessage((m) => m.message === 'The askhost web address is on the clipboard.');
      } finally {
        web.kill('SIGTERM');
        if (web.exitCode === null && web.signalCode === null) await once(web, 'exit');
      }
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  test('Start Agent: an option chosen in the panel reaches the agent; the status bar follows', async () => {
    const agent = await start([{ out: 'agent says hi' }, ask('req-1', [DATABASE]), { recv: 1 }, { sleep: 5 }]);
    const p = await panel();
    assert.equal(p.viewType, 'askhost.questions');
    assert.equal(p.showOptions.preserveFocus, false);
    assert.equal(p.title, `scripted-agent asks: Database`);
    await waitFor('status text', () => status().text === '$(question) 1 question waiting');
    assert.equal(status().visible, true);
    assert.equal(p.view.header, 'Database');
    p.key('2');
    const [r] = await receivedResponse(agent.record);
    assert.deepEqual(r.answers, [
      { question: DATABASE.question, answer: 'SQLite', selectedOption: 'SQLite', wasCustom: false, preview: DATABASE.options[1].preview },
    ]);
    await waitFor('the panel to close', () => p.disposed);
    await waitFor('status idle', () => status().text === '$(comment-discussion) askhost');
    assert.match((api.output as any).text, /agent says hi/);
    assert.deepEqual(context.globalState.get('askhost.recentCommands'), [agent.line]);
  });

  test('Start Agent without a configured command asks for one and remembers it', async () => {
    const agent = scriptedAgent([{ out: 'typed agent ran' }]);
    fake.inputBoxes.push(agent.line);
    await fake.commands.get('askhost.startAgent')!();
    await waitFor('output', () => (api.output as any).text.includes('typed agent ran'));
    assert.equal(fake.quickPickItems.length, 0);
    assert.deepEqual(context.globalState.get('askhost.recentCommands'), [agent.line]);
    // Next time the recent line is offered first.
    await waitFor('the agent to exit', () => (api.output as any).text.includes('the agent exited'));
    fake.quickPicks.push(agent.line);
    await fake.commands.get('askhost.startAgent')!();
    assert.equal(fake.quickPickItems[0][0].label, agent.line);
    assert.equal(fake.quickPickItems[0][0].description, 'recent');
  });

  test('a command line that does not parse is refused before anything runs', async () => {
    fake.inputBoxes.push("agent 'unterminated");
    await fake.commands.get('askhost.startAgent')!();
    const m = await nextMessage((s) => s.kind === 'error');
    assert.match(m.message, /unterminated single quote/);
    assert.equal(api.client, undefined);
  });

  test('Send Prompt: the native protocol has none, so the error is shown', async () => {
    await start([{ sleep: 10 }]);
    fake.inputBoxes.push('set up the project');
    await fake.commands.get('askhost.sendPrompt')!();
    const m = await nextMessage((s) => s.kind === 'error');
    assert.match(m.message, /^askhost: /);
  });

  test('Send Prompt and Stop Agent with no agent say so', async () => {
    await fake.commands.get('askhost.sendPrompt')!();
    await nextMessage((s) => s.kind === 'warning' && /No agent is running/.test(s.message));
    await fake.commands.get('askhost.stopAgent')!();
    await nextMessage((s) => s.kind === 'info' && s.message === 'No agent is running.');
  });

  test('Stop Agent stops it and says how', async () => {
    await start([{ sleep: 30 }]);
    await fake.commands.get('askhost.stopAgent')!();
    await nextMessage((s) => s.kind === 'info' && s.message === 'The agent stopped (signal 15).');
    assert.equal(status().visible, false);
  });

  test('Show Agent Output shows the channel', async () => {
    await fake.commands.get('askhost.showOutput')!();
    assert.equal((api.output as any).shown, 1);
  });

  test('Show Pending Questions: none waiting says so; otherwise it reveals the panel', async () => {
    await fake.commands.get('askhost.showQuestions')!();
    await nextMessage((s) => s.message === 'No questions are waiting.');
    await start([ask('req-1', [SERVICE]), { recv: 1 }]);
    const p = await panel();
    p.visible = false;
    await fake.commands.get('askhost.showQuestions')!();
    assert.equal(p.visible, true);
    assert.deepEqual(p.reveals.at(-1), { preserveFocus: false });
  });

  test('askhost not found: the error names the setting', async () => {
    fake.settings['askhost.path'] = '/nonexistent/askhost';
    fake.quickPicks.push('x');
    fake.settings['askhost.agentCommand'] = 'x';
    await fake.commands.get('askhost.startAgent')!();
    const m = await nextMessage((s) => s.kind === 'error');
    assert.match(m.message, /askhost\.path/);
  });

  test('the timeout setting becomes --timeout: the agent gets timedOut and the panel closes', async () => {
    fake.settings['askhost.timeout'] = 1;
    const agent = await start([ask('req-1', [SERVICE]), { recv: 1 }]);
    const p = await panel();
    const [r] = await receivedResponse(agent.record, 1, 8000);
    assert.equal(r.timedOut, true);
    await waitFor('the panel to close', () => p.disposed);
  });

  test('focusPanel off: the panel opens without taking the focus', async () => {
    fake.settings['askhost.focusPanel'] = false;
    await start([ask('req-1', [SERVICE]), { recv: 1 }]);
    const p = await panel();
    assert.equal(p.showOptions.preserveFocus, true);
  });
});

describe('the panel', () => {
  test('its page has a strict Content-Security-Policy: no inline script, a nonce, no remote sources', async () => {
    await start([ask('req-1', [SERVICE]), { recv: 1 }]);
    const p = await panel();
    const html = p.webview.html;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:\/\/(?!fake)/);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    assert.equal(scripts.length, 1);
    assert.ok(scripts[0].includes(`nonce="${nonce}"`));
    assert.equal(p.webview.options.enableScripts, true);
    assert.ok(fs.existsSync(path.join(EXTENSION_ROOT, 'out', 'web', 'vscode', 'webview', 'panel.js')));
    assert.ok(fs.existsSync(path.join(EXTENSION_ROOT, 'media', 'panel.css')));
  });

  test('clicks, typed text, notes, tabs and Submit: the agent gets every answer', async () => {
    const agent = await start([ask('req-1', [DATABASE, SERVICE, FEATURES]), { recv: 1 }]);
    const p = await panel();
    assert.equal(p.title, 'scripted-agent asks 3 questions');
    assert.equal(p.view.tabs.length, 4);
    p.send({ type: 'row', row: 3 }); // Other
    assert.equal(p.view.editing, true);
    p.send({ type: 'text', q: 0, value: 'DynamoDB' });
    p.send({ type: 'notes', q: 0, value: 'we already run it' });
    p.key('Enter');
    assert.equal(p.view.q, 1);
    p.send({ type: 'text', q: 1, value: 'order-processor' });
    p.key('Enter');
    p.send({ type: 'row', row: 0 });
    p.send({ type: 'row', row: 0 }); // ticked and unticked: Features unanswered again
    p.send({ type: 'tab', index: 3 });
    assert.deepEqual(p.view.unanswered.map((u: any) => u.label), ['Features']);
    p.send({ type: 'submit' });
    assert.equal(p.view.note, 'Answer every question to submit: Features');
    p.send({ type: 'tab', index: 2 });
    p.send({ type: 'row', row: 0 });
    p.send({ type: 'row', row: 2 });
    p.send({ type: 'tab', index: 3 }); // by clicks alone: the ticked boxes are the answer
    assert.equal(p.view.kind, 'review');
    assert.deepEqual(p.view.unanswered, []);
    p.send({ type: 'submit' });
    const [r] = await receivedResponse(agent.record);
    assert.deepEqual(r.answers, [
      { question: DATABASE.question, answer: 'DynamoDB', wasCustom: true, notes: 'we already run it' },
      { question: SERVICE.question, answer: 'order-processor', wasCustom: true },
      { question: FEATURES.question, answer: ['Authentication', 'Admin Dashboard'], wasCustom: false },
    ]);
  });

  test('the page may send rubbish: it is ignored', async () => {
    const agent = await start([ask('req-1', [SERVICE]), { recv: 1 }]);
    const p = await panel();
    for (const m of [null, 42, { type: 'nope' }, { type: 'key' }, { type: 'text', q: 9, value: 'x' }, { type: 'row', row: 'x' }, { type: 'tab', index: -1 }]) {
      p.send(m as any);
    }
    assert.equal(p.disposed, false);
    p.send({ type: 'text', q: 0, value: 'svc' });
    p.key('Enter');
    const [r] = await receivedResponse(agent.record);
    assert.equal(r.answers[0].answer, 'svc');
  });

  test('Esc in the page cancels a single question', async () => {
    const agent = await start([ask('req-1', [DATABASE]), { recv: 1 }]);
    (await panel()).key('Escape');
    const [r] = await receivedResponse(agent.record);
    assert.deepEqual(r, { type: 'ask_user_response', requestId: 'req-1', answered: false, answers: [], cancelled: true });
  });

  test('closing the panel with nothing answered cancels at once', async () => {
    const agent = await start([ask('req-1', [DATABASE, SERVICE]), { recv: 1 }]);
    (await panel()).dispose();
    const [r] = await receivedResponse(agent.record);
    assert.equal(r.cancelled, true);
    assert.equal(fake.messages.filter((m) => m.modal).length, 0);
  });

  test('closing with answers asks "Discard N answers?"; keeping reopens it as it was', async () => {
    const agent = await start([ask('req-1', [DATABASE, SERVICE]), { recv: 1 }]);
    const p = await panel();
    p.key('1');
    p.send({ type: 'text', q: 1, value: 'half typed' });
    fake.respond = () => undefined; // the person dismisses the dialog
    p.dispose();
    const m = await nextMessage((s) => s.modal);
    assert.equal(m.message, 'Discard 1 answer?');
    assert.deepEqual(m.items, ['Discard']);
    const again = await panel(2);
    assert.equal(again.view.q, 1);
    assert.equal(again.view.text, 'half typed');
    assert.equal(again.view.tabs[0].answered, true);
    assert.deepEqual(received(agent.record), []);
    // Now discard for real.
    fake.respond = (s) => (s.modal ? 'Discard' : undefined);
    again.dispose();
    const [r] = await receivedResponse(agent.record);
    assert.deepEqual(r, { type: 'ask_user_response', requestId: 'req-1', answered: false, answers: [], cancelled: true });
  });

  test('an ask the agent withdraws closes the panel ($/cancelRequest); nothing is sent', async () => {
    const agent = await start([ask('req-1', [SERVICE]), { sleep: 0.5 }, { send: { type: 'ask_user_cancel', requestId: 'req-1' } }, { sleep: 1 }]);
    const p = await panel();
    await waitFor('the panel to close', () => p.disposed, 5000);
    await waitFor('status idle', () => !status().text.includes('waiting'));
    assert.deepEqual(received(agent.record), []);
    assert.equal(fake.messages.filter((m) => m.modal).length, 0);
  });

  test('asks arriving together are shown one after another (askhost shows one at a time)', async () => {
    const agent = await start([ask('a', [SERVICE]), ask('b', [DATABASE]), { recv: 2 }]);
    const p = await panel();
    await waitFor('status', () => status().text === '$(question) 2 questions waiting');
    assert.equal(p.view.title, SERVICE.question);
    p.send({ type: 'text', q: 0, value: 'first' });
    p.key('Enter');
    const p2 = await panel(2);
    assert.equal(p2.view.title, DATABASE.question);
    p2.key('3');
    const rs = await receivedResponse(agent.record, 2);
    assert.deepEqual(rs.map((r) => [r.requestId, r.answers[0].answer]), [['a', 'first'], ['b', 'MongoDB']]);
  });

  test('focusPanel off: a notification says a question came; its button focuses the panel', async () => {
    fake.settings['askhost.focusPanel'] = false;
    fake.respond = (s) => (s.items.includes('Answer') ? 'Answer' : undefined);
    await start([ask('a', [DATABASE, SERVICE]), { recv: 1 }]);
    const p = await panel();
    assert.equal(p.showOptions.preserveFocus, true);
    const m = await nextMessage((s) => s.items.includes('Answer'));
    assert.equal(m.message, `scripted-agent asks: ${DATABASE.question} (+1 more)`);
    await waitFor('revealed with the focus', () => p.reveals.some((r) => r.preserveFocus === false));
  });

  test('a question while the person types in an editor: no focus taken, nothing answered; Show Pending Questions focuses it', async () => {
    (vscode.window as any).activeTextEditor = { document: { fileName: 'notes.txt' } };
    const agent = await start([ask('req-1', [DATABASE]), { recv: 1 }, { sleep: 5 }]);
    const p = await panel();
    assert.equal(p.showOptions.preserveFocus, true);
    assert.deepEqual(fake.focusTaken, []);
    const m = await nextMessage((s) => s.items.includes('Answer'));
    assert.equal(m.message, `scripted-agent asks: ${DATABASE.question}`);
    await waitFor('status text', () => status().text === '$(question) 1 question waiting');
    assert.equal(status().command, 'askhost.showQuestions');
    // The question waits: the agent has been sent nothing.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(received(agent.record), []);
    await fake.commands.get('askhost.showQuestions')!();
    assert.deepEqual(p.reveals, [{ preserveFocus: false }]);
    assert.deepEqual(fake.focusTaken, [p]);
    p.key('2');
    const [r] = await receivedResponse(agent.record);
    assert.deepEqual(r.answers.map((a: any) => a.answer), ['SQLite']);
  });

  test('askhost dying closes the panel and says so', async () => {
    await start([ask('req-1', [SERVICE]), { recv: 1 }]);
    const p = await panel();
    process.kill(api.client!.pid!, 'SIGKILL');
    await waitFor('the panel to close', () => p.disposed);
    const m = await nextMessage((s) => s.kind === 'warning' && /askhost exited/.test(s.message));
    assert.match(m.message, /SIGKILL/);
    assert.equal(status().visible, false);
  });

  test('deactivation shuts askhost down and the agent with it', async () => {
    const agent = await start([ask('req-1', [SERVICE]), { recv: 1 }]);
    const p = await panel();
    const client = api.client!;
    await ext.deactivate();
    assert.equal(client.running, false);
    assert.equal(p.disposed, true);
    // The agent never got an answer dressed up as one: it was stopped (or told the editor left).
    const r = received(agent.record);
    assert.ok(r.length === 0 || r[0] === 'EOF' || r[0].answered === false, JSON.stringify(r));
  });
});
