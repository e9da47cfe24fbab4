// SPDX-License-Identifier: MIT
#include "viewfixture.h"

#include "engine/families.h"
#include "present/role.h"

#include <QDir>
#include <QFile>

#include <stdexcept>

namespace fl::test {

namespace {

constexpr int64_t kSec = 1'000'000'000;

std::string nodeName(int n)
{
    return "node0" + std::to_string(n + 1);
}

// One log file being written: remembers where each line starts.
struct LogWriter {
    std::string bundlePath;
    std::string data;
    uint32_t lines = 0;

    RawRef add(uint32_t file, const std::string& line)
    {
        RawRef r;
        r.file = FileId(file);
        r.offset = data.size();
        r.length = static_cast<uint32_t>(line.size());
        r.line = ++lines;
        data += line;
        data += '\n';
        return r;
    }
};

std::string stamp(int64_t ns)
{
    const int64_t s = ns / kSec;
    const int64_t sod = s % 86400;
    char buf[64];
    std::snprintf(buf, sizeof buf, "2024-05-01T%02lld:%02lld:%02lld.%03lldZ", static_cast<long long>(sod / 3600),
                  static_cast<long long>(sod / 60 % 60), static_cast<long long>(sod % 60),
                  static_cast<long long>(ns % kSec / 1'000'000));
    return buf;
}

struct Builder {
    Analysis a;
    std::vector<LogWriter> logs;

    uint32_t addFile(const std::string& path, SourceKind kind, const std::string& node, int rank)
    {
        SourceFile f;
        f.index = FileId(static_cast<uint32_t>(a.bundle.files.size()));
        f.path = path;
        f.kind = kind;
        f.kindReason = "name token";
        f.node = node;
        f.rank = rank;
        a.bundle.files.push_back(f);
        logs.push_back({path, {}, 0});
        return f.index.value;
    }

    void filler(uint32_t file, int64_t t, int count, const std::string& what)
    {
        for (int i = 0; i < count; ++i)
            logs[file].add(file, stamp(t + i * kSec) + " " + what + " step " + std::to_string(1000 + i));
    }

    uint32_t observe(uint32_t file, int64_t t, const std::string& text, Severity sev, int rank, int gpu)
    {
        Observation o;
        o.id = ObservationId(static_cast<uint32_t>(a.observations.size()));
        o.ref = logs[file].add(file, stamp(t) + " " + text);
        o.source = a.bundle.files[file].kind;
        o.time.ns = t;
        o.time.basis = TimeBasis::Absolute;
        o.node = a.bundle.files[file].node;
        o.rank = rank;
        o.gpuIndex = gpu;
        o.severity = sev;
        o.text = text;
        a.observations.push_back(o);
        return o.id.value;
    }

    SymptomEvent& event(const std::string& symptom, uint32_t obs, EventKind kind)
    {
        const Observation& o = a.observations[obs];
        SymptomEvent e;
        e.id = EventId(static_cast<uint32_t>(a.result.events.size()));
        e.symptom = e.originalSymptom = symptom;
        e.kind = kind;
        e.node = o.node;
        e.rank = o.rank;
        e.gpuIndex = o.gpuIndex;
        e.time.ns = o.time.ns;
        e.time.basis = o.time.basis;
        e.observations = {ObservationId(obs)};
        e.extractedBy = "extract." + symptom;
        a.result.events.push_back(e);
        return a.result.events.back();
    }

