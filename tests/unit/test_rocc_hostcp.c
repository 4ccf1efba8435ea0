/*
 * test_rocc_hostcp.c -- RoCC §3.6, rate computation at the host: the two
 * host CNP forms (encode, strict validation, authenticator), the registry,
 * and that the host's rate equals what the switch-side CP computes for the
 * same period (rocc_cp_update vs rocc_hostcp_rate on the CNP's bytes).
 */
#include "test.h"

#include "cc/rocc_cnpauth.h"
#include "cc/rocc_hostcp.h"
#include "core/rng.h"

static const uint8_t KEY[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
#define CP_ADDR 0x0a630001u
#define HOST    0x0a630102u
static const struct rocc_cp_bind BIND[1] = {{.node = 1, .addr = CP_ADDR}};

static struct rocc_cnp base(int form)
{
    struct rocc_cnp c;
    memset(&c, 0, sizeof c);
    c.rate_units = 2000; c.cp_id = 0x103; c.src_ip = HOST; c.dst_ip = 0x0a630202u;
    c.sport = 49152; c.dport = ROCC_ROCEV2_UDP_PORT; c.dest_qpn = 7; c.psn = 99;
    c.form = (uint8_t)form; c.q_cur = 300; c.q_old = 200;
    return c;
}

static struct rocc_cp_params p40(void)
{
    struct rocc_cp_params p;
    rocc_cp_params_default(&p, 40000000000ull);
    return p;
}

TEST(form_sizes)
{
    CHECK_EQ(rocc_cnp_form_bytes(ROCC_CNP_FORM_RATE, 0), 52u);
    CHECK_EQ(rocc_cnp_form_bytes(ROCC_CNP_FORM_RATE, 1), 60u);
    CHECK_EQ(rocc_cnp_form_bytes(ROCC_CNP_FORM_HOST_FULL, 0), 92u);
    CHECK_EQ(rocc_cnp_form_bytes(ROCC_CNP_FORM_HOST_FULL, 1), 100u);
    CHECK_EQ(rocc_cnp_form_bytes(ROCC_CNP_FORM_HOST_REG, 0), 60u);
    CHECK_EQ(rocc_cnp_form_bytes(ROCC_CNP_FORM_HOST_REG, 1), 68u);
    CHECK_EQ(rocc_cnp_form_bytes(3, 0), 0u);
}

/* Byte layout of rocc_cnp.h, checked on the wire bytes. */
TEST(full_layout_roundtrip)
{
    struct rocc_cp_params p = p40();
    struct rocc_cnp c = base(ROCC_CNP_FORM_HOST_FULL), d;
    struct rocc_cnp_policy pol = {.forms = ROCC_CNP_FORMS_HOST};
    uint8_t b[ROCC_CNP_MAX_ICMP_BYTES];

    p.md_qmax = ROCC_CP_MDQ_HALF;
    rocc_hostcp_put_params(&c, &p);
    CHECK_EQ(rocc_cnp_encode_form(&c, NULL, CP_ADDR, HOST, b, sizeof b), 92u);
    CHECK_EQ(b[0], 253); CHECK_EQ(b[1], 2);
    CHECK_EQ(b[4] << 24 | b[5] << 16 | b[6] << 8 | b[7], 2000);      /* F */
    CHECK_EQ(b[52] << 24 | b[53] << 16 | b[54] << 8 | b[55], 300);   /* Qcur */
    CHECK_EQ(b[56] << 24 | b[57] << 16 | b[58] << 8 | b[59], 200);   /* Qold */
    CHECK_EQ(b[60] << 24 | b[61] << 16 | b[62] << 8 | b[63], 250);   /* Qref 150 KB / 600 */
    CHECK_EQ(b[76] << 24 | b[77] << 16 | b[78] << 8 | b[79], 4000);  /* Fmax */
    CHECK_EQ(b[80] << 24 | b[81] << 16 | b[82] << 8 | b[83], 19661); /* α̃ 0.3 */
    CHECK_EQ(b[88], ROCC_CNP_HF_MDQ_HALF);
    CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST, b, 92, &d), ROCC_CNP_OK);
    CHECK_EQ(d.form, ROCC_CNP_FORM_HOST_FULL);
    CHECK_EQ(d.q_cur, 300u); CHECK_EQ(d.q_old, 200u); CHECK_EQ(d.q_max, p.q_max);
    CHECK_EQ(d.beta_q16, p.beta_q16); CHECK_EQ(d.hflags, ROCC_CNP_HF_MDQ_HALF);
    CHECK_EQ(d.dest_qpn, 7u); CHECK_EQ(d.rate_units, 2000u);
    /* a 92-byte message cut to 52 or padded to 93 is refused */
    CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST, b, 52, NULL), ROCC_CNP_ELEN);
    CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST, b, 93, NULL), ROCC_CNP_ELEN);
}

