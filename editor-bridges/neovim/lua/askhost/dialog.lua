-- The question dialog: a centred floating window with a border, sized to its content.
-- State and keys live in askhost.model; this file draws it and owns the windows:
-- the dialog itself and, while an answer is typed, a one-line input window inside it.
local model_mod = require('askhost.model')
local text_mod = require('askhost.text')

local api = vim.api
local M = {}

local ns = api.nvim_create_namespace('askhost_dialog')

-- Highlight groups, each linked to a standard group so any colour scheme works.
M.highlights = {
  AskHostNormal = 'NormalFloat',
  AskHostBorder = 'FloatBorder',
  AskHostTitle = 'Title',
  AskHostChip = 'PmenuSel',
  AskHostAgent = 'Comment',
  AskHostQuestion = 'Title',
  AskHostSelected = 'Visual',
  AskHostNumber = 'Number',
  AskHostRecommended = 'Special',
  AskHostDescription = 'Comment',
  AskHostOther = 'Identifier',
  AskHostChecked = 'String',
  AskHostTab = 'TabLine',
  AskHostTabSel = 'TabLineSel',
  AskHostTabDone = 'String',
  AskHostHint = 'Comment',
  AskHostWarning = 'WarningMsg',
  AskHostInput = 'Pmenu',
  AskHostPreview = 'NormalFloat',
}

-- A preview longer than this is cut (the float grows with its content, the screen does not).
M.max_preview_lines = 12

