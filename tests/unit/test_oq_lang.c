/* test_oq_lang.c -- the OpenQueue language (src/openqueue): every shipped
 * policy compiles to the expected structure, and every class of syntax and
 * type error is reported at its file:line:column.  The runtime is tested in
 * test_oq_runtime.c.  Shipped policies are read from policies/ relative to
 * the current directory (tests/run.sh runs from the top of the tree). */
#include "openqueue/oq_int.h"
#include "test.h"

static char err_[600];

static struct oq_policy *comp(const char *text)
{
    return oq_compile(text, strlen(text), "t.oq", err_, sizeof err_);
}

/* The policy must fail with a message starting with want_loc ("t.oq:L:C:")
 * and containing want_msg. */
static int fails(const char *text, const char *want_loc, const char *want_msg)
{
    struct oq_policy *p = comp(text);
    if (p) {
        printf("  compiled, want error %s %s\n", want_loc, want_msg);
        oq_policy_free(p);
        return 0;
    }
    if (strncmp(err_, want_loc, strlen(want_loc)) || !strstr(err_, want_msg)) {
        printf("  error '%s', want '%s ... %s'\n", err_, want_loc, want_msg);
        return 0;
    }
    return 1;
}

#define Q1 "q1 = Queue(8p); out = Port(100%, q1);\n"

TEST(shipped_policies_compile)
{
    static const struct { const char *file; uint32_t nq, nb, np; } files[] = {
        { "fifo_taildrop", 1, 0, 1 }, { "red3", 1, 0, 1 }, { "srpt", 1, 0, 1 }, { "rsrpt", 1, 0, 1 },
        { "lqd", 4, 1, 4 }, { "lqf", 4, 0, 1 }, { "sqf", 4, 0, 1 }, { "maxqf", 4, 0, 1 }, { "minqf", 4, 0, 1 },
        { "crr", 4, 0, 1 }, { "wrr", 3, 0, 1 }, { "strict_priority", 3, 0, 1 }, { "alg_a", 1, 0, 1 },
        { "alg_b", 1, 0, 1 }, { "alg_c", 1, 0, 1 }, { "crossbar", 21, 0, 9 }, { "multi_fifo", 4, 0, 1 },
        { "sample_fig218", 2, 0, 1 },
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "policies/%s.oq", files[i].file);
        struct oq_policy *p = oq_compile_file(path, err_, sizeof err_);
        if (!p)
            printf("  %s\n", err_);
        CHECK(p != NULL);
        CHECK_EQ(oq_nqueues(p), files[i].nq);
        CHECK_EQ(oq_nbuffers(p), files[i].nb);
        CHECK_EQ(oq_nports(p), files[i].np);
        oq_policy_free(p);
    }
}

TEST(comparators_compile_to_rank_keys)
{
    struct oq_policy *p = comp(Q1 "c(p1, p2) = p1.value * 2 + p1.size > p2.value * 2 + p2.size; q1.procPrio = c;");
    CHECK(p != NULL);
    const struct cmp *m = &p->cmps[p->q[0].proc];
    CHECK_EQ(m->mode, CM_KEY_DESC);
    CHECK_EQ(m->key.len, 5);                 /* load, const, mul, load, add */
    CHECK_EQ(m->arrival_order, 0);
    CHECK_EQ(p->cmps[p->q[0].adm].arrival_order, 1);   /* default admPrio: fifo */
    oq_policy_free(p);
    /* not the same expression on both sides: general bytecode */
    p = comp(Q1 "c(p1, p2) = p1.value > p2.value || (p1.value == p2.value && p1.size < p2.size); q1.procPrio = c;");
    CHECK(p != NULL);
    CHECK_EQ(p->cmps[p->q[0].proc].mode, CM_GENERAL);
    oq_policy_free(p);
    p = comp(Q1 "c(p1, p2) = p1.value < p2.size; q1.procPrio = c;");
    CHECK(p != NULL);
    CHECK_EQ(p->cmps[p->q[0].proc].mode, CM_GENERAL);
    oq_policy_free(p);
    /* inline{}: a priority value, largest first */
    p = comp(Q1 "q1.admPrio = inline{Packet.value + 1};");
    CHECK(p != NULL);
    CHECK_EQ(p->cmps[p->q[0].adm].mode, CM_KEY_DESC);
    oq_policy_free(p);
}

