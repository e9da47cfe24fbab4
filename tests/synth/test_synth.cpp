#include "synth/synth.h"
#include "synth/world.h"
#include "bundle/bundle.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using fl::synth::Options;
using fl::synth::Truth;

namespace {

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::map<std::string, std::string> readDir(const fs::path& dir)
{
    std::map<std::string, std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        out[e.path().filename().string()] = readAll(e.path());
    return out;
}

// Seconds since midnight of the first "HH:MM:SS[.frac]" on the line; -1 when none.
double secondOfDay(const std::string& line)
{
    auto digit = [&](size_t i) { return i < line.size() && line[i] >= '0' && line[i] <= '9'; };
    for (size_t i = 0; i + 8 <= line.size(); ++i) {
        if (!(digit(i) && digit(i + 1) && line[i + 2] == ':' && digit(i + 3) && digit(i + 4) && line[i + 5] == ':' &&
              digit(i + 6) && digit(i + 7)))
            continue;
        double s = std::stoi(line.substr(i, 2)) * 3600 + std::stoi(line.substr(i + 3, 2)) * 60 + std::stoi(line.substr(i + 6, 2));
        size_t j = i + 8;
        if (j < line.size() && line[j] == '.') {
            double scale = 0.1;
            for (++j; digit(j); ++j, scale /= 10)
                s += (line[j] - '0') * scale;
        }
        return s;
    }
    return -1;
}

Options small(const std::string& fault)
{
    Options o;
    o.fault = fault;
    o.nodes = 4;
    o.gpusPerNode = 4;
    o.iterations = 20;
    o.seed = 7;
    return o;
}

std::optional<Truth> gen(const Options& o, const fs::path& dir)
{
    std::string error;
    std::optional<Truth> t = fl::synth::generate(o, dir.string(), &error);
    if (!t)
        qWarning("generate failed: %s", error.c_str());
    return t;
}

const std::map<std::string, std::set<std::string>>& closedList()
{
    static const std::map<std::string, std::set<std::string>> m = {
        {"gpu", {"gpu_lost", "memory_ecc", "gsp", "gpu_hang", "pmu_fault", "row_remap_failure", "application_fault", "straggler"}},
        {"nvlink", {"nvlink_error", "signal_integrity", "nvswitch_fatal", "fabric_manager", "peer_link_fault"}},
        {"network", {"ib_link", "ib_config", "nic_fatal", "peer_unreachable"}},
        {"host", {"oom", "shm_exhausted", "segfault", "pcie", "mce", "hung_task", "node_reboot"}},
        {"storage", {"filesystem", "checkpoint_write", "missing_data"}},
        {"scheduler", {"preemption", "time_limit", "user_cancel", "node_fail"}},
        {"workload", {"exception", "cuda_oom", "nan_loss", "collective_mismatch", "timeout_misconfig", "rendezvous", "application_fault"}},
    };
    return m;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

} // namespace

class TestSynth : public QObject {
    Q_OBJECT
private slots:
    void sameOptionsSameBytes()
    {
        QTemporaryDir a, b, c;
        Options o = small("xid79");
        o.clockSkewSec = 5;
        o.noiseLevel = 2;
        QVERIFY(gen(o, a.path().toStdString()));
        QVERIFY(gen(o, b.path().toStdString()));
        const auto da = readDir(a.path().toStdString()), db = readDir(b.path().toStdString());
        QCOMPARE(da.size(), db.size());
        QVERIFY(da.size() > 10);
        for (const auto& [name, bytes] : da) {
            QVERIFY2(db.count(name), name.c_str());
            QVERIFY2(db.at(name) == bytes, name.c_str());
        }
        o.seed = 8;
        QVERIFY(gen(o, c.path().toStdString()));
        const auto dc = readDir(c.path().toStdString());
        int differing = 0;
        for (const auto& [name, bytes] : da)
            differing += !dc.count(name) || dc.at(name) != bytes;
        QVERIFY(differing > 0);
    }

