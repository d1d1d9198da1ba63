// The question panel's page: draws the ViewState the extension sends and reports keys, clicks and
// typed text back. No dialog logic lives here (editor-bridges/shared/model.ts has it). Agent text is only ever set
// as textContent; option previews arrive as HTML the extension rendered from markdown with raw HTML
// escaped, and the page's Content-Security-Policy allows no script but this file.
import type { Permission, RowView, ViewState } from '../../shared/model';
import { answerField, dialogKey, el, permissionBox, permissionQuestion, showKept } from '../../shared/dom.js';

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
let view: ViewState | undefined;
// The shown ask's tool permission, if it is one: its command is drawn whole above the question.
let permission: Permission | undefined;
// The text fields outlive re-renders, so typing is never interrupted by an echo of itself.
const fields = new Map<string, HTMLTextAreaElement>();

function post(message: unknown): void {
  vscode.postMessage(message);
}

function field(key: string, kind: 'text' | 'notes', q: number, value: string, placeholder: string): HTMLTextAreaElement {
  let input = fields.get(key);
  if (!input) {
    input = answerField(kind, q, value, placeholder, 1, (typed) => post({ type: kind, q, value: typed }));
    fields.set(key, input);
  }
  return input;
}

function rowElement(v: ViewState, row: RowView, index: number): HTMLElement {
  const li = el('li', {
    class: ['option', row.cursor ? 'cursor' : '', row.other ? 'other' : '', row.recommended ? 'recommended' : '']
      .filter(Boolean)
      .join(' '),
    attrs: {
      role: 'option',
      'aria-selected': String(row.cursor),
      'data-row': String(index),
    },
  });
  if (v.multiSelect) {
    li.setAttribute('aria-checked', String(row.checked === true));
    li.appendChild(el('span', { class: 'check' + (row.checked ? ' checked' : ''), text: row.checked ? '✓' : '', attrs: { 'aria-hidden': 'true' } }));
  } else {
    li.appendChild(el('span', { class: 'key', text: row.key ? row.key + '.' : '', attrs: { 'aria-hidden': 'true' } }));
  }
  const body = el('div', { class: 'option-body' });
  body.appendChild(el('div', { class: 'label', text: row.label }));
  if (row.description) body.appendChild(el('div', { class: 'description', text: row.description }));
  if (row.other && (v.editing || v.text !== '')) {
    const input = field(`${v.askKey}:${v.q}:text`, 'text', v.q, v.text, 'Type your answer');
    input.readOnly = !v.editing;
    body.appendChild(input);
  }
  li.appendChild(body);
  li.addEventListener('click', (e) => {
    const t = e.target as HTMLElement;
    if (t instanceof HTMLTextAreaElement && !t.readOnly) return;
    post({ type: 'row', row: index });
  });
  return li;
}

function mayFocusField(e: Element | null): e is HTMLTextAreaElement {
  return e instanceof HTMLTextAreaElement && e.isConnected && document.hasFocus();
}

