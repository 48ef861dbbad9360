-- The end-to-end scenario for headless Neovim (tests/editor_neovim.rs), given as `-u`.
-- It starts citeproof through the shipped configuration (editors/neovim), opens the
-- fixtures, waits for diagnostics, applies the quick fix for CP108 through Neovim's
-- own code-action path, and writes what it saw to a JSON file the Rust test asserts.
-- Every wait has a deadline (vim.wait); nothing sleeps.
local env = vim.env
local out_path = env.CITEPROOF_E2E_OUT
local dir = env.CITEPROOF_E2E_DIR
local deadline_ms = tonumber(env.CITEPROOF_E2E_TIMEOUT_MS or '30000')

vim.opt.runtimepath:prepend(env.CITEPROOF_E2E_PLUGIN)
vim.o.hidden = true
vim.o.swapfile = false
vim.cmd('filetype on')

local citeproof = require('citeproof')
citeproof.setup({
  cmd = { env.CITEPROOF_E2E_BIN, 'lsp' },
  settings = { resolve = 'off', configFile = dir .. '/editor-settings.toml' },
})

local result = { method = citeproof.method(), steps = {}, notifications = {} }

local function step(text)
  table.insert(result.steps, text)
end

-- Messages Neovim would show the user (e.g. "No code actions available").
vim.notify = function(msg, level)
  table.insert(result.notifications, tostring(msg))
end

local function citeproof_diagnostics(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'citeproof' then
      local line = vim.api.nvim_buf_get_lines(bufnr, d.lnum, d.lnum + 1, false)[1] or ''
      local text = ''
      if d.end_lnum == d.lnum then
        text = line:sub(d.col + 1, d.end_col)
      end
      table.insert(found, {
        code = d.code,
        severity = d.severity,
        line = d.lnum,
        text = text,
      })
    end
  end
  return found
end

-- Neovim's own diagnostic for `code` in this buffer, if any.
local function has_code(bufnr, code)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'citeproof' and d.code == code then
      return d
    end
  end
  return nil
end

local function clients()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local names = {}
  for _, client in ipairs(get()) do
    table.insert(names, client.name)
  end
  return names
end

local function wait_for(what, condition)
  if not vim.wait(deadline_ms, condition, 20) then
    error('timed out after ' .. deadline_ms .. ' ms waiting for ' .. what, 0)
  end
  step(what)
end

local function buffer_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
end

-- Pick the code action whose title mentions `wanted`, as a user would in the menu.
local function choose_action(wanted)
  vim.ui.select = function(items, opts, on_choice)
    local chosen = nil
    result.actions = {}
    for _, item in ipairs(items) do
      local title = opts.format_item and opts.format_item(item) or tostring(item)
      table.insert(result.actions, title)
      if chosen == nil and title:find(wanted, 1, true) then
        chosen = item
      end
    end
    on_choice(chosen)
  end
end

local function scenario()
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/paper.md'))
  local paper = vim.api.nvim_get_current_buf()
  wait_for('CP101 in paper.md', function()
    return has_code(paper, 'CP101') ~= nil
  end)
  result.paper = citeproof_diagnostics(paper)

  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/refs.bib'))
  local bib = vim.api.nvim_get_current_buf()
  wait_for('CP108 in refs.bib', function()
    return has_code(bib, 'CP108') ~= nil
  end)
  result.bib_before = citeproof_diagnostics(bib)
  result.clients = clients()

  local cp108 = has_code(bib, 'CP108')
  vim.api.nvim_win_set_cursor(0, { cp108.lnum + 1, cp108.col })
  choose_action('doi.org URL')
  vim.lsp.buf.code_action()
  wait_for('the quick fix applied', function()
    -- Neovim says so when the server offers no code actions: fail at once.
    if #result.notifications > 0 then
      error('no quick fix: ' .. table.concat(result.notifications, '; '), 0)
    end
    return buffer_text(bib):find('doi = {10.48550/arxiv.1706.03762}', 1, true) ~= nil
  end)
  result.bib_text = buffer_text(bib)
  wait_for('CP108 gone after the edit', function()
    return has_code(bib, 'CP108') == nil
  end)
  result.bib_after = citeproof_diagnostics(bib)
  result.paper_after = citeproof_diagnostics(paper)
end

local function finish()
  local file = assert(io.open(out_path, 'w'))
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd('qall!')
end

-- Scheduled after startup, outside any autocommand, so that `:edit` fires the
-- FileType autocommands that start the client, as when a user opens a file.
vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = pcall(scenario)
      if not ok then
        result.error = tostring(err)
        result.clients = result.clients or clients()
      end
      finish()
    end)
  end,
})
