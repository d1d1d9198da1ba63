-- askhost.nvim: run an LLM agent under askhost and answer its questions in a floating window.
-- One askhost process per Neovim (`askhost --stdio`), started on the first :AskHost start.
local rpc = require('askhost.rpc')
local model = require('askhost.model')
local dialog = require('askhost.dialog')
-- Agent text in messages, on one line as every face shows it (docs/dialog.md).
local visible = require('askhost.text').visible

local M = {}

M.version = '0.1.0'

---@class askhost.Options setup()'s options; every field optional there
---@field binary? string path to askhost
---@field args string[] extra arguments before --stdio
---@field log_max_lines integer
---@field notify boolean
---@field standing boolean
---@field key_guard_ms integer

---@type askhost.Options
local defaults = {
  binary = nil, -- path to askhost; default: `askhost` on PATH, else <repo>/build/askhost
  args = {}, -- extra arguments for askhost before --stdio (e.g. {'--profile', 'strict'})
  log_max_lines = 10000,
  notify = true, -- vim.notify when the agent exits or a question is withdrawn
  -- Start askhost as this Neovim's standing host for its working directory (the workspace), so
  -- that agents started in their own terminals there (Codex, Gemini CLI, Claude Code's hook) ask here.
  standing = true,
  -- Keys pressed this soon after a question opens are dropped, not taken as a pick or a cancel.
  key_guard_ms = 400,
}

-- Everything the plugin remembers lives here (no global variables).
---@class askhost.Entry one ask/show request, queued until answered (the ask)
---@field rpc_id integer|string the request's JSON-RPC id
---@field ask_id? string the host's ask id (params.id)
---@field questions askhost.Question[]
---@field agent string
---@field who string how the dialog names the asker, as the host says it (ask/show's who)
---@field reply askhost.Reply
---@field dialog? askhost.Dialog

---@class askhost.State
---@field config askhost.Options
---@field client? askhost.RpcClient
---@field ready boolean
---@field waiting_ready fun(err: string|nil)[]
---@field pending table[] ask/state's asks, as sent
---@field queue askhost.Entry[]
---@field log_lines string[]
---@field log_buf? integer
---@field agent? { pid: integer, argv: string[] }
---@field last_exit? { exitCode: integer|nil, signal: integer|nil }
---@field workspace? string
---@field standing_warned boolean
---@field insert_wait boolean
---@field stopping? boolean shutdown() is ending askhost: its exit is no surprise
---@field server_info? table
---@field socket? string

---@type askhost.State
local state = {
  config = vim.deepcopy(defaults),
  client = nil, -- the rpc client while askhost runs
  ready = false, -- initialize answered
  waiting_ready = {}, -- functions to run once ready
  pending = {}, -- ask/state's pending list
  queue = {}, -- ask/show requests not yet answered: {rpc_id, ask_id, questions, agent, reply, dialog}
  log_lines = { '' }, -- agent output; the last entry is the line still being written
  log_buf = nil,
  agent = nil, -- {pid=, argv=} while an agent runs
  last_exit = nil,
  workspace = nil, -- the folder given to askhost as the workspace
  standing_warned = false,
  insert_wait = false, -- a question waits for the person to leave insert mode
}

-- ---------------------------------------------------------------- configuration

---@param opts? askhost.Options
---@return table M
function M.setup(opts)
  state.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  dialog.define_highlights()
  local group = vim.api.nvim_create_augroup('askhost_workspace', { clear = true })
  vim.api.nvim_create_autocmd('DirChanged', {
    group = group,
    pattern = 'global',
    callback = function()
      M.workspace_changed(vim.fn.getcwd())
    end,
  })
  if state.config.standing then
    if vim.v.vim_did_enter == 1 then
      vim.schedule(M.start_standing)
    else
      vim.api.nvim_create_autocmd('VimEnter', { group = group, once = true, callback = M.start_standing })
    end
  end
  return M
end

-- The plugin's own directory (editor-bridges/neovim), from this file's path.
---@return string
function M.plugin_dir()
  local source = debug.getinfo(1, 'S').source:gsub('^@', '')
  return vim.fn.fnamemodify(source, ':p:h:h:h')
end

-- The askhost binary to run: opts.binary, else `askhost` on PATH, else the repository's
-- build/askhost next to this plugin. Returns the path, or nil and why not.
---@return string|nil path
---@return string|nil why_not
function M.binary()
  local configured = state.config.binary
  if configured and configured ~= '' then
    local path = vim.fn.expand(configured)
    if vim.fn.executable(path) == 1 then
      return vim.fn.exepath(path) ~= '' and vim.fn.exepath(path) or path
    end
    return nil, 'binary ' .. configured .. ' is not executable'
  end
  if vim.fn.executable('askhost') == 1 then
    return vim.fn.exepath('askhost')
  end
  local built = vim.fn.fnamemodify(M.plugin_dir() .. '/../../build/askhost', ':p')
  if vim.fn.executable(built) == 1 then
    return built
  end
  return nil, 'askhost not found: not on PATH and not at ' .. built .. " (set require('askhost').setup({binary = ...}))"
end

---@param msg string
---@param level? integer vim.log.levels
local function notify(msg, level)
  if state.config.notify then
    vim.notify('askhost: ' .. msg, level or vim.log.levels.INFO)
  end
end

-- ---------------------------------------------------------------- the log buffer

---@param text string|nil
local function log_append(text)
  if text == nil or text == '' then
    return
  end
  local pieces = vim.split(text, '\n', { plain = true })
  local lines = state.log_lines
  local first_changed = #lines
  lines[#lines] = lines[#lines] .. pieces[1]
  for i = 2, #pieces do
    lines[#lines + 1] = pieces[i]
  end
  local dropped = 0
  if #lines > state.config.log_max_lines then
    dropped = #lines - state.config.log_max_lines
    for _ = 1, dropped do
      table.remove(lines, 1)
    end
  end
  local buf = state.log_buf
  if buf and vim.api.nvim_buf_is_valid(buf) then
    vim.bo[buf].modifiable = true
    if dropped > 0 then
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
    else
      vim.api.nvim_buf_set_lines(buf, first_changed - 1, -1, false, vim.list_slice(lines, first_changed))
    end
    vim.bo[buf].modifiable = false
    -- Windows that showed the end keep following it.
    for _, win in ipairs(vim.fn.win_findbuf(buf)) do
      local row = vim.api.nvim_win_get_cursor(win)[1]
      if row >= first_changed - 1 then
        vim.api.nvim_win_set_cursor(win, { #lines, 0 })
      end
    end
  end
end

-- The agent's output so far, as lines.
---@return string[]
function M.log_lines()
  local lines = vim.deepcopy(state.log_lines)
  if lines[#lines] == '' then
    lines[#lines] = nil
  end
  return lines
end

-- Open the log buffer (agent/output appended live) in a split.
---@return integer buf
function M.open_log()
  local buf = state.log_buf
  if not (buf and vim.api.nvim_buf_is_valid(buf)) then
    buf = vim.api.nvim_create_buf(false, true)
    state.log_buf = buf
    vim.api.nvim_buf_set_name(buf, 'askhost://log')
    vim.bo[buf].bufhidden = 'hide'
    vim.bo[buf].filetype = 'askhostlog'
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, state.log_lines)
    vim.bo[buf].modifiable = false
  end
  local wins = vim.fn.win_findbuf(buf)
  if #wins > 0 then
    vim.api.nvim_set_current_win(wins[1])
  else
    vim.cmd('botright split')
    vim.api.nvim_win_set_buf(0, buf)
  end
  vim.api.nvim_win_set_cursor(0, { vim.api.nvim_buf_line_count(buf), 0 })
  return buf
end

-- ---------------------------------------------------------------- questions

local function show_next()
  local head = state.queue[1]
  if not head or (head.dialog and head.dialog:is_open()) then
    return
  end
  -- Not while the command line or the command-line window is in use: try again shortly.
  if vim.fn.mode() == 'c' or vim.fn.getcmdwintype() ~= '' then
    vim.defer_fn(show_next, 200)
    return
  end
  -- Not in the middle of typing: the question opens when the person leaves insert mode.
  local mode = vim.fn.mode()
  if mode:sub(1, 1) == 'i' or mode:sub(1, 1) == 'R' then
    if not state.insert_wait then
      state.insert_wait = true
      notify(visible(head.who) .. ' asks a question: leave insert mode to answer')
      vim.api.nvim_create_autocmd('InsertLeave', {
        once = true,
        callback = function()
          state.insert_wait = false
          vim.schedule(show_next)
        end,
      })
    end
    return
  end
  local entry = head
  local ok, err = pcall(function()
    entry.dialog = dialog.open(entry.questions, {
      agent = entry.who,
      key_guard_ms = state.config.key_guard_ms,
      title = 'askhost · ' .. entry.who,
      permission = #entry.questions == 1 and entry.permission or nil,
      on_done = function(outcome)
        for i, e in ipairs(state.queue) do
          if e == entry then
            table.remove(state.queue, i)
            break
          end
        end
        entry.reply(model.result(outcome))
        vim.schedule(show_next)
      end,
    })
  end)
  if not ok then
    entry.dialog = nil
    notify('cannot show the question now: ' .. tostring(err), vim.log.levels.WARN)
    vim.defer_fn(show_next, 500)
  end
end

---@param params? table
---@param reply askhost.Reply
---@param rpc_id integer|string
local function on_ask_show(params, reply, rpc_id)
  params = params or {}
  local entry = {
    rpc_id = rpc_id,
    ask_id = rpc.denull(params.id),
    questions = model.normalize_questions(params.questions),
    permission = model.normalize_permission(params.permission),
    agent = rpc.denull(params.agent) or '',
    reply = reply,
  }
  -- Who asks, as the host names it for every face ("codex · MCP"; core/text/who_asks.cpp).
  entry.who = rpc.denull(params.who) or (entry.agent ~= '' and entry.agent or 'agent')
  if #entry.questions == 0 then
    reply(nil, { code = -32602, message = 'params.questions: no questions' })
    return
  end
  table.insert(state.queue, entry)
  show_next()
end

---@param params? { id: integer|string|nil, askId: string|nil }
local function on_cancel(params)
  params = params or {}
  local id, ask_id = rpc.denull(params.id), rpc.denull(params.askId)
  for i, entry in ipairs(state.queue) do
    if (id ~= nil and entry.rpc_id == id) or (ask_id ~= nil and entry.ask_id == ask_id) then
      table.remove(state.queue, i)
      if entry.dialog then
        entry.dialog:close()
      end
      -- LSP's answer to a cancelled request; the host ignores replies after a withdrawal.
      entry.reply(nil, { code = rpc.codes.request_cancelled, message = 'withdrawn' })
      notify('question withdrawn: ' .. visible(entry.questions[1] and entry.questions[1].question or ''))
      break
    end
  end
  vim.schedule(show_next)
end

-- ---------------------------------------------------------------- the host process

local function reset_host()
  for _, entry in ipairs(state.queue) do
    if entry.dialog then
      entry.dialog:close()
    end
  end
  state.queue = {}
  state.pending = {}
  state.client = nil
  state.ready = false
  state.waiting_ready = {}
  state.agent = nil
end

---@type askhost.RpcHandlers
local handlers = {}

function handlers.on_request(method, params, reply, id)
  if method == 'ask/show' then
    -- $/cancelRequest names the request by this JSON-RPC id (and the ask by params.id).
    return on_ask_show(params, reply, id)
  end
  reply(nil, { code = rpc.codes.method_not_found, message = 'method not found: ' .. method })
end

function handlers.on_notification(method, params)
  params = params or {}
  if method == 'ask/state' then
    state.pending = rpc.denull(params.pending) or {}
    -- Status lines refresh; `autocmd User AskHostState` lets others react.
    pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'AskHostState', modeline = false })
    vim.cmd('redrawstatus')
  elseif method == '$/cancelRequest' then
    on_cancel(params)
  elseif method == 'ask/answerRefused' then
    -- askhost did not take our answer (docs/protocol.md); the question comes again.
    notify('askhost refused the answer: ' .. tostring(rpc.denull(params.message) or ''), vim.log.levels.WARN)
  elseif method == 'agent/output' then
    log_append(rpc.denull(params.text) or '')
  elseif method == 'agent/exit' then
    local code, signal = rpc.denull(params.exitCode), rpc.denull(params.signal)
    state.last_exit = { exitCode = code, signal = signal }
    state.agent = nil
    local what = signal and ('signal ' .. signal) or ('code ' .. tostring(code))
    log_append((state.log_lines[#state.log_lines] ~= '' and '\n' or '') .. '[askhost: agent exited with ' .. what .. ']\n')
    notify('agent exited with ' .. what)
  end
end

function handlers.on_stderr(text)
  log_append(text)
end

function handlers.on_exit(code, signal)
  local was_running = state.client ~= nil
  reset_host()
  if was_running and not state.stopping then
    notify(('askhost exited (code %s%s)'):format(code, signal ~= 0 and (', signal ' .. signal) or ''), vim.log.levels.WARN)
  end
  state.stopping = false
end

-- Start askhost (if it is not running) and call fn(err) once it answered initialize.
---@param fn fun(err: string|nil)
local function with_host(fn)
  if state.client and not state.client:is_closed() then
    if state.ready then
      fn(nil)
    else
      table.insert(state.waiting_ready, fn)
    end
    return
  end
  local binary, why = M.binary()
  if not binary then
    fn(why)
    return
  end
  local args = vim.list_extend(vim.deepcopy(state.config.args or {}), { '--stdio' })
  local client, err
  client, err = rpc.start(binary, args, {
    on_request = handlers.on_request,
    on_notification = handlers.on_notification,
    on_stderr = handlers.on_stderr,
    on_exit = function(code, signal)
      if state.client == client then -- not an earlier askhost that was replaced
        handlers.on_exit(code, signal)
      end
    end,
  })
  if not client then
    fn(err)
    return
  end
  state.client = client
  state.ready = false
  state.waiting_ready = { fn }
  state.workspace = vim.fn.getcwd()
  client:request('initialize', {
    processId = vim.fn.getpid(),
    clientInfo = { name = 'askhost.nvim', version = M.version },
    capabilities = { ask = { multiSelect = true, previews = true, notes = true } },
    workspaceFolders = { M.folder(state.workspace) },
  }, function(init_err, result)
    local waiting = state.waiting_ready
    state.waiting_ready = {}
    if init_err then
      for _, w in ipairs(waiting) do
        w('initialize failed: ' .. tostring(init_err.message))
      end
      return
    end
    state.server_info = result and rpc.denull(result.serverInfo)
    state.socket = result and rpc.denull(result.socket)
    state.ready = true
    client:notify('initialized', vim.empty_dict())
    for _, w in ipairs(waiting) do
      w(nil)
    end
  end)
end

-- ---------------------------------------------------------------- the workspace

-- A workspace folder as LSP writes it.
---@param path string
---@return { uri: string, name: string }
function M.folder(path)
  return { uri = vim.uri_from_fname(path), name = vim.fn.fnamemodify(path, ':t') }
end

-- Start the standing host for the working directory (setup() does, unless standing = false).
-- Agents started in their own terminals inside it find it (askhost mcp, askhost hook, attach).
function M.start_standing()
  with_host(function(err)
    if err and not state.standing_warned then
      state.standing_warned = true -- once: no error storm at every start
      notify('no standing host for this workspace: ' .. err, vim.log.levels.WARN)
    end
  end)
end

-- :cd to another folder: the host's workspace follows.
---@param dir string
function M.workspace_changed(dir)
  if not (state.client and state.ready) or dir == state.workspace then
    return
  end
  local old = state.workspace
  state.workspace = dir
  state.client:notify('workspace/didChangeWorkspaceFolders', {
    event = { added = { M.folder(dir) }, removed = old and { M.folder(old) } or {} },
  })
end

-- ---------------------------------------------------------------- commands

-- Start the agent: argv is a list (no shell). opts: cwd, env (table), adapter, on_started(err, pid).
---@param argv string|string[] a command line is split by split_args()
---@param opts? { cwd?: string, env?: table<string, string>, adapter?: string, on_started?: fun(err: string|nil, pid: integer|nil) }
function M.start(argv, opts)
  opts = opts or {}
  local done = opts.on_started or function(err, pid)
    if err then
      notify('cannot start the agent: ' .. err, vim.log.levels.ERROR)
    else
      notify('agent started (pid ' .. pid .. ')')
    end
  end
  if type(argv) == 'string' then
    local why
    argv, why = M.split_args(argv)
    if not argv then
      done(why)
      return
    end
  end
  if not argv or #argv == 0 then
    done('no agent command given')
    return
  end
  with_host(function(err)
    if err then
      done(err)
      return
    end
    local params = { command = argv, cwd = opts.cwd or vim.fn.getcwd() }
    if opts.env then
      params.env = opts.env
    end
    if opts.adapter then
      params.adapter = opts.adapter
    end
    state.client:request('agent/start', params, function(start_err, result)
      if start_err then
        done(start_err.message)
        return
      end
      state.agent = { pid = result and result.pid, argv = argv }
      done(nil, result and result.pid)
    end)
  end)
end

---@param text string
---@param callback? fun(err: string|nil)
function M.prompt(text, callback)
  callback = callback or function(err)
    if err then
      notify('prompt: ' .. err, vim.log.levels.ERROR)
    end
  end
  if not (state.client and state.ready) then
    callback('askhost is not running (:AskHost start {agent})')
    return
  end
  state.client:request('agent/prompt', { text = text }, function(err)
    callback(err and err.message or nil)
  end)
end

---@param callback? fun(err: string|nil, result: table)
function M.stop(callback)
  callback = callback or function(err, result)
    if err then
      notify('stop: ' .. err, vim.log.levels.WARN)
    else
      local code, signal = rpc.denull(result.exitCode), rpc.denull(result.signal)
      notify('agent stopped (' .. (signal and ('signal ' .. signal) or ('code ' .. tostring(code))) .. ')')
    end
  end
  if not (state.client and state.ready) then
    callback('askhost is not running')
    return
  end
  state.client:request('agent/stop', vim.empty_dict(), function(err, result)
    callback(err and err.message or nil, result or {})
  end)
end

-- Shut askhost down (shutdown, then exit), waiting at most timeout_ms.
---@param timeout_ms? integer default 2000
function M.shutdown(timeout_ms)
  local client = state.client
  if not client or client:is_closed() then
    return
  end
  state.stopping = true
  if state.ready then
    client:request_sync('shutdown', nil, timeout_ms or 2000)
    client:notify('exit')
  end
  client:close_stdin()
  vim.wait(timeout_ms or 2000, function()
    return client:is_closed()
  end, 10)
  if not client:is_closed() then
    client:terminate()
  end
  reset_host()
end

-- ---------------------------------------------------------------- what is waiting

-- Waiting asks as ask/state reported them.
---@return table[]
function M.pending()
  return vim.deepcopy(state.pending)
end

-- A short string for status lines: "" when nothing waits, else "? 1 question waiting"
-- (set statusline+=%{v:lua.require'askhost'.statusline()}).
---@return string
function M.statusline()
  return M.status()
end

---@return string
function M.status()
  local n = 0
  for _, ask in ipairs(state.pending) do
    n = n + #(rpc.denull(ask.questions) or {})
  end
  if n == 0 then
    return ''
  end
  return ('? %d question%s waiting'):format(n, n == 1 and '' or 's')
end

-- :AskHost pending: list what waits and bring the dialog back to the front.
function M.show_pending()
  if #state.pending == 0 then
    vim.api.nvim_echo({ { 'askhost: no questions waiting' } }, true, {})
    return
  end
  local chunks = {}
  for i, ask in ipairs(state.pending) do
    local agent = rpc.denull(ask.who) or rpc.denull(ask.agent) or 'agent'
    for _, q in ipairs(rpc.denull(ask.questions) or {}) do
      chunks[#chunks + 1] = { ('%d. [%s] %s\n'):format(i, visible(tostring(agent)), visible(tostring(rpc.denull(q.question) or ''))) }
    end
  end
  vim.api.nvim_echo(chunks, true, {})
  local head = state.queue[1]
  if head and head.dialog then
    head.dialog:show()
  else
    show_next()
  end
end

-- The dialog on screen, if any (for tests and integrations).
---@return askhost.Dialog|nil
function M.current_dialog()
  local head = state.queue[1]
  if head and head.dialog and head.dialog:is_open() then
    return head.dialog
  end
  return nil
end

---@return table
function M.info()
  return {
    running = state.client ~= nil and not state.client:is_closed(),
    ready = state.ready,
    pid = state.client and state.client.pid,
    server = state.server_info,
    socket = state.socket,
    workspace = state.workspace,
    agent = state.agent,
    last_exit = state.last_exit,
    binary = (M.binary()),
  }
end

-- A typed command line as argv, by the rule the host and the VS Code bridge keep too
-- (core/command_line.hpp, tests/text/command_line.json): space, tab, CR and LF separate words;
-- '...' is taken as it is; "..." too, but for a backslash before " \ $ or `, which it escapes;
-- elsewhere a backslash escapes the next character; nothing is expanded. nil and why for an
-- unterminated quote or a backslash at the end.
---@param line string
---@return string[]|nil argv
---@return string|nil why
function M.split_args(line)
  local out, word, in_word, i, n = {}, {}, false, 1, #line
  while i <= n do
    local ch = line:sub(i, i)
    if ch == ' ' or ch == '\t' or ch == '\r' or ch == '\n' then
      if in_word then
        out[#out + 1] = table.concat(word)
      end
      word, in_word = {}, false
    else
      in_word = true
      if ch == "'" then
        local close = line:find("'", i + 1, true)
        if not close then
          return nil, 'unterminated single quote'
        end
        word[#word + 1] = line:sub(i + 1, close - 1)
        i = close
      elseif ch == '"' then
        i = i + 1
        while true do
          if i > n then
            return nil, 'unterminated double quote'
          end
          local d = line:sub(i, i)
          if d == '"' then
            break
          end
          local after = line:sub(i + 1, i + 1)
          if d == '\\' and after ~= '' and after:find('["\\$`]') then
            i = i + 1
            d = after
          end
          word[#word + 1] = d
          i = i + 1
        end
      elseif ch == '\\' then
        if i == n then
          return nil, 'backslash at the end'
        end
        i = i + 1
        word[#word + 1] = line:sub(i, i)
      else
        word[#word + 1] = ch
      end
    end
    i = i + 1
  end
  if in_word then
    out[#out + 1] = table.concat(word)
  end
  return out
end

-- :AskHost {sub} {args}
-- ---------------------------------------------------------------- askhost web

-- The address of the `askhost web` that runs (`askhost web --url`: the page's URL with its token),
-- shown and put in the unnamed register, and in the clipboard register `+` when Neovim has a
-- clipboard. callback(url) or callback(nil, why) when there is none.
---@param callback? fun(url: string|nil, why: string|nil)
function M.web_url(callback)
  callback = callback or function() end
  local bin, why_not = M.binary()
  if not bin then
    vim.notify('askhost: ' .. why_not, vim.log.levels.ERROR)
    return callback(nil, why_not)
  end
  local out, err = {}, {}
  local job = vim.fn.jobstart({ bin, 'web', '--url' }, {
    stdout_buffered = true,
    stderr_buffered = true,
    on_stdout = function(_, data)
      out = data
    end,
    on_stderr = function(_, data)
      err = data
    end,
    on_exit = function(_, code)
      vim.schedule(function()
        local url = vim.trim(table.concat(out, '\n'))
        if code ~= 0 or url == '' then
          local why = vim.trim(table.concat(err, '\n'))
          if why == '' then
            why = 'askhost web --url exited with ' .. code
          end
          vim.notify(why .. ' (start it with `askhost web`)', vim.log.levels.ERROR)
          return callback(nil, why)
        end
        vim.fn.setreg('"', url)
        local where = 'the unnamed register'
        if vim.fn.has('clipboard') == 1 and pcall(vim.fn.setreg, '+', url) then
          where = 'the clipboard'
        end
        vim.notify('askhost web: ' .. url .. '\n(copied to ' .. where .. '; it carries the token: share it with no one)')
        callback(url)
      end)
    end,
  })
  if job <= 0 then
    local why = 'cannot run ' .. bin
    vim.notify('askhost: ' .. why, vim.log.levels.ERROR)
    callback(nil, why)
  end
end

M.subcommands = { 'start', 'prompt', 'stop', 'log', 'pending', 'web' }

---@param args? string what follows :AskHost
function M.command(args)
  local sub, rest = (args or ''):match('^%s*(%S*)%s*(.-)%s*$')
  if sub == 'start' then
    M.start(rest)
  elseif sub == 'prompt' then
    if rest == '' then
      notify('usage: :AskHost prompt {text}', vim.log.levels.ERROR)
      return
    end
    M.prompt(rest)
  elseif sub == 'stop' then
    M.stop()
  elseif sub == 'log' then
    M.open_log()
  elseif sub == 'pending' then
    M.show_pending()
  elseif sub == 'web' then
    M.web_url()
  else
    vim.notify('askhost: usage: :AskHost start {agent argv} | prompt {text} | stop | log | pending | web', vim.log.levels.ERROR)
  end
end

---@param arglead string
---@param cmdline string
---@return string[]
function M.complete(arglead, cmdline)
  local words = vim.split(cmdline, '%s+')
  if #words <= 2 then
    return vim.tbl_filter(function(s)
      return s:sub(1, #arglead) == arglead
    end, M.subcommands)
  end
  if words[2] == 'start' then
    return vim.fn.getcompletion(arglead, #words == 3 and 'shellcmd' or 'file')
  end
  return {}
end

return M