function render(v: ViewState): void {
  const previous = view;
  view = v;
  if (previous && previous.askKey !== v.askKey) {
    for (const k of [...fields.keys()]) if (!k.startsWith(v.askKey + ':')) fields.delete(k);
  }
  const focused = document.activeElement;
  const parts: (Node | undefined)[] = [];

  const meta = v.queue.count > 1 ? `${v.agent} asks · question set 1 of ${v.queue.count}` : `${v.agent} asks`;
  parts.push(el('div', { class: 'meta', text: meta }));

  if (v.tabs) {
    const nav = el('nav', { class: 'tabs', attrs: { role: 'tablist' } });
    // ← and → at the ends, as in the terminal's tab bar: the previous and next tab (they wrap).
    const step = (arrow: string, key: string, label: string) => {
      const b = el('button', { class: 'tab-step', text: arrow, attrs: { tabindex: '-1', 'aria-label': label } });
      b.addEventListener('click', () => post({ type: 'key', key }));
      return b;
    };
    nav.appendChild(step('←', 'BackTab', 'previous question'));
    v.tabs.forEach((t, i) => {
      // As in the terminal: a filled box for an answered question and for the one in view.
      const mark = t.submit ? '✓' : t.answered || t.current ? '■' : '□';
      const b = el(
        'button',
        {
          class: ['tab', t.current ? 'current' : '', t.answered ? 'answered' : '', t.submit ? 'submit' : ''].filter(Boolean).join(' '),
          attrs: { role: 'tab', 'aria-selected': String(t.current), tabindex: '-1', 'data-tab': String(i) },
        },
        el('span', { class: 'mark', text: mark, attrs: { 'aria-hidden': 'true' } }),
        el('span', { class: 'tab-label', text: t.label }),
      );
      b.addEventListener('click', () => post({ type: 'tab', index: i }));
      nav.appendChild(b);
    });
    nav.appendChild(step('→', 'Tab', 'next question'));
    parts.push(nav);
  } else if (v.header) {
    parts.push(el('div', { class: 'chip', text: v.header }));
  }

  const perm = v.kind !== 'review' ? permission : undefined;
  if (perm) parts.push(permissionBox(perm));
  // Under the whole command, the question from the typed permission, not its cut wording.
  const title = perm ? permissionQuestion(perm) : v.title;
  parts.push(el('h2', { class: 'question', text: title }));

  if (v.kind === 'options') {
    const list = el('ul', {
      class: 'options',
      attrs: { role: 'listbox', 'aria-multiselectable': String(v.multiSelect), 'aria-label': title },
    });
    // More than 6 options show 5 at a time, as in the terminal; the "more" lines scroll by a page.
    const moreLine = (n: number, arrow: string, key: string) => {
      const li = el('li', { class: 'more', text: `${arrow} ${n} more...`, attrs: { role: 'presentation' } });
      li.addEventListener('click', () => post({ type: 'key', key }));
      return li;
    };
    if (v.more.above > 0) list.appendChild(moreLine(v.more.above, '↑', 'PageUp'));
    v.rows.forEach((r) => list.appendChild(rowElement(v, r, r.index)));
    if (v.more.below > 0) list.appendChild(moreLine(v.more.below, '↓', 'PageDown'));
    if (v.hasPreviews) {
      const cursorRow = v.rows.find((r) => r.cursor);
      const aside = el('aside', { class: 'preview', attrs: { 'aria-label': 'Preview' } });
      if (cursorRow?.previewHtml !== undefined) {
        // Rendered by the extension from markdown with raw HTML escaped (src/preview.ts).
        aside.innerHTML = cursorRow.previewHtml;
      } else {
        aside.appendChild(el('p', { class: 'no-preview', text: 'No preview for this option' }));
      }
      parts.push(el('div', { class: 'choices with-preview' }, list, aside));
    } else {
      parts.push(el('div', { class: 'choices' }, list));
    }
  } else if (v.kind === 'text') {
    const input = field(`${v.askKey}:${v.q}:text`, 'text', v.q, v.text, 'Type your answer');
    input.readOnly = false;
    parts.push(el('div', { class: 'free-text' }, input));
  } else {
    const review = el('div', { class: 'review' });
    if (v.review.length > 0) {
      const dl = el('dl');
      for (const r of v.review) {
        const dt = el('dt', { text: r.label });
        dt.addEventListener('click', () => post({ type: 'tab', index: r.q }));
        dl.appendChild(dt);
        const dd = el('dd', {}, el('span', { class: 'answer', text: r.answer }));
        if (r.notes) dd.appendChild(el('span', { class: 'review-notes', text: r.notes }));
        dl.appendChild(dd);
      }
      review.appendChild(dl);
    }
    if (v.unanswered.length > 0) {
      const p = el('p', { class: 'unanswered', text: 'Unanswered: ' });
      v.unanswered.forEach((u, i) => {
        if (i > 0) p.appendChild(document.createTextNode(', '));
        const a = el('a', { text: u.label, attrs: { href: '#', 'data-tab': String(u.q) } });
        a.addEventListener('click', (e) => {
          e.preventDefault();
          post({ type: 'tab', index: u.q });
        });
        p.appendChild(a);
      });
      review.appendChild(p);
    }
    const submit = el('button', {
      class: 'primary submit-button',
      text: v.canSubmit ? 'Submit answers' : 'Submit answers (some are unanswered)',
      attrs: { tabindex: '-1' },
    });
    submit.addEventListener('click', () => post({ type: 'submit' }));
    review.appendChild(submit);
    parts.push(review);
  }

  if (v.notesEnabled && v.q >= 0) {
    const notes = field(`${v.askKey}:${v.q}:notes`, 'notes', v.q, v.notes, 'Notes for the agent (optional)');
    parts.push(el('label', { class: 'notes' }, el('span', { class: 'notes-label', text: 'Notes' }), notes));
  }

  if (v.confirm) {
    const yes = el('button', { class: 'primary', text: v.confirm.yes, attrs: { tabindex: '-1', 'data-confirm': 'yes' } });
    const no = el('button', { class: 'secondary', text: v.confirm.no, attrs: { tabindex: '-1', 'data-confirm': 'no' } });
    yes.addEventListener('click', () => post({ type: 'confirm', yes: true }));
    no.addEventListener('click', () => post({ type: 'confirm', yes: false }));
    parts.push(el('div', { class: 'confirm ' + v.confirm.kind, attrs: { role: 'alertdialog' } }, el('span', { class: 'confirm-text', text: v.confirm.text }), yes, no));
  }
  if (v.notice) parts.push(el('p', { class: 'notice', text: v.notice, attrs: { role: 'alert' } }));
  if (v.note) parts.push(el('p', { class: 'note', text: v.note, attrs: { role: 'alert' } }));
  parts.push(el('footer', { class: 'hint', text: v.hint }));

  // Moving a field out of the page and back blurs it: give it its focus and caret back.
  const caret =
    focused instanceof HTMLTextAreaElement
      ? { start: focused.selectionStart, end: focused.selectionEnd, dir: focused.selectionDirection ?? undefined }
      : undefined;
  app.replaceChildren(...(parts.filter(Boolean) as Node[]));
  app.classList.toggle('confirming', v.confirm !== undefined);
  if (mayFocusField(focused) && document.activeElement !== focused) {
    focused.focus();
    if (caret && caret.start !== null && caret.end !== null) focused.setSelectionRange(caret.start, caret.end, caret.dir);
  }

  // Focus follows the dialog's mode: the answer field while typing, else the list (the notes
  // field keeps the focus while it is being written in). Only inside a page that has the focus:
  // a panel opened beside an editor someone types in must not pull the keyboard into itself.
  const text = v.q >= 0 ? fields.get(`${v.askKey}:${v.q}:text`) : undefined;
  const mayFocus = document.hasFocus();
  if (v.notice) showKept(text, fields.get(`${v.askKey}:${v.q}:notes`), v);
  if (!mayFocus) {
    // The 'focus' listener below draws again, and places the focus, once the page gets it.
  } else if (v.editing && text && !v.confirm) {
    if (document.activeElement !== text) {
      text.focus();
      text.setSelectionRange(text.value.length, text.value.length);
    }
  } else if (!(focused instanceof HTMLTextAreaElement && focused.dataset.kind === 'notes' && focused.isConnected && !v.confirm)) {
    app.focus();
  }
  app.querySelector('.option.cursor')?.scrollIntoView({ block: 'nearest' });
}

