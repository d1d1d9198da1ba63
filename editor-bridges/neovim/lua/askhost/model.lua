-- One ask's dialog state without any window: keys in, outcome out. The same rules as the
-- terminal dialog (host/frontends/tui/dialog_model.cpp): number keys pick, Space toggles, Tab walks
-- the questions and a Submit tab, Esc cancels (asking "Discard N answers?" once something is
-- answered). Rows are 1-based: the options, then "Other"; a free-text question has no rows.
---@class askhost.Option
---@field label string
---@field description? string
---@field preview? string the option's preview (markdown or HTML) as sent

---@class askhost.Question a question as normalize_questions() leaves it: no JSON nulls
---@field question string
---@field header? string the short tab label; nil when absent or empty
---@field options askhost.Option[] empty for a free-text question
---@field multiSelect boolean

---@class askhost.Answer one question's answer inside the model
---@field question string the question's text
---@field values string[] the picked labels and typed text, in order
---@field selected? string the picked option's label (single choice only)
---@field custom boolean the answer (or part of it) was typed
---@field multi boolean
---@field preview? string the picked option's preview
---@field notes? string the note for the agent, trimmed

---@class askhost.Outcome how an ask ended; nil answers when cancelled
---@field answered boolean
---@field cancelled? boolean
---@field answers? askhost.Answer[]

---@class askhost.QuestionState the per-question part of the dialog state
---@field cursor integer the highlighted row, 1-based
---@field checked table<integer, boolean> rows ticked (multi-select)
---@field text string typed text: Other or the free-text answer
---@field notes string
---@field editing_other boolean
---@field scroll integer the first visible row
---@field answer? askhost.Answer

---@alias askhost.KeyResult 'ignored'|'changed'|'rejected'|'finished'
---@alias askhost.Mode 'browse'|'edit'|'note'|'confirm_discard'|'confirm_long'
local M = {}

M.OTHER_LABEL = 'Other (type your answer)'
M.SOFT_LIMIT = 2000 -- the spec's soft limit per typed answer
M.SCROLL_THRESHOLD = 6 -- more options than this scroll...
M.SCROLL_WINDOW = 5 -- ...showing this many rows at once
-- Typed text (an answer or a note) stops at the agent's result cap, in UTF-8 bytes, and says so.
M.MAX_TEXT_BYTES = 100000
M.CAP_NOTICE = 'Answer is at its 100,000-byte limit: the rest was not kept'

