/*
 * net.h -- the packet-level model of an RDMA fabric.
 *
 * Model (htsim-like, two abstractions carry it):
 *   - a *port* is one direction of a full-duplex link: the egress queues of
 *     its node, a serializer (rate) and a wire (propagation delay).  Packets
 *     on the wire are a FIFO, because every packet takes the same delay, so a
 *     link needs at most one pending "arrival" event and one "transmit done"
 *     event however many packets it carries;
 *   - a *node* is a host NIC or a switch that receives packets from its ports'
 *     peers and puts packets into its own ports.
 * Everything is addressed by 32-bit indices into arrays owned by struct net;
 * nothing is allocated per packet (see packet.h).
 *
 * Pluggability: a flow's congestion control is a `struct transport_ops`
 * (RoCC RP, line rate, DCQCN, HPCC, TIMELY, ... in transport.c), and a switch egress port may
 * carry a `struct port_agent` (RoCC CP, later ECN/INT/QCN agents) that sees
 * enqueues, dequeues and its own periodic timer.  Queues have 8 classes with
 * strict priority for control classes and DRR among data classes.
 *
 * The switch buffer is a shared pool with per-(ingress port, class)
 * accounting: reserve, then shared space up to the PFC XOFF threshold (static
 * or dynamic alpha * free), then headroom; see switch.c.
 */
#ifndef ROCC_NET_H
#define ROCC_NET_H

#include <stddef.h>
#include <stdint.h>
#include "core/eventlist.h"
#include "core/rng.h"
#include "net/packet.h"
#include "hpcc.h"      /* HPCC_MAX_HOPS: INT records */
#include "rocc_rp.h"
#include "rocc_hostcp.h"   /* struct rocc_hostcp_stats, the §3.6 registry */

#define NCLASS     8            /* 802.1p traffic classes */
#define QMAC       NCLASS       /* extra queue for MAC control (PFC, PKT_FCTL) frames */
#define QESC       (NCLASS + 1) /* escape queue (flowctl.h), used by FC_F_ESCAPE_QUEUE schemes */
#define NQUEUE     (NCLASS + 2)
#define NONE32     UINT32_MAX

/* Event order (docs/architecture.md "Event order and ownership").  Every
 * event has an owner, the node whose state its handler may touch
 * (net_event_owner); each node is a logical process (LP) with its own
 * schedule counter.  An event scheduled while LP X handles one gets the
 * tie-break key (X's counter++, X) -- as a 64-bit seq, counter << lp_bits
 * | X -- and events pop in (time, key) order.  Two events of one time thus
 * fire in an order that depends only on what their schedulers did, never
 * on how the nodes are spread over processes (parallel runs give the
 * sequential run's outputs byte for byte).  Scheduling outside a node's
 * handler (set-up, engine hooks, flow starts) uses the counter of the node
 * that acts: the event's owner, for EV_WIRE the sending port's node.  Two
 * virtual LPs have fixed keys: EV_FLOW_START is 0 (before anything else at
 * its time; flows starting together start in flow-index order) and EV_HOOK
 * the hooks' own counter (lp = n_nodes), which every process runs alike.
 * EV_WIRE is one event per frame, due at the frame's arrival and keyed by
 * its sender when it left (port_wire_put). */
/* Bits of a key that name the LP: up to 2^24 - 1 nodes, and 2^40 events
 * scheduled by one node (a 64-port 100 Gb/s switch schedules ~1.5e9 per
 * simulated second: 700 s).  A constant, so a key costs a shift, a
 * multiply, a shift and a XOR (net_key_mix). */
#define NET_LP_BITS 24
enum ev_kind {
    EV_TX_DONE = 1,   /* obj = port: serializer free */
    EV_WIRE,          /* obj = port: a frame on its wire (one event each) arrives at the peer */
    EV_HOST_WAKE,     /* obj = host: a paced flow may send */
    EV_NIC_DELAY,     /* obj = host: head of the CNP delay line reaches the RP */
    EV_FLOW_TIMER,    /* obj = flow: CC timer / retransmission timeout */
    EV_FLOW_START,    /* obj = unused: next flow(s) in start order begin */
    EV_FLOW_STOP,     /* obj = flow: application stops producing */
    EV_AGENT,         /* obj = agent: switch agent's periodic timer */
    EV_HOOK,          /* obj = hook id: engine callback (sampling, progress) */
    EV_FCTL,          /* obj = switch: flow-control scheme timer (flowctl.h) */
    EV_FCTL_GATE,     /* obj = port * NCLASS + class: a rate gate reopens (flowctl.h) */
    EV_FLOW_RX_TIMER, /* obj = flow: its receiver's transport timer (transport_ops.on_rx_timer) */
    EV_NKINDS
};

enum node_kind { NODE_HOST = 0, NODE_SWITCH = 1 };
/* A switch's place in a tiered fabric, for per-tier statistics (RoCC §6.3:
 * core / ingress edge / egress edge).  Builders set it; TIER_NONE otherwise. */
enum node_tier { TIER_NONE = 0, TIER_EDGE = 1, TIER_AGG = 2, TIER_CORE = 3 };

struct port_stats {
    /* updated for every frame: first, next to the wire in struct port */
    uint64_t tx_pkts, tx_bytes, tx_data_bytes;
    uint64_t tx_wire_bytes;                 /* frames + preamble + IFG: busy time */
    uint64_t max_queue_bytes;
    /* rare */
    uint64_t drops, drop_bytes;
    uint64_t qlimit_drops;                  /* dropped by design at a class queue limit (switch_cfg.qcap: credits) */
    uint64_t pfc_sent, pfc_rcvd;            /* XOFF frames */
    uint64_t paused_ps[NCLASS];             /* time this port was paused, per class */
};

/* Field order is by use, for the large fabrics whose ports do not stay in
 * cache: the first cache line holds what every frame reads at either end,
 * the second what a switch egress reads to schedule and mark, the third
 * the wire and the per-frame counters; the queues, PFC timestamps and rare
 * counters follow. */
