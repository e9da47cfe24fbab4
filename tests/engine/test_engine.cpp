// The engine end to end: samples against their golden verdicts, determinism,
// late evidence, rule overrides and hostile input.
#include "archive_writer.h"
#include "golden.h"

#include "engine/engine.h"
#include "testutil.h"
#include "engine/result_json.h"
#include "present/verdict.h"
#include "rules/ruleset.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <fstream>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::writeFile;
using fltest::readFile;
using fltest::kSource;

namespace {

void copyTree(const fs::path& from, const fs::path& to)
{
    fs::create_directories(to);
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

const EvidenceItem* evidence(const Result& r, EvidenceId id)
{
    for (const auto& e : r.evidence)
        if (e.id == id)
            return &e;
    return nullptr;
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT
private slots:
    void goldenSamples_data();
    void goldenSamples();
    void rootEvidencePointsAtTheRawLine();
    void deterministicAndArchiveEqualsFolder();
    void lateEvidenceChangesTheVerdict();
    void userRuleReplacesShippedRule();
    void badRuleFilesNameFileLineAndRule_data();
    void badRuleFilesNameFileLineAndRule();
    void hostileInputFinishes();
    void unnamedHostStillGroupsItsOwnLines();
    void hostMapPlacesAPeerAddressOnItsNode();
    void emptyBundleIsUnattributed();
    void missingBundleThrowsWithPath();
    void droppingMetricSeriesKeepsTheResult();
    void threadCountKeepsTheResult();
};

void TestEngine::goldenSamples_data()
{
    QTest::addColumn<QString>("sample");
    for (const char* s : {"xid149-nccl", "nvlink-signal-integrity", "ambiguous-two-faults", "unattributed-timeouts",
                          "dcgm-xid79-metrics-only", "ib-link-down-metric"})
        QTest::newRow(s) << QString::fromUtf8(s);
}

void TestEngine::goldenSamples()
{
    QFETCH(QString, sample);
    const fs::path dir = fs::path(kSource) / "samples" / sample.toStdString();
    Analysis a = analyze(dir.string(), shippedOnly());
    nlohmann::json actual = goldenOf(a.result);
    const fs::path goldenPath = dir / "expected.json";
    if (qEnvironmentVariableIsSet("FAULTLINE_UPDATE_GOLDEN")) {
        writeFile(goldenPath, actual.dump(2) + "\n");
        QSKIP("golden file rewritten");
    }
    QVERIFY2(fs::exists(goldenPath), goldenPath.c_str());
    nlohmann::json expected = nlohmann::json::parse(readFile(goldenPath));
    if (actual != expected) {
        const fs::path out = fs::path(FAULTLINE_BINARY_DIR) / ("actual-" + sample.toStdString() + ".json");
        writeFile(out, actual.dump(2) + "\n");
        QFAIL(("result differs from " + goldenPath.string() + "; actual written to " + out.string()).c_str());
    }
}

void TestEngine::rootEvidencePointsAtTheRawLine()
{
    const fs::path dir = fs::path(kSource) / "samples" / "xid149-nccl";
    Analysis a = analyze(dir.string(), shippedOnly());
    QVERIFY(a.result.rootCause.has_value());
    QVERIFY(!a.result.rootCause->evidence.empty());
    const EvidenceItem* ev = evidence(a.result, a.result.rootCause->evidence.front());
    QVERIFY(ev);
    QCOMPARE(QString::fromStdString(ev->file), QStringLiteral("syslog-node-02.log"));
    // The raw reference must select exactly the bytes of that line in the file.
    const std::string bytes = readFile(dir / ev->file);
    QVERIFY(ev->ref.offset + ev->ref.length <= bytes.size());
    const std::string line = bytes.substr(ev->ref.offset, ev->ref.length);
    QVERIFY2(line.find("NVRM: Xid (PCI:0000:41:00): 149") != std::string::npos, line.c_str());
    // ... and the line number must be where that offset is.
    const auto newlines = std::count(bytes.begin(), bytes.begin() + static_cast<long>(ev->ref.offset), '\n');
    QCOMPARE(static_cast<long>(ev->ref.line), static_cast<long>(newlines) + 1);
    QCOMPARE(QString::fromUtf8(toString(ev->role).data()), QStringLiteral("root"));
}

void TestEngine::deterministicAndArchiveEqualsFolder()
{
    const fs::path dir = fs::path(kSource) / "samples" / "xid149-nccl";
    const std::string first = resultToString(analyze(dir.string(), shippedOnly()).result);
    const std::string second = resultToString(analyze(dir.string(), shippedOnly()).result);
    QCOMPARE(first, second);

    QTemporaryDir tmp;
    std::vector<fltest::ArchiveItem> items;
    for (const auto& e : fs::directory_iterator(dir))
        items.push_back({"xid149-nccl/" + e.path().filename().string(), readFile(e.path())});
    // Reverse order in the archive: the result must not depend on entry order.
    std::reverse(items.begin(), items.end());
    const std::string archive = tmp.filePath("bundle.tar.gz").toStdString();
    QCOMPARE(fltest::writeArchive(archive, fltest::ArchiveFormat::TarGz, items), std::string());
    const std::string fromArchive = resultToString(analyze(archive, shippedOnly()).result);
    QCOMPARE(fromArchive, first);

    // Members kept in memory (the service's way), all of them or as many as a small budget holds.
    for (const uint64_t budget : {uint64_t(64) << 20, uint64_t(4096)}) {
        AnalyzeOptions inMemory = shippedOnly();
        inMemory.load.memoryBytes = budget;
        const Analysis a = analyze(archive, inMemory);
        const auto held = std::count_if(a.bundle.files.begin(), a.bundle.files.end(), [](const SourceFile& f) { return bool(f.memory); });
        QVERIFY2(budget > 4096 ? size_t(held) == a.bundle.files.size() : held > 0 && size_t(held) < a.bundle.files.size(),
                 std::to_string(held).c_str());
        QCOMPARE(resultToString(a.result), first);
    }
}

void TestEngine::lateEvidenceChangesTheVerdict()
{
    // Application logs first: only symptoms. Then the kernel logs arrive.
    QTemporaryDir tmp;
    const fs::path src = fs::path(kSource) / "samples" / "xid149-nccl";
    const fs::path apps = fs::path(tmp.path().toStdString()) / "apps";
    const fs::path kernel = fs::path(tmp.path().toStdString()) / "kernel";
    for (const auto& e : fs::directory_iterator(src)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("applog", 0) == 0 || name == "workload.json")
            writeFile(apps / name, readFile(e.path()));
        else if (name.rfind("syslog", 0) == 0)
            writeFile(kernel / name, readFile(e.path()));
    }
    auto rules = loadRulesFor(shippedOnly());
    Engine engine(rules);
    engine.ingest(loadBundle(apps.string()));
    const Result before = engine.attribute();
    // The app logs alone show only rank 2's NVLS 'Cuda failure 999'.
    QCOMPARE(QString::fromUtf8(toString(before.status).data()), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(before.rootCause->symptom), QStringLiteral("nvlink.nvls_failure"));
    engine.ingest(loadBundle(kernel.string()));
    const Result after = engine.attribute();
    QCOMPARE(QString::fromUtf8(toString(after.status).data()), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(after.rootCause->symptom), QStringLiteral("nvlink.fatal"));
    QCOMPARE(QString::fromStdString(after.rootCause->node), QStringLiteral("node-02"));
    // attribute() is repeatable: same state, same answer.
    QCOMPARE(resultToString(engine.attribute()), resultToString(after));
    // attributeOnce() moves the events instead of copying them: the same answer, and none are left behind.
    QCOMPARE(resultToString(engine.attributeOnce()), resultToString(after));
    QVERIFY(!engine.attribute().rootCause);
}

void TestEngine::userRuleReplacesShippedRule()
{
    QTemporaryDir tmp;
    // Same id as the shipped Xid extractor, but it only accepts Xid 45: the
    // sample then has no initiator left.
    writeFile(fs::path(tmp.path().toStdString()) / "override.jsonc", R"({
      "rules": [{
        "id": "gpu.extract.xid", "phase": "extract", "sources": ["syslog"], "literal": "NVRM: Xid",
        "pattern": "NVRM: Xid \\((?:PCI:)?(?P<pci>[0-9a-fA-F:]+)\\): (?P<xid>45),",
        "emit": {"symptom": "gpu.xid.{xid}"}
      }]
    })");
    AnalyzeOptions o = shippedOnly();
    o.ruleDirs.push_back(tmp.path().toStdString());
    Analysis a = analyze((fs::path(kSource) / "samples" / "xid149-nccl").string(), o);
    // No Xid 149 any more: only the NVLS failure it caused in the app log is left.
    QVERIFY(a.result.rootCause);
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("nvlink.nvls_failure"));
    Analysis shipped = analyze((fs::path(kSource) / "samples" / "xid149-nccl").string(), shippedOnly());
    QVERIFY(a.result.rulesDigest != shipped.result.rulesDigest);
}

