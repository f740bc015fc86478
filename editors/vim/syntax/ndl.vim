" Vim syntax file
" Language:    NDL, the network description language (INSIGHT-style S-expressions)
" Filenames:   *.ndl
"
" Groups (TextMate scope of editors/vscode in brackets):
"   ndlComment, ndlBlockComment      comments          [comment.line / comment.block]
"   ndlString, ndlEscape             strings, escapes  [string.quoted.double / constant.character.escape]
"   ndlQuantityNumber, ndlUnit       50MHz             [constant.numeric.quantity / keyword.other.unit]
"   ndlBadUnit                       50Mhz: not a unit [invalid.illegal.unit]
"   ndlInteger, ndlHex, ndlFloat     numbers           [constant.numeric.*]
"   ndlRangeTo                       `to` of ranges    [keyword.operator.range]
"   ndlForm                          known form, head  [support.function.form]
"   ndlFormRef                       known form, arg   [support.variable.form]
"   ndlEnum                          enum value        [support.constant.enum]
"   ndlKeyword                       let if cond ...   [keyword.control]
"   ndlDefine, ndlDefinedName        (define (f ...))  [keyword.control.definition / entity.name.*]
"   ndlParameter                     parameters        [variable.parameter]
"   ndlOperator                      + - * / < ...     [keyword.operator]
"   ndlIdentifier                    anything else     [variable.other]
"   ndlError, ndlStrayParen,
"   ndlUnterminatedString            lexical errors    [invalid.illegal.*]
"
" The lists between BEGIN/END GENERATED come from compiler/sema/Forms.def,
" Enums.def and the lists in editors/sync_names.py (keywords, spec 1.1 units):
" run editors/sync_names.py --write after changing them.

if exists('b:current_syntax')
  finish
endif
let s:cpo_save = &cpo
set cpo&vim

syn case match
" Identifier characters of the lexer: letters, digits, _ + - . ? ! *
syn iskeyword 48-57,65-90,97-122,95,43,45,46,63,33,42

" BEGIN GENERATED forms (editors/sync_names.py --write)
let s:forms = ['Topology', 'FlowControlMethod', 'NetworkChannelWidth',
      \ 'NetworkFrequency', 'NetworkPacketSize', 'NetworkDataSize',
      \ 'NodeHardwareDelay', 'NodeBufferSize', 'MessageCreationMax',
      \ 'MessageCreationInterval', 'MessageCreationRate', 'MessageLength',
      \ 'MessageMaxCount', 'InjectionQueueOverflow', 'SimulationInterval',
      \ 'CommunicationPatternFile', 'ProcessorPerformanceExpandRate',
      \ 'DataOutputFile', 'ScreenOutputFile', 'RoutingAlgorithm',
      \ 'VirtualChannels', 'InjectionVirtualChannels',
      \ 'SwitchInputArbitration', 'SwitchHold', 'InternalSpeedup',
      \ 'VcAllocation', 'Selection', 'DeadlockHandling', 'RecoveryTimeout',
      \ 'DeadlockTimeout', 'TrafficPattern', 'OfferedLoad', 'TrafficClass',
      \ 'InjectionProcess', 'RouterPipeline', 'Predictor', 'PredictivePath',
      \ 'MispredictionCheck', 'PredictorLatency', 'ClockDomain', 'Interface',
      \ 'HostWriteTime', 'HostReadTime', 'SoftwareOverhead', 'PollInterval',
      \ 'Loopback', 'PollPhase', 'RouterFrequency', 'LinkDelay',
      \ 'CreditDelay', 'Seed', 'Measurement', 'WarmupMessages',
      \ 'MeasuredMessages', 'SimulationTime', 'ReportPairs', 'Sweep',
      \ 'import', 'override', 'Nodes', 'Link', 'UnidirectionalLink',
      \ 'Endpoints', 'Concentration', 'Groups']
" END GENERATED forms
" BEGIN GENERATED enums (editors/sync_names.py --write)
let s:enums = ['StoreAndForward', 'Wormhole', 'VirtualCutThrough',
      \ 'DimensionOrder', 'XFirstYNext', 'Ecube', 'VectorRouting',
      \ 'MinimalAdaptive', 'WestFirst', 'NorthLast', 'NegativeFirst',
      \ 'OddEven', 'Valiant', 'ShortestPath', 'ShortestPathUpDown',
      \ 'VectorRoutingUpDown', 'StarChannel', 'RecoverX', 'FatTreeUpDown',
      \ 'DragonflyMinimal', 'DragonflyValiant', 'DragonflyUgal',
      \ 'DragonflyUgalG', 'DragonflyPar', 'FlatFlyMinimal', 'FlatFlyValiant',
      \ 'ButterflyDestinationTag', 'DISHA', 'Bernoulli', 'Periodic', 'OnOff',
      \ 'Trace', 'Steady', 'Burst', 'Refuse', 'Block', 'HintBits', 'Internal',
      \ 'External', 'None', 'Drop', 'Avoid', 'Detect', 'DropAfterTimeout',
      \ 'ByVc', 'ByOutput', 'Flit', 'Packet', 'Atomic', 'NonAtomic', 'First',
      \ 'Random', 'MostCredits', 'StraightFirst', 'Uniform', 'BitReversal',
      \ 'BitComplement', 'Transpose', 'Shuffle', 'Tornado', 'Neighbor',
      \ 'HotSpot', 'AllToAll', 'Diagonal', 'Asymmetric', 'RandomPermutation',
      \ 'BadDragon', 'Ring', 'Mesh', 'Torus', 'Hypercube', 'RDT', 'FatTree',
      \ 'CMesh', 'Dragonfly', 'DragonflyWired', 'FlattenedButterfly',
      \ 'FlattenedButterflyWired', 'Butterfly']