struct port {
    _Alignas(64) uint32_t node; /* owner; ports start on a cache line (net_finalize) */
    uint32_t peer;              /* port index at the other end */
    uint16_t local;             /* index within the node */
    uint8_t  txdone_pending;
    uint8_t  paused;            /* classes the peer told us to stop (bit mask) */
    uint8_t  down;              /* the link failed: nothing is sent or received */
    uint8_t  owner_kind;        /* nodes[node].kind, kept here for the per-frame paths */
    uint16_t qmask;             /* bit q set iff q[q] holds frames (port_q_push/pop) */
    uint32_t agent;             /* first agent on this port (chain via .next), or NONE32 */
    uint32_t owner;             /* nodes[node].idx: the index into hosts[] or sws[] */
    uint64_t ps_per_byte;       /* 8e12 / rate_bps when exact (all usual rates), else 0 */
    simtime_t delay_ps;
    simtime_t busy_until;       /* serializer busy until then */
    uint64_t data_bytes;        /* queued bytes of non-strict classes (what a CP reads) */
    uint64_t ecn_kmax;          /* RED marking on data classes at dequeue (0: off) */
    int32_t  deficit[NCLASS];   /* DRR */
    uint8_t  drr_next;
    uint8_t  gated;             /* classes a flow-control rate gate holds back (flowctl.h) */
    uint8_t  longhaul;          /* on a long-haul link (net_link_set_longhaul): [network]
                                   longhaul_headroom/_xoff, headroom on top of the buffer */
    uint8_t  remote;            /* a partitioned run: the peer node is on another rank
                                   (frames leave through net.remote_tx; parallel.c) */
    uint8_t  agents_loud;       /* an agent here is not port_agent_ops.quiet: a frame
                                   for this egress always goes through its queue */
    uint64_t ecn_kmin;
    double   ecn_pmax;
    uint64_t rate_bps;
    struct pktq wire;
    struct port_stats st;
    struct pktq q[NQUEUE];      /* egress queues per class + MAC control + escape */
    simtime_t paused_since[NCLASS];
};

struct node {
    uint8_t  kind;
    uint8_t  tier;               /* enum node_tier (switches) */
    uint32_t idx;               /* index into hosts[] or switches[] */
    uint32_t first_port, n_ports;
    char     name[24];
};

/* ---- switch ---- */
struct mmu_cnt { uint64_t reserve, shared, hdrm; uint8_t xoff_sent; };

struct switch_cfg {
    uint64_t buffer_bytes;      /* 0 = unlimited (no PFC, no drop) */
    int      pfc;               /* lossless (PFC) vs lossy (tail drop) */
    uint64_t reserve_bytes;     /* per (ingress port, class) */
    uint64_t headroom_bytes;    /* per (ingress port, class); 0 = computed from link */
    int      dynamic;           /* 1: XOFF = alpha * free shared, 0: static */
    uint64_t xoff_bytes;        /* static XOFF on shared use per (port, class); 0 = by
                                   link speed: 500 KB up to 40G, 800 KB above (RoCC §6) */
    double   alpha;             /* dynamic threshold factor */
    uint64_t xon_offset;        /* resume when shared + offset <= XOFF */
    /* Ports on long-haul links (docs/crossdc.md): headroom and static XOFF
     * (0 = as the other ports: computed from the link / by link speed).
     * Their headroom is added to buffer_bytes, not carved out of it. */
    uint64_t longhaul_headroom_bytes, longhaul_xoff_bytes;
    uint8_t  lossless_mask;     /* classes PFC protects */
    uint8_t  strict_mask;       /* strict-priority classes (control) */
    uint32_t quantum[NCLASS];   /* DRR quantum per data class, bytes */
    /* RED-style ECN marking on data classes, at dequeue (0 disables). */
    uint64_t ecn_kmin, ecn_kmax;
    double   ecn_pmax;
    /* Queue limit per class in frames, for classes in qcap_mask: a frame
     * arriving for an egress class queue that already holds qcap[class]
     * frames is dropped by design (net_drop_limited), whatever the buffer.
     * ExpressPass's credit queue (§3.1: a few credits, drop beyond). */
    uint8_t  qcap_mask;
    uint16_t qcap[NCLASS];
};

struct fc_ops;
struct qdisc_slot;
struct sw {
    uint32_t node;
    uint8_t  fc_flags;           /* FCB_*: hooks of the flow-control scheme (flowctl.h) */
    uint64_t hash_seed;          /* per-switch ECMP seed (avoids polarization) */
    struct switch_cfg cfg;
    struct mmu_cnt *cnt;         /* [n_ports * NCLASS] ingress accounting */
    uint64_t *hdrm_limit;        /* [n_ports] headroom per class on that port */
    uint64_t *xoff;              /* [n_ports] static XOFF per class on that port */
    uint64_t *xoff_extra;        /* [n_ports * NCLASS] XOFF raised by fc_grant_buffer (NULL: none ever) */
    uint64_t shared_used, hdrm_used, reserve_used, ctrl_used;
    uint64_t shared_pool;        /* buffer - reserves - headrooms */
    uint64_t peak_used;
    const struct fc_ops *fc;     /* flow-control scheme (NULL: plain PFC) */
    void *fc_state;              /* the scheme's per-switch state */
    simtime_t fc_timer_at;       /* pending EV_FCTL time (SIMTIME_NEVER: none) */
    struct qdisc_slot *qd;       /* [n_ports] egress queueing disciplines (qdisc.h); NULL: all built-in */
};

/* ---- flows and hosts ---- */
struct flow;
struct net;

struct transport_ops {
    const char *name;
    void (*start)(struct net *n, struct flow *f);
    /* ACK and NAK frames (after snd_una moved), and PKT_GRANT frames of a
     * receiver-driven transport (they move nothing; the port is kicked after). */
    void (*on_ack)(struct net *n, struct flow *f, const struct packet *p);
    void (*on_cnp)(struct net *n, struct flow *f, const struct packet *p);
    void (*on_timer)(struct net *n, struct flow *f);    /* at f->cc_deadline */
    void (*on_send)(struct net *n, struct flow *f, const struct packet *p); /* a data frame left */
    /* Receiver-side hooks (receiver-driven transports: RCC, ExpressPass;
     * NULL: none).
     * on_rx_data: every data frame of f arriving at f's destination NIC,
     * before the NIC acknowledges it (f->rcv_nxt is still the value before
     * this frame).  It may make packets (Homa's GRANTs): the pool may move,
     * the NIC re-reads the frame after.  on_rx_ctrl: an ACK/NAK of f was just made at the
     * receiver and is about to be queued; the transport may write its
     * feedback into the fields ACKs leave unused (rate_units, cp_id).
     * on_credit: a PKT_CREDIT of f reached one of its ends (the sender: a
     * credit grant; the receiver: a credit request or stop) -- host.c
     * hands it only frames addressed to the host they reached (p->dst)
     * -- consumed after.
     * A flow with FL_CREDITED set sends a data frame only while tx_credits
     * > 0 (the transport keeps the count: host.c only reads it).
     * on_rx_timer: an EV_FLOW_RX_TIMER of f fired, at the receiver, which
     * owns that event (flow_rx_timer_at schedules it; every one scheduled
     * fires: the transport keeps its own deadline and ignores the ones it
     * superseded).  ExpressPass's credit pacer runs on it. */
    void (*on_rx_data)(struct net *n, struct flow *f, const struct packet *p);
    void (*on_rx_ctrl)(struct net *n, struct flow *f, struct packet *p);
    void (*on_credit)(struct net *n, struct flow *f, const struct packet *p);
    void (*on_rx_timer)(struct net *n, struct flow *f);
    /* The application stopped f before its last byte was sent (flow_stop,
     * the source's event, has just lowered f->size to the bytes sent): a
     * receiver-driven transport tells its receiver with a frame
     * (ExpressPass's credit stop).  NULL: nothing. */
    void (*on_stop)(struct net *n, struct flow *f);
    uint8_t np_cnp;          /* the receiver answers ECN marks with CNPs (DCQCN NP) */
    uint8_t int_telemetry;   /* data frames collect INT (HPCC) */
    uint8_t cp_cnp;          /* switch CPs other than RoCC's send this flow CNPs (QCN) */
    /* The source takes LSCC's direct INTs (HPCC*): a CNP_DINT goes to
     * on_cnp at once (no NIC delay line) if host.c finds it well formed. */
    uint8_t direct_int;
    /* The receiver takes a message's frames in any order (rcv_nxt counts
     * bytes received, there is no NAK or go-back-N) and sends one ACK, of
     * the whole message, when the last byte is in (Homa, docs/homa.md). */
    uint8_t rx_unordered;
    /* Bytes every data frame and ACK of its flows carries beyond RoCEv2
     * (HPCC's INT header): copied into flow.hdr_extra when the flow is
     * bound to the transport, at set-up, so that the receiver knows it
     * too (its ACKs carry it) without the sender's start having run in
     * its process (a partitioned run, docs/parallel.md). */
    uint16_t hdr_extra;
    /* The receiver's NP answers ECN marks with at most one CNP per this
     * (DCQCN's CNP interval, from the flow's parameters; NULL: 0): copied
     * into flow.np_interval at set-up, like hdr_extra, because the NP runs
     * at the receiver. */
    simtime_t (*np_interval)(const void *prm);
};

