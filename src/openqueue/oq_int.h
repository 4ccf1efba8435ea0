/*
 * oq_int.h -- OpenQueue internals shared by the lexer (oq_lex.c), parser
 * (oq_parse.c), checker/compiler (oq_check.c), printer (oq_print.c),
 * bytecode evaluator and runtime (oq_rt.c).  Not a public interface.
 */
#ifndef ROCC_OQ_INT_H
#define ROCC_OQ_INT_H

#include <stdarg.h>
#include <stdint.h>

#include "openqueue/oq.h"

/* Limits: they bound memory, stack depth and time for any input (fuzzed). */
#define OQ_MAX_TOKENS   200000  /* tokens in one file */
#define OQ_MAX_DEPTH    128     /* nesting of parentheses / operators in the parser */
#define OQ_STACK        32      /* evaluation stack of one compiled expression */
#define OQ_MAX_HOPS     3       /* x.port.currQueue.getHOL(): entity steps of one load */
#define OQ_MAX_ENTITIES 4096    /* queues + buffers + ports */
#define OQ_MAX_CASES    64      /* cases of one condition */
#define OQ_MAX_ACTIONS  16      /* sequenced actions of one case */

/* ---------------------------------------------------------------- tokens */
enum tok_kind {
    T_EOF, T_IDENT, T_NUM, T_STR,
    T_LP, T_RP, T_LB, T_RB, T_COMMA, T_SEMI, T_DOT, T_ASSIGN, T_DEFINE,
    T_PLUS, T_MINUS, T_STAR, T_SLASH,
    T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, T_AND, T_OR, T_NOT, T_ELLIPSIS,
};
/* Units of a number literal. */
enum unit { U_NONE, U_BYTES, U_PKTS, U_PERCENT, U_BPS, U_PS };

struct tok {
    uint8_t kind;
    uint8_t unit;
    int line, col;
    uint32_t start, len;   /* in the source text */
    double num;            /* T_NUM: value in base units (bytes, bps, ps) */
};

/* ------------------------------------------------------------------- AST */
enum node_kind {
    N_NUM,      /* num, unit */
    N_NAME,     /* tok = the identifier */
    N_FIELD,    /* a = base expression, tok = field name */
    N_CALL,     /* a = callee (N_NAME or N_FIELD), b = first argument (args chained by next) */
    N_BIN,      /* op = token kind, a, b */
    N_UN,       /* op = T_MINUS or T_NOT, a */
    N_INLINE,   /* a = the expression inside inline{...} */
    N_CASES,    /* a = first N_CASE (chained by next) */
    N_CASE,     /* a = predicate, b = first action (chained by next) */
    N_ACT,      /* op = ACT_*, a = probability / value expression, b = target (N_MODIFY) */
};
enum act_kind { ACT_DROP, ACT_MARK, ACT_NOTIFY, ACT_MODIFY };

struct node {
    uint8_t kind, op, unit;
    int tok;               /* token of the node (for line:col and names) */
    int a, b, next;        /* child node indices, -1 for none */
    double num;
};

/* Top-level statements. */
enum stmt_kind {
    S_IMPORT,   /* tok = string */
    S_ENTITY,   /* name tok, ctor = Queue/Buffer/Port, args = first argument node */
    S_DEF,      /* name tok, nparams (0..2), params toks, body node */
    S_ATTR,     /* obj tok, attr tok, value node */
    S_CONST,    /* name tok, value node (a constant expression or a routine alias) */
};
struct stmt {
    uint8_t kind;
    uint8_t nparams;
    uint8_t ctor;          /* S_ENTITY: E_QUEUE, E_BUFFER, E_PORT */
    int name, attr;        /* tokens */
    int params[2];         /* tokens */
    int body;              /* node */
};

/* ------------------------------------------------------------- compiled */
enum etype { E_NONE, E_NUM, E_PACKET, E_QUEUE, E_BUFFER, E_PORT };

/* Base of a load: where the first entity comes from. */
enum lbase { LB_ARG0, LB_ARG1, LB_SUBJECT, LB_PKT, LB_NOW, LB_CONST };
/* Entity steps. */
enum lhop { H_PORT, H_BUFFER, H_CURQ, H_HOL };
/* Properties (numbers) of each entity type. */
enum prop {
    /* Packet */
    P_ARRIVAL, P_SIZE, P_QUEUE, P_VALUE, P_PROCESSING, P_SLACK, P_FLOW, P_POLICYID,
    /* Queue / Buffer / Port */
    P_QSIZE, P_CURRSIZE, P_LENGTH, P_BYTES, P_ADMSTATE, P_SCHEDSTATE, P_WEIGHTADM, P_WEIGHTSCHED,
    P_ID, P_DROPPED, P_RATE,
    P_COUNT
};
struct load {
    uint8_t base, nhops, prop;
    uint8_t hops[OQ_MAX_HOPS];
};

