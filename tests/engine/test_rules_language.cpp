// The parts of the rule language added for the shipped rules: relations that
// join a field of one event to a field of another, "different"/"count_distinct"
// on fields, and the move_to action (an event printed on one host that is
// about another). Each is checked through the parser and through a real run.
#include "engine/engine.h"
#include "testutil.h"
#include "rules/rule.h"
#include "rules/ruleset.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>

using namespace fl;
namespace fs = std::filesystem;
using fltest::writeFile;
using fltest::kSource;

namespace {

const std::string kManifest = R"({"workload_id": "w1", "attempt": 1, "scheduler": "slurm",
  "nodes": ["node-0001", "node-0002", "node-0003"],
  "ranks": {"0": {"node": "node-0001", "gpu": 0}, "1": {"node": "node-0002", "gpu": 0}, "2": {"node": "node-0003", "gpu": 0}}})";

std::string ruleError(const std::string& text)
{
    RuleSet rs;
    try {
        rs.loadText(text, "test.jsonc");
    } catch (const RuleError& e) {
        return e.what();
    }
    return {};
}

Analysis run(const fs::path& bundle, const fs::path& rulesDir)
{
    AnalyzeOptions o;
    o.userConfigRules = false;
    o.shippedRulesDir = rulesDir.string();
    return analyze(bundle.string(), o);
}

const SymptomEvent* find(const Result& r, const std::string& symptom, bool suppressed = false)
{
    for (const auto& e : r.events)
        if (e.symptom == symptom && e.suppressed == suppressed)
            return &e;
    return nullptr;
}

} // namespace

class TestRulesLanguage : public QObject {
    Q_OBJECT
private slots:
    void parserAcceptsAndRefuses();
    void peerAddressMovesTheEventToThatNode();
    void unknownPeerStaysWherePrinted();
    void moveToRankAndFieldRelations();
    void reservedFieldNamesAreRefused();
    void engineNotesStayOutOfFields();
    void choseStepWritesTheTimeInItsBasis();
    void errorsNameTheRulesLineAndColumn();
    void keysAndOrdersReadOnceAsTyped();
    void digestChangesWithWhatRulesDecide();
};

std::string digestOf(const std::string& text, const std::string& file = "test.jsonc")
{
    RuleSet rs;
    rs.loadText(text, file);
    return rs.digest();
}

// The rules digest names the rules a result came from, and the service reuses a stored result for the same
// archive and digest: every part of a rule that can change a result must change it. Relation orders, the
// relations' selectors beyond their symptoms, the match's kind and include_suppressed, and an extract rule's
// sources once did not.
void TestRulesLanguage::digestChangesWithWhatRulesDecide()
{
    const std::string filter = R"({"rules": [{"id": "r", "phase": "filter", "match": {"symptom": "a"MATCH}, )"
                               R"("if": {"symptom": "b", "same": ["node"], "within_s": 5RELATION}, "suppress": "x"}]})";
    const auto variant = [&](const std::string& match, const std::string& relation) {
        std::string t = filter;
        t.replace(t.find("MATCH"), 5, match);
        t.replace(t.find("RELATION"), 8, relation);
        return digestOf(t);
    };
    const std::string base = variant("", "");
    QVERIFY(base.rfind("sha256:", 0) == 0);
    QCOMPARE(variant("", ""), base); // deterministic
    std::set<std::string> seen{base};
    for (const auto& [match, relation] : std::vector<std::pair<std::string, std::string>>{
             {R"(, "kind": "bad_node")", ""},
             {R"(, "include_suppressed": true)", ""},
             {"", R"(, "order": "before")"},
             {"", R"(, "order": "after")"},
             {"", R"(, "role": "initiator")"},
             {"", R"(, "domain": "gpu")"},
             {"", R"(, "kind": "interesting_node")"},
             {"", R"(, "include_suppressed": true)"},
             {"", R"(, "same": ["node", "field:x"])"},
         }) {
        const std::string d = variant(match, relation);
        QVERIFY2(seen.insert(d).second, (match + relation).c_str());
    }
    const std::string extract = R"({"rules": [{"id": "t.x", "phase": "extract", "sources": [SOURCES], )"
                                R"J("pattern": "BLAME rank (?P<r>\\d+)", "emit": {"symptom": "t.blame"}}]})J";
    const auto sources = [&](const std::string& list) {
        std::string t = extract;
        t.replace(t.find("SOURCES"), 7, list);
        return digestOf(t);
    };
    QVERIFY(sources(R"("applog")") != sources(R"("syslog")"));
    QCOMPARE(sources(R"("applog")"), sources(R"("applog")"));
    // Where the rules were read from is not what they decide.
    std::string plain = filter;
    plain.replace(plain.find("MATCH"), 5, "");
    plain.replace(plain.find("RELATION"), 8, "");
    QCOMPARE(digestOf(plain, "a/one.jsonc"), digestOf(plain, "b/two.jsonc"));
}

