// The dialog model on its own: the keys and rules the terminal dialog has, the view it draws from.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DialogModel, OTHER_LABEL, formatCount, isRecommended, normalizeQuestions } from '../../shared/model';
import { renderPreview } from '../src/preview';
import { DATABASE, FEATURES, SERVICE } from './helpers';

function model(...qs: unknown[]): DialogModel {
  return new DialogModel(normalizeQuestions(qs));
}

const view = (m: DialogModel) => m.view({ askKey: 'k', agent: 'a', renderPreview });

describe('the (Recommended) mark', () => {
  test('the rule the three dialogs share: ASCII whitespace after the mark, nothing else', () => {
    assert.equal(isRecommended('PostgreSQL (Recommended)'), true);
    assert.equal(isRecommended('Yes (Recommended) \t\n'), true);
    assert.equal(isRecommended('Yes (Recommended)\u00a0'), false);
    assert.equal(isRecommended('(Recommended) first'), false);
    assert.equal(isRecommended('Yes (recommended)'), false);
  });
});

describe('single question', () => {
  test('arrows and Enter pick an option', () => {
    const m = model(DATABASE);
    assert.equal(m.key('ArrowDown'), 'changed');
    assert.equal(m.key('Enter'), 'finished');
    assert.deepEqual(m.outcome, {
      answered: true,
      answers: [
        {
          question: DATABASE.question,
          answer: 'SQLite',
          selectedOption: 'SQLite',
          wasCustom: false,
          preview: DATABASE.options[1].preview,
        },
      ],
    });
  });

  test('PageDown: the whole list is one page up to 6 options, then 5 rows (the terminal rule)', () => {
    const six = { question: 'Six?', header: 'Six', options: ['a', 'b', 'c', 'd', 'e', 'f'].map((l) => ({ label: l })) };
    const m = model(six);
    m.key('PageDown');
    assert.equal(m.cursor(0), 6); // Other
    const seven = { question: 'Seven?', header: 'Seven', options: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((l) => ({ label: l })) };
    const n = model(seven);
    n.key('PageDown');
    assert.equal(n.cursor(0), 5);
  });

  test('more than 6 options show 5 at a time, the window following the cursor', () => {
    const seven = { question: 'Seven?', header: 'Seven', options: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((l) => ({ label: l })) };
    const m = model(seven);
    let v = view(m);
    assert.deepEqual(v.rows.map((r) => r.index), [0, 1, 2, 3, 4]);
    assert.deepEqual(v.more, { above: 0, below: 3 });
    m.key('End'); // Other, row 7
    v = view(m);
    assert.deepEqual(v.rows.map((r) => r.index), [3, 4, 5, 6, 7]);
    assert.deepEqual(v.more, { above: 3, below: 0 });
    assert.equal(m.clickRow(v.rows[0].index), 'finished'); // a click on a row in view picks it by its number
    assert.equal((m.outcome as any).answers[0].answer, 'd');
    const six = model({ question: 'Six?', header: 'Six', options: ['a', 'b', 'c', 'd', 'e', 'f'].map((l) => ({ label: l })) });
    assert.deepEqual(view(six).more, { above: 0, below: 0 });
    assert.equal(view(six).rows.length, 7);
  });

  test('j/k move like the arrows and stop at the ends', () => {
    const m = model(DATABASE);
    assert.equal(m.key('k'), 'ignored');
    m.key('j');
    m.key('j');
    m.key('j');
    assert.equal(m.key('j'), 'ignored');
    assert.equal(m.cursor(0), 3);
    m.key('Home');
    assert.equal(m.cursor(0), 0);
    m.key('End');
    assert.equal(m.cursor(0), 3);
  });

  test('number keys pick at once; a number past the list is refused with a note', () => {
    const m = model(DATABASE);
    assert.equal(m.key('7'), 'rejected');
    assert.equal(view(m).note, 'No such option');
    assert.equal(m.key('3'), 'finished');
    assert.equal((m.outcome as any).answers[0].answer, 'MongoDB');
  });

  test('0 opens Other; typed text is the answer, marked custom', () => {
    const m = model(DATABASE);
    m.key('0');
    assert.equal(view(m).editing, true);
    assert.equal(m.key('Enter'), 'rejected');
    assert.equal(view(m).note, 'Type an answer first');
    m.setText(0, 'DynamoDB');
    assert.equal(m.key('Enter'), 'finished');
    assert.deepEqual((m.outcome as any).answers[0], { question: DATABASE.question, answer: 'DynamoDB', wasCustom: true });
  });

  test('Esc in Other goes back to the list keeping the text; ArrowUp leaves it too', () => {
    const m = model(DATABASE);
    m.key('0');
    m.setText(0, 'Dyn');
    assert.equal(m.key('Escape'), 'changed');
    assert.equal(m.finished, false);
    assert.equal(view(m).editing, false);
    assert.equal(m.text(0), 'Dyn');
    m.key('Enter'); // on Other: opens it again
    assert.equal(view(m).editing, true);
    m.key('ArrowUp');
    assert.equal(view(m).editing, false);
    assert.equal(m.cursor(0), 2);
  });

  test('Esc cancels a single question at once', () => {
    const m = model(DATABASE);
    assert.equal(m.key('Escape'), 'finished');
    assert.deepEqual(m.outcome, { answered: false, cancelled: true });
  });

  test('a free-text question: Enter submits, empty is refused, Esc cancels', () => {
    const m = model(SERVICE);
    assert.equal(view(m).kind, 'text');
    assert.equal(view(m).editing, true);
    assert.equal(m.key('Enter'), 'rejected');
    m.setText(0, '  ');
    assert.equal(m.key('Enter'), 'rejected');
    m.setText(0, 'order-processor');
    assert.equal(m.key('Enter'), 'finished');
    assert.deepEqual((m.outcome as any).answers[0], { question: SERVICE.question, answer: 'order-processor', wasCustom: true });
    const c = model(SERVICE);
    assert.equal(c.key('Escape'), 'finished');
    assert.equal(c.outcome?.answered, false);
  });

  test('line breaks in typed text are kept (CR LF and a lone CR are one line break)', () => {
    const m = model(SERVICE);
    m.setText(0, 'a\nb\r\nc\rd');
    assert.equal(m.text(0), 'a\nb\nc\nd');
  });

  test('an answer over 2000 characters asks first; n keeps editing, y submits it whole', () => {
    const long = 'x'.repeat(2847);
    const m = model(SERVICE);
    m.setText(0, long);
    assert.equal(m.key('Enter'), 'changed');
    assert.equal(view(m).confirm?.text, 'Answer is long (2,847 chars). Continue anyway?');
    assert.equal(m.key('n'), 'changed');
    assert.equal(view(m).confirm, undefined);
    assert.equal(m.finished, false);
    m.key('Enter');
    assert.equal(m.clickConfirm(true), 'finished');
    assert.equal((m.outcome as any).answers[0].answer, long);
  });

  test('2000 characters exactly need no confirmation; emoji count as one character', () => {
    const m = model(SERVICE);
    m.setText(0, '😀'.repeat(2000));
    assert.equal(m.key('Enter'), 'finished');
  });

  test('notes go with the answer, trimmed; empty notes are left out', () => {
    const m = model(DATABASE);
    m.setNotes(0, '  we already run it ');
    m.key('1');
    assert.equal((m.outcome as any).answers[0].notes, 'we already run it');
    const n = model(DATABASE);
    n.setNotes(0, '   ');
    n.key('1');
    assert.equal('notes' in (n.outcome as any).answers[0], false);
  });
});