void TestEngine::badRuleFilesNameFileLineAndRule_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("json syntax") << "{\n  \"rules\": [\n    {\"id\": \"x\",, }\n  ]\n}" << "bad.jsonc:3:";
    QTest::newRow("bad regex") << "{\"rules\": [\n{\"id\": \"my.rule\", \"phase\": \"extract\", \"pattern\": \"(unclosed\", "
                                  "\"emit\": {\"symptom\": \"x\"}}]}"
                               << "rule 'my.rule': pattern does not compile";
    QTest::newRow("unknown phase") << "{\"rules\": [\n\n{\"id\": \"p.rule\", \"phase\": \"later\", \"match\": {}}]}"
                                   << "bad.jsonc:3:2: rule 'p.rule': unknown phase";
    // The engine's own step is a phase of the trace, not one a rule may name.
    QTest::newRow("outcome phase") << "{\"rules\": [{\"id\": \"o.rule\", \"phase\": \"outcome\", \"match\": {}, "
                                      "\"suppress\": \"x\"}]}"
                                   << "rule 'o.rule': unknown phase 'outcome'";
    QTest::newRow("does nothing") << "{\"rules\": [{\"id\": \"n.rule\", \"phase\": \"filter\", \"match\": {}}]}"
                                  << "rule 'n.rule': the rule does nothing";
    QTest::newRow("unknown key") << "{\"rules\": [{\"id\": \"k.rule\", \"phase\": \"filter\", \"match\": {\"symptom\": \"a\"}, "
                                    "\"supress\": \"typo\"}]}"
                                 << "unknown key 'supress'";
    QTest::newRow("inline case flag") << "{\"rules\": [{\"id\": \"c.rule\", \"phase\": \"extract\", \"pattern\": \"(?i)xid\", "
                                         "\"emit\": {\"symptom\": \"x\"}}]}"
                                      << "ignore_case";
    QTest::newRow("not an object") << "[1, 2]" << "must be a JSON object";
}