// Relation keys and orders are read into typed values at load, and read back as
// rules spell them: the rules digest is computed from that spelling.
void TestRulesLanguage::keysAndOrdersReadOnceAsTyped()
{
    for (const char* text : {"node", "gpu", "rank", "pci", "field:peer", "field:a:b"}) {
        const std::optional<fl::EventKey> k = fl::eventKeyFromString(text);
        QVERIFY2(k.has_value(), text);
        QCOMPARE(fl::toString(*k), std::string(text));
    }
    QCOMPARE(fl::eventKeyFromString("field:peer")->field, std::string("peer"));
    QCOMPARE(fl::eventKeyFromString("rank")->part, fl::EventKey::Part::Rank);
    for (const char* text : {"", "field:", "Node", "host", "fields:x", " node"})
        QVERIFY2(!fl::eventKeyFromString(text).has_value(), text);
    for (const char* text : {"before", "after", "overlaps", "not_after", "not_before", "within"}) {
        const std::optional<fl::IntervalOrder> o = fl::intervalOrderFromString(text);
        QVERIFY2(o.has_value() && *o != fl::IntervalOrder::Any, text);
        QCOMPARE(std::string(fl::toString(*o)), std::string(text));
    }
    QVERIFY(!fl::intervalOrderFromString("").has_value());
    QVERIFY(!fl::intervalOrderFromString("during").has_value());
    const std::string head = R"({"rules": [{"id": "r", "phase": "filter", "match": {"symptom": "a"}, )";
    const std::string e = ruleError(head + R"("if": {"symptom": "b", "order": "during"}, "suppress": "x"}]})");
    QVERIFY2(e.find("'order' must be before, after") != std::string::npos, e.c_str());
}

// A refused rule is named at its "id" key: line and column counted from the file's start (tabs one column).
void TestRulesLanguage::errorsNameTheRulesLineAndColumn()
{
    const std::string text = "{\"rules\": [\n"
                             "  {\"id\": \"fine\", \"phase\": \"filter\", \"match\": {\"symptom\": \"a\"}, \"suppress\": \"x\"},\n"
                             "\n"
                             "\t  {\"id\": \"bad\", \"phase\": \"filter\", \"match\": {\"symptom\": \"a\"}, \"suppress\": \"x\",\n"
                             "     \"nonsense\": 1}\n"
                             "]}\n";
    RuleSet rs;
    try {
        rs.loadText(text, "test.jsonc");
        QFAIL("the unknown key was accepted");
    } catch (const RuleError& e) {
        QVERIFY2(e.ruleId == "bad", e.what());
        QCOMPARE(e.line, 4);
        QCOMPARE(e.column, 5);
    }
}

void TestRulesLanguage::parserAcceptsAndRefuses()
{
    const std::string head = R"({"rules": [{"id": "r", "phase": "filter", "match": {"symptom": "a"}, )";
    QCOMPARE(ruleError(head + R"("move_to": {"node": "{peer}"}}]})"), std::string());
    QCOMPARE(ruleError(head + R"("move_to": {"rank": "{r}"}}]})"), std::string());
    QCOMPARE(ruleError(head + R"("move_to": {"related": {"symptom": "b", "join": {"field:peer": "field:addr"}}}}]})"),
             std::string());
    QCOMPARE(ruleError(head + R"("if": {"symptom": "b", "different": ["field:x"], "count_distinct": "field:y"}, "suppress": "x"}]})"),
             std::string());

    std::string e = ruleError(head + R"("move_to": {"node": "{a}", "rank": "{b}"}}]})");
    QVERIFY2(e.find("exactly one of node, rank or related") != std::string::npos, e.c_str());
    e = ruleError(head + R"("move_to": {"where": "x"}}]})");
    QVERIFY2(e.find("unknown key 'where' in move_to") != std::string::npos, e.c_str());
    e = ruleError(head + R"("if": {"symptom": "b", "join": {"field:": "node"}}, "suppress": "x"}]})");
    QVERIFY2(e.find("'join' maps a key") != std::string::npos, e.c_str());
    e = ruleError(head + R"("if": {"symptom": "b", "different": ["colour"]}, "suppress": "x"}]})");
    QVERIFY2(e.find("'different' accepts") != std::string::npos, e.c_str());
    e = ruleError(R"({"rules": [{"id": "r", "phase": "report", "match": {"symptom": "a"}, "move_to": {"node": "n"}}]})");
    QVERIFY2(e.find("need a filter or refine phase") != std::string::npos, e.c_str());
    QVERIFY2(e.find("test.jsonc:1:") == 0, e.c_str());
    // A selector's domain is one of the closed list: a misspelt one selected nothing, silently, before it was typed.
    QCOMPARE(ruleError(head + R"("if": {"symptom": "b", "domain": "nvlink"}, "suppress": "x"}]})"), std::string());
    e = ruleError(head + R"("if": {"symptom": "b", "domain": "nvlinks"}, "suppress": "x"}]})");
    QVERIFY2(e.find("unknown domain 'nvlinks'") != std::string::npos, e.c_str());
    e = ruleError(R"({"rules": [{"id": "r", "phase": "filter", "match": {"symptom": "a", "domain": "GPU"}, "suppress": "x"}]})");
    QVERIFY2(e.find("unknown domain 'GPU'") != std::string::npos, e.c_str());
}

