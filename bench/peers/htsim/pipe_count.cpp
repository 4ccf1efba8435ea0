// bench/peers/htsim/pipe_count.cpp -- htsim's Pipe with a packet-hop counter
// (a benchmark aid, not a test; our code, written against htsim's pipe.h).
//
// The peer build links this file in place of htsim's pipe.cpp.  A Pipe is
// htsim's wire: a packet enters after its queue has serialised it and leaves
// `delay` later, one event per packet.  This implementation keeps the same
// members and the same behaviour (a FIFO in a ring that doubles when full, one
// pending event at the head's exit time, the PKT_DEPART log call, then
// sendOn) and adds one increment per departure: a departure is a packet that
// has fully crossed one link, which is how roccsim counts a packet-hop (its
// wire-arrival event).
//
// It also measures, without touching htsim's main programs:
//   set-up   from the start of the process (a static initialiser, before
//            main) to the first packet that enters any pipe, i.e. the moment
//            the event loop has started moving packets;
//   loop     from then to the exit of the process (static destructor);
// and prints at exit, on stderr (htsim writes its own chatter to stdout):
//   RESULT hops=N setup_s=S loop_s=L rss_mb=M
#include "pipe.h"

#include <cstdio>
#include <ctime>
#include <sys/resource.h>

namespace {

double mono_now()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct PeerCounter {
    unsigned long long hops = 0;
    double t_start = mono_now();
    double t_first = 0;

    ~PeerCounter()
    {
        double t_end = mono_now();
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        if (t_first == 0)
            t_first = t_end;
        fprintf(stderr, "RESULT hops=%llu setup_s=%.6f loop_s=%.6f rss_mb=%.1f\n", hops, t_first - t_start,
                t_end - t_first, (double)ru.ru_maxrss / 1024.0);
    }
};

PeerCounter peer_counter;

} // namespace

unsigned long long peer_htsim_hops() { return peer_counter.hops; }

Pipe::Pipe(simtime_picosec delay, EventList& eventlist)
    : EventSource(eventlist, "pipe"), _delay(delay)
{
    _size = 16;
    _count = 0;
    _next_insert = 0;
    _next_pop = 0;
    _inflight_v.resize(_size);
    _nodename = "pipe(" + std::to_string(delay / 1000000) + "us)";
}

void Pipe::receivePacket(Packet& pkt)
{
    if (peer_counter.t_first == 0)
        peer_counter.t_first = mono_now();
    if (_count == 0)
        eventlist().sourceIsPendingRel(*this, _delay);  // the ring was empty: arm our one event
    if (++_count == _size) {
        // Full: double the ring.  Entries that wrapped to the front (before
        // _next_insert, when it trails _next_pop) move to the new upper half
        // so the FIFO stays contiguous from _next_pop.
        _inflight_v.resize(2 * _size);
        if (_next_insert < _next_pop) {
            for (int i = 0; i < _next_insert; i++)
                _inflight_v[_size + i] = _inflight_v[i];
            _next_insert += _size;
        }
        _size *= 2;
    }
    _inflight_v[_next_insert].time = eventlist().now() + _delay;
    _inflight_v[_next_insert].pkt = &pkt;
    _next_insert = (_next_insert + 1) % _size;
}

void Pipe::doNextEvent()
{
    if (_count == 0)
        return;
    Packet* pkt = _inflight_v[_next_pop].pkt;
    _next_pop = (_next_pop + 1) % _size;
    _count--;
    peer_counter.hops++;                                 // the one addition: a packet-hop
    pkt->flow().logTraffic(*pkt, *this, TrafficLogger::PKT_DEPART);
    pkt->sendOn();
    if (_count > 0)
        _eventlist.sourceIsPending(*this, _inflight_v[_next_pop].time);
}