void TestEngine::badRuleFilesNameFileLineAndRule()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    RuleSet rules;
    try {
        rules.loadText(text.toStdString(), "bad.jsonc");
        rules.compile();
        QFAIL("a bad rule file was accepted");
    } catch (const RuleError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).startsWith("bad.jsonc"), e.what());
    }
}

void TestEngine::hostileInputFinishes()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    copyTree(fs::path(kSource) / "samples" / "xid149-nccl", dir);
    // A 100 MB line full of the pre-filter's literal, invalid UTF-8 in a matched
    // line, a year-9999 timestamp, a binary file, an unknown file, and a rule
    // pattern that backtracking engines take exponential time on.
    {
        std::ofstream big(dir / "applog-node-01-rank9.log", std::ios::binary);
        std::string chunk;
        for (int i = 0; i < 1000; ++i)
            chunk += "NVRM: Xid Watchdog caught collective operation timeout aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        while (big.tellp() < (100 << 20))
            big << chunk;
        big << "\n[rank9]: RuntimeError: bad byte \xff\xfe here\n";
    }
    writeFile(dir / "syslog-node-06.log",
              "Mar 14 10:00:40 node-06 kernel: [12.5] NVRM: Xid (PCI:0000:07:00): 999, pid=1, \xc3\x28 strange\n");
    writeFile(dir / "syslog-node-05.log",
              "9999-12-31T23:59:59Z node-05 kernel: NVRM: Xid (PCI:0000:07:00): 79, GPU has fallen off the bus.\n");
    writeFile(dir / "core.bin", std::string("\x7f" "ELF\0\0\0\x01\x02", 9) + std::string(4096, '\0'));
    writeFile(dir / "notes-from-oncall.txt", "looked at it, no idea\n");
    QTemporaryDir rulesDir;
    writeFile(fs::path(rulesDir.path().toStdString()) / "evil.jsonc", R"({"rules": [{
        "id": "evil.backtrack", "phase": "extract", "sources": ["applog"], "literal": "aaaa",
        "pattern": "(a+)+$", "emit": {"symptom": "workload.exception"}}]})");
    AnalyzeOptions o = shippedOnly();
    o.ruleDirs.push_back(rulesDir.path().toStdString());
    const auto started = std::chrono::steady_clock::now();
    Analysis a = analyze(dir.string(), o);
    const auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started).count();
    QVERIFY2(seconds < 120, "hostile input took too long"); // a hang guard, not a benchmark
    // Everything is accounted for in the coverage report.
    std::map<std::string, FileStatus> status;
    for (const auto& c : a.result.connectors)
        status[c.file] = c.status;
    QCOMPARE(status.size(), static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator())));
    QCOMPARE(QString::fromUtf8(toString(status["core.bin"]).data()), QStringLiteral("skipped"));
    // Text of no known shape is read line by line (any text is evidence); this one holds nothing a rule knows.
    QCOMPARE(QString::fromUtf8(toString(status["notes-from-oncall.txt"]).data()), QStringLiteral("ok"));
    // The unknown Xid is reported, not blamed; the far-future line has no usable time.
    bool unknownXid = false;
    for (const auto& e : a.result.events)
        if (e.symptom == "gpu.xid.999")
            unknownXid = true;
    QVERIFY(unknownXid);
    QVERIFY(a.result.rootCause.has_value());
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("node-02"));
    // The year-9999 line has no usable time: it is listed, and says why it lost.
    bool farFutureListed = false;
    for (const auto& c : a.result.candidates)
        if (c.node == "node-05") {
            farFutureListed = true;
            QCOMPARE(QString::fromUtf8(toString(c.outcome.reason).data()), QStringLiteral("untimed"));
            QVERIFY(present::candidateVerdict(c, a.result).find("cannot be compared") != std::string::npos);
        }
    QVERIFY(farFutureListed);
    // The JSON is valid UTF-8 (invalid bytes replaced), so it parses back.
    const std::string json = resultToString(a.result);
    QVERIFY(!nlohmann::json::parse(json).is_discarded());
}

