// Metric rules (issue #42): DCGM / node-exporter series become events. The unit part drives
// detectMetric() with numbers (counter resets, bits, peers, all idle); the engine part runs bundles
// with the shipped rules and holds bad input to a note per file: non-monotonic timestamps, a counter
// reset, NaN/Inf, a label set that changes, a 100 MB scrape.
#include "engine/clock_offsets.h"
#include "engine/engine.h"
#include "present/verdict.h"
#include "rules/metric_detect.h"
#include "rules/ruleset.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::writeFile;

namespace {

MetricTrack track(const std::vector<double>& values, int64_t stepS = 15)
{
    MetricTrack t;
    for (size_t i = 0; i < values.size(); ++i)
        t.points.push_back({1'700'000'000'000'000'000LL + int64_t(i) * stepS * 1'000'000'000LL, values[i], uint32_t(i)});
    return t;
}

MetricRule rule(MetricKind kind)
{
    MetricRule r;
    r.series = "x";
    r.kind = kind;
    return r;
}

constexpr int64_t kT0 = 1773482400; // 2026-03-14T10:00:00Z

std::string dcgmLine(const std::string& name, const std::string& node, int gpu, const std::string& value, int64_t s,
                     const std::string& extra = "")
{
    return name + "{gpu=\"" + std::to_string(gpu) + "\",Hostname=\"" + node + "\"" + extra + "} " + value + " " +
           std::to_string(s * 1000) + "\n";
}

const SymptomEvent* find(const Result& r, const std::string& symptom)
{
    for (const auto& e : r.events)
        if (e.symptom == symptom)
            return &e;
    return nullptr;
}

bool warned(const Result& r, const std::string& file, const std::string& what)
{
    return std::any_of(r.warnings.begin(), r.warnings.end(), [&](const std::string& w) {
        return w.find(file) != std::string::npos && w.find(what) != std::string::npos;
    });
}

} // namespace

class TestMetricRules : public QObject {
    Q_OBJECT
private slots:
    void counterIncreaseCountsAResetFromZero()
    {
        MetricRule r = rule(MetricKind::Increase);
        auto f = detectMetric(r, {track({5, 5, 0, 2, 2})});
        QCOMPARE(f.size(), size_t(1));
        QCOMPARE(f[0].at, size_t(3)); // 0 -> 2 after the reset, not the fall itself
        QCOMPARE(QString::fromStdString(f[0].fields["increase"]), QStringLiteral("2"));
        QCOMPARE(QString::fromStdString(f[0].fields["resets"]), QStringLiteral("1"));
        QVERIFY(detectMetric(r, {track({5, 0, 0, 0})}).empty());
        QVERIFY(detectMetric(r, {track({3, 3, 3})}).empty());
    }

    void intervalIsTheScrapeInterval()
    {
        auto f = detectMetric(rule(MetricKind::Increase), {track({0, 0, 1})});
        QCOMPARE(f.size(), size_t(1));
        QCOMPARE(f[0].latestNs - f[0].earliestNs, int64_t(15'000'000'000));
        QCOMPARE(*f[0].previous, size_t(1));
    }

    void bitSetOnceAndOnlyMaskedBits()
    {
        MetricRule r = rule(MetricKind::Bits);
        r.bitNames = {{0x8, "hw_slowdown"}, {0x40, "hw_thermal"}};
        r.mask = 0x48;
        auto f = detectMetric(r, {track({1, 9, 1, 9, 73})});
        QCOMPARE(f.size(), size_t(2)); // 0x8 once (at 9), 0x40 at 73; the idle bit 0x1 never
        QCOMPARE(QString::fromStdString(f[0].fields["bit_name"]), QStringLiteral("hw_slowdown"));
        QCOMPARE(f[0].at, size_t(1));
        QCOMPARE(QString::fromStdString(f[1].fields["bit"]), QStringLiteral("0x40"));
    }

    void peersFindTheOddOneOutNotTheJob()
    {
        MetricRule r = rule(MetricKind::Peers);
        r.direction = "low";
        r.z = 4;
        r.minSpread = 5;
        std::vector<MetricTrack> t;
        for (int i = 0; i < 8; ++i)
            t.push_back(track({99, 98, 99, 100, 99, 98, 99}));
        t[5] = track({99, 98, 0, 0, 0, 0, 0});
        auto f = detectMetric(r, t);
        QCOMPARE(f.size(), size_t(1));
        QCOMPARE(f[0].track, size_t(5));
        QCOMPARE(f[0].at, size_t(2));
        QVERIFY(!f[0].others.empty()); // a peer's sample to draw beside it
        // Half the GPUs idle: a job-wide change, no odd one out.
        for (int i = 0; i < 4; ++i)
            t[i] = track({99, 98, 0, 0, 0, 0, 0});
        QVERIFY(detectMetric(r, t).empty());
        // Too few scrapes in a row.
        t.assign(8, track({99, 98, 99, 100, 99, 98, 99}));
        t[2] = track({99, 0, 0, 0, 99, 0, 99});
        QVERIFY(detectMetric(r, t).empty());
    }

    void allBelowIsOneJobEvent()
    {
        MetricRule r = rule(MetricKind::AllBelow);
        r.threshold = 0;
        r.minPeers = 2;
        auto f = detectMetric(r, {track({99, 99, 0, 0}), track({99, 0, 0, 0}), track({99, 99, 99, 0})});
        QCOMPARE(f.size(), size_t(1));
        QCOMPARE(f[0].track, size_t(1));
        QCOMPARE(f[0].latestNs - f[0].earliestNs, int64_t(45'000'000'000)); // point before the first drop (0 s) .. last drop (45 s)
        QVERIFY(detectMetric(r, {track({99, 0, 0}), track({99, 0, 40})}).empty());
        QVERIFY(detectMetric(r, {track({0, 0}), track({0, 0})}).empty());
    }

    // Power that falls for good on every series (spinning in a collective: utilisation stays up) is one job
    // event; a dip that recovers, or a series that keeps computing, is none; so is a fall at the last point alone.
    void allFallIsOneJobEvent()
    {
        MetricRule r = rule(MetricKind::AllFall);
        r.fraction = 0.6;
        r.minPoints = 4;
        r.minPeers = 2;
        const auto f = detectMetric(r, {track({600, 610, 590, 600, 605, 300, 280, 290, 90, 95}),
                                        track({620, 600, 610, 605, 600, 620, 290, 300, 95, 90}),
                                        track({600, 600, 600, 600, 600, 600, 600, 90, 90})});
        QCOMPARE(f.size(), size_t(1));
        QCOMPARE(f[0].track, size_t(0));
        QCOMPARE(f[0].at, size_t(5)); // the spin, not the process gone (its second fall)
        QCOMPARE(f[0].earliestNs, track({0}).points[0].timeNs + 4 * 15'000'000'000LL);
        QCOMPARE(f[0].latestNs, track({0}).points[0].timeNs + 7 * 15'000'000'000LL); // the third series' drop
        QVERIFY(f[0].until);
        QCOMPARE(f[0].until->first, size_t(2)); // the series that ends first: every one still low there
        QCOMPARE(f[0].until->second, size_t(8));
        QVERIFY(detectMetric(r, {track({600, 610, 590, 600, 605, 300, 280, 600, 610}),
                                 track({620, 600, 610, 605, 600, 290, 300, 600, 605})}).empty());
        QVERIFY(detectMetric(r, {track({600, 610, 590, 600, 605, 300, 280, 290}),
                                 track({620, 600, 610, 605, 600, 620, 600, 610})}).empty());
        QVERIFY(detectMetric(r, {track({600, 610, 590, 600, 605, 610, 300}),
                                 track({620, 600, 610, 605, 600, 620, 290})}).empty());
    }

    // Metrics alone: every GPU's power fell at 10:02:30 and stayed low, and one GPU's last Xid turned 48 five
    // minutes later. The Xid came after the job had stopped: it cannot be what stopped it, so the verdict is
    // unattributed with the fall as the hang's onset (synth's late_fault_only); an Xid before the fall is the cause.
    void aFaultAfterTheJobStoppedIsNotItsCause()
    {
        for (const int xidAt : {19, 9}) { // scrape index: 10:04:45 (after the fall at 10:02:30), 10:02:15
            QTemporaryDir dir;
            std::string prom;
            for (int k = 0; k < 24; ++k)
                for (int g = 0; g < 4; ++g) {
                    const int64_t s = kT0 + 15 * k;
                    prom += dcgmLine("DCGM_FI_DEV_POWER_USAGE", g < 2 ? "n1" : "n2", g % 2, k < 10 ? std::to_string(600 + 5 * g) : "280", s);
                    prom += dcgmLine("DCGM_FI_DEV_GPU_UTIL", g < 2 ? "n1" : "n2", g % 2, "100", s);
                    prom += dcgmLine("DCGM_FI_DEV_XID_ERRORS", g < 2 ? "n1" : "n2", g % 2, g == 3 && k >= xidAt ? "48" : "0", s);
                }
            writeFile(fs::path(dir.path().toStdString()) / "dcgm-metrics.prom", prom);
            Analysis a = analyze(dir.path().toStdString(), shippedOnly());
            const SymptomEvent* stall = find(a.result, "workload.metric.all_gpus_stalled");
            QVERIFY(stall);
            QVERIFY(stall->waited);
            QCOMPARE(stall->time.ns, (kT0 + 15 * 23) * 1'000'000'000); // seen at the last scrape, waiting since the fall
            QCOMPARE(a.result.candidates.size(), size_t(1));
            if (xidAt == 19) {
                QVERIFY(a.result.onset);
                QCOMPARE(a.result.onset->began.latestNs, (kT0 + 150) * 1'000'000'000 + 2'000'000'000); // + clock_skew_tolerance_s
                QCOMPARE(std::string(toString(a.result.status)), std::string("unattributed"));
                QVERIFY(a.result.candidates[0].outcome.reason == CandidateReason::AfterOnset);
                // The words say what dated the onset: the power fall, not waiting symptoms (there are none).
                const std::string verdict = present::candidateVerdict(a.result.candidates[0], a.result);
                QVERIFY2(verdict.find("the job-wide fall of every GPU's metrics (workload.metric.all_gpus_stalled) had begun by then") !=
                             std::string::npos, verdict.c_str());
                QVERIFY2(verdict.find("waiting symptoms") == std::string::npos, verdict.c_str());
                QCOMPARE(verdict, present::candidateVerdict(a.result.candidates[0], present::CandidateIndex(a.result)));
                QVERIFY(!a.result.missing.empty());
                QVERIFY2(a.result.missing[0].find("when the job-wide fall of every GPU's metrics (workload.metric.all_gpus_stalled) "
                                                  "says the hang began") != std::string::npos, a.result.missing[0].c_str());
            } else {
                QCOMPARE(std::string(toString(a.result.status)), std::string("attributed"));
                QVERIFY(a.result.rootCause);
                QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.48"));
            }
        }
    }

    // A DCGM scrape alone (no kernel log): the last Xid turning 79 on one GPU is the root cause there, with
    // the sample line as its raw evidence and the series named beside it.
    void dcgmXidIsAnEventOnItsGpu()
    {
        QTemporaryDir dir;
        std::string prom = "# TYPE DCGM_FI_DEV_XID_ERRORS gauge\n";
        for (int k = 0; k < 8; ++k)
            for (int g = 0; g < 2; ++g)
                prom += dcgmLine("DCGM_FI_DEV_XID_ERRORS", "n2", g, g == 1 && k >= 4 ? "79" : "0", kT0 + 15 * k,
                                 ",pci_bus_id=\"00000000:C1:00.0\"");
        writeFile(fs::path(dir.path().toStdString()) / "dcgm-metrics.prom", prom);
        Analysis a = analyze(dir.path().toStdString(), shippedOnly());
        QVERIFY(a.result.rootCause);
        QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
        QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("n2"));
        QCOMPARE(a.result.rootCause->gpuIndex, 1);
        const SymptomEvent* e = find(a.result, "gpu.xid.79");
        QVERIFY(e);
        QCOMPARE(e->time.interval.earliestNs, (kT0 + 45) * 1'000'000'000);
        QCOMPARE(e->time.interval.latestNs, (kT0 + 60) * 1'000'000'000);
        const auto& ids = a.result.rootCause->evidence;
        auto ev = std::find_if(a.result.evidence.begin(), a.result.evidence.end(), [&](const EvidenceItem& i) { return i.id == ids.front(); });
        QVERIFY(ev != a.result.evidence.end());
        QVERIFY(ev->kind == EvidenceKind::Metric);
        QVERIFY(ev->series.find("DCGM_FI_DEV_XID_ERRORS{") == 0);
        QVERIFY(ev->series.find("gpu=\"1\"") != std::string::npos);
        QVERIFY2(ev->excerpt.find("} 79 ") != std::string::npos, ev->excerpt.c_str());
        QCOMPARE(ev->ref.line, uint32_t(2 + 4 * 2 + 1)); // header + 4 scrapes x 2 GPUs, then GPU 1's
    }

    // dcgm-exporter's own count (DCGM_EXP_XID_ERRORS_COUNT): one series per Xid the GPU reported in the last
    // window, or one 0 without an `xid` label. GPU 1's xid="79" series appearing at the 6th scrape is an Xid 79
    // there, between the 5th and 6th; its fall when the report leaves the window is no second Xid, and GPU 0's
    // xid="13" series, there from the first scrape, counted before the window (not dated by it, no event).
    // With DCGM's own last-Xid field beside it, still one cause on that GPU.
    void dcgmExporterXidCountIsAnXidOnItsGpu()
    {
        for (const bool withField : {false, true}) {
            QTemporaryDir dir;
            std::string prom;
            const std::string window = ",window_size_in_ms=\"300000\"";
            for (int k = 0; k < 30; ++k) {
                const int64_t s = kT0 + 15 * k;
                prom += dcgmLine("DCGM_EXP_XID_ERRORS_COUNT", "n1", 0, "1", s, window + ",xid=\"13\"");
                if (k >= 5 && k < 25)
                    prom += dcgmLine("DCGM_EXP_XID_ERRORS_COUNT", "n1", 1, k < 10 ? "1" : "0", s, window + ",xid=\"79\"");
                else
                    prom += dcgmLine("DCGM_EXP_XID_ERRORS_COUNT", "n1", 1, "0", s, window);
                if (withField)
                    prom += dcgmLine("DCGM_FI_DEV_XID_ERRORS", "n1", 1, k >= 5 ? "79" : "0", s);
            }
            writeFile(fs::path(dir.path().toStdString()) / "dcgm-metrics.prom", prom);
            Analysis a = analyze(dir.path().toStdString(), shippedOnly());
            QVERIFY(a.result.rootCause);
            QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
            QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("n1"));
            QCOMPARE(a.result.rootCause->gpuIndex, 1);
            size_t fromCount = 0;
            for (const auto& e : a.result.events)
                if (e.extractedBy.str() == "metric.dcgm-exp.xid-count") {
                    ++fromCount;
                    QCOMPARE(e.symptom.str(), std::string("gpu.xid.79"));
                    QCOMPARE(e.gpuIndex, 1);
                    QCOMPARE(e.time.interval.earliestNs, (kT0 + 60) * 1'000'000'000);
                    QCOMPARE(e.time.interval.latestNs, (kT0 + 75) * 1'000'000'000);
                }
            QCOMPARE(fromCount, size_t(1));
            QVERIFY(!find(a.result, "gpu.xid.13"));
            QVERIFY(!warned(a.result, "dcgm-metrics.prom", "counter reset")); // a windowed count's fall is no reset
        }
    }

    // Bad input: each with a note naming the file and line, the events still found, no crash.
    void badScrapesAreNotedNotDropped()
    {
        QTemporaryDir dir;
        std::string prom;
        // counter reset, then a real increase
        for (int k = 0; k < 6; ++k)
            prom += dcgmLine("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "n1", 0, k < 2 ? "4" : k < 4 ? "0" : "2", kT0 + 15 * k);
        // NaN and Inf
        prom += dcgmLine("DCGM_FI_DEV_GPU_TEMP", "n1", 0, "NaN", kT0);
        prom += dcgmLine("DCGM_FI_DEV_GPU_TEMP", "n1", 0, "+Inf", kT0 + 15);
        prom += dcgmLine("DCGM_FI_DEV_GPU_TEMP", "n1", 0, "60", kT0 + 30);
        // non-monotonic times: the second scrape written before the first
        prom += dcgmLine("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "n1", 0, "3", kT0 + 15);
        prom += dcgmLine("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "n1", 0, "3", kT0);
        prom += dcgmLine("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "n1", 0, "9", kT0 + 30);
        // a label set that changes (the pod the GPU was given to) mid-series: still one series, the Xid found
        prom += dcgmLine("DCGM_FI_DEV_XID_ERRORS", "n1", 0, "0", kT0, ",pod=\"a\"");
        prom += dcgmLine("DCGM_FI_DEV_XID_ERRORS", "n1", 0, "0", kT0 + 15, ",pod=\"a\"");
        prom += dcgmLine("DCGM_FI_DEV_XID_ERRORS", "n1", 0, "48", kT0 + 30, ",pod=\"b\"");
        // a time written twice (lines 16, 17): the later sample stands, said
        prom += dcgmLine("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "n1", 1, "0", kT0);
        prom += dcgmLine("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "n1", 1, "0", kT0);
        prom += dcgmLine("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "n1", 1, "0", kT0 + 15);
        writeFile(fs::path(dir.path().toStdString()) / "bad-metrics.prom", prom);
        Analysis a = analyze(dir.path().toStdString(), shippedOnly());
        const Result& r = a.result;
        QVERIFY2(warned(r, "bad-metrics.prom:3", "counter reset"), "reset noted at its line");
        QVERIFY(warned(r, "bad-metrics.prom:7", "NaN or Inf"));
        QVERIFY(warned(r, "bad-metrics.prom:11", "before an earlier time"));
        QVERIFY(warned(r, "bad-metrics.prom", "label sets"));
        QVERIFY(warned(r, "bad-metrics.prom:17", "repeat a time"));
        const SymptomEvent* dbe = find(r, "gpu.metric.ecc_dbe");
        QVERIFY(dbe);
        QCOMPARE(QString::fromStdString(dbe->fields.at("increase")), QStringLiteral("2"));
        QVERIFY(find(r, "gpu.metric.pcie_replay"));
        QVERIFY(find(r, "gpu.xid.48"));
    }

    // The same bad input in Prometheus JSON (read straight from its text, parse/prom_json_scan.cpp): samples
    // out of time order, NaN, a counter reset, a sample that is no [time, value]; and the series no rule
    // reads are counted in a note, not dropped unsaid.
    void badPrometheusJsonIsNotedNotDropped()
    {
        QTemporaryDir dir;
        auto series = [](const std::string& name, const std::string& values) {
            return "{\"metric\":{\"__name__\":\"" + name + "\",\"gpu\":\"0\",\"Hostname\":\"n1\"},\"values\":[" + values + "]}";
        };
        auto v = [](int k, const std::string& x) { return "[" + std::to_string(kT0 + 15 * k) + ",\"" + x + "\"]"; };
        const std::string json = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n" +
            series("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", v(0, "4") + "," + v(1, "4") + "," + v(2, "0") + "," + v(3, "2")) + ",\n" +
            series("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", v(1, "3") + "," + v(0, "3") + "," + v(2, "9")) + ",\n" +
            series("DCGM_FI_DEV_GPU_TEMP", v(0, "NaN") + "," + v(1, "60") + ",[1,2,3]") + ",\n" +
            series("DCGM_FI_DEV_SM_CLOCK", v(0, "1980") + "," + v(1, "1980")) + "\n]}}\n";
        writeFile(fs::path(dir.path().toStdString()) / "prometheus-dcgm.json", json);
        Analysis a = analyze(dir.path().toStdString(), shippedOnly());
        const Result& r = a.result;
        QVERIFY(warned(r, "prometheus-dcgm.json:2", "counter reset"));
        QVERIFY(warned(r, "prometheus-dcgm.json:3", "before an earlier time"));
        QVERIFY(warned(r, "prometheus-dcgm.json:4", "NaN or Inf"));
        QVERIFY(warned(r, "prometheus-dcgm.json:4", "not [time, \"value\"]"));
        QVERIFY2(warned(r, "prometheus-dcgm.json", "2 of 11 metric samples are of metrics no metric rule reads"),
                 "the SM clock's two samples counted, not judged");
        const SymptomEvent* dbe = find(r, "gpu.metric.ecc_dbe");
        QVERIFY(dbe);
        QCOMPARE(QString::fromStdString(dbe->fields.at("increase")), QStringLiteral("2"));
        QVERIFY(find(r, "gpu.metric.pcie_replay"));
    }

    // Metric samples are dated by the metrics server (Prometheus stamps a sample when it scrapes), not by the
    // node whose GPU they describe: a node's log-clock offset does not move its metric events, which are as
    // uncertain as any clock without an estimate.
    void metricEventsAreOnTheMetricsServerClock()
    {
        QTemporaryDir dir;
        std::string prom;
        for (int k = 0; k < 8; ++k)
            prom += dcgmLine("DCGM_FI_DEV_XID_ERRORS", "n2", 1, k >= 4 ? "79" : "0", kT0 + 15 * k);
        writeFile(fs::path(dir.path().toStdString()) / "dcgm-metrics.prom", prom);
        Analysis a = analyze(dir.path().toStdString(), shippedOnly());
        const SymptomEvent* e = find(a.result, "gpu.xid.79");
        QVERIFY(e);
        QCOMPARE(QString::fromStdString(e->node), QStringLiteral("n2"));
        QCOMPARE(QString::fromStdString(e->clockNode), QString::fromStdString(detail::kMetricsClock));
        detail::ClockModel clocks;
        clocks.unknownNs = 2'000'000'000;
        ClockOffset n2;
        n2.node = "n2";
        n2.offsetNs = 30'000'000'000; // n2's logs run 30 s ahead
        n2.residualNs = 1'000'000;
        clocks.offsets.emplace("n2", n2);
        const TimeInterval on = clocks.corrected(*e);
        QCOMPARE(on.earliestNs, (kT0 + 45) * 1'000'000'000 - clocks.unknownNs);
        QCOMPARE(on.latestNs, (kT0 + 60) * 1'000'000'000 + clocks.unknownNs);
    }

    // node-exporter names a machine only by the address Prometheus scraped (instance="10.1.0.4:9100"): its
    // events go to the host that address is, by the machine's own node_uname_info, else by a hosts file.
    void instanceAddressIsItsHost()
    {
        auto bundle = [](const std::string& dir, bool uname) {
            std::string values;
            for (int k = 0; k < 6; ++k)
                values += std::string(k ? "," : "") + "[" + std::to_string(kT0 + 15 * k) + ",\"" + (k >= 3 ? "1" : "0") + "\"]";
            std::string json = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n"
                               "{\"metric\":{\"__name__\":\"node_infiniband_link_downed_total\",\"instance\":\"10.1.0.4:9100\","
                               "\"job\":\"node\",\"device\":\"mlx5_0\",\"port\":\"1\"},\"values\":[" + values + "]}";
            if (uname)
                json += ",\n{\"metric\":{\"__name__\":\"node_uname_info\",\"instance\":\"10.1.0.4:9100\",\"job\":\"node\","
                        "\"nodename\":\"gpu-b04.cluster.local\",\"release\":\"5.15.0\"},\"values\":[[" + std::to_string(kT0) + ",\"1\"]]}";
            json += "\n]}}\n";
            writeFile(fs::path(dir) / "prometheus-node-exporter.json", json);
            if (!uname)
                writeFile(fs::path(dir) / "hosts", "127.0.0.1 localhost\n10.1.0.4 gpu-b04.cluster.local gpu-b04\n");
        };
        for (const bool uname : {true, false}) {
            QTemporaryDir dir;
            bundle(dir.path().toStdString(), uname);
            Analysis a = analyze(dir.path().toStdString(), shippedOnly());
            const SymptomEvent* e = nullptr;
            for (const auto& ev : a.result.events)
                if (ev.clockNode == detail::kMetricsClock)
                    e = &ev;
            QVERIFY2(e, uname ? "uname" : "hosts");
            QCOMPARE(QString::fromStdString(e->node), QStringLiteral("gpu-b04"));
        }
        // The machine and the hosts file disagree: the address stays, and the warning says why.
        QTemporaryDir dir;
        bundle(dir.path().toStdString(), true);
        writeFile(fs::path(dir.path().toStdString()) / "hosts", "10.1.0.4 gpu-c07\n");
        Analysis a = analyze(dir.path().toStdString(), shippedOnly());
        for (const auto& ev : a.result.events)
            if (ev.clockNode == detail::kMetricsClock)
                QCOMPARE(QString::fromStdString(ev.node), QStringLiteral("10.1.0.4"));
        QVERIFY(std::any_of(a.result.warnings.begin(), a.result.warnings.end(), [](const std::string& w) {
            return w.find("address 10.1.0.4 is gpu-b04") != std::string::npos && w.find("gpu-c07") != std::string::npos;
        }));
    }

    // A 100 MB scrape (1,250 nodes x 8 GPUs of a DCGM exporter, OpenMetrics text): read whole, judged,
    // no crash, and the one GPU whose Xid changed is found.
    void hundredMegabyteScrape()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "dcgm-scrape-metrics.prom";
        {
            std::ofstream out(file);
            const std::string pad = ",UUID=\"GPU-00000000-0000-0000-0000-000000000000\",modelName=\"NVIDIA H100 80GB HBM3\"";
            uint64_t bytes = 0;
            for (int k = 0; bytes < 100'000'000; ++k)
                for (int n = 0; n < 1250; ++n)
                    for (int g = 0; g < 8; ++g) {
                        const bool xid = n == 777 && g == 5 && k >= 3;
                        const std::string line = dcgmLine("DCGM_FI_DEV_XID_ERRORS", "node-" + std::to_string(n), g,
                                                          xid ? "79" : "0", kT0 + 15 * k, pad);
                        out << line;
                        bytes += line.size();
                    }
        }
        QVERIFY(fs::file_size(file) >= 100'000'000);
        const auto t0 = std::chrono::steady_clock::now();
        Analysis a = analyze(dir.path().toStdString(), shippedOnly());
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("100 MB scrape analysed in %.2f s\n", s);
        QVERIFY(a.result.rootCause);
        QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("node-777"));
        QCOMPARE(a.result.rootCause->gpuIndex, 5);
    }
};

QTEST_GUILESS_MAIN(TestMetricRules)
#include "test_metric_rules.moc"
