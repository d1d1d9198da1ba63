// An option's preview (markdown from the agent) as HTML the panel may show: raw HTML in the
// markdown is escaped, never passed through, and links keep only http(s) and mailto targets.
// The panel's Content-Security-Policy forbids scripts in it all the same.
import MarkdownIt from 'markdown-it';

const SAFE_LINK = /^(https?:|mailto:)/i;

let md: MarkdownIt | undefined;

function renderer(): MarkdownIt {
  if (!md) {
    md = new MarkdownIt({ html: false, linkify: false, typographer: false });
    md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
    // Images would load from anywhere the agent names: show their alt text instead.
    md.renderer.rules.image = (tokens, idx) => md!.utils.escapeHtml(tokens[idx].content);
  }
  return md;
}

export function renderPreview(markdown: string): string {
  return renderer().render(markdown);
}
