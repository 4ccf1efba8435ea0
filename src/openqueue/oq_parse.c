/*
 * oq_parse.c -- OpenQueue lexer and parser: source text -> tokens -> AST
 * (statements and expression nodes, oq_int.h).  The grammar is in
 * docs/openqueue.md; in short:
 *
 *   file   := { stmt [';'] }
 *   stmt   := 'import' STRING
 *           | [Queue|Buffer|Port] NAME '=' (Queue|Buffer|Port) '(' args ')'
 *           | NAME '(' [NAME [',' NAME]] ')' '=' body     comparator or condition
 *           | NAME '.' NAME '=' value                     attribute
 *           | NAME '=' expr                               constant or alias
 *   body   := expr                                        (two parameters)
 *           | cases                                       (zero or one)
 *   cases  := case { '.' case }
 *   case   := '(' expr ',' acts ')' | expr ',' acts
 *   acts   := act { '.' act }
 *   act    := drop ['(' expr ')'] | mark | notify | modify '(' path ':=' expr ')'
 *   expr   := || && ! (== != < <= > >=) (+ -) (* /) unary - , primaries:
 *             NUMBER[unit] | NAME | expr '.' NAME | expr '(' [args] ')'
 *             | '(' expr ')' | inline '{' expr '}'
 *
 * Newlines are blanks: a statement ends where its expression cannot go on
 * (';' is optional).  Recursion is bounded (OQ_MAX_DEPTH), so no input can
 * exhaust the stack.
 */
#include "openqueue/oq_int.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

int oq_error_at(struct oq_src *s, int line, int col, const char *fmt, ...)
{
    if (s->failed)
        return -1;
    s->failed = 1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (s->errlen) {
        snprintf(s->err, s->errlen, "%s:%d:%d: %s", s->fname, line, col, msg);
        text_escape_inplace(s->err, s->errlen);
    }
    return -1;
}

int oq_error_tok(struct oq_src *s, int tok, const char *fmt, ...)
{
    if (s->failed)
        return -1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const struct tok *t = &s->toks[tok];
    return oq_error_at(s, t->line, t->col, "%s", msg);
}

void oq_tok_text(const struct oq_src *s, int tok, char *buf, size_t cap)
{
    const struct tok *t = &s->toks[tok];
    size_t n = t->len < cap - 1 ? t->len : cap - 1;
    memcpy(buf, s->text + t->start, n);
    buf[n] = '\0';
}

int oq_tok_is(const struct oq_src *s, int tok, const char *word)
{
    const struct tok *t = &s->toks[tok];
    return t->kind == T_IDENT && strlen(word) == t->len && !memcmp(s->text + t->start, word, t->len);
}

/* ----------------------------------------------------------------- lexer */

static const struct { const char *name; uint8_t unit; double scale; } units[] = {
    { "B", U_BYTES, 1 }, { "KB", U_BYTES, 1e3 }, { "kB", U_BYTES, 1e3 }, { "MB", U_BYTES, 1e6 },
    { "GB", U_BYTES, 1e9 }, { "KiB", U_BYTES, 1024 }, { "MiB", U_BYTES, 1048576 },
    { "p", U_PKTS, 1 }, { "pkt", U_PKTS, 1 }, { "pkts", U_PKTS, 1 },
    { "bps", U_BPS, 1 }, { "kbps", U_BPS, 1e3 }, { "Kbps", U_BPS, 1e3 }, { "Mbps", U_BPS, 1e6 },
    { "Gbps", U_BPS, 1e9 },
    { "ps", U_PS, 1 }, { "ns", U_PS, 1e3 }, { "us", U_PS, 1e6 }, { "ms", U_PS, 1e9 }, { "s", U_PS, 1e12 },
};

static int add_tok(struct oq_src *s, struct tok t)
{
    if (s->ntoks >= OQ_MAX_TOKENS - (t.kind != T_EOF))
        return oq_error_at(s, t.line, t.col, "too many tokens (more than %d)", OQ_MAX_TOKENS);
    s->toks[s->ntoks++] = t;
    return 0;
}

