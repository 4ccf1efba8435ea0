// bench/peers/htsim/dumbbell_hpcc.cpp -- the htsim peer of roccsim's HPCC
// dumbbell (bench/dumbbell-16x100g-hpcc.ini), built against htsim's library
// (Broadcom csg-htsim) by bench/peers/htsim/Makefile.  A benchmark, not a test.
//
// Our program, modelled on htsim's own HPCC dumbbell example
// (sim/tests/main_dumbell_hpcc.cpp: N long-lived HPCC flows, 100 Gb/s,
// 1 us pipes, 9000 B packets, 1000-packet lossless buffer, PFC thresholds
// 22/25 packets), with the links roccsim's star has and the example leaves
// out, so both simulators move the same packets over the same links:
//
//   src i --(100G NIC = the HPCCSrc itself, pipe up_i 1 us)--> switch
//   switch input queue i (lossless, pauses src i) -> one output queue at
//   100G (lossless, stamps HPCC's INT) --(pipe 1 us)--> sink i
//   ACKs: receiver NIC queue 100G --(pipe 1 us)--> switch egress queue i
//   100G --(pipe 1 us)--> src i
//
// Each data packet and each ACK crosses two links, as in roccsim's star.
// Usage: dumbbell_hpcc [--flows=16] [--duration-us=10000] [--mtu=9000]
//                      [--rate-gbps=100] [--delay-us=1] [--seed=1]
// stdout: htsim's own chatter (its HPCC source prints per ACK);
// stderr: "PEER events=N" and, at exit, pipe_count.cpp's RESULT line.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "config.h"
#include "eventlist.h"
#include "hpcc.h"
#include "network.h"
#include "pipe.h"
#include "queue.h"
#include "queue_lossless_input.h"
#include "queue_lossless_output.h"

static double arg_num(int argc, char** argv, const char* key, double def)
{
    size_t n = strlen(key);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], key, n) && argv[i][n] == '=')
            return atof(argv[i] + n + 1);
    return def;
}

int main(int argc, char** argv)
{
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--flows=", 8) && strncmp(argv[i], "--duration-us=", 14) && strncmp(argv[i], "--mtu=", 6) &&
            strncmp(argv[i], "--rate-gbps=", 12) && strncmp(argv[i], "--delay-us=", 11) && strncmp(argv[i], "--seed=", 7)) {
            fprintf(stderr, "dumbbell_hpcc: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    int flows = (int)arg_num(argc, argv, "--flows", 16);
    double dur_us = arg_num(argc, argv, "--duration-us", 10000);
    int mtu = (int)arg_num(argc, argv, "--mtu", 9000);
    double gbps = arg_num(argc, argv, "--rate-gbps", 100);
    double delay_us = arg_num(argc, argv, "--delay-us", 1);
    int seed = (int)arg_num(argc, argv, "--seed", 1);
    if (flows < 1 || dur_us <= 0 || mtu < 128 || gbps <= 0 || delay_us < 0) {
        fprintf(stderr, "dumbbell_hpcc: bad argument value\n");
        return 2;
    }
    // htsim's example seeds with time(NULL); a fixed seed makes runs repeatable
    // (HPCCSrc's constructor reseeds with time(NULL) anyway; only path ids use it).
    srand(seed);
    srandom(seed);

    EventList eventlist;
    eventlist.setEndtime(timeFromUs(dur_us));
    Packet::set_packet_size(mtu);
    linkspeed_bps rate = speedFromMbps((uint64_t)(gbps * 1000));
    simtime_picosec delay = timeFromUs(delay_us);
    mem_b buffer = memFromPkt(1000);                 // the example's switch buffer
    LosslessInputQueue::_low_threshold = memFromPkt(22);   // the example's PFC thresholds
    LosslessInputQueue::_high_threshold = memFromPkt(25);

    LosslessOutputQueue bottleneck(rate, buffer, eventlist, NULL);
    bottleneck.setName("sw->r0");
    Pipe down(delay, eventlist);                    // switch -> receiver
    Queue rnic(rate, buffer, eventlist, NULL);      // receiver NIC (ACKs)
    rnic.setName("r0->sw");
    Pipe rup(delay, eventlist);                     // receiver -> switch

    std::vector<HPCCSrc*> srcs;
    for (int i = 0; i < flows; i++) {
        HPCCSrc* src = new HPCCSrc(NULL, NULL, eventlist, rate);
        src->setName("hpcc" + std::to_string(i));
        HPCCSink* snk = new HPCCSink();
        snk->setName("hpccsink" + std::to_string(i));
        Pipe* up = new Pipe(delay, eventlist);                          // src i -> switch
        LosslessInputQueue* in = new LosslessInputQueue(eventlist, src); // pauses src i
        Queue* eg = new Queue(rate, buffer, eventlist, NULL);           // switch -> src i (ACKs)
        eg->setName("sw->h" + std::to_string(i));
        Pipe* back = new Pipe(delay, eventlist);

        route_t* out = new route_t();
        out->push_back(up);
        out->push_back(in);
        out->push_back(&bottleneck);
        out->push_back(&down);
        out->push_back(snk);
        route_t* ret = new route_t();
        ret->push_back(&rnic);
        ret->push_back(&rup);
        ret->push_back(eg);
        ret->push_back(back);
        ret->push_back(src);
        src->connect(out, ret, *snk, 0);
        srcs.push_back(src);
    }

    unsigned long long events = 0;
    while (eventlist.doNextEvent())
        events++;
    unsigned long long sent = 0;
    for (HPCCSrc* s : srcs)
        sent += s->_packets_sent;
    fprintf(stderr, "PEER events=%llu data_packets=%llu\n", events, sent);
    return 0;
}
