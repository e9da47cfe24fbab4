// Trends before a failure (issue #8 item 6): series of step lines judged over
// many lines. The unit part drives findTrends() with numbers, including the
// benign series that must not fire; the engine part runs whole bundles with
// the shipped rules (rules/trends.jsonc).
#include "engine/engine.h"
#include "engine/trends.h"
#include "rules/ruleset.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

using namespace fl;
using namespace fl::detail;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::writeFile;

namespace {

// Deterministic jitter in [-1, 1].
double jitter(int a, int b)
{
    uint64_t x = uint64_t(a) * 0x9E3779B97F4A7C15ull ^ (uint64_t(b) + 0x632BE59BD9B4E019ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return double(x % 20001) / 10000.0 - 1.0;
}

TrendSeries series(int rank, const std::vector<double>& values, int firstStep = 1)
{
    TrendSeries s;
    s.node = "node-" + std::to_string(rank / 4);
    s.rank = rank;
    for (size_t i = 0; i < values.size(); ++i) {
        SeriesPoint p;
        p.observation = uint32_t(rank * 1000 + int(i));
        p.step = firstStep + int(i);
        p.value = values[i];
        p.unit = SeriesUnit::Seconds;
        s.points.push_back(p);
    }
    return s;
}

// The shipped rules' settings (rules/trends.jsonc); the rest are the defaults
// (last 10, 1.5x, 80 %).
Trend trendOf(const char* series, TrendKind kind, int minPoints)
{
    Trend t;
    t.series = series;
    t.kind = kind;
    t.minPoints = minPoints;
    return t;
}
Trend straggler() { return trendOf("step_time", TrendKind::Straggler, 5); }
Trend spike() { return trendOf("loss", TrendKind::Spike, 1); }
Trend growth() { return trendOf("mem", TrendKind::Growth, 4); }

// 8 ranks, 12 steps of ~2 s with +-5 % jitter; `slow` ranks take `factor` x from step `from`.
std::vector<TrendSeries> job(std::vector<int> slow, double factor, int from = 1, int ranks = 8)
{
    std::vector<TrendSeries> out;
    for (int r = 0; r < ranks; ++r) {
        std::vector<double> v;
        for (int s = 1; s <= 12; ++s) {
            double x = 2.0 * (1 + 0.05 * jitter(r, s));
            if (std::find(slow.begin(), slow.end(), r) != slow.end() && s >= from)
                x *= factor;
            v.push_back(x);
        }
        out.push_back(series(r, v));
    }
    return out;
}

std::string megatronLine(int second, int iter, double ms, double loss)
{
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  " [2026-11-30 11:%02d:%02d] iteration %8d/    1000 | consumed samples:       %6d | elapsed time per "
                  "iteration (ms): %.1f | learning rate: 1.500E-04 | global batch size:  1024 | lm loss: %.6E | loss "
                  "scale: 1.0 | grad norm: 0.712 |\n",
                  second / 60, second % 60, iter, iter * 1024, ms, loss);
    return buf;
}

const char* kTimeout = "[rank%d]:[E1130 11:%02d:%02d.000000 88412 ProcessGroupNCCL.cpp:607] [Rank %d] Watchdog caught "
                       "collective operation timeout: WorkNCCL(SeqNum=4120, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
                       "Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n";

// Four per-rank Megatron logs of `iterations` steps taking ms(rank, iteration),
// the ranks in `timingOut` ending with a watchdog timeout.
template <class Ms>
fs::path fourRanks(const QTemporaryDir& tmp, int iterations, std::set<int> timingOut, Ms ms)
{
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
    for (int r = 0; r < 4; ++r) {
        std::string log;
        for (int i = 1; i <= iterations; ++i)
            log += megatronLine(i * 5, i, ms(r, i), 3.0 - 0.01 * i);
        if (timingOut.count(r)) {
            char buf[600];
            std::snprintf(buf, sizeof buf, kTimeout, r, (iterations * 5 + 60) / 60 % 60, 0, r);
            log += buf;
        }
        writeFile(dir / ("applog-node-" + std::to_string(r) + "-rank" + std::to_string(r) + ".log"), log);
    }
    return dir;
}

} // namespace

