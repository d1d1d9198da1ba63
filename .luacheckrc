-- luacheck configuration (Debian's lua-check) for the Neovim bridge and its Lua tests.
-- From the repository root: luacheck editor-bridges/neovim tests/neovim tests/dialog
std = 'luajit'
max_line_length = 140

-- Neovim's one global, `vim`: read-only except the option and environment tables, which the
-- bridge and the tests set (vim.bo[buf].modifiable = false). The bridge defines no globals.
local writable = { read_only = false, other_fields = true }
read_globals = {
  vim = {
    other_fields = true,
    fields = { o = writable, bo = writable, wo = writable, env = writable },
  },
}
