// The service worker of askhost web's page. It caches nothing and handles no request. It shows
// notifications: the page's own (Chrome on Android shows them from a service worker alone: new
// Notification() throws there) and Web Push's (issue 44), which reach it with the page closed.
// A push message is a PushMessage (below; askhost web's side is host/web/web_push_message.hpp,
// and tests/web/push_messages.json holds the two to the same messages). A tap opens the page on
// that question; an action answers it over the page's own WebSocket, as the page would, unless it
// must be asked once more on the page (a permission's Allow). A push subscription the browser
// replaced goes to the server the same way.
//
// A classic script, not a module (browsers took module service workers late: Firefox in 147), so
// it imports nothing: the page protocol's types come by `import()` types, which leave it a script.
// build.mjs compiles it by tsconfig.sw.json (the worker's own lib) into dist/sw.js.

type Answer = import('./protocol.js').Answer;
type OpenQuestion = import('./protocol.js').OpenQuestion;
type PageMessage = import('./protocol.js').PageMessage;

// ------------------------------------------------------------------ what a push says

/** A notification's button: option `action` (its index) of the question, titled by its label;
 *  `open` when it must not be picked from a notification (a permission's allow: the page asks
 *  once more). */
interface PushAction {
  action: string;
  title: string;
  open?: true;
}

/** A question (tag: its key) or a burst of them (tag: "askhost-burst", keys: theirs) to notify
 *  of, from the run `server` of askhost web. */
interface PushAsk {
  type: 'ask';
  tag: string;
  server: string;
  title: string;
  body: string;
  actions?: PushAction[];
  keys?: string[];
}

/** The notification of `tag` is taken away: its question was answered or withdrawn. */
interface PushClose {
  type: 'close';
  tag: string;
}

type PushMessage = PushAsk | PushClose;

type Fields = Record<string, unknown>;

