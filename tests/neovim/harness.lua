-- A small test harness for headless Neovim (no plenary): a case is a function run in a coroutine,
-- so it can wait for askhost and for typed keys without blocking the event loop. The run ends with
-- `cquit 0` (pass) or `cquit 1` (fail, the reason on stderr); test_neovim.py wraps it in a timeout.
local H = {}

local uv = vim.uv or vim.loop

H.env = {
  askhost = os.getenv('ASKHOST'),
  workdir = os.getenv('ASKHOST_NVIM_WORKDIR') or vim.fn.tempname(),
  agent = os.getenv('SCRIPTED_AGENT'),
}
vim.fn.mkdir(H.env.workdir, 'p')

local cases, order = {}, {}

function H.case(name, fn)
  cases[name] = fn
  order[#order + 1] = name
end

function H.names()
  return order
end

local function say(text)
  io.stderr:write(text .. '\n')
end

local finished = false
local function finish(code, message)
  if finished then
    return
  end
  finished = true
  if message then
    say('\n' .. message)
  end
  local ok, askhost = pcall(require, 'askhost')
  if ok then
    pcall(askhost.shutdown, 1000)
  end
  vim.cmd('cquit ' .. code)
end

-- ---------------------------------------------------------------- assertions

local function show(v)
  return vim.inspect(v)
end

function H.fail(message)
  -- Name the line in the case that failed.
  for line in debug.traceback('', 2):gmatch('[^\n]+') do
    local where = line:match('(cases%.lua:%d+)')
    if where then
      message = where .. ': ' .. message
      break
    end
  end
  error({ askhost_test_failure = message }, 2)
end

function H.eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    H.fail(('%s:\n  expected %s\n  actual   %s'):format(what or 'value', show(expected), show(actual)))
  end
end

function H.ok(cond, what)
  if not cond then
    H.fail(what or 'condition failed')
  end
end

function H.contains(haystack, needle, what)
  if type(haystack) == 'table' then
    haystack = table.concat(haystack, '\n')
  end
  if not haystack:find(needle, 1, true) then
    H.fail(('%s: %s not found in:\n%s'):format(what or 'text', show(needle), haystack))
  end
end

-- ---------------------------------------------------------------- waiting

local co

-- Let the event loop run for ms milliseconds (keys typed with H.keys are processed meanwhile).
function H.sleep(ms)
  local me = coroutine.running()
  vim.defer_fn(function()
    local ok, err = coroutine.resume(me)
    if not ok then
      H._report(err, me)
    end
  end, ms)
  coroutine.yield()
end

function H.wait_for(pred, what, timeout_ms)
  local deadline = uv.now() + (timeout_ms or 10000)
  while true do
    local value = pred()
    if value then
      return value
    end
    if uv.now() > deadline then
      H.fail('timed out waiting for ' .. (what or 'a condition'))
    end
    H.sleep(20)
  end
end

-- Type keys as a person would (they go through mappings); let Neovim process them.
function H.keys(keys)
  vim.api.nvim_input(keys)
  H.sleep(60)
end

-- ---------------------------------------------------------------- the scripted agent

local script_count = 0

function H.file(name)
  return H.env.workdir .. '/' .. name
end

-- argv of the scripted agent running `steps` (see tests/agents/scripted-agent).
function H.agent(steps, record)
  script_count = script_count + 1
  local script = H.file('script' .. script_count .. '.json')
  local f = assert(io.open(script, 'w'))
  f:write(vim.json.encode(steps))
  f:close()
  return { H.env.agent, script, H.file(record or 'record.jsonl') }
end

function H.ask(request_id, questions)
  return { send = { type = 'ask_user_request', requestId = request_id, questions = questions } }
end

-- What the agent received, decoded ("EOF" stays a string). Only whole lines: the agent may be
-- writing a long one as this reads, and its part before the newline is left for the next read.
function H.records(record)
  local f = io.open(H.file(record or 'record.jsonl'))
  if not f then
    return {}
  end
  local text = f:read('*a')
  f:close()
  local out = {}
  for line in text:gmatch('([^\n]*)\n') do
    if line == 'EOF' then
      out[#out + 1] = line
    elseif line ~= '' then
      out[#out + 1] = vim.json.decode(line)
    end
  end
  return out
end

-- Wait until the agent recorded n lines, and return them.
function H.wait_records(n, record)
  return H.wait_for(function()
    local r = H.records(record)
    return #r >= n and r
  end, n .. ' record(s) from the agent')
end

function H.setup(opts)
  local askhost = require('askhost')
  -- The cases that are not about them start no standing host and type into a dialog at once.
  askhost.setup(vim.tbl_extend('force', { binary = H.env.askhost, notify = false, standing = false, key_guard_ms = 0 },
    opts or {}))
  return askhost
end

-- An agent started outside Neovim, in its own process: `askhost mcp` run in `cwd` (no
-- ASKHOST_SOCKET), asking `questions` with ask_user_question. :result() waits for the tool result.
function H.mcp_ask(cwd, questions, client)
  vim.fn.mkdir(cwd, 'p')
  local lines, partial = {}, ''
  local job = vim.fn.jobstart({ H.env.askhost, 'mcp' }, {
    cwd = cwd,
    env = { ASKHOST_SOCKET = '' },
    on_stdout = function(_, data)
      data[1] = partial .. data[1]
      partial = data[#data]
      for i = 1, #data - 1 do
        if data[i] ~= '' then
          lines[#lines + 1] = vim.json.decode(data[i])
        end
      end
    end,
  })
  H.ok(job > 0, 'askhost mcp started')
  local function send(msg)
    vim.fn.chansend(job, vim.json.encode(msg) .. '\n')
  end
  send({ jsonrpc = '2.0', id = 1, method = 'initialize', params = { protocolVersion = '2025-06-18',
    capabilities = vim.empty_dict(), clientInfo = { name = client or 'codex-mcp-client', version = '1' } } })
  send({ jsonrpc = '2.0', method = 'notifications/initialized' })
  send({ jsonrpc = '2.0', id = 2, method = 'tools/call', params = { name = 'ask_user_question',
    arguments = { questions = questions } } })
  return {
    job = job,
    result = function()
      return H.wait_for(function()
        for _, m in ipairs(lines) do
          if m.id == 2 then
            return m.result
          end
        end
      end, 'the tool result of askhost mcp')
    end,
    stop = function()
      vim.fn.jobstop(job)
    end,
  }
end

-- Start askhost with the scripted agent running `steps`; returns the askhost module.
function H.start(steps, opts)
  local askhost = H.setup(opts)
  local started, err
  askhost.start(H.agent(steps), {
    on_started = function(e, pid)
      started, err = true, e
      H.pid = pid
    end,
  })
  H.wait_for(function()
    return started
  end, 'agent/start')
  H.ok(not err, 'agent/start failed: ' .. tostring(err))
  return askhost
end

function H.dialog()
  return require('askhost').current_dialog()
end

function H.wait_dialog()
  return H.wait_for(H.dialog, 'the dialog to open')
end

-- The dialog's text as one string (what the float shows, border excluded).
function H.dialog_text()
  local d = H.dialog()
  if not d or not vim.api.nvim_buf_is_valid(d.buf) then
    return ''
  end
  return table.concat(vim.api.nvim_buf_get_lines(d.buf, 0, -1, false), '\n')
end

function H.wait_text(needle, what)
  return H.wait_for(function()
    return H.dialog_text():find(needle, 1, true)
  end, what or ('the dialog to show ' .. show(needle)))
end

-- The agent's one ask_user_response.
function H.response(request_id)
  local records = H.wait_records(1)
  local r = records[1]
  H.ok(type(r) == 'table', 'agent received ' .. show(records))
  H.eq(r.type, 'ask_user_response', 'type')
  if request_id then
    H.eq(r.requestId, request_id, 'requestId')
  end
  return r
end

-- ---------------------------------------------------------------- running

function H._report(err, thread)
  if type(err) == 'table' and err.askhost_test_failure then
    finish(1, 'FAIL: ' .. err.askhost_test_failure)
  else
    finish(1, 'ERROR: ' .. tostring(err) .. '\n' .. debug.traceback(thread or co))
  end
end

function H.run(name, timeout_ms)
  local fn = cases[name]
  if not fn then
    finish(2, 'no such case: ' .. tostring(name) .. ' (cases: ' .. table.concat(order, ', ') .. ')')
    return
  end
  vim.defer_fn(function()
    finish(1, 'FAIL: the case did not finish within ' .. (timeout_ms or 30000) .. ' ms')
  end, timeout_ms or 30000)
  co = coroutine.create(function()
    fn()
    finish(0, 'ASKHOST-NVIM-TEST: ok')
  end)
  local ok, err = coroutine.resume(co)
  if not ok then
    H._report(err, co)
  end
end

return H
