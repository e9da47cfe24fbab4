// When the hang began: symptoms that say how long they waited put the onset
// before them, and a fault that began clearly after it is not their cause
// (issue #43; engine/onset.cpp, docs/rules.md "Waiting symptoms").
#include "engine/engine.h"
#include "engine/result_json.h"
#include "present/verdict.h"
#include "rules/ruleset.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <filesystem>

using namespace fl;
namespace fs = std::filesystem;
using fltest::candidateFor;
using fltest::shippedOnly;
using fltest::statusOf;
using fltest::writeFile;

namespace {

constexpr int64_t kSec = 1'000'000'000;
constexpr int64_t kMs = 1'000'000;

// The issue's bundle: three nodes of two ranks; every rank enqueued SeqNum
// 4120 at 10:00:41.000 and its watchdog fires 600 s later; one GPU of gpu-r03
// logs Xid 79 (or `xidText`) at `xidAt`.
fs::path issueBundle(const QTemporaryDir& tmp, const std::string& xidAt,
                     const std::string& xidText = "79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.")
{
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"workload_id": "onset-demo", "attempt": 1, "scheduler": "slurm",
 "nodes": ["gpu-r01", "gpu-r02", "gpu-r03"],
 "ranks": {"0": {"node": "gpu-r01", "gpu": 0}, "1": {"node": "gpu-r01", "gpu": 1},
           "2": {"node": "gpu-r02", "gpu": 0}, "3": {"node": "gpu-r02", "gpu": 1},
           "4": {"node": "gpu-r03", "gpu": 0}, "5": {"node": "gpu-r03", "gpu": 1}},
 "window": {"start": "2026-03-14T09:55:00Z", "end": "2026-03-14T10:15:00Z"},
 "failure": {"detected_at": "2026-03-14T10:10:50Z", "detection_signal": "job_exit"}})");
    for (int r = 0; r < 6; ++r) {
        const std::string node = "gpu-r0" + std::to_string(r / 2 + 1), rk = std::to_string(r);
        const std::string work = "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4120, OpType=ALLREDUCE, "
                                 "NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 6000" + rk +
                                 "0 milliseconds before timing out.";
        writeFile(dir / ("applog-" + node + "-rank" + rk + ".log"),
                  "[rank" + rk + "]:[I314 09:58:02.100000 ProcessGroupNCCL.cpp:852] [PG 0 Rank " + rk +
                      "] ProcessGroupNCCL initialization options: size: 6, global rank: " + rk + ", TIMEOUT(ms): 600000\n"
                      "[rank" + rk + "]:[E314 10:10:41.0" + rk + "0000 ProcessGroupNCCL.cpp:607] [Rank " + rk + "] " + work +
                      "\n[rank" + rk + "]:[E314 10:10:41.1" + rk + "0000 ProcessGroupNCCL.cpp:1595] [PG 0 Rank " + rk +
                      "] Process group watchdog thread terminated with exception: [Rank " + rk + "] " + work + "\n");
    }
    for (const char* n : {"gpu-r01", "gpu-r02"})
        writeFile(dir / ("syslog-" + std::string(n) + ".log"),
                  "Mar 14 09:57:01 " + std::string(n) + " systemd[1]: Started Session 12 of user train.\n");
    writeFile(dir / "syslog-gpu-r03.log",
              "Mar 14 09:57:01 gpu-r03 systemd[1]: Started Session 12 of user train.\n"
              "Mar 14 " + xidAt + " gpu-r03 kernel: [2001.112233] NVRM: Xid (PCI:0000:19:00): " + xidText + "\n"
              "Mar 14 10:10:45 gpu-r03 kernel: [2295.771202] python3[41004]: exited with status 250\n");
    return dir;
}

int64_t utc(const char* iso)
{
    // 2026-03-14 is 20526 days after the epoch.
    int h = 0, m = 0, s = 0;
    std::sscanf(iso, "%d:%d:%d", &h, &m, &s);
    return (int64_t(20526) * 86400 + h * 3600 + m * 60 + s) * kSec;
}

const SymptomEvent* eventOf(const Result& r, const std::string& symptom)
{
    for (const auto& e : r.events)
        if (e.symptom == symptom)
            return &e;
    return nullptr;
}