function isFields(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Absent or of another type reads as the default (as askhost web's `lenient` fields). */
function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function readAction(v: unknown): PushAction | undefined {
  if (!isFields(v) || typeof v.action !== 'string' || typeof v.title !== 'string') return undefined;
  const a: PushAction = { action: v.action, title: v.title };
  if (v.open === true) a.open = true;
  return a;
}

/** A list of T, or undefined when it is none or an item is not a T. */
function listOf<T>(v: unknown, read: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out = v.map(read);
  return out.every((x) => x !== undefined) ? (out as T[]) : undefined;
}

/** A push message as askhost web's from_json reads it (tests/web/push_messages.json): undefined
 *  when it is none (no tag, another type), and shown with what it has otherwise. */
function readPushMessage(v: unknown): PushMessage | undefined {
  if (!isFields(v) || typeof v.tag !== 'string') return undefined;
  if (v.type === 'close') return { type: 'close', tag: v.tag };
  if (v.type !== 'ask') return undefined;
  const m: PushAsk = { type: 'ask', tag: v.tag, server: text(v.server), title: text(v.title), body: text(v.body) };
  const actions = listOf(v.actions, readAction);
  if (actions) m.actions = actions;
  const keys = listOf(v.keys, (k) => (typeof k === 'string' ? k : undefined));
  if (keys) m.keys = keys;
  return m;
}

// ------------------------------------------------------------------ the worker

const worker = self as unknown as ServiceWorkerGlobalScope;

/** What a notification carries for its tap: its question, the run that sent it, its actions. */
interface NotificationData {
  key: string;
  server: string;
  keys?: string[];
  actions: PushAction[];
}

// A new version takes over at once: one that cannot show a push message must not linger.
worker.addEventListener('install', () => void worker.skipWaiting());

/** The page, opened on question `key` when one is given. */
function pageUrl(key: string | undefined): string {
  const u = new URL('./', worker.registration.scope);
  if (key) u.hash = 'ask=' + encodeURIComponent(key);
  return u.href;
}

/** A page of ours already open is shown and told which question; else one is opened on it. */
async function openPage(key: string | undefined): Promise<unknown> {
  const pages = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const page = pages[0] as WindowClient | undefined;
  if (!page) return worker.clients.openWindow(pageUrl(key));
  if (key) page.postMessage({ type: 'open', key } satisfies OpenQuestion);
  // Focus is the browser's to allow (a tap on the notification does): the page has the message either way.
  return page.focus().catch(() => page);
}

/** Notification.maxActions, where the browser says it (a static the worker's lib does not type). */
function maxActions(): number | undefined {
  const n = (worker as unknown as { Notification?: { maxActions?: number } }).Notification;
  return n?.maxActions;
}

/** The actions a notification shows, when the browser shows at most `max`: every answer among
 *  them or none. Past `max`, those that only open the page (a permission's Allow) go first, the
 *  last first; if an answer would still be left out, none at all (buttons for some of a
 *  question's options would offer a choice among those alone), and a tap opens the page. */
function fitActions(actions: PushAction[], max: number | undefined): PushAction[] {
  if (max === undefined || actions.length <= max) return actions;
  const out = [...actions];
  for (let i = out.length - 1; i >= 0 && out.length > max; i--) if (out[i].open) out.splice(i, 1);
  return out.length <= max ? out : [];
}

/** Whether all that ask `m` would show (titled `title`) is on show already, in `shown`: its
 *  question's notification with the same words, or, for a burst, one for each of its questions
 *  (each one's own, or a burst's that named it). askhost web tells each waiting question anew
 *  when it starts again, and a push service may deliver a message twice: the device alerts once
 *  for a question, and again only when what it says has changed (a burst that grew). */
function onShow(m: PushAsk, title: string, shown: readonly Notification[]): boolean {
  if (shown.some((n) => n.tag === m.tag && n.title === title && n.body === m.body)) return true;
  if (!m.keys?.length) return false;
  const told = new Set<string>();
  for (const n of shown) {
    told.add(n.tag);
    const data: unknown = n.data;
    const keys = isFields(data) && Array.isArray(data.keys) ? data.keys : [];
    for (const k of keys) if (typeof k === 'string') told.add(k);
  }
  return m.keys.every((k) => told.has(k));
}

async function onPush(m: PushMessage | undefined): Promise<void> {
  if (!m) return;
  if (m.type === 'close') {
    for (const n of await worker.registration.getNotifications({ tag: m.tag })) n.close();
    return;
  }
  const title = m.title || 'askhost';
  const quiet = onShow(m, title, await worker.registration.getNotifications());
  const actions = m.actions ?? [];
  const data: NotificationData = { key: m.tag, server: m.server, keys: m.keys, actions };
  // `actions` and `renotify` are not in every lib's NotificationOptions yet. A message that tells
  // nothing new replaces its notification (for the new run's actions) without a sound.
  const options: NotificationOptions & { actions: { action: string; title: string }[]; renotify: boolean } = {
    body: m.body,
    tag: m.tag,
    renotify: !quiet,
    silent: quiet,
    requireInteraction: true,
    icon: 'icon-192.png',
    badge: 'icon-192.png',
    data,
    actions: fitActions(actions, maxActions()).map((a) => ({ action: a.action, title: a.title })),
  };
  await worker.registration.showNotification(title, options);
}

worker.addEventListener('push', (event) => {
  let m: PushMessage | undefined;
  try {
    m = event.data ? readPushMessage(event.data.json()) : undefined;
  } catch {
    m = undefined;
  }
  event.waitUntil(onPush(m));
});

/** Option `index` of the only question of `v`, an ask of the snapshot, as the answer the page
 *  would send; undefined when there is no such option or it is not one to pick alone. */
function optionAnswer(v: unknown, index: number): Answer['outcome'] | undefined {
  const ask = isFields(v) ? v : {};
  const qs = ask.questions;
  const q = Array.isArray(qs) && qs.length === 1 && isFields(qs[0]) ? qs[0] : undefined;
  const option = q && Array.isArray(q.options) ? (q.options as unknown[])[index] : undefined;
  if (!q || q.multiSelect === true || !isFields(option) || typeof option.label !== 'string') return undefined;
  const answer: Fields = { question: q.question, answer: option.label, selectedOption: option.label, wasCustom: false };
  if (typeof option.preview === 'string') answer.preview = option.preview;
  return { answered: true, answers: [answer] };
}

/** A WebSocket of the worker's own to the page's server (with the cookie the browser holds), for
 *  as long as `heard` keeps it: each message from the server goes to `heard`, which may send and
 *  calls `end` with the outcome. Resolves with it; false when the socket fails or closes first
 *  (offline, signed out) or nothing ends it within 15 s. */
function overSocket(heard: (m: Fields, send: (m: PageMessage) => void, end: (ok: boolean) => void) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const u = new URL('ws', worker.registration.scope);
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    let sock: WebSocket;
    try {
      sock = new WebSocket(u.href);
    } catch {
      resolve(false);
      return;
    }
    let done = false;
    const end = (ok: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        sock.close();
      } catch {
        // closed already
      }
      resolve(ok);
    };
    const timer = setTimeout(() => end(false), 15000);
    sock.addEventListener('error', () => end(false));
    sock.addEventListener('close', () => end(false));
    sock.addEventListener('message', (ev: MessageEvent) => {
      let m: unknown;
      try {
        m = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (isFields(m)) heard(m, (out) => sock.send(JSON.stringify(out)), end);
    });
  });
}