    void everyKindGeneratesWithValidTruth()
    {
        const auto& kinds = fl::synth::faultKinds();
        QVERIFY(kinds.size() >= 22); // 20 + ambiguous + none
        std::set<std::string> ids;
        for (const auto& k : kinds) {
            QVERIFY2(ids.insert(k.id).second, k.id.c_str());
            // Its own scenario builder, not the fallback that injects nothing.
            QVERIFY2(fl::synth::hasScenario(k.id), k.id.c_str());
            QTemporaryDir d;
            const fs::path dir = d.path().toStdString();
            const std::optional<Truth> made = gen(small(k.id), dir);
            QVERIFY2(made, k.id.c_str());
            const Truth& t = *made;
            QCOMPARE(t.fault, k.id);
            if (k.id == "none" || k.id == "late_fault_only") {
                QCOMPARE(std::string(fl::toString(t.status)), std::string("unattributed"));
            } else if (k.id == "ambiguous" || k.id == "ambiguous_domains") {
                QCOMPARE(std::string(fl::toString(t.status)), std::string("ambiguous"));
                QVERIFY(!t.alsoAcceptableNodes.empty());
                QVERIFY(t.alsoAcceptableNodes[0] != t.culpritNode);
            } else {
                QCOMPARE(std::string(fl::toString(t.status)), std::string("attributed"));
                const std::string domain(fl::toString(t.domain));
                QVERIFY2(closedList().count(domain), k.id.c_str());
                QVERIFY2(closedList().at(domain).count(t.subDomain), (k.id + " " + t.subDomain).c_str());
            }
            // truth.json on disk says the same.
            const auto tj = nlohmann::json::parse(readAll(dir / "truth.json"));
            QCOMPARE(tj.at("status").get<std::string>(), std::string(fl::toString(t.status)));
            QCOMPARE(tj.at("sub_domain").get<std::string>(), t.subDomain);
            QCOMPARE(tj.at("culprit_node").get<std::string>(), t.culpritNode);
            // ... and eval's reader gets back every field synth wrote (one Truth, one format).
            const fl::Truth back = fl::readTruth((dir / "truth.json").string());
            QVERIFY2(back == t, k.id.c_str());
            // Manifest: every node and rank, culprit among them.
            const auto m = nlohmann::json::parse(readAll(dir / "workload.json"));
            QCOMPARE(m.at("nodes").size(), size_t(4));
            QCOMPARE(m.at("ranks").size(), size_t(16));
            QVERIFY(m.at("failure").at("detected_at").get<std::string>() > m.at("window").at("start").get<std::string>());
            if (!t.culpritNode.empty()) {
                bool found = false;
                for (const auto& n : m.at("nodes"))
                    found = found || n.get<std::string>() == t.culpritNode;
                QVERIFY2(found, k.id.c_str());
            }
            if (t.culpritRank >= 0 && !t.culpritNode.empty())
                QCOMPARE(m.at("ranks").at(std::to_string(t.culpritRank)).at("node").get<std::string>(), t.culpritNode);
            for (int r = 0; r < 16; ++r) {
                const std::string node = m.at("ranks").at(std::to_string(r)).at("node").get<std::string>();
                QVERIFY(fs::exists(dir / ("applog-" + node + "-rank" + std::to_string(r) + ".log")));
            }
            QVERIFY(fs::exists(dir / "sacct.txt"));
        }
        QVERIFY(!fl::synth::hasScenario("no_such_fault"));
    }

    // Metrics only, Xid 149: dcgm-exporter's last-Xid field says 149 on the culprit GPU, which names an NVLink fatal
    // error there (the catalogue's nvlink / nvlink_error); the kernel line's reason code (signal integrity) is
    // not in the scrape, so the truth does not ask for it.
    void metricsOnlyXid149IsAnNvlinkError()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        Options o = small("xid149");
        o.metrics = "dcgm";
        o.metricsOnly = true;
        {
            // A job too short for the scrapes to see the field change (it says 149 from the first one): a value
            // left from before, as far as the field can tell; the GPU's NVLink replay and recovery counters,
            // which rise during the job, name the link.
            QTemporaryDir early;
            const std::optional<Truth> e = gen(o, early.path().toStdString());
            QVERIFY(e);
            QCOMPARE(int(e->status), int(fl::ResultStatus::Attributed));
            QVERIFY(e->domain == fl::Domain::Nvlink);
            QCOMPARE(e->subDomain, std::string("link_errors"));
            const std::string gpu = "{gpu=\"" + std::to_string(e->culpritGpu) + "\"";
            bool recovered = false;
            for (const auto& l : lines(readAll(fs::path(early.path().toStdString()) / ("scrape-" + e->culpritNode + ".prom"))))
                if (l.rfind("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL" + gpu, 0) == 0 && l.find("} 1 ") != std::string::npos)
                    recovered = true;
            QVERIFY(recovered);
        }
        o.iterations = 200;
        const std::optional<Truth> t = gen(o, dir);
        QVERIFY(t);
        QCOMPARE(int(t->status), int(fl::ResultStatus::Attributed));
        QVERIFY(t->domain == fl::Domain::Nvlink);
        QCOMPARE(t->subDomain, std::string("nvlink_error"));
        QVERIFY(t->culpritGpu >= 0);
        bool seen = false;
        for (const auto& l : lines(readAll(dir / ("scrape-" + t->culpritNode + ".prom"))))
            if (l.rfind("DCGM_FI_DEV_XID_ERRORS{gpu=\"" + std::to_string(t->culpritGpu) + "\"", 0) == 0 &&
                l.find("} 149 ") != std::string::npos)
                seen = true;
        QVERIFY(seen);
    }

