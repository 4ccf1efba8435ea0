/*
 * sw_oqclass.h -- rocc-switch's OpenQueue classification step (issue 13):
 * the Packet fields an OpenQueue policy reads (src/openqueue/oq.h, Fig. 2.7)
 * from a frame pkt_parse accepted, as the command line configures it
 * (--oq-value, --oq-value-map, --oq-processing, --oq-processing-map;
 * docs/dataplane.md "OpenQueue").  Pure C, no DPDK: tests/fuzz/fuzz_pkt.c
 * feeds it every frame the parser accepts.
 *
 *   value       DSCP (default), the whole ToS byte, or a constant; a
 *               per-DSCP map overrides it
 *   processing  cycles the packet needs: a constant (default 1), uniform
 *               LO..HI from the classifier's own generator, or 1 + PSN mod K
 *               (RoCEv2; 1 for other frames); a per-DSCP map overrides it
 *   flow        RoCEv2: the destination QP; other UDP: the source port; else 0
 *   size        the frame's length in bytes
 *   queue       left for the port's queueSelect (oq_classify)
 */
#ifndef DP_SW_OQCLASS_H
#define DP_SW_OQCLASS_H

#include <stddef.h>
#include <stdint.h>

#include "openqueue/oq.h"
#include "pkt.h"

enum { DPOQ_V_DSCP, DPOQ_V_TOS, DPOQ_V_CONST };
enum { DPOQ_P_CONST, DPOQ_P_UNIFORM, DPOQ_P_PSN };
#define DPOQ_MAX_PROCESSING 65535u   /* cycles: bounds the work one packet can ask for */
#define DPOQ_MAX_VALUE 1e9           /* |value| of a constant or map entry */

struct dpoq_class {
    int vsrc;                     /* DPOQ_V_* */
    double vconst;
    double vmap[64];              /* --oq-value-map, by DSCP */
    uint8_t vmap_set[64];
    int pkind;                    /* DPOQ_P_* */
    uint32_t pa, pb;              /* const: pa; uniform: pa..pb; psn: K = pa */
    uint32_t pmap[64];            /* --oq-processing-map, by DSCP */
    uint8_t pmap_set[64];
    uint64_t rng;                 /* uniform draws (xorshift64*) */
};

/* Defaults: value = DSCP, processing 1; seed for uniform draws (never 0). */
void dpoq_init(struct dpoq_class *c, uint64_t seed);
/* Option values; 0, or -1 with why in err (n bytes). */
int dpoq_parse_value(struct dpoq_class *c, const char *spec, char *err, size_t n);       /* dscp | tos | const:V */
int dpoq_parse_value_map(struct dpoq_class *c, const char *spec, char *err, size_t n);   /* DSCP=V[,DSCP=V...] */
int dpoq_parse_processing(struct dpoq_class *c, const char *spec, char *err, size_t n);  /* N | uniform:LO-HI | psn:K */
int dpoq_parse_processing_map(struct dpoq_class *c, const char *spec, char *err, size_t n); /* DSCP=N[,DSCP=N...] */
/* "value=dscp processing=uniform:1-4 ..." for the start line. */
void dpoq_describe(const struct dpoq_class *c, char *buf, size_t n);

/* Fill out's value, processing, flow and size from frame f (len bytes)
 * that pkt_parse or pkt_parse_esc accepted as pi; queue = UINT32_MAX (the
 * port's queueSelect picks), everything else 0. */
void dpoq_classify(struct dpoq_class *c, const uint8_t *f, uint32_t len, const struct pkt_info *pi, struct oq_pkt *out);

#endif