TEST(conditions_and_names)
{
    /* constants with units, aliases of routines, user routines shadow the
     * library, typed declarations, sequenced actions, getHOL */
    struct oq_policy *p = comp("B = 2 * 16KB; myorder = order2; order2 = lvf;\n"
                               "fifo(p1, p2) = p1.arrival > p2.arrival;\n"
                               "Queue q1 = Queue(B); Port out = Port(10Gbps, q1);\n"
                               "q1.admPrio = myorder; q1.procPrio = fifo;\n"
                               "q1.postAdmAct = (pkt.value > getHOL().value, mark . notify . modify(weightAdm := now / 1000));\n"
                               "q1.weightSched = 3;");
    if (!p)
        printf("  %s\n", err_);
    CHECK(p != NULL);
    CHECK_EQ(p->q[0].size, 32000);
    CHECK_EQ(p->q[0].unit, U_BYTES);
    CHECK_EQ(p->q[0].init[3], 3);
    CHECK_EQ(p->pt[0].rate_kind, OQ_RATE_BPS);
    CHECK_EQ(p->pt[0].rate, 10e9);
    CHECK_EQ(p->cmps[p->q[0].adm].mode, CM_KEY_ASC);   /* the library's lvf, through two aliases */
    CHECK_EQ(p->cmps[p->q[0].proc].mode, CM_KEY_DESC); /* the policy's own "fifo" */
    const struct cond *c = &p->conds[p->q[0].postadm];
    CHECK_EQ(c->ncases, 1);
    CHECK_EQ(p->cases[c->first_case].nactions, 3);
    oq_policy_free(p);
    /* newlines end statements; ';' optional; comments of both kinds */
    p = comp("/* a\n comment */ q1 = Queue(4p) // x\n out = Port(q1)\n tailDrop(q) = q.currSize >= q.size, drop(1)\n q1.congestion = tailDrop(q1)\n");
    CHECK(p != NULL);
    oq_policy_free(p);
}

TEST(syntax_errors)
{
    CHECK(fails("q1 = Queue(128p\n", "t.oq:2:1:", "expected ',' or ')'"));
    CHECK(fails(Q1 "q1.admPrio = ;", "t.oq:2:14:", "expected an expression"));
    CHECK(fails("q1 = Queue(8p);\nq2 = Queue(8p); ...;", "t.oq:2:17:", "'...'"));
    CHECK(fails("q1 = Queue(8Q);", "t.oq:1:13:", "unknown unit 'Q'"));
    CHECK(fails("q1 = Queue(8p); /* open", "t.oq:1:17:", "unterminated comment"));
    CHECK(fails("q1 = Queue(8p); $", "t.oq:1:17:", "unexpected character '$'"));
    CHECK(fails(Q1 "q1.congestion = (currSize > 1, explode);", "t.oq:2:32:", "unknown action 'explode'"));
    CHECK(fails(Q1 "c(a, b) = a.size < b.size, drop(1);", "t.oq:2:26:", "a comparator (two parameters) is a predicate"));
    CHECK(fails(Q1 "c(a, b, d) = a.size;", "t.oq:2:9:", "at most two parameters"));
    /* a type word as the first statement's name, with no constructor on
     * the right: the message names the type word (the fuzzer found it read
     * the token before the first, out of bounds) */
    CHECK(fails("Queue  = fifo;\n", "t.oq:1:10:", "a Queue declaration needs Queue(...) on the right"));
    CHECK(fails(Q1 "Port x = Queue(8p);", "t.oq:2:10:", "a Port declaration needs Port(...) on the right"));
    /* nesting is bounded: no stack overflow on deep input */
    char deep[400];
    strcpy(deep, "B = ");
    memset(deep + 4, '(', 200);
    strcpy(deep + 204, "1");
    CHECK(fails(deep, "t.oq:1:", "nested too deeply"));
}

