// What the VS Code panel (panel.ts) and the page of `askhost web` (host/web/page/src/app.ts) draw
// and read alike: elements (agent text shown by text.ts's rule), the answer and notes fields, and
// which keys belong to the dialog. The dialog's rules are not here (model.ts has them); each
// face builds this file for itself (the panel's out/web/shared/dom.js, the page's dist/dom.js).
import type { Permission, ViewState } from './model';
import { visibleText } from './text.js';

/** An element. Its text, and its `aria-label` and `title`, are shown by the one rule for agent text
 *  (text.ts: controls and invisible characters made visible), so no face draws text another way. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; text?: string; attrs?: Record<string, string> } = {},
  ...children: (Node | undefined)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (props.class) e.className = props.class;
  if (props.text !== undefined) e.textContent = visibleText(props.text, true);
  for (const [k, v] of Object.entries(props.attrs ?? {})) e.setAttribute(k, k === 'aria-label' || k === 'title' ? visibleText(v) : v);
  for (const c of children) if (c) e.appendChild(c);
  return e;
}

// A field grows with its lines (a paste keeps its line breaks), up to this many.
const MAX_FIELD_ROWS = 8;

function fitRows(area: HTMLTextAreaElement): void {
  const least = Number(area.dataset.minRows ?? '1');
  area.rows = Math.max(least, Math.min(MAX_FIELD_ROWS, area.value.split('\n').length));
}

/** The Other answer's field or the notes' field of question `q`: a textarea, not an input, so a
 *  pasted line break stays a line break (Enter is still a key). `onInput` hears each change. */
export function answerField(
  kind: 'text' | 'notes',
  q: number,
  value: string,
  placeholder: string,
  minRows: number,
  onInput: (value: string) => void,
): HTMLTextAreaElement {
  const area = document.createElement('textarea');
  area.className = kind === 'text' ? 'answer-input' : 'notes-input';
  area.placeholder = placeholder;
  area.spellcheck = kind === 'notes';
  area.setAttribute('aria-label', placeholder);
  area.value = value;
  area.dataset.q = String(q);
  area.dataset.kind = kind;
  area.dataset.minRows = String(minRows);
  fitRows(area);
  area.addEventListener('input', () => {
    fitRows(area);
    onInput(area.value);
  });
  return area;
}

/** The Other and notes fields a face keeps across draws, by ask, question and kind, so that typing
 *  is never interrupted by a redraw. */
export class KeptFields {
  private readonly fields = new Map<string, HTMLTextAreaElement>();

  private static id(ask: string, q: number, kind: 'text' | 'notes'): string {
    return `${ask}\u0000${q}\u0000${kind}`;
  }

  get(ask: string, q: number, kind: 'text' | 'notes'): HTMLTextAreaElement | undefined {
    return this.fields.get(KeptFields.id(ask, q, kind));
  }

  /** The field kept for question `q` of `ask`, or the one `make` makes, kept from now on. */
  keep(ask: string, q: number, kind: 'text' | 'notes', make: () => HTMLTextAreaElement): HTMLTextAreaElement {
    const id = KeptFields.id(ask, q, kind);
    let area = this.fields.get(id);
    if (!area) {
      area = make();
      this.fields.set(id, area);
    }
    return area;
  }

  /** Forgets the fields of `ask` (with `others`, those of every other ask). */
  forget(ask: string, others = false): void {
    const prefix = ask + '\u0000';
    for (const id of [...this.fields.keys()]) if (id.startsWith(prefix) !== others) this.fields.delete(id);
  }
}

/** Past the 100 000-byte limit the rest was not kept: the fields show what will be sent. */
export function showKept(text: HTMLTextAreaElement | undefined, notes: HTMLTextAreaElement | undefined, v: ViewState): void {
  for (const [f, value] of [[text, v.text], [notes, v.notes]] as const) {
    if (f && f.value !== value) {
      f.value = value;
      fitRows(f);
    }
  }
}

// The keys of docs/dialog.md a list or a tab takes; digits pick by number too.
const LIST_KEYS = new Set([
  'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown',
  'Tab', 'BackTab', 'Enter', 'Escape', ' ', 'j', 'k', 'y', 'Y', 'n', 'N',
]);
// In the Other field, the keys that leave it for the dialog; the rest are typing.
const TEXT_KEYS = new Set(['Enter', 'Escape', 'Tab', 'BackTab', 'ArrowUp', 'PageUp']);

/** What a key pressed in the dialog does:
 *  - `leave`: out of the notes field, back to the list (Enter, Escape);
 *  - `notes`: into the notes field (n);
 *  - `key`: the dialog model's key, after leaving the notes field (`leave`) or after giving the
 *    model the Other field's text as it stands (`text`: the last keystrokes go first). */
