#include "testutil.h"
// Scores the shipped rules against a seeded matrix of synthetic bundles:
// every fault kind x {8, 64 nodes} x {no skew, 2 s skew} x {all sources,
// application logs only}, and the realities of issue #8 on 8 nodes: every kind
// with ±5 s clocks, the culprit's 5 s ahead and its peers reporting it; the
// culprit's syslog rotated mid-episode; more cross-domain and same-domain
// double faults under ±5 s. Fails below 98 % culprit accuracy, below 95 % in
// any slice, on any attributed verdict where the truth is ambiguous, and on
// any confidently wrong verdict in those realities' slices. The
// table it prints is the one docs/accuracy.md quotes.
//
// FAULTLINE_ACCURACY_KEEP=<dir> keeps the generated bundles there (for
// `faultline-cli eval` and --explain); FAULTLINE_ACCURACY_FAULTS=a,b limits the
// matrix to some fault kinds while working on rules (the thresholds still apply).
#include "baseline/compare.h"
#include "engine/engine.h"
#include "engine/evaluate.h"
#include "synth/synth.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::kSource;

namespace {

struct Cell {
    std::string fault;
    int nodes = 8;
    double skew = 0;
    bool appOnly = false;
    uint64_t seed = 1;
    double ahead = 0;     // the culprit's clock runs this far ahead, its peers report it
    bool rotated = false; // the culprit's syslog lost the episode's first lines
    std::string name() const
    {
        std::ostringstream os;
        os << fault << "-n" << nodes << "-skew" << skew << (ahead > 0 ? "-ahead" : "") << (rotated ? "-rotated" : "")
           << (appOnly ? "-applogs" : "-all") << "-s" << seed;
        return os.str();
    }
    std::vector<std::string> slices() const
    {
        std::vector<std::string> out{std::to_string(nodes) + " nodes", appOnly ? "app logs only" : "all sources"};
        out.push_back(skew == 0 ? "no skew" : skew <= 2 ? "2 s skew" : "5 s skew");
        if (ahead > 0)
            out.push_back("culprit clock 5 s ahead + peer reports");
        if (rotated)
            out.push_back("rotated syslog");
        if (fault == "ambiguous_domains")
            out.push_back("cross-domain double fault");
        return out;
    }
};

// Kinds with a culprit node whose kernel log has the episode's lines.
bool rotatable(const std::string& kind)
{
    static const std::set<std::string> kinds{"xid79",  "xid48",         "xid64",     "xid119",   "xid13",
                                             "xid74",  "xid149",        "sxid20034", "pcie_aer", "ib_port_error",
                                             "nic_fatal", "oom",        "segfault",  "hung_task", "nfs_hang",
                                             "ambiguous", "ambiguous_domains"};
    return kinds.count(kind) > 0;
}

// FAULTLINE_ACCURACY_FAULTS=a,b: only those kinds (the seeds stay those of the full run).
std::set<std::string> onlyFaults()
{
    std::set<std::string> only;
    if (const char* env = std::getenv("FAULTLINE_ACCURACY_FAULTS"); env && *env) {
        std::stringstream ss(env);
        for (std::string f; std::getline(ss, f, ',');)
            only.insert(f);
    }
    return only;
}

std::vector<Cell> matrix()
{
    const std::set<std::string> only = onlyFaults();
    std::vector<Cell> cells;
    uint64_t seed = 1000; // counts every cell, so a filtered run gets the same seeds as the full one
    for (const auto& k : synth::faultKinds())
        for (int nodes : {8, 64})
            for (double skew : {0.0, 2.0})
                for (bool appOnly : {false, true}) {
                    ++seed;
                    if (only.empty() || only.count(k.id))
                        cells.push_back({k.id, nodes, skew, appOnly, seed});
                }
    // The realities of issue #8 (8 nodes keep the run short).
    auto add = [&](Cell c) {
        c.seed = ++seed;
        if (only.empty() || only.count(c.fault))
            cells.push_back(c);
    };
    for (const auto& k : synth::faultKinds())
        add({k.id, 8, 5.0, false, 0, 5.0, false});
    for (const auto& k : synth::faultKinds())
        if (rotatable(k.id))
            add({k.id, 8, 2.0, false, 0, 0, true});
    for (int i = 0; i < 4; ++i)
        for (const char* kind : {"ambiguous_domains", "ambiguous"})
            add({kind, 8, 5.0, false, 0, 0, false});
    return cells;
}

void merge(EvalReport& into, EvalReport&& part)
{
    for (auto& c : part.cases)
        into.cases.push_back(std::move(c));
    for (const auto& [e, row] : part.confusion)
        for (const auto& [g, n] : row)
            into.confusion[e][g] += n;
    into.culpritCorrect += part.culpritCorrect;
    into.confidentlyWrong += part.confidentlyWrong;
    into.confidentlyWrongOnAmbiguous += part.confidentlyWrongOnAmbiguous;
}

} // namespace

