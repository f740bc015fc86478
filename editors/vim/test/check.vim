" Headless checks of editors/vim/syntax/ndl.vim, driven by editors/vim/test/run.sh.
"
"   NDL_MODE=assert    every file is a vscode-tmgrammar-test file
"                      (editors/vscode/test/*.test.ndl); each `; ^^^ scopes`
"                      assertion is mapped to the Vim group of the same
"                      category and checked with synIDattr(synID(...)).
"   NDL_MODE=examples  every file is a shipped program: the head of each form
"                      must be ndlForm when it is a known form (NDL_FORMS,
"                      from sync_names.py --list forms) and must not be ndlForm
"                      otherwise; no character may be in an error group.
"
" NDL_FILES names a file listing the inputs, NDL_OUT the report; Vim exits
" non-zero (cquit) when a check fails.

" TextMate scope -> Vim group (the categories are the same in both editors).
let s:groups = {
      \ 'comment.line.semicolon.ndl': 'ndlComment',
      \ 'punctuation.definition.comment.ndl': 'ndlComment',
      \ 'comment.block.ndl': 'ndlBlockComment',
      \ 'punctuation.definition.comment.begin.ndl': 'ndlBlockComment',
      \ 'punctuation.definition.comment.end.ndl': 'ndlBlockComment',
      \ 'string.quoted.double.ndl': 'ndlString',
      \ 'punctuation.definition.string.begin.ndl': 'ndlString',
      \ 'punctuation.definition.string.end.ndl': 'ndlString',
      \ 'constant.character.escape.ndl': 'ndlEscape',
      \ 'invalid.illegal.unterminated-string.ndl': 'ndlUnterminatedString',
      \ 'constant.numeric.quantity.ndl': 'ndlQuantityNumber',
      \ 'keyword.other.unit.ndl': 'ndlUnit',
      \ 'invalid.illegal.unit.ndl': 'ndlBadUnit',
      \ 'constant.numeric.integer.ndl': 'ndlInteger',
      \ 'constant.numeric.integer.hexadecimal.ndl': 'ndlHex',
      \ 'constant.numeric.float.ndl': 'ndlFloat',
      \ 'keyword.operator.range.ndl': 'ndlRangeTo',
      \ 'support.function.form.ndl': 'ndlForm',
      \ 'support.variable.form.ndl': 'ndlFormRef',
      \ 'support.constant.enum.ndl': 'ndlEnum',
      \ 'keyword.control.ndl': 'ndlKeyword',
      \ 'keyword.control.definition.ndl': 'ndlDefine',
      \ 'entity.name.function.ndl': 'ndlDefinedName',
      \ 'entity.name.variable.ndl': 'ndlDefinedName',
      \ 'variable.parameter.ndl': 'ndlParameter',
      \ 'keyword.operator.ndl': 'ndlOperator',
      \ 'variable.other.ndl': 'ndlIdentifier',
      \ 'invalid.illegal.character.ndl': 'ndlError',
      \ 'invalid.illegal.stray-paren.ndl': 'ndlStrayParen',
      \ 'punctuation.section.list.begin.ndl': 'ndlParen',
      \ 'punctuation.section.list.end.ndl': 'ndlParen',
      \ 'meta.quantity.ndl': ['ndlQuantityNumber', 'ndlUnit', 'ndlBadUnit'],
      \ }
let s:error_groups = ['ndlError', 'ndlStrayParen', 'ndlUnterminatedString', 'ndlBadUnit']
let s:failures = []
let s:checked = 0

" Groups a scope selector stands for: the scope itself or any scope under it
" (`- string` excludes every string group).
function! s:GroupsOf(selector) abort
  let out = []
  for [scope, group] in items(s:groups)
    if scope ==# a:selector || stridx(scope, a:selector . '.') == 0
      let out += type(group) == v:t_list ? group : [group]
    endif
  endfor
  return out
endfunction

function! s:Group(lnum, col) abort
  return synIDattr(synID(a:lnum, a:col, 1), 'name')
endfunction

function! s:Fail(file, lnum, msg) abort
  call add(s:failures, printf('%s:%d: %s', a:file, a:lnum, a:msg))
endfunction

