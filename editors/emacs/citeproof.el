;;; citeproof.el --- citeproof's language server through eglot  -*- lexical-binding: t; -*-

;; Checks citations as you write: undefined keys, fabricated, mis-cited and retracted
;; references, claims their sources do not support.  Everything comes from
;; `citeproof lsp'; this file tells eglot how to start it and what to send it.
;; Eglot is built into Emacs 29 and later; on Emacs 26.3-28, install it from GNU ELPA
;; or your distribution (Debian 12: apt install elpa-eglot).  See README.md.

;;; Code:

(require 'eglot)

(defgroup citeproof nil
  "Citation checking through the citeproof language server."
  :group 'tools
  :prefix "citeproof-")

(defcustom citeproof-program "citeproof"
  "The citeproof executable: a name on `exec-path' or an absolute file name."
  :type 'string)

(defcustom citeproof-settings '(:resolve "onSave")
  "The server's settings, sent as initializationOptions and as the `citeproof'
section of the workspace configuration.  Keys: :resolve (\"onSave\" or \"off\" for
local rules only, no network), :verify (t or :json-false), :offline (t or
:json-false), :configFile (a citeproof.toml for every document), :env (a plist of
environment variables such as (:CITEPROOF_MAILTO \"me@example.org\")), :zotero (t or
:json-false: read the Zotero library; unset: when Zotero answers), :zoteroUrl.  What
is left out comes from citeproof.toml."
  :type 'plist)

(defcustom citeproof-major-modes
  '((markdown-mode :language-id "markdown")
    (gfm-mode :language-id "markdown")
    (poly-quarto-mode :language-id "quarto")
    (latex-mode :language-id "latex")
    (LaTeX-mode :language-id "latex")
    (tex-mode :language-id "latex")
    (plain-tex-mode :language-id "latex")
    (bibtex-mode :language-id "bibtex"))
  "The major modes eglot starts citeproof for, with their language ids.
Add (text-mode :language-id \"plaintext\") to check LLM answers in text files."
  :type '(repeat sexp))

(defun citeproof-eglot-contact (&optional _interactive)
  "How eglot starts the server: the program, `lsp', and the settings."
  (list citeproof-program "lsp" :initializationOptions (list :citeproof citeproof-settings)))

(defun citeproof-workspace-configuration (&optional _server)
  "The workspace configuration eglot answers and sends: a `citeproof' section."
  (list :citeproof citeproof-settings))

;;;###autoload
(defun citeproof-eglot-setup ()
  "Make eglot use citeproof for the modes in `citeproof-major-modes'.
It goes ahead of other servers for those modes (eglot runs one server per buffer),
and the `citeproof' section is added to `eglot-workspace-configuration'."
  (add-to-list 'eglot-server-programs
               (cons citeproof-major-modes #'citeproof-eglot-contact))
  (let ((configuration (default-value 'eglot-workspace-configuration)))
    (cond ((null configuration)
           (setq-default eglot-workspace-configuration
                         #'citeproof-workspace-configuration))
          ((and (listp configuration) (keywordp (car configuration)))
           (setq-default eglot-workspace-configuration
                         (plist-put (copy-sequence configuration)
                                    :citeproof citeproof-settings))))))

(provide 'citeproof)
;;; citeproof.el ends here