describe('multi-select', () => {
  test('Space toggles, Enter submits the checked labels as an array', () => {
    const m = model(FEATURES);
    m.key(' ');
    m.key('ArrowDown');
    m.key('ArrowDown');
    m.key(' ');
    assert.deepEqual(view(m).rows.map((r) => r.checked), [true, false, true, false]);
    assert.equal(m.key('Enter'), 'finished');
    assert.deepEqual((m.outcome as any).answers[0], {
      question: FEATURES.question,
      answer: ['Authentication', 'Admin Dashboard'],
      wasCustom: false,
    });
  });

  test('Enter with nothing checked is refused with a note', () => {
    const m = model(FEATURES);
    assert.equal(m.key('Enter'), 'rejected');
    assert.equal(view(m).note, 'Check at least one option');
    m.key('2');
    m.key('2');
    assert.equal(m.key('Enter'), 'rejected');
  });

  test('number keys and clicks toggle; Other adds typed text', () => {
    const m = model(FEATURES);
    m.key('2');
    m.clickRow(0);
    m.key('0');
    assert.equal(view(m).editing, true);
    m.setText(0, 'GraphQL');
    assert.equal(m.key('Enter'), 'changed'); // commits the text, checks Other
    assert.equal(m.checked(0, 3), true);
    assert.equal(m.key('Enter'), 'finished');
    assert.deepEqual((m.outcome as any).answers[0].answer, ['Authentication', 'REST API', 'GraphQL']);
    assert.equal((m.outcome as any).answers[0].wasCustom, true);
  });

  test('unchecking Other drops its text from the answer', () => {
    const m = model(FEATURES);
    m.key('1');
    m.key('0');
    m.setText(0, 'GraphQL');
    m.key('Enter');
    m.key('0');
    assert.equal(m.checked(0, 3), false);
    m.key('Enter');
    assert.deepEqual((m.outcome as any).answers[0].answer, ['Authentication']);
  });
});