" One vscode-tmgrammar-test file.
function! s:CheckAssertions(file) abort
  execute 'silent edit! ' . fnameescape(a:file)
  if &filetype !=# 'ndl' || get(b:, 'current_syntax', '') !=# 'ndl'
    call s:Fail(a:file, 1, 'filetype/syntax not detected as ndl (ftdetect)')
    return
  endif
  let src = 0
  for lnum in range(2, line('$'))
    let text = getline(lnum)
    let m = matchlist(text, '^;\(\s*\)\(<\(\~*\)\(-\+\)\|\^.*\)')
    if empty(m)
      let src = lnum
      continue
    endif
    " The scopes part: `a b - c d`.
    if !empty(m[3]) || !empty(m[4])
      let from = len(m[3])
      let cols = range(from, from + len(m[4]) - 1)
      let rest = text[matchend(text, '<\~*-\+') :]
    else
      let cols = []
      let i = 0
      while i < len(text)
        if text[i] ==# '^'
          call add(cols, i)
        endif
        let i += 1
      endwhile
      let rest = substitute(text[1:], '[\^ ]*\^', '', '')
    endif
    let parts = split(rest, '\s-\s\|^\s*-\s\|\s-$', 1)
    let want = split(get(parts, 0, ''))
    let deny = len(parts) > 1 ? split(parts[1]) : []
    " The most specific positive scope Vim has a group for.
    let expect = []
    for scope in reverse(copy(want))
      let expect = s:GroupsOf(scope)
      if !empty(expect) && index(keys(s:groups), scope) >= 0
        break
      endif
      let expect = []
    endfor
    let denied = []
    for scope in deny
      let denied += s:GroupsOf(scope)
    endfor
    let srctext = getline(src)
    for c in cols
      " Assertion columns count characters; synID wants byte columns.
      let bcol = byteidx(srctext, c) + 1
      if bcol <= 0
        call s:Fail(a:file, lnum, 'assertion column ' . c . ' is past the end of line ' . src)
        continue
      endif
      let g = s:Group(src, bcol)
      let s:checked += 1
      if !empty(expect) && index(expect, g) < 0
        call s:Fail(a:file, src, printf('col %d %s: expected %s (for %s), got %s',
              \ c + 1, string(strcharpart(srctext, c, 1)), join(expect, '/'), join(want), g ==# '' ? 'no group' : g))
      endif
      if index(denied, g) >= 0
        call s:Fail(a:file, src, printf('col %d %s: must not be %s (for - %s)',
              \ c + 1, string(strcharpart(srctext, c, 1)), g, join(deny)))
      endif
    endfor
  endfor
endfunction

" One shipped program.
function! s:CheckExample(file, forms, keywords, definitions) abort
  execute 'silent edit! ' . fnameescape(a:file)
  if &filetype !=# 'ndl' || get(b:, 'current_syntax', '') !=# 'ndl'
    call s:Fail(a:file, 1, 'filetype/syntax not detected as ndl (ftdetect)')
    return
  endif
  for lnum in range(1, line('$'))
    let text = getline(lnum)
    " Heads: a word right after `(` on the same line.
    let start = 0
    while 1
      let m = matchstrpos(text, '(\s*\zs[A-Za-z_][A-Za-z0-9_+.?!*-]*', start)
      if m[1] < 0
        break
      endif
      let start = m[2]
      let g = s:Group(lnum, m[1] + 1)
      if g ==# 'ndlComment' || g ==# 'ndlBlockComment' || g ==# 'ndlString' || g ==# 'ndlDefinedName'
        continue
      endif
      let s:checked += 1
      let want = index(a:forms, m[0]) >= 0 ? 'ndlForm'
            \ : index(a:keywords, m[0]) >= 0 ? 'ndlKeyword'
            \ : index(a:definitions, m[0]) >= 0 ? 'ndlDefine' : ''
      if want !=# '' && g !=# want
        call s:Fail(a:file, lnum, printf('head %s is %s, expected %s', m[0], g, want))
      elseif want ==# '' && g ==# 'ndlForm'
        call s:Fail(a:file, lnum, printf('unknown head %s highlighted as a form', m[0]))
      endif
    endwhile
    " No lexical error anywhere.
    for bcol in range(1, len(text))
      let g = s:Group(lnum, bcol)
      if index(s:error_groups, g) >= 0
        call s:Fail(a:file, lnum, printf('col %d: %s in a shipped program', bcol, g))
        break
      endif
    endfor
  endfor
endfunction

function! s:Main() abort
  let mode = $NDL_MODE
  let files = readfile($NDL_FILES)
  if mode ==# 'assert'
    for f in files
      call s:CheckAssertions(f)
    endfor
  elseif mode ==# 'examples'
    let forms = readfile($NDL_FORMS)
    let keywords = readfile($NDL_KEYWORDS)
    let definitions = readfile($NDL_DEFINITIONS)
    for f in files
      call s:CheckExample(f, forms, keywords, definitions)
    endfor
  else
    call add(s:failures, 'NDL_MODE must be assert or examples')
  endif
  let report = s:failures + [printf('vim %s: %d file(s), %d position(s) checked, %d failure(s)',
        \ mode, len(files), s:checked, len(s:failures))]
  call writefile(report, $NDL_OUT)
  if !empty(s:failures) || s:checked == 0
    cquit
  endif
  qall!
endfunction

try
  call s:Main()
catch
  call writefile(['check.vim: ' . v:exception . ' at ' . v:throwpoint], $NDL_OUT)
  cquit
endtry