/* Bytes of per-flow CC state (flow.cc): the largest algorithm's, HPCC's
 * 272-byte struct hpcc; a bigger one must grow this. */
#define FLOW_CC_STATE_WORDS 34

enum flow_flag { FL_ACTIVE = 1, FL_STOPPED = 2, FL_DONE = 4, FL_RX_DONE = 8, FL_ENDLESS = 16,
                 FL_CREDITED = 32 /* sends only against credits (tx_credits; transport_ops) */ };

/* Field order is by use (large fabrics do not keep their flows in cache):
 * the first cache line holds what a switch (ECMP hashes) and the sender's
 * every frame read, the second the pacer and the receiver's per-frame
 * state, the third timers and ACK bookkeeping; set-up, statistics and the
 * CC's state follow.  Flows start on a cache line (net_add_flow).
 *
 * Ownership (docs/architecture.md "Event order and ownership"): a flow is
 * written at run time by two nodes, its source host and its destination
 * host, and each may touch only its own fields (a partitioned run keeps a
 * copy per process; the outputs merge them).
 *   set-up, read by both, never written in the run: src, dst, prio,
 *     hdr_extra, hash, rhash, tp, cc_prm, app_rate_bps, start_ps, stop_ps,
 *     qp, group, sport; size (but see flow_stop);
 *   sender (source host's events: start, stop, timers, ACK/NACK/CNP/GRANT/
 *     credit arrivals, its NIC's dequeue): flags FL_ACTIVE, FL_STOPPED,
 *     FL_DONE, FL_CREDITED; last_wire_bytes, snd_nxt, snd_una, snd_max,
 *     window, rate_bps, cc_rate_bps, last_due, next_avail, tx_credits,
 *     cc_deadline, rto_deadline, timer_armed, acked_delta, first_tx_ps,
 *     qp_next, retx_bytes, timeouts, nacks, cnps_rx, and the transport's
 *     sender state in cc;
 *   receiver (destination host's data arrivals): flags FL_RX_DONE; rcv_nxt,
 *     rx_wire_bytes, since_ack, ece, nack_for, last_nack, np_last_cnp,
 *     np_interval (set up from the transport; LSCC's local egress names a
 *     new value in the data frames, lscc_np, taken on their arrival),
 *     finish_ps, rx_high, out_of_order, and a receiver-driven transport's
 *     receiver state in cc.
 * Known exceptions (sequential runs are unaffected; listed for parallel
 * runs): flow_stop (the source's event) lowers size and marks FL_RX_DONE /
 * finish_ps from rcv_nxt (a partitioned run redoes that in its merge, from
 * net.rx_adv), so the receiver's events must not decide anything from
 * FL_RX_DONE or a size a stop may have lowered: a receiver-driven
 * transport that must know where a stopped flow ends learns it from a
 * frame (transport_ops.on_stop: ExpressPass's credit stop; a transport
 * that cannot is refused over several ranks with flows that stop,
 * cc_algo.par_refused_stop); RCC's start (the source) initialises the
 * receiver's conn state and host pointer.  The
 * receiver's own timer is EV_FLOW_RX_TIMER (owner: the destination host;
 * its deadline lives in the transport's receiver state in cc). */
struct flow {
    _Alignas(64) uint32_t src; /* host indices */
    uint32_t dst;
    uint8_t  prio, flags;
    uint16_t hdr_extra;         /* bytes added to every data frame and ACK (INT header) */
    uint32_t last_wire_bytes;
    uint64_t hash, rhash;       /* ECMP hashes of the forward / reverse 5-tuple */
    uint64_t size;              /* bytes; UINT64_MAX while endless */
    uint64_t snd_nxt, snd_una;
    uint64_t window;            /* bytes in flight allowed (0 = none) */
    /* pacer; receiver side */
    uint64_t rate_bps;          /* pacing rate = min(app, cc, line) */
    simtime_t last_due, next_avail;  /* the last frame's slot; the next one's */
    const struct transport_ops *tp;
    uint64_t rcv_nxt;
    uint64_t rx_wire_bytes;     /* in-order data received, in wire bytes */
    uint32_t since_ack;
    uint8_t  ece;               /* CE seen since the last ACK (echoed as ECE) */
    uint16_t tx_credits;        /* FL_CREDITED: data frames the flow may still send */
    uint64_t nack_for;          /* rcv_nxt value last NACKed (UINT64_MAX none) */
    /* timers (a lazily re-armed single event per flow), ACK bookkeeping */
    simtime_t cc_deadline, rto_deadline, timer_armed;
    uint64_t snd_max;
    uint64_t acked_delta;       /* bytes the ACK being processed acknowledged */
    const void *cc_prm;         /* the algorithm's parameters (owned by the scenario) */
    simtime_t np_last_cnp;      /* DCQCN NP: when this flow's last CNP left */
    simtime_t np_interval;      /* DCQCN NP: minimum CNP spacing (set-up: transport_ops.np_interval;
                                   LSCC: the frames' lscc_np, at the receiver) */
    /* set-up and statistics */
    uint64_t app_rate_bps;      /* application's offered rate (0 = line) */
    uint64_t cc_rate_bps;       /* what the CC allows (line when unlimited) */
    simtime_t start_ps, stop_ps, finish_ps;   /* start_ps: posted (arrival); finish: last byte received */
    simtime_t first_tx_ps;      /* first data frame began to leave the NIC (SIMTIME_NEVER: not yet) */
    uint32_t qp;                /* queue pair index + 1 (0: an independent flow, the zeroed default) */
    uint32_t qp_next;           /* the next message waiting on the same QP (set by the net) */
    simtime_t last_nack;
    uint64_t retx_bytes, timeouts, nacks;
    uint64_t rx_high;           /* receiver: end of the furthest first-copy data byte seen */
    uint64_t out_of_order;      /* receiver: first-copy data frames overtaken by a later one */
    uint32_t group;             /* scenario flow group */
    uint16_t sport;
    uint16_t cnps_rx;           /* CNPs delivered to the sender while the flow ran (any kind),
                                   saturating at 65535 (fits the padding: the record stays 576 B) */
    /* The transport's per-flow state: RoCC's RP, or any algorithm's struct
     * cast from raw (each src/transport file asserts that it fits). */
    union {
        struct rocc_rp rocc;
        uint64_t raw[FLOW_CC_STATE_WORDS];
    } cc;
};