class TestAccuracy : public QObject {
    Q_OBJECT
private slots:
    void generatorIsHonestAboutAppLogs();
    void unreadableTruthIsAnError();
    void matrixMeetsTheBar();
    void noiseAlsoInBaseline();
    void metricsSlices();
    void nvlinkCountersDecideAndCorroborateXid149();
};

// Application logs alone cannot name the node of a fault that only the kernel
// or the scheduler saw; the generator must then say so in truth.json rather
// than expect an attribution no log supports.
void TestAccuracy::generatorIsHonestAboutAppLogs()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    synth::Options o;
    o.fault = "hung_task";
    o.nodes = 8;
    o.iterations = 20;
    o.appLogsOnly = true;
    std::string error;
    auto made = synth::generate(o, tmp.filePath("hung").toStdString(), &error);
    QVERIFY2(made, error.c_str());
    synth::Truth t = *made;
    // The hung rank goes silent while the other 63 time out: the node is
    // derivable from the manifest's rank list, why it hung is not.
    QCOMPARE(std::string(toString(t.status)), std::string("attributed"));
    QVERIFY(t.domain == Domain::Host);
    QCOMPARE(QString::fromStdString(t.subDomain), QStringLiteral("unresponsive"));
    QVERIFY(!t.culpritNode.empty());
    QVERIFY(!fs::exists(tmp.filePath("hung/syslog-node-0001.log").toStdString()));

    o.nodes = 1; // 8 ranks, all of the node's ranks hang (nfs): nobody is left to time out
    o.fault = "nfs_hang";
    made = synth::generate(o, tmp.filePath("nfs1").toStdString(), &error);
    QVERIFY2(made, error.c_str());
    QCOMPARE(std::string(toString(made->status)), std::string("unattributed"));
    o.nodes = 8;

    o.fault = "preemption"; // SIGTERM on every rank: only the scheduler says why
    made = synth::generate(o, tmp.filePath("preempt").toStdString(), &error);
    QVERIFY2(made, error.c_str());
    QCOMPARE(std::string(toString(made->status)), std::string("unattributed"));

    o.fault = "xid48"; // the rank prints "uncorrectable ECC error": derivable from app logs
    made = synth::generate(o, tmp.filePath("ecc").toStdString(), &error);
    QVERIFY2(made, error.c_str());
    QCOMPARE(std::string(toString(made->status)), std::string("attributed"));
    QVERIFY(!made->culpritNode.empty());
}

// A truth.json eval cannot read (a status that is none of the three) is an error row of its own,
// never a hit: an empty truth status once equalled the empty verdict of an unusable bundle.
void TestAccuracy::unreadableTruthIsAnError()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const std::string dir = tmp.path().toStdString();
    std::ofstream(dir + "/truth.json") << R"({"status": "maybe", "domain": "gpu"})" << "\n";
    std::ofstream(dir + "/applog-node-01-rank0.log") << "2024-05-01 12:00:00 step 1\n";
    const EvalReport report = evaluate({dir}, shippedOnly());
    QCOMPARE(report.cases.size(), size_t(1));
    const EvalCase& c = report.cases.front();
    QVERIFY2(c.error.find("truth.json") != std::string::npos && c.error.find("'maybe'") != std::string::npos,
             c.error.c_str());
    QVERIFY(!c.status);
    QVERIFY(!c.culpritCorrect);
    QCOMPARE(report.culpritCorrect, 0);
    QCOMPARE(report.confusion.size(), size_t(1));
    QCOMPARE(report.confusion.count("error"), size_t(1));
    QCOMPARE(report.confusion.at("error").at("error"), 1);
}

