// The Web Push messages' vectors (tests/web/push_messages.json) replayed against the page's service
// worker: host/web/page/dist/sw.js, the very file askhost web serves (built from
// host/web/page/src/sw.ts), run as a classic script in a context of its own with the worker's
// registration and clients stood in for. Each message reads as the vector says (a refused one not
// at all), and delivered as a push it shows that notification, or closes it. A subscription the
// browser replaced goes to the server over a WebSocket the test plays. askhost web's side
// replays the same file in tests/unit/test_push_messages.cpp.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SW = path.resolve(HERE, '..', '..', 'host', 'web', 'page', 'dist', 'sw.js');
const vectors = JSON.parse(fs.readFileSync(path.join(HERE, 'push_messages.json'), 'utf8'));

/** A worker's global scope with what sw.js touches on a push: its listeners, the notifications
 *  shown (and closed), and Notification.maxActions. */
function workerScope(maxActions, { WebSocket, pushManager } = {}) {
  const listeners = {};
  const shown = [];
  const registration = {
    scope: 'https://127.0.0.1:8080/',
    pushManager,
    // As a browser: a notification replaces the one on show with its tag.
    showNotification: async (title, options) => {
      for (const n of shown) if (n.options.tag === options.tag) n.replaced = true;
      shown.push({ title, options, closed: false });
    },
    getNotifications: async ({ tag } = {}) =>
      shown
        .filter((n) => (tag === undefined || n.options.tag === tag) && !n.closed && !n.replaced)
        .map((n) => ({ tag: n.options.tag, title: n.title, body: n.options.body, data: n.options.data, close: () => (n.closed = true) })),
  };
  const self = {
    registration,
    clients: { matchAll: async () => [], openWindow: async () => undefined },
    skipWaiting: async () => undefined,
    addEventListener: (type, f) => (listeners[type] = f),
    Notification: maxActions === undefined ? undefined : { maxActions },
  };
  const context = vm.createContext({ self, URL, setTimeout, clearTimeout, console, WebSocket });
  vm.runInContext(fs.readFileSync(SW, 'utf8'), context, { filename: SW });
  /** A push event with `data` (null: none), as the browser gives it, run to its end. */
  const pushData = async (data) => {
    const waits = [];
    listeners.push({ data, waitUntil: (p) => waits.push(p) });
    await Promise.all(waits);
  };
  /** The push event of `message` (its data's json()). */
  const push = (message) => pushData({ json: () => message });
  /** The browser's pushsubscriptionchange, run to its end: what the worker's waitUntil gave. */
  const subscriptionChange = async (oldSubscription, newSubscription) => {
    const waits = [];
    listeners.pushsubscriptionchange({ oldSubscription, newSubscription, waitUntil: (p) => waits.push(p) });
    return (await Promise.all(waits))[0];
  };
  return { context, shown, push, pushData, subscriptionChange };
}

/** askhost web's side of the worker's WebSocket, as the class the worker constructs: each socket
 *  gets the snapshot once open, and a reply to each push-subscribe (`ok`) and push-unsubscribe;
 *  `refuse` makes every socket fail at once, as without a session. What each sent is kept. */
function serverSockets({ ok = true, refuse = false } = {}) {
  const opened = [];
  class ServerSocket {
    constructor(url) {
      this.url = url;
      this.sent = [];
      this.listeners = {};
      opened.push(this);
      setTimeout(() => (refuse ? this.emit('error', {}) : this.serve({ type: 'snapshot', server: 'run-1', asks: [] })));
    }
    addEventListener(type, f) {
      (this.listeners[type] ??= []).push(f);
    }
    emit(type, e) {
      for (const f of this.listeners[type] ?? []) f(e);
    }
    serve(m) {
      this.emit('message', { data: JSON.stringify(m) });
    }
    send(text) {
      const m = JSON.parse(text);
      this.sent.push(m);
      if (m.type === 'push-subscribe') setTimeout(() => this.serve({ type: 'push-subscribed', ok, ...(ok ? {} : { error: 'no' }) }));
      if (m.type === 'push-unsubscribe') setTimeout(() => this.serve({ type: 'push-unsubscribed', ok: true }));
    }
    close() {
      this.closed = true;
    }
  }
  return { ServerSocket, opened };
}

