// An option's preview as HTML the panel may show. Whether a preview is HTML is the host's rule
// (editor-bridges/shared/text.ts, as every face decides it): an HTML preview is shown as its text (tags dropped,
// as the terminal, Neovim and the page show it), in a <pre>; markdown is rendered with raw HTML
// escaped, never passed through, and links keep only http(s) and mailto targets. Either way its
// text is made visible by the one rule for agent text. The panel's Content-Security-Policy forbids
// scripts in it all the same.
import MarkdownIt from 'markdown-it';
import { looksLikeHtml, previewText, visibleText } from '../../shared/text';

const SAFE_LINK = /^(https?:|mailto:)/i;

let md: MarkdownIt | undefined;

function renderer(): MarkdownIt {
  if (!md) {
    const m = new MarkdownIt({ html: false, linkify: false, typographer: false });
    m.validateLink = (url: string) => SAFE_LINK.test(url.trim());
    // Images would load from anywhere the agent names: show their alt text instead.
    m.renderer.rules.image = (tokens, idx) => m.utils.escapeHtml(visibleText(tokens[idx].content, true));
    // The text markdown shows (entities decoded: `&#x202E;` is U+202E by now), made visible.
    m.core.ruler.push('askhost_visible_text', (state) => {
      for (const t of state.tokens) {
        if (t.type === 'code_block' || t.type === 'fence') t.content = visibleText(t.content, true);
        for (const c of t.children ?? []) {
          if (c.type === 'text' || c.type === 'code_inline') c.content = visibleText(c.content, true);
          const title = c.attrGet('title');
          if (title !== null) c.attrSet('title', visibleText(title));
        }
      }
    });
    md = m;
  }
  return md;
}

export function renderPreview(preview: string): string {
  const m = renderer();
  if (looksLikeHtml(preview)) return `<pre class="preview-text">${m.utils.escapeHtml(visibleText(previewText(preview), true))}</pre>\n`;
  return m.render(preview);
}