void TestAccuracy::matrixMeetsTheBar()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    std::string root = tmp.path().toStdString();
    if (const char* keep = std::getenv("FAULTLINE_ACCURACY_KEEP"); keep && *keep)
        root = keep;
    const AnalyzeOptions options = shippedOnly();
    const bool keepBundles = root != tmp.path().toStdString();

    EvalReport report;
    std::map<std::string, std::pair<int, int>> perDomain; // truth domain -> (culprit right, cases)
    std::map<std::string, std::pair<int, int>> perSlice;  // "8 nodes", "app logs only", ... -> (right, cases)
    std::vector<std::string> wrongOnRealities; // confidently wrong in the issue #8 slices
    for (const Cell& cell : matrix()) {
        synth::Options o;
        o.seed = cell.seed;
        o.fault = cell.fault;
        o.nodes = cell.nodes;
        o.clockSkewSec = cell.skew;
        o.appLogsOnly = cell.appOnly;
        o.culpritAheadSec = cell.ahead;
        o.peerReports = cell.ahead > 0;
        o.rotatedSyslog = cell.rotated;
        o.iterations = 24;
        const std::string dir = root + "/" + cell.name();
        std::string error;
        QVERIFY2(synth::generate(o, dir, &error), (cell.name() + ": " + error).c_str());
        EvalReport part = evaluate({dir}, options);
        QCOMPARE(part.cases.size(), size_t(1));
        const EvalCase& c = part.cases.front();
        QVERIFY2(c.error.empty(), (cell.name() + ": " + c.error).c_str());
        const std::string domain =
            std::string(c.truth.status == ResultStatus::Attributed ? toString(c.truth.domain) : toString(c.truth.status));
        perDomain[domain].second++;
        perDomain[domain].first += c.culpritCorrect ? 1 : 0;
        if (c.confidentlyWrong && (cell.ahead > 0 || cell.rotated || cell.skew > 2))
            wrongOnRealities.push_back(cell.name() + ": " + std::string(toString(c.domain)) + "/" + c.subDomain);
        for (const std::string& slice : cell.slices()) {
            perSlice[slice].second++;
            perSlice[slice].first += c.culpritCorrect ? 1 : 0;
        }
        merge(report, std::move(part));
        if (!keepBundles)
            fs::remove_all(dir);
    }

    std::ostringstream table;
    table << "\nCulprit accuracy by truth domain\n";
    for (const auto& [d, v] : perDomain)
        table << "  " << d << ": " << v.first << "/" << v.second << "\n";
    table << "By slice\n";
    for (const auto& [s, v] : perSlice)
        table << "  " << s << ": " << v.first << "/" << v.second << "\n";
    qInfo().noquote() << QString::fromStdString(present::formatEvalReport(report) + table.str());

    QVERIFY(!report.cases.empty());
    QVERIFY2(report.confidentlyWrongOnAmbiguous == 0, "an attributed verdict where the truth is ambiguous");
    QVERIFY2(report.culpritAccuracy() >= 0.98,
             qPrintable(QStringLiteral("culprit accuracy %1 % is below 98 %").arg(100.0 * report.culpritAccuracy())));
    // A reality the engine reads must not turn into a confident wrong answer
    // (culprit right, domain wrong counts too): the node_fail app-logs-only
    // four of the base matrix are the only known ones and are not in these slices.
    std::string wrongList;
    for (const auto& w : wrongOnRealities)
        wrongList += " " + w;
    QVERIFY2(wrongOnRealities.empty(),
             qPrintable(QStringLiteral("confidently wrong on ±5 s / rotated / double-fault bundles:%1")
                            .arg(QString::fromStdString(wrongList))));
    // A slice is small next to the whole: one reality the engine cannot read
    // must not hide behind the others.
    for (const auto& [slice, v] : perSlice)
        QVERIFY2(v.second == 0 || 100 * v.first >= 95 * v.second,
                 qPrintable(QStringLiteral("slice '%1': culprit right in %2 of %3, below 95 %")
                                .arg(QString::fromStdString(slice)).arg(v.first).arg(v.second)));
}

