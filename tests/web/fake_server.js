// A stand-in for `askhost web`'s server, for the page's browser tests: it serves
// host/web/page/dist/ as the contract says (token in the first URL, then an HttpOnly cookie; the
// same security headers and CSP) and speaks the contract's WebSocket messages at /ws. Node has no
// WebSocket server built in: the 101 handshake and the frames (RFC 6455) are written out here.
// The test drives it in-process: add(), remove(), drop(), and the answers it received.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { EventEmitter } = require('node:events');

const DIST = path.resolve(__dirname, '..', '..', 'host', 'web', 'page', 'dist');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png', '.webmanifest': 'application/manifest+json' };
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': CSP,
};
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MAX_FRAME = 1 << 20;

class FakeWebServer extends EventEmitter {
  constructor() {
    super();
    this.token = crypto.randomBytes(16).toString('hex');
    this.cookie = crypto.createHash('sha256').update('session:' + this.token).digest('hex');
    /** This run's name, in every snapshot (the page trusts a socket whose snapshot names it). */
    this.serverId = crypto.randomBytes(16).toString('base64url');
    /** GET /session requests (the page renewing its cookie). */
    this.renewals = 0;
    /** The waiting questions, oldest first (WebAsk objects). */
    this.asks = [];
    /** Every {type:'answer'} message received, in order. */
    this.answers = [];
    this.sockets = new Set();
    /** While false, WebSocket upgrades are refused (the server "is down" for the page). */
    this.accepting = true;
    this.http = http.createServer((req, res) => this.onRequest(req, res));
    this.http.on('upgrade', (req, socket) => this.onUpgrade(req, socket));
  }

  listen() {
    return new Promise((resolve) => {
      this.http.listen(0, '127.0.0.1', () => {
        this.origin = `http://127.0.0.1:${this.http.address().port}`;
        resolve(`${this.origin}/?token=${this.token}`);
      });
    });
  }

  close() {
    for (const s of this.sockets) s.destroy();
    this.http.closeAllConnections?.();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }

  // ---------------------------------------------------------------- what the test does

  add(ask) {
    const full = { metadata: undefined, host: { pid: 4242, kind: 'agent', socket: '/run/askhost/x.sock' }, workspace: '', who: '', since: Date.now(), ...ask };
    this.asks.push(full);
    this.broadcast({ type: 'added', ask: full });
    return full;
  }

  remove(key, reason) {
    this.asks = this.asks.filter((a) => a.key !== key);
    this.broadcast({ type: 'removed', key, reason });
  }