// Shipped rules: error 12 names a peer by address; the peer's own NCCL init
// line says which node has that address.
void TestRulesLanguage::peerAddressMovesTheEventToThatNode()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeFile(b / "workload.json", kManifest);
    writeFile(b / "applog-node-0001-rank0.log",
              "node-0001:100:101 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.9.0.1<0>\n"
              "node-0001:100:102 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.9.0.2<555> "
              "with error 12, opcode 0, len 0, vendor err 129 (Recv)\n");
    // node-0002 reports the failure too, untimed like every NCCL WARN line: it
    // is alive, so a link failed, not the node (peers-lost-a-silent-node).
    writeFile(b / "applog-node-0002-rank1.log",
              "node-0002:200:201 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.9.0.2<0>\n"
              "node-0002:200:202 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.9.0.1<557> "
              "with error 12, opcode 0, len 0, vendor err 129 (Recv)\n");
    writeFile(b / "applog-node-0003-rank2.log",
              "node-0003:300:301 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.9.0.3<0>\n"
              "node-0003:300:302 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.9.0.2<556> "
              "with error 12, opcode 0, len 0, vendor err 129 (Send)\n");
    Analysis a = run(b, kSource + "/rules");
    const Result& r = a.result;
    QCOMPARE(QString::fromUtf8(toString(r.status).data()), QStringLiteral("attributed"));
    QVERIFY(r.rootCause);
    QCOMPARE(QString::fromStdString(r.rootCause->node), QStringLiteral("node-0002"));
    QVERIFY(r.domain == Domain::Network);
    int moved = 0;
    for (const auto& e : r.events)
        if (e.symptom.str().rfind("network.ib_", 0) == 0 && e.node == "node-0002") {
            ++moved;
            QVERIFY(e.fields.count("reported_by_node"));
            QVERIFY(e.fields.at("reported_by_node") != "node-0002");
            QCOMPARE(e.rank, -1); // the printing rank is not the peer's rank
        }
    QCOMPARE(moved, 2);
}

void TestRulesLanguage::unknownPeerStaysWherePrinted()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeFile(b / "applog-node-0001-rank0.log",
              "node-0001:100:102 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.9.9.9<555> "
              "with error 12, opcode 0, len 0, vendor err 129 (Recv)\n");
    Analysis a = run(b, kSource + "/rules");
    const SymptomEvent* e = find(a.result, "network.ib_retry_exceeded");
    QVERIFY(e);
    QCOMPARE(QString::fromStdString(e->node), QStringLiteral("node-0001"));
    QVERIFY(!e->fields.count("reported_by_node"));
}