describe('several questions', () => {
  test('answering walks to the next unanswered question, then to Submit', () => {
    const m = model(DATABASE, SERVICE, FEATURES);
    assert.equal(view(m).tabs?.length, 4);
    m.key('1');
    assert.equal(m.tab, 1);
    m.setText(1, 'order');
    m.key('Enter');
    assert.equal(m.tab, 2);
    m.key(' ');
    m.key('Enter');
    assert.equal(m.onSubmitTab, true);
    const v = view(m);
    assert.equal(v.kind, 'review');
    assert.deepEqual(v.review.map((r) => [r.label, r.answer]), [
      ['Database', 'PostgreSQL (Recommended)'],
      ['Service Name', 'order'],
      ['Features', 'Authentication'],
    ]);
    assert.equal(m.key('Enter'), 'finished');
    assert.equal((m.outcome as any).answers.length, 3);
  });

  test('Submit names the unanswered questions and refuses, never silently', () => {
    const m = model(DATABASE, SERVICE, FEATURES);
    m.key('2');
    m.key('BackTab'); // back to Database
    m.key('BackTab'); // wraps to Submit
    assert.equal(m.onSubmitTab, true);
    const v = view(m);
    assert.deepEqual(v.unanswered.map((u) => u.label), ['Service Name', 'Features']);
    assert.equal(v.canSubmit, false);
    assert.equal(m.clickSubmit(), 'rejected');
    assert.equal(view(m).note, 'Answer every question to submit: Service Name, Features');
  });

  test('a multi-select answered with the mouse alone can be submitted', () => {
    const m = model(DATABASE, FEATURES);
    m.clickRow(1); // SQLite: on to Features
    assert.equal(m.tab, 1);
    m.clickRow(0);
    m.clickRow(1);
    m.clickTab(2); // the Submit tab, by click
    const v = view(m);
    assert.deepEqual(v.unanswered, []);
    assert.equal(v.canSubmit, true);
    assert.equal(m.clickSubmit(), 'finished');
    assert.deepEqual((m.outcome as any).answers[1].answer, [FEATURES.options[0].label, FEATURES.options[1].label]);
    const n = model(DATABASE, FEATURES);
    n.clickRow(1);
    n.clickRow(0);
    n.clickRow(0); // unticked again: unanswered
    n.clickTab(2);
    assert.deepEqual(view(n).unanswered.map((u) => u.label), ['Features']);
  });

  test('a click that changes the pick of an answered tab goes on to Submit when all are answered', () => {
    // Found by the web page's taps: the click moved to the Submit tab, and clickRow then read the
    // question of that tab (there is none) and threw.
    const m = model(DATABASE, FEATURES);
    m.clickRow(1); // SQLite: on to Features
    m.clickRow(0);
    m.key('Enter'); // Features answered: on to Submit
    assert.equal(m.onSubmitTab, true);
    m.clickTab(0);
    assert.equal(m.clickRow(2), 'changed'); // MongoDB instead: every question answered, on to Submit
    assert.equal(m.onSubmitTab, true);
    assert.equal(m.clickSubmit(), 'finished');
    assert.equal((m.outcome as any).answers[0].answer, DATABASE.options[2].label);
  });

  test('Tab and the arrows switch tabs; arrows in an empty text field switch too', () => {
    const m = model(DATABASE, SERVICE);
    m.key('Tab');
    assert.equal(m.tab, 1);
    assert.equal(view(m).editing, true);
    m.key('ArrowRight');
    assert.equal(m.onSubmitTab, true);
    m.key('ArrowLeft');
    m.setText(1, 'x');
    assert.equal(m.key('ArrowLeft'), 'ignored'); // the caret moves in the field instead
    m.clickTab(0);
    assert.equal(m.tab, 0);
  });

  test('Esc with nothing answered cancels; with answers it asks to discard them', () => {
    const a = model(DATABASE, SERVICE);
    assert.equal(a.key('Escape'), 'finished');
    const m = model(DATABASE, SERVICE);
    m.key('1');
    m.key('Escape'); // on the free-text question: Esc means cancel, and one answer is there
    const v = view(m);
    assert.equal(v.confirm?.kind, 'discard');
    assert.equal(v.confirm?.text, 'Discard 1 answer?');
    assert.equal(m.key('Enter'), 'changed'); // Enter means No here, as in the terminal
    assert.equal(m.finished, false);
    m.key('Escape');
    assert.equal(m.key('y'), 'finished');
    assert.deepEqual(m.outcome, { answered: false, cancelled: true });
  });

  test('"Discard N answers?" counts every answer, on the Submit tab too', () => {
    const m = model(DATABASE, FEATURES);
    m.key('1');
    m.key('1');
    m.key('Enter');
    assert.equal(m.onSubmitTab, true);
    m.key('Escape');
    assert.equal(view(m).confirm?.text, 'Discard 2 answers?');
    assert.equal(m.clickConfirm(false), 'changed');
    assert.equal(m.onSubmitTab, true);
  });

  test('escape() from outside (the panel closed) behaves like Esc', () => {
    const m = model(DATABASE, SERVICE);
    assert.equal(m.escape(), 'finished');
    const n = model(DATABASE, SERVICE);
    n.key('1');
    assert.equal(n.escape(), 'changed');
    assert.equal(n.answeredCount(), 1);
  });

  test('a multi-select answer follows later toggles; unchecking all unanswers it', () => {
    const m = model(FEATURES, SERVICE);
    m.key('1');
    m.key('Enter');
    assert.equal(m.answered(0), true);
    m.clickTab(0);
    m.key('1');
    assert.equal(m.answered(0), false);
  });
});