// Noise that is also in the baseline (issue #46): every fault kind on 8 nodes with heavy benign noise, against
// the healthy attempt of the same job (synth --baseline: same seed, same noise, other node names). The verdict
// is scored as above (0 confidently wrong); the comparison must never call a right root cause noise the job
// always prints, and the benign informational families must be found in the baseline. Slices: as generated;
// with ±2 s clocks (the failed attempt's and the healthy one's offsets differ); with a healthy attempt that ran
// three times longer (the noise's counts differ, its rate does not). The two added slices take every other kind
// (between them every kind once), so that the test stays within its time on a loaded machine.
void TestAccuracy::noiseAlsoInBaseline()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const AnalyzeOptions options = shippedOnly();
    const std::set<std::string> only = onlyFaults();
    struct Slice {
        const char* name;
        double skew;
        int healthyIterations;
        uint64_t seed;
    };
    const Slice slices[] = {{"as generated", 0, 24, 5000}, {"2 s skew", 2.0, 24, 6000}, {"healthy 3x longer", 0, 72, 7000}};
    std::string problems;
    int allWrong = 0, allCalledNoise = 0, allBenign = 0, allFound = 0;
    for (size_t si = 0; si < std::size(slices); ++si) {
        const Slice& sl = slices[si];
        int cases = 0, wrong = 0, rootCalledNoise = 0, benign = 0, benignFound = 0;
        uint64_t seed = sl.seed;
        size_t kindIndex = 0;
        for (const auto& k : synth::faultKinds()) {
            ++seed;
            const bool inSlice = si == 0 || kindIndex++ % 2 == si % 2;
            if (k.id == "none" || !inSlice || (!only.empty() && !only.count(k.id)))
                continue;
            synth::Options o;
            o.seed = seed;
            o.fault = k.id;
            o.nodes = 8;
            o.noiseLevel = 2;
            o.iterations = 24;
            o.clockSkewSec = sl.skew;
            synth::Options h = synth::healthyAttempt(o, "gpu-");
            h.iterations = sl.healthyIterations;
            const std::string dir = tmp.path().toStdString() + "/" + k.id;
            const std::string where = std::string(sl.name) + " " + k.id;
            std::string error;
            QVERIFY2(synth::generate(o, dir + "/failed", &error), (where + ": " + error).c_str());
            QVERIFY2(synth::generate(h, dir + "/healthy", &error), (where + ": " + error).c_str());
            EvalReport part = evaluate({dir + "/failed"}, options);
            QCOMPARE(part.cases.size(), size_t(1));
            const EvalCase& c = part.cases.front();
            ++cases;
            if (c.confidentlyWrong) {
                ++wrong;
                problems += " " + where + ": confidently wrong " + std::string(toString(c.domain)) + "/" + c.subDomain + ";";
            }
            const Analysis failed = analyze(dir + "/failed", options), healthy = analyze(dir + "/healthy", options);
            const BaselineComparison cmp = baseline::compare(failed, healthy);
            if (c.correct && cmp.change == BaselineVerdictChange::RootAlsoInBaseline) {
                ++rootCalledNoise;
                problems += " " + where + ": " + cmp.verdict + ";";
            }
            for (const auto& f : cmp.families) {
                const SymptomFamily& fam = failed.result.families[f.family.value];
                if (fam.symptom != "gpu.xid.63" && fam.symptom != "network.mlx5_access_reg_noise" &&
                    fam.symptom != "host.pcie_corrected" && fam.symptom != "host.edac.CE")
                    continue;
                ++benign;
                if (f.symptom.mark.match == BaselineMatch::AlsoInBaseline)
                    ++benignFound;
                else
                    problems += " " + where + ": benign " + fam.symptom + " not found in the baseline;";
            }
            fs::remove_all(dir);
        }
        qInfo().noquote() << QStringLiteral("noise also in the baseline, %1: %2 bundles, %3 confidently wrong, %4 right "
                                            "roots called noise, benign families found in the baseline %5/%6")
                                 .arg(QString::fromUtf8(sl.name)).arg(cases).arg(wrong).arg(rootCalledNoise)
                                 .arg(benignFound).arg(benign);
        allWrong += wrong;
        allCalledNoise += rootCalledNoise;
        allBenign += benign;
        allFound += benignFound;
        QVERIFY2(benign > 0 || !only.empty(), sl.name);
    }
    QVERIFY2(allWrong == 0 && allCalledNoise == 0 && allFound == allBenign, problems.c_str());
    QVERIFY(allBenign > 0);
}

