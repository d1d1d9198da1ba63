// The shared dialog vectors (tests/dialog/*.json, README.md here) replayed against the TypeScript
// dialog model (editor-bridges/shared/model.ts): one node:test case per vector. The VS Code
// panel's test replays them in its compiled model (editor-bridges/vscode/test/dialog_vectors.test.ts),
// the page of askhost web's in the bytes the browser loads (tests/web/dialog_vectors.test.mjs);
// both call replayVectors with the model's exports.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { describe, test } = require('node:test');

const VECTORS = __dirname;

/** What the panel and the page show; a vector that requires more is skipped. */
const CAPABILITIES = new Set(['notes', 'previews']);

/** Keys as a webview reports them (KeyboardEvent.key, "BackTab" for Shift+Tab). */
const KEYS = {
  up: 'ArrowUp', down: 'ArrowDown', pageup: 'PageUp', pagedown: 'PageDown', home: 'Home', end: 'End',
  left: 'ArrowLeft', right: 'ArrowRight', tab: 'Tab', backtab: 'BackTab', enter: 'Enter', esc: 'Escape',
  space: ' ',
};

function state(model, m, view, field, last) {
  const { charCount, isRecommended, utf8Bytes } = model;
  const q = Math.min(m.tab, m.questions.length - 1);
  const v = m.view(view);
  const rows = (pred) => {
    const out = [];
    for (let r = 0; r < m.rowCount(q); r++) if (pred(r)) out.push(r);
    return out;
  };
  switch (field) {
    case 'tab': return m.tab;
    case 'cursor': return m.cursor(q);
    case 'mode':
      if (m.confirming) return `confirm_${m.confirming}`;
      return !m.onSubmitTab && m.editing(q) ? 'edit' : 'browse';
    case 'result': return last;
    case 'text': return m.text(q);
    case 'text_chars': return charCount(m.text(q));
    case 'text_bytes': return utf8Bytes(m.text(q));
    case 'notes': return m.notes(q);
    case 'confirm': return m.confirmText() ?? null;
    case 'hint': return m.hint();
    case 'notice': return m.notice() ?? null;
    case 'more': return [v.more.above, v.more.below];
    case 'ticks': return rows((r) => m.checked(q, r));
    case 'answered': return m.questions.map((_, i) => i).filter((i) => m.answered(i));
    case 'recommended': return m.questions[q].options.map((o, r) => (isRecommended(o.label) ? r : -1)).filter((r) => r >= 0);
    default:
      throw new Error(`unknown expectation ${field}`);
  }
}

function replay(model, view, v) {
  const { DialogModel, normalizeQuestions, utf8Bytes } = model;
  const m = new DialogModel(normalizeQuestions(v.questions));
  v.steps.forEach((step, n) => {
    let last = 'ignored';
    for (const k of step.keys) {
      const q = m.tab;
      if (typeof k === 'string') {
        // backspace is the text field's own key: one character less.
        last = k === 'backspace' ? m.setText(q, [...m.text(q)].slice(0, -1).join('')) : m.key(KEYS[k] ?? k);
      } else if (k.note !== undefined) {
        last = m.setNotes(q, m.notes(q) + k.note.repeat(k.repeat ?? 1));
      } else {
        assert.ok(!m.onSubmitTab && m.editing(q) && !m.confirming, `step ${n + 1}: text outside a text input`);
        last = m.setText(q, m.text(q) + (k.text ?? k.paste ?? '').repeat(k.repeat ?? 1));
      }
      m.view(view); // the face draws after every key
    }
    for (const [field, want] of Object.entries(step.expect ?? {})) {
      assert.deepEqual(state(model, m, view, field, last), want, `step ${n + 1} ${JSON.stringify(step.keys)}: expect.${field}`);
    }
  });
  if (v.answer_bytes) {
    const o = m.outcome;
    assert.ok(o && o.answered, 'answer_bytes: not answered');
    assert.deepEqual(o.answers.map((a) => utf8Bytes(Array.isArray(a.answer) ? a.answer.join('') : a.answer)), v.answer_bytes);
  }
  if (v.outcome === null) assert.equal(m.finished, false, 'the dialog finished');
  else if (v.outcome !== undefined) assert.deepEqual(m.outcome, v.outcome);
}

/**
 * Every vector as a test case, replayed in `model` (the exports of model.ts: DialogModel,
 * normalizeQuestions, charCount, utf8Bytes, isRecommended), drawn after every key with `view`
 * (the face's options for DialogModel.view), under the suite named `title`.
 */
function replayVectors(model, { title, view }) {
  describe(title, () => {
    const files = fs.readdirSync(VECTORS).filter((f) => f.endsWith('.json')).sort();
    test('there are vectors', () => assert.ok(files.length > 0, VECTORS));
    for (const f of files) {
      const v = JSON.parse(fs.readFileSync(path.join(VECTORS, f), 'utf8'));
      const missing = (v.requires ?? []).filter((c) => !CAPABILITIES.has(c));
      test(`${f.replace(/\.json$/, '')}: ${v.about}`, { skip: missing.length ? `no ${missing.join(', ')}` : false }, () =>
        replay(model, view, v));
    }
  });
}

module.exports = { replayVectors };
