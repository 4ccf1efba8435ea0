// bench/peers/ns3/dumbbell.cc -- benchmark 1 of roccsim (bench/dumbbell-16x100g.ini)
// rebuilt as closely as ns-3.37 allows, to compare simulator speed.
//
// N senders -> 1 switch (an ns-3 node that forwards IPv4 with global routing)
// -> 1 receiver, point-to-point links of RATE and DELAY, long-lived flows
// for DURATION of simulated time.  Two transports:
//   udp   (default) one constant-bit-rate OnOff sender per host, at LOAD x
//         the link rate measured on the wire (load 1 = line rate: the
//         sender links are full and the switch drops what the bottleneck
//         cannot carry; load 1/N = the fair share, no loss);
//   dctcp one BulkSend TCP DCTCP flow per host, RED with ECN marking at
//         K packets on every switch port.
//
// Packet-hops are counted the way roccsim counts them (src/net/port.c,
// port_wire_arrive): one hop each time a packet has crossed a link and
// arrives at the far end.  In ns-3 that is the PhyRxEnd trace source of
// the receiving PointToPointNetDevice, connected on every device.
// Events are Simulator::GetEventCount() (events executed).
//
// Prints one summary block; the line starting with "RESULT" is for scripts.

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"
#include "ns3/version-defines.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>

using namespace ns3;

static uint64_t g_hops;
static uint64_t g_switch_drops;
static uint64_t g_ecn_marks;

static void
OnPhyRxEnd(Ptr<const Packet>)
{
    ++g_hops;
}

static void
OnDrop(Ptr<const Packet>)
{
    ++g_switch_drops;
}

static void
OnQdDrop(Ptr<const QueueDiscItem>)
{
    ++g_switch_drops;
}

// Connects a trace source by name and stops if the name is wrong (a wrong
// name would otherwise count nothing, silently).
template <typename T, typename Cb>
static void
Connect(Ptr<T> obj, const char* source, Cb cb)
{
    NS_ABORT_MSG_UNLESS(obj->TraceConnectWithoutContext(source, cb),
                        "no trace source " << source);
}

static void
OnQdMark(Ptr<const QueueDiscItem>, const char*)
{
    ++g_ecn_marks;
}