// Metrics as evidence (issue #42): every fault kind on 8 nodes with dcgm-exporter and node-exporter scrapes
// (synth --metrics dcgm: 15 s, failed scrapes, an exporter restart, node-exporter scraped by address), once
// with every log ("metrics + logs") and once with the scrapes alone ("metrics only", whose truth is
// unattributed unless the scrape names the fault: synth/generate.cpp). Metrics + logs: culprit right in
// >= 98 % and 0 confidently wrong. Metrics only: the kinds whose scrape names the fault are all right and
// none confidently wrong; the others at most 4 confidently wrong, a ratchet: with the peers finding as a weak
// initiator they were 17 (a GPU idle while its peers spin says where a rank died, not why; docs/accuracy.md).
void TestAccuracy::metricsSlices()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const AnalyzeOptions options = shippedOnly();
    const std::set<std::string> only = onlyFaults();
    struct Tally {
        int cases = 0, right = 0, wrong = 0;
        std::string problems;
    };
    Tally withLogs, shown, notShown;
    uint64_t seed = 7000;
    for (const auto& k : synth::faultKinds())
        for (bool metricsOnly : {false, true}) {
            ++seed;
            if (!only.empty() && !only.count(k.id))
                continue;
            synth::Options o;
            o.seed = seed;
            o.fault = k.id;
            o.nodes = 8;
            o.iterations = 24;
            o.metrics = "dcgm";
            o.metricsOnly = metricsOnly;
            const std::string dir = tmp.path().toStdString() + "/" + k.id + (metricsOnly ? "-metrics" : "-all");
            std::string error;
            const auto truth = synth::generate(o, dir, &error);
            QVERIFY2(truth, (k.id + ": " + error).c_str());
            EvalReport part = evaluate({dir}, options);
            QCOMPARE(part.cases.size(), size_t(1));
            const EvalCase& c = part.cases.front();
            QVERIFY2(c.error.empty(), (k.id + ": " + c.error).c_str());
            Tally& t = !metricsOnly ? withLogs : truth->status == ResultStatus::Attributed ? shown : notShown;
            ++t.cases;
            t.right += c.culpritCorrect ? 1 : 0;
            if (c.confidentlyWrong || !c.culpritCorrect)
                t.problems += " " + k.id + (c.confidentlyWrong ? ": confidently wrong " : ": said ") +
                              std::string(c.status ? toString(*c.status) : "none") + " " + std::string(toString(c.domain)) + " on " + c.node + ";";
            t.wrong += c.confidentlyWrong ? 1 : 0;
            fs::remove_all(dir);
        }
    auto line = [](const char* what, const Tally& t) {
        return QStringLiteral("%1: %2 bundles, culprit right %3, confidently wrong %4;%5")
            .arg(what).arg(t.cases).arg(t.right).arg(t.wrong).arg(QString::fromStdString(t.problems));
    };
    qInfo().noquote() << line("metrics + logs", withLogs);
    qInfo().noquote() << line("metrics only, scrape names the fault", shown);
    qInfo().noquote() << line("metrics only, scrape does not", notShown);
    QVERIFY2(withLogs.wrong == 0 && 100 * withLogs.right >= 98 * withLogs.cases, withLogs.problems.c_str());
    QVERIFY2(shown.wrong == 0 && shown.right == shown.cases, shown.problems.c_str());
    QVERIFY2(notShown.wrong == 0, notShown.problems.c_str());
}

// NVLink error counters as a second signal for Xid 149 (#42). Metrics alone, with the last-Xid field already
// 149 at the first scrape (no change to date): the GPU's replay and recovery counters decide, nvlink on that
// GPU. With the logs: the kernel's Xid 149 stays the root and the counters are drawn under it, demoted.
void TestAccuracy::nvlinkCountersDecideAndCorroborateXid149()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    synth::Options o;
    o.fault = "xid149";
    o.nodes = 4;
    o.gpusPerNode = 4;
    o.iterations = 20; // short: the field says 149 from the first scrape
    o.seed = 7;
    o.metrics = "dcgm";
    o.metricsOnly = true;
    std::string error;
    const auto only = synth::generate(o, tmp.filePath("only").toStdString(), &error);
    QVERIFY2(only, error.c_str());
    QVERIFY(only->domain == Domain::Nvlink);
    Analysis a = analyze(tmp.filePath("only").toStdString(), shippedOnly());
    QCOMPARE(std::string(toString(a.result.status)), std::string("attributed"));
    QVERIFY(a.result.domain == Domain::Nvlink);
    QVERIFY(a.result.rootCause);
    QCOMPARE(a.result.rootCause->symptom, std::string("nvlink.metric.link_errors"));
    QCOMPARE(a.result.rootCause->node, only->culpritNode);
    QCOMPARE(a.result.rootCause->gpuIndex, only->culpritGpu);

    o.metricsOnly = false;
    o.iterations = 200;
    const auto all = synth::generate(o, tmp.filePath("all").toStdString(), &error);
    QVERIFY2(all, error.c_str());
    Analysis b = analyze(tmp.filePath("all").toStdString(), shippedOnly());
    QVERIFY(b.result.rootCause);
    QCOMPARE(b.result.rootCause->symptom, std::string("nvlink.signal_integrity"));
    std::set<uint32_t> counters;
    for (const auto& e : b.result.events)
        if (e.symptom == "nvlink.metric.link_errors" && !e.suppressed) {
            QCOMPARE(e.node, all->culpritNode);
            QVERIFY(e.roleOverride == SymptomRole::Symptom);
            counters.insert(e.id.value);
        }
    QVERIFY(!counters.empty());
    bool underRoot = false;
    for (const auto& edge : b.result.edges)
        underRoot |= edge.from == b.result.rootCause->event && counters.count(edge.to.value) &&
                     edge.rule.str() == "metric.refine.nvlink-counters-are-the-xids-link";
    QVERIFY(underRoot);
}

QTEST_GUILESS_MAIN(TestAccuracy)
#include "test_accuracy.moc"