// A question set that just appeared (while the person typed in an editor, say): keys in its
// first moment are dropped, not taken as a pick or a cancel.
const KEY_GUARD_MS = 400;
let guardAsk = '';
let guardUntil = 0;

document.addEventListener('keydown', (e) => {
  if (!view || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  if (Date.now() < guardUntil) {
    e.preventDefault();
    return;
  }
  const act = dialogKey(e, view);
  if (!act) return;
  e.preventDefault();
  if (act.do === 'notes') {
    fields.get(`${view.askKey}:${view.q}:notes`)?.focus();
    return;
  }
  if (act.do === 'leave' || act.leave) app.focus();
  if (act.do !== 'key') return;
  // The last keystrokes' text goes first, so the model commits what the field shows.
  if (act.text) post({ type: 'text', q: Number(act.text.dataset.q), value: act.text.value });
  post({ type: 'key', key: act.key });
});

window.addEventListener('message', (event: MessageEvent) => {
  const m = event.data as { type?: string; view?: ViewState; permission?: Permission };
  if (m?.type === 'render' && m.view) {
    permission = m.permission;
    if (m.view.askKey !== guardAsk) {
      guardAsk = m.view.askKey;
      guardUntil = Date.now() + KEY_GUARD_MS;
    }
    render(m.view);
  }
});
window.addEventListener('focus', () => {
  if (view) render(view);
});

post({ type: 'ready' });
