-- How a Lua replay of shared vectors (tests/dialog/replay.lua, tests/text/replay.lua) reports: one
-- line per case, then the closing line tests/summarize.py counts case by case as a Boost.Test
-- report, then `cquit 0` when every case passed (and one did), `cquit 1` otherwise.
--   local report = dofile(here .. '/../vectors_report.lua')
--   report.run('replay.lua', function(case)
--     case('name', 'ok', {})                        -- or 'FAIL' with its failures, or 'skipped (...)'
--   end)
local M = {}

function M.out(s)
  io.stdout:write(s .. '\n')
end

---@param who string the replay's name, before an error that stopped it
---@param body fun(case: fun(name: string, status: string, failures: string[]))
function M.run(who, body)
  local passed, failed, skipped = 0, 0, 0
  local function case(name, status, failures)
    M.out(name .. ': ' .. status)
    for _, f in ipairs(failures or {}) do
      M.out('  ' .. f)
    end
    if status == 'ok' then
      passed = passed + 1
    elseif status == 'FAIL' then
      failed = failed + 1
    else
      skipped = skipped + 1
    end
  end
  local ok_run, err = pcall(body, case)
  if ok_run then
    local total = passed + failed + skipped
    if failed > 0 then
      M.out(('%d test cases out of %d failed'):format(failed, total))
    elseif skipped > 0 then
      M.out(('%d test cases out of %d passed (%d skipped)'):format(passed, total, skipped))
    else
      M.out(('%d test cases out of %d passed'):format(passed, total))
    end
  else
    M.out(who .. ': ' .. tostring(err))
  end
  vim.cmd('cquit ' .. ((ok_run and failed == 0 and passed > 0) and 0 or 1))
end

return M
