// A stand-in for a browser's push service (RFC 8030), for the Web Push scenarios of e2e.js: plain
// HTTP on loopback (askhost web takes it with --push-allow-http only), recording every message
// askhost web posts, answering 201 (or what the test sets: 410 for a subscription that is gone).
// With it, the browser's side of the subscription: a P-256 key pair and an auth secret made here,
// to decrypt what arrives (RFC 8291) and to check its VAPID JWT (RFC 8292) with the key it names.
'use strict';

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const http = require('node:http');

const b64url = (buf) => Buffer.from(buf).toString('base64url');

class PushServiceStandIn {
  constructor() {
    this.ecdh = crypto.createECDH('prime256v1');
    this.ecdh.generateKeys();
    this.auth = crypto.randomBytes(16);
    /** What the browser's PushSubscription.toJSON() gives, but for the endpoint (set by listen). */
    this.keys = { p256dh: b64url(this.ecdh.getPublicKey()), auth: b64url(this.auth) };
    /** Every POST: { path, headers, body (Buffer), status answered }. */
    this.messages = [];
    this.status = 201;
    this.http = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const status = this.status;
        this.messages.push({ method: req.method, path: req.url, headers: req.headers, body: Buffer.concat(chunks), status });
        res.writeHead(status, { 'Content-Length': 0 });
        res.end();
      });
    });
  }

  listen() {
    return new Promise((resolve) => {
      this.http.listen(0, '127.0.0.1', () => {
        this.origin = `http://127.0.0.1:${this.http.address().port}`;
        this.endpoint = `${this.origin}/push/phone-1`;
        resolve(this.endpoint);
      });
    });
  }

  close() {
    this.http.closeAllConnections?.();
    return new Promise((resolve) => this.http.close(() => resolve()));
  }

  /** The plaintext of an aes128gcm body (RFC 8291) for this subscription's keys. */
  decrypt(body) {
    const salt = body.subarray(0, 16);
    const rs = body.readUInt32BE(16);
    const idlen = body[20];
    assert.equal(idlen, 65, 'the keyid is the sender\'s 65-byte public key');
    const asPublic = body.subarray(21, 21 + idlen);
    const record = body.subarray(21 + idlen);
    assert.ok(record.length <= rs, 'one record');
    const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest();
    const ikm = hmac(hmac(this.auth, this.ecdh.computeSecret(asPublic)), Buffer.concat([Buffer.from('WebPush: info\0'), this.ecdh.getPublicKey(), asPublic, Buffer.from([1])]));
    const prk = hmac(salt, ikm);
    const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
    const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
    d.setAuthTag(record.subarray(record.length - 16));
    const plain = Buffer.concat([d.update(record.subarray(0, record.length - 16)), d.final()]);
    let end = plain.length;
    while (end > 0 && plain[end - 1] === 0) end--;
    assert.equal(plain[end - 1], 2, 'the last record\'s delimiter');
    return plain.subarray(0, end - 1).toString('utf8');
  }

  /** The claims of a message's VAPID Authorization, once its JWT verified with the key it names
   *  (which must be `publicKey`, the key the page subscribed with). */
  vapidClaims(message, publicKey) {
    const m = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(message.headers.authorization || '');
    assert.ok(m, `Authorization: ${message.headers.authorization}`);
    const [, jwt, k] = m;
    assert.equal(k, publicKey, 'k= is the key the page subscribed with');
    const raw = Buffer.from(k, 'base64url');
    const key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33)) }, format: 'jwk' });
    const [h, c, sig] = jwt.split('.');
    assert.deepEqual(JSON.parse(Buffer.from(h, 'base64url')), { typ: 'JWT', alg: 'ES256' });
    assert.ok(crypto.verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url')), 'the JWT verifies with k');
    return JSON.parse(Buffer.from(c, 'base64url'));
  }
}

module.exports = { PushServiceStandIn };
