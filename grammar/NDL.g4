// NDL: the network description language.
//
// The surface is S-expressions in the style of INSIGHT's parameter files:
//   (NetworkFrequency 50MHz) (MessageLength 8byte to 32byte)
// The grammar is deliberately permissive: every token sequence with balanced
// parentheses parses, and the AST builder and the checker report what is
// wrong in words a researcher understands (a stray 'to', an unknown unit, an
// unterminated string) instead of ANTLR's generic "mismatched input".

grammar NDL;

// ---------------------------------------------------------------- parser

program
    : expr* EOF
    ;

// `a to b` is grouped into a range by the AST builder, so that either side
// may be a list, as in (for (i 0 to (- k 1)) ...), and the grammar stays
// LL(1).
expr
    : LPAREN expr* RPAREN   # listExpr
    | atom                  # atomExpr
    | TO                    # toExpr
    | bad                   # badExpr
    ;

atom
    : INTEGER
    | REAL
    | QUANTITY
    | STRING
    | IDENT
    ;

// Tokens the lexer produces only so that the AST builder can name them in
// an error message.
bad
    : UNTERMINATED_STRING
    | UNTERMINATED_BLOCK_COMMENT
    | BAD_CHAR
    ;

// ---------------------------------------------------------------- lexer

LPAREN : '(' ;
RPAREN : ')' ;

// The range keyword of `8byte to 32byte`; it is reserved.
TO : 'to' ;

REAL
    : SIGN? DIGITS '.' DIGITS EXPONENT?
    | SIGN? DIGITS EXPONENT
    ;

INTEGER
    : SIGN? DIGITS
    | '0x' HEXDIGIT+
    ;

// After INTEGER, so that a hexadecimal literal of letters only (0xff) is an
// integer and not the number 0 with the unit "xff". Any run of letters is
// accepted as a unit here; the checker validates it and suggests the right
// spelling.
QUANTITY
    : NUMBER UNIT
    ;

STRING
    : '"' ( ESCAPE | ~["\\\r\n] )* '"'
    ;

// Longest match picks STRING when the closing quote is on the line.
UNTERMINATED_STRING
    : '"' ( ESCAPE | ~["\\\r\n] )* '\\'?
    ;

// Identifiers carry the characters of port and pattern names: `x+`,
// `y-`, `hot-spot`, `r1.u+`, `west_first`; operators are identifiers too.
IDENT
    : [a-zA-Z_] [a-zA-Z0-9_+\-.?!*]*
    | OPERATOR
    ;

// Comments go to the hidden channel: the parser never sees them; ndlc fmt
// keeps them.
LINE_COMMENT
    : ';' ~[\r\n]* -> channel(HIDDEN)
    ;

// `#| ... |#` ends at the first `|#`; block comments do not nest.
BLOCK_COMMENT
    : '#|' .*? '|#' -> channel(HIDDEN)
    ;

// Matches an opening `#|` with no closing `|#` after it: it can only be
// longer than BLOCK_COMMENT when the comment runs to the end of the file.
UNTERMINATED_BLOCK_COMMENT
    : '#|' ( ~'|' | '|'+ ~[|#] )* '|'*
    ;

WS
    : [ \t\r\n\f]+ -> skip
    ;

// Anything else is reported by the AST builder with its position.
BAD_CHAR
    : .
    ;

fragment NUMBER   : SIGN? DIGITS ( '.' DIGITS )? EXPONENT? ;
fragment UNIT     : [a-zA-Z%] [a-zA-Z%]* ( '/' [a-zA-Z] [a-zA-Z]* )? ;
fragment DIGITS   : [0-9]+ ;
fragment HEXDIGIT : [0-9a-fA-F] ;
fragment EXPONENT : [eE] SIGN? DIGITS ;
fragment SIGN     : '-' | '+' ;
fragment ESCAPE   : '\\' . ;
fragment OPERATOR : '+' | '-' | '*' | '/' | '<' | '<=' | '>' | '>=' | '=' | '!=' ;
