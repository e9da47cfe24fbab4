// The cascade logic of a collective timeout: silence as evidence (absent_ranks),
// the rank whose last enqueued work id is behind (numeric greater/less),
// Xid 154's recovery action carried onto the Xid it accompanies (copy_fields),
// and the small extractors (NVLS, Slurm drain reasons). Each is run through the
// shipped rules on a bundle written here, so a rule or engine change that
// breaks it fails.
#include "engine/engine.h"
#include "testutil.h"
#include "rules/ruleset.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace fl;
namespace fs = std::filesystem;
using fltest::writeFile;
using fltest::kSource;

namespace {

// 8 ranks, 2 per node on node-0001 .. node-0004.
std::string manifest()
{
    std::string ranks;
    for (int r = 0; r < 8; ++r)
        ranks += std::string(r ? ", " : "") + "\"" + std::to_string(r) + "\": {\"node\": \"node-000" +
                 std::to_string(r / 2 + 1) + "\", \"gpu\": " + std::to_string(r % 2) + "}";
    return R"({"workload_id": "w1", "attempt": 1, "scheduler": "slurm",
  "nodes": ["node-0001", "node-0002", "node-0003", "node-0004"],
  "window": {"start": "2026-03-14T10:00:00Z", "end": "2026-03-14T11:00:00Z"},
  "failure": {"detected_at": "2026-03-14T10:24:00Z", "detection_signal": "job_exit"},
  "ranks": {)" + ranks + "}}";
}

std::string node(int r) { return "node-000" + std::to_string(r / 2 + 1); }

std::string initLine(int r)
{
    return node(r) + ":100:10" + std::to_string(r) + " [" + std::to_string(r % 2) +
           "] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB eth0:10.9.0." + std::to_string(r + 1) + "<0>\n";
}

std::string timeoutLines(int r, int seq, int enqueued)
{
    const std::string tag = "[rank" + std::to_string(r) + "]:[E314 10:23:0" + std::to_string(r % 10) + ".000000000 ";
    return tag + "ProcessGroupNCCL.cpp:616] [Rank " + std::to_string(r) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=" + std::to_string(seq) +
           ", OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600100 milliseconds before timing out.\n" +
           tag + "ProcessGroupNCCL.cpp:1834] [PG 0 (default_pg) Rank " + std::to_string(r) + "] Timeout at NCCL work: " +
           std::to_string(seq) + ", last enqueued NCCL work: " + std::to_string(enqueued) +
           ", last completed NCCL work: " + std::to_string(seq - 1) + ".\n";
}

// Every rank logs its NCCL init; `reporting` ranks then time out on SeqNum 42.
void writeJob(const fs::path& b, const std::set<int>& silent)
{
    writeFile(b / "workload.json", manifest());
    for (int r = 0; r < 8; ++r)
        writeFile(b / ("applog-" + node(r) + "-rank" + std::to_string(r) + ".log"),
                  initLine(r) + (silent.count(r) ? std::string() : timeoutLines(r, 42, 42)));
}

Analysis run(const fs::path& bundle)
{
    AnalyzeOptions o;
    o.userConfigRules = false;
    o.shippedRulesDir = kSource + "/rules";
    return analyze(bundle.string(), o);
}

std::vector<const SymptomEvent*> all(const Result& r, const std::string& symptom)
{
    std::vector<const SymptomEvent*> out;
    for (const auto& e : r.events)
        if (e.symptom == symptom && !e.suppressed)
            out.push_back(&e);
    return out;
}

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

} // namespace

class TestCascadeRules : public QObject {
    Q_OBJECT
private slots:
    void parser();
    void silentRankNamesItsNode();
    void silentRanksOnTwoNodesAreAmbiguous();
    void silenceNeedsMostRanksAndALog();
    void silenceExplainedByTheNodesOwnError();
    void twoAbsencesKeepTheirOwnEvidence();
    void lowestEnqueuedRankIsTheStraggler();
    void xid154ActionOverridesTheXidsAdvice();
    void nvlsAndDrainReasons();
};

