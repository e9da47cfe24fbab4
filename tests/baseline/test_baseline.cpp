// A failed attempt against a healthy one of the same job (issue #46), and repeat offenders in the history.
#include "testutil.h"

#include "engine/baseline_json.h"
#include "baseline/compare.h"
#include "baseline/line_template.h"
#include "collect/upload.h"
#include "engine/engine.h"
#include "history/offenders.h"
#include "present/baseline_text.h"
#include "present/report.h"
#include "present/timefmt.h"

#include <QTemporaryDir>
#include <sqlite3.h>
#include <QtTest>

#include <filesystem>

using namespace fl;
using namespace fltest;
namespace fs = std::filesystem;

namespace {

// Rows of one SQL query, each as its columns joined by '|'.
std::vector<std::string> sqlRows(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* st = nullptr;
    std::vector<std::string> out;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
        out.push_back(std::string("error: ") + sqlite3_errmsg(db));
    while (st && sqlite3_step(st) == SQLITE_ROW) {
        std::string row;
        for (int i = 0; i < sqlite3_column_count(st); ++i) {
            const unsigned char* t = sqlite3_column_text(st, i);
            row += (i ? "|" : "") + std::string(t ? reinterpret_cast<const char*>(t) : "NULL");
        }
        out.push_back(row);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

// What the history's summary must hold, counted afresh from the rows (a query of its own, not the product's).
std::vector<std::string> summaryFromRows(const std::string& db, bool gpu)
{
    const std::string place = gpu ? "COALESCE(root_pci, ''), COALESCE(root_gpu, -1)" : "'', -1";
    return sqlRows(db, "SELECT fingerprint, root_node, " + place + ", COUNT(DISTINCT workload_id), COUNT(*),"
                       " MIN(collected_at), MAX(collected_at) FROM results WHERE fingerprint IS NOT NULL"
                       " GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4");
}

std::vector<std::string> summaryKept(const std::string& db, bool gpu)
{
    return sqlRows(db, std::string("SELECT fingerprint, node, pci, gpu, jobs, results, first_at, last_at FROM "
                                   "results_places WHERE level = '") + (gpu ? "gpu" : "node") + "' ORDER BY 1, 2, 3, 4");
}

// The benign lines both attempts print: four kinds the rules know (informational or context), two they do not.
// Place names are the attempt's own node names: the healthy run had another allocation.
std::string benignSyslog(const std::string& node, int index, int hour)
{
    const std::string h = (hour < 10 ? "0" : "") + std::to_string(hour);
    std::string s;
    auto line = [&](const std::string& time, const std::string& rest) {
        s += "Dec  7 " + h + ":" + time + " " + node + " " + rest + "\n";
    };
    line("00:01", "systemd[1]: Started Session 12 of user train.");
    if (index == 0) {
        line("01:40", "kernel: [1010.112233] mlx5_core 0000:5c:00.0: mlx5_cmd_out_err:838:(pid 1441871): ACCESS_REG(0x805) "
                      "op_mod(0x1) failed, status bad resource(0x5), syndrome (0x305684), err(-22)");
        line("02:10", "kernel: [1040.000001] EDAC MC1: 1 CE memory read error on CPU_SrcID#1_MC#0_Chan#0_DIMM#0 "
                      "(channel:0 slot:0 page:0x5f21 offset:0x0 grain:32 syndrome:0x0)");
        line("02:30", "nvidia-persistenced[2211]: warning: device 0000:3b:00.0 is not in persistence mode, retry 3");
    } else {
        line("01:50", "kernel: [1030.554100] pcieport 0000:00:03.0: AER: Corrected error received: 0000:00:03.0");
        line("02:20", "kernel: [1041.100000] NVRM: Xid (PCI:0000:91:00): 63, pid=51234, Row Remapper: New row marked "
                      "for remapping, reset gpu to activate");
        line("02:40", "sshd[99811]: error: kex_exchange_identification: Connection closed by remote host 10.1.4.7 port 51112");
    }
    return s;
}

// Two nodes; the failed attempt adds one line: its GPU falling off the bus.
void writeAttempt(const fs::path& dir, const std::vector<std::string>& nodes, bool failed, int hour)
{
    for (size_t i = 0; i < nodes.size(); ++i) {
        std::string syslog = benignSyslog(nodes[i], static_cast<int>(i), hour);
        if (failed && i == 1)
            syslog += "Dec  7 " + std::string(hour < 10 ? "0" : "") + std::to_string(hour) + ":05:00 " + nodes[i] +
                      " kernel: [1200.445102] NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has "
                      "fallen off the bus.\n";
        writeFile(dir / ("syslog-" + nodes[i] + ".log"), syslog);
    }
}

Analysis analyzeDir(const fs::path& dir)
{
    return analyze(dir.string(), shippedOnly());
}

// The pair: the failed attempt adds its Xid 79 to the benign kinds both print; the healthy run had other
// node names (another allocation) and ran two hours earlier. Written into `tmp`, which must outlive the
// comparison: it reads the unrecognised lines from the files.
std::pair<Analysis, Analysis> renamedPair(const QTemporaryDir& tmp)
{
    const fs::path failedDir = fs::path(tmp.path().toStdString()) / "failed";
    const fs::path healthyDir = fs::path(tmp.path().toStdString()) / "healthy";
    writeAttempt(failedDir, {"node-01", "node-02"}, true, 10);
    writeAttempt(healthyDir, {"gpu-a01", "gpu-a02"}, false, 8);
    return {analyzeDir(failedDir), analyzeDir(healthyDir)};
}

const BaselineFamilyMark* familyMark(const Analysis& a, const BaselineComparison& c, const std::string& symptom)
{
    for (const auto& f : c.families)
        if (a.result.families[f.family.value].symptom == symptom)
            return &f;
    return nullptr;
}

} // namespace

class TestBaseline : public QObject {
    Q_OBJECT
private slots:
    void masksWhatVaries()
    {
        const std::vector<std::string> nodes{"node-01", "gpu-a17"};
        QCOMPARE(baseline::maskLine("error on node-01: pid 4242 at 0x7f3a2c 10.1.4.7:29500 /var/log/x.log", nodes),
                 std::string("error on <node>: pid <n> at <hex> <ip> <path>"));
        QCOMPARE(baseline::maskLine("device 0000:3b:00.0 uuid GPU-5d3b2a1c-7e8f-4a9b-b1c2-d3e4f5a6b7c8 retry 3.", nodes),
                 std::string("device <addr> uuid GPU-<hex>-<hex>-<hex>-<hex>-<hex> retry <n>."));
        QCOMPARE(baseline::maskLine("gpu-a17 lost  rank12", nodes), std::string("<node> lost rank<n>"));
        // Same text, same template: nothing depends on the order of the node list.
        QCOMPARE(baseline::maskLine("node-01 x", {"gpu-a17", "node-01"}), baseline::maskLine("node-01 x", nodes));
    }

    // The failed run's only new line is its initiating event; the benign kinds are in both, on other node names.
    void onlyTheRootIsNew()
    {
        QTemporaryDir tmp;
        const auto [failed, healthy] = renamedPair(tmp);
        QVERIFY(failed.result.rootCause);
        QCOMPARE(failed.result.rootCause->symptom, std::string("gpu.xid.79"));

        const BaselineComparison c = baseline::compare(failed, healthy);
        QCOMPARE(c.nodesByName, 0u);
        QCOMPARE(c.nodesByPosition, 2u);
        for (const char* benign : {"network.mlx5_access_reg_noise", "host.edac.CE", "host.pcie_corrected", "gpu.xid.63"}) {
            const BaselineFamilyMark* f = familyMark(failed, c, benign);
            QVERIFY2(f, benign);
            QVERIFY2(f->symptom.mark.match == BaselineMatch::AlsoInBaseline, benign);
            QVERIFY2(f->symptom.mark.baselineCount >= 1, benign);
            QVERIFY2(f->symptom.sameRate, benign);
            // Matched at its place, through the node's position (the names differ).
            QVERIFY2(f->matchedEvents == f->symptom.count && f->newEvents == 0, benign);
        }
        const BaselineFamilyMark* root = familyMark(failed, c, "gpu.xid.79");
        QVERIFY(root);
        QVERIFY(root->symptom.mark.match == BaselineMatch::New);
        for (const auto& e : c.events) {
            const SymptomEvent& ev = *std::find_if(failed.result.events.begin(), failed.result.events.end(),
                                                    [&](const SymptomEvent& x) { return x.id == e.event; });
            QCOMPARE(e.mark.match == BaselineMatch::New, ev.symptom == std::string("gpu.xid.79"));
            if (e.mark.match == BaselineMatch::AlsoInBaseline)
                QVERIFY(e.mark.by == PlaceMatch::NodePosition || e.mark.by == PlaceMatch::Rank);
        }
        QVERIFY(c.gone.empty());
        // The two kinds no rule knows are in both attempts: no new unrecognised line.
        QCOMPARE(c.unknownAlso, 2u);
        QCOMPARE(c.unknownNewTotal, 0u);

        // The document: without a baseline it is what it was; with one it gains `baseline` only.
        const std::string plain = resultToString(failed.result);
        QVERIFY(plain.find("\"baseline\"") == std::string::npos);
        const nlohmann::json with = nlohmann::json::parse(resultToStringWithBaseline(failed.result, c));
        nlohmann::json without = with;
        without.erase("baseline");
        QCOMPARE(without.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", plain);
        QCOMPARE(with["baseline"]["nodes_matched"]["by_position"].get<int>(), 2);
    }

    // A line no rule knows, printed only by the failed attempt, is listed with its nodes and first time.
    void newUnknownLineIsListed()
    {
        QTemporaryDir tmp;
        const fs::path failedDir = fs::path(tmp.path().toStdString()) / "failed";
        const fs::path healthyDir = fs::path(tmp.path().toStdString()) / "healthy";
        writeAttempt(failedDir, {"node-01", "node-02"}, true, 10);
        writeAttempt(healthyDir, {"node-01", "node-02"}, false, 8);
        std::string extra = readFile(failedDir / "syslog-node-01.log");
        extra += "Dec  7 10:04:10 node-01 kernel: [1190.000001] foo_drv 0000:05:00.0: firmware heartbeat lost, error -110\n";
        extra += "Dec  7 10:04:40 node-01 kernel: [1220.000001] foo_drv 0000:06:00.0: firmware heartbeat lost, error -5\n";
        writeFile(failedDir / "syslog-node-01.log", extra);
        const Analysis failed = analyzeDir(failedDir), healthy = analyzeDir(healthyDir);
        const BaselineComparison c = baseline::compare(failed, healthy);
        QCOMPARE(c.nodesByName, 2u);
        std::string listed;
        for (const auto& u : c.unknownNew)
            listed += u.text + " | ";
        QVERIFY2(c.unknownNewTotal == 1u, listed.c_str());
        QCOMPARE(c.unknownNew.size(), size_t(1));
        QCOMPARE(c.unknownNew[0].text, std::string("foo_drv <addr>: firmware heartbeat lost, error -<n>"));
        QCOMPARE(c.unknownNew[0].count, 2u);
        QCOMPARE(c.unknownNew[0].nodes, std::vector<std::string>{"node-01"});
        QCOMPARE(c.unknownNew[0].line, 5u);
    }

    // The pair with an unknown line too: five benign error kinds in both attempts on other node names, the
    // failed one adds its initiator and a line no rule knows. Only those two are new; the unknown line is listed
    // with its node and first time, and the report says both.
    void newUnknownLineAcrossRenamedNodes()
    {
        QTemporaryDir tmp;
        const fs::path failedDir = fs::path(tmp.path().toStdString()) / "failed";
        const fs::path healthyDir = fs::path(tmp.path().toStdString()) / "healthy";
        writeAttempt(failedDir, {"node-01", "node-02"}, true, 10);
        writeAttempt(healthyDir, {"gpu-a01", "gpu-a02"}, false, 8);
        std::string extra = readFile(failedDir / "syslog-node-02.log");
        extra += "Dec  7 10:04:58 node-02 kernel: [1198.000001] foo_drv 0000:91:00.0: firmware heartbeat lost, error -110\n";
        writeFile(failedDir / "syslog-node-02.log", extra);
        const Analysis failed = analyzeDir(failedDir), healthy = analyzeDir(healthyDir);
        const BaselineComparison c = baseline::compare(failed, healthy);
        QCOMPARE(c.nodesByName, 0u);
        QCOMPARE(c.unknownAlso, 2u); // the persistenced warning and the sshd error, on renamed nodes
        QCOMPARE(c.unknownNewTotal, 1u);
        QCOMPARE(c.unknownNew.at(0).text, std::string("foo_drv <addr>: firmware heartbeat lost, error -<n>"));
        QCOMPARE(c.unknownNew[0].nodes, std::vector<std::string>{"node-02"});
        QVERIFY(c.unknownNew[0].firstNs != kNoTime);
        QVERIFY(formatTime({c.unknownNew[0].firstNs, c.unknownNew[0].basis, {}}).find("T10:04:58") != std::string::npos);
        size_t also = 0;
        for (const auto& f : c.families)
            also += f.symptom.mark.match == BaselineMatch::AlsoInBaseline;
        QCOMPARE(also, size_t(4)); // the four benign kinds a rule knows
        // Read back from the document, the report states what is new and what is also in the baseline.
        const Result read = resultFromJson(nlohmann::json::parse(resultToStringWithBaseline(failed.result, c)));
        const std::string md = present::reportMarkdown(present::buildReport(read, {}, "test"), {});
        QVERIFY(md.find("## Against the baseline") != std::string::npos);
        QVERIFY(md.find("New failure-indicating lines not in the catalogue") != std::string::npos);
        QVERIFY(md.find("firmware heartbeat lost") != std::string::npos);
        QVERIFY(md.find("### Also in the baseline") != std::string::npos);
        const std::string html = present::reportHtml(present::buildReport(read, {}, "test"), {});
        QVERIFY(html.find("class=\"baseline-new\"") != std::string::npos);
        QVERIFY(html.find("class=\"baseline-also\"") != std::string::npos);
    }

    // The reports say where each family is, as the Baseline tab's Where column does: two families of one title at
    // different places are told apart in Markdown and HTML too.
    void reportsSayWhere()
    {
        QTemporaryDir tmp;
        const auto [failed, healthy] = renamedPair(tmp);
        const BaselineComparison c = baseline::compare(failed, healthy);
        const present::BaselineText text = present::baselineText(failed.result, c);
        QVERIFY(!text.newFamilies.empty());
        const std::string where = present::baselineWhere(text.newFamilies.front());
        QVERIFY2(where.find("node-02") != std::string::npos, where.c_str());  // the Xid 79's node
        const Result read = resultFromJson(nlohmann::json::parse(resultToStringWithBaseline(failed.result, c)));
        const std::string md = present::reportMarkdown(present::buildReport(read, {}, "test"), {});
        const std::string section = md.substr(std::min(md.find("## Against the baseline"), md.size()));
        // (the label is Markdown-escaped; the place and the detail here have nothing to escape)
        QVERIFY2(md.find(" | " + where + " | " + text.newFamilies.front().detail + " |") != std::string::npos, section.c_str());
        const std::string html = present::reportHtml(present::buildReport(read, {}, "test"), {});
        QVERIFY(html.find("<td class=\"where\">" + where + "</td>") != std::string::npos);
        for (const auto& l : text.alsoFamilies)  // every shared family has its place too
            QVERIFY2(md.find(" | " + present::baselineWhere(l) + " | " + l.detail + " |") != std::string::npos, l.label.c_str());
    }

    // A cause the healthy run also shows at the same rate is weighed down and the verdict says so.
    void rootAlsoInBaselineIsSaid()
    {
        QTemporaryDir tmp;
        const fs::path failedDir = fs::path(tmp.path().toStdString()) / "failed";
        const fs::path healthyDir = fs::path(tmp.path().toStdString()) / "healthy";
        writeAttempt(failedDir, {"node-01", "node-02"}, true, 10);
        writeAttempt(healthyDir, {"node-01", "node-02"}, true, 8);   // the "healthy" run had the Xid 79 too
        const Analysis failed = analyzeDir(failedDir), healthy = analyzeDir(healthyDir);
        const BaselineComparison c = baseline::compare(failed, healthy);
        QVERIFY(c.change == BaselineVerdictChange::RootAlsoInBaseline);
        QVERIFY(c.verdict.find("gpu.xid.79") != std::string::npos);
        QVERIFY(!c.candidates.empty() && c.candidates.back().weighedDown);
    }

    // samples/baseline-pair (synth --baseline): the comparison against its golden.
    void samplePairGolden()
    {
        const fs::path dir = fs::path(fltest::kSource) / "samples" / "baseline-pair";
        const Analysis failed = analyzeDir(dir / "failed"), healthy = analyzeDir(dir / "healthy");
        const nlohmann::json actual = baselineJson(baseline::compare(failed, healthy), false);
        const fs::path goldenPath = dir / "expected-baseline.json";
        if (qEnvironmentVariableIsSet("FAULTLINE_UPDATE_GOLDEN")) {
            writeFile(goldenPath, actual.dump(2) + "\n");
            QSKIP("golden file rewritten");
        }
        QVERIFY2(fs::exists(goldenPath), goldenPath.c_str());
        if (actual != nlohmann::json::parse(readFile(goldenPath))) {
            const fs::path out = fs::path(FAULTLINE_BINARY_DIR) / "actual-baseline-pair.json";
            writeFile(out, actual.dump(2) + "\n");
            QFAIL(("comparison differs from " + goldenPath.string() + "; actual written to " + out.string()).c_str());
        }
        // The fault's own families are new, the benign noise is not.
        QCOMPARE(actual["verdict_change"].get<std::string>() == "root_also_in_baseline", false);

        // The one typed reader keeps the comparison: read back and written again, the document is the same.
        const BaselineComparison c = baseline::compare(failed, healthy);
        for (const bool detail : {false, true}) {
            const std::string doc = resultToStringWithBaseline(failed.result, c, ResultJsonOptions{detail});
            const Result read = resultFromJson(nlohmann::json::parse(doc));
            QVERIFY(read.baseline);
            QCOMPARE(read.baseline->families.size(), c.families.size());
            QCOMPARE(nlohmann::json::parse(resultToString(read, ResultJsonOptions{detail}))["baseline"],
                     nlohmann::json::parse(doc)["baseline"]);
        }
    }

    // Three jobs whose root cause is the same GPU (one PCI address on one node) make it a repeat offender.
    void repeatOffenderInHistory()
    {
        QTemporaryDir tmp;
        const std::string db = tmp.filePath("history.db").toStdString();
        auto doc = [](const std::string& job, const std::string& node, const std::string& pci, const std::string& symptom) {
            Result r;
            r.status = ResultStatus::Attributed;
            r.outcome = WorkloadOutcome::Failed;
            r.domain = Domain::Gpu;
            r.subDomain = "gpu_lost";
            r.workloadId = job;
            r.attempt = 1;
            RootCause rc;
            rc.symptom = symptom;
            rc.node = node;
            rc.pciBus = pci;
            rc.gpuIndex = 3;
            r.rootCause = rc;
            return resultToJson(r);
        };
        std::string error;
        for (const char* job : {"slurm-1", "slurm-2", "slurm-3"})
            QVERIFY2(collect::appendHistory(db, doc(job, "node-07", "0000:91:00", "gpu.xid.79"), "slurm", "", error),
                     error.c_str());
        // Noise: the same cause elsewhere, another cause on that GPU, one job twice on another GPU.
        QVERIFY(collect::appendHistory(db, doc("slurm-4", "node-08", "0000:91:00", "gpu.xid.79"), "slurm", "", error));
        QVERIFY(collect::appendHistory(db, doc("slurm-5", "node-07", "0000:91:00", "gpu.xid.48"), "slurm", "", error));
        QVERIFY(collect::appendHistory(db, doc("slurm-6", "node-09", "0000:1b:00", "gpu.xid.79"), "slurm", "", error));
        QVERIFY(collect::appendHistory(db, doc("slurm-6", "node-09", "0000:1b:00", "gpu.xid.79"), "slurm", "", error));
        std::vector<history::Offender> out;
        QVERIFY2(history::offendersInHistoryDb(db, {}, out, error), error.c_str());
        QCOMPARE(out.size(), size_t(1));
        QCOMPARE(out[0].node, std::string("node-07"));
        QCOMPARE(out[0].pciBus, std::string("0000:91:00"));
        QCOMPARE(out[0].fingerprint, std::string("gpu/gpu_lost/gpu.xid.79"));
        QCOMPARE(out[0].jobs, 3u);
        QCOMPARE(out[0].rows.size(), size_t(3));
        // At node level the Xid 48 on that node is another cause: still one offender.
        std::vector<history::Offender> byNode;
        history::OffenderQuery q;
        q.level = history::OffenderLevel::Node;
        QVERIFY(history::offendersInHistoryDb(db, q, byNode, error));
        QCOMPARE(byNode.size(), size_t(1));
        QVERIFY(byNode[0].pciBus.empty());

        // Seen before? for slurm-3's cause: the two other jobs at that GPU, and at node level the same two.
        history::CausePlace place{"gpu/gpu_lost/gpu.xid.79", "node-07", "0000:91:00", 3};
        std::vector<history::SeenAt> seen;
        QVERIFY2(history::seenInHistoryDb(db, place, "3", 20, seen, error), error.c_str());
        QCOMPARE(seen.size(), size_t(2));
        QVERIFY(seen[0].level == history::OffenderLevel::Gpu);
        QCOMPARE(seen[0].jobs, 2u);
        QCOMPARE(seen[0].rows.size(), size_t(2));
        for (const auto& r : seen[0].rows)
            QVERIFY(r.workloadId == "slurm-1" || r.workloadId == "slurm-2");
        QCOMPARE(seen[1].jobs, 2u);
        // A cause seen nowhere else, and a result without a root cause.
        std::vector<history::SeenAt> once;
        QVERIFY(history::seenInHistoryDb(db, {"gpu/gpu_lost/gpu.xid.48", "node-07", "0000:91:00", 3}, "5", 20, once, error));
        QCOMPARE(once.size(), size_t(2));
        QCOMPARE(once[0].results, 0u);
        std::vector<history::SeenAt> none;
        QVERIFY(history::seenInHistoryDb(db, {}, "", 20, none, error));
        QVERIFY(none.empty());

        // The per-place summary the offenders are read from, kept at each append, equals a count of the rows.
        for (const bool gpu : {true, false}) {
            QCOMPARE(summaryKept(db, gpu), summaryFromRows(db, gpu));
            QVERIFY(!summaryKept(db, gpu).empty());
        }
        // A database written before the summary existed gets it, filled, at its first query.
        QVERIFY(sqlRows(db, "DROP TABLE results_places").empty());
        std::vector<history::Offender> again;
        QVERIFY2(history::offendersInHistoryDb(db, {}, again, error), error.c_str());
        QCOMPARE(again.size(), size_t(1));
        QCOMPARE(again[0].jobs, 3u);
        QCOMPARE(again[0].rows.size(), size_t(3));
        QCOMPARE(summaryKept(db, true), summaryFromRows(db, true));
        // And is kept in step by the next append.
        QVERIFY(collect::appendHistory(db, doc("slurm-8", "node-07", "0000:91:00", "gpu.xid.79"), "slurm", "", error));
        QCOMPARE(summaryKept(db, true), summaryFromRows(db, true));
        QCOMPARE(summaryKept(db, false), summaryFromRows(db, false));
        std::vector<history::Offender> four;
        history::OffenderQuery atMostTwo;
        atMostTwo.resultsPerOffender = 2;
        QVERIFY(history::offendersInHistoryDb(db, atMostTwo, four, error));
        QCOMPARE(four.size(), size_t(1));
        QCOMPARE(four[0].jobs, 4u);
        QCOMPARE(four[0].rows.size(), size_t(2));   // the oldest two of its four
        QCOMPARE(four[0].rows[0].workloadId, std::string("slurm-1"));
    }

    // The service's table keeps `id` as text beside its rowid: the node level's listed rows must come from the
    // index alone (the node level took up to 110 ms at 100,000 results reading each row from the table), and a
    // store made with the older index loses it.
    void offenderRowsFromTheIndexAlone()
    {
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        auto exec = [db](const std::string& sql) {
            char* msg = nullptr;
            const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg);
            const std::string m = msg ? msg : "";
            sqlite3_free(msg);
            return rc == SQLITE_OK ? std::string() : m;
        };
        QCOMPARE(exec("CREATE TABLE run_causes (session_id TEXT NOT NULL, run INTEGER NOT NULL, id TEXT NOT NULL,"
                      " workload_id TEXT NOT NULL, fingerprint TEXT NOT NULL, root_node TEXT NOT NULL, root_pci TEXT NOT NULL,"
                      " root_gpu INTEGER NOT NULL, collected_at TEXT NOT NULL, PRIMARY KEY (session_id, run));"
                      "CREATE INDEX run_causes_offenders ON run_causes (fingerprint, root_node, root_pci, root_gpu,"
                      " workload_id, collected_at)"),
                 std::string());
        QCOMPARE(exec(history::offendersIndexSql("run_causes") + ";" + history::summarySchemaSql("run_causes")), std::string());
        std::vector<std::string> plan;
        for (const auto level : {history::OffenderLevel::Node, history::OffenderLevel::Gpu}) {
            sqlite3_stmt* st = nullptr;
            QCOMPARE(sqlite3_prepare_v2(db, ("EXPLAIN QUERY PLAN " + history::offendersSql("run_causes", level)).c_str(), -1,
                                        &st, nullptr),
                     SQLITE_OK);
            std::string text;
            while (sqlite3_step(st) == SQLITE_ROW)
                text += reinterpret_cast<const char*>(sqlite3_column_text(st, 3)) + std::string("\n");
            sqlite3_finalize(st);
            QVERIFY2(text.find("SEARCH r USING COVERING INDEX run_causes_offender_rows") != std::string::npos, text.c_str());
        }
        sqlite3_stmt* old = nullptr;
        sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'run_causes_offenders'", -1, &old, nullptr);
        QCOMPARE(sqlite3_step(old), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(old, 0), 0);
        sqlite3_finalize(old);
        sqlite3_close(db);
    }

    // The History tab asks for every node of the job: at 1,250 nodes, a few statements (it was one per node),
    // and the same places as asking node by node.
    void placesOfManyNodesInFewStatements()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("history.db").toStdString();
        std::string error;
        for (int i = 0; i < 40; ++i) {
            Result r;
            r.status = ResultStatus::Attributed;
            r.domain = Domain::Gpu;
            r.subDomain = "gpu_lost";
            r.workloadId = "slurm-" + std::to_string(i % 30);
            RootCause rc;
            rc.symptom = i % 3 ? "gpu.xid.79" : "gpu.xid.48";
            rc.node = "node-" + std::to_string(1000 + (i * 37) % 1250);
            rc.gpuIndex = i % 8;
            r.rootCause = rc;
            QVERIFY2(collect::appendHistory(path, resultToJson(r), "slurm", "", error), error.c_str());
        }
        std::vector<std::string> nodes;
        for (int i = 0; i < 1250; ++i)
            nodes.push_back("node-" + std::to_string(1000 + i));
        std::vector<history::Offender> byNode;
        QVERIFY2(history::placesInHistoryDb(path, {}, byNode, error), error.c_str());  // makes the summary
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        for (const auto& n : nodes)
            QVERIFY2(history::placesOnSqlite(db, "results", {n}, byNode, error), error.c_str());
        QVERIFY(byNode.size() >= 30);
        int statements = 0;
        sqlite3_trace_v2(db, SQLITE_TRACE_STMT, [](unsigned, void* n, void*, void*) { return ++*static_cast<int*>(n), 0; },
                         &statements);
        std::vector<history::Offender> all;
        QVERIFY2(history::placesOnSqlite(db, "results", nodes, all, error), error.c_str());
        sqlite3_close(db);
        QVERIFY2(statements <= 3, std::to_string(statements).c_str());
        QCOMPARE(all.size(), byNode.size());
        for (size_t i = 0; i < all.size(); ++i) {
            QCOMPARE(all[i].node, byNode[i].node);
            QCOMPARE(all[i].fingerprint, byNode[i].fingerprint);
            QCOMPARE(all[i].jobs, byNode[i].jobs);
        }
    }
};

QTEST_GUILESS_MAIN(TestBaseline)
#include "test_baseline.moc"
