;;; eglot_session.el --- a scripted Emacs session against `ndlc lsp' (run by run.sh)
;; Emacs's eglot, configured by docs/editors.md's snippet (run.sh extracts it into SNIPPET),
;; opens a program with a misspelled form. Checks that the diagnostic appears at the position
;; `ndlc check' names, that hover shows the form's documentation, and that go to definition on
;; a routing lands on its line in the stdlib. Prints "ok: ..." per check; exits 1 at the first
;; failure. Environment as for editors/nvim/test/lsp_session.lua, plus SNIPPET.

(require 'cl-lib)
(defun ndl-test-fail (msg)
  (princ (format "FAIL: %s\n" msg))
  (kill-emacs 1))
(defun ndl-test-ok (cond msg)
  (unless cond (ndl-test-fail msg))
  (princ (format "ok: %s\n" msg)))
(defun ndl-test-env (name)
  (let ((v (getenv name)))
    (if (or (null v) (string= v "")) (ndl-test-fail (concat "set " name)) v)))
(defun ndl-test-wait (pred seconds)
  "Let the server's messages in until PRED holds or SECONDS pass."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (funcall pred)))

(let ((program (ndl-test-env "PROGRAM"))
      (want-line (string-to-number (ndl-test-env "EXPECT_LINE")))
      (want-col (string-to-number (ndl-test-env "EXPECT_COL")))
      (stdlib-file (ndl-test-env "STDLIB_FILE"))
      (stdlib-line (string-to-number (ndl-test-env "STDLIB_LINE")))
      (form-doc (ndl-test-env "FORM_DOC")))
  ;; The user's configuration: the documented snippet, as written.
  (load (ndl-test-env "SNIPPET") nil t)
  (require 'eglot)
  (find-file program)
  (ndl-test-ok (eq major-mode 'ndl-mode) "the .ndl file is in ndl-mode")
  (eglot-ensure)
  ;; eglot-ensure connects from post-command-hook, which batch mode never runs.
  (run-hooks 'post-command-hook)
  (ndl-test-ok (ndl-test-wait (lambda () (eglot-current-server)) 20) "eglot connected")
  ;; Diagnostics reach flymake; eglot reports them once flymake asks.
  (ndl-test-ok (ndl-test-wait (lambda () (flymake-start) (flymake-diagnostics)) 20)
               "diagnostics appeared")
  (let* ((d (car (flymake-diagnostics)))
         (beg (flymake-diagnostic-beg d))
         (line (line-number-at-pos beg))
         (col (save-excursion (goto-char beg) (1+ (current-column)))))
    (ndl-test-ok (and (= line want-line) (= col want-col))
                 (format "the diagnostic is at %d:%d, as ndlc check says (%d:%d)"
                         line col want-line want-col))
    (ndl-test-ok (and (eq (flymake-diagnostic-type d) 'eglot-error)
                      (string-match-p "unknown form" (flymake-diagnostic-text d)))
                 (concat "it is the unknown-form error: "
                         (car (split-string (flymake-diagnostic-text d) "\n"))))
    (ndl-test-ok (= (- (flymake-diagnostic-end d) beg) (length "FlowControlMethd"))
                 "its range covers the misspelled name"))
  (cl-flet ((at (word)
              (goto-char (point-min))
              (unless (search-forward word nil t) (ndl-test-fail (concat "no " word)))
              (goto-char (1+ (match-beginning 0)))))
    (at "NetworkFrequency")
    (let* ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                   (eglot--TextDocumentPositionParams)))
           (contents (plist-get hover :contents))
           (text (if (stringp contents) contents (or (plist-get contents :value) ""))))
      (ndl-test-ok (and (string-match-p "NetworkFrequency" text)
                        (string-match-p (regexp-quote form-doc) text))
                   (concat "hover on NetworkFrequency shows its documentation: "
                           (replace-regexp-in-string "\n" " | " text))))
    (at "DimensionOrder")
    ;; What M-. does: the eglot xref backend's definitions of the identifier at point.
    (let* ((id (xref-backend-identifier-at-point 'eglot))
           (xrefs (xref-backend-definitions 'eglot id))
           (loc (and xrefs (xref-item-location (car xrefs)))))
      (ndl-test-ok loc "go to definition of DimensionOrder answered")
      (ndl-test-ok (string= (file-truename (xref-location-group loc))
                            (file-truename stdlib-file))
                   (concat "go to definition of DimensionOrder lands in " stdlib-file))
      (ndl-test-ok (= (xref-location-line loc) stdlib-line)
                   (format "on line %d, where the stdlib defines it (%d)"
                           (xref-location-line loc) stdlib-line))))
  (eglot-shutdown (eglot-current-server))
  (kill-emacs 0))