void TestCascadeRules::parser()
{
    const std::string head = R"({"rules": [{"id": "r", "phase": "refine.early", "match": {"symptom": "a"}, )";
    QCOMPARE(ruleError(head + R"("absent_ranks": {"group_by": "field:seq", "min_share": 0.5, "symptom": "x"}}]})"),
             std::string());
    QCOMPARE(ruleError(head + R"("if": {"symptom": "a", "greater": ["field:n"], "less": ["rank"]}, "suppress": "x"}]})"),
             std::string());
    QCOMPARE(ruleError(head + R"("copy_fields": {"from": {"symptom": "b", "same": ["node"]}, "fields": {"k": "{v}"}}}]})"),
             std::string());
    std::string e = ruleError(head + R"("absent_ranks": {"group_by": "field:seq", "symptom": "x"}, "suppress": "y"}]})");
    QVERIFY2(e.find("takes no other action") != std::string::npos, e.c_str());
    e = ruleError(head + R"("absent_ranks": {"group_by": "field:seq", "symptom": "x", "min_share": 2}}]})");
    QVERIFY2(e.find("'min_share'") != std::string::npos, e.c_str());
    e = ruleError(head + R"("absent_ranks": {"symptom": "x"}}]})");
    QVERIFY2(e.find("needs 'group_by'") != std::string::npos, e.c_str());
    e = ruleError(head + R"("if": {"symptom": "a", "greater": ["size"]}, "suppress": "x"}]})");
    QVERIFY2(e.find("'greater' accepts node, gpu, rank, pci or field:<name>, not 'size'") != std::string::npos, e.c_str());
    e = ruleError(head + R"("if": {"symptom": "a", "less": ["field:"]}, "suppress": "x"}]})");
    QVERIFY2(e.find("'less' accepts") != std::string::npos, e.c_str());
    e = ruleError(head + R"("copy_fields": {"from": {"symptom": "b"}}}]})");
    QVERIFY2(e.find("'copy_fields' must be") != std::string::npos, e.c_str());
    e = ruleError(R"({"rules": [{"id": "r", "phase": "report", "match": {"symptom": "a"}, "absent_ranks": {"group_by": "rank", "symptom": "x"}}]})");
    QVERIFY2(e.find("need a filter or refine phase") != std::string::npos, e.c_str());
}

// Rank 5 prints its init and then nothing; the other seven time out on SeqNum 42.
void TestCascadeRules::silentRankNamesItsNode()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeJob(b, {5});
    Analysis a = run(b);
    const Result& r = a.result;
    auto silent = all(r, "host.silent_rank");
    QCOMPARE(silent.size(), size_t(1));
    QCOMPARE(QString::fromStdString(silent[0]->node), QStringLiteral("node-0003"));
    QCOMPARE(silent[0]->rank, 5);
    QCOMPARE(QString::fromStdString(silent[0]->fields.at("seq")), QStringLiteral("42"));
    QCOMPARE(QString::fromStdString(silent[0]->fields.at("reporting")), QStringLiteral("7"));
    QCOMPARE(QString::fromUtf8(toString(r.status).data()), QStringLiteral("attributed"));
    QVERIFY(r.rootCause);
    QCOMPARE(QString::fromStdString(r.rootCause->node), QStringLiteral("node-0003"));
    QVERIFY(r.domain == Domain::Host);
    // The evidence is the last line rank 5 logged, saying what was absent.
    QCOMPARE(r.rootCause->evidence.size(), size_t(1));
    const EvidenceItem* item = nullptr;
    for (const auto& ev : r.evidence)
        if (ev.id == r.rootCause->evidence[0])
            item = &ev;
    QVERIFY(item);
    QVERIFY2(item->file.find("rank5") != std::string::npos, item->file.c_str());
    QVERIFY2(item->excerpt.rfind("absent: rank 5 on node-0003 reported nothing for seq=42", 0) == 0, item->excerpt.c_str());
    QVERIFY2(item->excerpt.find("NET/IB : Using") != std::string::npos, item->excerpt.c_str());
}