// The symptoms `symptom` is drawn as the cause of ("" when none), for the failure message.
std::string linkedFrom(const Result& r, const std::string& symptom)
{
    std::string to;
    for (const auto& e : r.edges)
        if (r.events[e.from.value].symptom == symptom)
            to += r.events[e.to.value].symptom.str() + "@" + std::string(r.events[e.to.value].node) + " ";
    return to;
}

std::string ruleError(const std::string& text)
{
    RuleSet rs;
    try {
        rs.loadText(text, "waits.jsonc");
    } catch (const RuleError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestOnset : public QObject {
    Q_OBJECT
private slots:
    void aWatchdogsRanForDatesItsOnset();
    void aFaultMinutesIntoTheHangIsNotItsCause();
    void aFaultBeforeTheHangIsItsCause();
    void aRenamedFaultIsDatedByItsLine();
    void aFaultWithinTheSlackStaysACandidate();
    void aLowerBoundLeavesTheOnsetOpenBefore();
    void theOnsetSurvivesTheResultDocument();
    void waitedIsCheckedWhenRulesLoad();
    void anRcuStallReadsItsWaitFromALaterLine();
    void aConstantWaitNeedsNoField();
    void continuedAndConstantWaitsAreCheckedWhenRulesLoad();
    void ncclRasTimeoutsSayHowLongThePeerWasSilent();
};

void TestOnset::aWatchdogsRanForDatesItsOnset()
{
    QTemporaryDir tmp;
    Analysis a = analyze(issueBundle(tmp, "10:06:11").string(), shippedOnly());
    const SymptomEvent* w = eventOf(a.result, "nccl.watchdog_timeout");
    QVERIFY(w && w->waited);
    // "ran for 600000 milliseconds" (rank 0): [600000, 600001) ms.
    QCOMPARE(w->waited->minNs, 600'000 * kMs);
    QCOMPARE(w->waited->maxNs, 600'001 * kMs - 1);
    QVERIFY(a.result.onset);
    QCOMPARE(a.result.onset->estimateNs, utc("10:00:41"));
    QCOMPARE(a.result.onset->nodes, (std::vector<std::string>{"gpu-r01", "gpu-r02", "gpu-r03"}));
    QVERIFY(a.result.onset->waits >= 6);
    // Everyone was waiting from the last onset to the first fire.
    QVERIFY(a.result.onset->allWaiting.earliestNs < a.result.onset->allWaiting.latestNs);
    QVERIFY(a.result.onset->began.latestNs < utc("10:00:41") + 2 * kSec);
}

void TestOnset::aFaultMinutesIntoTheHangIsNotItsCause()
{
    QTemporaryDir tmp;
    Analysis a = analyze(issueBundle(tmp, "10:06:11").string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("unattributed"));
    QVERIFY(!a.result.rootCause);
    // The Xid stays in the evidence, as what it is: later than the hang.
    const Candidate* x = candidateFor(a.result, "gpu.xid.79");
    QVERIFY(x);
    QCOMPARE(QString::fromUtf8(toString(x->outcome.reason).data()), QStringLiteral("after_onset"));
    QVERIFY(x->outcome.deltaNs > 300 * kSec && x->outcome.deltaNs < 340 * kSec);
    const std::string verdict = present::candidateVerdict(*x, a.result);
    QVERIFY2(verdict.find("after the hang did") != std::string::npos &&
                 verdict.find("a later consequence or an independent fault") != std::string::npos,
             verdict.c_str());
    // ... and it is not drawn as the cause of timeouts that began before it.
    QVERIFY2(linkedFrom(a.result, "gpu.xid.79").empty(), linkedFrom(a.result, "gpu.xid.79").c_str());
    QVERIFY2(a.result.summary.find("the hang began at ~2026-03-14 10:00:41 UTC; no event before it explains it") !=
                 std::string::npos,
             a.result.summary.c_str());
    // What would explain it: evidence from that moment, on which nodes, from which sources.
    QVERIFY(!a.result.missing.empty());
    QVERIFY2(a.result.missing[0].find("before ~2026-03-14 10:00:41 UTC") != std::string::npos,
             a.result.missing[0].c_str());
    bool sources = false;
    for (const auto& m : a.result.missing)
        sources = sources || (m.find("gpu-r01, gpu-r02, gpu-r03") != std::string::npos &&
                              m.find("kernel logs") != std::string::npos);
    QVERIFY(sources);
}

// Xid 149 is renamed nvlink.fatal by a rule; its line is still the fault's own, so it is dated by that line and
// set aside like any late fault (only a cause re-read from a symptom's report, the straggler, is not).
void TestOnset::aRenamedFaultIsDatedByItsLine()
{
    QTemporaryDir tmp;
    Analysis a = analyze(issueBundle(tmp, "10:06:11",
                                     "149, NETIR_MFDE_EVENT Fatal XC0 i0 Link -1 (0x00000246 0x00000001 0x00000000 "
                                     "0x00000000 0x00000000 0x00000000)").string(),
                         shippedOnly());
    const Candidate* x = candidateFor(a.result, "nvlink.fatal");
    QVERIFY(x);
    QCOMPARE(QString::fromUtf8(toString(x->outcome.reason).data()), QStringLiteral("after_onset"));
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("unattributed"));
}

void TestOnset::aFaultBeforeTheHangIsItsCause()
{
    QTemporaryDir tmp;
    Analysis a = analyze(issueBundle(tmp, "10:00:40").string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QVERIFY(a.result.rootCause);
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-r03"));
    QVERIFY(!linkedFrom(a.result, "gpu.xid.79").empty());
}

void TestOnset::aFaultWithinTheSlackStaysACandidate()
{
    // 30 s after the ranks began waiting: a slow peer could still have been on
    // its way to the collective (onset_slack_s 60), so time does not rule it out.
    QTemporaryDir tmp;
    Analysis a = analyze(issueBundle(tmp, "10:01:11").string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.xid.79"));
}

void TestOnset::aLowerBoundLeavesTheOnsetOpenBefore()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-03-14T09:00:00Z"}})");
    writeFile(dir / "syslog-node-01.log",
              "Mar 14 10:05:00 node-01 kernel: [ 8811.120400] INFO: task python:280058 blocked for more than 245 seconds.\n"
              "Mar 14 10:05:00 node-01 kernel: [ 8811.120500] watchdog: BUG: soft lockup - CPU#18 stuck for 27s! "
              "[python3:2254956]\n");
    // Without "ran for" the watchdog waited at least its Timeout(ms).
    writeFile(dir / "applog-node-01-rank0.log",
              "what:  [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE, "
              "Timeout(ms)=1800000)\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    const SymptomEvent* hung = eventOf(a.result, "host.hung_task");
    QVERIFY(hung && hung->waited);
    QCOMPARE(hung->waited->minNs, 245 * kSec);
    QCOMPARE(hung->waited->maxNs, kNoTime);
    const SymptomEvent* lockup = eventOf(a.result, "host.soft_lockup");
    QVERIFY(lockup && lockup->waited);
    QCOMPARE(lockup->waited->minNs, 27 * kSec);
    QCOMPARE(lockup->waited->maxNs, 28 * kSec - 1);
    const SymptomEvent* w = eventOf(a.result, "nccl.watchdog_timeout");
    QVERIFY(w && w->waited);
    QCOMPARE(w->waited->minNs, 1'800'000 * kMs);
    QCOMPARE(w->waited->maxNs, kNoTime);
}

void TestOnset::theOnsetSurvivesTheResultDocument()
{
    QTemporaryDir tmp;
    Analysis a = analyze(issueBundle(tmp, "10:06:11").string(), shippedOnly());
    ResultJsonOptions detail;
    detail.detail = true;
    const nlohmann::json doc = resultToJson(a.result, detail);
    QVERIFY(doc.at("onset").is_object());
    QCOMPARE(QString::fromStdString(doc.at("onset").at("estimate").get<std::string>()),
             QStringLiteral("2026-03-14T10:00:41Z"));
    const Result back = resultFromJson(doc);
    QVERIFY(back.onset);
    QCOMPARE(back.onset->estimateNs, a.result.onset->estimateNs);
    QCOMPARE(back.onset->began, a.result.onset->began);
    QCOMPARE(back.onset->events, a.result.onset->events);
    const SymptomEvent* w = eventOf(back, "nccl.watchdog_timeout");
    QVERIFY(w && w->waited);
    QCOMPARE(*w->waited, *eventOf(a.result, "nccl.watchdog_timeout")->waited);
    const Candidate* x = candidateFor(back, "gpu.xid.79");
    QVERIFY(x && x->outcome.reason == CandidateReason::AfterOnset);
}

void TestOnset::waitedIsCheckedWhenRulesLoad()
{
    auto rule = [](const std::string& waited) {
        return R"({"rules": [{"id": "t.extract.wait", "phase": "extract", "pattern": "stuck for (?P<seconds>\\d+)s",
                   "emit": {"symptom": "t.stuck", "waited": )" + waited + "}}]}";
    };
    QCOMPARE(QString::fromStdString(ruleError(rule(R"({"field": "seconds", "unit": "s"})"))), QString());
    QCOMPARE(QString::fromStdString(ruleError(rule(R"([{"field": "seconds", "unit": "s", "at_least": true}])"))),
             QString());
    const std::string unit = ruleError(rule(R"({"field": "seconds", "unit": "hours"})"));
    QVERIFY2(unit.find("waits.jsonc") != std::string::npos && unit.find("'hours'") != std::string::npos, unit.c_str());
    const std::string field = ruleError(rule(R"({"field": "secs", "unit": "s"})"));
    QVERIFY2(field.find("'secs'") != std::string::npos, field.c_str());
    const std::string key = ruleError(rule(R"({"field": "seconds", "unit": "s", "upto": 3})"));
    QVERIFY2(key.find("upto") != std::string::npos, key.c_str());
}

