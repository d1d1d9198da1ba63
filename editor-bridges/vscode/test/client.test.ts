// The connection to the real askhost, with the scripted agent: the handshake, a round trip, agent
// output and exit, prompts, stopping, withdrawn asks, and askhost going away.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { AGENT_ERROR, AskhostClient, AskhostError, AskState } from '../src/client';
import type { Outcome } from '../../shared/model';
import { DATABASE, SERVICE, ask, askhostPath, received, receivedResponse, scriptedAgent, waitFor } from './helpers';

const clients: AskhostClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.dispose(2000);
});

function client(onAsk: (p: any, token: any) => Promise<Outcome>, extra: Record<string, any> = {}, args: string[] = []) {
  const events = { states: [] as AskState[], output: '', exits: [] as any[], closed: [] as any[], log: '' };
  const c = new AskhostClient(
    { askhostPath: askhostPath(), args },
    {
      onAsk,
      onState: (s) => events.states.push(s),
      onOutput: (_s, t) => (events.output += t),
      onAgentExit: (e) => events.exits.push(e),
      onClose: (code, signal) => events.closed.push({ code, signal }),
      onLog: (t) => (events.log += t),
      ...extra,
    },
  );
  clients.push(c);
  return { c, events };
}

describe('askhost --stdio', () => {
  test('initialize names the server; a question round trip reaches the agent', async () => {
    const agent = scriptedAgent([ask('req-1', [DATABASE]), { recv: 1 }]);
    let shown: any;
    const { c, events } = client(async (p) => {
      shown = p;
      return { answered: true, answers: [{ question: DATABASE.question, answer: 'SQLite', selectedOption: 'SQLite', wasCustom: false }] };
    });
    await c.start();
    assert.equal(c.serverInfo?.name, 'askhost');
    const { pid } = await c.startAgent(agent.argv);
    assert.ok(pid > 0);
    const [r] = await receivedResponse(agent.record);
    assert.equal(shown.questions[0].question, DATABASE.question);
    assert.equal(shown.questions[0].options[1].preview, DATABASE.options[1].preview);
    assert.ok(typeof shown.id === 'string' && shown.id.length > 0);
    assert.equal(r.requestId, 'req-1');
    assert.equal(r.answered, true);
    assert.equal(r.answers[0].answer, 'SQLite');
    await waitFor('agent/exit', () => events.exits.length === 1);
    assert.deepEqual(events.exits[0], { exitCode: 0, signal: null });
    assert.ok(events.states.some((s) => s.state === 'waiting' && s.pending.length === 1));
    assert.equal(events.states.at(-1)?.state, 'idle');
  });

  test('agent output arrives as agent/output', async () => {
    const agent = scriptedAgent([{ out: 'hello from the agent' }, { err: 'and from stderr' }]);
    const { c, events } = client(async () => ({ answered: false, cancelled: true }));
    await c.start();
    await c.startAgent(agent.argv);
    await waitFor('output', () => events.output.includes('hello from the agent') && events.output.includes('and from stderr'));
  });

  test('a cancel is passed to the agent as cancelled, never as an answer', async () => {
    const agent = scriptedAgent([ask('req-1', [SERVICE]), { recv: 1 }]);
    const { c } = client(async () => ({ answered: false, cancelled: true }));
    await c.start();
    await c.startAgent(agent.argv);
    const [r] = await receivedResponse(agent.record);
    assert.deepEqual(r, { type: 'ask_user_response', requestId: 'req-1', answered: false, answers: [], cancelled: true });
  });

  test('an ask the agent withdraws fires the cancellation token ($/cancelRequest)', async () => {
    const agent = scriptedAgent([ask('req-1', [SERVICE]), { sleep: 0.3 }, { send: { type: 'ask_user_cancel', requestId: 'req-1' } }, { sleep: 0.5 }]);
    let cancelled = false;
    const { c } = client(
      (_p, token) =>
        new Promise((resolve) => {
          token.onCancellationRequested(() => {
            cancelled = true;
            resolve({ answered: false, cancelled: true, reason: 'withdrawn' });
          });
        }),
    );
    await c.start();
    await c.startAgent(agent.argv);
    await waitFor('the cancellation', () => cancelled);
    assert.deepEqual(received(agent.record), []);
  });

  test('the native protocol has no conversation: agent/prompt is refused with -32001', async () => {
    const agent = scriptedAgent([{ sleep: 5 }]);
    const { c } = client(async () => ({ answered: false, cancelled: true }));
    await c.start();
    await c.startAgent(agent.argv);
    await assert.rejects(c.prompt('hi'), (e: AskhostError) => e.code === AGENT_ERROR);
  });

  test('agent/stop ends the agent with SIGTERM', async () => {
    const agent = scriptedAgent([{ sleep: 30 }]);
    const { c } = client(async () => ({ answered: false, cancelled: true }));
    await c.start();
    await c.startAgent(agent.argv);
    const r = await c.stopAgent();
    assert.deepEqual(r, { exitCode: null, signal: 15 });
  });

  test('a command that cannot run is an error naming it', async () => {
    const { c } = client(async () => ({ answered: false, cancelled: true }));
    await c.start();
    await assert.rejects(c.startAgent(['/nonexistent/agent']), (e: AskhostError) => e.code === AGENT_ERROR && /nonexistent/.test(e.message));
  });

  test('a second agent may start after the first exits', async () => {
    const a1 = scriptedAgent([{ exit: 0 }]);
    const a2 = scriptedAgent([ask('r', [SERVICE]), { recv: 1 }]);
    const { c, events } = client(async () => ({ answered: true, answers: [{ question: SERVICE.question, answer: 'svc', wasCustom: true }] }));
    await c.start();
    await c.startAgent(a1.argv);
    await waitFor('first exit', () => events.exits.length === 1);
    await c.startAgent(a2.argv);
    const [r] = await receivedResponse(a2.record);
    assert.equal(r.answers[0].answer, 'svc');
  });

  test('--timeout: an unanswered question times out and the token fires', async () => {
    const agent = scriptedAgent([ask('req-1', [SERVICE]), { recv: 1 }]);
    let withdrawn = false;
    const { c } = client(
      (_p, token) => new Promise((resolve) => token.onCancellationRequested(() => {
        withdrawn = true;
        resolve({ answered: false, cancelled: true });
      })),
      {},
      ['--timeout', '1'],
    );
    await c.start();
    await c.startAgent(agent.argv);
    const [r] = await receivedResponse(agent.record, 1, 8000);
    assert.equal(r.timedOut, true);
    assert.equal(r.answered, false);
    await waitFor('the withdrawal', () => withdrawn);
  });

  test('dispose: shutdown and exit stop the agent and askhost', async () => {
    const agent = scriptedAgent([{ sleep: 30 }]);
    const { c, events } = client(async () => ({ answered: false, cancelled: true }));
    await c.start();
    await c.startAgent(agent.argv);
    await c.dispose();
    assert.equal(c.running, false);
    assert.deepEqual(events.closed, [{ code: 0, signal: null }]);
  });

  test('a missing askhost is a clear error', async () => {
    const c = new AskhostClient({ askhostPath: '/nonexistent/askhost' }, { onAsk: async () => ({ answered: false, cancelled: true }) });
    await assert.rejects(c.start(), /cannot run askhost \(\/nonexistent\/askhost\)/);
  });
});