void TestEngine::unnamedHostStillGroupsItsOwnLines()
{
    // A dmesg excerpt with no host name anywhere: the Xid 79 block prints the
    // fault twice and the NVSwitch sees the GPU go. One machine, one fault.
    QTemporaryDir tmp;
    writeFile(fs::path(tmp.path().toStdString()) / "dmesg.log",
              "[6781741.548768] NVRM: GPU at PCI:0000:91:00: GPU-b6c3b2be-c55b-d076-fa0e-d464e4c7e08b\n"
              "[6781741.548779] NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n"
              "[6781741.548783] NVRM: GPU 0000:91:00.0: GPU has fallen off the bus.\n"
              "[6781753.400584] nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 20034, Fatal, Link 48 LTSSM Fault Up\n");
    Analysis a = analyze(tmp.path().toStdString(), shippedOnly());
    QCOMPARE(QString::fromUtf8(toString(a.result.status).data()), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
    QCOMPARE(a.result.candidates.size(), size_t(1));
}

void TestEngine::hostMapPlacesAPeerAddressOnItsNode()
{
    // NCCL names the peer that refused it by address; an nslookup of that
    // address in the bundle names the node to blame, not the reporter.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "applog-r11i6n2-rank1.log",
              "r11i6n2:486514:486651 [1] include/socket.h:403 NCCL WARN Connect to 10.148.3.247<56821> failed : "
              "Connection refused\n");
    Analysis without = analyze(dir.string(), shippedOnly());
    QVERIFY(!without.result.rootCause || without.result.rootCause->node != "r10i6n5");
    writeFile(dir / "nslookup.txt",
              "nslookup 10.148.3.247\n247.3.148.10.in-addr.arpa       name = r10i6n5.ib0.xa.example.\n");
    Analysis with = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromUtf8(toString(with.result.status).data()), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(with.result.rootCause->node), QStringLiteral("r10i6n5"));
    QVERIFY(with.result.domain == Domain::Network);
    bool mapped = false;
    for (const auto& c : with.result.connectors)
        mapped = mapped || (c.file == "nslookup.txt" && c.kind == SourceKind::HostMap && c.observations == 1);
    QVERIFY(mapped);
}

void TestEngine::emptyBundleIsUnattributed()
{
    QTemporaryDir tmp;
    Analysis a = analyze(tmp.path().toStdString(), shippedOnly());
    QCOMPARE(QString::fromUtf8(toString(a.result.status).data()), QStringLiteral("unattributed"));
    QVERIFY(!a.result.missing.empty());
    QVERIFY(QString::fromStdString(a.result.missing.front()).contains("no rule matched"));
}