// The kernel prints an RCU stall's "t=N jiffies" after the per-CPU lines of its report (kernel/rcu/tree_stall.h):
// the rule's `continued` reads it from there, on the same host, up to the next report. HZ is not in the log, so
// N jiffies are at least N ms (HZ <= 1000) and the wait is a lower bound.
void TestOnset::anRcuStallReadsItsWaitFromALaterLine()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-03-14T09:00:00Z"}})");
    writeFile(dir / "syslog-node-01.log",
              "Mar 14 10:05:00 node-01 kernel: rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n"
              "Mar 14 10:05:00 node-01 kernel: rcu: \t3-....: (60001 ticks this GP) idle=3fa/1/0x4000000000000000 "
              "softirq=1093/1093 fqs=14990\n"
              // another host's line in a shared syslog does not end the report, nor is it read
              "Mar 14 10:05:00 node-02 kernel: rcu: \t(detected by 1, t=999 jiffies, g=77, q=3 ncpus=8)\n"
              "Mar 14 10:05:00 node-01 kernel: rcu: \t(detected by 5, t=60002 jiffies, g=2505, q=1247 ncpus=96)\n"
              "Mar 14 10:05:30 node-01 kernel: [ 8811.120400] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
              // a report whose duration never came is not given the next report's
              "Mar 14 10:06:30 node-01 kernel: rcu: INFO: rcu_preempt self-detected stall on CPU\n"
              "Mar 14 10:06:30 node-01 kernel: rcu: \t7-....: (5249 ticks this GP) idle=b5c/1/0x4000000000000002\n"
              "Mar 14 10:06:30 node-01 kernel: \t(t=5250 jiffies g=11601 q=113 ncpus=96)\n");
    // 3.x kernels: one line, no "rcu: ".
    writeFile(dir / "syslog-node-03.log",
              "Mar 14 10:05:00 node-03 kernel: INFO: rcu_sched self-detected stall on CPU { 7}  "
              "(t=60000 jiffies g=1183 c=1182 q=37)\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    std::vector<std::pair<std::string, Wait>> waits;
    std::vector<std::optional<Wait>> node01;
    for (const auto& e : a.result.events)
        if (e.originalSymptom == "host.rcu_stall" && e.node == "node-01")
            node01.push_back(e.waited);
        else if (e.originalSymptom == "host.rcu_stall" && e.node == "node-03" && e.waited)
            waits.emplace_back(e.node, *e.waited);
    QCOMPARE(node01.size(), size_t(3));
    QVERIFY(node01[0] && !node01[1] && node01[2]);
    QCOMPARE(node01[0]->minNs, 60'002 * kMs);
    QCOMPARE(node01[0]->maxNs, kNoTime);
    QCOMPARE(node01[2]->minNs, 5'250 * kMs);
    QCOMPARE(waits.size(), size_t(1));
    QCOMPARE(waits[0].second.minNs, 60'000 * kMs);
    // The report's record reaches the line that held the duration, so a reader sees it.
    bool reaches = false;
    for (const auto& o : a.observations)
        if (o.node == "node-01" && o.ref.line == 1)
            reaches = o.ref.lineCount == 4;
    QVERIFY(reaches);
}

// "nfs: server not responding" says the server stopped answering at some time before the line: a wait of at
// least 0 s, written as a constant, not a field the rule makes up.
void TestOnset::aConstantWaitNeedsNoField()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-03-14T09:00:00Z"}})");
    writeFile(dir / "syslog-node-01.log",
              "Mar 14 10:05:00 node-01 kernel: nfs: server filer01 not responding, still trying\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    const SymptomEvent* nfs = eventOf(a.result, "storage.nfs_not_responding");
    QVERIFY(nfs && nfs->waited);
    QCOMPARE(nfs->waited->minNs, int64_t(0));
    QCOMPARE(nfs->waited->maxNs, kNoTime);
    QVERIFY(nfs->fields.find("unanswered_s") == nfs->fields.end());
}

void TestOnset::continuedAndConstantWaitsAreCheckedWhenRulesLoad()
{
    auto rule = [](const std::string& extra, const std::string& waited) {
        return R"({"rules": [{"id": "t.extract.wait", "phase": "extract", "pattern": "stalled on CPU", )" + extra +
               R"("emit": {"symptom": "t.stuck", "waited": )" + waited + "}}]}";
    };
    const std::string cont = R"x("continued": {"pattern": "t=(?P<j>\\d+) jiffies", "lines": 5,
                                "samples": [{"line": "(t=21 jiffies)", "fields": {"j": "21"}}]}, )x";
    QCOMPARE(QString::fromStdString(ruleError(rule(cont, R"({"field": "j", "unit": "jiffies", "at_least": true})"))),
             QString());
    QCOMPARE(QString::fromStdString(ruleError(rule("", R"({"value": 0, "unit": "s", "at_least": true})"))), QString());
    const std::string hz = ruleError(rule(cont, R"({"field": "j", "unit": "jiffies"})"));
    QVERIFY2(hz.find("at_least") != std::string::npos, hz.c_str());
    const std::string both = ruleError(rule(cont, R"({"field": "j", "value": 0, "unit": "s"})"));
    QVERIFY2(both.find("either") != std::string::npos, both.c_str());
    const std::string unnamed = ruleError(rule(R"x("continued": {"pattern": "t=\\d+", "lines": 5, "samples": ["t=1"]}, )x",
                                               R"({"value": 0, "unit": "s"})"));
    QVERIFY2(unnamed.find("named group") != std::string::npos, unnamed.c_str());
    const std::string sample = ruleError(rule(R"x("continued": {"pattern": "t=(?P<j>\\d+) jiffies", "lines": 5,
                                "samples": [{"line": "(t=21 jiffies)", "fields": {"j": "22"}}]}, )x",
                                              R"({"field": "j", "unit": "jiffies", "at_least": true})"));
    QVERIFY2(sample.find("'continued' sample yields j=") != std::string::npos, sample.c_str());
}