class TestTrends : public QObject {
    Q_OBJECT
private slots:
    void oneSlowRankIsAStraggler();
    void aWarmUpStepSlowOnEveryRankIsNot();
    void jitterIsNotAStraggler();
    void aStepPrintedTwiceCountsOnce();
    void halfTheJobSlowIsNotAStraggler();
    void twoRanksHaveNoPeersToCompare();
    void slowOnlyAtTheEndIsNotConsistent();
    void aSpikeTheLossNeverCameBackFrom();
    void aSpikeThatRecovered();
    void aLossThatGoesDownDoesNotSpike();
    void memoryThatGrowsEveryStep();
    void memoryThatPlateausOrDropsDoesNot();
    void valuesAndUnits();
    void engineNamesTheStragglerWithItsLines();
    void aNodeConsoleKeepsItsRanksApart();
    void engineKeepsEqualRanksUnattributed();
    void oneRankSeesTheJobSlowDownButNotWhy();
    void pyspyOddStackOut();
    void pyspyWithoutAnOddOneIsNothing();
    void trendRulesAreChecked();
};

void TestTrends::oneSlowRankIsAStraggler()
{
    const auto f = findTrends(straggler(), job({5}, 1.8, 3));
    QCOMPARE(f.size(), size_t(1));
    QCOMPARE(f[0].series, size_t(5));
    const double ratio = std::stod(f[0].fields.at("ratio"));
    QVERIFY2(ratio > 1.6 && ratio < 2.0, f[0].fields.at("ratio").c_str());
    QCOMPARE(QString::fromStdString(f[0].fields.at("slow_points")), QStringLiteral("10 of 10"));
    QCOMPARE(QString::fromStdString(f[0].fields.at("steps")), QStringLiteral("3-12"));
    // Evidence: first judged, onset, worst and last points, ascending; a peer's line at the worst step.
    QVERIFY(f[0].evidence.size() >= 2);
    QVERIFY(std::is_sorted(f[0].evidence.begin(), f[0].evidence.end()));
    QVERIFY(std::find(f[0].evidence.begin(), f[0].evidence.end(), f[0].onset) != f[0].evidence.end());
    QVERIFY(f[0].peer && f[0].peer->first != 5);
}

void TestTrends::aWarmUpStepSlowOnEveryRankIsNot()
{
    auto j = job({}, 1.0);
    for (auto& s : j)
        s.points[0].value = 40.0; // step 1: compilation, NCCL init, data loader start
    QVERIFY(findTrends(straggler(), j).empty());
    // Even with only the first 5 steps, warm-up included.
    Trend t = straggler();
    for (auto& s : j)
        s.points.resize(5);
    QVERIFY(findTrends(t, j).empty());
}

// A step printed twice (a rank that retried it) is one point of the comparison: the newer print.
void TestTrends::aStepPrintedTwiceCountsOnce()
{
    auto j = job({5}, 1.8);
    SeriesPoint again = j[5].points.back(); // step 12, index 11
    again.observation += 500;
    again.value *= 2;
    j[5].points.push_back(again); // index 12, the newest
    const auto f = findTrends(straggler(), j);
    QCOMPARE(f.size(), size_t(1));
    QCOMPARE(f[0].series, size_t(5));
    // Ten points in the window, nine steps: compared once each, and step 12 is the newer print (index 12).
    QCOMPARE(QString::fromStdString(f[0].fields.at("slow_points")), QStringLiteral("9 of 9"));
    QCOMPARE(f[0].evidence.back(), size_t(12));
}

void TestTrends::jitterIsNotAStraggler()
{
    std::vector<TrendSeries> j;
    for (int r = 0; r < 16; ++r) {
        std::vector<double> v;
        for (int s = 1; s <= 30; ++s)
            v.push_back(2.0 * (1 + 0.3 * jitter(r, s)));
        j.push_back(series(r, v));
    }
    QVERIFY(findTrends(straggler(), j).empty());
}

void TestTrends::halfTheJobSlowIsNotAStraggler()
{
    QVERIFY(findTrends(straggler(), job({0, 1, 2, 3}, 2.0)).empty());
    // Two of eight is still "the odd ones out" (a quarter allowed).
    QCOMPARE(findTrends(straggler(), job({2, 6}, 2.0)).size(), size_t(2));
}

