-- :AskHost start {agent argv} | prompt {text} | stop | log | pending | web
if vim.fn.exists(':AskHost') == 2 then
  return
end

vim.api.nvim_create_user_command('AskHost', function(opts)
  require('askhost').command(opts.args)
end, {
  nargs = '+',
  complete = function(arglead, cmdline)
    return require('askhost').complete(arglead, cmdline)
  end,
  desc = 'askhost: run an agent and answer its questions',
})

vim.api.nvim_create_autocmd('VimLeavePre', {
  group = vim.api.nvim_create_augroup('askhost_plugin', { clear = true }),
  callback = function()
    -- Only if the module was ever loaded: do not start anything on the way out.
    local loaded = package.loaded['askhost']
    if loaded then
      loaded.shutdown(1000)
    end
  end,
})