TEST(reg_layout_roundtrip)
{
    struct rocc_cnp c = base(ROCC_CNP_FORM_HOST_REG), d;
    struct rocc_cnp_policy pol = {.forms = 1u << ROCC_CNP_FORM_HOST_REG};
    uint8_t b[ROCC_CNP_MAX_ICMP_BYTES];

    CHECK_EQ(rocc_cnp_encode_form(&c, NULL, CP_ADDR, HOST, b, sizeof b), 60u);
    CHECK_EQ(b[1], 4);
    CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST, b, 60, &d), ROCC_CNP_OK);
    CHECK_EQ(d.form, ROCC_CNP_FORM_HOST_REG); CHECK_EQ(d.q_cur, 300u); CHECK_EQ(d.q_old, 200u);
    CHECK_EQ(d.q_ref, 0u);
    /* too small a buffer: nothing written */
    CHECK_EQ(rocc_cnp_encode_form(&c, NULL, CP_ADDR, HOST, b, 59), 0u);
    CHECK_EQ(rocc_cnp_encode_form(&c, KEY, CP_ADDR, HOST, b, 67), 0u);
}

/* The policy gates the forms: a host that did not enable them refuses them;
 * the 52-byte RATE form still passes a zero policy. */
TEST(form_policy)
{
    struct rocc_cnp c = base(ROCC_CNP_FORM_HOST_REG), r = base(ROCC_CNP_FORM_RATE);
    struct rocc_cnp_policy none = {0}, full_only = {.forms = 1u << ROCC_CNP_FORM_HOST_FULL};
    uint8_t b[ROCC_CNP_MAX_ICMP_BYTES];
    size_t n = rocc_cnp_encode_form(&c, NULL, CP_ADDR, HOST, b, sizeof b);

    CHECK_EQ(rocc_cnp_check(&none, CP_ADDR, HOST, b, n, NULL), ROCC_CNP_EFORM);
    CHECK_EQ(rocc_cnp_check(NULL, CP_ADDR, HOST, b, n, NULL), ROCC_CNP_EFORM);
    CHECK_EQ(rocc_cnp_check(&full_only, CP_ADDR, HOST, b, n, NULL), ROCC_CNP_EFORM);
    n = rocc_cnp_encode_form(&r, NULL, CP_ADDR, HOST, b, sizeof b);
    CHECK_EQ(n, 52u);
    CHECK_EQ(rocc_cnp_check(&none, CP_ADDR, HOST, b, n, NULL), ROCC_CNP_OK);
    /* codes 6 and 7 are no form */
    b[1] = 6;
    CHECK_EQ(rocc_cnp_check(&full_only, CP_ADDR, HOST, b, n, NULL), ROCC_CNP_ETYPE);
}

static int reenc_check(struct rocc_cnp *c, const struct rocc_cnp_policy *pol)
{
    uint8_t b[ROCC_CNP_MAX_ICMP_BYTES];
    size_t n = rocc_cnp_encode_form(c, NULL, CP_ADDR, HOST, b, sizeof b);
    return rocc_cnp_check(pol, CP_ADDR, HOST, b, n, NULL);
}

