// The page protocol's vectors (tests/web/page_protocol.json) replayed against the page's side:
// host/web/page/dist/protocol.js, the very file askhost web serves (built from
// host/web/page/src/protocol.ts). The server's messages read as the vectors say (a refused one not
// at all), and the page's constructors make the page's messages as they are. askhost web's side
// replays the same file in tests/unit/test_page_protocol.cpp.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROTOCOL = path.resolve(HERE, '..', '..', 'host', 'web', 'page', 'dist', 'protocol.js');
const vectors = JSON.parse(fs.readFileSync(path.join(HERE, 'page_protocol.json'), 'utf8'));

// dist/ has no package.json saying "module": the served bytes are imported as they are.
const protocol = await import('data:text/javascript;base64,' + fs.readFileSync(PROTOCOL).toString('base64'));

/** The page's message made with its constructor from the vector's fields. */
function made(m) {
  switch (m.type) {
    case 'answer':
      return protocol.answerMessage(m.key, m.outcome);
    case 'push-subscribe':
      return protocol.pushSubscribeMessage(m.subscription);
    case 'push-unsubscribe':
      return protocol.pushUnsubscribeMessage(m.endpoint);
    default:
      throw new Error(`no constructor for ${m.type}`);
  }
}

describe('page protocol vectors (tests/web/page_protocol.json) in the page (host/web/page/dist/protocol.js)', () => {
  for (const c of vectors.server) {
    test(`server: ${c.about}`, () => {
      assert.deepEqual(protocol.readServerMessage(JSON.stringify(c.message)), c.message);
    });
  }
  for (const c of vectors.lenient) {
    test(`lenient: ${c.about}`, () => {
      assert.deepEqual(protocol.readServerMessage(JSON.stringify(c.message)), c.reads_as);
    });
  }
  for (const c of vectors.refused) {
    test(`refused: ${c.about}`, () => {
      assert.equal(protocol.readServerMessage(JSON.stringify(c.message)), undefined);
    });
  }
  test('refused: text that is not a JSON object', () => {
    for (const text of ['', '{', '[]', '"snapshot"', 'null']) assert.equal(protocol.readServerMessage(text), undefined, text);
  });
  for (const c of vectors.page) {
    test(`page: ${c.about}`, () => {
      assert.deepEqual(JSON.parse(JSON.stringify(made(c.message))), c.message);
    });
  }
  test('every message type each way has a vector, and no vector names another', () => {
    const types = (list) => [...new Set(list.map((c) => c.message.type))].sort();
    assert.deepEqual(types(vectors.server), [...protocol.SERVER_MESSAGE_TYPES].sort());
    assert.deepEqual(types(vectors.page), [...protocol.PAGE_MESSAGE_TYPES].sort());
  });
});