/* A queue pair: its messages (flows) run in posting order, at most `limit`
 * at a time (an RDMA QP executes its send work requests in order).  A
 * message posted while `limit` are outstanding waits in the list
 * head..tail (linked through flow.qp_next) and starts when an outstanding
 * one completes at the sender (all its bytes acknowledged). */
struct qp {
    uint32_t head, tail;         /* waiting messages, oldest first (NONE32: none) */
    uint32_t outstanding, limit;
};

struct host {
    uint32_t node, port;
    uint32_t *active;            /* flows with data to send (round robin) */
    uint32_t n_active, cap_active, rr;
    uint32_t n_done;             /* finished flows still in active[] */
    uint8_t  in_dequeue;         /* making a frame: rate changes must not kick the port */
    simtime_t wake_at;
    simtime_t next_ready;        /* earliest time a flow may send (after a dequeue) */
    simtime_t busy_since;        /* start of the port's current busy period (pacer) */
    struct pktq nic_delay;       /* CNPs waiting for the NIC reaction delay */
};

/* ---- switch agents ---- */
struct port_agent_ops {
    const char *name;
    void (*on_enqueue)(struct net *n, void *agent, uint32_t port, const struct packet *p);
    void (*on_dequeue)(struct net *n, void *agent, uint32_t port, struct packet *p);
    void (*on_timer)(struct net *n, void *agent);
    void (*destroy)(void *agent);
    /* Optional: a link-local frame for agents (PKT_FCTL, fc_sub
     * FC_SUB_AGENT, agent_lscc.h) arrived on `port`, the agent's port; 0 if
     * taken.  The first agent of the port that takes it gets it; a frame
     * nobody takes is counted in fctl_bad (flowctl.c fc_receive). */
    int  (*on_frame)(struct net *n, void *agent, uint32_t port, const struct packet *p);
    /* 1: on_enqueue and on_dequeue read nothing of the port but data_bytes
     * and make, send and kick nothing, so they cannot tell a frame that
     * passed through an idle egress's queue from one handed straight to
     * its wire (switch.c enqueue).  0 (the default) keeps such ports on
     * the queue path. */
    int  quiet;
};
struct port_agent {
    const struct port_agent_ops *ops;
    void *state;
    uint32_t port;
    uint32_t next;               /* next agent on the same port, NONE32 */
};

/* ---- global parameters of the fabric ---- */
struct net_cfg {
    uint32_t mtu_payload;        /* payload bytes per data packet (1000) */
    uint32_t preamble_ifg;       /* preamble+SFD (8) + inter-frame gap (12) */
    uint8_t  data_prio, ctrl_prio;
    int      ack_high_prio;      /* ACK/NACK in the control class */
    uint32_t ack_interval;       /* ACK every N data packets (1) */
    simtime_t nic_delay_ps;      /* RP reaction delay for CNPs (15 us, RoCC §6) */
    simtime_t rto_ps;            /* retransmission timeout (lossy mode) */
    simtime_t nack_interval_ps;  /* minimum gap between NACKs for one flow */
    int      cnp_filter;         /* [network] cnp_filter: forged-CNP defence (switch.c, host.c) */
    uint32_t pacer_burst;        /* frames a late flow may catch up (host.c) */
    uint16_t fc_hdr_bytes;       /* flow-control header on every RoCEv2 frame (Escape; flowctl.h) */
};

/* One RoCC RP event of a traced flow ([output] rocc_trace): a CNP that
 * reached the RP (accepted or not) or a recovery-timer expiry. */
struct rp_trace_rec {
    simtime_t t;
    uint64_t key;              /* its event's key: (t, key) is the run's order (a partitioned run merges by it) */
    uint32_t flow;
    uint32_t cp_id;            /* the CNP's CP (ROCC_CP_NONE for a timer) */
    uint32_t rate_units;       /* the CNP's rate, ΔF units (0 for a timer) */
    uint32_t cp_after;         /* CP_cur after the event */
    uint64_t rate_after_mbps;  /* R_cur after the event (0: no limiter) */
    uint8_t  timer, accepted;
};
/* At most this many records are kept (about 480 MB); later ones are counted
 * in rp_trace_lost. */
#define RP_TRACE_MAX 10000000u