/** The answer of option `index` of the question `key`, sent as the page sends it. Resolves true
 *  once the server took it; false when it could not (offline, signed out, another server, the
 *  question gone or changed), and the page then says why. */
function answerOver(key: string, server: string, index: number): Promise<boolean> {
  return overSocket((m, send, end) => {
    if (m.type === 'snapshot') {
      // Only the server that sent the notification hears an answer (as the page checks its own).
      const asks = m.server === server && Array.isArray(m.asks) ? (m.asks as unknown[]) : [];
      const outcome = optionAnswer(
        asks.find((a) => isFields(a) && a.key === key),
        index,
      );
      if (!outcome) return end(false);
      send({ type: 'answer', key, outcome } satisfies Answer);
    } else if (m.type === 'result' && m.key === key) {
      end(m.ok === true);
    }
  });
}

/** The browser replaced this device's push subscription (its push service renewed or expired it;
 *  Firefox says so, Chrome does not): the new one, made again with the old one's key when the
 *  browser gives none, goes to the server as the page sends it, and the old one is let go there.
 *  With no session (signed out, offline) nothing is sent: the page sends it when next opened.
 *  Resolves true once the server took the new one. */
async function onSubscriptionChange(old: PushSubscription | null, fresh: PushSubscription | null): Promise<boolean> {
  let sub = fresh;
  const key = old?.options.applicationServerKey;
  if (!sub && key) {
    try {
      sub = await worker.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch {
      sub = null;
    }
  }
  const out: PageMessage[] = [];
  if (sub) out.push({ type: 'push-subscribe', subscription: sub.toJSON() });
  if (old && old.endpoint !== sub?.endpoint) out.push({ type: 'push-unsubscribe', endpoint: old.endpoint });
  if (out.length === 0) return false;
  const last = out[out.length - 1].type === 'push-subscribe' ? 'push-subscribed' : 'push-unsubscribed';
  let took = !sub;
  return overSocket((m, send, end) => {
    if (m.type === 'snapshot') for (const message of out) send(message);
    else if (m.type === 'push-subscribed') took = m.ok === true;
    if (m.type === last) end(took);
  });
}

worker.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(onSubscriptionChange(event.oldSubscription, event.newSubscription));
});

/** A tap on a notification (`action` empty) or on one of its actions. */
async function onClick(notification: Notification, action: string): Promise<unknown> {
  notification.close();
  const data: Partial<NotificationData> = isFields(notification.data) ? notification.data : {};
  // The page's own notifications carry their question's key as their tag alone.
  const tag = typeof data.key === 'string' ? data.key : notification.tag;
  const key = tag && tag !== 'askhost-burst' ? tag : undefined;
  const picked = action && Array.isArray(data.actions) ? data.actions.find((a) => a.action === action) : undefined;
  if (!key || !picked || picked.open) return openPage(key);
  if (await answerOver(key, text(data.server), Number(picked.action))) return undefined;
  return openPage(key);
}

worker.addEventListener('notificationclick', (event) => {
  event.waitUntil(onClick(event.notification, event.action));
});
