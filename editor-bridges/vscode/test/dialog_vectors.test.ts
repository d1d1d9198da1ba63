// The shared dialog test vectors (tests/dialog/*.json, README.md there) replayed against the VS
// Code panel's model, as the terminal's and Neovim's models replay them: one case per vector.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { DialogModel, charCount, isRecommended, normalizeQuestions, utf8Bytes } from '../src/model';

// out/test/ -> the repository root.
const VECTORS = path.resolve(__dirname, '..', '..', '..', '..', 'tests', 'dialog');

/** What the panel can show; a vector that requires more is skipped. */
const CAPABILITIES = new Set(['notes', 'previews']);

/** Keys as the webview reports them (KeyboardEvent.key, "BackTab" for Shift+Tab). */
const KEYS: Record<string, string> = {
  up: 'ArrowUp', down: 'ArrowDown', pageup: 'PageUp', pagedown: 'PageDown', home: 'Home', end: 'End',
  left: 'ArrowLeft', right: 'ArrowRight', tab: 'Tab', backtab: 'BackTab', enter: 'Enter', esc: 'Escape',
  space: ' ',
};

type KeyStep = string | { text?: string; paste?: string; note?: string; repeat?: number };
interface Vector {
  about: string;
  requires?: string[];
  questions: unknown[];
  steps: { keys: KeyStep[]; expect?: Record<string, unknown> }[];
  outcome?: unknown;
  answer_bytes?: number[];
}

function state(m: DialogModel, field: string, last: string): unknown {
  const q = Math.min(m.tab, m.questions.length - 1);
  const v = m.view({ askKey: 'vectors', agent: 'test' });
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
    case 'ticks': {
      const out: number[] = [];
      for (let r = 0; r < m.rowCount(q); r++) if (m.checked(q, r)) out.push(r);
      return out;
    }
    case 'answered': {
      const out: number[] = [];
      for (let i = 0; i < m.questions.length; i++) if (m.answered(i)) out.push(i);
      return out;
    }
    case 'recommended': {
      const out: number[] = [];
      m.questions[q].options.forEach((o, r) => {
        if (isRecommended(o.label)) out.push(r);
      });
      return out;
    }
    default:
      throw new Error(`unknown expectation ${field}`);
  }
}

function replay(v: Vector): void {
  const m = new DialogModel(normalizeQuestions(v.questions));
  v.steps.forEach((step, n) => {
    let last = 'ignored';
    for (const k of step.keys) {
      const q = m.tab;
      if (typeof k === 'string') {
        if (k === 'backspace') {
          // The text field's own key: one character less.
          last = m.setText(q, [...m.text(q)].slice(0, -1).join(''));
        } else {
          last = m.key(KEYS[k] ?? k);
        }
      } else if (k.note !== undefined) {
        last = m.setNotes(q, m.notes(q) + k.note.repeat(k.repeat ?? 1));
      } else {
        assert.ok(!m.onSubmitTab && m.editing(q) && !m.confirming, `step ${n + 1}: text outside a text input`);
        last = m.setText(q, m.text(q) + (k.text ?? k.paste ?? '').repeat(k.repeat ?? 1));
      }
      m.view({ askKey: 'vectors', agent: 'test' }); // the panel draws after every key
    }
    for (const [field, want] of Object.entries(step.expect ?? {})) {
      assert.deepEqual(state(m, field, last), want, `step ${n + 1} ${JSON.stringify(step.keys)}: expect.${field}`);
    }
  });
  if (v.answer_bytes) {
    const o = m.outcome;
    assert.ok(o && o.answered, 'answer_bytes: not answered');
    if (o && o.answered) {
      assert.deepEqual(
        o.answers.map((a) => utf8Bytes(Array.isArray(a.answer) ? a.answer.join('') : a.answer)),
        v.answer_bytes,
      );
    }
  }
  if (v.outcome === null) assert.equal(m.finished, false, 'the dialog finished');
  else if (v.outcome !== undefined) assert.deepEqual(m.outcome, v.outcome);
}

describe('dialog vectors (tests/dialog)', () => {
  const files = fs.readdirSync(VECTORS).filter((f) => f.endsWith('.json')).sort();
  test('there are vectors', () => assert.ok(files.length > 0, VECTORS));
  for (const f of files) {
    const v = JSON.parse(fs.readFileSync(path.join(VECTORS, f), 'utf8')) as Vector;
    const missing = (v.requires ?? []).filter((c) => !CAPABILITIES.has(c));
    test(`${f.replace(/\.json$/, '')}: ${v.about}`, { skip: missing.length ? `no ${missing.join(', ')}` : false }, () =>
      replay(v),
    );
  }
});
