// The shared text vectors (tests/text/*.json, README.md here) replayed against the TypeScript rules
// (editor-bridges/shared/text.ts): one node:test case per vector. The VS Code panel's test
// replays them in the extension's build (editor-bridges/vscode/test/text_vectors.test.ts), the page
// of askhost web's in the bytes the browser loads (tests/web/text_vectors.test.mjs); both call
// replayTextVectors with the module's exports. The panel's test passes its command-line splitter
// (editor-bridges/vscode/src/cmdline.ts) too; the page splits none.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { describe, test } = require('node:test');

const read = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, name), 'utf8'));

function rangeOf(s) {
  const [first, last = first] = s.split('-');
  return [parseInt(first, 16), parseInt(last, 16)];
}

const code = (cp) => `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`;

/** text: { visibleText, isInvisible, INVISIBLE, looksLikeHtml, previewText };
 *  splitCommandLine(line): string[], throwing an Error that says why it cannot. */
function replayTextVectors(text, { title, splitCommandLine }) {
  const visible = read('visible_text.json');
  const preview = read('preview_text.json');
  const commandLine = read('command_line.json');
  const utf8 = read('utf8_repair.json');
  describe(title, () => {
    for (const c of visible.cases) {
      test(`visible_text: ${c.about}`, () => {
        assert.equal(text.visibleText(c.in, false), c.one_line, 'one line');
        assert.equal(text.visibleText(c.in, true), c.lines ?? c.one_line, 'lines');
      });
    }
    test("visible_text: the invisible characters' table", () => {
      const ranges = visible.invisible.map(rangeOf);
      assert.deepEqual(text.INVISIBLE.map((r) => [...r]), ranges, "the table differs from the vectors' table");
      for (const [first, last] of ranges) {
        for (let cp = first; cp <= last; cp++) assert.equal(text.visibleText(String.fromCodePoint(cp)), code(cp));
        for (const cp of [first - 1, last + 1]) {
          if (cp > 0x9f && !text.isInvisible(cp)) assert.equal(text.visibleText(String.fromCodePoint(cp)), String.fromCodePoint(cp), code(cp));
        }
      }
    });
    test('visible_text: a lone surrogate is U+FFFD', () => {
      assert.equal(text.visibleText('a\ud800b\udc00'), 'a\ufffdb\ufffd');
    });
    for (const c of preview.cases) {
      test(`preview_text: ${c.about}`, () => {
        assert.equal(text.looksLikeHtml(c.preview), c.html, 'looks like HTML');
        if (c.text !== undefined) assert.equal(text.previewText(c.preview), c.text);
      });
    }
    // The TypeScript faces decode no UTF-8 of their own: the platform does (the panel's pipe to the
    // host is read by Node's decoder), by the rule the host and Neovim keep.
    for (const c of utf8.cases) {
      test(`utf8_repair: ${c.about}`, () => {
        assert.equal(new TextDecoder().decode(Buffer.from(c.bytes.replace(/ /g, ''), 'hex')), c.text);
      });
    }
    for (const c of splitCommandLine ? commandLine.cases : []) {
      test(`command_line: ${c.about}`, () => {
        if (c.error !== undefined) assert.throws(() => splitCommandLine(c.line), { message: c.error });
        else assert.deepEqual(splitCommandLine(c.line), c.argv);
      });
    }
  });
}

module.exports = { replayTextVectors };