void TestCascadeRules::silentRanksOnTwoNodesAreAmbiguous()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeJob(b, {1, 6});
    Analysis a = run(b);
    QCOMPARE(all(a.result, "host.silent_rank").size(), size_t(2));
    QCOMPARE(QString::fromUtf8(toString(a.result.status).data()), QStringLiteral("ambiguous"));

    // Both ranks of one node silent: one event for the node, no single rank.
    QTemporaryDir tmp2;
    const fs::path b2 = tmp2.path().toStdString();
    writeJob(b2, {6, 7});
    Analysis a2 = run(b2);
    auto silent = all(a2.result, "host.silent_rank");
    QCOMPARE(silent.size(), size_t(1));
    QCOMPARE(silent[0]->rank, -1);
    QCOMPARE(QString::fromStdString(silent[0]->fields.at("silent_ranks")), QStringLiteral("6,7"));
    QCOMPARE(QString::fromUtf8(toString(a2.result.status).data()), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a2.result.rootCause->node), QStringLiteral("node-0004"));
}

void TestCascadeRules::silenceNeedsMostRanksAndALog()
{
    // Three of eight silent: 5/8 reporting is below the 3/4 share: no accusation.
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeJob(b, {0, 3, 6});
    Analysis a = run(b);
    QVERIFY(all(a.result, "host.silent_rank").empty());
    QCOMPARE(QString::fromUtf8(toString(a.result.status).data()), QStringLiteral("unattributed"));

    // A rank with no log in the bundle may just not have been collected.
    QTemporaryDir tmp2;
    const fs::path b2 = tmp2.path().toStdString();
    writeJob(b2, {5});
    fs::remove(b2 / "applog-node-0003-rank5.log");
    Analysis a2 = run(b2);
    QVERIFY(all(a2.result, "host.silent_rank").empty());

    // Without the manifest's rank list there is nothing to be absent from.
    QTemporaryDir tmp3;
    const fs::path b3 = tmp3.path().toStdString();
    writeJob(b3, {5});
    fs::remove(b3 / "workload.json");
    QVERIFY(all(run(b3).result, "host.silent_rank").empty());
}

// Ranks 1 and 6 (two nodes) log only a line no rule reads, the others time
// out on SeqNum 42: two absences, each shown by its own rank's log file. The
// report keys such items apart from the observations (an absence, not a
// computed ObservationId), so neither takes another's evidence id nor a line's.
void TestCascadeRules::twoAbsencesKeepTheirOwnEvidence()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeFile(b / "workload.json", manifest());
    const std::set<int> silent{1, 6};
    for (int r = 0; r < 8; ++r)
        writeFile(b / ("applog-" + node(r) + "-rank" + std::to_string(r) + ".log"),
                  silent.count(r) ? std::string("starting training\n") : timeoutLines(r, 42, 42));
    Analysis a = run(b);
    const Result& r = a.result;

    std::vector<const SymptomEvent*> absences;
    for (const auto& e : r.events)
        if (e.symptom == "host.silent_rank" && !e.suppressed)
            absences.push_back(&e);
    QCOMPARE(absences.size(), size_t(2));
    for (const SymptomEvent* e : absences) {
        QVERIFY(e->observations.empty()); // the case under test: no line of the rank to show
        QVERIFY(e->absentFile);
    }

    std::map<EvidenceId, const EvidenceItem*> byId;
    for (const auto& item : r.evidence)
        QVERIFY2(byId.emplace(item.id, &item).second, toString(item.id).c_str()); // every id once
    std::set<EvidenceId> absenceIds;
    for (const SymptomEvent* e : absences) {
        const Candidate* cand = nullptr;
        for (const auto& c : r.candidates)
            if (c.event == e->id)
                cand = &c;
        QVERIFY(cand);
        QCOMPARE(cand->evidence.size(), size_t(1));
        const EvidenceItem* item = byId.at(cand->evidence[0]);
        QCOMPARE(item->event, e->id);
        QVERIFY2(item->excerpt.rfind("absent: rank " + std::to_string(e->rank) + " on " + e->node, 0) == 0,
                 item->excerpt.c_str());
        QVERIFY2(item->file.find("rank" + std::to_string(e->rank)) != std::string::npos, item->file.c_str());
        absenceIds.insert(item->id);
    }
    QCOMPARE(absenceIds.size(), size_t(2));
    // The lines of the reporting ranks are items of their own, none of them an absence.
    size_t lines = 0;
    for (const auto& item : r.evidence)
        if (!absenceIds.count(item.id)) {
            ++lines;
            QVERIFY2(item.excerpt.rfind("absent:", 0) != 0, item.excerpt.c_str());
        }
    QVERIFY(lines >= 6);
}