int oq_lex(struct oq_src *s)
{
    /* every token but the last takes at least one byte */
    size_t cap = s->len + 1;
    if (cap > OQ_MAX_TOKENS)
        cap = OQ_MAX_TOKENS;
    s->toks = calloc(cap, sizeof *s->toks);
    if (!s->toks)
        return oq_error_at(s, 1, 1, "out of memory");
    const char *x = s->text;
    size_t i = 0, n = s->len;
    int line = 1;
    size_t bol = 0;
    while (i < n) {
        char c = x[i];
        int col = (int)(i - bol) + 1;
        if (c == '\n') {
            line++;
            bol = ++i;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '/' && i + 1 < n && x[i + 1] == '/') {
            while (i < n && x[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < n && x[i + 1] == '*') {
            int l0 = line, c0 = col;
            i += 2;
            while (i + 1 < n && !(x[i] == '*' && x[i + 1] == '/')) {
                if (x[i] == '\n') {
                    line++;
                    bol = i + 1;
                }
                i++;
            }
            if (i + 1 >= n)
                return oq_error_at(s, l0, c0, "unterminated comment");
            i += 2;
            continue;
        }
        struct tok t = { .line = line, .col = col, .start = (uint32_t)i };
        if (isalpha((unsigned char)c) || c == '_') {
            while (i < n && (isalnum((unsigned char)x[i]) || x[i] == '_'))
                i++;
            t.kind = T_IDENT;
        } else if (isdigit((unsigned char)c)) {
            double v = 0, scale = 1;
            int frac = 0, digits = 0;
            while (i < n && (isdigit((unsigned char)x[i]) || (x[i] == '.' && !frac && i + 1 < n && isdigit((unsigned char)x[i + 1])))) {
                if (x[i] == '.') {
                    frac = 1;
                } else {
                    if (++digits > 18)
                        return oq_error_at(s, line, col, "number has too many digits");
                    v = v * 10 + (x[i] - '0');
                    if (frac)
                        scale *= 10;
                }
                i++;
            }
            t.num = v / scale;
            t.unit = U_NONE;
            if (i < n && x[i] == '%') {
                t.unit = U_PERCENT;
                i++;
            } else if (i < n && isalpha((unsigned char)x[i])) {
                size_t u0 = i;
                while (i < n && isalpha((unsigned char)x[i]))
                    i++;
                size_t ul = i - u0;
                size_t k;
                for (k = 0; k < sizeof units / sizeof units[0]; k++)
                    if (strlen(units[k].name) == ul && !memcmp(units[k].name, x + u0, ul))
                        break;
                if (k == sizeof units / sizeof units[0])
                    return oq_error_at(s, line, (int)(u0 - bol) + 1, "unknown unit '%.*s' (B KB KiB MB MiB GB, p pkt pkts, %%, bps kbps Mbps Gbps, ps ns us ms s)", (int)(ul > 20 ? 20 : ul), x + u0);
                t.unit = units[k].unit;
                t.num *= units[k].scale;
            }
            t.kind = T_NUM;
        } else if (c == '"') {
            i++;
            while (i < n && x[i] != '"' && x[i] != '\n')
                i++;
            if (i >= n || x[i] != '"')
                return oq_error_at(s, line, col, "unterminated string");
            i++;
            t.kind = T_STR;
        } else {
            char d = i + 1 < n ? x[i + 1] : '\0';
            int two = 1;
            switch (c) {
            case '(': t.kind = T_LP; break;
            case ')': t.kind = T_RP; break;
            case '{': t.kind = T_LB; break;
            case '}': t.kind = T_RB; break;
            case ',': t.kind = T_COMMA; break;
            case ';': t.kind = T_SEMI; break;
            case '+': t.kind = T_PLUS; break;
            case '-': t.kind = T_MINUS; break;
            case '*': t.kind = T_STAR; break;
            case '/': t.kind = T_SLASH; break;
            case '.':
                if (d == '.' && i + 2 < n && x[i + 2] == '.') {
                    t.kind = T_ELLIPSIS;
                    i += 2;
                } else {
                    t.kind = T_DOT;
                }
                break;
            case '=': if (d == '=') { t.kind = T_EQ; two = 2; } else t.kind = T_ASSIGN; break;
            case ':': if (d == '=') { t.kind = T_DEFINE; two = 2; } else two = 0; break;
            case '<': if (d == '=') { t.kind = T_LE; two = 2; } else t.kind = T_LT; break;
            case '>': if (d == '=') { t.kind = T_GE; two = 2; } else t.kind = T_GT; break;
            case '!': if (d == '=') { t.kind = T_NE; two = 2; } else t.kind = T_NOT; break;
            case '&': if (d == '&') { t.kind = T_AND; two = 2; } else two = 0; break;
            case '|': if (d == '|') { t.kind = T_OR; two = 2; } else two = 0; break;
            default: two = 0;
            }
            if (!two) {
                if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
                    return oq_error_at(s, line, col, "unexpected character '%c'", c);
                return oq_error_at(s, line, col, "unexpected byte 0x%02x", (unsigned char)c);
            }
            i += (size_t)two;
        }
        t.len = (uint32_t)(i - t.start);
        if (add_tok(s, t) < 0)
            return -1;
    }
    struct tok e = { .kind = T_EOF, .line = line, .col = (int)(n - bol) + 1, .start = (uint32_t)n };
    return add_tok(s, e);
}

/* ---------------------------------------------------------------- parser */

struct parser {
    struct oq_src *s;
    uint32_t pos;
    int depth;
};

static int peek(const struct parser *p) { return p->s->toks[p->pos].kind; }
static int peek2(const struct parser *p)
{
    return p->pos + 1 < p->s->ntoks ? p->s->toks[p->pos + 1].kind : T_EOF;
}

static const char *kind_name(int k)
{
    static const char *const names[] = {
        "end of file", "name", "number", "string", "'('", "')'", "'{'", "'}'", "','", "';'", "'.'", "'='", "':='",
        "'+'", "'-'", "'*'", "'/'", "'<'", "'<='", "'>'", "'>='", "'=='", "'!='", "'&&'", "'||'", "'!'", "'...'",
    };
    return k >= 0 && k < (int)(sizeof names / sizeof names[0]) ? names[k] : "?";
}

static int unexpected(struct parser *p, const char *want)
{
    int k = peek(p);
    if (k == T_ELLIPSIS)
        return oq_error_tok(p->s, (int)p->pos, "'...' is the figures' shorthand, not OpenQueue: write every queue and port out");
    if (k == T_IDENT || k == T_NUM) {
        char buf[40];
        oq_tok_text(p->s, (int)p->pos, buf, sizeof buf);
        return oq_error_tok(p->s, (int)p->pos, "expected %s, found '%s'", want, buf);
    }
    return oq_error_tok(p->s, (int)p->pos, "expected %s, found %s", want, kind_name(k));
}

static int expect(struct parser *p, int kind, const char *want)
{
    if (peek(p) != kind)
        return unexpected(p, want);
    p->pos++;
    return 0;
}

static int new_node(struct parser *p, int kind, int tok)
{
    struct oq_src *s = p->s;
    if (s->nnodes == s->capnodes) {
        uint32_t cap = s->capnodes ? s->capnodes * 2 : 256;
        struct node *nn = realloc(s->nodes, cap * sizeof *nn);
        if (!nn)
            return oq_error_tok(s, tok, "out of memory");
        s->nodes = nn;
        s->capnodes = cap;
    }
    struct node *nd = &s->nodes[s->nnodes];
    memset(nd, 0, sizeof *nd);
    nd->kind = (uint8_t)kind;
    nd->tok = tok;
    nd->a = nd->b = nd->next = -1;
    return (int)s->nnodes++;
}

static int parse_expr(struct parser *p);

static int enter(struct parser *p)
{
    if (++p->depth > OQ_MAX_DEPTH)
        return oq_error_tok(p->s, (int)p->pos, "expression nested too deeply (more than %d levels)", OQ_MAX_DEPTH);
    return 0;
}

/* Arguments of a call, after '(' up to and including ')'. */
static int parse_args(struct parser *p)
{
    int first = -1, last = -1;
    if (peek(p) == T_RP) {
        p->pos++;
        return -2;            /* no arguments */
    }
    for (;;) {
        int a = parse_expr(p);
        if (a < 0)
            return -1;
        if (last < 0)
            first = a;
        else
            p->s->nodes[last].next = a;
        last = a;
        if (peek(p) == T_COMMA) {
            p->pos++;
            continue;
        }
        if (expect(p, T_RP, "',' or ')'") < 0)
            return -1;
        return first;
    }
}

static int parse_primary(struct parser *p)
{
    int t = (int)p->pos, nd;
    switch (peek(p)) {
    case T_NUM:
        p->pos++;
        if ((nd = new_node(p, N_NUM, t)) < 0)
            return -1;
        p->s->nodes[nd].num = p->s->toks[t].num;
        p->s->nodes[nd].unit = p->s->toks[t].unit;
        break;
    case T_IDENT:
        p->pos++;
        if (oq_tok_is(p->s, t, "inline") && peek(p) == T_LB) {
            p->pos++;
            int e = parse_expr(p);
            if (e < 0 || expect(p, T_RB, "'}' closing inline{") < 0)
                return -1;
            if ((nd = new_node(p, N_INLINE, t)) < 0)
                return -1;
            p->s->nodes[nd].a = e;
            return nd;
        }
        if ((nd = new_node(p, N_NAME, t)) < 0)
            return -1;
        break;
    case T_LP:
        p->pos++;
        if ((nd = parse_expr(p)) < 0 || expect(p, T_RP, "')'") < 0)
            return -1;
        break;
    default:
        return unexpected(p, "an expression");
    }
    /* postfix: .field and (args) */
    for (;;) {
        if (peek(p) == T_DOT && peek2(p) == T_IDENT) {
            p->pos++;
            int f = new_node(p, N_FIELD, (int)p->pos);
            if (f < 0)
                return -1;
            p->pos++;
            p->s->nodes[f].a = nd;
            nd = f;
        } else if (peek(p) == T_LP && p->s->nodes[nd].kind != N_NUM) {
            int c = new_node(p, N_CALL, (int)p->pos);
            if (c < 0)
                return -1;
            p->pos++;
            int args = parse_args(p);
            if (args == -1)
                return -1;
            p->s->nodes[c].a = nd;
            p->s->nodes[c].b = args == -2 ? -1 : args;
            p->s->nodes[c].tok = p->s->nodes[nd].tok;
            nd = c;
        } else {
            return nd;
        }
    }
}

static int parse_unary(struct parser *p)
{
    if (peek(p) == T_MINUS || peek(p) == T_NOT) {
        int t = (int)p->pos, op = peek(p);
        p->pos++;
        if (enter(p) < 0)
            return -1;
        int a = parse_unary(p);
        p->depth--;
        if (a < 0)
            return -1;
        int nd = new_node(p, N_UN, t);
        if (nd < 0)
            return -1;
        p->s->nodes[nd].op = (uint8_t)op;
        p->s->nodes[nd].a = a;
        return nd;
    }
    return parse_primary(p);
}

static int prec(int k)
{
    switch (k) {
    case T_OR: return 1;
    case T_AND: return 2;
    case T_EQ: case T_NE: return 3;
    case T_LT: case T_LE: case T_GT: case T_GE: return 4;
    case T_PLUS: case T_MINUS: return 5;
    case T_STAR: case T_SLASH: return 6;
    default: return 0;
    }
}

static int parse_binary(struct parser *p, int minprec)
{
    if (enter(p) < 0)
        return -1;
    int lhs = parse_unary(p);
    while (lhs >= 0) {
        int k = peek(p), pr = prec(k);
        if (!pr || pr < minprec)
            break;
        int t = (int)p->pos;
        p->pos++;
        int rhs = parse_binary(p, pr + 1);
        if (rhs < 0)
            return -1;
        int nd = new_node(p, N_BIN, t);
        if (nd < 0)
            return -1;
        p->s->nodes[nd].op = (uint8_t)k;
        p->s->nodes[nd].a = lhs;
        p->s->nodes[nd].b = rhs;
        lhs = nd;
    }
    p->depth--;
    return lhs;
}

static int parse_expr(struct parser *p) { return parse_binary(p, 1); }

static int parse_action(struct parser *p)
{
    int t = (int)p->pos;
    if (peek(p) != T_IDENT)
        return unexpected(p, "an action (drop, mark, notify, modify)");
    int nd = new_node(p, N_ACT, t);
    if (nd < 0)
        return -1;
    struct oq_src *s = p->s;
    p->pos++;
    if (oq_tok_is(s, t, "drop") || oq_tok_is(s, t, "drop_tail")) {
        s->nodes[nd].op = ACT_DROP;
        if (peek(p) == T_LP) {
            p->pos++;
            int e = parse_expr(p);
            if (e < 0 || expect(p, T_RP, "')' after the drop probability") < 0)
                return -1;
            s->nodes[nd].a = e;
        }
    } else if (oq_tok_is(s, t, "mark") || oq_tok_is(s, t, "notify")) {
        s->nodes[nd].op = oq_tok_is(s, t, "mark") ? ACT_MARK : ACT_NOTIFY;
        if (peek(p) == T_LP && peek2(p) == T_RP)
            p->pos += 2;
    } else if (oq_tok_is(s, t, "modify")) {
        s->nodes[nd].op = ACT_MODIFY;
        if (expect(p, T_LP, "'(' after modify") < 0)
            return -1;
        int target = parse_primary(p);
        if (target < 0 || expect(p, T_DEFINE, "':=' in modify(property := expression)") < 0)
            return -1;
        int e = parse_expr(p);
        if (e < 0 || expect(p, T_RP, "')' closing modify(") < 0)
            return -1;
        s->nodes[nd].a = e;
        s->nodes[nd].b = target;
    } else {
        char buf[40];
        oq_tok_text(s, t, buf, sizeof buf);
        return oq_error_tok(s, t, "unknown action '%s' (drop(P), mark, notify, modify(x := e))", buf);
    }
    return nd;
}

/* acts := act { '.' act } */
static int parse_actions(struct parser *p)
{
    int first = -1, last = -1, n = 0;
    for (;;) {
        int a = parse_action(p);
        if (a < 0)
            return -1;
        if (++n > OQ_MAX_ACTIONS)
            return oq_error_tok(p->s, p->s->nodes[a].tok, "more than %d sequenced actions", OQ_MAX_ACTIONS);
        if (last < 0)
            first = a;
        else
            p->s->nodes[last].next = a;
        last = a;
        if (peek(p) == T_DOT && peek2(p) == T_IDENT) {
            p->pos++;
            continue;
        }
        return first;
    }
}

/* Is the '(' at pos the start of a parenthesised case "(pred, acts)"?  A
 * comma at depth 1 before its matching ')' says so. */
static int paren_case(const struct parser *p)
{
    int depth = 0;
    for (uint32_t i = p->pos; i < p->s->ntoks; i++) {
        int k = p->s->toks[i].kind;
        if (k == T_LP)
            depth++;
        else if (k == T_RP && --depth == 0)
            return 0;
        else if (k == T_COMMA && depth == 1)
            return 1;
        else if (k == T_SEMI || k == T_EOF)
            return 0;
    }
    return 0;
}

/* One case; first: the expression already parsed (or -1). */
static int parse_case(struct parser *p, int first)
{
    int t = (int)p->pos, pred, paren = 0;
    if (first >= 0) {
        pred = first;
        t = p->s->nodes[first].tok;
    } else {
        if (peek(p) == T_LP && paren_case(p)) {
            paren = 1;
            p->pos++;
        }
        if ((pred = parse_expr(p)) < 0)
            return -1;
    }
    if (expect(p, T_COMMA, "',' between a condition's predicate and its action") < 0)
        return -1;
    int acts = parse_actions(p);
    if (acts < 0)
        return -1;
    if (paren && expect(p, T_RP, "')' closing the (predicate, action) case") < 0)
        return -1;
    int nd = new_node(p, N_CASE, t);
    if (nd < 0)
        return -1;
    p->s->nodes[nd].a = pred;
    p->s->nodes[nd].b = acts;
    return nd;
}

/* cases := case { '.' case }; first as for parse_case. */
static int parse_cases(struct parser *p, int first)
{
    int head = new_node(p, N_CASES, first >= 0 ? p->s->nodes[first].tok : (int)p->pos);
    if (head < 0)
        return -1;
    int last = -1, n = 0;
    for (;;) {
        int c = parse_case(p, first);
        first = -1;
        if (c < 0)
            return -1;
        if (++n > OQ_MAX_CASES)
            return oq_error_tok(p->s, p->s->nodes[c].tok, "more than %d cases in one condition", OQ_MAX_CASES);
        if (last < 0)
            p->s->nodes[head].a = c;
        else
            p->s->nodes[last].next = c;
        last = c;
        if (peek(p) == T_DOT && peek2(p) == T_LP) {
            p->pos++;
            continue;
        }
        return head;
    }
}

/* A value: an expression, or cases when a ',' follows the first one. */
static int parse_value(struct parser *p)
{
    if (peek(p) == T_LP && paren_case(p))
        return parse_cases(p, -1);
    int e = parse_expr(p);
    if (e < 0)
        return -1;
    if (peek(p) == T_COMMA)
        return parse_cases(p, e);
    return e;
}

static int add_stmt(struct parser *p, struct stmt st, int tok)
{
    struct oq_src *s = p->s;
    if (s->nstmts == s->capstmts) {
        uint32_t cap = s->capstmts ? s->capstmts * 2 : 64;
        struct stmt *ns = realloc(s->stmts, cap * sizeof *ns);
        if (!ns)
            return oq_error_tok(s, tok, "out of memory");
        s->stmts = ns;
        s->capstmts = cap;
    }
    s->stmts[s->nstmts++] = st;
    return 0;
}

static int ctor_of(const struct oq_src *s, int tok)
{
    if (oq_tok_is(s, tok, "Queue")) return E_QUEUE;
    if (oq_tok_is(s, tok, "Buffer")) return E_BUFFER;
    if (oq_tok_is(s, tok, "Port")) return E_PORT;
    return E_NONE;
}

static int parse_stmt(struct parser *p)
{
    struct oq_src *s = p->s;
    struct stmt st;
    memset(&st, 0, sizeof st);
    st.params[0] = st.params[1] = -1;
    int t = (int)p->pos;
    if (peek(p) != T_IDENT)
        return unexpected(p, "a statement (a name)");
    if (oq_tok_is(s, t, "import")) {
        p->pos++;
        if (peek(p) != T_STR)
            return unexpected(p, "a \"string\" after import");
        st.kind = S_IMPORT;
        st.name = (int)p->pos++;
        return add_stmt(p, st, t);
    }
    /* optional type word: "Queue q1 = Queue(128)" */
    int typed = ctor_of(s, t), type_tok = t;     /* type_tok: the type word, for the error below */
    if (typed != E_NONE && peek2(p) == T_IDENT) {
        p->pos++;
        t = (int)p->pos;
    }
    st.name = t;
    p->pos++;
    if (peek(p) == T_DOT) {                        /* attribute */
        p->pos++;
        if (peek(p) != T_IDENT)
            return unexpected(p, "an attribute name after '.'");
        st.kind = S_ATTR;
        st.attr = (int)p->pos++;
        if (expect(p, T_ASSIGN, "'=' after the attribute") < 0)
            return -1;
        if ((st.body = parse_value(p)) < 0)
            return -1;
        return add_stmt(p, st, t);
    }
    if (peek(p) == T_LP) {                         /* definition */
        p->pos++;
        while (peek(p) != T_RP) {
            if (st.nparams == 2)
                return oq_error_tok(s, (int)p->pos, "a definition takes at most two parameters (a comparator's x, y)");
            if (peek(p) != T_IDENT)
                return unexpected(p, "a parameter name");
            st.params[st.nparams++] = (int)p->pos++;
            if (peek(p) == T_COMMA)
                p->pos++;
            else if (peek(p) != T_RP)
                return unexpected(p, "',' or ')'");
        }
        p->pos++;
        if (expect(p, T_ASSIGN, "'=' after the parameters") < 0)
            return -1;
        st.kind = S_DEF;
        if (st.nparams == 2) {
            if ((st.body = parse_expr(p)) < 0)
                return -1;
            if (peek(p) == T_COMMA)
                return oq_error_tok(s, (int)p->pos, "a comparator (two parameters) is a predicate, not (predicate, action) cases");
        } else if ((st.body = parse_value(p)) < 0) {
            return -1;
        }
        return add_stmt(p, st, t);
    }
    if (expect(p, T_ASSIGN, "'=', '.' or '(' after a name") < 0)
        return -1;
    int c = (int)p->pos;
    int ctor = peek(p) == T_IDENT && peek2(p) == T_LP ? ctor_of(s, c) : E_NONE;
    if (typed != E_NONE && ctor != typed) {
        char buf[16];
        oq_tok_text(s, type_tok, buf, sizeof buf);
        return oq_error_tok(s, c, "a %s declaration needs %s(...) on the right", buf, buf);
    }
    if (ctor != E_NONE) {
        p->pos += 2;
        st.kind = S_ENTITY;
        st.ctor = (uint8_t)ctor;
        int args = parse_args(p);
        if (args == -1)
            return -1;
        st.body = args == -2 ? -1 : args;
        st.attr = c;
        return add_stmt(p, st, t);
    }
    st.kind = S_CONST;
    if ((st.body = parse_expr(p)) < 0)
        return -1;
    return add_stmt(p, st, t);
}

int oq_parse(struct oq_src *s)
{
    struct parser p = { .s = s, .pos = 0, .depth = 0 };
    while (peek(&p) != T_EOF) {
        if (peek(&p) == T_SEMI) {
            p.pos++;
            continue;
        }
        p.depth = 0;
        if (parse_stmt(&p) < 0)
            return -1;
        if (peek(&p) != T_SEMI && peek(&p) != T_EOF && peek(&p) != T_IDENT)
            return unexpected(&p, "';' or the next statement");
    }
    return 0;
}
