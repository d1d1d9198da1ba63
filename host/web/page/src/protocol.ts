// The page protocol: the JSON messages the page and askhost web send each other over the WebSocket
// (docs/web.md, "What the page is sent"), as types. The server's side is host/web/page_protocol.cpp;
// tests/web/page_protocol.json holds the two to the same messages (the page's replay is
// tests/web/page_protocol.test.mjs, over dist/protocol.js). Messages from the server are read
// with readServerMessage, which takes what the server's own from_json takes; the page's are
// made with the constructors at the end.

/** The host that waits on a question. */
export interface PageHost {
  pid: number;
  kind: string;
  socket: string;
}

/** One waiting question as the page sees it. */
export interface WebAsk {
  /** "<host pid>.<connection>:<ask id>", never used twice in this run of the server. */
  key: string;
  /** The host's questions, as it gave them (the dialog model reads them: normalizeQuestions). */
  questions: unknown;
  /** A tool permission, typed by the agent's adapter (docs/protocol.md): normalizePermission. */
  permission?: unknown;
  metadata?: unknown;
  agent: string;
  host: PageHost;
  /** The asking agent's directory, else the host's first workspace folder ("" when neither). */
  workspace: string;
  /** Who asks, as the host names it (core/text/who_asks.cpp): "codex · MCP". */
  who: string;
  /** When it started waiting, ms since the epoch. */
  since: number;
}

// ------------------------------------------------------------------ server -> page

/** The first message on each WebSocket: this run's name and every waiting question, oldest first. */
export interface Snapshot {
  type: 'snapshot';
  server: string;
  asks: WebAsk[];
}
export interface Added {
  type: 'added';
  ask: WebAsk;
}
/** reason: "answered" (from a page), "withdrawn" (the host took it back), "host-gone". */
export interface Removed {
  type: 'removed';
  key: string;
  reason: string;
}
/** What became of a page's message: taken, or why not. */
export type Verdict = { ok: true } | { ok: false; error: string };
export type AnswerResult = { type: 'result'; key: string } & Verdict;
/** After the snapshot when askhost web sends Web Push: its public key and how much a push says. */
export interface PushKey {
  type: 'push-key';
  key: string;
  content: string;
}
export type PushSubscribed = { type: 'push-subscribed' } & Verdict;
export type PushUnsubscribed = { type: 'push-unsubscribed' } & Verdict;
/** This page's device was dropped: its push service says the subscription is gone. */
export interface PushDropped {
  type: 'push-dropped';
  reason: string;
}

export type ServerMessage =
  | Snapshot
  | Added
  | Removed
  | AnswerResult
  | PushKey
  | PushSubscribed
  | PushUnsubscribed
  | PushDropped;
export type PushMessage = PushKey | PushSubscribed | PushUnsubscribed | PushDropped;

// ------------------------------------------------------------------ page -> server

/** An outcome in the native shape for question `key`. */
export interface Answer {
  type: 'answer';
  key: string;
  outcome: unknown;
}
export interface PushSubscribe {
  type: 'push-subscribe';
  /** The browser's PushSubscription.toJSON(). */
  subscription: unknown;
}
export interface PushUnsubscribe {
  type: 'push-unsubscribe';
  endpoint: string;
}
export type PageMessage = Answer | PushSubscribe | PushUnsubscribe;

// ------------------------------------------------------------------ service worker -> page

/** A notification of question `key` was tapped: the page opens it (sw.ts, the page's worker). */
export interface OpenQuestion {
  type: 'open';
  key: string;
}

// ------------------------------------------------------------------ reading

type Fields = Record<string, unknown>;

function isObject(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A field read leniently: absent or of another type is the default, as the server reads it. */
function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
function int(v: unknown): number {
  return Number.isSafeInteger(v) ? (v as number) : 0;
}

function readHost(v: unknown): PageHost {
  const h = isObject(v) ? v : {};
  return { pid: int(h.pid), kind: str(h.kind), socket: str(h.socket) };
}

function readAsk(v: unknown): WebAsk | undefined {
  if (!isObject(v) || typeof v.key !== 'string' || !('questions' in v)) return undefined;
  const a: WebAsk = { key: v.key, questions: v.questions, agent: str(v.agent), host: readHost(v.host), workspace: str(v.workspace), who: str(v.who), since: int(v.since) };
  if ('permission' in v) a.permission = v.permission;
  if ('metadata' in v) a.metadata = v.metadata;
  return a;
}

function readVerdict(m: Fields): Verdict | undefined {
  if (typeof m.ok !== 'boolean') return undefined;
  return m.ok ? { ok: true } : { ok: false, error: str(m.error) };
}

/** A message from the server, or undefined when it is none the page knows (it is ignored). */
export function readServerMessage(text: string): ServerMessage | undefined {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(m)) return undefined;
  switch (m.type) {
    case 'snapshot': {
      if (typeof m.server !== 'string' || !Array.isArray(m.asks)) return undefined;
      const asks = m.asks.map(readAsk);
      if (asks.some((a) => a === undefined)) return undefined;
      return { type: 'snapshot', server: m.server, asks: asks as WebAsk[] };
    }
    case 'added': {
      const ask = readAsk(m.ask);
      return ask && { type: 'added', ask };
    }
    case 'removed':
      return typeof m.key === 'string' ? { type: 'removed', key: m.key, reason: str(m.reason) } : undefined;
    case 'result': {
      const v = readVerdict(m);
      return typeof m.key === 'string' && v ? { type: 'result', key: m.key, ...v } : undefined;
    }
    case 'push-key':
      return typeof m.key === 'string' ? { type: 'push-key', key: m.key, content: str(m.content) } : undefined;
    case 'push-subscribed':
    case 'push-unsubscribed': {
      const v = readVerdict(m);
      return v && { type: m.type, ...v };
    }
    case 'push-dropped':
      return { type: 'push-dropped', reason: str(m.reason) };
    default:
      return undefined;
  }
}

// ------------------------------------------------------------------ writing

export function answerMessage(key: string, outcome: unknown): Answer {
  return { type: 'answer', key, outcome };
}
export function pushSubscribeMessage(subscription: unknown): PushSubscribe {
  return { type: 'push-subscribe', subscription };
}
export function pushUnsubscribeMessage(endpoint: string): PushUnsubscribe {
  return { type: 'push-unsubscribe', endpoint };
}

/** Every type of message, each way (the replay checks them against the vectors). */
export const SERVER_MESSAGE_TYPES: readonly ServerMessage['type'][] = [
  'snapshot',
  'added',
  'removed',
  'result',
  'push-key',
  'push-subscribed',
  'push-unsubscribed',
  'push-dropped',
];
export const PAGE_MESSAGE_TYPES: readonly PageMessage['type'][] = ['answer', 'push-subscribe', 'push-unsubscribe'];