---@generic T
---@param v T|userdata
---@return T|nil
local function denull(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

---@param v any
---@return string|nil
local function str(v)
  v = denull(v)
  if v == nil then
    return nil
  end
  return tostring(v)
end

-- UTF-8 characters in s.
---@param s string
---@return integer
function M.char_count(s)
  local _, n = s:gsub('[^\128-\191]', '')
  return n
end

-- One rule in all three dialogs: the label ends with "(Recommended)", ASCII whitespace after it
-- ignored (docs/dialog.md).
---@param label string
---@return boolean
function M.is_recommended(label)
  return label:match('%(Recommended%)[ \t\n\r\f\v]*$') ~= nil
end

-- 2847 -> "2,847"
---@param n integer
---@return string
function M.format_count(n)
  local s = tostring(n):reverse():gsub('(%d%d%d)', '%1,'):reverse():gsub('^,', '')
  return s
end

-- Text as a text field keeps it: CR LF and a lone CR are one line break, a tab is a space, other
-- control characters go.
---@param text string
---@return string
function M.clean_text(text)
  text = text:gsub('\r\n?', '\n'):gsub('\t', ' '):gsub('[%z\1-\9\11-\31\127]', '')
  return text
end

-- The longest prefix of s within `max` bytes that ends on a whole UTF-8 character.
---@param s string
---@param max integer bytes
---@return string
function M.cut_bytes(s, max)
  if #s <= max then
    return s
  end
  local cut = max
  -- Step back over continuation bytes so the cut lands before a character's first byte.
  while cut > 0 and s:byte(cut + 1) and s:byte(cut + 1) >= 0x80 and s:byte(cut + 1) < 0xC0 do
    cut = cut - 1
  end
  return s:sub(1, cut)
end

---@class askhost.Permission a tool permission, typed by askhost (docs/protocol.md: `permission`)
---@field tool string
---@field command string the whole command that will run
---@field path string the file an edit writes, or where a command looks (Grep's path)
---@field content string the edit's content
---@field replaces string the text an edit replaces (Edit's old text): content takes its place
---@field reason string the agent's own words for the call

-- An ask's `permission` as plain strings, or nil when it has none. Faces show these fields as
-- they are; none reads a command out of the question's wording.
---@param raw any
---@return askhost.Permission|nil
function M.normalize_permission(raw)
  raw = denull(raw)
  if type(raw) ~= 'table' or vim.islist and vim.islist(raw) and #raw > 0 then
    return nil
  end
  local function s(v)
    v = denull(v)
    return type(v) == 'string' and v or ''
  end
  return {
    tool = s(raw.tool),
    command = s(raw.command),
    path = s(raw.path),
    content = s(raw.content),
    replaces = s(raw.replaces),
    reason = s(raw.reason),
  }
end

-- Questions as received (JSON nulls, missing fields) turned into plain tables.
---@param raw any the params' questions: a list, vim.NIL or nil
---@return askhost.Question[]
function M.normalize_questions(raw)
  local out = {}
  for _, q in ipairs(denull(raw) or {}) do
    local options = {}
    for _, o in ipairs(denull(q.options) or {}) do
      options[#options + 1] = { label = str(o.label) or '', description = str(o.description), preview = str(o.preview) }
    end
    local header = str(q.header)
    if header == '' then
      header = nil
    end
    out[#out + 1] = {
      question = str(q.question) or '',
      header = header,
      options = options,
      multiSelect = denull(q.multiSelect) == true and #options > 0,
    }
  end
  return out
end

---@class askhost.Model the dialog state of one ask
---@field questions askhost.Question[]
---@field states askhost.QuestionState[] one per question
---@field tab integer 1..#questions, or #questions + 1 for Submit
---@field confirm? 'discard'|'long' the confirmation on screen
---@field long_chars integer the long answer's length, for its confirmation
---@field outcome? askhost.Outcome set once the ask is over
---@field noting? boolean the note field is open
---@field cap_hit? boolean the last input was cut at MAX_TEXT_BYTES
---@field permission? askhost.Permission a tool permission (the dialog draws its command)
---@field permission_scroll? integer the first of its command's lines in view, when not all fit
local Model = {}
Model.__index = Model

---@param questions askhost.Question[]
---@return askhost.Model
function M.new(questions)
  local self = setmetatable({
    questions = questions,
    states = {},
    tab = 1,
    confirm = nil, -- nil | 'discard' | 'long'
    long_chars = 0,
    outcome = nil,
  }, Model)
  for i = 1, #questions do
    self.states[i] = { cursor = 1, checked = {}, text = '', notes = '', editing_other = false, scroll = 1, answer = nil }
  end
  return self
end

-- ---------------------------------------------------------------- queries

---@return integer
function Model:count()
  return #self.questions
end
---@return boolean
function Model:multi_question()
  return #self.questions > 1
end
---@param q integer
---@return boolean
function Model:free_text(q)
  return #self.questions[q].options == 0
end
---@param q integer
---@return integer
function Model:row_count(q)
  return self:free_text(q) and 0 or #self.questions[q].options + 1
end
---@param q integer
---@return integer
function Model:other_row(q)
  return #self.questions[q].options + 1
end
---@return integer
function Model:tab_count()
  return #self.questions + (self:multi_question() and 1 or 0)
end
---@return boolean
function Model:on_submit_tab()
  return self:multi_question() and self.tab == #self.questions + 1
end
---@param q integer
---@return boolean
function Model:editing(q)
  return self:free_text(q) or self.states[q].editing_other
end
---@param q integer
---@return integer
function Model:visible_rows(q)
  return #self.questions[q].options > M.SCROLL_THRESHOLD and M.SCROLL_WINDOW or self:row_count(q)
end
---@param q integer
---@param row integer
---@return boolean
function Model:checked(q, row)
  return self.states[q].checked[row] == true
end
---@param q integer
---@return boolean
function Model:answered(q)
  return self.states[q].answer ~= nil
end
---@return integer
function Model:answered_count()
  local n = 0
  for _, s in ipairs(self.states) do
    if s.answer then
      n = n + 1
    end
  end
  return n
end
---@return integer[] the questions without an answer
function Model:unanswered()
  local out = {}
  for q, s in ipairs(self.states) do
    if not s.answer then
      out[#out + 1] = q
    end
  end
  return out
end
---@param q integer
---@return string
function Model:tab_label(q)
  local qu = self.questions[q]
  return qu.header or qu.question
end
---@return boolean
function Model:finished()
  return self.outcome ~= nil
end

-- 'browse' | 'edit' | 'note' (`n` opened the question's note) | 'confirm_discard' | 'confirm_long'
---@return askhost.Mode
function Model:mode()
  if self.noting and self.confirm == nil then
    return 'note'
  end
  if self.confirm == 'discard' then
    return 'confirm_discard'
  elseif self.confirm == 'long' then
    return 'confirm_long'
  elseif not self:on_submit_tab() and #self.questions > 0 and self:editing(self.tab) then
    return 'edit'
  end
  return 'browse'
end

-- The typed text of a question (Other, or the free-text answer); the window's input line sets it.
-- Past MAX_TEXT_BYTES the rest is not kept and notice() says so; returns the text as kept, which
-- the window shows in place of what it had.
---@param q? integer default: the current tab
---@return string
function Model:text(q)
  return self.states[q or self.tab].text
end
---@param text string
---@return string
function Model:_keep(text)
  text = M.clean_text(text)
  local kept = M.cut_bytes(text, M.MAX_TEXT_BYTES)
  self.cap_hit = #kept < #text
  return kept
end
---@param text string
---@param q? integer
---@return string kept
function Model:set_text(text, q)
  if self.outcome then
    return text
  end
  local s = self.states[q or self.tab]
  if text == s.text then -- the window echoing what it was given: the notice stays
    return text
  end
  s.text = self:_keep(text)
  return s.text
end
---@param q? integer
---@return string
function Model:notes(q)
  return self.states[q or self.tab].notes
end
---@param text string
---@param q? integer
---@return string kept
function Model:set_notes(text, q)
  if self.outcome then
    return text
  end
  local s = self.states[q or self.tab]
  if text == s.notes then
    return text
  end
  s.notes = self:_keep(text)
  return s.notes
end
-- The typed-text limit's words while the last input was not kept whole, else nil.
---@return string|nil
function Model:notice()
  return self.cap_hit and M.CAP_NOTICE or nil
end
-- The confirmation's words without the key hint ("Discard 1 answer?"), or nil.
---@return string|nil
function Model:confirm_text()
  if self.confirm == 'discard' then
    local n = self:answered_count() -- one plural rule in all three dialogs
    return ('Discard %d %s?'):format(n, n == 1 and 'answer' or 'answers')
  elseif self.confirm == 'long' then
    return ('Answer is long (%s chars). Continue anyway?'):format(M.format_count(self.long_chars))
  end
  return nil
end

-- The key hint under the dialog (docs/dialog.md), outside a confirmation: the seeds' words, or
-- (narrow) the same keys in fewer words for a window too narrow for them on one row.
---@param narrow? boolean
---@return string
function Model:hint(narrow)
  local function pick(wide, short)
    return narrow and short or wide
  end
  local multi_q = self:multi_question()
  if self.noting then
    return pick('Note for the agent • Enter or Esc to go back', 'Note • Enter/Esc back')
  end
  if self:on_submit_tab() then
    if self:answered_count() == self:count() then
      return pick('Enter to submit • Tab/←→ switch • Esc cancel', 'Enter submit • Tab/←→ switch • Esc cancel')
    end
    return pick(
      'Answer every question to submit • Tab/←→ switch • Esc cancel',
      'Answer all first • Tab/←→ switch • Esc cancel'
    )
  end
  local q = self.questions[self.tab]
  if self:editing(self.tab) then
    if self:free_text(self.tab) then
      return multi_q and pick('Tab switch • Enter confirm • Esc cancel', 'Tab switch • Enter ok • Esc cancel')
        or pick('Enter to submit • Esc to cancel', 'Enter submit • Esc cancel')
    end
    if q.multiSelect then
      return pick('Enter to confirm • Esc to go back', 'Enter ok • Esc back')
    end
    return multi_q and pick('Tab switch • Enter confirm • Esc back', 'Tab switch • Enter ok • Esc back')
      or pick('Enter to submit • Esc to go back', 'Enter submit • Esc back')
  end
  if q.multiSelect then
    return multi_q
        and pick(
          'Tab/←→ switch • Space toggle • Enter confirm • Esc cancel',
          'Tab/←→ switch • Space toggle • Enter ok • Esc cancel'
        )
      or pick('Space to toggle • Enter to submit • Esc to cancel', 'Space toggle • Enter submit • Esc cancel')
  end
  if multi_q then
    return pick('Tab/←→ switch • ↑↓ select • Enter confirm • Esc cancel', 'Tab/←→ switch • ↑↓ select • Enter ok • Esc cancel')
  end
  return pick('↑↓ navigate • 1-9 quick select • Enter to select • Esc to cancel', '↑↓ move • 1-9 pick • Enter select • Esc cancel')
end

-- ---------------------------------------------------------------- keys
-- Keys are names: up down pageup pagedown home end tab backtab left right enter esc space, and
-- single characters (j k y n 0-9). Returns 'ignored' | 'changed' | 'rejected' | 'finished'.

---@param key string a key name: 'up', 'enter', 'tab', 'space', 'esc', '1', ...
---@return askhost.KeyResult
function Model:handle(key)
  if self.outcome or #self.questions == 0 then
    return 'ignored'
  end
  self.cap_hit = false
  if self.confirm == 'discard' then
    return self:_confirm_discard(key)
  elseif self.confirm == 'long' then
    return self:_confirm_long(key)
  elseif self:on_submit_tab() then
    return self:_submit_tab(key)
  elseif self.noting then
    if key == 'enter' or key == 'esc' then
      self.noting = false
      return 'changed'
    end
    return 'ignored'
  elseif self:editing(self.tab) then
    return self:_edit(key)
  end
  return self:_browse(key)
end

---@param key string
---@return askhost.KeyResult
function Model:_browse(key)
  local q, s = self.questions[self.tab], self.states[self.tab]
  if key == 'up' or key == 'k' then
    return self:_move(-1)
  elseif key == 'down' or key == 'j' then
    return self:_move(1)
  elseif key == 'pageup' then
    return self:_move(-self:visible_rows(self.tab))
  elseif key == 'pagedown' then
    return self:_move(self:visible_rows(self.tab))
  elseif key == 'home' then
    return self:_set_cursor(1)
  elseif key == 'end' then
    return self:_set_cursor(self:other_row(self.tab))
  elseif key == 'tab' or key == 'right' then
    return self:_switch_tab(1)
  elseif key == 'backtab' or key == 'left' then
    return self:_switch_tab(-1)
  elseif key == 'esc' then
    return self:_escape()
  elseif key == 'enter' then
    if q.multiSelect then
      return self:_submit_multi_select()
    end
    return self:_choose_row(s.cursor)
  elseif key == 'space' then
    return q.multiSelect and self:_toggle_row(s.cursor) or 'ignored'
  elseif key == '0' then
    return self:_quick_select(self:other_row(self.tab))
  elseif key == 'n' then -- the question's note, as VS Code's and the terminal's `n`
    self.noting = true
    return 'changed'
  elseif type(key) == 'string' and key:match('^[1-9]$') then
    local row = tonumber(key)
    if row > self:row_count(self.tab) then
      return 'rejected'
    end
    return self:_quick_select(row)
  end
  return 'ignored'
end

---@param key string
---@return askhost.KeyResult
function Model:_edit(key)
  local other = not self:free_text(self.tab)
  if key == 'tab' then
    return self:_switch_tab(1)
  elseif key == 'backtab' then
    return self:_switch_tab(-1)
  elseif key == 'left' or key == 'right' then
    -- The window sends these only when nothing is typed: then the arrows switch tabs.
    if self:multi_question() and self:text() == '' then
      return self:_switch_tab(key == 'left' and -1 or 1)
    end
    return 'ignored'
  elseif key == 'up' or key == 'pageup' then
    if not other then
      return 'ignored'
    end
    self:_leave_edit()
    self:_move(-1)
    return 'changed'
  elseif key == 'enter' then
    return self:_commit_text(false)
  elseif key == 'esc' then
    if other then -- back to the list, keeping what was typed
      self:_leave_edit()
      return 'changed'
    end
    return self:_escape()
  end
  return 'ignored'
end

---@param key string
---@return askhost.KeyResult
function Model:_submit_tab(key)
  if key == 'enter' then
    if self:answered_count() ~= #self.questions then
      return 'rejected'
    end
    self:_finish_answered()
    return 'finished'
  elseif key == 'tab' or key == 'right' then
    return self:_switch_tab(1)
  elseif key == 'backtab' or key == 'left' then
    return self:_switch_tab(-1)
  elseif key == 'esc' then
    return self:_escape()
  end
  return 'ignored'
end

---@param key string
---@return askhost.KeyResult
function Model:_confirm_discard(key)
  if key == 'y' or key == 'Y' then
    self.confirm = nil
    self.outcome = { answered = false, cancelled = true }
    return 'finished'
  elseif key == 'n' or key == 'N' or key == 'esc' or key == 'enter' then
    self.confirm = nil
    return 'changed'
  end
  return 'ignored'
end

---@param key string
---@return askhost.KeyResult
function Model:_confirm_long(key)
  if key == 'y' or key == 'Y' or key == 'enter' then
    self.confirm = nil
    return self:_commit_text(true)
  elseif key == 'n' or key == 'N' or key == 'esc' then
    self.confirm = nil
    return 'changed'
  end
  return 'ignored'
end

---@return askhost.KeyResult
function Model:_escape()
  if self:answered_count() == 0 then
    self.outcome = { answered = false, cancelled = true }
    return 'finished'
  end
  self.confirm = 'discard'
  return 'changed'
end

---@param delta integer
---@return askhost.KeyResult
function Model:_move(delta)
  local rows = self:row_count(self.tab)
  if rows == 0 then
    return 'ignored'
  end
  local target = math.max(1, math.min(rows, self.states[self.tab].cursor + delta))
  return self:_set_cursor(target)
end

---@param row integer
---@return askhost.KeyResult
function Model:_set_cursor(row)
  local s = self.states[self.tab]
  if row < 1 or row > self:row_count(self.tab) or row == s.cursor then
    return 'ignored'
  end
  s.cursor = row
  self:_keep_cursor_visible(self.tab)
  return 'changed'
end

---@param q integer
function Model:_keep_cursor_visible(q)
  local s = self.states[q]
  local vis = math.max(self:visible_rows(q), 1)
  if s.cursor < s.scroll then
    s.scroll = s.cursor
  end
  if s.cursor >= s.scroll + vis then
    s.scroll = s.cursor - vis + 1
  end
end

---@param row integer
---@return askhost.KeyResult
function Model:_quick_select(row)
  self:_set_cursor(row)
  if self.questions[self.tab].multiSelect then
    return self:_toggle_row(row)
  end
  return self:_choose_row(row)
end

---@param row integer
---@return askhost.KeyResult
function Model:_choose_row(row)
  if row == self:other_row(self.tab) then
    return self:_open_other()
  end
  local q = self.questions[self.tab]
  local label = q.options[row].label
  return self:_commit({
    question = q.question, values = { label }, selected = label, custom = false, multi = false,
    preview = q.options[row].preview,
  })
end

---@param row integer
---@return askhost.KeyResult
function Model:_toggle_row(row)
  local s = self.states[self.tab]
  if row == self:other_row(self.tab) and not s.checked[row] then
    return self:_open_other()
  end
  s.checked[row] = not s.checked[row]
  self:_refresh_multi_answer(self.tab)
  return 'changed'
end

---@return askhost.KeyResult
function Model:_open_other()
  local s = self.states[self.tab]
  s.cursor = self:other_row(self.tab)
  self:_keep_cursor_visible(self.tab)
  s.editing_other = true
  return 'changed'
end

function Model:_leave_edit()
  local s = self.states[self.tab]
  if not s.editing_other then
    return
  end
  s.editing_other = false
  if self.questions[self.tab].multiSelect then
    s.checked[self:other_row(self.tab)] = s.text ~= ''
    self:_refresh_multi_answer(self.tab)
  end
end

-- An answered multi-select question follows later toggles; with nothing left checked it is unanswered.
---@param q integer
function Model:_refresh_multi_answer(q)
  local s, qu = self.states[q], self.questions[q]
  if not s.answer then
    return
  end
  local values, custom = {}, false
  local other = self:other_row(q)
  for row = 1, other - 1 do
    if s.checked[row] then
      values[#values + 1] = qu.options[row].label
    end
  end
  if s.checked[other] and s.text ~= '' then
    values[#values + 1] = s.text
    custom = true
  end
  if #values == 0 then
    s.answer = nil
    return
  end
  s.answer = { question = qu.question, values = values, custom = custom, multi = true }
end

---@param confirmed_long boolean
---@return askhost.KeyResult
function Model:_commit_text(confirmed_long)
  local s = self.states[self.tab]
  if not s.text:find('[^ \n]') then -- blank text says nothing: it is not an answer
    return 'rejected'
  end
  local chars = M.char_count(s.text)
  if not confirmed_long and chars > M.SOFT_LIMIT then
    self.confirm = 'long'
    self.long_chars = chars
    return 'changed'
  end
  local q = self.questions[self.tab]
  if q.multiSelect then
    s.editing_other = false
    s.checked[self:other_row(self.tab)] = true
    self:_refresh_multi_answer(self.tab)
    return 'changed'
  end
  return self:_commit({ question = q.question, values = { s.text }, custom = true, multi = false })
end

---@return askhost.KeyResult
function Model:_submit_multi_select()
  local s = self.states[self.tab]
  -- Build the answer as if it had been answered, then keep it only if something is checked.
  s.answer = {}
  self:_refresh_multi_answer(self.tab)
  if not s.answer then
    return 'rejected'
  end
  return self:_commit(s.answer)
end

---@param answer askhost.Answer
---@return askhost.KeyResult
function Model:_commit(answer)
  local s = self.states[self.tab]
  s.answer = answer
  s.editing_other = false
  if not self:multi_question() then
    self:_finish_answered()
    return 'finished'
  end
  -- On to the next unanswered question, or to Submit when every one has an answer.
  local n = #self.questions
  for step = 1, n do
    local q = (self.tab - 1 + step) % n + 1
    if not self.states[q].answer then
      self.tab = q
      return 'changed'
    end
  end
  self.tab = n + 1
  return 'changed'
end

---@param delta integer
---@return askhost.KeyResult
function Model:_switch_tab(delta)
  if not self:multi_question() then
    return 'ignored'
  end
  if not self:on_submit_tab() then
    self:_leave_edit()
  end
  local count = self:tab_count()
  self.tab = (self.tab - 1 + delta) % count + 1
  return 'changed'
end

function Model:_finish_answered()
  local answers = {}
  for i, s in ipairs(self.states) do
    answers[i] = vim.deepcopy(s.answer)
    local notes = s.notes:gsub('^[ \n]+', ''):gsub('[ \n]+$', '') -- sent trimmed; a blank note is none
    if notes ~= '' then
      answers[i].notes = notes
    end
  end
  self.outcome = { answered = true, answers = answers }
end

-- ---------------------------------------------------------------- the result for ask/show

-- The outcome in the native shape (docs/protocol.md), ready for vim.json.encode.
---@param outcome? askhost.Outcome
---@return table result the ask/show result
function M.result(outcome)
  if not outcome or not outcome.answered then
    return { answered = false, cancelled = true }
  end
  local answers = {}
  for i, a in ipairs(outcome.answers) do
    local out = { question = a.question, wasCustom = a.custom == true }
    if a.multi then
      out.answer = vim.deepcopy(a.values)
    else
      out.answer = a.values[1]
    end
    if a.selected then
      out.selectedOption = a.selected
    end
    if a.notes then
      out.notes = a.notes
    end
    if a.preview then
      out.preview = a.preview
    end
    answers[i] = out
  end
  return { answered = true, answers = answers }
end

-- "Database=SQLite, Name=billing" for messages after the dialog closed.
---@param questions askhost.Question[]
---@param outcome? askhost.Outcome
---@return string
function M.summary(questions, outcome)
  if not outcome then
    return 'withdrawn'
  end
  if not outcome.answered then
    return 'cancelled'
  end
  local parts = {}
  for i, a in ipairs(outcome.answers) do
    local q = questions[i]
    local value = table.concat(a.values, ', ')
    parts[#parts + 1] = (#questions == 1) and value or ((q.header or q.question) .. '=' .. value)
  end
  return table.concat(parts, '; ')
end

return M