/* Inconsistent parameters (what a forger or a broken CP writes) are refused. */
TEST(full_params_refused)
{
    struct rocc_cp_params p = p40();
    struct rocc_cnp_policy pol = {.forms = ROCC_CNP_FORMS_HOST};
    struct rocc_cnp c = base(ROCC_CNP_FORM_HOST_FULL), x;
    uint8_t b[ROCC_CNP_MAX_ICMP_BYTES];

    rocc_hostcp_put_params(&c, &p);
    CHECK_EQ(reenc_check(&c, &pol), ROCC_CNP_OK);
    x = c; x.q_ref = 0;               CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.q_mid = x.q_ref;         CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.q_max = x.q_mid;         CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.f_min = 0;               CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.f_max = x.f_min - 1;     CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.f_max = 0x80000000u; x.rate_units = 0x80000000u;
    CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.alpha_q16 = (1u << 24) + 1; CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.beta_q16 = (1u << 24) + 1;  CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.rate_units = x.f_max + 1; CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.rate_units = x.f_min - 1; CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    x = c; x.hflags = 4;              CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
    /* a reserved byte set (then the checksum fixed) */
    size_t n = rocc_cnp_encode_form(&c, NULL, CP_ADDR, HOST, b, sizeof b);
    b[90] = 1; b[2] = b[3] = 0;
    uint16_t s = rocc_inet_checksum(b, n);
    b[2] = (uint8_t)(s >> 8); b[3] = (uint8_t)s;
    CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST, b, n, NULL), ROCC_CNP_EPARAM);
    /* registry form: F = 0 is refused */
    x = base(ROCC_CNP_FORM_HOST_REG); x.rate_units = 0;
    CHECK_EQ(reenc_check(&x, &pol), ROCC_CNP_EPARAM);
}

/* The authenticator covers the new forms: every byte of inputs and
 * parameters, and the addresses. */
TEST(auth_covers_host_forms)
{
    struct rocc_cp_params p = p40();
    struct rocc_cnp_policy pol = {.key = KEY, .forms = ROCC_CNP_FORMS_HOST, .bind = BIND, .nbind = 1};
    uint8_t k2[16];
    memcpy(k2, KEY, 16); k2[0] ^= 1;

    for (int form = ROCC_CNP_FORM_HOST_FULL; form <= ROCC_CNP_FORM_HOST_REG; form++) {
        struct rocc_cnp c = base(form);
        uint8_t b[ROCC_CNP_MAX_ICMP_BYTES], t[ROCC_CNP_MAX_ICMP_BYTES];
        if (form == ROCC_CNP_FORM_HOST_FULL) rocc_hostcp_put_params(&c, &p);
        size_t n = rocc_cnp_encode_form(&c, KEY, CP_ADDR, HOST, b, sizeof b);
        CHECK_EQ(n, rocc_cnp_form_bytes(form, 1));
        CHECK_EQ(b[1], form * 2 + 1);
        CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST, b, n, NULL), ROCC_CNP_OK);
        /* untagged: refused when a key is set */
        size_t m = rocc_cnp_encode_form(&c, NULL, CP_ADDR, HOST, t, sizeof t);
        CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST, t, m, NULL), ROCC_CNP_EAUTH);
        /* wrong key */
        m = rocc_cnp_encode_form(&c, k2, CP_ADDR, HOST, t, sizeof t);
        CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST, t, m, NULL), ROCC_CNP_EAUTH);
        /* other destination: the tag binds it */
        CHECK_EQ(rocc_cnp_check(&pol, CP_ADDR, HOST + 1, b, n, NULL), ROCC_CNP_EAUTH);
        /* every byte from 4 to the tag's end: flip it, fix the checksum */
        int all = 1;
        for (size_t i = 4; i < n; i++) {
            memcpy(t, b, n);
            t[i] ^= 0x01;
            t[2] = t[3] = 0;
            uint16_t s = rocc_inet_checksum(t, n);
            t[2] = (uint8_t)(s >> 8); t[3] = (uint8_t)s;
            if (rocc_cnp_check(&pol, CP_ADDR, HOST, t, n, NULL) == ROCC_CNP_OK)
                all = 0;
        }
        CHECK(all);
    }
}