void TestTrends::twoRanksHaveNoPeersToCompare()
{
    QVERIFY(findTrends(straggler(), job({1}, 3.0, 1, 2)).empty());
    QCOMPARE(findTrends(straggler(), job({1}, 3.0, 1, 3)).size(), size_t(1));
}

void TestTrends::slowOnlyAtTheEndIsNotConsistent()
{
    // Slow at the last 3 of 10 steps: 30 %, below the 80 % the rule asks for.
    QVERIFY(findTrends(straggler(), job({4}, 2.0, 10)).empty());
}

void TestTrends::aSpikeTheLossNeverCameBackFrom()
{
    // The shape of a real divergence: 6.44 -> 11.42 at the end of warm-up, then a plateau near 7.
    const auto f = findTrends(spike(), {series(0, {6.444662, 11.42026, 7.155109}, 7000)});
    QCOMPARE(f.size(), size_t(1));
    QCOMPARE(f[0].onset, size_t(1));
    QCOMPARE(QString::fromStdString(f[0].fields.at("recovered")), QStringLiteral("no"));
    QCOMPARE(QString::fromStdString(f[0].fields.at("step")), QStringLiteral("7001"));
    QCOMPARE(QString::fromStdString(f[0].fields.at("ratio")), QStringLiteral("1.77"));
    // A NaN after the spike is a point too (shown as the last value), not a recovery.
    const auto g = findTrends(spike(), {series(0, {2.1, 2.0, 2.05, 3.9, 7.7, std::nan("")})});
    QCOMPARE(g.size(), size_t(1));
    QCOMPARE(QString::fromStdString(g[0].fields.at("last")), QStringLiteral("nan"));
    QCOMPARE(QString::fromStdString(g[0].fields.at("recovered")), QStringLiteral("no"));
}

void TestTrends::aSpikeThatRecovered()
{
    const auto f = findTrends(spike(), {series(0, {2.1, 2.05, 2.0, 4.8, 2.6, 2.1, 2.0})});
    QCOMPARE(f.size(), size_t(1));
    QCOMPARE(QString::fromStdString(f[0].fields.at("recovered")), QStringLiteral("yes"));
}

void TestTrends::aLossThatGoesDownDoesNotSpike()
{
    std::vector<double> v;
    for (int i = 0; i < 200; ++i)
        v.push_back(2.0 + 8.5 * std::exp(-i / 40.0) + 0.15 * jitter(i, 7));
    QVERIFY(findTrends(spike(), {series(0, v)}).empty());
}

void TestTrends::memoryThatGrowsEveryStep()
{
    std::vector<double> v;
    for (int i = 0; i < 12; ++i)
        v.push_back((30 + 1.5 * i) * 1073741824.0);
    auto s = series(3, v, 10);
    for (auto& p : s.points)
        p.unit = SeriesUnit::Bytes;
    const auto f = findTrends(growth(), {s});
    QCOMPARE(f.size(), size_t(1));
    QCOMPARE(QString::fromStdString(f[0].fields.at("from")), QStringLiteral("33.00 GiB"));
    QCOMPARE(QString::fromStdString(f[0].fields.at("to")), QStringLiteral("46.50 GiB"));
    QCOMPARE(QString::fromStdString(f[0].fields.at("growth")), QStringLiteral("+41%"));
}

void TestTrends::memoryThatPlateausOrDropsDoesNot()
{
    // Warm-up growth, then flat: the optimizer states are allocated once.
    QVERIFY(findTrends(growth(), {series(0, {10, 12, 14, 16, 18, 18, 18, 18, 18, 18, 18, 18, 18})}).empty());
    // A sawtooth (the caching allocator frees between steps).
    QVERIFY(findTrends(growth(), {series(0, {10, 11, 12, 13, 9, 10, 11, 12, 13, 14, 15})}).empty());
    // Growing but by less than 10 %.
    QVERIFY(findTrends(growth(), {series(0, {100, 100.5, 101, 101.5, 102, 102.5, 103, 103.5, 104, 104.5})}).empty());
}

