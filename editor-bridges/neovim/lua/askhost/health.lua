-- :checkhealth askhost: the binary is found and answers --version, and the protocol handshake works.
local M = {}

-- vim.health (0.8+: report_*; 0.9+: start/ok/...) or the 0.7 `health` module.
---@class askhost.Reporter the health functions of whichever API this Neovim has
---@field start fun(name: string)
---@field ok fun(msg: string)
---@field info fun(msg: string)
---@field warn fun(msg: string, advice?: string|string[])
---@field error fun(msg: string, advice?: string|string[])

---@return askhost.Reporter
local function reporter()
  local h = vim.health
  if not h or not (h.start or h.report_start) then
    local ok, legacy = pcall(require, 'health')
    h = ok and legacy or {}
  end
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    info = h.info or h.report_info,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
  }
end

-- Spawn `binary --stdio`, initialize, shutdown, exit. Returns serverInfo or nil, error.
---@param binary string
---@param timeout_ms? integer per request, default 5000
---@return table|nil server_info
---@return string|nil err
function M.handshake(binary, timeout_ms)
  local rpc = require('askhost.rpc')
  local exited = false
  local client, err = rpc.start(binary, { '--stdio' }, {
    on_exit = function()
      exited = true
    end,
  })
  if not client then
    return nil, err
  end
  local init_err, result = client:request_sync('initialize', {
    processId = vim.fn.getpid(),
    clientInfo = { name = 'askhost.nvim-health', version = require('askhost').version },
    capabilities = { ask = false },
  }, timeout_ms)
  if init_err then
    client:terminate()
    return nil, 'initialize: ' .. tostring(init_err.message)
  end
  client:notify('initialized')
  local shut_err = client:request_sync('shutdown', nil, timeout_ms)
  client:notify('exit')
  client:close_stdin()
  vim.wait(timeout_ms or 5000, function()
    return exited
  end, 10)
  if not exited then
    client:terminate()
    return nil, 'askhost did not exit after shutdown/exit'
  end
  if shut_err then
    return nil, 'shutdown: ' .. tostring(shut_err.message)
  end
  if client.exit_code ~= 0 then
    return nil, 'askhost exited with ' .. tostring(client.exit_code) .. ' after shutdown (expected 0)'
  end
  return rpc.denull(result and result.serverInfo) or {}, nil
end

---@param t table
---@param k string
---@return any
local function field(t, k)
  local v = t[k]
  if v == vim.NIL then
    return nil
  end
  return v
end

-- The :checkhealth askhost report.
function M.check()
  local r = reporter()
  r.start('askhost')
  if vim.fn.has('nvim-0.7') == 1 then
    r.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch))
  else
    r.error('Neovim 0.7 or newer is needed')
  end

  local askhost = require('askhost')
  local binary, why = askhost.binary()
  if not binary then
    r.error(why, { "install askhost on PATH, or require('askhost').setup({ binary = '/path/to/askhost' })" })
    return
  end
  local version = vim.fn.system({ binary, '--version' })
  if vim.v.shell_error ~= 0 then
    r.error(('binary found: %s, but `--version` failed (exit %d): %s'):format(binary, vim.v.shell_error, vim.trim(version)))
    return
  end
  r.ok(('binary found: %s (%s)'):format(binary, vim.trim(version)))

  local info, err = M.handshake(binary, 5000)
  if not info then
    r.error('protocol handshake failed: ' .. tostring(err))
    return
  end
  r.ok(('protocol handshake works: initialize -> %s %s, shutdown -> exit 0'):format(
    tostring(field(info, 'name')), tostring(field(info, 'version'))))

  local state = askhost.info()
  if state.running then
    r.info(('askhost is running (pid %s)%s'):format(
      tostring(state.pid), state.agent and (', agent pid ' .. tostring(state.agent.pid)) or ''))
    r.ok(('standing host for %s: agents started there in their own terminals ask here (socket %s)'):format(
      tostring(state.workspace), tostring(state.socket)))
  else
    r.info("askhost is not running; require('askhost').setup() starts it as the standing host, :AskHost start {agent} too")
  end
end

return M