// A rule folder of its own: move_to by rank (node from the manifest), and
// "different"/"count_distinct" on a field (who reported the event).
void TestRulesLanguage::moveToRankAndFieldRelations()
{
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    writeFile(root / "rules/t.jsonc", R"json({
      "symptoms": [
        {"id": "t.blame", "title": "blame", "domain": "workload", "role": "initiator", "weight": 10},
        {"id": "t.blame_many", "title": "blame by several", "domain": "workload", "role": "initiator", "weight": 50}
      ],
      "rules": [
        {"id": "t.x", "phase": "extract", "sources": ["applog"], "pattern": "BLAME rank (?P<r>\\d+)", "emit": {"symptom": "t.blame"}},
        {"id": "t.move", "phase": "filter.early", "match": {"symptom": "t.blame"}, "move_to": {"rank": "{r}"}},
        {"id": "t.many", "phase": "filter", "match": {"symptom": "t.blame"},
         "if": {"symptom": "t.blame", "same": ["rank"], "different": ["field:reported_by_node"]},
         "set_symptom": "t.blame_many"},
        {"id": "t.count", "phase": "filter", "match": {"symptom": "t.blame_many"},
         "if": {"symptom": "t.blame*", "same": ["rank"], "count_distinct": "field:reported_by_node", "at_least": 2},
         "set_fields": {"reporters": "2+"}},
        {"id": "t.count1", "phase": "filter", "match": {"symptom": "t.blame_many"},
         "if": {"symptom": "t.blame*", "same": ["rank"], "count_distinct": "field:reported_by_node", "at_least": 1},
         "set_fields": {"reporters1": "yes"}}
      ]})json");
    const fs::path b = root / "bundle";
    writeFile(b / "workload.json", kManifest);
    writeFile(b / "applog-node-0001-rank0.log", "[rank0]: BLAME rank 2\n[rank0]: BLAME rank 1\n");
    writeFile(b / "applog-node-0002-rank1.log", "[rank1]: BLAME rank 2\n[rank1]: BLAME rank 7\n");
    writeFile(b / "applog-node-0003-rank2.log", "[rank2]: BLAME rank 1\n");
    Analysis a = run(b, root / "rules");
    int onRank2 = 0, onRank1 = 0, unmoved = 0;
    for (const auto& e : a.result.events) {
        if (e.symptom.str().rfind("t.blame", 0) != 0)
            continue;
        if (e.fields.count("r") && e.fields.at("r") == "7") {
            ++unmoved; // rank 7 is not in the manifest: the event stays where it was printed
            QCOMPARE(QString::fromStdString(e.node), QStringLiteral("node-0002"));
            QCOMPARE(e.rank, 1);
            QVERIFY(!e.fields.count("reported_by_node"));
            continue;
        }
        if (e.rank == 2) {
            ++onRank2;
            QCOMPARE(QString::fromStdString(e.node), QStringLiteral("node-0003"));
            QCOMPARE(QString::fromStdString(e.symptom), QStringLiteral("t.blame_many"));
        } else if (e.rank == 1) {
            ++onRank1;
            QCOMPARE(QString::fromStdString(e.node), QStringLiteral("node-0002"));
            // rank 1 is blamed by node-0001 and node-0003: two distinct reporters too
            QCOMPARE(QString::fromStdString(e.symptom), QStringLiteral("t.blame_many"));
        }
    }
    QCOMPARE(onRank2, 2);
    QCOMPARE(onRank1, 2);
    QCOMPARE(unmoved, 1);
    // count_distinct counts the other events: a moved event sees one other
    // reporter; only the unmoved event on rank 1 sees both node-0001 and node-0003.
    int seenTwo = 0, seenOne = 0;
    for (const auto& e : a.result.events) {
        if (e.fields.count("reporters")) {
            ++seenTwo;
            QVERIFY(!e.fields.count("reported_by_node"));
        }
        seenOne += e.fields.count("reporters1") ? 1 : 0;
    }
    QCOMPARE(seenTwo, 1);
    QCOMPARE(seenOne, 5);
}


// '_' field names were the engine's notes and node/rank/gpu/pci are the
// event's place: a rule writing them is refused at load, naming file and line.
void TestRulesLanguage::reservedFieldNamesAreRefused()
{
    const std::string report = R"({"rules": [{"id": "r", "phase": "report", "match": {"symptom": "a"}, )";
    const std::string filter = R"({"rules": [{"id": "r", "phase": "filter", "match": {"symptom": "a"}, )";
    const std::string extract = R"({"rules": [{"id": "r", "phase": "extract", "literal": "x", )";
    const std::vector<std::string> refused = {
        report + R"("set_fields": {"_max_evidence": "x"}}]})",
        report + R"("set_fields": {"_file": "0"}}]})",
        report + R"("set_fields": {"node": "node-0001"}}]})",
        report + R"("decode": {"field": "x", "into": "_y"}}]})",
        filter + R"("copy_fields": {"from": {"symptom": "b"}, "fields": {"rank": "{r}"}}}]})",
        filter + R"("absent_ranks": {"group_by": "field:seq", "symptom": "s", "fields": {"_absent_file": "0"}}}]})",
        report + R"("if": {"symptom": "b", "fields": {"_file": "1"}}, "suppress": "x"}]})",
        extract + R"J("pattern": "x(?P<_file>\\d+)", "emit": {"symptom": "s"}}]})J",
        extract + R"("pattern": "x", "emit": {"symptom": "s", "fields": {"gpu": "1"}}}]})",
        // keys that read a reserved field: they would match nothing on every event and lump all together
        filter + R"("absent_ranks": {"group_by": ["field:seq", "field:_file"], "symptom": "s"}}]})",
        report + R"("if": {"symptom": "b", "same": ["field:_file"]}, "suppress": "x"}]})",
        report + R"("if": {"symptom": "b", "join": {"field:_absent_file": "node"}}, "suppress": "x"}]})",
        report + R"("if": {"symptom": "b", "count_distinct": "field:_max_evidence"}, "suppress": "x"}]})",
    };
    for (const auto& text : refused) {
        const std::string e = ruleError(text);
        QVERIFY2(e.find("test.jsonc:1:") == 0, (text + " -> " + e).c_str());
        QVERIFY2(e.find("reserved for the engine") != std::string::npos || e.find("the event's place") != std::string::npos,
                 (text + " -> " + e).c_str());
    }
    // Reading or capturing a place name is fine: a "pci" capture places a kernel line.
    QCOMPARE(ruleError(R"({"rules": [{"id": "r", "phase": "filter", "match": {"symptom": "a", "fields": {"pci": "0000:*"}},)"
                       R"( "suppress": "x"}]})"),
             std::string());
    QCOMPARE(ruleError(extract + R"J("pattern": "x (?P<pci>[0-9a-f:.]+)", "emit": {"symptom": "s"}}]})J"), std::string());
}