struct net {
    struct eventlist el;
    struct pkt_pool pool;
    struct rng rng;
    struct net_cfg cfg;
    struct node *nodes;   uint32_t n_nodes;
    struct port *ports;   uint32_t n_ports;
    struct sw *sws;       uint32_t n_sws;
    struct host *hosts;   uint32_t n_hosts;
    struct flow *flows;   uint32_t n_flows, cap_flows;
    struct qp *qps;       uint32_t n_qps, cap_qps;
    struct link_spec { uint32_t a, b; uint64_t rate; simtime_t delay; uint8_t longhaul; } *links;
    uint32_t n_links, cap_links, cap_nodes;
    struct rocc_rp_params rp_params;   /* template; r_max set from the NIC */
    struct rocc_hostreg *rocc_reg;     /* RoCC §3.6 hosts' registry (agent_rocc.c), NULL unless rate_at = host_registry */
    struct rocc_hostcp_stats rocc_host; /* host-side rate computations (agent_rocc.c) */
    struct port_agent *agents; uint32_t n_agents, cap_agents;
    struct int_rec *intr;        /* [pool capacity] INT records, NULL without INT flows */
    uint32_t intr_cap;
    /* routing (route.c): per node, per destination host, the ECMP set of
     * the node's ports, stored per route class with per-host exceptions */
    uint32_t *route_cls;         /* [n_hosts]: the host's route class */
    uint32_t  n_route_cls;
    uint32_t *route_off;         /* [n_route_cls * n_nodes]: its set's run in route_ports, | ROUTE_EXC */
    uint16_t *route_ports;       /* runs: a count, then port indices among the node's ports; each distinct run once */
    uint32_t *rexc_off;          /* [n_hosts + 1]: each host's exceptions in rexc */
    struct route_exc { uint32_t node, off; } *rexc;   /* sorted by node per host; off: its set's run */
    /* [n_hosts]: one (node, port) whose set toward the host is that single
     * port (its first such exception; node NONE32: none), net_route's
     * shortcut for the last switch hop */
    struct route_direct { uint32_t node, port; } *rdirect;
    /* static routes (net_add_route): they override the shortest-path set
     * of their (switch, host) cell every time routes are built */
    struct static_route { uint32_t node, dst, next_off, n_next; } *sroutes;
    uint32_t n_sroutes, cap_sroutes;
    uint32_t *sroute_next;       /* neighbour nodes, [next_off, next_off + n_next) */
    uint32_t n_sroute_next, cap_sroute_next;
    /* flow start schedule */
    uint32_t *start_order;       /* flows sorted by start time */
    uint32_t next_start;
    /* engine hook */
    void (*hook)(void *arg, uint32_t id);
    void *hook_arg;
    /* Event order (see ev_kind): lp_key[lp] = the next key of LP lp
     * (counter << lp_bits | lp; counters start at 1, key 0 is
     * EV_FLOW_START's), lp = node index, n_nodes = the hooks' LP.  key_cur:
     * the slot of the LP whose event is being handled, NULL outside node
     * handlers (set-up, hooks: keyed by the acting node, net_key_slow). */
    uint64_t *lp_key;
    uint64_t *key_cur;
    uint64_t  key_step;          /* 1 << lp_bits */
    uint32_t  lp_bits;           /* NET_LP_BITS */
    uint64_t  tie_mul, tie_inv;  /* [sim] tie_seed: odd multiplier of a key's slot value and its inverse (1, 1 by default) */
    /* Randomness drawn while the run goes (RED/ECN marks, QCN samples, a
     * CC's timer jitter) comes from the stream of the node whose handler
     * draws it (net_node_rng), seeded from the run's seed and the node
     * index: the draws do not depend on other nodes' events, nor on how
     * the nodes are spread over processes.  `rng` is for set-up only. */
    struct rng *node_rng;        /* [n_nodes] */
    uint64_t  seed;
    /* Packet tap ([output] pcap, src/engine/pcapout.c): when set, called
     * for every frame a port starts to send (arrived = 0, at its first
     * bit) and every frame that reaches the far end of a port's wire
     * (arrived = 1, at its last bit; `port` is the sending port), before
     * the receiver acts on it.  It must not change the packet or schedule
     * anything.  NULL (every run without pcap): one predictable test per
     * frame and per arrival. */
    void (*tap)(void *ctx, struct net *n, uint32_t port, uint32_t pi, int arrived);
    void *tap_ctx;
    /* totals */
    uint64_t hops;               /* packets delivered across a link */
    uint64_t ev_count[EV_NKINDS];    /* events fired, by kind */
    uint64_t created[PKT_NTYPES], consumed[PKT_NTYPES], dropped[PKT_NTYPES];
    uint64_t delivered_bytes;
    uint64_t failure_drops;      /* packets lost to link failures (flushed or unroutable) */
    uint64_t fc_drops;           /* frames a flow-control scheme dropped by design (Loop Breaker) */
    uint64_t qlimit_drops;       /* frames a class queue limit dropped by design (credits; net_drop_limited) */
    uint64_t cnp_filtered_sw;    /* RoCC/junk CNPs a switch dropped (cnp_filter) */
    uint64_t cnp_filtered_host;  /* RoCC/junk CNPs a host refused (cnp_filter, or junk), and refused direct INTs */
    uint64_t flows_done;
    uint64_t out_of_order;       /* sum of flows' out_of_order (host.c, docs/escape.md "In-order check") */
    /* flow-control schemes (flowctl.h) */
    struct fc_gate { uint64_t rate_bps; simtime_t next_ok; } *fc_gates;   /* [n_ports * NCLASS], NULL: none */
    /* A scheme whose frames also go to host NICs (GFC: rate feedback to the
     * sender) sets this; fc_receive hands it the PKT_FCTL frames arriving at
     * a host port (0: taken, -1: malformed, counted in fctl_bad).  NULL:
     * hosts take none. */
    int (*fc_host_frame)(struct net *n, void *state, uint32_t port, const struct packet *p);
    void *fc_host_state;
    uint64_t fctl_bad;           /* PKT_FCTL frames refused as malformed (or no scheme to take them) */
    int      oom;                /* set when memory ran out: the run stops */
    int      prefetch;           /* the event loop fetches ahead (net.c, prefetch_next) */
    /* RoCC RP trace of flows [trace_f0, trace_f1) (none when equal) */
    uint32_t trace_f0, trace_f1;
    struct rp_trace_rec *rp_trace;
    uint32_t n_rp_trace, cap_rp_trace;
    uint64_t rp_trace_lost;      /* records not kept (RP_TRACE_MAX or no memory) */
    /* per-host transport state (net_host_state) */
    struct host_state { const void *key; void *mem; } *hstate;
    uint32_t n_hstate;
    /* Partitioned execution (docs/parallel.md; the engine's parallel.c sets
     * these, NULL node_rank = sequential).  node_rank[node]: the rank that
     * executes node's events.  A frame a local port puts on a wire whose
     * peer node is on another rank (port.remote) goes to remote_tx (which copies it) and
     * is freed here, counted in remote_out; the receiving rank gives it back
     * to the wire with net_wire_inject, counted in remote_in.  Summed over
     * ranks the two are equal once nothing is in transit. */
    const uint16_t *node_rank;
    uint32_t my_rank;
    void (*remote_tx)(void *ctx, struct net *n, uint32_t port, uint32_t pi, uint64_t key);
    void *remote_ctx;
    uint64_t remote_out[PKT_NTYPES], remote_in[PKT_NTYPES];
    /* Partitioned runs with flows that stop: rx_adv[f] is when flow f's
     * rcv_nxt last advanced at this rank (0: never; n_rx_adv flows, the rest
     * none).  flow_stop at the source lowers the flow's size, which a
     * receiver on another rank never sees; the merge finishes such a flow
     * from this (parallel.c gather_flows).  NULL in sequential runs. */
    simtime_t *rx_adv;
    uint32_t n_rx_adv;
};

/* Per-host state of a transport (a receiver-driven transport's receiver:
 * RCC's N and B_R, a grant scheduler, ...): one zeroed array of n_hosts
 * elements of `size` bytes per `key` (an address the transport owns), made
 * on the first call for that key (after net_finalize) and freed by
 * net_free.  NULL without memory.  Look it up at set-up or flow start and
 * keep the pointer: the lookup walks a short list. */
void *net_host_state(struct net *n, const void *key, size_t size);
/* The same for a block of `bytes` bytes that is not per host (a table
 * the per-host state points into, e.g. Homa's message slots). */
