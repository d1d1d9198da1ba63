import { el, permissionBox, permissionQuestion } from './dom.js';
/** A button: its text shown by el()'s rule, its click the face's. */
export function button(face, text, cls, onClick, attrs = {}) {
    const b = el('button', { class: cls, text, attrs: { ...face.buttonAttrs, ...attrs } });
    b.addEventListener('click', onClick);
    return b;
}
/** The dialog's elements, top to bottom, for the face to put in its page. */
export function drawDialog(v, face) {
    const parts = [...face.head];
    if (v.tabs)
        parts.push(tabBar(v, face));
    else if (v.header)
        parts.push(el('div', { class: 'chip', text: v.header }));
    const perm = v.kind !== 'review' ? face.permission : undefined;
    // Under the whole command, the question from the typed permission, not its cut wording.
    if (perm)
        parts.push(permissionBox(perm));
    const title = perm ? permissionQuestion(perm) : v.title;
    parts.push(el('h2', { class: perm ? 'question small' : 'question', text: title }));
    if (v.kind === 'options')
        parts.push(...choices(v, face, title));
    else if (v.kind === 'text') {
        const input = face.field('text', v.q, v.text, 'Type your answer');
        input.readOnly = false;
        parts.push(el('div', { class: 'free-text' }, input));
    }
    else
        parts.push(review(v, face));
    if (v.notesEnabled && v.q >= 0) {
        const notes = face.field('notes', v.q, v.notes, face.words.notesPlaceholder);
        parts.push(el('label', { class: 'notes' }, el('span', { class: 'notes-label', text: face.words.notes }), notes));
    }
    if (v.confirm && !face.touch)
        parts.push(askedBack(face, el('div'), v.confirm.kind, v.confirm.text, v.confirm.yes, v.confirm.no, face.actions.confirm));
    if (v.notice)
        parts.push(el('p', { class: 'notice', text: v.notice, attrs: { role: 'alert' } }));
    if (v.note)
        parts.push(el('p', { class: 'note', text: v.note, attrs: { role: 'alert' } }));
    if (face.touch)
        parts.push(touchBar(v, face, face.touch, perm));
    parts.push(el('footer', { class: 'hint', text: v.hint }));
    return parts.filter((p) => p !== undefined);
}
function tabBar(v, face) {
    const nav = el('nav', { class: 'tabs', attrs: { role: 'tablist' } });
    // ← and → at the ends, as in the terminal's tab bar: the previous and next tab (they wrap).
    const step = (arrow, key, label) => button(face, arrow, 'tab-step', () => face.actions.key(key), { 'aria-label': label });
    nav.appendChild(step('←', 'BackTab', 'previous question'));
    (v.tabs ?? []).forEach((t, i) => {
        // As in the terminal: a filled box for an answered question and for the one in view.
        const mark = t.submit ? '✓' : t.answered || t.current ? '■' : '□';
        const cls = ['tab', t.current ? 'current' : '', t.answered ? 'answered' : '', t.submit ? 'submit' : ''].filter(Boolean).join(' ');
        const b = button(face, '', cls, () => face.actions.tab(i), { role: 'tab', 'aria-selected': String(t.current), 'data-tab': String(i) });
        b.append(el('span', { class: 'mark', text: mark, attrs: { 'aria-hidden': 'true' } }), el('span', { class: 'tab-label', text: t.label }));
        nav.appendChild(b);
    });
    nav.appendChild(step('→', 'Tab', 'next question'));
    return nav;
}
/** The options (more than 6 show 5 at a time, as in the terminal) and the cursor's preview. */
function choices(v, face, title) {
    const list = el('ul', {
        class: 'options',
        attrs: { role: 'listbox', 'aria-multiselectable': String(v.multiSelect), 'aria-label': title },
    });
    // The "more" lines scroll by a page.
    const moreLine = (n, arrow, key) => {
        const text = `${arrow} ${n} more...`;
        if (face.touch)
            return el('li', { class: 'more', attrs: { role: 'presentation' } }, button(face, text, 'more-button', () => face.actions.key(key)));
        const li = el('li', { class: 'more', text, attrs: { role: 'presentation' } });
        li.addEventListener('click', () => face.actions.key(key));
        return li;
    };
    if (v.more.above > 0)
        list.appendChild(moreLine(v.more.above, '↑', 'PageUp'));
    for (const r of v.rows)
        list.appendChild(optionRow(v, face, r));
    if (v.more.below > 0)
        list.appendChild(moreLine(v.more.below, '↓', 'PageDown'));
    if (!v.hasPreviews)
        return face.touch ? [list] : [el('div', { class: 'choices' }, list)];
    const aside = cursorPreview(v, face);
    return face.touch ? [list, aside] : [el('div', { class: 'choices with-preview' }, list, aside)];
}
function optionRow(v, face, row) {
    const li = el('li', {
        class: ['option', row.cursor ? 'cursor' : '', row.other ? 'other' : '', row.recommended ? 'recommended' : '']
            .filter(Boolean)
            .join(' '),
        attrs: { role: 'option', 'aria-selected': String(row.cursor), 'data-row': String(row.index) },
    });
    if (v.multiSelect) {
        li.setAttribute('aria-checked', String(row.checked === true));
        li.appendChild(el('span', { class: 'check' + (row.checked ? ' checked' : ''), text: row.checked ? '✓' : '', attrs: { 'aria-hidden': 'true' } }));
    }
    else {
        const key = face.touch ? (row.key ?? '') : row.key ? row.key + '.' : '';
        li.appendChild(el('span', { class: 'key', text: key, attrs: { 'aria-hidden': 'true' } }));
    }
    const body = el('div', { class: 'option-body' }, el('div', { class: 'label', text: row.label }));
    if (row.description)
        body.appendChild(el('div', { class: 'description', text: row.description }));
    li.appendChild(body);
    li.addEventListener('click', (e) => {
        if (e.target instanceof HTMLTextAreaElement && !e.target.readOnly)
            return;
        face.actions.row(row);
    });
    let other;
    if (row.other && (v.editing || v.text !== '')) {
        other = face.field('text', v.q, v.text, 'Type your answer');
        other.readOnly = !v.editing;
    }
    if (!face.touch) {
        if (other)
            body.appendChild(other);
        return li;
    }
    // A tap picks, so a finger could never bring another option's preview up: each option carries
    // its own, folded (outside the option: opening it is not a pick); the Other field is there too.
    if (face.touch.pick?.row === row.index)
        li.classList.add('pending');
    const wrap = el('div', { class: 'row-wrap' }, li);
    if (row.previewHtml !== undefined)
        wrap.appendChild(previewFold(v, face.touch.folds, row));
    if (other)
        wrap.appendChild(other);
    return el('li', { class: 'row', attrs: { role: 'presentation' } }, wrap);
}
function previewFold(v, folds, row) {
    const details = el('details', { class: 'row-preview' }, el('summary', { text: 'Preview' }), el('pre', { class: 'preview-text', text: row.previewHtml }));
    const id = `${v.askKey}\u0000${row.index}`;
    details.open = folds.has(id);
    details.addEventListener('toggle', () => {
        if (details.open)
            folds.add(id);
        else
            folds.delete(id);
    });
    return details;
}
/** The option under the cursor's preview, for the keys (docs/dialog.md). */
function cursorPreview(v, face) {
    const cursorRow = v.rows.find((r) => r.cursor);
    const aside = el('aside', { class: face.touch ? 'preview cursor-preview' : 'preview', attrs: { 'aria-label': 'Preview' } });
    if (face.touch)
        aside.appendChild(el('div', { class: 'preview-title', text: 'Preview' }));
    if (cursorRow?.previewHtml === undefined)
        aside.appendChild(el('p', { class: 'no-preview', text: 'No preview for this option' }));
    // Rendered by the extension from markdown with raw HTML escaped (src/preview.ts).
    else if (face.htmlPreviews)
        aside.innerHTML = cursorRow.previewHtml;
    else
        aside.appendChild(el('pre', { class: 'preview-text', text: cursorRow.previewHtml }));
    return aside;
}
/** The Submit tab: each answer (a click goes back to its question), the unanswered ones, and
 *  (without a touch bar) the Submit button. */