// Before, "_file", "_absent_file" and "_max_evidence" travelled in `fields`: a
// rule setting "_max_evidence" to a word failed the whole analysis with
// std::stoi's "invalid_argument". Now such a rule is a rule error naming its
// file, and the engine's notes are typed members that no field shadows.
void TestRulesLanguage::engineNotesStayOutOfFields()
{
    QTemporaryDir tmp;
    const fs::path b = fs::path(tmp.path().toStdString()) / "bundle";
    writeFile(b / "workload.json", kManifest);
    writeFile(b / "applog-node-0001-rank0.log",
              "node-0001:100:102 [0] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.9.0.2<555> "
              "with error 12, opcode 0, len 0, vendor err 129 (Recv)\n");
    // No host on the lines, none in the name: its events have no node.
    writeFile(b / "dmesg.txt", "[ 5123.456789] NVRM: Xid (PCI:0000:91:00): 79, pid=1234, name=python, GPU has fallen off the bus.\n");
    const fs::path extra = fs::path(tmp.path().toStdString()) / "extra";
    writeFile(extra / "cap.jsonc", R"({"rules": [
  {"id": "t.cap", "phase": "report", "match": {"symptom": "*"}, "set_fields": {"_max_evidence": "x"}}]})");
    AnalyzeOptions o;
    o.userConfigRules = false;
    o.shippedRulesDir = kSource + "/rules";
    o.ruleDirs = {extra.string()};
    try {
        analyze(b.string(), o);
        QFAIL("a rule writing '_max_evidence' was accepted");
    } catch (const RuleError& e) {
        QVERIFY2(std::string(e.what()).find("cap.jsonc:2:") != std::string::npos, e.what());
    }

    Analysis a = run(b, kSource + "/rules");
    bool nodeless = false;
    for (const auto& e : a.result.events) {
        nodeless = nodeless || e.node.empty();
        for (const auto& [k, v] : e.fields)
            QVERIFY2(k.empty() || k[0] != '_', (e.symptom.str() + " has field " + k).c_str());
    }
    QVERIFY(nodeless);
}

// A dmesg without a boot time has only boot-relative seconds: the trace's
// "chose" step must say boot+Ns like every other text, not a 1970 date.
void TestRulesLanguage::choseStepWritesTheTimeInItsBasis()
{
    QTemporaryDir dir;
    const fs::path b = fs::path(dir.path().toStdString()) / "bundle";
    writeFile(b / "dmesg-node-0001.log",
              "[6781741.548779] NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off "
              "the bus.\n");
    Analysis a = run(b, kSource + "/rules");
    QVERIFY(a.result.rootCause);
    QVERIFY(a.result.rootCause->time.basis == TimeBasis::BootRelative);
    const TraceStep* chose = nullptr;
    for (const auto& step : a.trace)
        if (step.action == TraceAction::Chose)
            chose = &step;
    QVERIFY(chose);
    QVERIFY2(chose->detail.find("at boot+6781741.548779s") != std::string::npos, chose->detail.c_str());
    QVERIFY2(chose->detail.find("1970") == std::string::npos, chose->detail.c_str());
}

QTEST_GUILESS_MAIN(TestRulesLanguage)
#include "test_rules_language.moc"