void TestTrends::valuesAndUnits()
{
    double v = 0;
    SeriesUnit u{};
    QVERIFY(parseSeriesValue("19904.0", "ms", v, u));
    QCOMPARE(u, SeriesUnit::Seconds);
    QCOMPARE(v, 19.904);
    QVERIFY(parseSeriesValue("1.142026E+01", "", v, u));
    QCOMPARE(v, 11.42026);
    QVERIFY(parseSeriesValue("NAN", "", v, u) && std::isnan(v));
    QVERIFY(parseSeriesValue("-inf", "", v, u) && std::isinf(v));
    QVERIFY(parseSeriesValue("10770.5", "MB", v, u));
    QCOMPARE(u, SeriesUnit::Bytes);
    QVERIFY(!parseSeriesValue("12a", "", v, u));
    QVERIFY(!parseSeriesValue("", "", v, u));
    QVERIFY(!parseSeriesValue("12", "furlongs", v, u));
    QVERIFY(parseSeriesValue("1,234,567.5", "", v, u));
    QCOMPARE(v, 1234567.5);
    QVERIFY(parseSeriesValue(" +42", "s", v, u));
    QCOMPARE(v, 42.0);
    QVERIFY(parseSeriesValue("Infinity", "", v, u) && std::isinf(v) && v > 0);
    QVERIFY(parseSeriesValue("-INF", "", v, u) && std::isinf(v) && v < 0);
    QVERIFY(!parseSeriesValue("-", "", v, u));
    QVERIFY(!parseSeriesValue(",", "", v, u));
    QVERIFY(!parseSeriesValue("nanx", "", v, u));
    QCOMPARE(QString::fromStdString(formatSeriesValue(0.412, SeriesUnit::Seconds)), QStringLiteral("412.0 ms"));
    QCOMPARE(QString::fromStdString(formatSeriesValue(18.7061, SeriesUnit::Seconds)), QStringLiteral("18.71 s"));
}

void TestTrends::engineNamesTheStragglerWithItsLines()
{
    // Four ranks on four nodes; rank 2 takes 2.4x as long per iteration in the
    // last 10 of 100 iterations (the scan judges the tail of each log), then
    // the others time out waiting for it.
    QTemporaryDir tmp;
    const fs::path dir = fourRanks(tmp, 100, {0, 1, 3}, [](int r, int i) {
        return 2000.0 * (1 + 0.03 * jitter(r, i)) * (r == 2 && i >= 91 ? 2.4 : 1.0);
    });
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.rootCause);
    const RootCause& rc = *a.result.rootCause;
    QCOMPARE(QString::fromStdString(rc.symptom), QStringLiteral("gpu.slow_rank"));
    QCOMPARE(QString::fromStdString(rc.node), QStringLiteral("node-2"));
    QCOMPARE(rc.rank, 2);
    // Its evidence is raw step lines: its own and a peer's at the same iteration.
    QVERIFY(rc.evidence.size() >= 3);
    std::set<std::string> files;
    for (const auto& ev : a.result.evidence)
        if (std::find(rc.evidence.begin(), rc.evidence.end(), ev.id) != rc.evidence.end()) {
            QVERIFY(ev.excerpt.find("elapsed time per iteration") != std::string::npos);
            files.insert(ev.file);
        }
    QVERIFY(files.count("applog-node-2-rank2.log"));
    QVERIFY(files.size() >= 2);
    // No event per step line: the series are not symptoms.
    QVERIFY(a.result.events.size() < 10);
}

void TestTrends::aNodeConsoleKeepsItsRanksApart()
{
    // torchrun's console of one node: every local rank's lines in one file, "[defaultN]:" labels.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
    std::string log;
    for (int i = 1; i <= 60; ++i)
        for (int l = 0; l < 4; ++l) {
            double ms = 2000.0 * (1 + 0.03 * jitter(l, i));
            if (l == 1 && i >= 45)
                ms *= 2.0;
            log += "[default" + std::to_string(l) + "]:" + megatronLine(i * 5, i, ms, 3.0);
        }
    writeFile(dir / "applog-node-7.log", log);
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.rootCause);
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.slow_rank"));
    bool citesRank1 = false;
    for (const auto& ev : a.result.evidence)
        if (std::find(a.result.rootCause->evidence.begin(), a.result.rootCause->evidence.end(), ev.id) !=
            a.result.rootCause->evidence.end())
            citesRank1 = citesRank1 || ev.excerpt.rfind("[default1]:", 0) == 0;
    QVERIFY(citesRank1);
}