TEST(registry)
{
    struct rocc_hostreg_entry ent[4];
    struct rocc_cp_params prof[2], p = p40(), q, bad = p40();
    struct rocc_hostreg r;
    char why[80];

    rocc_cp_params_default(&q, 100000000000ull);
    bad.q_mid = bad.q_ref;
    rocc_hostreg_init(&r, ent, 4, prof, 2);
    CHECK_EQ(rocc_hostreg_add(&r, 0x305, &p, why, sizeof why), 0);
    CHECK_EQ(rocc_hostreg_add(&r, 0x101, &q, why, sizeof why), 0);
    CHECK_EQ(rocc_hostreg_add(&r, 0x202, &p, why, sizeof why), 0);
    CHECK_EQ(r.nprof, 2u);                              /* p shared */
    CHECK_EQ(rocc_hostreg_add(&r, 0x203, &bad, why, sizeof why), -1);
    CHECK(strstr(why, "q_mid") != NULL);
    CHECK_EQ(rocc_hostreg_add(&r, 0x305, &q, why, sizeof why), -1);   /* other params */
    CHECK_EQ(rocc_hostreg_add(&r, 0x305, &p, why, sizeof why), 0);    /* same: fine */
    struct rocc_cp_params p3 = p; p3.alpha_q16++;
    CHECK_EQ(rocc_hostreg_add(&r, 0x400, &p3, why, sizeof why), -1);  /* no profile left */
    CHECK(rocc_hostreg_find(&r, 0x101) == NULL);                      /* not sealed */
    rocc_hostreg_seal(&r);
    CHECK(rocc_hostreg_find(&r, 0x101) != NULL && rocc_hostreg_find(&r, 0x101)->f_max == 10000);
    CHECK(rocc_hostreg_find(&r, 0x202) != NULL && rocc_hostreg_find(&r, 0x202)->f_max == 4000);
    CHECK(rocc_hostreg_find(&r, 0x305) != NULL);
    CHECK(rocc_hostreg_find(&r, 0x306) == NULL);
    CHECK(rocc_hostreg_find(&r, 0) == NULL);
    CHECK(rocc_hostreg_find(NULL, 0x101) == NULL);
    CHECK_EQ(rocc_hostreg_bytes(1000, 2), 1000 * 8 + 2 * sizeof(struct rocc_cp_params));
}

/* The core claim: for a random queue trace, the rate a host computes from
 * each period's CNP bytes (either form, with and without the tag) is the F
 * that the switch-side CP computes, bit for bit.  Both call rocc_cp_compute;
 * this checks the inputs survive the wire and the registry. */
