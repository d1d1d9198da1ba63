// One ask's dialog state without any window: keys and clicks in, a view and an outcome out.
// The same rules as the terminal dialog (host/frontends/tui/dialog_model.cpp) and the Neovim
// dialog: number keys pick, 0 is Other, Space toggles, Tab walks the questions and a Submit tab,
// Enter confirms, Esc cancels (asking "Discard N answers?" once something is answered). The webview
// only draws the view and forwards keys, so everything here runs in unit tests without a browser.
// The page of `askhost web` (host/web/page) builds this same file for the browser, beside its own
// app.js: keep it free of imports, Node and VS Code alike.
export const OTHER_LABEL = 'Other (type your answer)';
/** The spec's soft limit per typed answer: longer asks "Continue anyway?". */
export const SOFT_LIMIT = 2000;
/**
 * Typed text (an answer or a note) stops at the agent's result cap, in UTF-8 bytes, no lower; the
 * rest is not kept and the panel says so in these words (docs/dialog.md).
 */
export const MAX_TEXT_BYTES = 100000;
export const CAP_NOTICE = 'Answer is at its 100,000-byte limit: the rest was not kept';
function str(v) {
    if (v === undefined || v === null)
        return undefined;
    return typeof v === 'string' ? v : String(v);
}
/** The `permission` of an ask, or undefined when it is none (or not an object). */
export function normalizePermission(raw) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
        return undefined;
    const p = raw;
    const s = (v) => (typeof v === 'string' ? v : '');
    return {
        tool: s(p.tool),
        command: s(p.command),
        path: s(p.path),
        content: s(p.content),
        replaces: s(p.replaces),
        reason: s(p.reason),
    };
}
/** Questions as received on the wire (missing fields, nulls) turned into plain values. */
export function normalizeQuestions(raw) {
    if (!Array.isArray(raw))
        return [];
    return raw
        .filter((q) => typeof q === 'object' && q !== null)
        .map((q) => {
        const options = (Array.isArray(q.options) ? q.options : [])
            .filter((o) => typeof o === 'object' && o !== null)
            .map((o) => {
            const out = { label: str(o.label) ?? '' };
            const d = str(o.description);
            if (d)
                out.description = d;
            const p = str(o.preview);
            if (p)
                out.preview = p;
            return out;
        });
        const spec = {
            question: str(q.question) ?? '',
            options,
            multiSelect: q.multiSelect === true && options.length > 0,
        };
        const h = str(q.header);
        if (h)
            spec.header = h;
        return spec;
    });
}
export function isRecommended(label) {
    // One rule in all three dialogs: ASCII whitespace after the mark is ignored, nothing else.
    return label.replace(/[ \t\n\r\f\v]+$/, '').endsWith('(Recommended)');
}
/** 2847 -> "2,847" */
export function formatCount(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
function plural(n, word) {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}
/** Characters as a person counts them (code points, not UTF-16 units). */
export function charCount(s) {
    return Array.from(s).length;
}
/** UTF-8 bytes of s. */
export function utf8Bytes(s) {
    let n = 0;
    for (const ch of s) {
        const c = ch.codePointAt(0);
        n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    }
    return n;
}
/** The longest prefix of s within `max` UTF-8 bytes that ends on a whole character. */
export function cutBytes(s, max) {
    if (s.length * 3 <= max)
        return s;
    let n = 0;
    let end = 0;
    for (const ch of s) {
        const c = ch.codePointAt(0);
        const b = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        if (n + b > max)
            break;
        n += b;
        end += ch.length;
    }
    return s.slice(0, end);
}
/**
 * Text as a text field keeps it: CR LF and a lone CR are one line break, a tab is a space, other
 * control characters go.
 */
export function cleanText(s) {
    // eslint-disable-next-line no-control-regex
    return s.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(/[\x00-\x09\x0b-\x1f\x7f]/g, '');
}
/** Spaces and line breaks off both ends (the only blanks cleaned text has), nothing else. */
function trimBlank(s) {
    return s.replace(/^[ \n]+|[ \n]+$/g, '');
}
/** Why a key was refused, shown under the question until the next key. */
const REJECTED = {
    submit: 'Answer every question to submit',
    text: 'Type an answer first',
    multi: 'Check at least one option',
    row: 'No such option',
};
export class DialogModel {
    questions;
    states;
    tabIndex = 0;
    confirm;
    longChars = 0;
    note;
    capHit = false;
    finishedOutcome;
    constructor(questions) {
        this.questions = questions;
        this.states = questions.map((q) => ({
            cursor: 0,
            scroll: 0,
            checked: q.multiSelect ? new Array(q.options.length + 1).fill(false) : [],
            text: '',
            editingOther: false,
            notes: '',
        }));
    }
    // ------------------------------------------------------------------ queries
    get outcome() {
        return this.finishedOutcome;
    }
    get finished() {
        return this.finishedOutcome !== undefined;
    }
    get tab() {
        return this.tabIndex;
    }
    get multiQuestion() {
        return this.questions.length > 1;
    }
    get tabCount() {
        return this.questions.length + (this.multiQuestion ? 1 : 0);
    }
    get onSubmitTab() {
        return this.multiQuestion && this.tabIndex === this.questions.length;
    }
    get confirming() {
        return this.confirm;
    }
    freeText(q) {
        return this.questions[q].options.length === 0;
    }
    rowCount(q) {
        return this.freeText(q) ? 0 : this.questions[q].options.length + 1;
    }
    otherRow(q) {
        return this.questions[q].options.length;
    }
    cursor(q) {
        return this.states[q].cursor;
    }
    checked(q, row) {
        return this.states[q].checked[row] === true;
    }
    text(q) {
        return this.states[q].text;
    }
    notes(q) {
        return this.states[q].notes;
    }
    editing(q) {
        return this.freeText(q) || this.states[q].editingOther;
    }
    answered(q) {
        return this.states[q].answer !== undefined;
    }
    answeredCount() {
        return this.states.filter((s) => s.answer !== undefined).length;
    }
    unanswered() {
        const out = [];
        this.states.forEach((s, q) => {
            if (!s.answer)
                out.push(q);
        });
        return out;
    }
    /** The name of a question in tabs and the review: its header, else its text. */
    tabLabel(q) {
        const qu = this.questions[q];
        return qu.header ? qu.header : qu.question;
    }
    // ------------------------------------------------------------------ input
    /**
     * A key as the webview reports it: KeyboardEvent.key ("ArrowDown", "Enter", "Escape", "Tab",
     * "Home", "End", "PageUp", "PageDown", a character), with "BackTab" for Shift+Tab.
     */
    key(key) {
        if (this.finishedOutcome || this.questions.length === 0)
            return 'ignored';
        const before = this.note;
        this.note = undefined;
        this.capHit = false;
        let r;
        if (this.confirm === 'discard')
            r = this.keyConfirmDiscard(key);
        else if (this.confirm === 'long')
            r = this.keyConfirmLong(key);
        else if (this.onSubmitTab)
            r = this.keySubmitTab(key);
        else if (this.editing(this.tabIndex))
            r = this.keyEdit(key);
        else
            r = this.keyBrowse(key);
        return r === 'ignored' && before !== undefined ? 'changed' : r;
    }
    /** The limit's words while the last text was not kept whole (CAP_NOTICE), else undefined. */
    notice() {
        return this.capHit ? CAP_NOTICE : undefined;
    }
    keep(text) {
        text = cleanText(text);
        const kept = cutBytes(text, MAX_TEXT_BYTES);
        this.capHit = kept.length < text.length;
        return kept;
    }
    /**
     * The typed text of question q (Other or free text) as the text field holds it now, line breaks
     * and all. Past MAX_TEXT_BYTES the rest is not kept: the field is given text(q) back.
     */
    setText(q, text) {
        if (this.finishedOutcome || q < 0 || q >= this.questions.length)
            return 'ignored';
        const s = this.states[q];
        if (text === s.text)
            return 'ignored'; // the field echoing what it was given: the notice stays
        text = this.keep(text);
        if (text === s.text)
            return this.capHit ? 'changed' : 'ignored';
        s.text = text;
        if (this.questions[q].multiSelect && !s.editingOther)
            this.refreshMulti(q);
        return 'changed';
    }
    setNotes(q, notes) {
        if (this.finishedOutcome || q < 0 || q >= this.questions.length)
            return 'ignored';
        if (notes === this.states[q].notes)
            return 'ignored';
        notes = this.keep(notes);
        if (notes === this.states[q].notes)
            return this.capHit ? 'changed' : 'ignored';
        this.states[q].notes = notes;
        return 'changed';
    }
    /**
     * A click on row `row` of the current question: as its number key would. On a multi-select
     * the ticked boxes are its answer at once (nothing to press Enter on with a mouse), so a
     * question answered by clicks alone can be submitted; unticking them all unanswers it.
     */
    clickRow(row) {
        if (this.finishedOutcome || this.confirm || this.onSubmitTab)
            return 'ignored';
        if (row < 0 || row >= this.rowCount(this.tabIndex))
            return 'ignored';
        this.note = undefined;
        // A pick may move on to another tab (or to Submit): the ticks are the clicked question's.
        const q = this.tabIndex;
        const r = this.quickSelect(row);
        if (r === 'changed' && this.questions[q].multiSelect)
            this.refreshMulti(q, true);
        return r;
    }
    /** A click on a tab: the question, or the Submit tab after the last question. */
    clickTab(index) {
        if (this.finishedOutcome || this.confirm || !this.multiQuestion)
            return 'ignored';
        if (index < 0 || index >= this.tabCount || index === this.tabIndex)
            return 'ignored';
        this.note = undefined;
        if (!this.onSubmitTab)
            this.leaveEdit();
        this.tabIndex = index;
        return 'changed';
    }
    /** The Submit button on the Submit tab: as Enter there. */
    clickSubmit() {
        if (!this.onSubmitTab || this.confirm)
            return 'ignored';
        return this.key('Enter');
    }
    /** A confirmation's buttons: as y / n. */
    clickConfirm(yes) {
        if (!this.confirm)
            return 'ignored';
        return this.key(yes ? 'y' : 'n');
    }
    /**
     * Esc from outside the keys (the panel was closed): cancel at once when nothing is answered,
     * else start the "Discard N answers?" confirmation.
     */
    escape() {
        this.note = undefined;
        if (this.answeredCount() === 0) {
            this.finishedOutcome = { answered: false, cancelled: true };
            return 'finished';
        }
        this.confirm = 'discard';
        return 'changed';
    }
    /** Cancel without asking (the person confirmed elsewhere). */
    cancel() {
        this.confirm = undefined;
        this.finishedOutcome = { answered: false, cancelled: true };
    }
    // ------------------------------------------------------------------ key handlers
    keyBrowse(key) {
        const q = this.questions[this.tabIndex];
        const s = this.states[this.tabIndex];
        switch (key) {
            case 'ArrowUp':
            case 'k':
                return this.moveCursor(-1);
            case 'ArrowDown':
            case 'j':
                return this.moveCursor(1);
            case 'PageUp':
                return this.moveCursor(-this.pageRows(this.tabIndex));
            case 'PageDown':
                return this.moveCursor(this.pageRows(this.tabIndex));
            case 'Home':
                return this.setCursor(0);
            case 'End':
                return this.setCursor(this.otherRow(this.tabIndex));
            case 'Tab':
            case 'ArrowRight':
                return this.switchTab(1);
            case 'BackTab':
            case 'ArrowLeft':
                return this.switchTab(-1);
            case 'Escape':
                return this.escape();
            case 'Enter':
                if (q.multiSelect)
                    return this.submitMultiSelect();
                return this.chooseRow(s.cursor);
            case ' ':
                return q.multiSelect ? this.toggleRow(s.cursor) : 'ignored';
            case '0':
                return this.quickSelect(this.otherRow(this.tabIndex));
            default:
                if (key.length === 1 && key >= '1' && key <= '9') {
                    const row = key.charCodeAt(0) - '1'.charCodeAt(0);
                    if (row >= this.rowCount(this.tabIndex))
                        return this.reject('row');
                    return this.quickSelect(row);
                }
                return 'ignored';
        }
    }
    // The text field itself takes characters, Backspace, Home/End and the caret's arrows; only the
    // keys that mean something to the dialog arrive here.
    keyEdit(key) {
        const other = !this.freeText(this.tabIndex);
        switch (key) {
            case 'Tab':
                return this.switchTab(1);
            case 'BackTab':
                return this.switchTab(-1);
            // With nothing typed the arrows still switch tabs, as on every other tab.
            case 'ArrowLeft':
                return this.text(this.tabIndex) === '' ? this.switchTab(-1) : 'ignored';
            case 'ArrowRight':
                return this.text(this.tabIndex) === '' ? this.switchTab(1) : 'ignored';
            case 'ArrowUp':
            case 'PageUp':
                if (!other)
                    return 'ignored';
                this.leaveEdit();
                this.moveCursor(-1);
                return 'changed';
            case 'Enter':
                return this.commitText(false);
            case 'Escape':
                if (other) {
                    // Back to the list, keeping what was typed.
                    this.leaveEdit();
                    return 'changed';
                }
                return this.escape();
            default:
                return 'ignored';
        }
    }
    keySubmitTab(key) {
        switch (key) {
            case 'Enter':
                if (this.answeredCount() !== this.questions.length)
                    return this.reject('submit');
                this.finishAnswered();
                return 'finished';
            case 'Tab':
            case 'ArrowRight':
                return this.switchTab(1);
            case 'BackTab':
            case 'ArrowLeft':
                return this.switchTab(-1);
            case 'Escape':
                return this.escape();
            default:
                return 'ignored';
        }
    }
    keyConfirmDiscard(key) {
        if (key === 'y' || key === 'Y') {
            this.cancel();
            return 'finished';
        }
        if (key === 'n' || key === 'N' || key === 'Escape' || key === 'Enter') {
            this.confirm = undefined;
            return 'changed';
        }
        return 'ignored';
    }
    keyConfirmLong(key) {
        if (key === 'y' || key === 'Y' || key === 'Enter') {
            this.confirm = undefined;
            return this.commitText(true);
        }
        if (key === 'n' || key === 'N' || key === 'Escape') {
            this.confirm = undefined;
            return 'changed';
        }
        return 'ignored';
    }
    // ------------------------------------------------------------------ actions
    reject(why) {
        this.note = REJECTED[why];
        if (why === 'submit') {
            this.note += ': ' + this.unanswered().map((q) => this.tabLabel(q)).join(', ');
        }
        return 'rejected';
    }
    moveCursor(delta) {
        const rows = this.rowCount(this.tabIndex);
        if (rows === 0)
            return 'ignored';
        const target = Math.min(Math.max(this.states[this.tabIndex].cursor + delta, 0), rows - 1);
        return this.setCursor(target);
    }
    setCursor(row) {
        const s = this.states[this.tabIndex];
        if (row >= this.rowCount(this.tabIndex) || row === s.cursor)
            return 'ignored';
        s.cursor = row;
        return 'changed';
    }
    quickSelect(row) {
        if (this.freeText(this.tabIndex))
            return 'ignored';
        this.states[this.tabIndex].cursor = row;
        return this.questions[this.tabIndex].multiSelect ? this.toggleRow(row) : this.chooseRow(row);
    }
    chooseRow(row) {
        if (row === this.otherRow(this.tabIndex))
            return this.openOther();
        const option = this.questions[this.tabIndex].options[row];
        const a = { values: [option.label], selectedOption: option.label, wasCustom: false, multi: false };
        if (option.preview)
            a.preview = option.preview;
        return this.commit(a);
    }
    /**
     * A page for PageUp / PageDown, the terminal's rule: more than 6 options scroll 5 rows at a
     * time; otherwise the whole list (options and Other) is one page.
     */
    pageRows(q) {
        return this.questions[q].options.length > 6 ? 5 : this.rowCount(q);
    }
    toggleRow(row) {
        const s = this.states[this.tabIndex];
        if (row === this.otherRow(this.tabIndex) && !s.checked[row])
            return this.openOther();
        s.checked[row] = !s.checked[row];
        if (row === this.otherRow(this.tabIndex))
            s.editingOther = false;
        this.refreshMulti(this.tabIndex);
        return 'changed';
    }
    openOther() {
        const s = this.states[this.tabIndex];
        s.cursor = this.otherRow(this.tabIndex);
        s.editingOther = true;
        return 'changed';
    }
    leaveEdit() {
        const s = this.states[this.tabIndex];
        if (!s.editingOther)
            return;
        s.editingOther = false;
        if (this.questions[this.tabIndex].multiSelect) {
            s.checked[this.otherRow(this.tabIndex)] = s.text !== '';
            this.refreshMulti(this.tabIndex);
        }
    }
    // An answered multi-select question follows later toggles; with nothing left checked it is unanswered.
    refreshMulti(q, force = false) {
        const s = this.states[q];
        if (!s.answer && !force)
            return;
        const other = this.otherRow(q);
        const values = this.questions[q].options.filter((_, r) => s.checked[r]).map((o) => o.label);
        const custom = s.checked[other] === true && s.text !== '';
        if (custom)
            values.push(s.text);
        if (values.length === 0) {
            s.answer = undefined;
            return;
        }
        s.answer = { values, wasCustom: custom, multi: true };
    }
    commitText(confirmedLong) {
        const s = this.states[this.tabIndex];
        if (/^[ \n]*$/.test(s.text))
            return this.reject('text'); // blank text says nothing
        const n = charCount(s.text);
        if (!confirmedLong && n > SOFT_LIMIT) {
            this.confirm = 'long';
            this.longChars = n;
            return 'changed';
        }
        if (this.questions[this.tabIndex].multiSelect) {
            s.editingOther = false;
            s.checked[this.otherRow(this.tabIndex)] = true;
            this.refreshMulti(this.tabIndex);
            return 'changed';
        }
        return this.commit({ values: [s.text], wasCustom: true, multi: false });
    }
    submitMultiSelect() {
        this.refreshMulti(this.tabIndex, true);
        const a = this.states[this.tabIndex].answer;
        if (!a)
            return this.reject('multi');
        return this.commit(a);
    }
    commit(answer) {
        const s = this.states[this.tabIndex];
        s.answer = answer;
        s.editingOther = false;
        if (!this.multiQuestion) {
            this.finishAnswered();
            return 'finished';
        }
        // On to the next unanswered question, or to Submit when every one has an answer.
        const n = this.questions.length;
        for (let step = 1; step <= n; step++) {
            const q = (this.tabIndex + step) % n;
            if (!this.states[q].answer) {
                this.tabIndex = q;
                return 'changed';
            }
        }
        this.tabIndex = n;
        return 'changed';
    }
    switchTab(delta) {
        if (!this.multiQuestion)
            return 'ignored';
        if (!this.onSubmitTab)
            this.leaveEdit();
        const count = this.tabCount;
        this.tabIndex = (((this.tabIndex + delta) % count) + count) % count;
        return 'changed';
    }
    finishAnswered() {
        const answers = this.states.map((s, q) => {
            const a = s.answer;
            const out = {
                question: this.questions[q].question,
                answer: a.multi ? [...a.values] : a.values[0],
                wasCustom: a.wasCustom,
            };
            if (a.selectedOption !== undefined)
                out.selectedOption = a.selectedOption;
            const notes = trimBlank(s.notes);
            if (notes)
                out.notes = notes;
            if (a.preview !== undefined)
                out.preview = a.preview;
            return out;
        });
        this.finishedOutcome = { answered: true, answers };
    }
    // ------------------------------------------------------------------ the view
    /** The confirmation's words without its buttons ("Discard 1 answer?"), or undefined. */
    confirmText() {
        if (this.confirm === 'discard')
            return `Discard ${plural(this.answeredCount(), 'answer')}?`;
        if (this.confirm === 'long')
            return `Answer is long (${formatCount(this.longChars)} chars). Continue anyway?`;
        return undefined;
    }
    /** The key hint under the dialog; outside a confirmation the same words in all three dialogs. */
    hint() {
        const multiQ = this.multiQuestion;
        if (this.confirm === 'discard')
            return 'y discard • n keep answering';
        if (this.confirm === 'long')
            return 'Enter or y submit • n keep editing';
        if (this.onSubmitTab) {
            return this.answeredCount() === this.questions.length
                ? 'Enter to submit • Tab/←→ switch • Esc cancel'
                : 'Answer every question to submit • Tab/←→ switch • Esc cancel';
        }
        const q = this.tabIndex;
        if (this.editing(q)) {
            if (this.freeText(q))
                return multiQ ? 'Tab switch • Enter confirm • Esc cancel' : 'Enter to submit • Esc to cancel';
            if (this.questions[q].multiSelect)
                return 'Enter to confirm • Esc to go back';
            return multiQ ? 'Tab switch • Enter confirm • Esc back' : 'Enter to submit • Esc to go back';
        }
        if (this.questions[q].multiSelect) {
            return multiQ
                ? 'Tab/←→ switch • Space toggle • Enter confirm • Esc cancel'
                : 'Space to toggle • Enter to submit • Esc to cancel';
        }
        return multiQ
            ? 'Tab/←→ switch • ↑↓ select • Enter confirm • Esc cancel'
            : '↑↓ navigate • 1-9 quick select • Enter to select • Esc to cancel';
    }
    answerText(q) {
        const a = this.states[q].answer;
        return a ? a.values.join(', ') : '';
    }
    /**
     * The state as the webview draws it. `renderPreview` turns an option's preview (markdown)
     * into safe HTML; `notes` says whether the per-answer notes field is offered.
     */
    view(opts) {
        const q = Math.min(this.tabIndex, this.questions.length - 1);
        const onSubmit = this.onSubmitTab;
        const qu = this.questions[q];
        const rows = [];
        const more = { above: 0, below: 0 };
        if (!onSubmit && !this.freeText(q)) {
            qu.options.forEach((o, r) => {
                const row = {
                    label: o.label,
                    other: false,
                    recommended: isRecommended(o.label),
                    cursor: this.states[q].cursor === r,
                    index: r,
                };
                if (o.description)
                    row.description = o.description;
                if (o.preview && opts.renderPreview)
                    row.previewHtml = opts.renderPreview(o.preview);
                if (qu.multiSelect)
                    row.checked = this.checked(q, r);
                if (r < 9)
                    row.key = String(r + 1);
                rows.push(row);
            });
            const other = {
                label: OTHER_LABEL,
                other: true,
                recommended: false,
                cursor: this.states[q].cursor === this.otherRow(q),
                key: '0',
                index: this.otherRow(q),
            };
            if (qu.multiSelect)
                other.checked = this.checked(q, this.otherRow(q));
            rows.push(other);
            // The window follows the cursor, as the terminal's does.
            const s = this.states[q];
            const page = this.pageRows(q);
            if (s.cursor < s.scroll)
                s.scroll = s.cursor;
            if (s.cursor >= s.scroll + page)
                s.scroll = s.cursor - page + 1;
            s.scroll = Math.max(0, Math.min(s.scroll, rows.length - page));
            more.above = s.scroll;
            more.below = rows.length - Math.min(rows.length, s.scroll + page);
            rows.splice(0, rows.length, ...rows.slice(s.scroll, s.scroll + page));
        }
        const view = {
            askKey: opts.askKey,
            agent: opts.agent,
            queue: opts.queue ?? { index: 0, count: 1 },
            q: onSubmit ? -1 : q,
            kind: onSubmit ? 'review' : this.freeText(q) ? 'text' : 'options',
            title: onSubmit ? 'Review your answers' : qu.question,
            multiSelect: !onSubmit && qu.multiSelect,
            rows,
            more,
            editing: !onSubmit && !this.confirm && this.editing(q),
            text: onSubmit ? '' : this.states[q].text,
            notes: onSubmit ? '' : this.states[q].notes,
            notesEnabled: opts.notes !== false && !onSubmit,
            hasPreviews: rows.some((r) => r.previewHtml !== undefined),
            review: [],
            unanswered: [],
            canSubmit: this.answeredCount() === this.questions.length,
            hint: this.hint(),
        };
        if (this.multiQuestion) {
            view.tabs = this.questions.map((_, i) => ({
                label: this.tabLabel(i),
                answered: this.answered(i),
                current: this.tabIndex === i,
                submit: false,
            }));
            view.tabs.push({ label: 'Submit', answered: view.canSubmit, current: onSubmit, submit: true });
        }
        else if (qu.header) {
            view.header = qu.header;
        }
        if (onSubmit) {
            this.states.forEach((s, i) => {
                if (s.answer) {
                    const item = { label: this.tabLabel(i), answer: this.answerText(i), q: i };
                    if (trimBlank(s.notes))
                        item.notes = trimBlank(s.notes);
                    view.review.push(item);
                }
                else
                    view.unanswered.push({ label: this.tabLabel(i), q: i });
            });
        }
        if (this.confirm === 'discard') {
            view.confirm = { kind: 'discard', text: this.confirmText(), yes: 'Discard', no: 'Keep answering' };
        }
        else if (this.confirm === 'long') {
            view.confirm = { kind: 'long', text: this.confirmText(), yes: 'Submit anyway', no: 'Keep editing' };
        }
        if (this.capHit)
            view.notice = CAP_NOTICE;
        if (this.note)
            view.note = this.note;
        return view;
    }
}
