-- The shared dialog test vectors (tests/dialog/*.json) replayed against the Neovim dialog's model
-- (editor-bridges/neovim/lua/askhost/model.lua). Neovim 0.7 has no `nvim -l`:
--   nvim --headless -u NONE -i NONE -n --cmd 'set rtp^=editor-bridges/neovim' -c 'luafile tests/dialog/replay.lua'
-- Reports as tests/vectors_report.lua says. ASKHOST_DIALOG_VECTOR=NAME replays one.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h')
local model_mod = require('askhost.model')
local report = dofile(here .. '/../vectors_report.lua')

-- What the Neovim float can show; a vector that requires more is skipped.
local capabilities = { notes = true, previews = true }

local function same(a, b)
  if type(a) ~= type(b) then
    return false
  end
  if type(a) ~= 'table' then
    return a == b
  end
  for k, v in pairs(a) do
    if not same(v, b[k]) then
      return false
    end
  end
  for k in pairs(b) do
    if a[k] == nil then
      return false
    end
  end
  return true
end

local function show(v)
  if v == nil then
    return 'nil'
  end
  local ok, s = pcall(vim.json.encode, v)
  return ok and s or vim.inspect(v)
end

local function list_of(t)
  local out_ = {}
  for _, v in ipairs(t) do
    out_[#out_ + 1] = v
  end
  return out_
end

-- Keys as the float's mappings name them.
local key_names = {
  up = 'up', down = 'down', pageup = 'pageup', pagedown = 'pagedown', home = 'home', ['end'] = 'end',
  left = 'left', right = 'right', tab = 'tab', backtab = 'backtab', enter = 'enter', esc = 'esc',
  space = 'space',
}

local function state_of(m, field)
  local q = math.min(m.tab, m:count())
  local s = m.states[q]
  if field == 'tab' then
    return m.tab - 1
  elseif field == 'cursor' then
    return s.cursor - 1
  elseif field == 'mode' then
    return m:mode()
  elseif field == 'text' then
    return m:text(q)
  elseif field == 'text_chars' then
    return model_mod.char_count(m:text(q))
  elseif field == 'text_bytes' then
    return #m:text(q)
  elseif field == 'notes' then
    return m:notes(q)
  elseif field == 'hint' then
    return m:hint()
  elseif field == 'confirm' then
    return m:confirm_text()
  elseif field == 'notice' then
    return m:notice()
  elseif field == 'more' then
    local rows = m:row_count(q)
    local first = s.scroll - 1
    return { first, rows - math.min(rows, first + m:visible_rows(q)) }
  elseif field == 'ticks' then
    local got = {}
    for r = 1, m:row_count(q) do
      if m:checked(q, r) then
        got[#got + 1] = r - 1
      end
    end
    return got
  elseif field == 'answered' then
    local got = {}
    for i = 1, m:count() do
      if m:answered(i) then
        got[#got + 1] = i - 1
      end
    end
    return got
  elseif field == 'recommended' then
    local got = {}
    for r, o in ipairs(m.questions[q].options) do
      if model_mod.is_recommended(o.label) then
        got[#got + 1] = r - 1
      end
    end
    return got
  end
  error('unknown expectation ' .. field)
end

local function replay(path)
  local v = vim.json.decode(table.concat(vim.fn.readfile(path, 'b'), '\n'))
  local failures = {}
  local function fail(msg)
    failures[#failures + 1] = msg
  end
  for _, cap in ipairs(v.requires or {}) do
    if not capabilities[cap] then
      return 'skipped (no ' .. cap .. ')', failures
    end
  end
  local m = model_mod.new(model_mod.normalize_questions(v.questions))
  for n, step in ipairs(v.steps) do
    local last = 'ignored'
    for _, k in ipairs(step.keys) do
      if type(k) == 'string' then
        if k == 'backspace' then
          -- The input line's own key: one character less.
          local t = m:text()
          m:set_text(vim.fn.strcharpart(t, 0, vim.fn.strchars(t) - 1))
          last = 'changed'
        else
          last = m:handle(key_names[k] or k)
        end
      else
        local kind = k.text and 'text' or (k.paste and 'paste' or 'note')
        local text = string.rep(k[kind], k['repeat'] or 1)
        if kind == 'note' then
          m:set_notes(m:notes() .. text)
        else
          if m:mode() ~= 'edit' then
            fail(('step %d: %s outside a text input'):format(n, kind))
          end
          m:set_text(m:text() .. text)
        end
        last = 'changed'
      end
    end
    for field, want in pairs(step.expect or {}) do
      if want == vim.NIL then
        want = nil
      end
      local got
      if field == 'result' then
        got = last
      else
        got = state_of(m, field)
      end
      if type(want) == 'table' then
        want = list_of(want)
      end
      if not same(got, want) then
        fail(('step %d %s: expect.%s = %s, got %s'):format(n, show(step.keys), field, show(want), show(got)))
      end
    end
  end
  if v.answer_bytes then
    if not m.outcome or not m.outcome.answered then
      fail('answer_bytes: not answered')
    else
      for i, want in ipairs(v.answer_bytes) do
        local got = #table.concat(m.outcome.answers[i].values, '')
        if got ~= want then
          fail(('answer %d: %d bytes, expected %d'):format(i, got, want))
        end
      end
    end
  end
  if v.outcome == vim.NIL then
    if m.outcome then
      fail('the dialog finished: ' .. show(model_mod.result(m.outcome)))
    end
  elseif v.outcome then
    if not m.outcome then
      fail('the dialog did not finish')
    else
      local got = vim.json.decode(vim.json.encode(model_mod.result(m.outcome)))
      if not same(got, v.outcome) then
        fail('outcome ' .. show(got) .. ' != ' .. show(v.outcome))
      end
    end
  end
  return #failures == 0 and 'ok' or 'FAIL', failures
end

report.run('replay.lua', function(case)
  local only = os.getenv('ASKHOST_DIALOG_VECTOR')
  local files = vim.fn.glob(here .. '/*.json', false, true)
  table.sort(files)
  for _, path in ipairs(files) do
    local name = vim.fn.fnamemodify(path, ':t:r')
    if not only or only == '' or only == name then
      local ok, status, failures = pcall(replay, path)
      if not ok then
        status, failures = 'FAIL', { tostring(status) }
      end
      case(name, status, failures)
    end
  end
end)
