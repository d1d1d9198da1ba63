-- The shared text vectors (tests/text/*.json, README.md here) replayed against the Neovim bridge's
-- rules (editor-bridges/neovim/lua/askhost/text.lua). Neovim 0.7 has no `nvim -l`:
--   nvim --headless -u NONE -i NONE -n --cmd 'set rtp^=editor-bridges/neovim' -c 'luafile tests/text/replay.lua'
-- Reports as tests/vectors_report.lua says.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h')
local text = require('askhost.text')
local askhost = require('askhost')
local report = dofile(here .. '/../vectors_report.lua')

-- A string as Lua would write it, bytes outside printable ASCII escaped (a failure's report must
-- not hide what it reports).
local function literal(s)
  return '"' .. s:gsub('[^ -~]', function(c)
    return ('\\%03d'):format(c:byte())
  end):gsub('"', '\\"') .. '"'
end

local function read(name)
  local f = assert(io.open(here .. '/' .. name, 'rb'))
  local doc = vim.json.decode(f:read('*a'))
  f:close()
  return doc
end

-- UTF-8 of one code point.
local function encoded(cp)
  if cp < 0x80 then
    return string.char(cp)
  elseif cp < 0x800 then
    return string.char(0xC0 + math.floor(cp / 0x40), 0x80 + cp % 0x40)
  elseif cp < 0x10000 then
    return string.char(0xE0 + math.floor(cp / 0x1000), 0x80 + math.floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
  end
  return string.char(0xF0 + math.floor(cp / 0x40000), 0x80 + math.floor(cp / 0x1000) % 0x40,
    0x80 + math.floor(cp / 0x40) % 0x40, 0x80 + cp % 0x40)
end

local function range_of(s)
  local first, last = s:match('^(%x+)%-(%x+)$')
  if not first then
    first = s
    last = s
  end
  return tonumber(first, 16), tonumber(last, 16)
end

-- One case: its failures, none when it passed.
local function verdict(failures)
  return #failures == 0 and 'ok' or 'FAIL', failures
end

local function expect(failures, what, got, want)
  if got ~= want then
    failures[#failures + 1] = ('%s: got %s, expected %s'):format(what, literal(got), literal(want))
  end
end

report.run('replay.lua', function(case)
  local visible = read('visible_text.json')
  for _, c in ipairs(visible.cases) do
    local failures = {}
    expect(failures, 'one line', text.visible(c['in'], false), c.one_line)
    expect(failures, 'lines', text.visible(c['in'], true), c.lines or c.one_line)
    case('visible_text: ' .. c.about, verdict(failures))
  end
  -- Every code point of the table shown as a code; its neighbours outside it as they are.
  local failures = {}
  local ranges = {}
  for _, r in ipairs(visible.invisible) do
    local first, last = range_of(r)
    ranges[#ranges + 1] = { first, last }
    for cp = first, last do
      local want = ('<U+%04X>'):format(cp)
      if text.visible(encoded(cp)) ~= want then
        failures[#failures + 1] = 'not shown as a code: ' .. want
      end
    end
    for _, cp in ipairs({ first - 1, last + 1 }) do
      if cp > 0x9F and not text.is_invisible(cp) and text.visible(encoded(cp)) ~= encoded(cp) then
        failures[#failures + 1] = ('shown changed: <U+%04X>'):format(cp)
      end
    end
  end
  if not vim.deep_equal(ranges, text.INVISIBLE) then
    failures[#failures + 1] = 'the table differs from the vectors\' table'
  end
  case('visible_text: the invisible characters\' table', verdict(failures))

  for _, c in ipairs(read('preview_text.json').cases) do
    local fails = {}
    if text.looks_like_html(c.preview) ~= c.html then
      fails[#fails + 1] = ('looks_like_html(%s) is %s'):format(literal(c.preview), tostring(not c.html))
    end
    if c.text then
      expect(fails, 'preview_text(' .. literal(c.preview) .. ')', text.preview_text(c.preview), c.text)
    end
    case('preview_text: ' .. c.about, verdict(fails))
  end

  for _, c in ipairs(read('command_line.json').cases) do
    local fails = {}
    local argv, why = askhost.split_args(c.line)
    if c.error then
      if argv then
        fails[#fails + 1] = 'split, expected the error ' .. c.error .. ': ' .. vim.inspect(argv)
      else
        expect(fails, 'the error', why, c.error)
      end
    elseif not argv then
      fails[#fails + 1] = 'refused: ' .. tostring(why)
    elseif #argv ~= #c.argv then
      fails[#fails + 1] = ('%d words, expected %d: %s'):format(#argv, #c.argv, vim.inspect(argv))
    else
      for i, want in ipairs(c.argv) do
        expect(fails, 'word ' .. i, argv[i], want)
      end
    end
    case('command_line: ' .. c.about, verdict(fails))
  end

  for _, c in ipairs(read('utf8_repair.json').cases) do
    local fails = {}
    local bytes = c.bytes:gsub('(%x%x) ?', function(h)
      return string.char(tonumber(h, 16))
    end)
    expect(fails, 'visible(' .. c.bytes .. ')', text.visible(bytes, true), c.text)
    case('utf8_repair: ' .. c.about, verdict(fails))
  end
end)
