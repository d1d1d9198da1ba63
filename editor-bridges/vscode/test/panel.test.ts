// The question panel on its own (no askhost): several asks in its queue, a hidden panel, withdrawals.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { FakeWebviewPanel, EventEmitter, fake, install, nextMessage } from './fake-vscode';
import { DATABASE, EXTENSION_ROOT, SERVICE } from './helpers';

install();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { QuestionPanel } = require('../src/panel') as typeof import('../src/panel');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const vscode = require('vscode');

function token() {
  const e = new EventEmitter<void>();
  const t = { isCancellationRequested: false, onCancellationRequested: e.event };
  return { t, cancel: () => ((t.isCancellationRequested = true), e.fire()) };
}

let focus = true;
let qp: InstanceType<typeof QuestionPanel>;
beforeEach(() => {
  fake.reset();
  focus = true;
  qp = new QuestionPanel({ extensionUri: vscode.Uri.file(EXTENSION_ROOT), focus: () => focus });
});

const current = () => fake.panels.at(-1) as FakeWebviewPanel;

describe('QuestionPanel', () => {
  test('a second ask waits behind the first; the view says how many', async () => {
    const a = qp.show({ id: 'a', questions: [SERVICE], agent: 'x' });
    const b = qp.show({ id: 'b', questions: [DATABASE], agent: 'x' });
    assert.equal(fake.panels.length, 1);
    assert.equal(qp.pendingCount, 2);
    assert.deepEqual(current().view.queue, { index: 0, count: 2 });
    current().send({ type: 'text', q: 0, value: 'svc' });
    current().key('Enter');
    assert.equal((await a).answered, true);
    assert.equal(current().disposed, false);
    assert.equal(current().view.title, DATABASE.question);
    current().key('Escape');
    assert.deepEqual(await b, { answered: false, cancelled: true });
    assert.equal(current().disposed, true);
  });

  test('a question arriving while the panel is hidden brings a notification', async () => {
    void qp.show({ id: 'a', questions: [SERVICE], agent: 'x' });
    current().visible = false;
    fake.respond = (s) => (s.items.includes('Answer') ? 'Answer' : undefined);
    void qp.show({ id: 'b', questions: [DATABASE], agent: 'bot' });
    const m = await nextMessage((s) => s.items.includes('Answer'));
    assert.equal(m.message, `bot asks: ${DATABASE.question}`);
    assert.equal(current().visible, true);
  });

  test('withdrawing a waiting ask leaves the shown one alone; withdrawing the shown one shows the next', async () => {
    const ta = token();
    const tb = token();
    const a = qp.show({ id: 'a', questions: [SERVICE], agent: 'x' }, ta.t);
    const b = qp.show({ id: 'b', questions: [DATABASE], agent: 'x' }, tb.t);
    tb.cancel();
    assert.deepEqual(await b, { answered: false, cancelled: true, reason: 'withdrawn' });
    assert.equal(current().view.title, SERVICE.question);
    assert.equal(current().view.queue.count, 1);
    ta.cancel();
    assert.equal((await a).answered, false);
    assert.equal(current().disposed, true);
    assert.equal(fake.messages.length, 0);
  });

  test('an ask already withdrawn when it arrives is never shown', async () => {
    const t = token();
    t.cancel();
    const r = await qp.show({ id: 'a', questions: [SERVICE], agent: 'x' }, t.t);
    assert.equal(r.answered, false);
    assert.equal(fake.panels.length, 0);
  });

  test('an ask with no questions is cancelled, not shown', async () => {
    const r = await qp.show({ id: 'a', questions: [], agent: 'x' });
    assert.equal(r.answered, false);
    assert.equal(fake.panels.length, 0);
  });

  test('the page asking again (ready) gets the current view again', () => {
    void qp.show({ id: 'a', questions: [SERVICE], agent: 'x' });
    const n = current().posted.length;
    current().send({ type: 'ready' });
    assert.equal(current().posted.length, n + 1);
  });

  test('clear() ends every ask as cancelled and closes the panel without asking', async () => {
    const a = qp.show({ id: 'a', questions: [DATABASE, SERVICE], agent: 'x' });
    current().key('1');
    qp.clear('askhost exited');
    assert.deepEqual(await a, { answered: false, cancelled: true, reason: 'askhost exited' });
    assert.equal(current().disposed, true);
    assert.equal(fake.messages.length, 0);
  });
});