// Rank 2 is absent from the timeouts because it printed its own CUDA error:
// that error is the cause, the silence only its consequence.
void TestCascadeRules::silenceExplainedByTheNodesOwnError()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeJob(b, {2});
    writeFile(b / "applog-node-0002-rank2.log",
              initLine(2) + "[rank2]:[E314 10:12:00.000000000 ProcessGroupNCCL.cpp:1595] [PG 0 Rank 2] Process group "
                            "watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered\n");
    Analysis a = run(b);
    const Result& r = a.result;
    QCOMPARE(QString::fromUtf8(toString(r.status).data()), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(r.rootCause->symptom), QStringLiteral("gpu.cuda_ecc"));
    auto silent = all(r, "host.silent_rank");
    QCOMPARE(silent.size(), size_t(1));
    QVERIFY(silent[0]->roleOverride);
    QVERIFY(*silent[0]->roleOverride == SymptomRole::Symptom);
}

// Every rank reports status for SeqNum 42; rank 3 last enqueued 41 (it never
// reached the collective), the others 42 or 43.
void TestCascadeRules::lowestEnqueuedRankIsTheStraggler()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeFile(b / "workload.json", manifest());
    for (int r = 0; r < 8; ++r)
        writeFile(b / ("applog-" + node(r) + "-rank" + std::to_string(r) + ".log"),
                  initLine(r) + timeoutLines(r, r == 3 ? 41 : 42, r == 3 ? 41 : (r % 2 ? 43 : 42)));
    Analysis a = run(b);
    const Result& r = a.result;
    auto straggler = all(r, "workload.straggler_rank");
    QCOMPARE(straggler.size(), size_t(1));
    QCOMPARE(straggler[0]->rank, 3);
    QCOMPARE(QString::fromStdString(straggler[0]->fields.at("enqueued")), QStringLiteral("41"));
    QCOMPARE(QString::fromUtf8(toString(r.status).data()), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(r.rootCause->node), QStringLiteral("node-0002"));
    QCOMPARE(r.rootCause->rank, 3);
    // Its absence from SeqNum 42 is explained by its being behind.
    for (const auto* s : all(r, "host.silent_rank")) {
        QVERIFY(s->roleOverride);
        QVERIFY(*s->roleOverride == SymptomRole::Symptom);
    }

    // All ranks enqueued the same work: nobody is behind.
    QTemporaryDir tmp2;
    const fs::path b2 = tmp2.path().toStdString();
    writeJob(b2, {});
    QVERIFY(all(run(b2).result, "workload.straggler_rank").empty());
}