void TestEngine::missingBundleThrowsWithPath()
{
    try {
        analyze("/nonexistent/bundle-xyz", shippedOnly());
        QFAIL("no error for a missing bundle");
    } catch (const BundleError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains("/nonexistent/bundle-xyz"), e.what());
    }
}

// `analyze --json` keeps no metric series (AnalyzeOptions::keepMetricSeries):
// the metrics file must still be parsed, checked and counted, and the result
// document must not change.
// The service scans on one thread per analysis (Engine::setThreads, LoadOptions::threads), the CLI on every
// core: the same bundle must give the same result document either way.
void TestEngine::threadCountKeepsTheResult()
{
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "bundle";
    copyTree(fs::path(kSource) / "samples" / "xid149-nccl", dir);
    // More files than loadBundle classifies on one thread (64), each with lines the rules read.
    for (int r = 0; r < 80; ++r)
        writeFile(dir / ("applog-node-03-rank" + std::to_string(r) + ".log"),
                  "node-03:" + std::to_string(4000 + r) + ":" + std::to_string(4100 + r) + " [" + std::to_string(r % 8) +
                      "] NCCL INFO comm 0x5555 rank " + std::to_string(r) + " nranks 80 cudaDev " + std::to_string(r % 8) +
                      " busId 1" + std::to_string(r % 8) + "000 commId 0xabc - Init COMPLETE\n"
                      "[rank" + std::to_string(r) + "]:[E314 10:11:53.118835568 ProcessGroupNCCL.cpp:616] [Rank " +
                      std::to_string(r) + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, "
                      "OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600023 milliseconds before timing out.\n");
    auto rules = loadRulesFor(shippedOnly());
    std::vector<std::string> results;
    for (unsigned threads : {0u, 1u, 3u}) {
        LoadOptions load;
        load.threads = threads;
        Engine engine(rules);
        engine.setThreads(threads);
        engine.ingest(loadBundle(dir.string(), load));
        results.push_back(resultToString(engine.attribute()));
    }
    QVERIFY(results[0].find("applog-node-03-rank79.log") != std::string::npos);
    QCOMPARE(results[1], results[0]);
    QCOMPARE(results[2], results[0]);
}

void TestEngine::droppingMetricSeriesKeepsTheResult()
{
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "bundle";
    copyTree(fs::path(kSource) / "samples" / "xid149-nccl", dir);
    std::string csv = "time,node,gpu,metric,value\n";
    for (int s = 0; s < 30; ++s)
        for (int g = 0; g < 2; ++g)
            csv += "2026-03-14T10:00:" + std::string(s < 10 ? "0" : "") + std::to_string(s) + "Z,node-0" +
                   std::to_string(1 + g) + "," + std::to_string(g) + ",gpu_temp_c," + std::to_string(40 + s) + "\n";
    csv += "2026-03-14T10:00:31Z,node-01,0,gpu_temp_c,not-a-number\n";
    writeFile(dir / "metrics-node-01.csv", csv);

    AnalyzeOptions keep = shippedOnly();
    keep.keepMetricSamples = false;
    AnalyzeOptions drop = keep;
    drop.keepMetricSeries = false;
    const Analysis kept = analyze(dir.string(), keep);
    const Analysis dropped = analyze(dir.string(), drop);
    QCOMPARE(kept.metrics.size(), size_t(2));
    QVERIFY(dropped.metrics.empty());
    QCOMPARE(resultToString(dropped.result), resultToString(kept.result));

    auto metricsFile = [](const Analysis& a) -> const SourceFile* {
        for (const auto& f : a.bundle.files)
            if (f.path == "metrics-node-01.csv")
                return &f;
        return nullptr;
    };
    const SourceFile* k = metricsFile(kept);
    const SourceFile* d = metricsFile(dropped);
    QVERIFY(k && d);
    QVERIFY(k->kind == SourceKind::Metrics);
    QVERIFY(d->status == k->status && k->status == FileStatus::Ok);
    QCOMPARE(d->lines, k->lines);
    QCOMPARE(d->observations, uint64_t(60));
    QCOMPARE(d->observations, k->observations);
    QCOMPARE(d->parseErrors, k->parseErrors);
    QVERIFY(k->firstTimeNs != kNoTime);
    QCOMPARE(d->firstTimeNs, k->firstTimeNs);
    QCOMPARE(d->lastTimeNs, k->lastTimeNs);
}

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