void *net_state(struct net *n, const void *key, size_t bytes);

/* Record an RP event of flow f if it is traced (transport.c). */
void net_rp_trace(struct net *n, const struct flow *f, int timer, uint32_t cp_id, uint32_t rate_units, int accepted);

/* --- building (net.c) --- */
int      net_init(struct net *n, uint64_t seed);
void     net_free(struct net *n);
uint32_t net_add_node(struct net *n, enum node_kind kind, const char *name);
/* Full-duplex link between nodes a and b; returns the link's index.  Ports
 * exist after net_finalize(); net_port_between() finds them. */
uint32_t net_add_link(struct net *n, uint32_t a, uint32_t b, uint64_t rate_bps, simtime_t delay_ps);
/* Mark link (an index net_add_link returned) as a long-haul link between
 * datacenters (docs/crossdc.md): at net_finalize its two switch ports take
 * switch_cfg's longhaul_headroom/_xoff, and a switch's long-haul headroom
 * is added to its buffer instead of being taken from the shared pool (an
 * egress switch holds one BDP of the long link besides its shared buffer). */
void net_link_set_longhaul(struct net *n, uint32_t link);
/* The port on node a whose link leads to node b (first such), or NONE32. */
uint32_t net_port_between(const struct net *n, uint32_t a, uint32_t b);
/* After all nodes and links: allocate per-port/switch state, routes. -1 + why on error. */
int      net_finalize(struct net *n, const struct switch_cfg *swcfg, char *why, size_t why_len);
uint32_t net_add_flow(struct net *n, const struct flow *tmpl);
/* A new queue pair allowing `limit` (>= 1) messages outstanding; the value
 * for flow.qp (its index + 1), or 0 without memory. */
uint32_t net_add_qp(struct net *n, uint32_t limit);
/* After all flows: start schedule, per-host flow lists. */
int      net_flows_ready(struct net *n);
uint32_t net_add_agent(struct net *n, uint32_t port, const struct port_agent_ops *ops, void *state);
/* Fail (up = 0) or restore (up = 1) the link of `port` (both directions):
 * a failure drops what the two ports hold and what is on the wire; routes
 * are recomputed either way (unreachable destinations then drop packets).
 * -1 with why on memory failure. */
int      net_set_link(struct net *n, uint32_t port, int up, char *why, size_t why_len);
/* Static route: at switch node `sw`, frames to host node `dst` leave over
 * the links to the neighbour nodes next[0..cnt-1] (every parallel link to
 * each of them; ECMP by the flow hash over the whole set, as for shortest
 * paths) instead of the shortest-path set.  Call before net_finalize (or
 * after, then routes are rebuilt at the next net_set_link).  Every later
 * route build (net_set_link) applies it again: members whose link is down
 * are left out, and when none is left the cell is empty, so frames to dst
 * at sw are dropped as failure drops, like an unreachable destination.
 * A second route for the same (sw, dst) replaces the first.  Routes are
 * taken as given: loops are not checked.  -1 with why: not a switch, not
 * a host, not a neighbour, a host other than dst as next hop, memory. */
int      net_add_route(struct net *n, uint32_t sw, uint32_t dst, const uint32_t *next, uint32_t cnt,
                       char *why, size_t why_len);
/* The checks of net_add_route alone (nothing installed): 0, or -1 with why. */
int      net_route_check(const struct net *n, uint32_t sw, uint32_t dst, const uint32_t *next, uint32_t cnt,
                         char *why, size_t why_len);
/* Rebuild the routing table now (after net_finalize), e.g. after
 * net_add_route during a run ([events] route): frames already queued keep
 * their port, the next forwarding decision uses the new table.  -1 with why
 * on memory failure. */
int      net_rebuild_routes(struct net *n, char *why, size_t why_len);
/* Build the routing table (route.c; net_finalize and net_set_link call
 * it): 0, or -1 with why (out of memory, or a node with no path to a host
 * unless allow_unreachable). */
int      net_build_routes(struct net *n, int allow_unreachable, char *why, size_t why_len);
/* Allocate INT records (needed once any flow's transport uses INT). */
int      net_enable_int(struct net *n);

/* --- running --- */
/* Schedule event (t, kind, obj) with the next key of the current LP (see
 * ev_kind); -1 (and the run stops: oom) only when the event set cannot
 * grow.  Inline: every hop schedules one or two events. */
int      net_schedule_failed(struct net *n);
EL_INLINE int net_schedule(struct net *n, simtime_t t, enum ev_kind kind, uint32_t obj);
/* The same with the key given (a frame from another process keeps the key
 * its sender gave it). */
EL_INLINE int net_schedule_key(struct net *n, simtime_t t, enum ev_kind kind, uint32_t obj, uint64_t key);
/* The key net_schedule would give (kind, obj) now, consumed. */
EL_INLINE uint64_t net_key(struct net *n, enum ev_kind kind, uint32_t obj);
/* Out of line: the key outside a node's handler (key_cur NULL). */
uint64_t net_key_slow(struct net *n, enum ev_kind kind, uint32_t obj);
/* Make `node` the current LP (its handler is about to run); NONE32: none
 * (set-up / hook context).  net_run_until does this for every event. */
static inline void net_lp_enter(struct net *n, uint32_t node)
{
    n->key_cur = node == NONE32 || !n->lp_key ? NULL : &n->lp_key[node];
}
/* The key of counter value c of LP lp (slot value k = c << lp_bits | lp):
 * k through a 64-bit bijective mixer (splitmix64's finaliser), so events
 * of one time meet in an order that looks random but depends on nothing
 * but (c, lp).  Any order that kept the counter first (or the node) would
 * favour the same nodes in every tie of a lock-step fabric -- a node that
 * schedules less, or has the lower index, would win them all: one sender
 * then takes every free buffer slot of a lossy incast, and RoCC's flows
 * at one CP split its rate unevenly.  Bijective, so keys stay unique; k
 * is never 0 (counters start at 1), so no key is 0 (EV_FLOW_START's). */
static inline uint64_t net_key_mix(const struct net *n, uint64_t k)
{
    k *= n->tie_mul;                         /* odd: still bijective, still never 0 */
    k ^= k >> 30;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 27;
    k *= 0x94d049bb133111ebull;
    return k ^ (k >> 31);
}

/* The LP that made key k (the inverse of net_key_mix; k != 0). */
static inline uint32_t net_key_lp(const struct net *n, uint64_t k)
{
    k ^= k >> 31 ^ k >> 62;
    k *= 0x319642b2d24d8ec3ull;              /* inverse of 0x94d049bb133111eb mod 2^64 */
    k ^= k >> 27 ^ k >> 54;
    k *= 0x96de1b173f119089ull;              /* inverse of 0xbf58476d1ce4e5b9 */
    k ^= k >> 30 ^ k >> 60;
    k *= n->tie_inv;
    return (uint32_t)(k & (n->key_step - 1));
}
/* [sim] tie_seed: another order of simultaneous events, as arbitrary as
 * the default one (seed 0), to see how much a result owes to the order
 * its ties happened to take.  The slot value is multiplied by 2 seed + 1
 * before the mixer. */
