// The prm layout language (see docs/dsl.md). The parser only builds a tree; every check that can
// be phrased as "this is well formed but wrong" lives in the semantic passes, where it can name
// the places involved.
grammar Prm;

specFile   : packageDecl importDecl* decl* EOF ;
packageDecl: PACKAGE qname SEMI ;
importDecl : IMPORT qname SEMI ;

decl
    : STRUCT name declOption* LBRACE structItem* RBRACE     # structDecl
    | UNION name declOption* LBRACE unionAlt* RBRACE        # unionDecl
    | ENUM name (WIDTH INT)? LBRACE enumValue* RBRACE       # enumDecl
    | FLAGS name (WIDTH INT)? LBRACE enumValue* RBRACE      # flagsDecl
    | CONST name ASSIGN INT STRING? SEMI                    # constDecl
    | COMMAND name declOption* LBRACE commandClause* RBRACE # commandDecl
    | REGISTER name declOption* LBRACE registerClause* RBRACE # registerDecl
    | WQE name declOption* LBRACE wqeItem* RBRACE           # wqeDecl
    ;

// A WQE, read like the PRM's WQE tables: its segments in order (a structure, optional with 'when';
// inline bytes padded to 16; a repeated run of alternatives to the end of the WQE), its size in
// bytes (what the device reads), the values its rules need from the device (a capability or
// context field; a memory key's context by key) and rules across segments. See docs/dsl.md.
wqeItem
    : SIZE expr STRING SEMI                                             # wqeSize
    | MATCH expr SEMI                                                   # wqeMatch
    | GIVEN name (COLON qname)? (ENUM qname)? STRING? SEMI              # wqeGiven
    | name COLON qname (SIZE expr)? (WHEN expr)? STRING? SEMI           # wqeSegment
    | name COLON INLINE expr (AT qname)? (WHEN expr)? STRING? SEMI      # wqeInline
    | name COLON REPEATED LBRACE wqeAlternative* RBRACE STRING? SEMI    # wqeRepeated
    | ruleDecl                                                          # wqeRule
    ;

wqeAlternative : name COLON qname (SIZE expr)? (WHEN expr)? STRING? SEMI ;

// A command: its opcode (a value of the enum of the input's opcode field; the command's own name
// when omitted), input structure (and the oldest input length a device accepts), output
// structure, op_mod values (an enum, or named values here), and for the command that carries
// registers (ACCESS_REG) the input field that holds the register id and the member holding the
// register's data in input and output.
commandClause
    : OPCODE value SEMI                                   # opcodeClause
    | IN qname (OLDEST INT)? SEMI                         # inClause
    | OUT qname SEMI                                      # outClause
    | OP_MOD qname SEMI                                   # opModEnumClause
    | OP_MOD LBRACE enumValue* RBRACE                     # opModValuesClause
    | REGISTER name DATA name SEMI                        # carriesClause
    ;

// A register: its id (a value of the enum of the carrying command's register id field; the
// register's own name when omitted) and its layout.
registerClause
    : REG_ID value SEMI                                   # idClause
    | LAYOUT qname SEMI                                   # layoutClause
    ;

declOption
    : SIZE INT                 # sizeOption
    | ORDER (BIG | LITTLE)     # orderOption
    | GAPS RESERVED            # gapsOption
    | REF STRING               # refOption
    | SINCE STRING             # sinceOption
    ;

enumValue : name ASSIGN INT STRING? (DETAIL STRING)? SEMI ;

structItem
    : member
    | inlineUnion
    | ruleDecl
    | joinDecl
    ;

// One logical field split over several bit fields of the structure: parts from the most significant,
// each optionally with the bits of the whole value it holds ([hi:lo]); without any, the parts are
// concatenated down to bit 0. 'join NAME;' alone is the kernel's NAME_high, NAME_low pair.
joinDecl : JOIN name (ASSIGN joinPart (COMMA joinPart)*)? attribute* STRING? SEMI ;
joinPart : name bitRange? ;

inlineUnion : placement? UNION name? unionOption* LBRACE unionAlt* RBRACE ;
unionOption
    : SIZE INT                 # unionSize
    | TAG name                 # unionTag
    ;

unionAlt
    : STRUCT name (WHEN value)? LBRACE member* RBRACE      # groupAlt
    | member                                              # memberAlt
    ;

member : placement? name (COLON typeSpec)? attribute* STRING? SEMI ;

placement : INT bitRange? ;
bitRange  : LBRACK INT (COLON INT)? RBRACK ;

typeSpec  : typeBase (LBRACK value? RBRACK)? ;
typeBase  : INT | qname ;

attribute
    : (RO | RW | WO | IN | OUT)     # accessAttr
    | ENUM qname                    # enumAttr
    | FLAGS qname                   # flagsAttr
    | RANGE INT DOTDOT INT          # rangeAttr
    | POW2                          # pow2Attr
    | LOG2                          # log2Attr
    | MBZ                           # mbzAttr
    | CAP qname                     # capAttr
    | TAG name                      # tagAttr
    | WHEN value                    # whenAttr
    | REF STRING                    # refAttr
    | SINCE STRING                  # sinceAttr
    ;