TEST(type_errors)
{
    /* unknown field */
    CHECK(fails(Q1 "c(p1, p2) = p1.arival < p2.arrival;\nq1.procPrio = c;", "t.oq:2:16:", "unknown field 'arival' of Packet"));
    CHECK(fails(Q1 "q1.congestion = (curSize > 3, drop(1));", "t.oq:2:18:", "unknown name 'curSize'"));
    CHECK(fails(Q1 "q1.congestion = (pkt.tos > 3, drop(1));", "t.oq:2:22:", "unknown field 'tos' of Packet"));
    /* unused definitions are checked too */
    CHECK(fails(Q1 "unused(p1, p2) = p1.foo < p2.foo;", "t.oq:2:21:", "unknown field 'foo' of Packet"));
    /* writing a read-only property */
    CHECK(fails(Q1 "q1.currSize = 5;", "t.oq:2:4:", "'currSize' of Queue is read-only"));
    CHECK(fails(Q1 "q1.size = 5;", "t.oq:2:4:", "read-only (set by the constructor)"));
    CHECK(fails(Q1 "q1.postAdmAct = (true, modify(currSize := 0));", "t.oq:2:31:", "'currSize' of Queue is read-only"));
    CHECK(fails(Q1 "q1.postAdmAct = (true, modify(pkt.arrival := 0));", "t.oq:2:35:", "'arrival' of Packet is read-only"));
    /* a call inside a comparator */
    CHECK(fails(Q1 "c(p1, p2) = fifo(p1, p2);\nq1.procPrio = c;", "t.oq:2:13:", "call to 'fifo' inside a comparator"));
    CHECK(fails(Q1 "q1.congestion = (max(currSize, 1) > 3, drop(1));", "t.oq:2:18:", "call to 'max'"));
    /* a comparator sees only its arguments */
    CHECK(fails(Q1 "c(p1, p2) = p1.arrival < now;\nq1.procPrio = c;", "t.oq:2:26:", "'now' in a comparator"));
    /* cycles of definitions */
    CHECK(fails(Q1 "a = b;\nb = a;\nq1.admPrio = a;", "t.oq:", "cycle of definitions"));
    CHECK(fails("B = C + 1;\nC = 2 * B;\nq1 = Queue(B); out = Port(q1);", "t.oq:", "cycle of definitions"));
    /* a queue attached to two ports, or in two buffers */
    CHECK(fails("q1 = Queue(8p);\nout = Port(q1);\nout2 = Port(100%, q1);", "t.oq:3:19:", "already attached to port 'out'"));
    CHECK(fails(Q1 "b1 = Buffer(8p, q1);\nb2 = Buffer(8p, q1);", "t.oq:3:17:", "already in buffer 'b1'"));
    /* drop probability constant outside [0, 1] */
    CHECK(fails(Q1 "q1.congestion = (currSize > 3, drop(1.5));", "t.oq:2:37:", "drop probability 1.5 is outside [0, 1]"));
    CHECK(fails(Q1 "q1.congestion = (currSize > 3, drop(0 - 0.5));", "t.oq:2:39:", "outside [0, 1]"));
    /* empty port, queue on no port, no queue at all */
    CHECK(fails("q1 = Queue(8p);\nout = Port(100%);", "t.oq:2:7:", "empty port"));
    CHECK(fails("q1 = Queue(8p);\nq2 = Queue(8p); out = Port(q1);", "t.oq:2:1:", "queue 'q2' is attached to no port"));
    CHECK(fails("B = 3;", "t.oq:1:1:", "at least one queue"));
    /* attributes */
    CHECK(fails(Q1 "q1.proPrio = fifo;", "t.oq:2:4:", "did you mean 'procPrio'"));
    CHECK(fails(Q1 "q1.admPrio = fifo;\nq1.admPrio = rfifo;", "t.oq:3:4:", "already set at line 2"));
    CHECK(fails(Q1 "q1.admPrio = nosuch;", "t.oq:2:14:", "unknown routine 'nosuch'"));
    CHECK(fails(Q1 "q1.admPrio = tailDrop;", "t.oq:", "is a condition"));
    CHECK(fails(Q1 "q1.congestion = fifo;", "t.oq:", "is a comparator"));
    CHECK(fails(Q1 "q1.postAdmAct = (true, drop(1));", "t.oq:2:24:", "drop is a congestion() action"));
    CHECK(fails("q1 = Queue(8p); q2 = Queue(8p); out = Port(q1, q2);\nq1.congestion = tailDrop(q2);", "t.oq:2:26:", "instantiated with 'q2'"));
    CHECK(fails(Q1 "q1.congAction = drop_tail(0.5);", "t.oq:2:17:", "congAction without a congestion predicate"));
    CHECK(fails(Q1 "q1.congestion = tailDrop; q1.congAction = mark;", "t.oq:2:43:", "congAction applies to an inline"));
    /* types in expressions */
    CHECK(fails(Q1 "c(q1, q2) = q1.getHOL() < q2.getHOL();\nout.schedPrio = c;", "t.oq:2:", "not a number"));
    CHECK(fails(Q1 "c(p1, p2) = p1.getHOL().size < p2.getHOL().size;\nq1.procPrio = c;", "t.oq:2:", "getHOL() is a Queue primitive"));
    CHECK(fails(Q1 "q1.congestion = (port.currQueue.port.currQueue.length > 1, drop(1));", "t.oq:2:", "path too long"));
    CHECK(fails(Q1 "q1.congestion = (q1.length > 1, drop(1));", "t.oq:2:18:", "'q1' names an entity"));
    CHECK(fails("q1 = Queue(8p); out = Port(50, q1);", "t.oq:1:28:", "a port rate needs a unit"));
    CHECK(fails("q1 = Queue(0p); out = Port(q1);", "t.oq:1:12:", "at least 1"));
    CHECK(fails("q1 = Queue(1Gbps); out = Port(q1);", "t.oq:1:12:", "bytes (B, KB, ...) or packets"));
    CHECK(fails(Q1 "fifo(a, b) = a.size < b.size;\nfifo(a, b) = a.size > b.size;", "t.oq:3:1:", "'fifo' is already defined at line 2"));
    /* the evaluation stack is bounded at compile time */
    char big[2000] = Q1 "q1.congestion = (";
    for (int i = 0; i < 40; i++)
        strcat(big, "1 + (");
    strcat(big, "1");
    for (int i = 0; i < 40; i++)
        strcat(big, ")");
    strcat(big, " > 0, drop(1));");
    CHECK(fails(big, "t.oq:2:", "expression too complex"));
}

TEST(escaped_messages)
{
    /* text from the file reaches the message escaped (core/text.h) */
    CHECK(fails(Q1 "q1.admPrio = a\x1b" "b;", "t.oq:2:15:", "unexpected byte 0x1b"));
    CHECK(!strchr(err_, 0x1b));
    struct oq_policy *p = oq_compile("q\x1b", 2, "bad\x1bname.oq", err_, sizeof err_);
    CHECK(p == NULL);
    CHECK(!strchr(err_, 0x1b));
    CHECK(strstr(err_, "bad\\x1bname.oq:1:2:") != NULL);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_oq_lang";
    RUN(shipped_policies_compile);
    RUN(comparators_compile_to_rank_keys);
    RUN(conditions_and_names);
    RUN(syntax_errors);
    RUN(type_errors);
    RUN(escaped_messages);
    return test_summary();
}