describe('view', () => {
  test('rows carry keys, descriptions, the recommended mark and Other last', () => {
    const v = view(model(DATABASE));
    assert.equal(v.header, 'Database');
    assert.equal(v.tabs, undefined);
    assert.deepEqual(v.rows.map((r) => r.key), ['1', '2', '3', '0']);
    assert.equal(v.rows[0].recommended, true);
    assert.equal(v.rows[1].description, 'Lightweight, file-based');
    assert.equal(v.rows[3].label, OTHER_LABEL);
    assert.equal(v.rows[3].other, true);
    assert.equal(v.hint, '↑↓ navigate • 1-9 quick select • Enter to select • Esc to cancel');
  });

  test('previews: markdown rendered with links kept safe; HTML (the host\'s rule) shown as its text', () => {
    const v = view(
      model({
        question: 'q',
        options: [
          { label: 'a', preview: '**bold** <script>alert(1)</script> <img src=x onerror=alert(2)>' },
          { label: 'b', preview: '[x](javascript:alert(3)) [ok](https://example.org) ![i](https://example.org/i.png)' },
          { label: 'c', preview: '**bold**: 1 < 2 & 3 > 2' },
          { label: 'd', preview: 'Use <b>bold</b> & <i>care</i>' },
        ],
      }),
    );
    assert.equal(v.hasPreviews, true);
    // '<' before a letter: HTML, so its text, in a <pre>; nothing of it is markup.
    const a = v.rows[0].previewHtml!;
    assert.equal(a, '<pre class="preview-text">**bold** alert(1)</pre>\n');
    assert.doesNotMatch(a, /<script|<img|<strong/);
    const b = v.rows[1].previewHtml!;
    assert.doesNotMatch(b, /href="javascript/); // left as plain text
    assert.match(b, /<a href="https:\/\/example.org">ok<\/a>/);
    assert.doesNotMatch(b, /<img/);
    const c = v.rows[2].previewHtml!;
    assert.match(c, /<strong>bold<\/strong>: 1 &lt; 2 &amp; 3 &gt; 2/);
    assert.equal(v.rows[3].previewHtml, '<pre class="preview-text">Use bold &amp; care</pre>\n');
  });

  test('previews: control and invisible characters are shown, entities and code included', () => {
    const v = view(
      model({
        question: 'q',
        options: [
          { label: 'a', preview: 'Run `r\u200bm` \u202eabc &#x202E; &shy;\n\n```\nx\u2066y\u001b[2J\n```' },
          { label: 'b', preview: '<p>Use \u202e<b>bold</b>\u200b</p>' },
        ],
      }),
    );
    const a = v.rows[0].previewHtml!;
    for (const c of ['\u200b', '\u202e', '\u2066', '\u00ad', '\u001b']) assert.ok(!a.includes(c), `raw U+${c.codePointAt(0)}`);
    assert.match(a, /<code>r&lt;U\+200B&gt;m<\/code> &lt;U\+202E&gt;abc &lt;U\+202E&gt; &lt;U\+00AD&gt;/);
    assert.match(a, /x&lt;U\+2066&gt;y\^\[\[2J/);
    assert.equal(v.rows[1].previewHtml, '<pre class="preview-text">Use &lt;U+202E&gt;bold&lt;U+200B&gt;</pre>\n');
  });

  test('more than nine options: the tenth has no number key', () => {
    const options = Array.from({ length: 12 }, (_, i) => ({ label: `opt ${i + 1}` }));
    const m = model({ question: 'many', options });
    m.key('End'); // the window at the end of the list: rows 8 to 12
    const row = (i: number) => view(m).rows.find((r) => r.index === i);
    assert.equal(row(8)?.key, '9');
    assert.equal(row(9)?.key, undefined);
    assert.equal(row(12)?.key, '0');
  });

  test('normalizeQuestions tolerates nulls and odd values', () => {
    const qs = normalizeQuestions([
      { question: 'q1', header: null, options: null, multiSelect: true },
      { question: 'q2', options: [{ label: 'x', description: null }] },
      null,
    ]);
    assert.equal(qs.length, 2);
    assert.deepEqual(qs[0], { question: 'q1', options: [], multiSelect: false });
    assert.deepEqual(qs[1].options, [{ label: 'x' }]);
    assert.deepEqual(normalizeQuestions(undefined), []);
  });

  test('formatCount groups thousands', () => {
    assert.equal(formatCount(2847), '2,847');
    assert.equal(formatCount(999), '999');
    assert.equal(formatCount(1234567), '1,234,567');
  });
});
