// The page of `askhost web` (docs/web-page.md): every question any askhost host of this user waits
// on, oldest first, and the dialog to answer one. The dialog's rules are the VS Code panel's model
// (./model.js is editor-bridges/shared/model.ts, built beside this file): this file only draws
// its view and turns taps, clicks and keys into its calls. The server speaks JSON over a WebSocket
// at ws on the page's own origin (the contract in docs/web-page.md). Agent text is only ever set
// as textContent, through dom.js's el() (controls and invisible characters made visible by
// ./text.js, as every face shows them), and an option's preview is HTML or not by the host's
// rule (./text.js too); the server's Content-Security-Policy allows no script or style but these files.
import { DialogModel, normalizePermission, normalizeQuestions } from './model.js';
import type { Outcome, Permission, Result, ViewState } from './model.js';
import { actOnKey, answerField, el, KeptFields, showKept } from './dom.js';
import { drawDialog } from './draw.js';
import type { DialogActions, DialogFace, TouchFace } from './draw.js';
import { previewText, visibleText } from './text.js';
import { onPushMessage, subscribePush } from './push.js';
import { answerMessage, readServerMessage } from './protocol.js';
import type { AnswerResult, OpenQuestion, PageMessage, WebAsk } from './protocol.js';

interface Entry {
  ask: WebAsk;
  model: DialogModel;
  /** open: being answered (or not yet); queued: answered while offline; sending: sent, no result yet. */
  state: 'open' | 'queued' | 'sending';
  /** The server said it no longer waits while our answer was on its way. */
  gone?: boolean;
}

const app = document.getElementById('app') as HTMLElement;
const connEl = document.getElementById('conn') as HTMLElement;
const notifyButton = document.getElementById('notify') as HTMLButtonElement;

const asks = new Map<string, Entry>();
/** The ask whose dialog is open, if any. */
let current: string | undefined;
/** One line above the list: what just happened ("Answer sent to codex", an error). */
let banner: { text: string; error: boolean } | undefined;
/** What the line at the top says of the connection. */
type Conn = 'connecting' | 'open' | 'reconnecting' | 'signed-out' | 'ended';
let snapshots = 0;

// ------------------------------------------------------------------ words

const REMOVED_WORDS: Record<string, string> = {
  answered: 'was answered elsewhere',
  withdrawn: 'was answered elsewhere or withdrawn',
  'host-gone': 'is gone: its askhost ended',
};

function agentName(a: WebAsk): string {
  const agent = a.agent as { name?: unknown } | string | undefined;
  if (typeof agent === 'string' && agent) return agent;
  if (agent && typeof agent === 'object' && typeof agent.name === 'string' && agent.name) return agent.name;
  return 'agent';
}

/** Who asks, and how it reached us, as the server says it: "codex · MCP", "claude · hook", "demo-agent". */
function who(a: WebAsk): string {
  return typeof a.who === 'string' && a.who ? a.who : agentName(a);
}

