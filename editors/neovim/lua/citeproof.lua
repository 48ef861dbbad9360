-- citeproof's language server in Neovim: 0.11+ through vim.lsp.config/vim.lsp.enable,
-- 0.8-0.10 through vim.lsp.start, and 0.7 (Debian 12) through vim.lsp.start_client and
-- vim.lsp.buf_attach_client. Usage: require('citeproof').setup({ ... }) -- see README.md.
local M = {}

-- Markdown (and Quarto, R Markdown, Pandoc), LaTeX, BibTeX and plain-text LLM answers.
M.filetypes = { 'markdown', 'quarto', 'rmd', 'pandoc', 'tex', 'plaintex', 'bib', 'text' }

-- The folder a project's check starts from: the nearest with one of these.
M.root_markers = { 'citeproof.toml', '.citeproof.toml', '.git' }

-- The server's own settings, sent as initializationOptions and answered for
-- workspace/configuration under `citeproof`:
--   resolve = 'onSave' | 'off'  look cited works up on open and save, or never (local rules only)
--   verify = true | false       check that cited works support their claims
--   offline = true | false      cache and local corpora only, no network
--   configFile = '/path/citeproof.toml'  one configuration file instead of discovery
--   env = { CITEPROOF_MAILTO = 'me@example.org' }  environment variables the CLI honours
-- Only `resolve` has a default here: what is left out comes from citeproof.toml.
M.default_settings = { resolve = 'onSave' }

-- The client configuration for the given options:
--   cmd: the command that starts the server ({ 'citeproof', 'lsp' })
--   settings: overrides of M.default_settings
--   filetypes, root_markers: overrides of M.filetypes, M.root_markers
function M.config(opts)
  opts = opts or {}
  local settings = vim.tbl_extend('force', M.default_settings, opts.settings or {})
  return {
    name = 'citeproof',
    cmd = opts.cmd or { 'citeproof', 'lsp' },
    filetypes = opts.filetypes or M.filetypes,
    root_markers = opts.root_markers or M.root_markers,
    settings = { citeproof = settings },
    init_options = { citeproof = settings },
  }
end

-- The nearest folder above `path` holding a root marker, else the file's own folder.
function M.root_dir(path, markers)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  while true do
    for _, marker in ipairs(markers) do
      if vim.loop.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return vim.fn.fnamemodify(path, ':p:h')
    end
    dir = parent
  end
end

-- Which of the three ways this Neovim starts the server.
function M.method()
  if vim.lsp.config ~= nil and vim.lsp.enable ~= nil then
    return 'vim.lsp.config'
  elseif vim.lsp.start ~= nil then
    return 'vim.lsp.start'
  end
  return 'vim.lsp.start_client'
end

-- Before 0.11: one client per root folder, started on the first buffer of a
-- citeproof file type and attached to every later one.
local clients_by_root = {}

local function attach(config, bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path == '' or vim.bo[bufnr].buftype ~= '' then
    return
  end
  local root = M.root_dir(path, config.root_markers)
  local client_config = vim.tbl_extend('force', config, {
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
  })
  client_config.root_markers = nil
  if M.method() == 'vim.lsp.start' then
    vim.lsp.start(client_config, { bufnr = bufnr })
    return
  end
  local id = clients_by_root[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(client_config)
    clients_by_root[root] = id
  end
  if id ~= nil then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

function M.setup(opts)
  local config = M.config(opts)
  -- Quarto and R Markdown files are Markdown to citeproof; older Neovims do not know them.
  if vim.filetype ~= nil and vim.filetype.add ~= nil then
    vim.filetype.add({ extension = { qmd = 'quarto', rmd = 'rmd', Rmd = 'rmd' } })
  end
  if M.method() == 'vim.lsp.config' then
    vim.lsp.config('citeproof', config)
    vim.lsp.enable('citeproof')
    return
  end
  local group = vim.api.nvim_create_augroup('citeproof_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = config.filetypes,
    callback = function(args)
      attach(config, args.buf)
    end,
  })
  -- Buffers already open when setup() runs.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(config.filetypes, vim.bo[bufnr].filetype) then
      attach(config, bufnr)
    end
  end
end

return M