function review(v, face) {
    const box = el('div', { class: 'review' });
    if (v.review.length > 0) {
        const dl = el('dl');
        for (const r of v.review) {
            if (face.touch)
                dl.appendChild(el('dt', {}, button(face, r.label, 'review-label', () => face.actions.tab(r.q))));
            else {
                const dt = el('dt', { text: r.label });
                dt.addEventListener('click', () => face.actions.tab(r.q));
                dl.appendChild(dt);
            }
            const dd = el('dd', {}, el('span', { class: 'answer', text: r.answer }));
            if (r.notes)
                dd.appendChild(el('span', { class: 'review-notes', text: r.notes }));
            dl.appendChild(dd);
        }
        box.appendChild(dl);
    }
    if (v.unanswered.length > 0)
        box.appendChild(unanswered(v, face));
    if (!face.touch)
        box.appendChild(button(face, submitWords(v), 'primary submit-button', () => face.actions.submit()));
    return box;
}
function unanswered(v, face) {
    if (face.touch) {
        const div = el('div', { class: 'unanswered' }, el('span', { text: 'Unanswered: ' }));
        for (const u of v.unanswered)
            div.appendChild(button(face, u.label, 'unanswered-tab', () => face.actions.tab(u.q), { 'data-tab': String(u.q) }));
        return div;
    }
    const p = el('p', { class: 'unanswered', text: 'Unanswered: ' });
    v.unanswered.forEach((u, i) => {
        if (i > 0)
            p.appendChild(document.createTextNode(', '));
        const a = el('a', { text: u.label, attrs: { href: '#', 'data-tab': String(u.q) } });
        a.addEventListener('click', (e) => {
            e.preventDefault();
            face.actions.tab(u.q);
        });
        p.appendChild(a);
    });
    return p;
}
function submitWords(v) {
    return v.canSubmit ? 'Submit answers' : 'Submit answers (some are unanswered)';
}
/** What the dialog asks back, in `box`: its words, then the yes and no buttons. */
function askedBack(face, box, kind, text, yes, no, answer) {
    box.classList.add('confirm', kind);
    box.setAttribute('role', 'alertdialog');
    box.append(el('span', { class: 'confirm-text', text }), button(face, yes, 'primary', () => answer(true), { 'data-confirm': 'yes' }), button(face, no, 'secondary', () => answer(false), { 'data-confirm': 'no' }));
    return box;
}
/** The buttons a phone needs where a keyboard has Enter and Esc, or what is asked back. */
function touchBar(v, face, touch, perm) {
    const bar = el('div', { class: 'actions' });
    const pick = touch.pick;
    if (pick && perm) {
        return askedBack(face, bar, 'pick', `${pick.label}: ${pick.what}?`, pick.label, 'Back', (yes) => (yes ? pick.yes() : pick.back()));
    }
    if (v.confirm)
        return askedBack(face, bar, v.confirm.kind, v.confirm.text, v.confirm.yes, v.confirm.no, face.actions.confirm);
    const one = !v.tabs;
    if (v.kind === 'review')
        bar.appendChild(button(face, submitWords(v), 'primary submit-button', () => face.actions.submit()));
    else if (v.editing)
        bar.appendChild(button(face, one && !v.multiSelect ? 'Submit' : 'OK', 'primary enter-button', () => touch.enter()));
    else if (v.multiSelect)
        bar.appendChild(button(face, one ? 'Submit' : 'OK', 'primary enter-button', () => touch.enter()));
    bar.appendChild(button(face, 'Cancel question', 'secondary cancel-button', () => touch.cancel()));
    return bar;
}