function age(since: number | undefined, now: number): string {
  if (typeof since !== 'number' || !Number.isFinite(since)) return '';
  const s = Math.max(0, Math.round((now - since) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

function permissionOf(e: Entry): Permission | undefined {
  return e.model.questions.length === 1 ? normalizePermission(e.ask.permission) : undefined;
}

/** What a permission would do, in one phrase: its command (with where: `password in ~/.ssh`),
 *  else the file it writes, else its tool. */
function permissionWhat(p: Permission): string {
  if (p.command && p.path) return `${p.command} ${p.content || p.replaces ? 'to' : 'in'} ${p.path}`;
  return p.command || p.path || p.tool || 'a tool';
}

/** What the list shows of an ask: the command of a permission, else its first question. */
function summary(e: Entry): string {
  const p = permissionOf(e);
  if (p) return p.tool ? `${p.tool}: ${permissionWhat(p)}` : permissionWhat(p);
  return e.model.questions[0]?.question ?? '';
}

// ------------------------------------------------------------------ the connection

let ws: WebSocket | undefined;
let failures = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * The name of the askhost web run that accepted this page's cookie, from its first snapshot. A
 * socket is trusted with nothing of the person's (an answer) until its snapshot says the same
 * name: a server started since (whose cookies these are not) or another program on the port
 * cannot say it, and the page stops there rather than reconnect to it.
 */
let serverId: string | undefined;
/** The socket whose snapshot named our server: the only one answers go to. */
let trusted: WebSocket | undefined;
/** Signed out or the server changed: no more reconnecting (a new sign-in reloads the page). */
let stopped = false;
/** While the page is open its session is renewed this often (it lasts a day on the server). */
const RENEW_EVERY_MS = 30 * 60 * 1000;

function wsUrl(): string {
  const u = new URL('ws', location.href);
  u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  u.search = '';
  u.hash = '';
  return u.href;
}

function connect(): void {
  if (retryTimer !== undefined) {
    clearTimeout(retryTimer);
    retryTimer = undefined;
  }
  if (ws || stopped) return;
  const sock = new WebSocket(wsUrl());
  ws = sock;
  sock.addEventListener('open', () => {
    failures = 0;
  });
  sock.addEventListener('message', (ev: MessageEvent) => {
    if (ws === sock && typeof ev.data === 'string') onMessage(sock, ev.data);
  });
  sock.addEventListener('close', () => {
    if (ws !== sock) return;
    ws = undefined;
    trusted = undefined;
    for (const e of asks.values()) if (e.state === 'sending') e.state = 'queued';
    if (stopped) return;
    failures++;
    setConn('reconnecting');
    // Backoff: 0.5 s, 1 s, 2 s ... 10 s, with some jitter so many pages do not come back at once.
    const delay = Math.min(10000, 500 * 2 ** Math.min(failures - 1, 5)) * (0.8 + Math.random() * 0.4);
    retryTimer = setTimeout(connect, delay);
    if (failures >= 3) void checkSignedIn();
  });
}

/** The snapshot of a new socket: ours if it names our server, else the page stops. */
function checkServer(sock: WebSocket, id: string | undefined): boolean {
  if (serverId === undefined && id) serverId = id;
  if (id !== undefined && id === serverId) {
    trusted = sock;
    setConn('open');
    void renew();
    return true;
  }
  stop('ended');
  return false;
}

function stop(c: 'signed-out' | 'ended'): void {
  stopped = true;
  trusted = undefined;
  if (retryTimer !== undefined) clearTimeout(retryTimer);
  retryTimer = undefined;
  const sock = ws;
  ws = undefined;
  sock?.close();
  for (const e of asks.values()) if (e.state === 'sending') e.state = 'queued';
  setConn(c);
  // "Offline: the answer goes when the connection is back" would be a promise the page no longer
  // keeps: it reconnects no more, so an answer still here was not sent, and is said so.
  const unsent = [...asks.values()].filter((e) => e.state === 'queued').length;
  const where = c === 'ended' ? 'this askhost web has ended' : 'this page is not signed in';
  if (unsent > 0) banner = { text: `Not sent: ${where}. Open its address again and answer there.`, error: true };
  render();
}

/** A socket that keeps failing may mean the cookie is no longer accepted: ask the page itself. */
async function checkSignedIn(): Promise<void> {
  try {
    const r = await fetch(location.pathname, { cache: 'no-store', credentials: 'same-origin' });
    if (r.status === 401 && !ws) stop('signed-out');
  } catch {
    // Unreachable: still reconnecting.
  }
}

/** The session renewed while the page is in use (a new cookie with a new day). */
async function renew(): Promise<void> {
  try {
    const r = await fetch('session', { cache: 'no-store', credentials: 'same-origin' });
    if (r.status === 401) stop('signed-out');
  } catch {
    // Unreachable: the socket says so too.
  }
}

function send(message: PageMessage): boolean {
  if (!ws || ws !== trusted || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(message));
  return true;
}

function setConn(c: Conn): void {
  const words = {
    connecting: 'Connecting…',
    open: 'Connected',
    reconnecting: 'Reconnecting…',
    'signed-out': 'Not signed in: open the address askhost web printed (askhost web --url)',
    ended: 'This askhost web has ended: open its address again (askhost web --url, or askhost web --sign-in-link)',
  };
  connEl.textContent = words[c];
  connEl.className = 'conn ' + c;
}

function onMessage(sock: WebSocket, text: string): void {
  const m = readServerMessage(text);
  if (!m) return;
  // Nothing from a socket before its snapshot named our server.
  if (sock !== trusted) {
    if (m.type !== 'snapshot' || !checkServer(sock, m.server)) return;
  }
  switch (m.type) {
    case 'snapshot': {
      const first = snapshots++ === 0;
      const list = m.asks;
      const keys = new Set(list.map((a) => a.key));
      for (const key of [...asks.keys()]) if (!keys.has(key)) removeAsk(key, undefined);
      for (const a of list) {
        const fresh = addAsk(a);
        if (fresh && !first) notifyNew(fresh);
      }
      // Answers given while the connection was down go now, if their question still waits.
      for (const [key, e] of asks) {
        if (e.state === 'queued' && e.model.outcome) sendAnswer(key, e);
      }
      if (first) openFromLocation();
      break;
    }
    case 'added': {
      const fresh = addAsk(m.ask);
      if (fresh) notifyNew(fresh);
      break;
    }
    case 'removed':
      removeAsk(m.key, m.reason);
      break;
    case 'result':
      onResult(m);
      break;
    case 'push-key':
    case 'push-subscribed':
    case 'push-unsubscribed':
    case 'push-dropped':
      onPushMessage(m, send);
      return;
    default:
      return;
  }
  render();
}

function addAsk(a: WebAsk | undefined): Entry | undefined {
  if (!a || typeof a.key !== 'string') return undefined;
  const known = asks.get(a.key);
  if (known) {
    known.ask = a;
    return undefined;
  }
  const questions = normalizeQuestions(a.questions);
  if (questions.length === 0) return undefined;
  const e: Entry = { ask: a, model: new DialogModel(questions), state: 'open' };
  asks.set(a.key, e);
  return e;
}

function removeAsk(key: string, reason: string | undefined): void {
  const e = asks.get(key);
  if (!e) return;
  if (e.state === 'sending') {
    // Our own answer, most likely: its result says how it went, whichever comes first.
    e.gone = true;
    return;
  }
  forget(key);
  if (current === key) {
    current = undefined;
    banner = { text: `The question from ${who(e.ask)} ${REMOVED_WORDS[reason ?? ''] ?? 'is no longer waiting'}.`, error: false };
  }
}

function forget(key: string): void {
  asks.delete(key);
  fields.forget(key);
}

function onResult(m: AnswerResult): void {
  const e = asks.get(m.key);
  if (m.ok) {
    forget(m.key);
    if (e) {
      const cancelled = e.model.outcome?.answered === false;
      banner = { text: cancelled ? `Cancelled: ${who(e.ask)} was told.` : `Answer sent to ${who(e.ask)}.`, error: false };
    }
    return;
  }
  banner = { text: `Not sent: ${m.error || 'the server refused the answer'}.`, error: true };
  // If the question still waits, it can be answered again from the start.
  if (e?.gone) forget(m.key);
  else if (e) {
    fields.forget(m.key);
    e.model = new DialogModel(e.model.questions);
    e.state = 'open';
  }
}

function sendAnswer(key: string, e: Entry): void {
  const outcome = e.model.outcome as Outcome;
  if (send(answerMessage(key, outcome))) {
    e.state = 'sending';
    banner = { text: `Sending to ${who(e.ask)}…`, error: false };
  } else {
    e.state = 'queued';
    banner = { text: 'Offline: the answer goes when the connection is back.', error: false };
  }
}

// ------------------------------------------------------------------ notifications

function updateNotifyButton(): void {
  const can = 'Notification' in window && Notification.permission === 'default';
  notifyButton.hidden = !can;
}

notifyButton.addEventListener('click', () => {
  // Browsers only ask from a gesture: this button.
  void Notification.requestPermission().then(() => {
    updateNotifyButton();
    registerWorker();
    void subscribePush();
  }, updateNotifyButton);
});

/** Android's browsers notify only from a service worker (sw.js): registered once allowed. */
function registerWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext || Notification.permission !== 'granted') return;
  navigator.serviceWorker.register('sw.js').catch(() => undefined);
}

/** A notification through the service worker (Chrome on Android has no other way). `ready`
 *  waits for an active worker. A refusal (a worker still waking up on a busy phone), or a call that
 *  has not settled in 10 s, is tried again, up to three tries a second apart (the same tag: a
 *  second notification replaces the first), and then said in the console. */
function showByWorker(title: string, body: string, tag: string, tries = 3): void {
  if (!('serviceWorker' in navigator)) return;
  let settled = false;
  const again = (why: string): void => {
    if (settled) return;
    settled = true;
    if (tries > 1) setTimeout(() => showByWorker(title, body, tag, tries - 1), 1000);
    else console.warn(`askhost: the notification could not be shown: ${why}`);
  };
  const stuck = setTimeout(() => again('the service worker did not answer in 10 s'), 10000);
  navigator.serviceWorker.ready
    .then((reg) => reg.showNotification(title, { body, tag }))
    .then(
      () => {
        settled = true;
        clearTimeout(stuck);
      },
      (err: unknown) => {
        clearTimeout(stuck);
        again(String(err));
      },
    );
}

function notifyNew(e: Entry): void {
  if (!document.hidden || !('Notification' in window) || Notification.permission !== 'granted') return;
  const key = e.ask.key;
  const more = e.model.questions.length > 1 ? ` (+${e.model.questions.length - 1} more)` : '';
  const title = visibleText(`${who(e.ask)} asks`);
  const body = visibleText(summary(e) + more);
  try {
    const n = new Notification(title, { body, tag: key });
    n.addEventListener('click', () => {
      window.focus();
      if (asks.has(key)) openAsk(key);
      n.close();
    });
  } catch {
    showByWorker(title, body, key);
  }
}

/** A push notification's tap opens the page at #ask=KEY (sw.js): that question, if it still waits;
 *  else the page says it does not. The address is put back without it. */
function openFromLocation(): void {
  const m = /^#ask=(.+)$/.exec(location.hash);
  if (!m) return;
  history.replaceState(null, '', location.pathname + location.search);
  let key: string;
  try {
    key = decodeURIComponent(m[1]);
  } catch {
    return;
  }
  if (asks.get(key)?.state === 'open') openAsk(key);
  else banner = { text: NO_LONGER_WAITING, error: false };
}

const NO_LONGER_WAITING = 'The question of that notification is no longer waiting: it was answered elsewhere or withdrawn.';

// ------------------------------------------------------------------ drawing

function button(text: string, cls: string, onTap: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el('button', { class: cls, text, attrs: { type: 'button', ...attrs } });
  b.addEventListener('click', () => {
    if (guarded()) return;
    onTap();
  });
  return b;
}

// A dialog that just opened drops taps (a double tap on the list is not a pick) and repeated keys
// for a moment; so does a question asked back (a double tap on Allow is not its confirmation), as
// the VS Code panel drops clicks on a question set that just replaced another.
const GUARD_MS = 400;
let guardUntil = 0;
function guarded(): boolean {
  return Date.now() < guardUntil;
}
function guardFromNow(): void {
  guardUntil = Math.max(guardUntil, Date.now() + GUARD_MS);
}
/** What the dialog asks back now ('' when nothing): a new one starts the guard. */
let askedBack = '';

function sortedAsks(): [string, Entry][] {
  return [...asks.entries()].sort((a, b) => (a[1].ask.since ?? 0) - (b[1].ask.since ?? 0));
}

function render(): void {
  const waiting = [...asks.values()].filter((e) => e.state === 'open').length;
  document.title = waiting > 0 ? `(${waiting}) askhost` : 'askhost';
  updateNotifyButton();
  const e = current ? asks.get(current) : undefined;
  if (e && e.state === 'open') renderDialog(current as string, e);
  else {
    current = undefined;
    renderList();
  }
}

function renderList(): void {
  const now = Date.now();
  const parts: Node[] = [];
  if (banner) parts.push(el('p', { class: 'banner' + (banner.error ? ' error' : ''), text: banner.text, attrs: { role: 'status' } }));
  const list = sortedAsks().filter(([, e]) => e.state !== 'sending');
  if (list.length === 0) {
    parts.push(el('p', { class: 'empty', text: snapshots > 0 ? 'No question is waiting.' : 'Loading…' }));
  } else {
    const ul = el('ul', { class: 'asks', attrs: { 'aria-label': 'Waiting questions, oldest first' } });
    for (const [key, e] of list) {
      const perm = permissionOf(e);
      const n = e.model.questions.length;
      const queued = e.state === 'queued' ? (stopped ? 'answer not sent' : 'answer waiting to be sent') : '';
      const when = [age(e.ask.since, now), n > 1 ? `${n} questions` : '', queued]
        .filter(Boolean)
        .join(' · ');
      const b = el(
        'button',
        { class: 'ask' + (perm ? ' permission' : ''), attrs: { type: 'button', 'data-key': key } },
        el('span', { class: 'ask-who', text: who(e.ask) }),
        el('span', { class: perm ? 'ask-text command' : 'ask-text', text: summary(e) }),
        e.ask.workspace ? el('span', { class: 'ask-where', text: e.ask.workspace }) : undefined,
        when ? el('span', { class: 'ask-when', text: when }) : undefined,
      );
      b.addEventListener('click', () => {
        if (e.state === 'open') openAsk(key);
      });
      ul.appendChild(el('li', {}, b));
    }
    parts.push(ul);
  }
  const focusedKey = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.key : undefined;
  app.replaceChildren(...parts);
  app.dataset.view = 'list';
  if (focusedKey) (app.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`) as HTMLElement | null)?.focus();
}

/**
 * A tap on a permission question's option waits for a second tap on its confirmation: on a phone
 * in a pocket or mid-scroll, one stray touch must not say "Allow" to a command. Keys pick at once,
 * as in the other faces.
 */
let pendingPick: { key: string; row: number; label: string } | undefined;

function openAsk(key: string): void {
  current = key;
  pendingPick = undefined;
  banner = undefined;
  guardUntil = Date.now() + GUARD_MS;
  askedBack = '';
  render();
  window.scrollTo(0, 0);
}

function backToList(): void {
  const key = current;
  current = undefined;
  render();
  if (key) (app.querySelector(`[data-key="${CSS.escape(key)}"]`) as HTMLElement | null)?.focus();
}

/** After any change to a dialog: send its outcome when it finished, else draw it again. */
function after(key: string, e: Entry, r: Result): void {
  if (pendingPick) {
    pendingPick = undefined;
    if (r === 'ignored') r = 'changed';
  }
  if (e.model.finished) {
    current = undefined;
    sendAnswer(key, e);
    render();
    return;
  }
  if (r !== 'ignored') render();
}

// The option previews a person unfolded stay unfolded across redraws.
const openPreviews = new Set<string>();

// The text fields outlive re-renders, so typing is never interrupted by a redraw.
const fields = new KeptFields();

function field(key: string, e: Entry, kind: 'text' | 'notes', q: number, value: string, placeholder: string): HTMLTextAreaElement {
  // Two rows at least: a thumb finds a taller field.
  return fields.keep(key, q, kind, () =>
    answerField(kind, q, value, placeholder, 2, (typed) => {
      const r = kind === 'text' ? e.model.setText(q, typed) : e.model.setNotes(q, typed);
      if (r !== 'ignored' && (kind === 'text' || e.model.notice())) render();
    }),
  );
}

/** The typed text as the field holds it now, given to the model before a key that commits it. */
function syncText(key: string, e: Entry): void {
  const q = e.model.tab;
  const area = fields.get(key, q, 'text');
  if (area && q < e.model.questions.length) e.model.setText(q, area.value);
}

/** Above the dialog: the way back to the list, and who asks from where. */
function dialogHead(e: Entry): Node[] {
  const waitingOthers = [...asks.values()].filter((x) => x !== e && x.state === 'open').length;
  const back = button(waitingOthers > 0 ? `← All questions (${waitingOthers} more waiting)` : '← All questions', 'back', backToList);
  const meta = el('div', { class: 'meta' }, el('span', { class: 'meta-who', text: `${who(e.ask)} asks` }));
  if (e.ask.workspace) meta.appendChild(el('span', { class: 'meta-where', text: e.ask.workspace }));
  return [back, meta];
}

/** A tap that does nothing while the dialog has just opened (GUARD_MS). */
function tap<A extends unknown[]>(f: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    if (!guarded()) f(...args);
  };
}

/** The page as the face of the shared drawing (draw.js): its model's calls for the controls, its
 *  fields, and a phone's buttons for Enter and Esc. */
function dialogFace(key: string, e: Entry, v: ViewState, pick: typeof pendingPick): DialogFace {
  const model = e.model;
  const perm = permissionOf(e);
  const actions: DialogActions = {
    key: tap((k) => after(key, e, model.key(k))),
    row: tap((row) => {
      if (row.other || v.multiSelect || !perm) return after(key, e, model.clickRow(row.index));
      pendingPick = { key, row: row.index, label: row.label };
      render();
    }),
    tab: tap((i) => after(key, e, model.clickTab(i))),
    submit: tap(() => after(key, e, model.clickSubmit())),
    confirm: tap((yes) => after(key, e, model.clickConfirm(yes))),
  };
  const touch: TouchFace = {
    enter: tap(() => {
      if (v.editing) syncText(key, e);
      after(key, e, model.key('Enter'));
    }),
    cancel: tap(() => after(key, e, model.escape())),
    folds: openPreviews,
  };
  if (pick && perm) {
    const row = pick.row;
    touch.pick = { row, label: pick.label, what: permissionWhat(perm), yes: tap(() => after(key, e, model.clickRow(row))), back: tap(() => after(key, e, 'changed')) };
  }
  return {
    actions,
    field: (kind, q, value, placeholder) => field(key, e, kind, q, value, placeholder),
    head: dialogHead(e),
    permission: perm,
    buttonAttrs: { type: 'button' },
    words: { notes: 'Note', notesPlaceholder: 'Note for the agent (optional)' },
    htmlPreviews: false,
    touch,
  };
}

function renderDialog(key: string, e: Entry): void {
  const v = e.model.view({ askKey: key, agent: who(e.ask), notes: true, renderPreview: previewText });
  const focused = document.activeElement;
  const pick = pendingPick?.key === key && !v.confirm ? pendingPick : undefined;
  const parts = drawDialog(v, dialogFace(key, e, v, pick));

  const caret =
    focused instanceof HTMLTextAreaElement ? { start: focused.selectionStart, end: focused.selectionEnd } : undefined;
  app.replaceChildren(...parts);
  app.dataset.view = 'dialog';
  app.classList.toggle('confirming', v.confirm !== undefined);
  if (focused instanceof HTMLTextAreaElement && focused.isConnected && document.activeElement !== focused) {
    focused.focus();
    if (caret) focused.setSelectionRange(caret.start, caret.end);
  }
  const text = v.q >= 0 ? fields.get(key, v.q, 'text') : undefined;
  if (v.notice) showKept(text, fields.get(key, v.q, 'notes'), v);
  const writingNote = focused instanceof HTMLTextAreaElement && focused.dataset.kind === 'notes' && focused.isConnected;
  if (v.editing && text && !v.confirm && !writingNote) {
    if (document.activeElement !== text) {
      text.focus();
      text.setSelectionRange(text.value.length, text.value.length);
    }
  } else if (!(writingNote && !v.confirm)) {
    // Keys go to the document either way; a field that is no longer drawn must not keep them.
    if (focused instanceof HTMLTextAreaElement || !focused || !focused.isConnected) app.focus({ preventScroll: true });
  }
  // A question asked back (Discard?, long answer, a permission's pick) is where the eyes go next,
  // and its buttons, which may come up under the finger that asked, take no tap for a moment.
  const asking = pick ? `${key}\u0000pick\u0000${pick.row}` : v.confirm ? `${key}\u0000confirm\u0000${v.confirm.text}` : '';
  if (asking && asking !== askedBack) guardFromNow();
  askedBack = asking;
  if (v.confirm || pick) app.querySelector('.actions')?.scrollIntoView({ block: 'nearest' });
}

// ------------------------------------------------------------------ keys (a desktop keyboard)

document.addEventListener('keydown', (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.isComposing) return;
  const e = current ? asks.get(current) : undefined;
  if (!current || !e || e.state !== 'open') return;
  const key = current;
  // The key that opened the dialog, held down, repeats: not a pick. Typing right away is typing.
  if (guarded() && ev.repeat) {
    ev.preventDefault();
    return;
  }
  pendingPick = undefined;
  // A focused button (the back button, a tab) takes Enter and Space itself.
  if (ev.target instanceof HTMLButtonElement && (ev.key === 'Enter' || ev.key === ' ')) return;
  const v = e.model.view({ askKey: key, agent: '' });
  actOnKey(ev, v, {
    notes: () => fields.get(key, v.q, 'notes'),
    list: app,
    key: (k, text) => {
      if (text) syncText(key, e);
      after(key, e, e.model.key(k));
    },
  });
});

// ------------------------------------------------------------------ start

// Set once: a finger has no keys to hint at and no cursor to follow (style.css).
document.documentElement.classList.toggle('touch', matchMedia('(pointer: coarse)').matches);

// A tap on a notification the service worker showed.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('message', (ev: MessageEvent) => {
    const m = ev.data as Partial<Record<keyof OpenQuestion, unknown>> | null;
    if (!m || m.type !== 'open' || typeof m.key !== 'string') return;
    if (asks.get(m.key)?.state === 'open') openAsk(m.key);
    else if (snapshots > 0 && !current) {
      // A notification of a question answered since (on another device, say): the page says so.
      banner = { text: NO_LONGER_WAITING, error: false };
      render();
    }
  });
}
if ('Notification' in window) registerWorker();

document.addEventListener('visibilitychange', () => {
  if (!document.hidden && !ws) connect();
  if (!document.hidden && trusted) void renew();
});
setInterval(() => {
  if (trusted) void renew();
}, RENEW_EVERY_MS);
window.addEventListener('online', () => {
  if (!ws) connect();
});
// The ages in the list move on.
setInterval(() => {
  if (!current) render();
}, 30000);

setConn('connecting');
render();
connect();
