-- The Zotero scenario for headless Neovim (tests/editor_neovim.rs), given as `-u`.
-- citeproof starts through the shipped configuration (editors/neovim) with the mock
-- Zotero's URL in its settings; once the library is read (the server's
-- `citeproof/zotero` notification), a citation is typed, completion is asked through
-- Neovim's LSP client, the Zotero key is inserted with the item's text edit, and the
-- item's command runs: the server answers with `workspace/applyEdit`, which Neovim's
-- own handler applies to refs.bib. What it saw goes to a JSON file the Rust test
-- asserts. Every wait has a deadline (vim.wait); nothing sleeps.
local env = vim.env
local out_path = env.CITEPROOF_E2E_OUT
local dir = env.CITEPROOF_E2E_DIR
local deadline_ms = tonumber(env.CITEPROOF_E2E_TIMEOUT_MS or '30000')

vim.opt.runtimepath:prepend(env.CITEPROOF_E2E_PLUGIN)
vim.o.hidden = true
vim.o.swapfile = false
vim.cmd('filetype on')

local result = { steps = {}, notifications = {} }

-- What the server read from Zotero.
vim.lsp.handlers['citeproof/zotero'] = function(_, status)
  result.zotero = status
end

local citeproof = require('citeproof')
citeproof.setup({
  cmd = { env.CITEPROOF_E2E_BIN, 'lsp' },
  settings = { resolve = 'off', zoteroUrl = env.CITEPROOF_E2E_ZOTERO },
})

vim.notify = function(msg)
  table.insert(result.notifications, tostring(msg))
end

local function step(text)
  table.insert(result.steps, text)
end

local function wait_for(what, condition)
  if not vim.wait(deadline_ms, condition, 20) then
    error('timed out after ' .. deadline_ms .. ' ms waiting for ' .. what, 0)
  end
  step(what)
end

local function has_code(bufnr, code)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'citeproof' and d.code == code then
      return true
    end
  end
  return false
end

local function buffer_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
end

local function scenario()
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/paper.md'))
  local paper = vim.api.nvim_get_current_buf()
  wait_for('CP101 in paper.md', function()
    return has_code(paper, 'CP101')
  end)
  wait_for('the Zotero library read', function()
    return result.zotero ~= nil
  end)

  -- The writer starts a citation on a new last line.
  local typed = 'Residual nets [@he'
  local line = vim.api.nvim_buf_line_count(paper)
  vim.api.nvim_buf_set_lines(paper, line, line, false, { typed })
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(paper) },
    position = { line = line, character = #typed },
  }
  local responses = vim.lsp.buf_request_sync(paper, 'textDocument/completion', params, deadline_ms)
  local items = {}
  for _, response in pairs(responses or {}) do
    local answer = response.result or {}
    for _, item in ipairs(answer.items or answer) do
      table.insert(items, item)
    end
  end
  result.labels = {}
  local chosen = nil
  for _, item in ipairs(items) do
    table.insert(result.labels, item.label)
    if item.label == 'he2016deep' then
      chosen = item
    end
  end
  if chosen == nil then
    error('no Zotero key among the completions: ' .. vim.fn.json_encode(result.labels), 0)
  end
  result.description = chosen.labelDetails and chosen.labelDetails.description
  step('completion offered the Zotero key')

  -- Accepting the item: its text edit, then its command.
  vim.lsp.util.apply_text_edits({ chosen.textEdit }, paper, 'utf-16')
  result.typed_line = vim.api.nvim_buf_get_lines(paper, line, line + 1, false)[1]
  vim.lsp.buf_request(paper, 'workspace/executeCommand', {
    command = chosen.command.command,
    arguments = chosen.command.arguments,
  }, function() end)
  local bib = vim.fn.bufadd(dir .. '/refs.bib')
  wait_for('the entry added to refs.bib', function()
    return vim.api.nvim_buf_is_loaded(bib)
      and buffer_text(bib):find('@article{he2016deep,', 1, true) ~= nil
  end)
  result.bib_text = buffer_text(bib)
end

local function finish()
  local file = assert(io.open(out_path, 'w'))
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd('qall!')
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    vim.schedule(function()
      local ok, err = pcall(scenario)
      if not ok then
        result.error = tostring(err)
      end
      finish()
    end)
  end,
})
