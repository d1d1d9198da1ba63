// The page protocol: the JSON messages the page and askhost web send each other over the WebSocket
// (docs/web.md, "What the page is sent"), as types. The server's side is host/web/page_protocol.cpp;
// tests/web/page_protocol.json holds the two to the same messages (the page's replay is
// tests/web/page_protocol.test.mjs, over dist/protocol.js). Messages from the server are read
// with readServerMessage, which takes what the server's own from_json takes; the page's are
// made with the constructors at the end.
function isObject(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
/** A field read leniently: absent or of another type is the default, as the server reads it. */
function str(v) {
    return typeof v === 'string' ? v : '';
}
function int(v) {
    return Number.isSafeInteger(v) ? v : 0;
}
function readHost(v) {
    const h = isObject(v) ? v : {};
    return { pid: int(h.pid), kind: str(h.kind), socket: str(h.socket) };
}
function readAsk(v) {
    if (!isObject(v) || typeof v.key !== 'string' || !('questions' in v))
        return undefined;
    const a = { key: v.key, questions: v.questions, agent: str(v.agent), host: readHost(v.host), workspace: str(v.workspace), who: str(v.who), since: int(v.since) };
    if ('permission' in v)
        a.permission = v.permission;
    if ('metadata' in v)
        a.metadata = v.metadata;
    return a;
}
function readVerdict(m) {
    if (typeof m.ok !== 'boolean')
        return undefined;
    return m.ok ? { ok: true } : { ok: false, error: str(m.error) };
}
/** A message from the server, or undefined when it is none the page knows (it is ignored). */
export function readServerMessage(text) {
    let m;
    try {
        m = JSON.parse(text);
    }
    catch {
        return undefined;
    }
    if (!isObject(m))
        return undefined;
    switch (m.type) {
        case 'snapshot': {
            if (typeof m.server !== 'string' || !Array.isArray(m.asks))
                return undefined;
            const asks = m.asks.map(readAsk);
            if (asks.some((a) => a === undefined))
                return undefined;
            return { type: 'snapshot', server: m.server, asks: asks };
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
export function answerMessage(key, outcome) {
    return { type: 'answer', key, outcome };
}
export function pushSubscribeMessage(subscription) {
    return { type: 'push-subscribe', subscription };
}
export function pushUnsubscribeMessage(endpoint) {
    return { type: 'push-unsubscribe', endpoint };
}
/** Every type of message, each way (the replay checks them against the vectors). */
export const SERVER_MESSAGE_TYPES = [
    'snapshot',
    'added',
    'removed',
    'result',
    'push-key',
    'push-subscribed',
    'push-unsubscribed',
    'push-dropped',
];
export const PAGE_MESSAGE_TYPES = ['answer', 'push-subscribe', 'push-unsubscribe'];
