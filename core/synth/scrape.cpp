// A node's metrics as Prometheus scraped them (Options::metrics "dcgm"): dcgm-exporter's GPU fields, labelled
// as the exporter labels them (gpu, UUID, pci_bus_id, device, modelName, Hostname), and node-exporter's
// InfiniBand port counters and uname, scraped by the node's address (instance="10.64.0.3:9100": no label
// names the host, its node_uname_info does). Prometheus text with millisecond timestamps, every 15 s on the
// collector's clock. Realistic blemishes: scrapes that failed (a seeded few, whole scrapes missing) and one
// node-exporter restart on a seeded node (its counters start again from zero mid-run).
#include "outfile.h"
#include "world.h"

#include <algorithm>
#include <cmath>

namespace fl::synth {

namespace {

constexpr int64_t kScrape = 15 * kSec;

// When the scrape shows the fault's Xid: the GPU's own fault time, else the injected fault's.
int64_t xidAt(const World& w, const GpuFx& g)
{
    if (g.xid == 0)
        return kNever;
    if (g.xidAt != kNever)
        return g.xidAt;
    const int64_t own = std::min({g.lostAt, g.dbeAt, g.nvlinkAt});
    return own != kNever ? own : w.tFault;
}

struct Sample {
    const char* name;
    int gpu;         // -1: a node series
    double value;
    int decimals;
};

} // namespace

bool writeScrape(const World& w, const Plan& p, int n, const std::string& path, std::string* error)
{
    OutFile f;
    if (!f.open(path, error))
        return false;
    const auto& fx = p.fx[size_t(n)];
    const Node& nd = w.node[size_t(n)];
    const uint64_t seed = w.opt.seed ^ (uint64_t(n) << 24) ^ 0x5c7a9eull;
    const int64_t from = (w.tStart / kScrape + 1) * kScrape;
    const int64_t to = std::min(p.jobEnd + 60 * kSec, fx.deadAt);
    // One node in eight restarts its node-exporter halfway: its counters fall back to zero.
    const bool restarts = mix64(w.opt.seed * 31 + uint64_t(n)) % 8 == 3;
    const int64_t restartAt = from + (to - from) / 2 / kScrape * kScrape;
    const std::string instance = nd.ip + ":9100";
    std::vector<std::string> gpuLabels(size_t(w.gpus));
    for (int g = 0; g < w.gpus; ++g) {
        std::string& l = gpuLabels[size_t(g)];
        l = "{gpu=\"" + std::to_string(g) + "\",UUID=\"" + nd.uuid[size_t(g)] + "\",pci_bus_id=\"0000" +
            std::string(gpuBus(g)) + ".0\",device=\"nvidia" + std::to_string(g) +
            "\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"" + nd.name + "\"}";
    }
    std::vector<Sample> row;
    std::string stamp;
    for (int64_t t = from; t < to; t += kScrape) {
        if (hashUnit(seed, uint64_t(t / kSec), 7) < 0.02) // a failed scrape: nothing at this time
            continue;
        stamp.clear();
        stamp.push_back(' ');
        appendInt(stamp, t / 1000); // ms
        stamp.push_back('\n');
        for (int g = 0; g < w.gpus; ++g) {
            const GpuFx& gx = fx.gpu[size_t(g)];
            if (gx.lostAt != kNever && t >= gx.lostAt + 2 * kScrape) // fell off the bus: the exporter reads it no more
                continue;
            const RankState& st = p.rs[size_t(w.rankOf(n, g))];
            const double u = hashUnit(seed, uint64_t(t / kSec), uint64_t(g));
            double util = 0, power = 90 + 10 * u, temp = 34 + 4 * u;
            if (t >= w.tTrain0 && t < st.end && t < st.stopIter) {
                util = 96 + 4 * u, power = 560 + 140 * u, temp = 62 + 14 * u;
            } else if (t >= w.tInit && t < st.end && !st.silent && t >= st.stopIter) {
                util = 100, power = 260 + 40 * u, temp = 50 + 6 * u; // spinning on a collective that never completes
            } else if (t >= w.tInit && t < st.end && t < w.tTrain0) {
                util = 3 + 5 * u, power = 120 + 20 * u, temp = 38 + 4 * u;
            }
            const double xid = t >= xidAt(w, gx) ? gx.xid : 0;
            const double dbe = t >= gx.dbeAt ? 1 : 0;
            const double crc = t >= gx.nvlinkAt ? double((t - gx.nvlinkAt) / kSec * 13 + 40) : 0;
            // Each flit that fails its CRC is replayed; a link that goes down retrains (a recovery).
            const double replay = t >= gx.nvlinkAt ? double((t - gx.nvlinkAt) / kSec * 13 + 40) : 0;
            const double recovery = t >= gx.linkDownAt ? 1 : 0;
            row.push_back({"DCGM_FI_DEV_XID_ERRORS", g, xid, 0});
            row.push_back({"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", g, dbe, 0});
            row.push_back({"DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", g, crc, 0});
            row.push_back({"DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", g, replay, 0});
            row.push_back({"DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", g, recovery, 0});
            row.push_back({"DCGM_FI_DEV_GPU_UTIL", g, std::round(util), 0});
            row.push_back({"DCGM_FI_DEV_POWER_USAGE", g, power, 3});
            row.push_back({"DCGM_FI_DEV_GPU_TEMP", g, std::round(temp), 0});
        }
        // node-exporter: the rail HCA next to each GPU, port 1; counters from boot, zero again after a restart
        const bool fresh = restarts && t >= restartAt;
        for (int g = 0; g < w.gpus; ++g) {
            const GpuFx& gx = fx.gpu[size_t(g)];
            const double base = fresh ? 0 : double(mix64(uint64_t(n) * 8 + uint64_t(g)) % 3);
            row.push_back({"node_infiniband_link_downed_total", g, base + (t >= gx.ibAt ? 1 : 0), 0});
            row.push_back({"node_infiniband_symbol_error_total", g,
                           (fresh ? 0 : double(mix64(uint64_t(n) * 8 + uint64_t(g) + 99) % 5)) + (t >= gx.ibAt ? 65535 : 0), 0});
        }
        row.push_back({"node_uname_info", -1, 1, 0});
        for (const Sample& s : row) {
            std::string& b = f.buf();
            b += s.name;
            if (s.name[0] == 'D') {
                b += gpuLabels[size_t(s.gpu)];
            } else if (s.gpu >= 0) {
                b += "{instance=\"" + instance + "\",job=\"node\",device=\"mlx5_" + std::to_string(s.gpu) + "\",port=\"1\"}";
            } else {
                b += "{instance=\"" + instance + "\",job=\"node\",nodename=\"" + nd.name + "\",release=\"6.1.0\"}";
            }
            b.push_back(' ');
            if (s.decimals)
                appendFixed(b, s.value, s.decimals);
            else
                appendInt(b, int64_t(std::llround(s.value)));
            b += stamp;
            f.commit();
        }
        row.clear();
    }
    return f.close(error);
}

} // namespace fl::synth