void TestTrends::engineKeepsEqualRanksUnattributed()
{
    // A slow first step on every rank and 10 % jitter: no straggler, the timeouts stay unexplained.
    QTemporaryDir tmp;
    const fs::path dir = fourRanks(tmp, 12, {0, 1, 2, 3}, [](int r, int i) {
        return (i == 1 ? 30000.0 : 2000.0) * (1 + 0.1 * jitter(r, i));
    });
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.status == ResultStatus::Unattributed);
}

void TestTrends::oneRankSeesTheJobSlowDownButNotWhy()
{
    // Only the logging rank prints step times (Megatron's print_rank_last):
    // they climb 6 % step after step. Every rank waits for the slowest, so the
    // job slowed; which GPU is slow needs other ranks' times. Context, not a cause.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
    const std::vector<double> rising = {105160, 105170, 106250, 110170, 111140};
    std::string log;
    for (size_t i = 0; i < rising.size(); ++i)
        log += megatronLine(int(i) * 110, 42780 + int(i), rising[i], 2.117);
    writeFile(dir / "applog-node-7-rank7.log", log);
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.status == ResultStatus::Unattributed);
    const SymptomEvent* slowdown = nullptr;
    for (const auto& e : a.result.events)
        if (e.symptom == "workload.job_slowdown")
            slowdown = &e;
    QVERIFY(slowdown);
    QCOMPARE(QString::fromStdString(slowdown->fields.at("from")), QStringLiteral("105.16 s"));
    QCOMPARE(QString::fromStdString(slowdown->fields.at("to")), QStringLiteral("111.14 s"));
    QVERIFY(slowdown->kind == EventKind::InterestingNode);
    QVERIFY(slowdown->node.empty()); // the job, not a place
    QVERIFY(slowdown->observations.size() >= 2); // cites the first and last lines
    bool listed = false;
    for (const auto& m : a.result.missing)
        listed = listed || m.find("workload.job_slowdown") != std::string::npos;
    QVERIFY(listed);

    // Jitter around a steady step time, and a single slow step, are not a slowdown.
    QTemporaryDir flat;
    const fs::path d2 = flat.path().toStdString();
    writeFile(d2 / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
    std::string steady;
    for (int i = 0; i < 10; ++i)
        steady += megatronLine(i * 110, 42780 + i, (i == 6 ? 130000.0 : 105000.0) * (1 + 0.02 * jitter(7, i)), 2.117);
    writeFile(d2 / "applog-node-7-rank7.log", steady);
    Analysis b = analyze(d2.string(), shippedOnly());
    for (const auto& e : b.result.events)
        QVERIFY(e.symptom != "workload.job_slowdown");
}

namespace {

// A py-spy dump of one process (benfred/py-spy src/dump.rs format) whose main thread waits in `top`.
std::string pyspyDump(const std::string& top)
{
    return "Process 1439102: /usr/bin/python3 -u pretrain_gpt.py\nPython v3.10.12 (/usr/bin/python3.10)\n\n"
           "Thread 1439102 (idle): \"MainThread\"\n" + top +
           "    evaluate (megatron/training.py:983)\n    train (megatron/training.py:904)\n"
           "Thread 1439330 (idle): \"Thread-1\"\n    wait (threading.py:320)\n"
           "    _pin_memory_loop (torch/utils/data/_utils/pin_memory.py:49)\n";
}

const std::string kInAllReduce = "    all_reduce (torch/distributed/distributed_c10d.py:2288)\n"
                                 "    wrapper (torch/distributed/c10d_logger.py:83)\n";
const std::string kInDataLoader = "    wait (threading.py:306)\n    get (queue.py:179)\n"
                                  "    _try_get_data (torch/utils/data/dataloader.py:1011)\n"
                                  "    _get_data (torch/utils/data/dataloader.py:1163)\n"
                                  "    _next_data (torch/utils/data/dataloader.py:1207)\n";

Analysis pyspyBundle(const QTemporaryDir& tmp, const std::vector<std::string>& tops)
{
    const fs::path dir = tmp.path().toStdString();
    for (size_t i = 0; i < tops.size(); ++i)
        writeFile(dir / ("pyspy-dump-" + std::to_string(i) + ".txt"), pyspyDump(tops[i]));
    return analyze(dir.string(), shippedOnly());
}

} // namespace