    void culpritSyslogHasTheInjectedXid()
    {
        const std::map<std::string, std::string> xidOf = {{"xid79", "79"},  {"xid48", "48"}, {"xid64", "64"},
                                                          {"xid119", "119"}, {"xid13", "13"}, {"xid74", "74"},
                                                          {"xid149", "149"}, {"pcie_aer", "79"}};
        for (const auto& [fault, xid] : xidOf) {
            QTemporaryDir d;
            const fs::path dir = d.path().toStdString();
            const std::optional<Truth> made = gen(small(fault), dir);
            QVERIFY(made);
            const Truth& t = *made;
            QVERIFY(!t.culpritNode.empty());
            QVERIFY(t.culpritGpu >= 0);
            const auto sys = lines(readAll(dir / ("syslog-" + t.culpritNode + ".log")));
            // Find the Xid; the identity line for the same bus precedes it.
            std::string bus;
            bool identityFirst = false;
            std::set<std::string> identities;
            for (const auto& l : sys) {
                const auto gi = l.find("NVRM: GPU at PCI:");
                if (gi != std::string::npos)
                    identities.insert(l.substr(gi + 17, 10));
                const auto xi = l.find("NVRM: Xid (PCI:");
                if (xi != std::string::npos && l.find("): " + xid + ",", xi) != std::string::npos && bus.empty()) {
                    bus = l.substr(xi + 15, 10);
                    identityFirst = identities.count(bus) > 0;
                    QVERIFY2(l.find(" " + t.culpritNode + " kernel: [") != std::string::npos, l.c_str());
                }
            }
            QVERIFY2(!bus.empty(), fault.c_str());
            QVERIFY2(identityFirst, fault.c_str());
            // No other node got this fatal Xid.
            for (const auto& e : fs::directory_iterator(dir)) {
                const std::string name = e.path().filename().string();
                if (name.rfind("syslog-", 0) != 0 || name == "syslog-" + t.culpritNode + ".log")
                    continue;
                QVERIFY2(readAll(e.path()).find("): " + xid + ", ") == std::string::npos, (fault + " " + name).c_str());
            }
        }
    }