value : INT | qname ;

ruleDecl : RULE name COLON expr STRING SEMI ;

expr
    : LPAREN expr RPAREN                                  # parenExpr
    | op=(BANG | MINUS | TILDE) expr                      # unaryExpr
    | expr op=(STAR | SLASH | PERCENT) expr               # binaryExpr
    | expr op=(PLUS | MINUS) expr                         # binaryExpr
    | expr op=(SHL | SHR) expr                            # binaryExpr
    | expr op=(LT | LE | GT | GE) expr                    # binaryExpr
    | expr op=(EQ | NE) expr                              # binaryExpr
    | expr op=AMP expr                                    # binaryExpr
    | expr op=CARET expr                                  # binaryExpr
    | expr op=PIPE expr                                   # binaryExpr
    | expr op=ANDAND expr                                 # binaryExpr
    | expr op=OROR expr                                   # binaryExpr
    | INT                                                 # intExpr
    | name LPAREN expr (COMMA expr)* RPAREN (DOT name)?   # callExpr
    | qname                                               # nameExpr
    ;

qname : name (DOT name)* ;

// Words that only mean something after a member name or in a declaration header may also be used
// as names (fields called "size" or "tag" exist); words that start an item may not. "command" and
// "register" start only top-level declarations, so a field may still be called "register".
name
    : ID
    | SIZE | ORDER | BIG | LITTLE | GAPS | RESERVED | REF | SINCE | WIDTH | DETAIL
    | TAG | WHEN | RO | RW | WO | IN | OUT | RANGE | POW2 | LOG2 | MBZ | CAP
    | COMMAND | REGISTER | OPCODE | OP_MOD | OLDEST | DATA | REG_ID | LAYOUT | JOIN
    | WQE | GIVEN | INLINE | REPEATED | AT | MATCH
    ;

PACKAGE : 'package' ;
IMPORT  : 'import' ;
STRUCT  : 'struct' ;
UNION   : 'union' ;
ENUM    : 'enum' ;
FLAGS   : 'flags' ;
CONST   : 'const' ;
RULE    : 'rule' ;
SIZE    : 'size' ;
ORDER   : 'order' ;
BIG     : 'big' ;
LITTLE  : 'little' ;
GAPS    : 'gaps' ;
RESERVED: 'reserved' ;
REF     : 'ref' ;
SINCE   : 'since' ;
WIDTH   : 'width' ;
DETAIL  : 'detail' ;
TAG     : 'tag' ;
WHEN    : 'when' ;
RO      : 'ro' ;
RW      : 'rw' ;
WO      : 'wo' ;
IN      : 'in' ;
OUT     : 'out' ;
RANGE   : 'range' ;
POW2    : 'pow2' ;
LOG2    : 'log2' ;
MBZ     : 'mbz' ;
CAP     : 'cap' ;
COMMAND : 'command' ;
REGISTER: 'register' ;
OPCODE  : 'opcode' ;
OP_MOD  : 'op_mod' ;
OLDEST  : 'oldest' ;
DATA    : 'data' ;
REG_ID  : 'id' ;
LAYOUT  : 'layout' ;
JOIN    : 'join' ;
WQE     : 'wqe' ;
GIVEN   : 'given' ;
INLINE  : 'inline' ;
REPEATED: 'repeated' ;
AT      : 'at' ;
MATCH   : 'match' ;

LBRACE : '{' ;
RBRACE : '}' ;
LBRACK : '[' ;
RBRACK : ']' ;
LPAREN : '(' ;
RPAREN : ')' ;
SEMI   : ';' ;
COMMA  : ',' ;
COLON  : ':' ;
DOTDOT : '..' ;
DOT    : '.' ;
ASSIGN : '=' ;
OROR   : '||' ;
ANDAND : '&&' ;
EQ     : '==' ;
NE     : '!=' ;
LE     : '<=' ;
GE     : '>=' ;
SHL    : '<<' ;
SHR    : '>>' ;
LT     : '<' ;
GT     : '>' ;
PIPE   : '|' ;
CARET  : '^' ;
AMP    : '&' ;
PLUS   : '+' ;
MINUS  : '-' ;
STAR   : '*' ;
SLASH  : '/' ;
PERCENT: '%' ;
BANG   : '!' ;
TILDE  : '~' ;

INT    : '0' [xX] [0-9a-fA-F]+ | [0-9]+ ;
ID     : [A-Za-z_] [A-Za-z0-9_]* ;
STRING : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"' ;

DOC_COMMENT   : '///' ~[\r\n]* -> channel(2) ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n\f]+ -> skip ;

// Error tokens: the lexer never fails; the parser's error listener turns these into messages.
UNTERMINATED_STRING  : '"' (~["\\\r\n] | '\\' ~[\r\n])* ;
UNTERMINATED_COMMENT : '/*' .*? EOF ;
BAD_CHAR             : . ;