void     net_set_tie_seed(struct net *n, uint64_t seed);
/* The random stream of `node` (see struct net: node_rng). */
static inline struct rng *net_node_rng(struct net *n, uint32_t node) { return &n->node_rng[node]; }
/* The LP counters and node streams (net_finalize makes them): 0, or -1
 * without memory. */
int      net_lp_init(struct net *n);
/* The owner node of event (kind, obj): the node whose state its handler
 * touches, which executes it (hosts and switches share the node index
 * space, n->nodes).  EV_WIRE's owner is the receiving node.  NONE32 for
 * the replicated events every process runs (EV_FLOW_START, EV_HOOK). */
static inline uint32_t net_event_owner(const struct net *n, uint32_t kind, uint32_t obj)
{
    switch ((enum ev_kind)kind) {
    case EV_TX_DONE:    return n->ports[obj].node;
    case EV_WIRE:       return n->ports[n->ports[obj].peer].node;
    case EV_HOST_WAKE:
    case EV_NIC_DELAY:  return n->hosts[obj].node;
    case EV_FLOW_TIMER:
    case EV_FLOW_STOP:  return n->hosts[n->flows[obj].src].node;
    case EV_FLOW_RX_TIMER: return n->hosts[n->flows[obj].dst].node;
    case EV_AGENT:      return n->ports[n->agents[obj].port].node;
    case EV_FCTL:       return n->sws[obj].node;
    case EV_FCTL_GATE:  return n->ports[obj / NCLASS].node;
    case EV_FLOW_START:
    case EV_HOOK:
    case EV_NKINDS:     break;
    }
    return NONE32;
}
/* Run events until the next event is later than `until`. */
void     net_run_until(struct net *n, simtime_t until);
/* A partitioned run (node_rank set), before it starts: drop the pending
 * events of other ranks' nodes (set-up timers every rank scheduled); the
 * rest keep their order.  Afterwards a rank schedules events only for its
 * own nodes (a frame for another rank's node leaves through remote_tx), so
 * the event loop needs no test.  -1 on memory. */
int      net_keep_local_events(struct net *n);
/* A frame that left `port` on another rank (a record remote_tx made)
 * enters port's wire here with the key its sender gave its arrival
 * (net_key): it arrives at p->due (> now); ir: its INT
 * record (p->flags & PF_INT, n->intr set), else NULL.  -1 on memory. */
int      net_wire_inject(struct net *n, uint32_t port, const struct packet *p, const struct int_rec *ir, uint64_t key);
/* Is node local to this rank?  (Always in a sequential run.) */
static inline int net_node_local(const struct net *n, uint32_t node)
{
    return !n->node_rank || n->node_rank[node] == n->my_rank;
}
/* Count packets really in queues, on wires and in delay lines; compare with
 * the pool and the created/consumed/dropped totals.  0 if they balance. */
int      net_check_conservation(const struct net *n, char *why, size_t why_len);

/* --- model internals shared by the .c files --- */
uint64_t tx_time_ps(uint64_t wire_bytes, uint64_t rate_bps);
uint32_t net_route(const struct net *n, uint32_t node, uint32_t dst_host, uint64_t hash);
/* Fetch the routing cell net_route will read (net.c's look-ahead). */
void     net_route_prefetch(const struct net *n, uint32_t node, uint32_t dst_host);
/* The same for frame p toward p->dst with its flow's hash (net_frame_hash). */
uint32_t net_route_frame(const struct net *n, uint32_t node, const struct packet *p);
/* The ECMP hash of frame p: its flow's forward 5-tuple for data, the
 * reverse one for what travels back (ACKs, CNPs); 0 without a flow. */
static inline uint64_t net_frame_hash(const struct net *n, const struct packet *p)
{
    if (p->flow == NONE32)
        return 0;
    const struct flow *f = &n->flows[p->flow];
    return p->type == PKT_DATA ? f->hash : f->rhash;
}
/* The size of node's ECMP set toward dst_host (0: no route). */
uint32_t net_route_count(const struct net *n, uint32_t node, uint32_t dst_host);
uint32_t net_new_packet(struct net *n, enum pkt_type type);
void     net_consume(struct net *n, uint32_t pi);
void     net_drop(struct net *n, uint32_t port, uint32_t pi);
/* Drop pi at `port` by design (a class queue limit, switch_cfg.qcap, or a
 * NIC's credit queue): counted by type and in qlimit_drops (net and port),
 * not in the port's drops, which count losses. */
void     net_drop_limited(struct net *n, uint32_t port, uint32_t pi);
void     port_kick(struct net *n, uint32_t port);
void     port_enqueue_ctrl(struct net *n, uint32_t port, uint32_t pi);
void     port_tx_done(struct net *n, uint32_t port);
void     port_wire_arrive(struct net *n, uint32_t port);
/* Frame pi, already given its due time, joins the end of port's wire and
 * arrives at p->due with event key `key` (net_key(n, EV_WIRE, port) at
 * the sender).  Frames of one wire must come in due order. */
void     port_wire_put(struct net *n, uint32_t port, uint32_t pi, uint64_t key);
void     port_set_pause(struct net *n, uint32_t port, uint8_t cls, int on);
void     switch_receive(struct net *n, struct sw *s, uint32_t port, uint32_t pi);
/* The forged-CNP policy (issue 11 part 5): may a RoCC CNP or junk type-253
 * frame that claims to come from node cnp_src with CP id cp_id count?
 * The binding of docs/rocc.md: CP id = switch node << 8 | port, and a CP's
 * address is its switch, so cp_id >> 8 must name the claimed source and
 * that node must be a switch (rocc_cnp_bound with every switch bound to
 * its own id). */
static inline int net_cnp_bound(const struct net *n, const struct packet *p)
{
    uint32_t node = p->cp_id >> 8;
    return p->cnp_kind == CNP_ROCC && node == p->cnp_src && node < n->n_nodes &&
           n->nodes[node].kind == NODE_SWITCH;
}
uint32_t switch_dequeue(struct net *n, struct sw *s, uint32_t port);
/* port_kick's body for a switch port that may send now (not down, not
 * busy): dequeue and send. */
void     switch_kick(struct net *n, uint32_t port, struct port *pt);
/* Give back the MMU charge of frame pi (its in_port, prio, bytes): dequeue
 * and flowctl.h's fc_drop_held. */