    void victimsTimeOutOnOneSeqNum()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        const std::optional<Truth> made = gen(small("xid79"), dir);
        QVERIFY(made);
        const Truth& t = *made;
        std::set<std::string> seqs;
        int timedOut = 0;
        for (const auto& e : fs::directory_iterator(dir)) {
            const std::string name = e.path().filename().string();
            if (name.rfind("applog-", 0) != 0)
                continue;
            const std::string text = readAll(e.path());
            const bool isCulprit = name.find("-rank" + std::to_string(t.culpritRank) + ".log") != std::string::npos;
            const auto pos = text.find("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=");
            if (isCulprit) {
                QVERIFY(pos == std::string::npos);
                QVERIFY(text.find("Process group watchdog thread terminated with exception: CUDA error: unknown error")
                        != std::string::npos);
                continue;
            }
            if (pos == std::string::npos)
                continue;
            ++timedOut;
            const auto start = pos + 62;
            seqs.insert(text.substr(start, text.find(',', start) - start));
            QVERIFY(text.find("Timeout(ms)=600000") != std::string::npos);
        }
        // All ranks off the culprit node time out (its own node is torn down by torchrun).
        QCOMPARE(timedOut, 12);
        QCOMPARE(seqs.size(), size_t(1));
    }

    void nodeFailNamesFailedNodeNotBatchHost()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        const std::optional<Truth> made = gen(small("node_fail"), dir);
        QVERIFY(made);
        const Truth& t = *made;
        QVERIFY(!t.culpritNode.empty());
        QVERIFY(t.culpritNode != "node-0001");
        const std::string sacct = readAll(dir / "sacct.txt");
        QVERIFY(sacct.find("|NODE_FAIL|") != std::string::npos);
        QVERIFY(sacct.find("|" + t.culpritNode + "\n") != std::string::npos);
        std::string out;
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().filename().string().rfind("slurm-", 0) == 0)
                out = readAll(e.path());
        QVERIFY(out.find("srun: error: Node failure on " + t.culpritNode) != std::string::npos);
        QVERIFY(out.find(" ON node-0001 CANCELLED AT ") != std::string::npos);
        QVERIFY(out.find("DUE TO NODE FAILURE") != std::string::npos);
        // The job cannot end before the scheduler gave up on the node.
        const auto at = out.find("CANCELLED AT ") + 13;
        const std::string cancelled = out.substr(at, 19);
        const auto jobRow = lines(sacct).at(1);
        std::vector<std::string> cols;
        std::stringstream ss(jobRow);
        for (std::string c; std::getline(ss, c, '|');)
            cols.push_back(c);
        QVERIFY(cols.size() >= 10);
        QCOMPARE(cols[2], std::string("gpu"));
        QVERIFY2(cols[9] >= cancelled, (cols[9] + " < " + cancelled).c_str());
    }

    void skewMovesTimestamps()
    {
        // Iteration 1 is logged at the same true instant on every node; the
        // printed time differs only by that node's skew.
        auto firstIterationSecond = [](const fs::path& dir, int nodes, int gpus) {
            std::vector<int> secs;
            for (int n = 0; n < nodes; ++n) {
                const std::string node = "node-000" + std::to_string(n + 1);
                const auto text = readAll(dir / ("applog-" + node + "-rank" + std::to_string(n * gpus) + ".log"));
                const auto pos = text.find("] iteration        1/");
                if (pos == std::string::npos || pos < 9)
                    return std::vector<int>{};
                const std::string hms = text.substr(pos - 8, 8); // HH:MM:SS
                secs.push_back(std::stoi(hms.substr(0, 2)) * 3600 + std::stoi(hms.substr(3, 2)) * 60
                               + std::stoi(hms.substr(6, 2)));
            }
            return secs;
        };
        QTemporaryDir a, b;
        Options o = small("xid48");
        const fs::path da = a.path().toStdString(), db = b.path().toStdString();
        QVERIFY(gen(o, da));
        o.clockSkewSec = 30;
        QVERIFY(gen(o, db));
        const auto plain = firstIterationSecond(da, 4, 4), skewed = firstIterationSecond(db, 4, 4);
        QCOMPARE(plain.size(), size_t(4));
        QCOMPARE(skewed.size(), size_t(4));
        int moved = 0;
        for (size_t i = 0; i < 4; ++i) {
            QVERIFY(std::abs(plain[i] - plain[0]) <= 1);
            const int delta = std::abs(skewed[i] - plain[i]);
            QVERIFY(delta <= 31);
            moved += delta >= 2;
        }
        QVERIFY(moved >= 1);
        // The manifest is the scheduler's view: unskewed.
        const auto ma = nlohmann::json::parse(readAll(da / "workload.json"));
        const auto mb = nlohmann::json::parse(readAll(db / "workload.json"));
        QCOMPARE(ma.at("window").at("start"), mb.at("window").at("start"));
    }

    void appLogsOnlyAndMissingSources()
    {
        QTemporaryDir a, b;
        Options o = small("oom");
        o.appLogsOnly = true;
        QVERIFY(gen(o, a.path().toStdString()));
        int applogs = 0;
        for (const auto& e : fs::directory_iterator(a.path().toStdString())) {
            const std::string name = e.path().filename().string();
            if (name.rfind("applog-", 0) == 0) {
                ++applogs;
                continue;
            }
            QVERIFY2(name == "workload.json" || name == "truth.json", name.c_str());
        }
        QCOMPARE(applogs, 16);

        o.appLogsOnly = false;
        o.missingSources = {"syslog"};
        QVERIFY(gen(o, b.path().toStdString()));
        int syslogs = 0, metrics = 0;
        for (const auto& e : fs::directory_iterator(b.path().toStdString())) {
            const std::string name = e.path().filename().string();
            syslogs += name.rfind("syslog-", 0) == 0;
            metrics += name.rfind("metrics-", 0) == 0;
        }
        QCOMPARE(syslogs, 0);
        QCOMPARE(metrics, 4);
    }

    // The case: the culprit's clock runs ahead, so its peers' stamped
    // "remote process exited" reports print EARLIER than its own Xid 79, and
    // their untimed NCCL WARN names its address.
    void culpritClockAheadAndPeerReports()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        Options o = small("xid79");
        o.culpritAheadSec = 6;
        o.peerReports = true;
        const std::optional<Truth> made = gen(o, dir);
        QVERIFY(made);
        const Truth& t = *made;
        QVERIFY(!t.culpritNode.empty());
        const std::string ip = "10.64.0." + std::to_string(std::stoi(t.culpritNode.substr(5)));
        std::string xidAt;
        for (const auto& l : lines(readAll(dir / ("syslog-" + t.culpritNode + ".log"))))
            if (l.find("): 79, ") != std::string::npos && xidAt.empty())
                xidAt = l.substr(7, 8); // Mar 14 HH:MM:SS
        QVERIFY(!xidAt.empty());
        int reports = 0;
        for (const auto& e : fs::directory_iterator(dir)) {
            const std::string name = e.path().filename().string();
            if (name.rfind("applog-", 0) != 0 || name.find(t.culpritNode) != std::string::npos)
                continue;
            const std::string text = readAll(e.path());
            if (text.find("Got completion from peer " + ip + "<") == std::string::npos)
                continue;
            ++reports;
            const auto remote = text.find("remote process exited or there was a network error");
            QVERIFY(remote != std::string::npos);
            const auto stamp = text.rfind("[E314 ", remote);
            QVERIFY(stamp != std::string::npos);
            const std::string peerAt = text.substr(stamp + 6, 8);
            QVERIFY2(peerAt < xidAt, (name + ": " + peerAt + " vs Xid 79 at " + xidAt).c_str());
        }
        QCOMPARE(reports, 2); // the previous and the next node on the ring
        const auto tj = nlohmann::json::parse(readAll(dir / "truth.json"));
        QCOMPARE(tj.at("generator").at("culprit_ahead_sec").get<double>(), 6.0);
    }

    // logrotate cut the culprit's kernel log just after the episode began: the
    // fault's own Xid line is gone, the R590 Xid 45 naming it is kept, other
    // nodes' logs are whole.
    void rotatedSyslogKeepsOnlyTheLaterLines()
    {
        for (const auto& [fault, xid] : std::vector<std::pair<std::string, std::string>>{{"xid149", "149"}, {"xid48", "48"}}) {
            QTemporaryDir d;
            const fs::path dir = d.path().toStdString();
            Options o = small(fault);
            o.rotatedSyslog = true;
            const std::optional<Truth> made = gen(o, dir);
            QVERIFY(made);
            const Truth& t = *made;
            QCOMPARE(std::string(fl::toString(t.status)), std::string("attributed"));
            const std::string sys = readAll(dir / ("syslog-" + t.culpritNode + ".log"));
            const std::string lost = fault == "xid149" ? "149, NETIR_LINK_EVT Fatal" : "48, pid=";
            QVERIFY2(sys.find(lost) == std::string::npos, fault.c_str());
            QVERIFY2(sys.find("caused by previous Xid " + xid) != std::string::npos, fault.c_str());
            // The same bundle unrotated has the lost line and more lines before it.
            QTemporaryDir whole;
            o.rotatedSyslog = false;
            QVERIFY(gen(o, whole.path().toStdString()));
            const std::string full = readAll(fs::path(whole.path().toStdString()) / ("syslog-" + t.culpritNode + ".log"));
            QVERIFY2(full.find(lost) != std::string::npos, fault.c_str());
            QVERIFY(lines(full).size() > lines(sys).size());
        }
        // Without the option the Xid 45 carries no cause (pre-R590 text): the matrix is unchanged.
        QTemporaryDir d;
        QVERIFY(gen(small("xid48"), d.path().toStdString()));
        bool caused = false;
        for (const auto& e : fs::directory_iterator(d.path().toStdString()))
            caused = caused || readAll(e.path()).find("caused by previous Xid") != std::string::npos;
        QVERIFY(!caused);
    }

    // Megatron prints iteration lines on the last rank only.
    void iterationLinesOnTheLastRank()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        Options o = small("xid48");
        o.iterationsOnLastRank = true;
        QVERIFY(gen(o, dir));
        const std::string last = readAll(dir / "applog-node-0004-rank15.log");
        const std::string other = readAll(dir / "applog-node-0002-rank5.log");
        QVERIFY(last.find("] iteration        1/") != std::string::npos);
        QVERIFY(!other.empty());
        QVERIFY(other.find("] iteration ") == std::string::npos);
    }

    // Two independent faults in different domains inside one second: the
    // truth is ambiguous and names both nodes.
    // The watchdog's "ran for" points back to when each victim enqueued the collective: just after the
    // fault, the same moment on every rank. A second fault logged minutes into that wait comes after it.
    void ranForPointsBackToTheFault()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        const std::optional<Truth> made = gen(small("late_second_fault"), dir);
        QVERIFY(made);
        const Truth& t = *made;
        QCOMPARE(std::string(fl::toString(t.status)), std::string("attributed"));
        double enqueueLo = 1e18, enqueueHi = -1;
        int waits = 0;
        for (const auto& e : fs::directory_iterator(dir)) {
            if (e.path().filename().string().rfind("applog-", 0) != 0)
                continue;
            for (const auto& l : lines(readAll(e.path()))) {
                const auto ran = l.find(" ran for ");
                if (l.find("Watchdog caught collective operation timeout") == std::string::npos || ran == std::string::npos ||
                    l.find("thread terminated") != std::string::npos)
                    continue;
                const double fired = secondOfDay(l);
                QVERIFY2(fired >= 0, l.c_str());
                const double enqueued = fired - std::stod(l.substr(ran + 9)) / 1000.0;
                enqueueLo = std::min(enqueueLo, enqueued);
                enqueueHi = std::max(enqueueHi, enqueued);
                ++waits;
            }
        }
        QVERIFY(waits >= 8);
        QVERIFY2(enqueueHi - enqueueLo < 0.01, "every victim's 'ran for' points at one enqueue moment");
        auto syslogSecond = [&](const std::string& needle) {
            for (const auto& e : fs::directory_iterator(dir))
                if (e.path().filename().string().rfind("syslog-", 0) == 0)
                    for (const auto& l : lines(readAll(e.path())))
                        if (l.find(needle) != std::string::npos)
                            return secondOfDay(l);
            return -1.0;
        };
        const double xid79 = syslogSecond("): 79, "), xid48 = syslogSecond("): 48, ");
        QVERIFY(xid79 >= 0 && xid48 >= 0);
        QVERIFY2(xid79 <= enqueueLo && enqueueLo < xid79 + 2, "the hang begins just after the fault");
        QVERIFY2(xid48 >= enqueueLo + 119 && xid48 <= enqueueLo + 481, "the second fault comes minutes into the wait");

        QTemporaryDir d2;
        const std::optional<Truth> only = gen(small("late_fault_only"), d2.path().toStdString());
        QVERIFY(only);
        QCOMPARE(std::string(fl::toString(only->status)), std::string("unattributed"));
        QVERIFY(only->culpritNode.empty());
    }

    void crossDomainDoubleFault()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        const std::optional<Truth> made = gen(small("ambiguous_domains"), dir);
        QVERIFY(made);
        const Truth& t = *made;
        QCOMPARE(std::string(fl::toString(t.status)), std::string("ambiguous"));
        QCOMPARE(t.alsoAcceptableNodes.size(), size_t(1));
        const std::string other = t.alsoAcceptableNodes[0];
        QVERIFY(other != t.culpritNode);
        auto secondOf = [&](const std::string& node, const std::string& needle) {
            for (const auto& l : lines(readAll(dir / ("syslog-" + node + ".log"))))
                if (l.find(needle) != std::string::npos)
                    return l.substr(0, 15);
            return std::string();
        };
        const std::string ecc = secondOf(t.culpritNode, "): 48, "), cable = secondOf(other, "Cable error");
        QVERIFY(!ecc.empty());
        QCOMPARE(cable, ecc); // the same syslog second (no skew)
    }

    void rejectsBadOptions()
    {
        QTemporaryDir d;
        const std::string dir = d.path().toStdString() + "/x";
        auto bad = [&](Options o, const char* needle) {
            std::string error;
            QVERIFY(!fl::synth::generate(o, dir, &error));
            QVERIFY2(error.find(needle) != std::string::npos, error.c_str());
        };
        Options o;
        o.nodes = 0;
        bad(o, "nodes");
        o = Options{};
        o.nodes = 1251;
        bad(o, "nodes");
        o = Options{};
        o.fault = "xid999";
        bad(o, "unknown fault");
        o = Options{};
        o.startIso = "2026-02-30T10:00:00Z"; // no such day (read as March 2 before the one ISO 8601 reader)
        bad(o, "startIso");
        o = Options{};
        o.startIso = "2026-03-14 10:00 tomorrow";
        bad(o, "startIso");
        o = Options{};
        o.missingSources = {"dmesg"};
        bad(o, "dmesg");
        o = Options{};
        o.culpritAheadSec = -1;
        bad(o, "culpritAheadSec");
        QVERIFY(!fs::exists(dir));
    }

    // truth.json's status is one of the three verdicts; a typo is an error naming the file, not a
    // fourth class that eval would count as a miss.
    void truthRejectsUnknownStatus()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        QVERIFY(gen(small("xid79"), dir));
        const std::string path = (dir / "truth.json").string();
        std::string text = readAll(path);
        const std::string from = "\"status\": \"attributed\"";
        const size_t at = text.find(from);
        QVERIFY2(at != std::string::npos, text.c_str());
        text.replace(at, from.size(), "\"status\": \"atributed\"");
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        try {
            (void)fl::readTruth(path);
            QFAIL("readTruth accepted status 'atributed'");
        } catch (const fl::BundleError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(path) != std::string::npos, what.c_str());
            QVERIFY2(what.find("'atributed'") != std::string::npos, what.c_str());
        }
    }

    // The same for its domain: a word outside the closed list would be a class of its own in eval's confusion
    // matrix; an empty one is a truth that names no domain (an unattributable bundle's).
    void truthRejectsUnknownDomain()
    {
        QTemporaryDir d;
        const fs::path dir = d.path().toStdString();
        QVERIFY(gen(small("xid79"), dir));
        const std::string path = (dir / "truth.json").string();
        const std::string text = readAll(path);
        const std::string from = "\"domain\": \"gpu\"";
        const size_t at = text.find(from);
        QVERIFY2(at != std::string::npos, text.c_str());
        QVERIFY(fl::readTruth(path).domain == fl::Domain::Gpu);
        for (const auto& [word, refused] : {std::pair{"GPU", true}, {"gpus", true}, {"", false}}) {
            std::string changed = text;
            changed.replace(at, from.size(), std::string("\"domain\": \"") + word + "\"");
            std::ofstream(path, std::ios::binary | std::ios::trunc) << changed;
            try {
                const fl::Truth t = fl::readTruth(path);
                QVERIFY2(!refused, word);
                QVERIFY(!t.domain);
                QCOMPARE(fl::truthToJson(t).at("domain").get<std::string>(), std::string());
            } catch (const fl::BundleError& e) {
                const std::string what = e.what();
                QVERIFY2(refused, what.c_str());
                QVERIFY2(what.find(path) != std::string::npos && what.find(std::string("'") + word + "'") != std::string::npos,
                         what.c_str());
            }
        }
    }

    void eightNodesDefault()
    {
        QTemporaryDir d;
        Options o; // 8 nodes x 8 GPUs, 200 iterations: the README example
        const std::optional<Truth> made = gen(o, d.path().toStdString());
        QVERIFY(made);
        const Truth& t = *made;
        QCOMPARE(std::string(fl::toString(t.status)), std::string("attributed"));
        QCOMPARE(t.subDomain, std::string("gpu_lost"));
    }
};

QTEST_GUILESS_MAIN(TestSynth)
#include "test_synth.moc"