void TestTrends::pyspyOddStackOut()
{
    QTemporaryDir tmp;
    Analysis a = pyspyBundle(tmp, {kInAllReduce, kInAllReduce, kInDataLoader, kInAllReduce});
    QVERIFY(a.result.rootCause);
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("workload.pyspy_odd_stack"));
    bool citesTheDump = false;
    for (const auto& ev : a.result.evidence)
        if (std::find(a.result.rootCause->evidence.begin(), a.result.rootCause->evidence.end(), ev.id) !=
            a.result.rootCause->evidence.end())
            citesTheDump = citesTheDump || (ev.file == "pyspy-dump-2.txt" && ev.excerpt.find("dataloader.py") != std::string::npos);
    QVERIFY(citesTheDump);
}

void TestTrends::pyspyWithoutAnOddOneIsNothing()
{
    QTemporaryDir all;
    QVERIFY(pyspyBundle(all, {kInAllReduce, kInAllReduce, kInAllReduce}).result.status == ResultStatus::Unattributed);
    // One process in the DataLoader and nothing to compare it with (a single dump) is not a cause.
    QTemporaryDir lone;
    QVERIFY(pyspyBundle(lone, {kInDataLoader}).result.status == ResultStatus::Unattributed);
    // Nor is a process whose main thread waits in a collective while a helper reads data.
    QTemporaryDir both;
    QVERIFY(pyspyBundle(both, {kInAllReduce + kInDataLoader, kInAllReduce, kInAllReduce}).result.status ==
            ResultStatus::Unattributed);
}

void TestTrends::trendRulesAreChecked()
{
    auto refused = [](const std::string& text) {
        RuleSet rs;
        try {
            rs.loadText(text, "t.jsonc");
        } catch (const RuleError&) {
            return true;
        }
        return false;
    };
    const std::string ok = R"({"rules": [{"id": "t", "phase": "filter.early",
        "trend": {"series": "step_time", "kind": "straggler", "symptom": "gpu.slow_rank"}}]})";
    QVERIFY(!refused(ok));
    // A trend matches no events and takes no other action.
    QVERIFY(refused(R"({"rules": [{"id": "t", "phase": "filter.early", "match": {"symptom": "x"},
        "trend": {"series": "s", "kind": "straggler", "symptom": "a.b"}}]})"));
    QVERIFY(refused(R"({"rules": [{"id": "t", "phase": "extract",
        "trend": {"series": "s", "kind": "straggler", "symptom": "a.b"}}]})"));
    QVERIFY(refused(R"({"rules": [{"id": "t", "phase": "filter", "trend": {"series": "s", "kind": "wobble", "symptom": "a.b"}}]})"));
    QVERIFY(refused(R"({"rules": [{"id": "t", "phase": "filter", "trend": {"series": "s", "kind": "spike", "by": "node", "symptom": "a.b"}}]})"));
    QVERIFY(refused(R"({"rules": [{"id": "t", "phase": "filter", "trend": {"series": "s", "kind": "spike", "factor": 0.5, "symptom": "a.b"}}]})"));
    QVERIFY(refused(R"({"rules": [{"id": "t", "phase": "filter", "trend": {"series": "s", "kind": "spike", "symptom": "a.b", "fields": {"_x": "1"}}}]})"));
    // A series rule needs a name and a value; with it, emit is optional.
    QVERIFY(!refused(R"J({"rules": [{"id": "s", "phase": "extract", "pattern": "t=(?P<v>\\d+)", "series": {"name": "x", "value": "{v}"}}]})J"));
    QVERIFY(refused(R"J({"rules": [{"id": "s", "phase": "extract", "pattern": "t=(?P<v>\\d+)", "series": {"name": "x"}}]})J"));
}

QTEST_GUILESS_MAIN(TestTrends)
#include "test_trends.moc"