TEST(host_equals_switch)
{
    struct rocc_hostreg_entry ent[1];
    struct rocc_cp_params prof[1];
    struct rocc_hostreg r;
    struct rocc_cnp_policy pol = {.key = KEY, .forms = ROCC_CNP_FORMS_HOST};
    struct rng g;
    int variants[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};   /* pi_round, md_qmax */

    rng_seed(&g, 7);
    for (int v = 0; v < 4; v++) {
        struct rocc_cp_params p = p40();
        struct rocc_cp cp;
        struct rocc_hostcp_stats st = {0};
        uint64_t mism = 0, periods = 4000, nmd = 0;
        p.pi_round = (uint32_t)variants[v][0];
        p.md_qmax = (uint32_t)variants[v][1];
        rocc_hostreg_init(&r, ent, 1, prof, 1);
        CHECK_EQ(rocc_hostreg_add(&r, 0x103, &p, NULL, 0), 0);
        rocc_hostreg_seal(&r);
        rocc_cp_init(&cp, &p);
        for (uint64_t t = 0; t < periods; t++) {
            /* queue in bytes: phases of 200 periods, low (F climbs to
             * Fmax) then high with bursts past Qmid/Qmax (MD, PI down) */
            uint64_t q = (t / 200) % 2 ? 100000 + rng_below(&g, 300000) : rng_below(&g, 60000);
            if (rng_below(&g, 20) == 0) q += 300000;
            struct rocc_cnp c = base(ROCC_CNP_FORM_HOST_FULL), d;
            c.rate_units = (uint32_t)cp.f;
            c.q_old = cp.q_old;
            c.q_cur = rocc_cp_qunits(&p, q);
            rocc_hostcp_put_params(&c, &p);
            uint32_t f = rocc_cp_update(&cp, &p, q);
            for (int form = ROCC_CNP_FORM_HOST_FULL; form <= ROCC_CNP_FORM_HOST_REG; form++) {
                uint8_t b[ROCC_CNP_MAX_ICMP_BYTES];
                uint32_t rate = 0;
                c.form = (uint8_t)form;
                size_t n = rocc_cnp_encode_form(&c, KEY, CP_ADDR, HOST, b, sizeof b);
                if (rocc_cnp_check(&pol, CP_ADDR, HOST, b, n, &d) != ROCC_CNP_OK ||
                    rocc_hostcp_rate(&r, &d, &rate, &st) != 0 || rate != f)
                    mism++;
            }
        }
        nmd = cp.n_md_qmax + cp.n_md_half;
        CHECK_EQ(mism, 0u);
        CHECK_EQ(st.n_full, periods);
        CHECK_EQ(st.n_reg, periods);
        CHECK(nmd > 10 && cp.n_pi > 10 && cp.n_clamp_min + cp.n_clamp_max > 0);   /* every branch exercised */
    }
}

TEST(hostcp_refuses)
{
    struct rocc_hostreg_entry ent[1];
    struct rocc_cp_params prof[1], p = p40();
    struct rocc_hostreg r;
    struct rocc_hostcp_stats st = {0};
    struct rocc_cnp c = base(ROCC_CNP_FORM_HOST_REG);
    uint32_t rate = 77;

    rocc_hostreg_init(&r, ent, 1, prof, 1);
    CHECK_EQ(rocc_hostreg_add(&r, 0x104, &p, NULL, 0), 0);
    rocc_hostreg_seal(&r);
    CHECK_EQ(rocc_hostcp_rate(&r, &c, &rate, &st), ROCC_HOSTCP_EMISS);   /* 0x103 unknown */
    CHECK_EQ(rocc_hostcp_rate(NULL, &c, &rate, &st), ROCC_HOSTCP_EMISS);
    c.cp_id = 0x104;
    c.rate_units = p.f_max + 1;
    CHECK_EQ(rocc_hostcp_rate(&r, &c, &rate, &st), ROCC_HOSTCP_EBAD);
    c.form = 9;
    CHECK_EQ(rocc_hostcp_rate(&r, &c, &rate, &st), ROCC_HOSTCP_EBAD);
    CHECK_EQ(rate, 77u);
    CHECK_EQ(st.n_miss, 2u); CHECK_EQ(st.n_bad, 2u);
    c = base(ROCC_CNP_FORM_RATE);
    CHECK_EQ(rocc_hostcp_rate(&r, &c, &rate, &st), 0);
    CHECK_EQ(rate, 2000u);
}

int main(void)
{
    test_crash_guard();
    test_binary_ = "test_rocc_hostcp";
    RUN(form_sizes);
    RUN(full_layout_roundtrip);
    RUN(reg_layout_roundtrip);
    RUN(form_policy);
    RUN(full_params_refused);
    RUN(auth_covers_host_forms);
    RUN(registry);
    RUN(host_equals_switch);
    RUN(hostcp_refuses);
    return test_summary();
}
