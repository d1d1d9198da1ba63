-- Agent text as the float shows it: the rules every face keeps alike (docs/dialog.md), held
-- together by tests/text's vectors, which the host (core/text) and the TypeScript faces
-- (editor-bridges/shared/text.ts) replay too.
--   visible(text, lines)  what text a face may show: controls and invisible characters made visible
--   looks_like_html(p)    when an option's preview is HTML
--   preview_text(p)       the preview as plain text
local M = {}

-- Invisible and reordering characters, shown as "<U+202E>" (core/text/sanitize.cpp's table).
M.INVISIBLE = {
  { 0x00AD, 0x00AD }, { 0x034F, 0x034F }, { 0x061C, 0x061C }, { 0x115F, 0x1160 }, { 0x17B4, 0x17B5 },
  { 0x180B, 0x180F }, { 0x200B, 0x200F }, { 0x2028, 0x202E }, { 0x2060, 0x206F }, { 0x3164, 0x3164 },
  { 0xFEFF, 0xFEFF }, { 0xFFA0, 0xFFA0 }, { 0xFFF0, 0xFFFB }, { 0x13430, 0x1343F }, { 0x1BCA0, 0x1BCA3 },
  { 0x1D173, 0x1D17A }, { 0xE0000, 0xE0FFF },
}

---@param cp integer
---@return boolean
function M.is_invisible(cp)
  for _, r in ipairs(M.INVISIBLE) do
    if cp < r[1] then
      return false
    end
    if cp <= r[2] then
      return true
    end
  end
  return false
end

-- One code point of UTF-8 at s[i]: cp, its length, and whether it was valid. Invalid: the maximal
-- subpart (at least one byte) as one error, as core/text/utf8.hpp decodes.
---@param s string
---@param i integer
---@return integer cp
---@return integer len
---@return boolean ok
local function decode(s, i)
  local b0 = s:byte(i)
  if b0 < 0x80 then
    return b0, 1, true
  end
  local need, cp
  local lo, hi = 0x80, 0xBF
  if b0 >= 0xC2 and b0 <= 0xDF then
    need, cp = 1, b0 - 0xC0
  elseif b0 >= 0xE0 and b0 <= 0xEF then
    need, cp = 2, b0 - 0xE0
    if b0 == 0xE0 then
      lo = 0xA0 -- overlong
    elseif b0 == 0xED then
      hi = 0x9F -- surrogates
    end
  elseif b0 >= 0xF0 and b0 <= 0xF4 then
    need, cp = 3, b0 - 0xF0
    if b0 == 0xF0 then
      lo = 0x90 -- overlong
    elseif b0 == 0xF4 then
      hi = 0x8F -- above U+10FFFF
    end
  else
    return 0xFFFD, 1, false
  end
  for k = 1, need do
    local b = s:byte(i + k)
    local min, max = (k == 1) and lo or 0x80, (k == 1) and hi or 0xBF
    if not b or b < min or b > max then
      return 0xFFFD, k, false
    end
    cp = cp * 64 + (b - 0x80)
  end
  return cp, need + 1, true
end

-- Bytes that need a look: C0 controls (LF and TAB aside), DEL, and anything outside ASCII.
local SUSPECT = '[%z\1-\8\11-\31\127-\255]'

-- Text as every face shows it (docs/dialog.md, "Agent text in every face"): C0 controls in caret
-- notation ("^[", "^G"; a CR before LF is part of the line break), DEL as "^?", C1 controls and
-- M.INVISIBLE as "<U+202E>", invalid UTF-8 as U+FFFD. With `lines`, LF and TAB stay; without,
-- each is a space.
---@param text string
---@param lines? boolean
---@return string
function M.visible(text, lines)
  if not text:find(SUSPECT) then
    return lines and text or (text:gsub('[\n\t]', ' '))
  end
  local out = {}
  local i, n = 1, #text
  while i <= n do
    local cp, len, ok = decode(text, i)
    if not ok then
      out[#out + 1] = '\239\191\189' -- U+FFFD
    elseif cp == 10 or cp == 9 then
      out[#out + 1] = lines and string.char(cp) or ' '
    elseif cp == 13 and text:byte(i + 1) == 10 then -- luacheck: ignore 542
      -- CR LF is one line break: the LF that follows makes it.
    elseif cp < 0x20 then
      out[#out + 1] = '^' .. string.char(cp + 0x40)
    elseif cp == 0x7F then
      out[#out + 1] = '^?'
    elseif (cp >= 0x80 and cp <= 0x9F) or M.is_invisible(cp) then
      out[#out + 1] = ('<U+%04X>'):format(cp)
    else
      out[#out + 1] = text:sub(i, i + len - 1)
    end
    i = i + len
  end
  return table.concat(out)
end

-- The host's rule (core/text/preview.cpp): a '<' first (after spaces, tabs, line breaks and form
-- feeds), or one anywhere before an ASCII letter, '/' or '!'.
---@param p string
---@return boolean
function M.looks_like_html(p)
  return p:match('^[ \t\n\r\f]*<') ~= nil or p:match('<[/!]?[A-Za-z]') ~= nil
end

local block_tags = {
  p = true, div = true, br = true, li = true, ul = true, ol = true, tr = true, table = true, pre = true,
  h1 = true, h2 = true, h3 = true, h4 = true, h5 = true, h6 = true, blockquote = true, hr = true,
}
local entities = { lt = '<', gt = '>', amp = '&', quot = '"', ['#39'] = "'", apos = "'", nbsp = ' ' }

-- An option's preview as plain text (docs/dialog.md): markdown as it is, HTML with its tags
-- dropped, block ends as line breaks and entities decoded. Not yet made visible: M.visible after.
---@param preview string
---@return string
function M.preview_text(preview)
  if not M.looks_like_html(preview) then
    return preview
  end
  local out = {}
  local function newline()
    if #out > 0 and out[#out]:sub(-1) ~= '\n' then
      out[#out + 1] = '\n'
    end
  end
  local i = 1
  while i <= #preview do
    local c = preview:sub(i, i)
    if c == '<' then
      local close = preview:find('>', i, true)
      if not close then
        break -- an unclosed tag: the rest is inside it
      end
      if preview:sub(i, i + 3) == '<!--' then -- a comment may hold '>'
        local stop = preview:find('-->', i + 4, true)
        i = stop and stop + 3 or #preview + 1
      else
        local tag = preview:sub(i + 1, close - 1)
        local closing = tag:sub(1, 1) == '/'
        local name = (closing and tag:sub(2) or tag):match('^[^ \t\r\n/]*'):lower()
        if block_tags[name] then
          newline()
          if name == 'li' and not closing then
            out[#out + 1] = '• '
          end
        end
        i = close + 1
      end
    elseif c == '&' then
      local name = preview:match('^&([#%w]+);', i)
      if name and entities[name:lower()] then
        out[#out + 1] = entities[name:lower()]
        i = i + #name + 2
      else
        out[#out + 1] = c
        i = i + 1
      end
    else
      out[#out + 1] = c
      i = i + 1
    end
  end
  local text = table.concat(out):gsub('\n\n\n+', '\n\n')
  return (text:gsub('^[ \n]+', ''):gsub('[ \n]+$', ''))
end

return M