/** A PushSubscription as the browser gives it (its toJSON()). */
function subscription(endpoint, key) {
  const json = { endpoint, expirationTime: null, keys: { p256dh: 'BPUB', auth: 'AUTH' } };
  return { endpoint, options: { userVisibleOnly: true, applicationServerKey: key }, toJSON: () => json };
}

const worker = workerScope();
const read = (m) => {
  const out = worker.context.readPushMessage(m);
  // The worker's own objects, compared as data.
  return out === undefined ? undefined : JSON.parse(JSON.stringify(out));
};

describe('push message vectors (tests/web/push_messages.json) in the service worker (host/web/page/dist/sw.js)', () => {
  for (const c of vectors.push) {
    test(`push: ${c.about}`, () => assert.deepEqual(read(c.message), c.message));
  }
  for (const c of vectors.lenient) {
    test(`lenient: ${c.about}`, () => assert.deepEqual(read(c.message), c.reads_as));
  }
  for (const c of vectors.refused) {
    test(`refused: ${c.about}`, () => assert.equal(read(c.message), undefined));
  }

  test('each ask shows its notification: title (or askhost), body, tag, every action, and what a tap needs', async () => {
    for (const c of [...vectors.push, ...vectors.lenient.map((l) => ({ about: l.about, message: l.reads_as }))]) {
      const m = c.message;
      if (m.type !== 'ask') continue;
      const w = workerScope();
      await w.push(m);
      assert.equal(w.shown.length, 1, c.about);
      const { title, options } = JSON.parse(JSON.stringify(w.shown[0]));
      assert.equal(title, m.title || 'askhost', c.about);
      assert.equal(options.body, m.body, c.about);
      assert.equal(options.tag, m.tag, c.about);
      assert.equal(options.requireInteraction, true, c.about);
      const actions = m.actions ?? [];
      assert.deepEqual(options.actions, actions.map((a) => ({ action: a.action, title: a.title })), c.about);
      assert.deepEqual(options.data, { key: m.tag, server: m.server, ...(m.keys ? { keys: m.keys } : {}), actions }, c.about);
    }
  });

  test('no more actions than the browser shows: every answer or none, those that open the page left out first', async () => {
    const [question, permission] = vectors.push.map((c) => c.message);
    const three = { ...question, actions: [...question.actions, { action: '2', title: 'MySQL' }] };
    const always = { ...permission, actions: [...permission.actions, { action: '2', title: 'Always allow this tool', open: true }] };
    const cases = [
      [undefined, three, ['PostgreSQL', 'SQLite', 'MySQL']],
      [3, three, ['PostgreSQL', 'SQLite', 'MySQL']],
      [2, three, []], // Chrome's most: two of three options would be a choice among two
      [1, question, []],
      [2, always, ['Allow', 'Deny']], // Always allow opens the page, as a tap does
      [1, always, ['Deny']],
      [0, always, []],
    ];
    for (const [max, m, titles] of cases) {
      const w = workerScope(max);
      await w.push(m);
      const options = JSON.parse(JSON.stringify(w.shown[0].options)); // the worker's objects, as data
      assert.deepEqual(options.actions.map((a) => a.title), titles, `at most ${max}: ${JSON.stringify(m.actions)}`);
      // What a tap needs keeps every action: the button's id names its option still.
      assert.deepEqual(options.data.actions, m.actions);
    }
  });

  test('a close takes away the notification of its tag, and no other', async () => {
    const w = workerScope();
    const [full, permission] = vectors.push;
    await w.push(full.message);
    await w.push(permission.message);
    await w.push(vectors.push.find((c) => c.message.type === 'close').message);
    assert.deepEqual(
      w.shown.map((n) => [n.options.tag, n.closed]),
      [
        ['4242:ask-1', true],
        ['77:ask-3', false],
      ],
    );
  });

  test('a subscription the browser replaced goes to the server, and the old one is let go', async () => {
    const key = new Uint8Array([4, 1, 2]).buffer;
    const old = subscription('https://push.example.net/old', key);
    // The browser gives the new one.
    let server = serverSockets();
    let w = workerScope(undefined, { WebSocket: server.ServerSocket });
    assert.equal(await w.subscriptionChange(old, subscription('https://push.example.net/new', key)), true);
    assert.equal(server.opened.length, 1);
    assert.equal(server.opened[0].url, 'wss://127.0.0.1:8080/ws');
    assert.deepEqual(server.opened[0].sent, [
      { type: 'push-subscribe', subscription: { endpoint: 'https://push.example.net/new', expirationTime: null, keys: { p256dh: 'BPUB', auth: 'AUTH' } } },
      { type: 'push-unsubscribe', endpoint: 'https://push.example.net/old' },
    ]);
    assert.equal(server.opened[0].closed, true);
    // It gives none: the worker subscribes again with the old one's key.
    const asked = [];
    const pushManager = { subscribe: async (o) => (asked.push(o), subscription('https://push.example.net/again', o.applicationServerKey)) };
    server = serverSockets();
    w = workerScope(undefined, { WebSocket: server.ServerSocket, pushManager });
    assert.equal(await w.subscriptionChange(old, null), true);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].userVisibleOnly, true);
    assert.equal(asked[0].applicationServerKey, key);
    assert.deepEqual(
      server.opened[0].sent.map((m) => [m.type, m.subscription?.endpoint ?? m.endpoint]),
      [
        ['push-subscribe', 'https://push.example.net/again'],
        ['push-unsubscribe', 'https://push.example.net/old'],
      ],
    );
    // Signed out (the socket refused), or the server refusing the subscription: false, nothing thrown.
    server = serverSockets({ refuse: true });
    w = workerScope(undefined, { WebSocket: server.ServerSocket });
    assert.equal(await w.subscriptionChange(old, subscription('https://push.example.net/new', key)), false);
    assert.deepEqual(server.opened[0].sent, []);
    server = serverSockets({ ok: false });
    w = workerScope(undefined, { WebSocket: server.ServerSocket });
    assert.equal(await w.subscriptionChange(null, subscription('https://push.example.net/new', key)), false);
  });

  test('a message that tells nothing new replaces its notification without a sound; one that does alerts', async () => {
    const [question, permission] = vectors.push.map((c) => c.message);
    const burst = vectors.push.find((c) => c.made === 'burst').message;
    /** How the last notification shown was told: [tag, renotify, silent]. */
    const told = (w) => {
      const { options } = w.shown[w.shown.length - 1];
      return [options.tag, options.renotify, options.silent];
    };
    const alerts = (tag) => [tag, true, false];
    const quietly = (tag) => [tag, false, true];
    let w = workerScope();
    await w.push(question);
    assert.deepEqual(told(w), alerts('4242:ask-1'));
    // askhost web started again: the same question from a new run, the same words.
    await w.push({ ...question, server: 'run-2' });
    assert.deepEqual(told(w), quietly('4242:ask-1'));
    assert.equal(w.shown.at(-1).options.data.server, 'run-2', 'the new run answers its actions');
    // What it says changed (web-push set to who): it alerts again.
    await w.push(vectors.push.find((c) => c.made === 'who').message);
    assert.deepEqual(told(w), alerts('4242:ask-1'));
    // A burst alerts while one of its questions has no notification on show...
    await w.push(burst);
    assert.deepEqual(told(w), alerts('askhost-burst'));
    // ...not when each has, its own or the burst's that named it.
    w = workerScope();
    await w.push(question);
    await w.push(permission);
    await w.push(burst);
    assert.deepEqual(told(w), quietly('askhost-burst'));
    w = workerScope();
    await w.push(burst);
    assert.deepEqual(told(w), alerts('askhost-burst'));
    await w.push({ ...burst, title: '1 question waiting', body: 'claude · hook: Bash: rm -rf build', keys: ['77:ask-3'] });
    assert.deepEqual(told(w), quietly('askhost-burst'));
    // A question closed and asked again (a new key each time in askhost, but the worker does not
    // count on it): nothing of it is on show, so it alerts.
    w = workerScope();
    await w.push(question);
    await w.push(vectors.push.find((c) => c.made === 'close').message);
    await w.push(question);
    assert.deepEqual(told(w), alerts('4242:ask-1'));
  });

  test('a refused message, or data that is no JSON, shows nothing', async () => {
    const w = workerScope();
    for (const c of vectors.refused) await w.push(c.message);
    await w.pushData(null);
    await w.pushData({ json: () => JSON.parse('{"type":') });
    assert.equal(w.shown.length, 0);
  });
});