enum opcode {
    OP_CONST, OP_LOAD, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG, OP_NOT,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR,
};
struct insn {
    uint8_t op;
    uint32_t arg;          /* OP_CONST: index into consts; OP_LOAD: into loads */
};
struct code { uint32_t start, len; };

/* A comparator compiled for one element type. */
enum cmp_mode { CM_KEY_ASC, CM_KEY_DESC, CM_GENERAL };
struct cmp {
    int name;              /* token of its name; -1 for inline */
    const char *label;     /* name for printing */
    uint8_t type;          /* E_PACKET or E_QUEUE */
    uint8_t mode;
    uint8_t arrival_order; /* key is arrival ascending: insertion order (O(1) ring) */
    uint8_t uses_dyn;      /* reads a field that changes while queued (processing, value) */
    struct code key;       /* CM_KEY_*: key of ARG0 */
    struct code full;      /* the whole predicate over ARG0, ARG1 */
    int def;               /* statement index of the definition, -1 inline/builtin */
};

struct action {
    uint8_t kind;          /* ACT_* */
    uint8_t prob_const;    /* drop: probability is the constant prob */
    double prob;
    struct code expr;      /* drop: probability; modify: new value */
    struct load target;    /* modify */
};
struct cond_case {
    struct code pred;
    uint32_t first_action, nactions;
};
struct cond {
    const char *label;
    uint8_t type;          /* subject type */
    uint32_t first_case, ncases;
};

struct oq_queue {
    const char *name;
    uint8_t unit;          /* U_BYTES or U_PKTS */
    double size;
    int buffer, port;      /* indices, -1 none */
    int adm, proc;         /* cmp indices, -1 = default fifo */
    int congestion, postadm;   /* cond indices, -1 none */
    double init[4];        /* admState, schedState, weightAdm, weightSched */
    int line;
};
struct oq_buffer {
    const char *name;
    uint8_t unit;
    double size;
    uint32_t first_q, nq;  /* into qlist */
    int qprio, congestion, postadm;
    double admstate;
};
enum { QS_FIRST, QS_FLOW, QS_RANDOM };
struct oq_port {
    const char *name;
    int rate_kind;
    double rate;
    uint32_t first_q, nq;  /* into qlist */
    int sched, postsched;
    int qselect;
    double schedstate;
};

struct oq_policy {
    char *fname;
    char *strings;         /* names, NUL-separated */
    struct oq_queue *q;   uint32_t nq;
    struct oq_buffer *b;  uint32_t nb;
    struct oq_port *pt;   uint32_t np;
    uint32_t *qlist;      uint32_t nqlist;
    struct cmp *cmps;     uint32_t ncmps;
    struct cond *conds;   uint32_t nconds;
    struct cond_case *cases; uint32_t ncases;
    struct action *acts;  uint32_t nacts;
    struct insn *code;    uint32_t ncode;
    double *consts;       uint32_t nconsts;
    struct load *loads;   uint32_t nloads;
    char **imports;       uint32_t nimports;
};

/* --------------------------------------------------------------- helpers */
struct oq_src {
    const char *text;
    size_t len;
    const char *fname;
    char *err;
    size_t errlen;
    int failed;
    struct tok *toks; uint32_t ntoks;
    struct node *nodes; uint32_t nnodes, capnodes;
    struct stmt *stmts; uint32_t nstmts, capstmts;
};

/* Record an error at (line, col) once (the first wins); returns -1. */
int oq_error_at(struct oq_src *s, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int oq_error_tok(struct oq_src *s, int tok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int oq_lex(struct oq_src *s);
int oq_parse(struct oq_src *s);
struct oq_policy *oq_check(struct oq_src *s);
/* Token text copied (NUL-terminated, cut to cap). */
void oq_tok_text(const struct oq_src *s, int tok, char *buf, size_t cap);
int oq_tok_is(const struct oq_src *s, int tok, const char *word);

/* Names of things for messages and printing. */
const char *oq_prop_name(int prop);
const char *oq_etype_name(int t);
const char *oq_hop_name(int h);

/* Evaluation of compiled code (oq_rt.c). */
struct oq_env;
double oq_eval(const struct oq_policy *p, struct code c, const struct oq_env *env);

/* The built-in routine library (oq_check.c), OpenQueue source. */
extern const char oq_builtin_src[];

#endif