" END GENERATED enums
" BEGIN GENERATED keywords (editors/sync_names.py --write)
let s:keywords = ['let', 'if', 'cond', 'for', 'mod']
" END GENERATED keywords
" BEGIN GENERATED definitions (editors/sync_names.py --write)
let s:definitions = ['define']
" END GENERATED definitions
" BEGIN GENERATED units (editors/sync_names.py --write)
let s:units = ['bit/clock', 'byte/clock', 'MB/s', 'bit', 'byte', 'Kbyte',
      \ 'Mbyte', 'flit', 'phit', 'sec', 'msec', 'usec', 'nsec', 'psec', 's',
      \ 'ms', 'us', 'ns', 'ps', 'clock', 'cycle', 'Hz', 'kHz', 'MHz', 'GHz',
      \ 'Gbps', '%']
" END GENERATED units

let s:ic = '[A-Za-z0-9_+.?!*-]'
let s:ident = '[A-Za-z_]' . s:ic . '*'
let s:end = '\%(' . s:ic . '\)\@!'
let s:head = '\%((\s*\)\@100<='
function! s:Alt(names) abort
  return '\%(' . join(a:names, '\|') . '\)'
endfunction

" Vim picks, among items starting at the same column, the one defined last,
" so the catch-alls come first. Everything is a match (no :syn keyword, whose
" priority would let an enum value win over a defined name).
syn match ndlError /[^[:space:]()]/
syn match ndlIdentifier /[A-Za-z_][A-Za-z0-9_+.?!*-]*/
syn match ndlOperator /<=\|>=\|!=\|[-+*\/<>=]/
exe 'syn match ndlRangeTo /to' . s:end . '/'
exe 'syn match ndlEnum /' . s:Alt(s:enums) . s:end . '/'
exe 'syn match ndlFormRef /' . s:Alt(s:forms) . s:end . '/'
exe 'syn match ndlForm /' . s:head . s:Alt(s:forms) . s:end . '/'
exe 'syn match ndlKeyword /' . s:head . s:Alt(s:keywords) . s:end . '/'
exe 'syn match ndlDefine /' . s:head . s:Alt(s:definitions) . s:end . '/'
" (define name ...) and (define (name params...) ...)
let s:defhead = '(\s*' . s:Alt(s:definitions) . '\s\+'
exe 'syn match ndlDefinedName /\%(' . s:defhead . '(\=\s*\)\@100<=' . s:ident . '/'
exe 'syn match ndlParameter /\%(' . s:defhead . '(\s*' . s:ident . '\%(\s\+' . s:ident . '\)*\s\+\)\@300<=' . s:ident . '/'

" Numbers. A number glued to letters is a quantity (the number is atomic so
" 1e5 stays a real); 0x followed by hex digits is an integer, as in the lexer
syn match ndlInteger /[+-]\=\d\+/
syn match ndlFloat /[+-]\=\d\+\%(\.\d\+\%([eE][+-]\=\d\+\)\=\|[eE][+-]\=\d\+\)/
syn match ndlQuantityNumber /\%([+-]\=\d\+\%(\.\d\+\)\=\%([eE][+-]\=\d\+\)\=\)\@>\ze[A-Za-z%]/ nextgroup=ndlUnit,ndlBadUnit
syn match ndlBadUnit /[A-Za-z%]\+\%(\/[A-Za-z]\+\)\=/ contained
exe 'syn match ndlUnit /' . s:Alt(map(copy(s:units), 'escape(v:val, "/")')) . '\%([A-Za-z%]\|\/[A-Za-z]\)\@!/ contained'
syn match ndlHex /0x\x\+/

" Strings are single-line; one without its closing quote is an error.
syn match ndlUnterminatedString /"\%([^"\\]\|\\.\)*\\\=$/
syn region ndlString start=/"/ skip=/\\./ end=/"/ oneline contains=ndlEscape
syn match ndlEscape /\\./ contained

" Lists; a `)` that closes nothing is an error.
syn match ndlStrayParen /)/
syn cluster ndlExpr contains=ndlError,ndlIdentifier,ndlOperator,ndlFormRef,ndlForm,ndlKeyword,ndlDefine,ndlDefinedName,ndlParameter,ndlEnum,ndlRangeTo,ndlInteger,ndlFloat,ndlQuantityNumber,ndlHex,ndlUnterminatedString,ndlString,ndlList,ndlComment,ndlBlockComment
syn region ndlList matchgroup=ndlParen start=/(/ end=/)/ contains=@ndlExpr

" Comments: `;` to the end of the line; #| ... |# ends at the first |#
" (block comments do not nest).
syn match ndlComment /;.*$/ contains=@Spell
syn region ndlBlockComment start=/#|/ end=/|#/ contains=@Spell

syn sync fromstart

hi def link ndlComment            Comment
hi def link ndlBlockComment       Comment
hi def link ndlString             String
hi def link ndlEscape             SpecialChar
hi def link ndlUnterminatedString Error
hi def link ndlQuantityNumber     Number
hi def link ndlUnit               Type
hi def link ndlBadUnit            Error
hi def link ndlInteger            Number
hi def link ndlHex                Number
hi def link ndlFloat              Float
hi def link ndlRangeTo            Operator
hi def link ndlForm               Statement
hi def link ndlFormRef            Identifier
hi def link ndlEnum               Constant
hi def link ndlKeyword            Keyword
hi def link ndlDefine             Define
hi def link ndlDefinedName        Function
hi def link ndlParameter          Identifier
hi def link ndlOperator           Operator
hi def link ndlParen              Delimiter
hi def link ndlError              Error
hi def link ndlStrayParen         Error

let b:current_syntax = 'ndl'
let &cpo = s:cpo_save
unlet s:cpo_save
