// Agent text as the VS Code panel and the page of `askhost web` show it: the rules every face
// keeps alike (docs/dialog.md), held together by tests/text's vectors, which the host
// (host/core/text) and Neovim (lua/askhost/text.lua) replay too. No imports and no DOM: the
// VS Code extension (its src/preview.ts, src/panel.ts), the panel's webview (dom.ts) and the page
// (its dist/text.js) all build this one file.
/** Invisible and reordering characters, shown as "<U+202E>" (host/core/text/sanitize.cpp's table):
 *  Unicode's default-ignorable code points (the variation selectors 1-16 aside, which emoji need),
 *  line and paragraph separators, interlinear annotation, Egyptian format controls. */
export const INVISIBLE = [
    [0x00ad, 0x00ad], [0x034f, 0x034f], [0x061c, 0x061c], [0x115f, 0x1160], [0x17b4, 0x17b5],
    [0x180b, 0x180f], [0x200b, 0x200f], [0x2028, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164],
    [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff0, 0xfffb], [0x13430, 0x1343f], [0x1bca0, 0x1bca3],
    [0x1d173, 0x1d17a], [0xe0000, 0xe0fff],
];
export function isInvisible(cp) {
    for (const [first, last] of INVISIBLE) {
        if (cp < first)
            return false;
        if (cp <= last)
            return true;
    }
    return false;
}
function code(cp) {
    return `<U+${cp.toString(16).toUpperCase().padStart(4, '0')}>`;
}
/** Text that needs no look: printable ASCII, LF and TAB. */
const PLAIN = /^[\t\n\x20-\x7e]*$/;
/**
 * Text as every face shows it (docs/dialog.md, "Agent text in every face"): C0 controls in caret
 * notation ("^[", "^G"; a CR before LF is part of the line break), DEL as "^?", C1 controls and
 * INVISIBLE as "<U+202E>", a lone surrogate as U+FFFD. With `lines`, LF and TAB stay (the face
 * wraps); without, each is a space.
 */
export function visibleText(text, lines = false) {
    if (PLAIN.test(text))
        return lines ? text : text.replace(/[\t\n]/g, ' ');
    let out = '';
    for (let i = 0; i < text.length;) {
        const cp = text.codePointAt(i);
        const len = cp > 0xffff ? 2 : 1;
        if (cp >= 0xd800 && cp <= 0xdfff)
            out += '\ufffd';
        else if (cp === 0x0a || cp === 0x09)
            out += lines ? text[i] : ' ';
        else if (cp === 0x0d && text.charCodeAt(i + 1) === 0x0a) {
            // CR LF is one line break: the LF that follows makes it.
        }
        else if (cp < 0x20)
            out += '^' + String.fromCharCode(cp + 0x40);
        else if (cp === 0x7f)
            out += '^?';
        else if ((cp >= 0x80 && cp <= 0x9f) || isInvisible(cp))
            out += code(cp);
        else
            out += text.slice(i, i + len);
        i += len;
    }
    return out;
}
const isSpace = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
const isAlpha = (c) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
const lowerAscii = (s) => s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
/** The host's rule (host/core/text/preview.cpp): an option's preview is HTML when a '<' comes
 *  first (after spaces, tabs, line breaks and form feeds), or one anywhere before an ASCII letter,
 *  '/' or '!'. */
export function looksLikeHtml(p) {
    let i = 0;
    while (i < p.length && isSpace(p[i]))
        i++;
    if (p[i] === '<')
        return true;
    for (let k = p.indexOf('<'); k >= 0; k = p.indexOf('<', k + 1)) {
        let n = k + 1;
        if (p[n] === '/' || p[n] === '!')
            n++;
        if (isAlpha(p[n]))
            return true;
    }
    return false;
}
const BLOCKS = new Set(['p', 'div', 'br', 'li', 'ul', 'ol', 'tr', 'table', 'pre', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'hr']);
const ENTITIES = [
    ['&lt;', '<'], ['&gt;', '>'], ['&amp;', '&'], ['&quot;', '"'], ['&#39;', "'"], ['&apos;', "'"], ['&nbsp;', ' '],
];
/**
 * An option's preview as plain text (docs/dialog.md): markdown as it is written; HTML with its tags
 * and comments dropped, block ends as line breaks ("• " before a list item), the entities above
 * decoded (others left as written), at most one blank line in a row and none at the ends. Not yet
 * made visible: visibleText comes after.
 */
export function previewText(preview) {
    if (!looksLikeHtml(preview))
        return preview;
    let out = '';
    for (let i = 0; i < preview.length;) {
        const c = preview[i];
        if (c === '<') {
            const end = preview.indexOf('>', i);
            if (end < 0)
                break; // an unclosed tag: the rest is inside it
            let tag = preview.slice(i + 1, end);
            if (tag.startsWith('!--')) {
                // A comment may hold '>'.
                const close = preview.indexOf('-->', i + 4);
                i = close < 0 ? preview.length : close + 3;
                continue;
            }
            const closing = tag.startsWith('/');
            if (closing)
                tag = tag.slice(1);
            const name = lowerAscii(tag.split(/[ \t\r\n/]/, 1)[0]);
            if (BLOCKS.has(name)) {
                if (out !== '' && !out.endsWith('\n'))
                    out += '\n';
                if (name === 'li' && !closing)
                    out += '• ';
            }
            i = end + 1;
            continue;
        }
        if (c === '&') {
            const hit = ENTITIES.find(([name]) => lowerAscii(preview.slice(i, i + name.length)) === name);
            if (hit) {
                out += hit[1];
                i += hit[0].length;
                continue;
            }
        }
        out += c;
        i++;
    }
    // At most one blank line in a row, none at the ends.
    return out.replace(/\n{3,}/g, '\n\n').replace(/^[ \n]+|[ \n]+$/g, '');
}
