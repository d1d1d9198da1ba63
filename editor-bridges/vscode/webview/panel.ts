// The question panel's page: draws the ViewState the extension sends (the drawing the page of
// askhost web shares, editor-bridges/shared/draw.ts) and reports keys, clicks and typed text back.
// No dialog logic lives here (editor-bridges/shared/model.ts has it). Agent text is only ever set
// as textContent; option previews arrive as HTML the extension rendered from markdown with raw HTML
// escaped, and the page's Content-Security-Policy allows no script but this file.
import type { Permission, ViewState } from '../../shared/model';
import { actOnKey, answerField, el, KeptFields, showKept } from '../../shared/dom.js';
import { drawDialog, type DialogActions } from '../../shared/draw.js';

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
const fields = new KeptFields();

// Each message names the ask it was drawn for: the extension takes it for that ask only.
function post(message: Record<string, unknown>): void {
  vscode.postMessage({ ...message, askKey: view?.askKey });
}

function field(ask: string, kind: 'text' | 'notes', q: number, value: string, placeholder: string): HTMLTextAreaElement {
  return fields.keep(ask, q, kind, () => answerField(kind, q, value, placeholder, 1, (typed) => post({ type: kind, q, value: typed })));
}

function mayFocusField(e: Element | null): e is HTMLTextAreaElement {
  return e instanceof HTMLTextAreaElement && e.isConnected && document.hasFocus();
}

// What the panel's controls do: each goes to the extension, whose model answers with a new view.
const actions: DialogActions = {
  key: (key) => post({ type: 'key', key }),
  row: (row) => post({ type: 'row', row: row.index }),
  tab: (index) => post({ type: 'tab', index }),
  submit: () => post({ type: 'submit' }),
  confirm: (yes) => post({ type: 'confirm', yes }),
};

function render(v: ViewState): void {
  const previous = view;
  view = v;
  if (previous && previous.askKey !== v.askKey) {
    fields.forget(v.askKey, true);
  }
  const focused = document.activeElement;
  const meta = v.queue.count > 1 ? `${v.agent} asks · question set 1 of ${v.queue.count}` : `${v.agent} asks`;
  const parts = drawDialog(v, {
    actions,
    field: (kind, q, value, placeholder) => field(v.askKey, kind, q, value, placeholder),
    head: [el('div', { class: 'meta', text: meta })],
    permission,
    // Keys go to the dialog, not from button to button.
    buttonAttrs: { tabindex: '-1' },
    words: { notes: 'Notes', notesPlaceholder: 'Notes for the agent (optional)' },
    htmlPreviews: true,
  });

  // Moving a field out of the page and back blurs it: give it its focus and caret back.
  const caret =
    focused instanceof HTMLTextAreaElement
      ? { start: focused.selectionStart, end: focused.selectionEnd, dir: focused.selectionDirection ?? undefined }
      : undefined;
  app.replaceChildren(...parts);
  app.classList.toggle('confirming', v.confirm !== undefined);
  if (mayFocusField(focused) && document.activeElement !== focused) {
    focused.focus();
    if (caret && caret.start !== null && caret.end !== null) focused.setSelectionRange(caret.start, caret.end, caret.dir);
  }

  // Focus follows the dialog's mode: the answer field while typing, else the list (the notes
  // field keeps the focus while it is being written in). Only inside a page that has the focus:
  // a panel opened beside an editor someone types in must not pull the keyboard into itself.
  const text = v.q >= 0 ? fields.get(v.askKey, v.q, 'text') : undefined;
  const mayFocus = document.hasFocus();
  if (v.notice) showKept(text, fields.get(v.askKey, v.q, 'notes'), v);
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

// Clicks in that moment too: a double-click's second click on the question set that replaced the
// one its first click answered (a second permission's Allow in the same place) is no answer.
document.addEventListener(
  'click',
  (e) => {
    if (Date.now() < guardUntil) {
      e.preventDefault();
      e.stopPropagation();
    }
  },
  true,
);

document.addEventListener('keydown', (e) => {
  if (!view || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  if (Date.now() < guardUntil) {
    e.preventDefault();
    return;
  }
  const v = view;
  actOnKey(e, v, {
    notes: () => fields.get(v.askKey, v.q, 'notes'),
    list: app,
    key: (key, text) => {
      // The last keystrokes' text goes first, so the model commits what the field shows.
      if (text) post({ type: 'text', q: Number(text.dataset.q), value: text.value });
      post({ type: 'key', key });
    },
  });
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