void TestCascadeRules::xid154ActionOverridesTheXidsAdvice()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeFile(b / "workload.json", manifest());
    writeFile(b / "syslog-node-0002.log",
              "2026-03-14T10:12:00+00:00 node-0002 kernel: NVRM: Xid (PCI:0000:1b:00): 48, pid=1234, name=python, "
              "An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 0.\n"
              "2026-03-14T10:12:00+00:00 node-0002 kernel: NVRM: Xid (PCI:0000:1b:00): 154, GPU recovery action "
              "changed from 0x0 (None) to 0x2 (Node Reboot Required)\n");
    Analysis a = run(b);
    const Result& r = a.result;
    QCOMPARE(QString::fromUtf8(toString(r.status).data()), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(r.rootCause->symptom), QStringLiteral("gpu.xid.48"));
    const SymptomEvent& root = r.events[r.rootCause->event.value];
    QCOMPARE(QString::fromStdString(root.fields.at("recovery_action")), QStringLiteral("Node Reboot Required"));
    QVERIFY2(r.rootCause->advice.rfind("The driver requires: Node Reboot Required (Xid 154, changed from None)", 0) == 0,
             r.rootCause->advice.c_str());
    QVERIFY2(r.rootCause->advice.find("Catalogue: Drain the node") != std::string::npos, r.rootCause->advice.c_str());
    auto x154 = all(r, "gpu.xid.154");
    QCOMPARE(x154.size(), size_t(1));
    QCOMPARE(QString::fromStdString(x154[0]->fields.at("action_from")), QStringLiteral("None"));

    // A 154 on another GPU says nothing about this Xid.
    QTemporaryDir tmp2;
    const fs::path b2 = tmp2.path().toStdString();
    writeFile(b2 / "workload.json", manifest());
    writeFile(b2 / "syslog-node-0002.log",
              "2026-03-14T10:12:00+00:00 node-0002 kernel: NVRM: Xid (PCI:0000:1b:00): 48, pid=1234, name=python, "
              "An uncorrectable double bit error (DBE) has been detected.\n"
              "2026-03-14T10:12:00+00:00 node-0002 kernel: NVRM: Xid (PCI:0000:9a:00): 154, GPU recovery action "
              "changed from 0x0 (None) to 0x1 (GPU Reset Required)\n");
    Analysis a2 = run(b2);
    QVERIFY(!a2.result.events[a2.result.rootCause->event.value].fields.count("recovery_action"));
    QVERIFY(a2.result.rootCause->advice.rfind("Drain the node", 0) == 0);
}

void TestCascadeRules::nvlsAndDrainReasons()
{
    QTemporaryDir tmp;
    const fs::path b = tmp.path().toStdString();
    writeFile(b / "workload.json", manifest());
    writeFile(b / "applog-node-0001-rank0.log",
              "2026-03-14T10:05:00Z node-0001:100:100 [0] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'\n");
    writeFile(b / "fabricmanager-node-0004.log",
              "[Mar 14 2026 10:06:00] [ERROR] [tid 1230079] failed to find the GPU handle 5410063385821516767 in the "
              "multicast team request setup 6130285411925746235.\n");
    writeFile(b / "slurmctld.log",
              "[2026-03-14T10:30:00.000] update_node: node node-0003 reason set to: [HC] Xid 79 on GPU 3\n"
              "[2026-03-14T10:30:01.000] update_node: node node-0003 state set to DRAINING\n");
    Analysis a = run(b);
    const Result& r = a.result;
    auto nvls = all(r, "nvlink.nvls_failure");
    QCOMPARE(nvls.size(), size_t(2));
    QCOMPARE(QString::fromStdString(nvls[0]->node), QStringLiteral("node-0001"));
    QVERIFY(nvls[0]->fields.at("what").rfind("Cuda failure 1 'invalid argument'", 0) == 0);
    QCOMPARE(QString::fromStdString(nvls[1]->node), QStringLiteral("node-0004"));
    QVERIFY(all(r, "nvlink.fm.error").empty()); // the multicast line is not a generic FM error too
    QCOMPARE(QString::fromStdString(r.rootCause->node), QStringLiteral("node-0001"));
    QVERIFY(r.domain == Domain::Nvlink);

    auto drain = all(r, "scheduler.node_drain");
    QCOMPARE(drain.size(), size_t(1));
    QCOMPARE(QString::fromStdString(drain[0]->node), QStringLiteral("node-0003"));
    QCOMPARE(QString::fromStdString(drain[0]->fields.at("reason")), QStringLiteral("[HC] Xid 79 on GPU 3"));
    QVERIFY(drain[0]->kind == EventKind::InterestingNode);
}

QTEST_GUILESS_MAIN(TestCascadeRules)
#include "test_cascade_rules.moc"
