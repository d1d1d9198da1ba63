// An option's preview (markdown, or an HTML fragment the host has checked) as the faces show it.
#pragma once

#include <string>
#include <string_view>

namespace askhost {

// Whether a preview is HTML rather than plain text or markdown: a '<' first (after spaces, tabs,
// line breaks and form feeds), or one anywhere before an ASCII letter, '/' or '!'. The host checks
// such a preview as HTML; every face shows it by preview_text.
bool looks_like_html(std::string_view preview);

// The preview as plain text: markdown as it is written; HTML with its tags and comments dropped,
// block ends as line breaks ("• " before a list item), the entities &lt; &gt; &amp; &quot; &#39;
// &apos; &nbsp; decoded (others left as written), at most one blank line in a row and none at the
// ends. Not yet made visible: visible_text (core/text/sanitize.hpp) comes after.
std::string preview_text(std::string_view preview);

}  // namespace askhost