    void evidence(const SymptomEvent& e, EvidenceRole role)
    {
        const Observation& o = a.observations[e.observations.front().value];
        EvidenceItem it;
        it.id = EvidenceId(static_cast<uint32_t>(a.result.evidence.size()));
        it.kind = EvidenceKind::Log;
        it.source = o.source;
        it.file = a.bundle.files[o.ref.file.value].path;
        it.ref = o.ref;
        it.node = o.node;
        it.rank = o.rank;
        it.gpuIndex = o.gpuIndex;
        it.time.ns = o.time.ns;
        it.time.basis = o.time.basis;
        it.excerpt = o.text;
        it.role = role;
        it.symptom = e.symptom;
        it.event = e.id;
        a.result.evidence.push_back(it);
    }
};

} // namespace

std::shared_ptr<Analysis> makeIncident(const QString& dir, bool ambiguous)
{
    Builder b;
    Analysis& a = b.a;
    const int64_t t0 = kRootTimeNs;
    a.bundle.root = dir.toStdString();

    std::vector<uint32_t> syslog(kNodes), ranklog(kRanks);
    for (int n = 0; n < kNodes; ++n)
        syslog[n] = b.addFile(nodeName(n) + "/syslog", SourceKind::SysLog, nodeName(n), -1);
    for (int r = 0; r < kRanks; ++r)
        ranklog[r] = b.addFile("logs/rank" + std::to_string(r) + ".log", SourceKind::AppLog, nodeName(r / 4), r);
    const uint32_t notes = b.addFile("notes.txt", SourceKind::Unknown, "", -1);
    b.logs[notes].add(notes, "operator notes: job restarted twice");

    for (int n = 0; n < kNodes; ++n)
        b.filler(syslog[n], t0 - 30 * kSec, 20, "kernel: systemd[1]: heartbeat ok");
    for (int r = 0; r < kRanks; ++r)
        b.filler(ranklog[r], t0 - 60 * kSec, 25, "[rank" + std::to_string(r) + "] train loss 2.31");

    // Root: Xid 79 on node02 GPU 3 (rank 7).
    const uint32_t o0 = b.observe(syslog[1], t0,
                                  "kernel: NVRM: Xid (PCI:0000:91:00): 79, pid=2345, GPU has fallen off the bus.",
                                  Severity::Fatal, 7, 3);
    SymptomEvent& root = b.event("gpu.xid.79", o0, EventKind::BadNode);
    root.pciBus = "0000:91:00";
    root.fields = {{"xid", "79"}};
    b.filler(syslog[1], t0 + kSec, 10, "kernel: nvidia-peermem heartbeat");

    // Symptoms: NCCL watchdog timeouts on every other rank, 10 min later.
    for (int r = 0; r < kRanks; ++r) {
        if (r == 7)
            continue;
        const int64_t t = t0 + 600 * kSec + r * 50'000'000;
        const uint32_t o = b.observe(ranklog[r], t,
                                     "[Rank " + std::to_string(r) + "] Watchdog caught collective operation timeout: "
                                     "WorkNCCL(SeqNum=4821, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600042 ms",
                                     Severity::Error, r, r % 4);
        b.event("nccl.watchdog_timeout", o, EventKind::BadNode);
        b.filler(ranklog[r], t + kSec, 3, "[rank" + std::to_string(r) + "] shutting down");
    }
    // Interesting: Xid 63 (row remapping) on node03, and a suppressed duplicate.
    const uint32_t oi = b.observe(syslog[2], t0 - 20 * kSec,
                                  "kernel: NVRM: Xid (PCI:0000:3b:00): 63, Row Remapper: New row marked for remapping",
                                  Severity::Warning, -1, 0);
    b.event("gpu.xid.63", oi, EventKind::InterestingNode);
    const uint32_t os = b.observe(syslog[0], t0 + 610 * kSec, "kernel: NCCL WARN NET/IB : Got completion with error 12",
                                  Severity::Warning, -1, -1);
    SymptomEvent& sup = b.event("network.ib.completion_error", os, EventKind::BadNode);
    sup.suppressed = true;
    sup.suppressedBy = "filter.ib-after-gpu-loss";
    sup.suppressReason = "IB completion errors follow the loss of a peer GPU";

    Result& r = a.result;
    r.outcome = WorkloadOutcome::Failed;
    r.workloadId = "llm-pretrain-42";
    r.attempt = 1;
    r.windowStartNs = t0 - 120 * kSec;
    r.windowEndNs = t0 + 700 * kSec;
    r.engineVersion = "0.1.0";
    for (int n = 0; n < kNodes; ++n)
        r.affectedNodes.push_back(nodeName(n));

    const size_t symptomsEnd = r.events.size() - 2;
    for (size_t i = 1; i < symptomsEnd; ++i)
        r.edges.push_back({EventId(kRootEvent), r.events[i].id, "chain.gpu-loss-stalls-collectives", "rank lost its peer"});
    r.edges.push_back({EventId(kRootEvent), r.events.back().id, "chain.gpu-loss-ib-errors", "peer gone"});

    auto candidate = [&](uint32_t event, const char* title, const char* sub, int rank, int gpu, uint32_t support,
                         bool chosen, CandidateReason reason) {
        const SymptomEvent& e = r.events[event];
        Candidate c;
        c.event = EventId(event);
        c.symptom = e.symptom;
        c.title = title;
        c.domain = Domain::Gpu;
        c.subDomain = sub;
        c.node = e.node;
        c.rank = rank;
        c.gpuIndex = gpu;
        c.time.ns = e.time.ns;
        c.support = support;
        c.chosen = chosen;
        c.outcome.reason = reason;
        return c;
    };
    Candidate c0 = candidate(kRootEvent, "GPU fell off the bus (Xid 79)", "pcie", 7, 3,
                             static_cast<uint32_t>(symptomsEnd - 1), true, CandidateReason::RootCause);
    Candidate c1 = candidate(static_cast<uint32_t>(symptomsEnd), "Row remapping pending (Xid 63)", "memory", -1, 0, 0,
                             false, CandidateReason::Lighter);
    c1.outcome.other = EventId(kRootEvent);
    if (ambiguous) {
        r.status = ResultStatus::Ambiguous;
        r.domain = Domain::Gpu;
        c0.chosen = false;
        c0.outcome = {CandidateReason::TiedWith, c1.event, 1'500'000'000, 2'000'000'000};
        c1.outcome = {CandidateReason::TiedWith, c0.event, 1'500'000'000, 2'000'000'000};
        c1.support = c0.support;
        r.summary = "Two GPU faults on different nodes explain the collective timeouts equally well.";
        r.missing = {"nvidia-smi -q from node02 and node03", "Fabric Manager log"};
    } else {
        r.status = ResultStatus::Attributed;
        r.domain = Domain::Gpu;
        r.subDomain = "pcie";
        RootCause rc;
        rc.event = EventId(kRootEvent);
        rc.symptom = "gpu.xid.79";
        rc.title = "GPU fell off the bus (Xid 79)";
        rc.node = "node02";
        rc.gpuIndex = 3;
        rc.pciBus = "0000:91:00";
        rc.rank = 7;
        rc.time.ns = t0;
        rc.evidence = {EvidenceId(0)};
        rc.advice = "Drain node02, reseat or replace GPU 3, check PCIe link and power.";
        r.rootCause = rc;
        r.summary = "GPU 3 on node02 fell off the bus; 15 ranks then timed out in NCCL all-reduce.";
        r.missing = {"Fabric Manager log for node02"};
    }
    r.candidates = {c0, c1};

    if (ambiguous) {
        // Report rules mark each tied contender as root evidence.
        r.events[0].evidenceRole = EvidenceRole::Root;
        r.events[symptomsEnd].evidenceRole = EvidenceRole::Root;
    }
    b.evidence(r.events[0], EvidenceRole::Root);
    for (size_t i = 1; i < symptomsEnd; ++i)
        b.evidence(r.events[i], EvidenceRole::Symptom);
    b.evidence(r.events[symptomsEnd], ambiguous ? EvidenceRole::Root : EvidenceRole::Interesting);
    b.evidence(r.events.back(), EvidenceRole::Context);

    r.rulesFired = {{"extract.gpu.xid", Phase::Extract, "extracted", 2},
                    {"extract.nccl.watchdog", Phase::Extract, "extracted", 15},
                    {"filter.ib-after-gpu-loss", Phase::FilterLate, "suppressed", 1},
                    {"chain.gpu-loss-stalls-collectives", Phase::RefineFinal, "linked", 15},
                    {"outcome.failed", Phase::Outcome, "chose", 1}};
    a.trace = {{Phase::Extract, "extract.gpu.xid", TraceAction::Extracted, {EventId(0), EventId(static_cast<uint32_t>(symptomsEnd))}, "2 Xid lines", {}},
               {Phase::FilterLate, "filter.ib-after-gpu-loss", TraceAction::Suppressed, {r.events.back().id}, "after peer loss", {}},
               {Phase::RefineFinal, "chain.gpu-loss-stalls-collectives", TraceAction::Linked, {EventId(0), EventId(1), EventId(2)}, "15 timeouts follow", {}},
               {Phase::Outcome, "engine", TraceAction::Chose, {EventId(0)}, "earliest initiator with most support", {}}};

    // Metrics: GPU temperature per node and GPU, one sample every 10 s.
    for (int n = 0; n < kNodes; ++n) {
        for (int g = 0; g < 4; ++g) {
            MetricSeries s;
            s.name = "DCGM_FI_DEV_GPU_TEMP";
            s.node = nodeName(n);
            s.gpu = g;
            for (int i = 0; i < 80; ++i) {
                const int64_t t = t0 - 120 * kSec + i * 10 * kSec;
                double v = 55 + n * 2 + g + (i % 7) * 0.8;
                if (n == 1 && g == 3 && t >= t0)
                    v = 0;  // GPU gone: DCGM reports nothing useful
                s.samples.push_back({t, v, 0, 1});
            }
            a.metrics.push_back(s);
            s.name = "DCGM_FI_DEV_GPU_UTIL";
            for (auto& smp : s.samples)
                smp.value = smp.timeNs < t0 + 600 * kSec ? 95 - g : 0;
            a.metrics.push_back(s);
        }
    }

    // Write the files and fill in the coverage report.
    QDir().mkpath(dir);
    for (size_t i = 0; i < b.logs.size(); ++i) {
        SourceFile& f = a.bundle.files[i];
        const QString disk = dir + QLatin1Char('/') + QString::fromStdString(f.path);
        QDir().mkpath(QFileInfo(disk).absolutePath());
        QFile out(disk);
        if (!out.open(QIODevice::WriteOnly))
            throw std::runtime_error("cannot write " + disk.toStdString());
        out.write(b.logs[i].data.data(), static_cast<qint64>(b.logs[i].data.size()));
        f.diskPath = disk.toStdString();
        f.size = b.logs[i].data.size();
        f.lines = b.logs[i].lines;
        ConnectorReport c;
        c.file = f.path;
        c.kind = f.kind;
        c.kindReason = f.kindReason;
        c.node = f.node;
        c.rank = f.rank;
        c.bytes = f.size;
        c.lines = f.lines;
        if (f.kind == SourceKind::Unknown) {
            f.status = FileStatus::Unrecognized;
            f.statusReason = "no known log shape in the first 64 KiB";
        }
        c.status = f.status;
        c.reason = f.statusReason;
        r.connectors.push_back(c);
    }
    for (const Observation& o : a.observations)
        ++a.bundle.files[o.ref.file.value].observations;
    for (size_t i = 0; i < r.connectors.size(); ++i)
        r.connectors[i].observations = a.bundle.files[i].observations;
    addFamilies(r);
    return std::make_shared<Analysis>(std::move(a));
}

void addFamilies(Result& r)
{
    std::vector<ChainEdge> edges;
    for (const ChainEdge& e : r.edges)
        if (e.from.value < r.events.size() && e.to.value < r.events.size() && e.from != e.to)
            edges.push_back(e);
    const present::EventRoles roles(r, edges);
    detail::FamilyInputs in;
    in.rootsOf.resize(r.events.size());
    std::vector<std::vector<EventId>> children(r.events.size());
    for (const ChainEdge& e : edges)
        children[e.from.value].push_back(e.to);
    for (EventId root : roles.roots()) {
        if (root.value >= r.events.size())
            continue;
        std::vector<bool> seen(r.events.size());
        std::vector<EventId> stack{root};
        while (!stack.empty()) {
            const EventId id = stack.back();
            stack.pop_back();
            for (EventId to : children[id.value])
                if (!roles.isRoot(to) && !seen[to.value]) {
                    seen[to.value] = true;
                    in.rootsOf[to.value].push_back(root);
                    stack.push_back(to);
                }
        }
    }
    for (const SymptomEvent& e : r.events) {
        in.roles.push_back(roles(e));
        in.titles.emplace_back();
    }
    r.families.clear();
    r.familyEdges.clear();
    detail::buildFamilies(r.events, edges, in, r);
}

int fileIndex(const Analysis& a, const std::string& path)
{
    for (const auto& f : a.bundle.files)
        if (f.path == path)
            return static_cast<int>(f.index.value);
    return -1;
}

std::shared_ptr<const Analysis> ambiguousSample()
{
    static const auto a = std::make_shared<const Analysis>(
        analyze(FAULTLINE_SOURCE_DIR "/samples/ambiguous-two-faults", AnalyzeOptions{}));
    return a;
}

} // namespace fl::test
