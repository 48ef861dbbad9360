-- Neovim 0.11+: with this folder on 'runtimepath', `vim.lsp.enable('citeproof')` is all
-- it takes (override fields with vim.lsp.config('citeproof', { ... })).
local config = require('citeproof').config()
config.name = nil
return config