void     switch_release(struct net *n, struct sw *s, uint32_t pi);
/* Inject a packet the switch itself made (a CNP) toward its destination. */
void     switch_inject(struct net *n, struct sw *s, uint32_t pi, uint64_t hash);
void     host_receive(struct net *n, struct host *h, uint32_t pi);
uint32_t host_dequeue(struct net *n, struct host *h);
void     host_arm_wake(struct net *n, struct host *h, simtime_t t);
void     host_pfc_resumed(struct net *n, struct host *h, uint8_t cls, simtime_t since);
void     host_nic_delay_done(struct net *n, uint32_t host);
void     flow_start(struct net *n, uint32_t fi);
void     flow_stop(struct net *n, uint32_t fi);
/* Flow fi completed at its sender: a message waiting on its QP may start. */
void     net_qp_done(struct net *n, uint32_t fi);
void     flow_timer_fire(struct net *n, uint32_t fi);
void     flow_timer_arm(struct net *n, uint32_t fi);
void     flow_set_cc_rate(struct net *n, struct flow *f, uint64_t bps);
uint64_t flow_line_rate(const struct net *n, const struct flow *f);
static inline uint32_t flow_index(const struct net *n, const struct flow *f) { return (uint32_t)(f - n->flows); }
static inline struct port *host_port(struct net *n, const struct host *h) { return &n->ports[h->port]; }

/* Egress queue q of port pt: every push and pop goes through these, so
 * qmask always says which queues hold frames (schedulers find the next
 * non-empty queue with one bit scan instead of visiting all NQUEUE). */
static inline void port_q_push(struct net *n, struct port *pt, uint32_t q, uint32_t pi)
{
    pktq_push(&n->pool, &pt->q[q], pi);
    pt->qmask |= (uint16_t)(1u << q);
}
static inline uint32_t port_q_pop(struct net *n, struct port *pt, uint32_t q)
{
    uint32_t pi = pktq_pop(&n->pool, &pt->q[q]);
    if (pt->q[q].count == 0)
        pt->qmask &= (uint16_t)~(1u << q);
    return pi;
}

/* The transport of flows without congestion control (host.c); the others
 * are in src/transport/, one file per algorithm (engine/ccreg.h). */
extern const struct transport_ops transport_line;
/* Set a transport's timer deadline (SIMTIME_NEVER or a past time: none). */
void flow_set_cc_deadline(struct net *n, struct flow *f, simtime_t deadline);
/* Schedule f's receiver timer (EV_FLOW_RX_TIMER, transport_ops.on_rx_timer)
 * at t (a past t: now).  Call only in the receiver's events (the key is
 * the current LP's, the destination host's). */
void flow_rx_timer_at(struct net *n, struct flow *f, simtime_t t);

EL_INLINE uint64_t net_key(struct net *n, enum ev_kind kind, uint32_t obj)
{
    uint64_t *slot = n->key_cur;
    if (__builtin_expect(slot == NULL, 0))
        return net_key_slow(n, kind, obj);
    /* Everything is read before the store: the slot might alias struct net
     * for all the compiler knows. */
    uint64_t k = *slot;
    uint64_t key = net_key_mix(n, k);
    *slot = k + (1ull << NET_LP_BITS);
    return key;
}

EL_INLINE int net_schedule_key(struct net *n, simtime_t t, enum ev_kind kind, uint32_t obj, uint64_t key)
{
    if (__builtin_expect(el_push_key(&n->el, t, (uint32_t)kind, obj, key) != 0, 0))
        return net_schedule_failed(n);
    return 0;
}

EL_INLINE int net_schedule(struct net *n, simtime_t t, enum ev_kind kind, uint32_t obj)
{
    return net_schedule_key(n, t, kind, obj, net_key(n, kind, obj));
}

/* Frame pi joins the end of port's wire (port_wire_put's body, inline on
 * the per-frame path). */
static inline void port_wire_push(struct net *n, uint32_t port, uint32_t pi, uint64_t key)
{
    pktq_push(&n->pool, &n->ports[port].wire, pi);
    net_schedule_key(n, pkt(&n->pool, pi)->due, EV_WIRE, port, key);
}

/* Whether port pt (index port) cannot start a frame now: it is down (a
 * failed link sends nothing), or busy -- then its end-of-frame event is
 * armed, once.  The first step of every kick (port.c, switch.c). */
static inline __attribute__((always_inline)) int port_cannot_send(struct net *n, uint32_t port, struct port *pt)
{
    if (pt->down)
        return 1;
    if (pt->busy_until > n->el.now) {
        if (!pt->txdone_pending) {
            pt->txdone_pending = 1;
            net_schedule(n, pt->busy_until, EV_TX_DONE, port);
        }
        return 1;
    }
    return 0;
}

/* Port pt (index port, free now) sends frame pi, just taken from its
 * owner's queues: the serializer, the counters, the wire, and the one
 * event the port needs next -- the end of this frame if something is
 * queued, else (a NIC, is_host a constant) the time its next flow may
 * send.  Inline in each sender (port.c's port_kick, switch.c's enqueue),
 * so a frame crosses no call between its dequeue and its wire. */
static inline __attribute__((always_inline)) void port_send(struct net *n, uint32_t port, struct port *pt,
                                                            uint32_t pi, int is_host)
{
    simtime_t now = n->el.now;
    struct packet *p = pkt(&n->pool, pi);
    uint64_t wire = (uint64_t)p->bytes + n->cfg.preamble_ifg;
    pt->busy_until = now + (pt->ps_per_byte ? wire * pt->ps_per_byte : tx_time_ps(wire, pt->rate_bps));
    p->due = pt->busy_until + pt->delay_ps;
    pt->st.tx_pkts++;
    pt->st.tx_bytes += p->bytes;
    pt->st.tx_wire_bytes += wire;
    if (p->type == PKT_DATA)
        pt->st.tx_data_bytes += p->payload;
    if (__builtin_expect(n->tap != NULL, 0))
        n->tap(n->tap_ctx, n, port, pi, 0);
    uint64_t key = net_key(n, EV_WIRE, port);
    if (__builtin_expect(pt->remote, 0)) {
        /* A cut link: the peer's rank puts the frame on its copy of this
         * wire (net_wire_inject) with this key; this copy is gone here. */
        n->remote_tx(n->remote_ctx, n, port, pi, key);
        n->remote_out[p->type]++;
        pool_put(&n->pool, pi);
    } else {
        port_wire_push(n, port, pi, key);
    }
    /* Arm the one event this port needs next.  An older "done" event
     * still in the event set is stale now (port_tx_done ignores it), so
     * it no longer counts as pending. */
    pt->txdone_pending = 0;
    simtime_t next = SIMTIME_NEVER;
    if (pt->qmask) {                    /* something is queued */
        next = pt->busy_until;
    } else if (is_host) {
        struct host *h = &n->hosts[pt->owner];
        if (h->next_ready <= pt->busy_until)
            next = pt->busy_until;
        else if (h->next_ready != SIMTIME_NEVER)
            host_arm_wake(n, h, h->next_ready);
    }
    if (next != SIMTIME_NEVER) {
        pt->txdone_pending = 1;
        net_schedule(n, next, EV_TX_DONE, port);
    }
}

#endif