-- Link the AskHost* groups (default links: a colour scheme's own definitions win).
function M.define_highlights()
  for group, target in pairs(M.highlights) do
    vim.cmd(('highlight default link %s %s'):format(group, target))
  end
end

-- ---------------------------------------------------------------- text helpers

---@param s string
---@return integer display columns
local function width_of(s)
  return vim.fn.strdisplaywidth(s)
end

-- Break text into lines of at most `width` columns, at spaces where possible; "\n" starts a line.
---@param text string
---@param width integer columns
---@return string[]
function M.wrap(text, width)
  width = math.max(width, 1)
  -- Agent text as every face shows it; a tab is a space among the float's cells.
  text = text_mod.visible(text, true):gsub('\t', ' ')
  local lines = {}
  for para in (text .. '\n'):gmatch('(.-)\n') do
    local line = ''
    for word in para:gmatch('%S+') do
      local candidate = line == '' and word or (line .. ' ' .. word)
      if width_of(candidate) <= width then
        line = candidate
      else
        if line ~= '' then
          lines[#lines + 1] = line
        end
        -- A word wider than the line is cut by characters.
        while width_of(word) > width do
          local n = vim.fn.strchars(word)
          local cut = n
          while cut > 1 and width_of(vim.fn.strcharpart(word, 0, cut)) > width do
            cut = cut - 1
          end
          lines[#lines + 1] = vim.fn.strcharpart(word, 0, cut)
          word = vim.fn.strcharpart(word, cut)
        end
        line = word
      end
    end
    lines[#lines + 1] = line
  end
  if #lines == 0 then
    lines[1] = ''
  end
  return lines
end

---@param s string
---@param width integer
---@return string
local function truncate(s, width)
  if width_of(s) <= width then
    return s
  end
  local n = vim.fn.strchars(s)
  while n > 0 and width_of(vim.fn.strcharpart(s, 0, n)) > width - 1 do
    n = n - 1
  end
  return vim.fn.strcharpart(s, 0, n) .. '…'
end

-- Agent text on one line, as every face shows it (controls and invisible characters visible).
---@param s string
---@return string
local function one_line(s)
  return text_mod.visible(s, false)
end

local is_recommended = model_mod.is_recommended

-- ---------------------------------------------------------------- layout

-- A growing list of lines, each made of {text, group} spans.
---@alias askhost.Span { [1]: string, [2]: string? } text and its highlight group

---@class askhost.Canvas
---@field lines askhost.Span[][]
local Canvas = {}
Canvas.__index = Canvas

---@return askhost.Canvas
local function new_canvas()
  return setmetatable({ lines = {} }, Canvas)
end

---@param spans? askhost.Span[]
---@return integer the line's number
function Canvas:add(spans)
  self.lines[#self.lines + 1] = spans or {}
  return #self.lines
end

-- Wrapped text: the first line after `first`, the rest after `rest` (both plain).
---@param text string
---@param width integer
---@param first string
---@param rest string
---@param group? string
---@return integer the first line's number
function Canvas:add_wrapped(text, width, first, rest, group)
  local indent = math.max(width_of(first), width_of(rest))
  local rows = M.wrap(text, math.max(width - indent, 1))
  local at
  for i, row in ipairs(rows) do
    local n = self:add({ { i == 1 and first or rest }, { row, group } })
    at = at or n
  end
  return at
end

---@param m askhost.Model
---@param width integer
---@return string hint
---@return string|nil group
local function hint_text(m, width)
  local mode = m:mode()
  if mode == 'confirm_discard' then
    return m:confirm_text() .. ' [y/N]', 'AskHostWarning'
  elseif mode == 'confirm_long' then
    return m:confirm_text() .. ' [Y/n]', 'AskHostWarning'
  end
  -- The seeds' words when they fit on one row, else the same keys in fewer words.
  local wide = m:hint()
  if width_of(wide) <= width - 1 then
    return wide
  end
  return m:hint(true)
end

-- Hints wrap between their " • " parts.
---@param canvas askhost.Canvas
---@param hint string
---@param width integer
---@param group string
local function add_hint(canvas, hint, width, group)
  local parts = vim.split(hint, ' • ', { plain = true })
  local line = ''
  for _, part in ipairs(parts) do
    local joined = line == '' and part or (line .. ' • ' .. part)
    if line ~= '' and width_of(joined) > width - 1 then
      canvas:add({ { ' ' }, { line, group } })
      line = part
    else
      line = joined
    end
  end
  if line ~= '' then
    canvas:add({ { ' ' }, { line, group } })
  end
end

---@param m askhost.Model
---@param width integer
---@return askhost.Span[]
local function tab_bar(m, width)
  local items = {}
  for q = 1, m:count() do
    local current = m.tab == q
    local box = (m:answered(q) or current) and '■' or '□'
    local group = current and 'AskHostTabSel' or (m:answered(q) and 'AskHostTabDone' or 'AskHostTab')
    items[#items + 1] = { ' ' .. box .. ' ' .. truncate(one_line(m:tab_label(q)), 20) .. ' ', group }
  end
  items[#items + 1] = { ' ✓ Submit ', m:on_submit_tab() and 'AskHostTabSel' or 'AskHostTab' }
  -- The run of tabs around the current one that fits.
  local function span_width(b, e)
    local w = 2 + (b > 1 and 2 or 0) + (e < #items and 2 or 0)
    for i = b, e do
      w = w + width_of(items[i][1]) + (i > b and 1 or 0)
    end
    return w
  end
  local b, e = m.tab, m.tab
  local grew = true
  while grew do
    grew = false
    if e < #items and span_width(b, e + 1) <= width then
      e, grew = e + 1, true
    end
    if b > 1 and span_width(b - 1, e) <= width then
      b, grew = b - 1, true
    end
  end
  local spans = { { ' ' } }
  if b > 1 then
    spans[#spans + 1] = { '… ', 'AskHostHint' }
  end
  for i = b, e do
    if i > b then
      spans[#spans + 1] = { ' ' }
    end
    spans[#spans + 1] = items[i]
  end
  if e < #items then
    spans[#spans + 1] = { ' …', 'AskHostHint' }
  end
  return spans
end

-- Typed text as lines (a paste keeps its line breaks), at most M.max_input_lines; the input
-- float covers them while the text is being typed.
M.max_input_lines = 8
---@param text string
---@return string[]
local function text_lines(text)
  local lines = vim.split(text, '\n', { plain = true })
  if #lines > M.max_input_lines then
    lines = vim.list_slice(lines, 1, M.max_input_lines)
    lines[#lines] = '…'
  end
  for i, l in ipairs(lines) do
    lines[i] = one_line(l)
  end
  return lines
end

-- Text lines after `first` (its first line) and `rest`; returns the first line's number.
---@param c askhost.Canvas
---@param text string
---@param first string
---@param rest string
---@return integer
local function add_text(c, text, first, rest)
  local at
  for i, l in ipairs(text_lines(text)) do
    local n = c:add({ { i == 1 and first or rest }, { l } })
    at = at or n
  end
  return at
end

---@param answer askhost.Answer
---@return string
local function answer_text(answer)
  return table.concat(answer.values, ', ')
end

-- The dialog as lines for a window `width` columns wide. Returns
-- { lines = {spans...}, cursor = line of the selected row, input = {line=, col=} while typing }.
---@class askhost.Layout
---@field lines askhost.Span[][]
---@field cursor? integer the selected row's line
---@field input? { line: integer, col: integer } where the input window goes while typing
---@field permission_lines? integer a permission's command lines, all of them
---@field permission_window? { first: integer, rows: integer } the command lines shown, when not all
---@field permission_page? integer set when the command shows in a window: the lines PgUp/PgDn move

-- The top line: the tab bar for several questions, else the header chip; the agent's name after it.
local function layout_top(c, m, width, agent)
  if m:multi_question() then
    c:add(tab_bar(m, width))
  else
    local spans = { { ' ' } }
    local q = m.questions[1]
    if q.header then
      spans[#spans + 1] = { ' ' .. truncate(one_line(q.header), width - 4) .. ' ', 'AskHostChip' }
    end
    if agent and agent ~= '' then
      spans[#spans + 1] = { (q.header and '  ' or '') .. truncate(one_line(agent), 30), 'AskHostAgent' }
    end
    c:add(spans)
  end
  c:add()
end

-- The Submit tab: every answer given so far, then the questions still unanswered.
local function layout_review(c, m, width, out)
  c:add({ { ' ' }, { 'Review your answers', 'AskHostQuestion' } })
  c:add()
  local any = false
  for q = 1, m:count() do
    if m:answered(q) then
      any = true
      c:add_wrapped(one_line(m:tab_label(q)) .. ': ' .. answer_text(m.states[q].answer), width, '   ', '     ')
    end
  end
  local missing = m:unanswered()
  if #missing > 0 then
    if any then
      c:add()
    end
    local names = {}
    for _, q in ipairs(missing) do
      names[#names + 1] = one_line(m:tab_label(q))
    end
    c:add_wrapped('Unanswered: ' .. table.concat(names, ', '), width, '   ', '     ', 'AskHostWarning')
  end
  out.cursor = 1
end

-- One option row (or the Other row): mark, number or checkbox, the wrapped label, its
-- description, and Other's typed text.
local function layout_row(c, m, row, width, out)
  local q = m.questions[m.tab]
  local is_cursor = m.states[m.tab].cursor == row
  local is_other = row == m:other_row(m.tab)
  local mark = is_cursor and ' > ' or '   '
  local number
  if q.multiSelect then
    number = m:checked(m.tab, row) and '[x] ' or '[ ] '
  else
    number = row .. '. '
  end
  local indent = string.rep(' ', width_of(mark .. number))
  local label = is_other and model_mod.OTHER_LABEL or one_line(q.options[row].label)
  local label_group = is_cursor and 'AskHostSelected'
    or (is_other and 'AskHostOther')
    or (is_recommended(label) and 'AskHostRecommended')
    or nil
  local number_group = (q.multiSelect and m:checked(m.tab, row)) and 'AskHostChecked' or 'AskHostNumber'
  local at
  for i, piece in ipairs(M.wrap(label, math.max(width - #indent, 1))) do
    local n
    if i == 1 then
      n = c:add({ { mark, is_cursor and 'AskHostSelected' or nil }, { number, number_group }, { piece, label_group } })
    else
      n = c:add({ { indent }, { piece, label_group } })
    end
    at = at or n
  end
  if is_cursor then
    out.cursor = at
  end
  if not is_other and q.options[row].description then
    c:add_wrapped(q.options[row].description, width, indent .. '  ', indent .. '  ', 'AskHostDescription')
  end
  if is_other and (m:editing(m.tab) or m:text() ~= '') then
    local n = add_text(c, m:text(), indent .. '> ', indent .. '  ')
    if m:editing(m.tab) then
      out.input = { line = n, col = #indent + 2, height = #text_lines(m:text()) }
      out.cursor = n
    end
  end
end

-- The rows in view around the cursor, with "more" lines for those scrolled out.
local function layout_rows(c, m, width, out)
  local s = m.states[m.tab]
  local rows = m:row_count(m.tab)
  local first, last = s.scroll, math.min(rows, s.scroll + math.max(m:visible_rows(m.tab), 1) - 1)
  first, last = math.min(first, s.cursor), math.max(last, s.cursor)
  if first > 1 then
    c:add({ { '     ↑ ' .. (first - 1) .. ' more...', 'AskHostHint' } })
  end
  for row = first, last do
    layout_row(c, m, row, width, out)
  end
  if last < rows then
    c:add({ { '     ↓ ' .. (rows - last) .. ' more...', 'AskHostHint' } })
  end
end

-- The question's note (`n`), then the preview of the option under the cursor.
local function layout_note_and_preview(c, m, width, out)
  local noting = m:mode() == 'note'
  if noting or m:notes() ~= '' then
    local n = c:add({ { ' Note: ' }, { one_line(m:notes()), noting and nil or 'AskHostDescription' } })
    if noting then
      out.input = { line = n, col = 7 }
      out.cursor = n
    end
  end
  local option = not m:free_text(m.tab) and m.questions[m.tab].options[m.states[m.tab].cursor]
  if option and option.preview then
    c:add()
    c:add({ { ' ── Preview ' .. string.rep('─', math.max(width - 13, 0)), 'AskHostHint' } })
    local lines = M.wrap(text_mod.preview_text(option.preview), math.max(width - 2, 1))
    for i = 1, math.min(#lines, M.max_preview_lines) do
      c:add({ { ' ' }, { i == M.max_preview_lines and #lines > i and '…' or lines[i], 'AskHostPreview' } })
    end
  end
end

-- Every character of `text` in lines of at most `width` columns: cut by columns, never at words
-- and never joined (a command's spaces are the command's); controls, bidi and invisible
-- characters as every face shows them (text.lua's rule: "^[", "<U+202E>").
---@param text string
---@param width integer
---@return string[]
function M.char_lines(text, width)
  width = math.max(width, 1)
  local out = {}
  for para in (text_mod.visible(text, true) .. '\n'):gmatch('(.-)\n') do
    para = para:gsub('\t', '    ')
    local line, used = {}, 0
    for ch in para:gmatch('[%z\1-\127\194-\244][\128-\191]*') do
      local w = vim.api.nvim_strwidth(ch)
      if used + w > width and used > 0 then
        out[#out + 1] = table.concat(line)
        line, used = {}, 0
      end
      line[#line + 1] = ch
      used = used + w
    end
    out[#out + 1] = table.concat(line)
  end
  return out
end

-- An edit writes, even one that only deletes (a replaced text and no content); with neither it may
-- only read the file (Read, Grep): "access", which is never untrue.
local function permission_writes(p)
  return p.content ~= '' or p.replaces ~= ''
end

-- The lines of a permission's command (with where it looks or writes), or of an edit's replaced
-- text and what replaces it, each never cut.
---@param p askhost.Permission
---@return askhost.Span[][]
local function permission_text(p, width)
  local out = {}
  local function block(text)
    for _, l in ipairs(M.char_lines(text, width - 4)) do
      out[#out + 1] = { { ' │ ', 'AskHostHint' }, { l } }
    end
  end
  local function label(text)
    for _, row in ipairs(M.wrap(text, math.max(width - 1, 1))) do
      out[#out + 1] = { { ' ' }, { row, 'AskHostQuestion' } }
    end
  end
  local writes = permission_writes(p)
  if p.command ~= '' then
    block(p.command)
    if p.path ~= '' then
      label(writes and ('to ' .. one_line(p.path) .. ':') or ('in ' .. one_line(p.path)))
    end
  end
  if p.replaces ~= '' then
    label('replacing:')
    block(p.replaces)
    label(p.content ~= '' and 'with:' or 'with nothing (deleting it)')
  end
  if p.content ~= '' then
    block(p.content)
  end
  return out
end

-- A tool permission: who wants what, the whole command (or the file and its content) on lines of
-- their own that are never cut, and the agent's reason, its own claim, last. With `window`
-- ({ first = n, rows = k }) only k of the command's lines show, from line n + 1, between a line
-- that says how many are above and one that says how many are below (as in the terminal):
-- scrolled out of the float's view, they would be hidden without a word.
---@param p askhost.Permission
---@return integer the command's lines, all of them
local function layout_permission(c, p, width, window)
  local who = p.tool ~= '' and one_line(p.tool) or 'The agent'
  local verb = permission_writes(p) and ' wants to write ' or ' wants to access '
  local head = (p.command == '' and p.path ~= '') and (who .. verb .. one_line(p.path)) or (who .. ' wants to run')
  c:add_wrapped(head .. ':', width, ' ', ' ', 'AskHostQuestion')
  local text = permission_text(p, width)
  if window and window.rows < #text then
    local first, last = window.first, math.min(window.first + window.rows, #text)
    c:add({ { first > 0 and (' ↑ ' .. first .. ' more lines above (PgUp)') or (' lines 1-' .. last .. ' of ' .. #text), 'AskHostHint' } })
    for i = first + 1, last do
      c:add(text[i])
    end
    c:add({ { last < #text and (' ↓ ' .. (#text - last) .. ' more lines below (PgDn)') or ' (end)', 'AskHostHint' } })
  else
    for _, spans in ipairs(text) do
      c:add(spans)
    end
  end
  if p.reason ~= '' then
    c:add_wrapped('The agent says: ' .. p.reason, width, ' ', ' ', 'AskHostDescription')
  end
  return #text
end

-- A question's tab: its text (a permission: its command, whole), then its input (free text) or
-- its rows, its note and preview.
local function layout_question(c, m, width, out)
  if m.permission then
    out.permission_lines = layout_permission(c, m.permission, width, out.permission_window)
  else
    c:add_wrapped(m.questions[m.tab].question, width, ' ', ' ', 'AskHostQuestion')
  end
  c:add()
  if m:free_text(m.tab) then
    local at = add_text(c, m:text(), ' > ', '   ')
    out.cursor = at
    out.input = { line = at, col = 3, height = #text_lines(m:text()) }
  else
    layout_rows(c, m, width, out)
  end
  layout_note_and_preview(c, m, width, out)
end

---@param m askhost.Model
---@param width integer
---@param agent? string
---@param note? string a warning in place of the hint (a rejected key)
---@param max_height? integer the rows the float can have: a permission's command longer than fits
---  shows a window of its lines (m.permission_scroll the first), saying how many are out of view
---@return askhost.Layout
function M.layout(m, width, agent, note, max_height)
  local full = M.layout_at(m, width, agent, note)
  if not (m.permission and max_height and #full.lines > max_height and full.permission_lines) then
    return full
  end
  -- The options keep their rows; the command scrolls in what is left (at least 3 rows, 2 of them
  -- the lines that say what is above and below).
  local n = full.permission_lines
  local room = math.max(n - (#full.lines - max_height), 3)
  if room >= n then
    return full
  end
  local rows = math.max(room - 2, 1)
  m.permission_scroll = math.max(math.min(m.permission_scroll or 0, n - rows), 0)
  local out = M.layout_at(m, width, agent, note, { first = m.permission_scroll, rows = rows })
  out.permission_page = rows
  return out
end

---@param window? { first: integer, rows: integer } the permission's command lines in view
---@return askhost.Layout
function M.layout_at(m, width, agent, note, window)
  local c = new_canvas()
  local out = { permission_window = window }
  width = math.max(width, 20)
  layout_top(c, m, width, agent)
  if m:on_submit_tab() then
    layout_review(c, m, width, out)
  else
    layout_question(c, m, width, out)
  end
  c:add()
  if m:notice() then
    add_hint(c, m:notice(), width, 'AskHostWarning')
  end
  local hint, group = hint_text(m, width)
  if note and m:mode() ~= 'confirm_discard' and m:mode() ~= 'confirm_long' then
    hint, group = note, 'AskHostWarning'
  end
  add_hint(c, hint, width, group or 'AskHostHint')
  out.lines = c.lines
  return out
end

-- Plain text of laid-out lines (for tests and the README's screen capture).
---@param lines askhost.Span[][]
---@return string[]
function M.plain(lines)
  local out = {}
  for i, spans in ipairs(lines) do
    local parts = {}
    for _, span in ipairs(spans) do
      parts[#parts + 1] = span[1]
    end
    out[i] = table.concat(parts)
  end
  return out
end

-- ---------------------------------------------------------------- the window

---@class askhost.DialogOpts
---@field agent? string
---@field title? string
---@field on_done? fun(outcome: askhost.Outcome)
---@field on_hide? fun()
---@field key_guard_ms? integer
---@field permission? askhost.Permission a tool permission: its command shown whole

---@class askhost.Dialog the windows of one ask's dialog
---@field model askhost.Model
---@field opts askhost.DialogOpts
---@field note? string
---@field closed boolean
---@field hidden boolean closed by hand (:q), can show() again
---@field opened_at integer ms (uv.now)
---@field buf integer
---@field win integer
---@field prev_win integer the window to return to
---@field augroup integer
---@field min_width? integer
---@field layout? askhost.Layout
---@field input_win? integer
---@field input_buf? integer
---@field input_q? integer the question the input window types into
---@field input_kind? 'text'|'note'
local Dialog = {}
Dialog.__index = Dialog

local max_width = 80

-- Open a dialog for `questions` (already normalized). opts:
--   agent      the agent's name, shown by the header
--   title      the border title (Neovim 0.9+)
--   on_done    function(outcome) once answered or cancelled (not when closed by close())
--   key_guard_ms  keys pressed this soon after the dialog opens are dropped (default 0)
---@param questions askhost.Question[]
---@param opts? askhost.DialogOpts
---@return askhost.Dialog
function M.open(questions, opts)
  local self = setmetatable({
    model = model_mod.new(questions),
    opts = opts or {},
    note = nil,
    closed = false,
    opened_at = (vim.uv or vim.loop).now(),
  }, Dialog)
  self.model.permission = self.opts.permission
  M.define_highlights()
  self:_create()
  return self
end

function Dialog:_create()
  self.prev_win = api.nvim_get_current_win()
  self.buf = api.nvim_create_buf(false, true)
  vim.bo[self.buf].bufhidden = 'wipe'
  vim.bo[self.buf].filetype = 'askhost'
  self:_map_dialog_keys()
  local geometry = self:_geometry()
  local config = {
    relative = 'editor',
    row = geometry.row,
    col = geometry.col,
    width = geometry.width,
    height = geometry.height,
    style = 'minimal',
    border = 'rounded',
    zindex = 60,
  }
  if vim.fn.has('nvim-0.9') == 1 then
    config.title = { { ' ' .. (self.opts.title or 'askhost') .. ' ', 'AskHostTitle' } }
    config.title_pos = 'center'
  end
  if vim.fn.mode() ~= 'n' then
    vim.cmd('stopinsert')
  end
  self.win = api.nvim_open_win(self.buf, true, config)
  vim.wo[self.win].winhighlight = 'Normal:AskHostNormal,FloatBorder:AskHostBorder'
  vim.wo[self.win].wrap = false
  vim.wo[self.win].cursorline = false
  vim.wo[self.win].scrolloff = 2
  self.augroup = api.nvim_create_augroup('askhost_dialog_' .. self.buf, { clear = true })
  api.nvim_create_autocmd('WinClosed', {
    group = self.augroup,
    pattern = tostring(self.win),
    callback = function()
      -- Closed by hand (:q): hide it; the question stays pending and :AskHost pending shows it again.
      vim.schedule(function()
        self:_hidden()
      end)
    end,
  })
  api.nvim_create_autocmd('VimResized', {
    group = self.augroup,
    callback = function()
      self:render({ keep_focus = true })
    end,
  })
  self.hidden = false
  self:render()
end

-- Width from the content (at most 80 columns, or the screen less a margin), height from the lines.
---@return { width: integer, height: integer, row: integer, col: integer, layout: askhost.Layout }
function Dialog:_geometry()
  local columns, rows = vim.o.columns, vim.o.lines - vim.o.cmdheight
  local avail = math.max(math.min(max_width, columns - 4), 20)
  local max_height = math.max(rows - 4, 1)
  local width = 30
  for _, text in ipairs(M.plain(M.layout(self.model, avail, self.opts.agent, self.note, max_height).lines)) do
    width = math.max(width, width_of(text) + 1)
  end
  -- Never narrower than before, so switching tabs does not make the window jump.
  width = math.min(math.max(width, self.min_width or 0), avail)
  self.min_width = width
  -- Lay out again at the final width so wrapping matches the window.
  local layout = M.layout(self.model, width, self.opts.agent, self.note, max_height)
  local height = math.max(math.min(#layout.lines, max_height), 1)
  return {
    width = width,
    height = height,
    row = math.max(math.floor((rows - height) / 2) - 1, 0),
    col = math.max(math.floor((columns - width) / 2) - 1, 0),
    layout = layout,
  }
end

---@return boolean
function Dialog:valid()
  return not self.closed and not self.hidden and self.win and api.nvim_win_is_valid(self.win)
end

-- Draw the current state, resize and re-centre, and (unless opts.keep_focus) put the focus where
-- typing goes.
---@param opts? { keep_focus?: boolean }
function Dialog:render(opts)
  if not self:valid() then
    return
  end
  local g = self:_geometry()
  local layout = g.layout
  api.nvim_win_set_config(self.win, { relative = 'editor', row = g.row, col = g.col, width = g.width, height = g.height })
  vim.bo[self.buf].modifiable = true
  api.nvim_buf_set_lines(self.buf, 0, -1, false, M.plain(layout.lines))
  vim.bo[self.buf].modifiable = false
  api.nvim_buf_clear_namespace(self.buf, ns, 0, -1)
  for i, spans in ipairs(layout.lines) do
    local col = 0
    for _, span in ipairs(spans) do
      if span[2] then
        api.nvim_buf_add_highlight(self.buf, ns, span[2], i - 1, col, col + #span[1])
      end
      col = col + #span[1]
    end
  end
  self.layout = layout
  pcall(api.nvim_win_set_cursor, self.win, { layout.cursor or 1, 0 })
  if #layout.lines <= g.height then
    -- Everything fits: line 1 (the tab bar) at the top. A window that shrank keeps the view it
    -- scrolled to on a longer tab otherwise, and the input float below is placed for line 1.
    api.nvim_win_call(self.win, function()
      vim.fn.winrestview({ topline = 1 })
    end)
  end
  if opts and opts.keep_focus then
    if self.input_win and api.nvim_win_is_valid(self.input_win) and layout.input then
      local at = layout.input
      api.nvim_win_set_config(self.input_win, {
        relative = 'win', win = self.win, row = at.line - 1, col = at.col,
        width = math.max(g.width - at.col - 1, 5), height = at.height or 1,
      })
    end
    return
  end
  self:_sync_focus()
end

function Dialog:_sync_focus()
  local mode = self.model:mode()
  if (mode == 'edit' or mode == 'note') and self.layout.input then
    self:_open_input()
  else
    self:_close_input()
    if api.nvim_win_is_valid(self.win) then
      api.nvim_set_current_win(self.win)
    end
    vim.cmd('stopinsert')
  end
end

-- ---------------------------------------------------------------- the input line

function Dialog:_open_input()
  local at = self.layout.input
  local width = math.max(api.nvim_win_get_width(self.win) - at.col - 1, 5)
  local config = {
    relative = 'win', win = self.win, row = at.line - 1, col = at.col, width = width, height = at.height or 1, zindex = 61,
  }
  local kind = self.model:mode() == 'note' and 'note' or 'text'
  if self.input_win and api.nvim_win_is_valid(self.input_win) and self.input_q == self.model.tab
    and self.input_kind == kind then
    api.nvim_win_set_config(self.input_win, config)
  else
    self:_close_input()
    self.input_q, self.input_kind = self.model.tab, kind
    self.input_buf = api.nvim_create_buf(false, true)
    vim.bo[self.input_buf].bufhidden = 'wipe'
    local text = kind == 'note' and self.model:notes() or self.model:text()
    api.nvim_buf_set_lines(self.input_buf, 0, -1, false, vim.split(text, '\n', { plain = true }))
    config.style = 'minimal'
    self.input_win = api.nvim_open_win(self.input_buf, true, config)
    vim.wo[self.input_win].winhighlight = 'Normal:AskHostInput'
    vim.wo[self.input_win].wrap = false
    vim.wo[self.input_win].sidescrolloff = 0
    self:_map_input_keys(self.input_buf)
    api.nvim_create_autocmd({ 'TextChanged', 'TextChangedI' }, {
      group = self.augroup,
      buffer = self.input_buf,
      callback = function()
        self:_pull_text()
      end,
    })
    local input_win = self.input_win
    api.nvim_create_autocmd('WinClosed', {
      group = self.augroup,
      pattern = tostring(input_win),
      once = true,
      callback = function()
        -- Closed by hand (:q in the input line): the answer is still being typed, so it comes back.
        vim.schedule(function()
          if self.input_win == input_win and self:valid() then
            self.input_win, self.input_buf, self.input_q = nil, nil, nil
            self:render()
          end
        end)
      end,
    })
  end
  api.nvim_set_current_win(self.input_win)
  local last = api.nvim_buf_line_count(self.input_buf)
  local line = api.nvim_buf_get_lines(self.input_buf, last - 1, last, false)[1] or ''
  pcall(api.nvim_win_set_cursor, self.input_win, { last, #line })
  vim.cmd('startinsert!')
end

function Dialog:_pull_text()
  if self.input_buf and api.nvim_buf_is_valid(self.input_buf) and self.input_q then
    local text = table.concat(api.nvim_buf_get_lines(self.input_buf, 0, -1, false), '\n')
    local had_notice = self.model:notice() ~= nil
    local kept
    if self.input_kind == 'note' then
      kept = self.model:set_notes(text, self.input_q)
    else
      kept = self.model:set_text(text, self.input_q)
    end
    if kept ~= text then
      -- Past the limit the rest is not kept: the line shows what the answer will be.
      local buf = self.input_buf
      vim.schedule(function()
        if api.nvim_buf_is_valid(buf) then
          api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(kept, '\n', { plain = true }))
        end
      end)
    end
    local lines = #vim.split(kept, '\n', { plain = true })
    if had_notice ~= (self.model:notice() ~= nil) or lines ~= self.input_line_count then
      self.input_line_count = lines
      vim.schedule(function()
        self:render({ keep_focus = true })
      end)
    end
  end
end

function Dialog:_close_input()
  local win = self.input_win
  if win and api.nvim_win_is_valid(win) then
    self:_pull_text()
  end
  self.input_win, self.input_buf, self.input_q = nil, nil, nil
  if win and api.nvim_win_is_valid(win) then
    api.nvim_win_close(win, true)
  end
end

-- ---------------------------------------------------------------- keys

local rejected_notes = {
  submit = 'Answer every question before submitting',
  text = 'Type an answer first',
  multi = 'Check at least one option (Space)',
  row = 'No such option',
}

---@param key string a key name as model.handle() takes it
function Dialog:press(key)
  if not self:valid() then
    return
  end
  -- A question that opened while the person was typing elsewhere: their next keys are not a pick.
  local loop = vim.uv or vim.loop
  loop.update_time()
  if loop.now() - self.opened_at < (self.opts.key_guard_ms or 0) then
    return
  end
  self:_pull_text()
  -- A permission's command longer than the float: PgUp/PgDn scroll it (its options are few).
  local page = self.layout and self.layout.permission_page
  if page and (key == 'pageup' or key == 'pagedown') then
    self.note = nil
    self.model.permission_scroll = (self.model.permission_scroll or 0) + (key == 'pageup' and -page or page)
    self:render()
    return
  end
  local before_mode, on_submit = self.model:mode(), self.model:on_submit_tab()
  local multi = not on_submit and self.model.questions[self.model.tab].multiSelect
  local result = self.model:handle(key)
  self.note = nil
  if result == 'rejected' then
    if on_submit then
      self.note = rejected_notes.submit
    elseif before_mode == 'edit' then
      self.note = rejected_notes.text
    elseif multi and key == 'enter' then
      self.note = rejected_notes.multi
    else
      self.note = rejected_notes.row
    end
  end
  if result == 'finished' then
    self:_finish()
    return
  end
  if result ~= 'ignored' or before_mode == 'edit' or before_mode == 'note' then
    self:render()
  end
end

function Dialog:_finish()
  local outcome = self.model.outcome
  local on_done = self.opts.on_done
  self:close()
  if on_done then
    on_done(outcome)
  end
end

---@param buf integer
---@param modes string|string[]
---@param lhs string
---@param fn function
local function map(buf, modes, lhs, fn)
  vim.keymap.set(modes, lhs, fn, { buffer = buf, nowait = true, silent = true })
end

function Dialog:_map_dialog_keys()
  local buf = self.buf
  local keys = {
    ['j'] = 'j', ['k'] = 'k', ['<Down>'] = 'down', ['<Up>'] = 'up',
    ['<PageUp>'] = 'pageup', ['<PageDown>'] = 'pagedown', ['<Home>'] = 'home', ['<End>'] = 'end',
    ['<Tab>'] = 'tab', ['<S-Tab>'] = 'backtab', ['<Left>'] = 'left', ['<Right>'] = 'right',
    ['h'] = 'left', ['l'] = 'right',
    ['<CR>'] = 'enter', ['<Esc>'] = 'esc', ['q'] = 'esc', ['<Space>'] = 'space',
    ['y'] = 'y', ['Y'] = 'Y', ['n'] = 'n', ['N'] = 'N',
  }
  for d = 0, 9 do
    keys[tostring(d)] = tostring(d)
  end
  for lhs, key in pairs(keys) do
    map(buf, 'n', lhs, function()
      self:press(key)
    end)
  end
end

---@param buf integer
function Dialog:_map_input_keys(buf)
  local function key(name)
    return function()
      self:press(name)
    end
  end
  for _, mode in ipairs({ 'i', 'n' }) do
    map(buf, mode, '<CR>', key('enter'))
    map(buf, mode, '<Tab>', key('tab'))
    map(buf, mode, '<S-Tab>', key('backtab'))
    map(buf, mode, '<Up>', key('up'))
    map(buf, mode, '<PageUp>', key('pageup'))
  end
  map(buf, 'i', '<Esc>', key('esc'))
  map(buf, 'i', '<C-c>', key('esc'))
  map(buf, 'n', '<Esc>', key('esc'))
  map(buf, 'n', 'q', key('esc'))
  -- With nothing typed the arrows switch questions, as on every other tab.
  for lhs, name in pairs({ ['<Left>'] = 'left', ['<Right>'] = 'right' }) do
    map(buf, 'i', lhs, function()
      self:_pull_text()
      if self.model:text() == '' and self.model:multi_question() then
        self:press(name)
      else
        api.nvim_feedkeys(api.nvim_replace_termcodes(lhs, true, false, true), 'n', false)
      end
    end)
  end
end

-- ---------------------------------------------------------------- lifecycle

function Dialog:_hidden()
  if self.closed or self.hidden then
    return
  end
  if self.win and api.nvim_win_is_valid(self.win) then
    return
  end
  self.hidden = true
  self:_close_input()
  if self.opts.on_hide then
    self.opts.on_hide()
  end
end

-- Show a hidden dialog again (and focus it).
function Dialog:show()
  if self.closed then
    return
  end
  if self:valid() then
    self:_sync_focus()
    return
  end
  pcall(api.nvim_del_augroup_by_id, self.augroup)
  self:_create()
end

-- Close without an outcome (the ask was withdrawn, or the host went away).
function Dialog:close()
  if self.closed then
    return
  end
  self.closed = true
  pcall(api.nvim_del_augroup_by_id, self.augroup)
  local cur = api.nvim_get_current_win()
  local was_inside = cur == self.win or cur == self.input_win
  if self.input_win and api.nvim_win_is_valid(self.input_win) then
    api.nvim_win_close(self.input_win, true)
  end
  if self.win and api.nvim_win_is_valid(self.win) then
    api.nvim_win_close(self.win, true)
  end
  if was_inside then
    vim.cmd('stopinsert')
    if self.prev_win and api.nvim_win_is_valid(self.prev_win) then
      api.nvim_set_current_win(self.prev_win)
    end
  end
end

---@return boolean
function Dialog:is_open()
  return not self.closed
end

M.Dialog = Dialog
return M