int
main(int argc, char* argv[])
{
    std::string duration = "20ms";
    uint32_t senders = 16;
    std::string rate = "100Gbps";
    std::string delay = "1us";
    uint32_t payload = 1000;
    double load = 1.0;
    std::string transport = "udp";
    uint32_t queuePkts = 100;
    uint32_t ecnK = 65;

    CommandLine cmd(__FILE__);
    cmd.AddValue("duration", "simulated time (ns-3 time string, e.g. 20ms)", duration);
    cmd.AddValue("senders", "number of senders", senders);
    cmd.AddValue("rate", "link rate (all links)", rate);
    cmd.AddValue("delay", "link propagation delay (all links)", delay);
    cmd.AddValue("payload", "UDP payload / TCP segment size in bytes", payload);
    cmd.AddValue("load", "udp: each sender's wire rate as a fraction of the link rate", load);
    cmd.AddValue("transport", "udp | dctcp", transport);
    cmd.AddValue("queue", "device queue size in packets (every port)", queuePkts);
    cmd.AddValue("ecnK", "dctcp: RED/ECN marking threshold in packets at the switch", ecnK);
    cmd.Parse(argc, argv);
    if (transport != "udp" && transport != "dctcp")
    {
        std::fprintf(stderr, "dumbbell: --transport must be udp or dctcp\n");
        return 2;
    }
    const bool udp = transport == "udp";
    Time simTime(duration);
    DataRate linkRate(rate);

    auto t0 = std::chrono::steady_clock::now();

    if (!udp)
    {
        Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TcpDctcp::GetTypeId()));
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(payload));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 20));
        Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue("On"));
        Config::SetDefault("ns3::RedQueueDisc::UseEcn", BooleanValue(true));
        Config::SetDefault("ns3::RedQueueDisc::UseHardDrop", BooleanValue(false));
    }

    NodeContainer hosts;
    hosts.Create(senders);
    Ptr<Node> sw = CreateObject<Node>();
    Ptr<Node> rx = CreateObject<Node>();
    NodeContainer all(hosts);
    all.Add(sw);
    all.Add(rx);

    InternetStackHelper stack;
    stack.Install(all);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(linkRate));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    p2p.SetQueue("ns3::DropTailQueue",
                 "MaxSize",
                 QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, queuePkts)));

    // Link i < senders: host i <-> switch.  Link senders: switch <-> receiver.
    std::vector<NetDeviceContainer> links;
    for (uint32_t i = 0; i < senders; ++i)
    {
        links.push_back(p2p.Install(hosts.Get(i), sw));
    }
    links.push_back(p2p.Install(sw, rx));

    NetDeviceContainer switchPorts;
    for (auto& l : links)
    {
        switchPorts.Add(l.Get(l.Get(0)->GetNode() == sw ? 0 : 1));
    }
    if (!udp)
    {
        // Installed before the addresses, so Ipv4AddressHelper leaves these alone.
        TrafficControlHelper red;
        red.SetRootQueueDisc("ns3::RedQueueDisc",
                             "MinTh", DoubleValue(ecnK),
                             "MaxTh", DoubleValue(ecnK),
                             "QW", DoubleValue(1.0),
                             "MeanPktSize", UintegerValue(payload + 40),
                             "LinkBandwidth", DataRateValue(linkRate),
                             "LinkDelay", StringValue(delay),
                             "MaxSize", QueueSizeValue(QueueSize("1000p")));
        QueueDiscContainer qds = red.Install(switchPorts);
        for (uint32_t i = 0; i < qds.GetN(); ++i)
        {
            Connect(qds.Get(i), "Drop", MakeCallback(&OnQdDrop));
            Connect(qds.Get(i), "Mark", MakeCallback(&OnQdMark));
        }
    }

    Ipv4AddressHelper addr;
    Ipv4InterfaceContainer rxIf;
    for (uint32_t i = 0; i < links.size(); ++i)
    {
        char net[32];
        std::snprintf(net, sizeof net, "10.%u.%u.0", 1 + i / 256, i % 256);
        addr.SetBase(net, "255.255.255.0");
        Ipv4InterfaceContainer ifc = addr.Assign(links[i]);
        if (i == senders)
        {
            rxIf = ifc;
        }
    }
    if (udp)
    {
        // Ipv4AddressHelper::Assign put ns-3's default queue disc on every
        // device; UDP runs without one (device DropTail queue only), the
        // cheapest forwarding path ns-3 has.
        TrafficControlHelper tch;
        for (auto& l : links)
        {
            tch.Uninstall(l);
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    for (auto& l : links)
    {
        for (uint32_t j = 0; j < 2; ++j)
        {
            Connect(l.Get(j), "PhyRxEnd", MakeCallback(&OnPhyRxEnd));
        }
    }
    for (uint32_t i = 0; i < switchPorts.GetN(); ++i)
    {
        // Device-queue overflow at the switch (UDP at line rate drops here).
        Ptr<PointToPointNetDevice> d = DynamicCast<PointToPointNetDevice>(switchPorts.Get(i));
        Connect(d->GetQueue(), "Drop", MakeCallback(&OnDrop));
    }
    // Without a queue disc the traffic-control layer drops a packet whose
    // device queue is stopped (full) before the device sees it.
    Connect(sw->GetObject<TrafficControlLayer>(), "TcDrop", MakeCallback(&OnDrop));

    Ipv4Address dst = rxIf.GetAddress(1);
    const uint16_t port = 9000;
    ApplicationContainer sinks, sources;
    if (udp)
    {
        PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        sinks = sink.Install(rx);
        // OnOff's DataRate counts payload bits only: scale it so that the
        // packet on the wire (payload + 8 UDP + 20 IPv4 + 2 PPP) runs at
        // load x the link rate.
        double wire = payload + 8 + 20 + 2;
        DataRate appRate(static_cast<uint64_t>(linkRate.GetBitRate() * load * payload / wire));
        OnOffHelper src("ns3::UdpSocketFactory", InetSocketAddress(dst, port));
        src.SetConstantRate(appRate, payload);
        sources = src.Install(hosts);
    }
    else
    {
        PacketSinkHelper sink("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        sinks = sink.Install(rx);
        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(dst, port));
        src.SetAttribute("SendSize", UintegerValue(payload));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        sources = src.Install(hosts);
    }
    sinks.Start(Seconds(0));
    sources.Start(Seconds(0));
    sources.Stop(simTime);
    Simulator::Stop(simTime);

    auto t1 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto t2 = std::chrono::steady_clock::now();

    uint64_t events = Simulator::GetEventCount();
    uint64_t rxBytes = DynamicCast<PacketSink>(sinks.Get(0))->GetTotalRx();
    Simulator::Destroy();

    double setupS = std::chrono::duration<double>(t1 - t0).count();
    double wallS = std::chrono::duration<double>(t2 - t1).count();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double rssMb = ru.ru_maxrss / 1024.0;
    double hopsPerS = wallS > 0 ? g_hops / wallS : 0;
    double nsPerEvent = events ? wallS * 1e9 / events : 0;
    double goodput = rxBytes * 8.0 / simTime.GetSeconds();

    std::printf("ns-3 %d.%d dumbbell: %u senders -> switch -> receiver, %s, %s, %s, payload %u B",
                NS3_VERSION_MAJOR,
                NS3_VERSION_MINOR,
                senders,
                rate.c_str(),
                delay.c_str(),
                transport.c_str(),
                payload);
    if (udp)
    {
        std::printf(", load %.4g", load);
    }
    std::printf("\n");
    std::printf("  simulated time   %s\n", duration.c_str());
    std::printf("  wall time        %.3f s (Simulator::Run; setup %.3f s more)\n", wallS, setupS);
    std::printf("  events           %llu\n", (unsigned long long)events);
    std::printf("  packet-hops      %llu (PhyRxEnd on every device)\n", (unsigned long long)g_hops);
    std::printf("  hops/s           %.3f M\n", hopsPerS / 1e6);
    std::printf("  ns/event         %.1f\n", nsPerEvent);
    std::printf("  events/hop       %.2f\n", g_hops ? (double)events / g_hops : 0);
    std::printf("  peak RSS         %.1f MB\n", rssMb);
    std::printf("  receiver goodput %.2f Gb/s, switch drops %llu",
                goodput / 1e9,
                (unsigned long long)g_switch_drops);
    if (!udp)
    {
        std::printf(", ECN marks %llu", (unsigned long long)g_ecn_marks);
    }
    std::printf("\n");
    std::printf("RESULT sim_s=%.9g wall_s=%.6f setup_s=%.6f events=%llu hops=%llu hops_per_s=%.0f "
                "ns_per_event=%.1f rss_mb=%.1f\n",
                simTime.GetSeconds(),
                wallS,
                setupS,
                (unsigned long long)events,
                (unsigned long long)g_hops,
                hopsPerS,
                nsPerEvent,
                rssMb);
    return 0;
}
