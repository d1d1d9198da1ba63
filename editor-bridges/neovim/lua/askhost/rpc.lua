-- JSON-RPC 2.0 over a child's stdio with LSP base framing (Content-Length), both directions.
-- Works on Neovim 0.7+: only vim.loop (vim.uv), vim.json and vim.schedule.
local uv = vim.uv or vim.loop

local M = {}

-- Error codes this client sends: a copy of the normative host/transport/rpc_errors.hpp.
M.codes = {
  parse_error = -32700,
  invalid_request = -32600,
  method_not_found = -32601,
  internal_error = -32603,
  request_cancelled = -32800,
}

-- Frame decoder: feed() any chunk, get back the complete message bodies it finished (in order).
-- A frame whose header has no usable Content-Length comes back as { error = "..." } and is skipped.
---@class askhost.Frame a decoded frame: its body, or why it was skipped
---@field body? string
---@field error? string

---@class askhost.Decoder
---@field feed fun(chunk: string|nil): askhost.Frame[]
---@field pending_bytes fun(): integer

---@return askhost.Decoder
function M.new_decoder()
  local chunks, buffered = {}, ''
  local decoder = {}

  ---@param chunk string|nil
  ---@return askhost.Frame[]
  function decoder.feed(chunk)
    local out = {}
    if chunk and chunk ~= '' then
      chunks[#chunks + 1] = chunk
    end
    if #chunks > 0 then
      buffered = buffered .. table.concat(chunks)
      chunks = {}
    end
    while true do
      local header_end = buffered:find('\r\n\r\n', 1, true)
      if not header_end then
        break
      end
      local length
      for line in buffered:sub(1, header_end - 1):gmatch('[^\r\n]+') do
        local name, value = line:match('^%s*([^:]-)%s*:%s*(.-)%s*$')
        if name and name:lower() == 'content-length' then
          length = tonumber(value)
        end
      end
      if not length or length < 0 or length % 1 ~= 0 then
        out[#out + 1] = { error = 'frame without a valid Content-Length header' }
        buffered = buffered:sub(header_end + 4)
      else
        local body_end = header_end + 3 + length
        if #buffered < body_end then
          break
        end
        out[#out + 1] = { body = buffered:sub(header_end + 4, body_end) }
        buffered = buffered:sub(body_end + 1)
      end
    end
    return out
  end

  function decoder.pending_bytes()
    return #buffered
  end

  return decoder
end

---@param message table
---@return string
function M.encode_frame(message)
  local body = vim.json.encode(message)
  return 'Content-Length: ' .. #body .. '\r\n\r\n' .. body
end

-- JSON null comes back as vim.NIL; callers see nil instead.
---@generic T
---@param value T|userdata
---@return T|nil
function M.denull(value)
  if value == vim.NIL then
    return nil
  end
  return value
end

---@class askhost.RpcError
---@field code integer
---@field message string
---@field data? any

---@alias askhost.Reply fun(result: any, err?: askhost.RpcError)

---@class askhost.RpcHandlers
---@field on_request? fun(method: string, params: any, reply: askhost.Reply, id: integer|string)
---@field on_notification? fun(method: string, params: any)
---@field on_stderr? fun(text: string)
---@field on_exit? fun(code: integer, signal: integer)

---@class askhost.RpcClient a JSON-RPC peer on a child process's stdio
---@field handlers askhost.RpcHandlers
---@field next_id integer
---@field callbacks table<integer, fun(err: askhost.RpcError|nil, result: any)>
---@field decoder askhost.Decoder
---@field closed boolean the process ended and its output was read
---@field exit_code? integer
---@field exit_signal? integer
---@field stdin userdata uv_pipe_t
---@field stdout userdata uv_pipe_t
---@field stderr userdata uv_pipe_t
---@field handle userdata uv_process_t
---@field pid integer
---@field stdout_done? boolean
---@field finished? boolean
local Client = {}
Client.__index = Client

-- Start `cmd` with `args` and speak JSON-RPC on its stdin/stdout.
-- handlers (all optional, all called on the main loop, never in a fast event):
--   on_request(method, params, reply, id)   reply(result) or reply(nil, {code=, message=}); may be
--                                           called later; id is the request's JSON-RPC id
--   on_notification(method, params)
--   on_stderr(text)
--   on_exit(code, signal)
-- opts: cwd, env (list of "K=V" strings, replaces the environment as uv.spawn does).
-- Returns the client, or nil and an error message.
---@param cmd string
---@param args? string[]
---@param handlers? askhost.RpcHandlers
---@param opts? { cwd?: string, env?: string[] }
---@return askhost.RpcClient|nil
---@return string|nil err
function M.start(cmd, args, handlers, opts)
  handlers = handlers or {}
  opts = opts or {}
  local self = setmetatable({
    handlers = handlers,
    next_id = 1,
    callbacks = {},
    decoder = M.new_decoder(),
    closed = false,
    exit_code = nil,
    exit_signal = nil,
  }, Client)

  self.stdin = uv.new_pipe(false)
  self.stdout = uv.new_pipe(false)
  self.stderr = uv.new_pipe(false)

  local handle, pid_or_err = uv.spawn(cmd, {
    args = args or {},
    stdio = { self.stdin, self.stdout, self.stderr },
    cwd = opts.cwd,
    env = opts.env,
    detached = false,
  }, function(code, signal)
    self:_on_exit(code, signal)
  end)
  if not handle then
    for _, pipe in ipairs({ self.stdin, self.stdout, self.stderr }) do
      if not pipe:is_closing() then
        pipe:close()
      end
    end
    return nil, 'cannot run ' .. tostring(cmd) .. ': ' .. tostring(pid_or_err)
  end
  self.handle = handle
  self.pid = pid_or_err

  self.stdout:read_start(function(err, data)
    if err or not data then
      self.stdout_done = true
      self:_maybe_finish()
      return
    end
    for _, frame in ipairs(self.decoder.feed(data)) do
      vim.schedule(function()
        self:_dispatch(frame)
      end)
    end
  end)
  self.stderr:read_start(function(err, data)
    if err or not data then
      return
    end
    if handlers.on_stderr then
      vim.schedule(function()
        handlers.on_stderr(data)
      end)
    end
  end)
  return self
end

---@param message table
---@return boolean written
function Client:_write(message)
  if self.closed or self.stdin:is_closing() then
    return false
  end
  local ok = pcall(self.stdin.write, self.stdin, M.encode_frame(message))
  return ok
end

-- Send a request; callback(err, result) runs once: with the result, the peer's error, or a local
-- error ({code=-32603, message=...}) when the process ends first. Returns the request id.
---@param method string
---@param params? table
---@param callback? fun(err: askhost.RpcError|nil, result: any)
---@return integer|nil id
function Client:request(method, params, callback)
  local id = self.next_id
  self.next_id = id + 1
  if self.closed then
    if callback then
      vim.schedule(function()
        callback({ code = M.codes.internal_error, message = 'askhost is not running' }, nil)
      end)
    end
    return nil
  end
  self.callbacks[id] = callback or function() end
  self:_write({ jsonrpc = '2.0', id = id, method = method, params = params or vim.empty_dict() })
  return id
end

-- Like request(), but waits (at most timeout_ms) and returns err, result.
---@param method string
---@param params? table
---@param timeout_ms? integer default 5000
---@return askhost.RpcError|nil err
---@return any result
function Client:request_sync(method, params, timeout_ms)
  local done, err, result = false, nil, nil
  self:request(method, params, function(e, r)
    done, err, result = true, e, r
  end)
  if not vim.wait(timeout_ms or 5000, function()
    return done
  end, 10) then
    return { code = M.codes.internal_error, message = method .. ': no reply within ' .. (timeout_ms or 5000) .. ' ms' }, nil
  end
  return err, result
end

---@param method string
---@param params? table
---@return boolean written
function Client:notify(method, params)
  return self:_write({ jsonrpc = '2.0', method = method, params = params or vim.empty_dict() })
end

---@return boolean
function Client:is_closed()
  return self.closed
end

-- Stop reading and writing, and end the process (SIGTERM) if it still runs.
function Client:terminate()
  if self.handle and not self.handle:is_closing() and not self.exit_code then
    pcall(self.handle.kill, self.handle, 'sigterm')
  end
  self:_close_pipes()
end

-- Close our end of stdin (the peer sees end of input).
function Client:close_stdin()
  if not self.stdin:is_closing() then
    self.stdin:close()
  end
end

function Client:_close_pipes()
  for _, pipe in ipairs({ self.stdin, self.stdout, self.stderr }) do
    if not pipe:is_closing() then
      pipe:read_stop()
      pipe:close()
    end
  end
end

---@param code integer
---@param signal integer
function Client:_on_exit(code, signal)
  self.exit_code, self.exit_signal = code, signal
  self:_maybe_finish()
  if not self.stdout_done then
    -- Something else may hold the pipe open: do not wait for its end forever.
    local timer = uv.new_timer()
    timer:start(500, 0, function()
      timer:close()
      self.stdout_done = true
      self:_maybe_finish()
    end)
  end
end

-- The process has exited and its output is read: fail what is still waiting, then tell the owner.
function Client:_maybe_finish()
  if self.finished or not self.exit_code or not self.stdout_done then
    return
  end
  self.finished = true
  local code, signal = self.exit_code, self.exit_signal
  vim.schedule(function()
    self.closed = true
    self:_close_pipes()
    if self.handle and not self.handle:is_closing() then
      self.handle:close()
    end
    local callbacks = self.callbacks
    self.callbacks = {}
    for _, cb in pairs(callbacks) do
      pcall(cb, { code = M.codes.internal_error, message = 'askhost exited' }, nil)
    end
    if self.handlers.on_exit then
      self.handlers.on_exit(code, signal)
    end
  end)
end

---@param id integer|string
---@param result any
---@param err? askhost.RpcError
function Client:_reply(id, result, err)
  if err then
    self:_write({ jsonrpc = '2.0', id = id, error = err })
  else
    if result == nil then
      result = vim.NIL
    end
    self:_write({ jsonrpc = '2.0', id = id, result = result })
  end
end

---@param frame askhost.Frame
function Client:_dispatch(frame)
  if frame.error then
    if self.handlers.on_stderr then
      self.handlers.on_stderr('askhost.nvim: ' .. frame.error .. '\n')
    end
    return
  end
  local ok, message = pcall(vim.json.decode, frame.body)
  if not ok or type(message) ~= 'table' then
    self:_write({ jsonrpc = '2.0', id = vim.NIL, error = { code = M.codes.parse_error, message = 'invalid JSON' } })
    return
  end
  local id, method = M.denull(message.id), M.denull(message.method)
  if type(method) == 'string' then
    local params = M.denull(message.params)
    if id ~= nil then
      local replied = false
      local function reply(result, err)
        if replied then
          return
        end
        replied = true
        self:_reply(id, result, err)
      end
      local handler = self.handlers.on_request
      if not handler then
        reply(nil, { code = M.codes.method_not_found, message = 'method not found: ' .. method })
        return
      end
      local hok, herr = pcall(handler, method, params, reply, id)
      if not hok then
        reply(nil, { code = M.codes.internal_error, message = tostring(herr) })
      end
    elseif self.handlers.on_notification then
      local hok, herr = pcall(self.handlers.on_notification, method, params)
      if not hok and self.handlers.on_stderr then
        self.handlers.on_stderr('askhost.nvim: ' .. method .. ': ' .. tostring(herr) .. '\n')
      end
    end
    return
  end
  -- A response to one of our requests.
  local cb = id ~= nil and self.callbacks[id]
  if not cb then
    return
  end
  self.callbacks[id] = nil
  local err = M.denull(message.error)
  if err ~= nil then
    cb(err, nil)
  else
    cb(nil, M.denull(message.result))
  end
end

return M