export type DialogKey =
  | { do: 'leave' }
  | { do: 'notes' }
  | { do: 'key'; key: string; leave?: boolean; text?: HTMLTextAreaElement };

/** The dialog's reading of a keydown, or undefined for a key that is not the dialog's (typing,
 *  a shortcut with Ctrl, Alt or Meta). The caller prevents the default of what it acts on. */
export function dialogKey(ev: KeyboardEvent, v: Pick<ViewState, 'confirm' | 'notesEnabled' | 'q'>): DialogKey | undefined {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.isComposing) return undefined;
  const key = ev.key === 'Tab' && ev.shiftKey ? 'BackTab' : ev.key;
  const target = ev.target;
  if (target instanceof HTMLTextAreaElement && target.dataset.kind === 'notes') {
    if (key === 'Enter' || key === 'Escape') return { do: 'leave' };
    if (key === 'Tab' || key === 'BackTab') return { do: 'key', key, leave: true };
    return undefined;
  }
  if (target instanceof HTMLTextAreaElement && target.dataset.kind === 'text' && !target.readOnly && !v.confirm) {
    const empty = target.value === '';
    if (TEXT_KEYS.has(key) || ((key === 'ArrowLeft' || key === 'ArrowRight') && empty)) return { do: 'key', key, text: target };
    return undefined;
  }
  if (!v.confirm && key === 'n' && v.notesEnabled && v.q >= 0) return { do: 'notes' };
  if (LIST_KEYS.has(key) || /^[0-9]$/.test(key)) return { do: 'key', key };
  return undefined;
}

/** What a face does with a keydown, alike in the panel and the page: a key of the dialog's
 *  (dialogKey) has its default prevented, then goes into the notes field (`notes`), back to the
 *  list (`list` takes the focus), or to the face's `key` (with the Other field whose text the model
 *  must take first). False for a key that is not the dialog's. */
export function actOnKey(
  ev: KeyboardEvent,
  v: Pick<ViewState, 'confirm' | 'notesEnabled' | 'q'>,
  face: { notes(): HTMLTextAreaElement | undefined; list: HTMLElement; key(key: string, text?: HTMLTextAreaElement): void },
): boolean {
  const act = dialogKey(ev, v);
  if (!act) return false;
  ev.preventDefault();
  if (act.do === 'notes') {
    face.notes()?.focus();
    return true;
  }
  if (act.do === 'leave' || act.leave) face.list.focus();
  if (act.do === 'key') face.key(act.key, act.text);
  return true;
}

/** An edit writes, even one that only deletes (a replaced text and no content); with neither it
 *  may only read the file (Read, Grep). */
function writes(p: Permission): boolean {
  return Boolean(p.content || p.replaces);
}

/** The permission's heading: "Bash wants to run", "Write wants to write notes.txt", and with no
 *  content (it may only read it: Read, Grep) "Read wants to access /etc/hosts". */
export function permissionHeading(p: Permission): string {
  const who = p.tool || 'The agent';
  if (!p.command && p.path) return `${who} wants to ${writes(p) ? 'write' : 'access'} ${p.path}`;
  return `${who} wants to run`;
}

/**
 * The question a permission asks, from its typed fields, under the box that shows the whole
 * command: its wording names the command again, cut short (`Allow Bash: echo aaa… (321 more
 * characters)?`).
 */
export function permissionQuestion(p: Permission): string {
  const who = p.tool || 'the agent';
  if (p.command) return `Allow ${who} to run this command?`;
  if (p.path) return writes(p) ? `Allow ${who} to change this file?` : `Allow ${who} to access this file?`;
  return `Allow ${who}?`;
}

/** A permission's box: the whole command (with where it looks or writes), or the file, the text an
 *  edit replaces and what replaces it, each in a wrapped, scrolling block that is never cut, then
 *  the agent's reason, its own claim, last. */
export function permissionBox(p: Permission): HTMLElement {
  const box = el('div', { class: 'permission-box' });
  box.appendChild(el('div', { class: 'perm-tool', text: permissionHeading(p) }));
  const block = (text: string, name: string) =>
    el('pre', { class: 'command', text, attrs: { 'data-field': name, tabindex: '0', 'aria-label': name } });
  const label = (text: string) => box.appendChild(el('div', { class: 'perm-tool', text }));
  if (p.command) {
    box.appendChild(block(p.command, 'command'));
    if (p.path) label(writes(p) ? `to ${p.path}` : `in ${p.path}`);
  }
  if (p.replaces) {
    label('replacing');
    box.appendChild(block(p.replaces, 'replaces'));
    label(p.content ? 'with' : 'with nothing (deleting it)');
  }
  if (p.content) box.appendChild(block(p.content, 'content'));
  if (p.reason) box.appendChild(el('p', { class: 'perm-detail', text: `The agent says: ${p.reason}` }));
  return box;
}
