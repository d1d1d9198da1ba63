-- Entry point: nvim --headless ... -c 'luafile tests/neovim/run.lua' with ASKHOST_NVIM_CASE set.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h')
package.path = here .. '/?.lua;' .. package.path
vim.o.showmode = false -- headless nvim prints mode messages on stdout
local H = require('harness')
dofile(here .. '/cases.lua')
local name = os.getenv('ASKHOST_NVIM_CASE')
if name == nil or name == '' or name == '--list' then
  io.stderr:write(table.concat(H.names(), '\n') .. '\n')
  vim.cmd('cquit ' .. (name == '--list' and 0 or 2))
else
  H.run(name, tonumber(os.getenv('ASKHOST_NVIM_TIMEOUT_MS') or '') or 30000)
end
