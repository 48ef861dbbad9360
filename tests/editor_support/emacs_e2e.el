;;; emacs_e2e.el --- the end-to-end scenario for Emacs with eglot  -*- lexical-binding: t; -*-

;; Run by tests/editor_emacs.rs as `emacs -q --batch -l emacs_e2e.el'.  It starts
;; citeproof through the shipped configuration (editors/emacs/citeproof.el), opens
;; the fixtures in markdown-mode and bibtex-mode, waits for the diagnostics Flymake
;; shows, applies the CP108 quick fix through `eglot-code-actions', saves, and writes
;; what it saw to a JSON file the Rust test asserts.  Every wait has a deadline;
;; nothing sleeps.  Batch Emacs has no command loop and no redisplay, so the wait
;; runs `post-command-hook' (where eglot-ensure connects) and the window-change
;; hooks (where Flymake starts on a displayed buffer) itself.

;;; Code:

(require 'json)
(require 'cl-lib)

(defvar e2e-dir (file-name-as-directory (getenv "CITEPROOF_E2E_DIR")))
(defvar e2e-deadline (/ (string-to-number (or (getenv "CITEPROOF_E2E_TIMEOUT_MS") "30000")) 1000.0))
(defvar e2e-result nil "Alist written as JSON at the end.")

(add-to-list 'load-path (getenv "CITEPROOF_E2E_PLUGIN"))
(require 'citeproof)
(require 'markdown-mode)
(setq citeproof-program (getenv "CITEPROOF_E2E_BIN")
      citeproof-settings (list :resolve "off"
                               :configFile (expand-file-name "editor-settings.toml" e2e-dir)))
(citeproof-eglot-setup)
(add-hook 'markdown-mode-hook #'eglot-ensure)
(add-hook 'bibtex-mode-hook #'eglot-ensure)
(setq eglot-confirm-server-initiated-edits nil
      make-backup-files nil
      create-lockfiles nil)

(defun e2e-put (key value)
  (setf (alist-get key e2e-result) value))

(defun e2e-wait (what predicate)
  "Run the command loop's hooks and read the server's messages until PREDICATE
holds; signal an error after `e2e-deadline' seconds."
  (let ((until (+ (float-time) e2e-deadline))
        value)
    (while (not (setq value (funcall predicate)))
      (when (> (float-time) until)
        (error "timed out after %s s waiting for %s" e2e-deadline what))
      (run-hooks 'post-command-hook)
      (run-window-configuration-change-hook)
      (accept-process-output nil 0.02))
    (e2e-put 'steps (append (alist-get 'steps e2e-result) (list what)))
    value))

(defun e2e-diagnostics ()
  "Flymake's diagnostics in this buffer: code, severity (Flymake's type), line
(0-based), text under the range, message."
  (cl-loop for d in (flymake-diagnostics)
           for lsp = (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))
           collect `((code . ,(plist-get lsp :code))
                     (severity . ,(symbol-name (flymake-diagnostic-type d)))
                     (line . ,(1- (line-number-at-pos (flymake-diagnostic-beg d))))
                     (text . ,(buffer-substring-no-properties
                               (flymake-diagnostic-beg d) (flymake-diagnostic-end d)))
                     (message . ,(flymake-diagnostic-text d)))))

(defun e2e-find (code)
  (cl-find-if (lambda (d) (equal (plist-get (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d))) :code) code))
              (flymake-diagnostics)))

(defun e2e-scenario ()
  (let (paper bib)
    (setq paper (find-file (expand-file-name "paper.md" e2e-dir)))
    (e2e-put 'paper_mode (symbol-name major-mode))
    (e2e-wait "CP101 in paper.md" (lambda () (with-current-buffer paper (e2e-find "CP101"))))
    (e2e-put 'paper (with-current-buffer paper (e2e-diagnostics)))
    (setq bib (find-file (expand-file-name "refs.bib" e2e-dir)))
    (e2e-put 'bib_mode (symbol-name major-mode))
    (let ((cp108 (e2e-wait "CP108 in refs.bib" (lambda () (with-current-buffer bib (e2e-find "CP108"))))))
      (e2e-put 'bib_before (e2e-diagnostics))
      (e2e-put 'servers (length (hash-table-values eglot--servers-by-project)))
      (e2e-put 'same_server (eq (with-current-buffer paper (eglot-current-server))
                                (eglot-current-server)))
      ;; The quick fix, picked from eglot's menu as a user would.
      (goto-char (flymake-diagnostic-beg cp108))
      (cl-letf* ((last-nonmenu-event ?\r)
                 ((symbol-function 'completing-read)
                  (lambda (_prompt collection &rest _)
                    (let ((titles (mapcar #'car collection)))
                      (e2e-put 'actions titles)
                      (or (cl-find-if (lambda (title) (string-match-p "doi\\.org URL" title)) titles)
                          (error "no quick fix titled \"...doi.org URL...\" among %S" titles))))))
        (call-interactively #'eglot-code-actions)))
    (with-current-buffer bib
      (e2e-wait "the quick fix applied"
                (lambda () (string-match-p "doi = {10.48550/arxiv.1706.03762}" (buffer-string))))
      (e2e-put 'bib_text (buffer-substring-no-properties (point-min) (point-max)))
      ;; Saving sends the change (eglot sends edits on an idle timer otherwise).
      (save-buffer)
      (e2e-wait "CP108 gone after the edit" (lambda () (not (e2e-find "CP108"))))
      (e2e-put 'bib_after (e2e-diagnostics)))
    (e2e-put 'paper_after (with-current-buffer paper (e2e-diagnostics)))))

(condition-case err
    (e2e-scenario)
  (error (e2e-put 'error (error-message-string err))
         ;; The end of eglot's log of the session, to tell why.
         (dolist (buffer (buffer-list))
           (when (string-match-p "EGLOT.*events" (buffer-name buffer))
             (with-current-buffer buffer
               (e2e-put 'events (buffer-substring-no-properties
                                 (max (point-min) (- (point-max) 4000)) (point-max))))))))
(ignore-errors (eglot-shutdown-all))
(with-temp-file (getenv "CITEPROOF_E2E_OUT")
  (insert (json-encode e2e-result)))
(kill-emacs 0)

;;; emacs_e2e.el ends here
