// The service worker of askhost web's page. It caches nothing and handles no request. It shows
// notifications: the page's own (Chrome on Android shows them from a service worker alone: new
// Notification() throws there) and Web Push's (issue 44), which reach it with the page closed.
// A push message is JSON (host/web/web_push_message.cpp): {type:"ask", tag, server, title, body,
// actions?} shows a notification, {type:"close", tag} takes it away (answered or withdrawn). A tap
// opens the page on that question; an action answers it over the page's own WebSocket, as the page
// would, unless it must be asked once more on the page (a permission's Allow).
'use strict';

// A new version takes over at once: one that cannot show a push message must not linger.
self.addEventListener('install', () => self.skipWaiting());

/** The page, opened on question `key` when one is given. */
function pageUrl(key) {
  const u = new self.URL('./', self.registration.scope);
  if (key) u.hash = 'ask=' + encodeURIComponent(key);
  return u.href;
}

/** A page of ours already open is shown and told which question; else one is opened on it. */
async function openPage(key) {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const page = pages[0];
  if (!page) return self.clients.openWindow(pageUrl(key));
  if (key) page.postMessage({ type: 'open', key });
  // Focus is the browser's to allow (a tap on the notification does): the page has the message either way.
  return page.focus().catch(() => page);
}

async function onPush(m) {
  if (!m || typeof m !== 'object' || typeof m.tag !== 'string') return;
  if (m.type === 'close') {
    const shown = await self.registration.getNotifications({ tag: m.tag });
    for (const n of shown) n.close();
    return;
  }
  if (m.type !== 'ask') return;
  const actions = Array.isArray(m.actions) ? m.actions : [];
  const max = self.Notification && self.Notification.maxActions !== undefined ? self.Notification.maxActions : actions.length;
  await self.registration.showNotification(String(m.title || 'askhost'), {
    body: String(m.body || ''),
    tag: m.tag,
    renotify: true,
    requireInteraction: true,
    icon: 'icon-192.png',
    badge: 'icon-192.png',
    data: { key: m.tag, server: m.server, keys: m.keys, actions },
    actions: actions.slice(0, max).map((a) => ({ action: String(a.action), title: String(a.title) })),
  });
}

self.addEventListener('push', (event) => {
  let m = null;
  try {
    m = event.data ? event.data.json() : null;
  } catch {
    m = null;
  }
  event.waitUntil(onPush(m));
});

/** The answer of option `index` of the question `key`, sent as the page sends it. Resolves true
 *  once the server took it; false when it could not (offline, signed out, another server, the
 *  question gone or changed), and the page then says why. */
function answerOver(key, server, index) {
  return new Promise((resolve) => {
    const u = new self.URL('ws', self.registration.scope);
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    let sock;
    try {
      sock = new self.WebSocket(u.href);
    } catch {
      resolve(false);
      return;
    }
    let done = false;
    const end = (ok) => {
      if (done) return;
      done = true;
      self.clearTimeout(timer);
      try {
        sock.close();
      } catch {
        // closed already
      }
      resolve(ok);
    };
    const timer = self.setTimeout(() => end(false), 15000);
    sock.addEventListener('error', () => end(false));
    sock.addEventListener('close', () => end(false));
    sock.addEventListener('message', (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (m.type === 'snapshot') {
        // Only the server that sent the notification hears an answer (as the page checks its own).
        const ask = m.server === server && Array.isArray(m.asks) ? m.asks.find((a) => a && a.key === key) : undefined;
        const q = ask && Array.isArray(ask.questions) && ask.questions.length === 1 ? ask.questions[0] : undefined;
        const option = q && Array.isArray(q.options) ? q.options[index] : undefined;
        if (!option || typeof option.label !== 'string' || q.multiSelect === true) return end(false);
        const answer = { question: q.question, answer: option.label, selectedOption: option.label, wasCustom: false };
        if (typeof option.preview === 'string') answer.preview = option.preview;
        sock.send(JSON.stringify({ type: 'answer', key, outcome: { answered: true, answers: [answer] } }));
      } else if (m.type === 'result' && m.key === key) {
        end(m.ok === true);
      }
    });
  });
}

/** A tap on a notification (`action` empty) or on one of its actions. */
async function onClick(notification, action) {
  notification.close();
  const data = notification.data || {};
  // The page's own notifications carry their question's key as their tag alone.
  const tag = typeof data.key === 'string' ? data.key : notification.tag;
  const key = tag && tag !== 'askhost-burst' ? tag : undefined;
  const picked = action && Array.isArray(data.actions) ? data.actions.find((a) => String(a.action) === action) : undefined;
  if (!key || !picked || picked.open) return openPage(key);
  if (await answerOver(key, data.server, Number(picked.action))) return undefined;
  return openPage(key);
}

self.addEventListener('notificationclick', (event) => {
  event.waitUntil(onClick(event.notification, event.action));
});