// NCCL's RAS prints how long a peer has been silent ("keep-alive timeout error (35s)", whole seconds cut). A Slurm
// time limit measures the job's run since its start, not since what stalled it: no wait (docs/rules.md).
void TestOnset::ncclRasTimeoutsSayHowLongThePeerWasSilent()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-03-14T09:00:00Z"}})");
    writeFile(dir / "applog-node-01-rank0.log",
              "[2026-03-14 10:05:00] node-01:61722:61722 [0] NCCL INFO Bootstrap : Using eth0:10.10.1.17<0>\n"
              "node-01:61722:61790 [0] NCCL INFO RAS keep-alive timeout error (35s) on socket connection with "
              "10.10.2.30<50123>\n"
              "[2026-03-14 10:05:02] slurmstepd: error: *** JOB 4412871 ON node-01 CANCELLED AT 2026-03-14T10:05:02 "
              "DUE TO TIME LIMIT ***\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    const SymptomEvent* ras = eventOf(a.result, "nccl.ras_peer_timeout");
    QVERIFY(ras && ras->waited);
    QCOMPARE(ras->waited->minNs, 35 * kSec);
    QCOMPARE(ras->waited->maxNs, 36 * kSec - 1);
    bool limit = false;
    for (const auto& e : a.result.events)
        if (e.originalSymptom == "scheduler.cancelled.TIME LIMIT") {
            limit = true;
            QVERIFY(!e.waited);
        }
    QVERIFY(limit);
}

QTEST_GUILESS_MAIN(TestOnset)
#include "test_onset.moc"