  /** Drop every WebSocket at once, as a server that died would. */
  drop() {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** A new session secret, as a new token gives: the page's cookie no longer opens anything. */
  rotate() {
    this.token = crypto.randomBytes(16).toString('hex');
    this.cookie = crypto.createHash('sha256').update('session:' + this.token).digest('hex');
    this.serverId = crypto.randomBytes(16).toString('base64url');
  }

  /** Another program on the port: it takes any cookie, but cannot name the page's server. */
  impostor() {
    this.serverId = crypto.randomBytes(16).toString('base64url');
  }

  get connections() {
    return this.sockets.size;
  }

  // ---------------------------------------------------------------- HTTP

  authorized(req) {
    const m = /(?:^|;\s*)askhost_web=([^;]*)/.exec(req.headers.cookie || '');
    return m !== null && m[1] === this.cookie;
  }

  onRequest(req, res) {
    const url = new URL(req.url, 'http://x');
    if (req.method !== 'GET') return void res.writeHead(405, { ...HEADERS, 'Content-Type': 'text/plain' }).end('method not allowed\n');
    if (url.pathname === '/' && url.searchParams.get('token') === this.token) {
      res.writeHead(303, { ...HEADERS, Location: '/', 'Set-Cookie': `askhost_web=${this.cookie}; HttpOnly; SameSite=Strict; Path=/` });
      return void res.end();
    }
    // The manifest and its icons, as askhost web serves them: without the cookie (a browser fetches them so).
    const open = url.pathname === '/manifest.webmanifest' || /^\/icon-\d+\.png$/.test(url.pathname);
    if (!open && !this.authorized(req)) return void res.writeHead(401, { ...HEADERS, 'Content-Type': 'text/plain' }).end('askhost web: open the address it printed (askhost web --url)\n');
    if (url.pathname === '/session') {
      this.renewals++;
      res.writeHead(204, { ...HEADERS, 'Set-Cookie': `askhost_web=${this.cookie}; HttpOnly; SameSite=Strict; Path=/; Max-Age=86400` });
      return void res.end();
    }
    const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
    const file = path.join(DIST, name);
    if (name.includes('/') || !fs.existsSync(file)) return void res.writeHead(404, { ...HEADERS, 'Content-Type': 'text/plain' }).end('not found\n');
    res.writeHead(200, { ...HEADERS, 'Content-Type': TYPES[path.extname(name)] || 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  }

  // ---------------------------------------------------------------- WebSocket

  onUpgrade(req, socket) {
    const refuse = (status, why) => socket.end(`HTTP/1.1 ${status} ${why}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    if (!this.accepting) return refuse(503, 'Service Unavailable');
    if (new URL(req.url, 'http://x').pathname !== '/ws' || (req.headers.upgrade || '').toLowerCase() !== 'websocket') return refuse(400, 'Bad Request');
    if (!this.authorized(req)) return refuse(401, 'Unauthorized');
    if (req.headers.origin !== this.origin) return refuse(403, 'Forbidden');
    const key = req.headers['sec-websocket-key'];
    if (!key) return refuse(400, 'Bad Request');
    const accept = crypto.createHash('sha1').update(key + WS_GUID).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    socket.setNoDelay(true);
    this.sockets.add(socket);
    let buf = Buffer.alloc(0);
    let fragments = [];
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const frame = readFrame(buf);
        if (frame === null) break;
        if (frame === false) return void socket.destroy(); // malformed or too big
        buf = buf.subarray(frame.size);
        if (frame.opcode === 0x8) {
          socket.end(encodeFrame(0x8, Buffer.alloc(0)));
          this.sockets.delete(socket);
          return;
        }
        if (frame.opcode === 0x9) socket.write(encodeFrame(0xa, frame.payload));
        if (frame.opcode === 0x1 || frame.opcode === 0x0) {
          fragments.push(frame.payload);
          if (frame.fin) {
            this.onText(socket, Buffer.concat(fragments).toString('utf8'));
            fragments = [];
          }
        }
      }
    });
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => this.sockets.delete(socket));
    this.sendTo(socket, { type: 'snapshot', server: this.serverId, asks: this.asks });
    this.emit('connection');
  }

  onText(socket, text) {
    let m;
    try {
      m = JSON.parse(text);
    } catch {
      return;
    }
    if (m.type !== 'answer') return;
    this.answers.push(m);
    this.emit('answer', m);
    const waiting = this.asks.some((a) => a.key === m.key);
    if (!waiting || typeof m.outcome !== 'object' || m.outcome === null) {
      this.sendTo(socket, { type: 'result', key: m.key, ok: false, error: waiting ? 'not an outcome' : 'already answered elsewhere' });
      return;
    }
    this.sendTo(socket, { type: 'result', key: m.key, ok: true });
    this.remove(m.key, 'answered');
  }

  sendTo(socket, message) {
    if (!socket.destroyed) socket.write(encodeFrame(0x1, Buffer.from(JSON.stringify(message))));
  }

  broadcast(message) {
    for (const s of this.sockets) this.sendTo(s, message);
  }
}

/** One frame from the start of buf: null when incomplete, false when malformed. */
function readFrame(buf) {
  if (buf.length < 2) return null;
  const fin = (buf[0] & 0x80) !== 0;
  const opcode = buf[0] & 0x0f;
  const masked = (buf[1] & 0x80) !== 0;
  let len = buf[1] & 0x7f;
  let at = 2;
  if (!masked) return false; // a client's frames are always masked
  if (len === 126) {
    if (buf.length < 4) return null;
    len = buf.readUInt16BE(2);
    at = 4;
  } else if (len === 127) {
    if (buf.length < 10) return null;
    const big = buf.readBigUInt64BE(2);
    if (big > BigInt(MAX_FRAME)) return false;
    len = Number(big);
    at = 10;
  }
  if (len > MAX_FRAME) return false;
  if (buf.length < at + 4 + len) return null;
  const mask = buf.subarray(at, at + 4);
  const payload = Buffer.from(buf.subarray(at + 4, at + 4 + len));
  for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
  return { fin, opcode, payload, size: at + 4 + len };
}

/** A server frame: never masked, never fragmented. */
function encodeFrame(opcode, payload) {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (n >= 126 && n < 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  } else if (n >= 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

module.exports = { FakeWebServer, CSP };
