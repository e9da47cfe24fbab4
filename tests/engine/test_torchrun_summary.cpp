// torchrun's failure summary as inferred evidence (issue #8 item 3): the
// block's Root Cause entry (host, rank, exit code / signal on separate lines,
// pytorch torch/distributed/elastic/multiprocessing/errors/__init__.py
// _MSG_FORMAT_TEMPLATE and _FAILURE_FORMAT_TEMPLATE) becomes an inferred cause
// on that rank, citing the block, weighing less than an observed cause; a
// SIGTERM root cause (a teardown) never wins, and an abort in a job whose
// collectives failed is their consequence.
#include "engine/engine.h"
#include "bundle/iso_time.h"
#include "engine/failure_summary.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::writeFile;
using fltest::statusOf;
using fltest::candidateFor;

namespace {

const std::string kBorder = "============================================================\n";
const std::string kSection = "------------------------------------------------------------\n";

// One entry, as _FAILURE_FORMAT_TEMPLATE prints it.
std::string entry(int idx, const std::string& host, int rank, int local, int code, const std::string& message)
{
    return "[" + std::to_string(idx) + "]:\n"
           "  time      : 2026-11-30_12:14:55\n"
           "  host      : " + host + "\n"
           "  rank      : " + std::to_string(rank) + " (local_rank: " + std::to_string(local) + ")\n"
           "  exitcode  : " + std::to_string(code) + " (pid: 8841" + std::to_string(local) + ")\n"
           "  error_file: <N/A>\n"
           "  traceback : " + message + "\n";
}

std::string signalMessage(int sig, const char* name, int local)
{
    return "Signal " + std::to_string(sig) + " (" + name + ") received by PID 8841" + std::to_string(local);
}

// The agent's log: its last stamped line, the traceback torchrun raises, the summary.
std::string agentLog(const std::string& stamp, const std::string& others, const std::string& root)
{
    return "[" + stamp + "] I1130 agent: [default] worker group running\n"
           "Traceback (most recent call last):\n"
           "  File \"/usr/local/bin/torchrun\", line 8, in <module>\n"
           "    sys.exit(main())\n"
           "  File \"/usr/lib/python3/dist-packages/torch/distributed/launcher/api.py\", line 263, in launch_agent\n"
           "    raise ChildFailedError(\n"
           "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n" +
           kBorder + "pretrain_gpt.py FAILED\n" + kSection + "Failures:\n" +
           (others.empty() ? std::string("  <NO_OTHER_FAILURES>\n") : others) + kSection +
           "Root Cause (first observed failure):\n" + root + kBorder;
}



void manifest(const fs::path& dir)
{
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"},
      "ranks": [{"rank": 3, "node": "gpu-a17", "gpu": 3}, {"rank": 11, "node": "gpu-b04", "gpu": 3},
                {"rank": 10, "node": "gpu-b04", "gpu": 2}]})");
}

} // namespace

class TestTorchrunSummary : public QObject {
    Q_OBJECT
private slots:
    void readsTheRootCauseEntryNotTheOtherFailures();
    void readsLabelledAndTruncatedBlocks();
    void aBlockWithoutRootCauseGivesNothing();
    void theRootCauseIsAnInferredCauseOnItsRank();
    void aSigtermRootCauseNeverWinsOverARealFirstFailure();
    void anAbortAfterCollectiveFailuresIsTheirConsequence();
    void anObservedExceptionOnTheRankBeatsTheSummary();
    void theEntrysTimeDatesTheFailure();
    void aFailureTimeInAnotherZoneIsNotTrusted();
};

void TestTorchrunSummary::readsTheRootCauseEntryNotTheOtherFailures()
{
    const std::string block = agentLog("2026-11-30 12:14:50", entry(1, "gpu-b04.cluster.local", 10, 2, -15, signalMessage(15, "SIGTERM", 2)),
                                       entry(0, "gpu-b04.cluster.local", 11, 3, -6, signalMessage(6, "SIGABRT", 3)));
    const auto f = detail::readRootCause(block);
    QCOMPARE(QString::fromStdString(f.at("root_rank")), QStringLiteral("11"));
    QCOMPARE(QString::fromStdString(f.at("root_local_rank")), QStringLiteral("3"));
    QCOMPARE(QString::fromStdString(f.at("root_exitcode")), QStringLiteral("-6"));
    QCOMPARE(QString::fromStdString(f.at("root_pid")), QStringLiteral("88413"));
    QCOMPARE(QString::fromStdString(f.at("root_host")), QStringLiteral("gpu-b04.cluster.local"));
    QCOMPARE(QString::fromStdString(f.at("root_node")), QStringLiteral("gpu-b04"));
    QCOMPARE(QString::fromStdString(f.at("root_signal")), QStringLiteral("SIGABRT"));
    QCOMPARE(QString::fromStdString(f.at("root_how")), QStringLiteral("SIGABRT"));
    QCOMPARE(QString::fromStdString(f.at("root_error_file")), QStringLiteral("<N/A>"));
    QCOMPARE(QString::fromStdString(f.at("root_time")), QStringLiteral("2026-11-30_12:14:55"));
    QCOMPARE(QString::fromStdString(f.at("other_failures")), QStringLiteral("1"));
}

void TestTorchrunSummary::readsLabelledAndTruncatedBlocks()
{
    // srun --label prefixes every line; an exit code with an error file and no signal.
    std::string labelled;
    const std::string raw = "Root Cause (first observed failure):\n" +
                            entry(0, "10.1.0.7", 5, 1, 1, "Traceback (most recent call last):") + kBorder;
    for (size_t pos = 0; pos < raw.size();) {
        const size_t eol = raw.find('\n', pos);
        labelled += "3: " + raw.substr(pos, eol - pos + 1);
        pos = eol + 1;
    }
    auto f = detail::readRootCause(labelled);
    QCOMPARE(QString::fromStdString(f.at("root_rank")), QStringLiteral("5"));
    QCOMPARE(QString::fromStdString(f.at("root_node")), QStringLiteral("10.1.0.7")); // an address keeps its dots
    QCOMPARE(QString::fromStdString(f.at("root_how")), QStringLiteral("exit"));
    QVERIFY(!f.count("root_signal"));
    // A log cut off inside the entry: what was printed is read; a negative
    // exit code without its traceback line still names the signal.
    f = detail::readRootCause("Root Cause (first observed failure):\n[0]:\n  time      : 2026-11-30_12:14:55\n"
                              "  host      : gpu-a17\n  rank      : 3 (local_rank: 3)\n  exitcode  : -11 (pid: 7");
    QCOMPARE(QString::fromStdString(f.at("root_signal")), QStringLiteral("SIGSEGV"));
    QCOMPARE(QString::fromStdString(f.at("root_node")), QStringLiteral("gpu-a17"));
}

void TestTorchrunSummary::aBlockWithoutRootCauseGivesNothing()
{
    QVERIFY(detail::readRootCause("Failures:\n" + entry(1, "gpu-a17", 3, 3, -15, signalMessage(15, "SIGTERM", 3))).empty());
    QVERIFY(detail::readRootCause("").empty());
}

void TestTorchrunSummary::theRootCauseIsAnInferredCauseOnItsRank()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    manifest(dir);
    writeFile(dir / "applog-gpu-b04-torchrun.log",
              agentLog("2026-11-30 12:14:50", entry(1, "gpu-b04.cluster.local", 10, 2, -15, signalMessage(15, "SIGTERM", 2)),
                       entry(0, "gpu-b04.cluster.local", 11, 3, -6, signalMessage(6, "SIGABRT", 3))));
    Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    const RootCause& rc = *a.result.rootCause;
    QCOMPARE(QString::fromStdString(rc.symptom), QStringLiteral("workload.rank_died.SIGABRT"));
    QCOMPARE(QString::fromStdString(rc.node), QStringLiteral("gpu-b04"));
    QCOMPARE(rc.rank, 11);
    QVERIFY(rc.inferred);
    QCOMPARE(QString::fromStdString(rc.inferred->fromSymptom), QStringLiteral("workload.torchrun_summary"));
    QCOMPARE(QString::fromStdString(rc.inferred->rule), QStringLiteral("workload.infer.torchrun-root-cause"));
    QVERIFY(QString::fromStdString(rc.title).contains("Rank 11"));
    // It cites the block: its evidence spans the Root Cause entry's lines.
    bool citesBlock = false;
    for (const auto& ev : a.result.evidence)
        if (std::find(rc.evidence.begin(), rc.evidence.end(), ev.id) != rc.evidence.end())
            citesBlock = citesBlock || (ev.excerpt.find("Root Cause (first observed failure)") != std::string::npos &&
                                        ev.excerpt.find("rank      : 11 (local_rank: 3)") != std::string::npos);
    QVERIFY(citesBlock);
}

void TestTorchrunSummary::aSigtermRootCauseNeverWinsOverARealFirstFailure()
{
    // gpu-a17's agent saw its worker terminated (a teardown); gpu-b04's saw rank 11 crash.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    manifest(dir);
    writeFile(dir / "applog-gpu-a17-torchrun.log",
              agentLog("2026-11-30 12:14:40", "", entry(0, "gpu-a17", 3, 3, -15, signalMessage(15, "SIGTERM", 3))));
    writeFile(dir / "applog-gpu-b04-torchrun.log",
              agentLog("2026-11-30 12:14:50", "", entry(0, "gpu-b04", 11, 3, -11, signalMessage(11, "SIGSEGV", 3))));
    Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("workload.rank_died.SIGSEGV"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-b04"));
    QVERIFY(a.result.domain == Domain::Host);
    QVERIFY(!candidateFor(a.result, "workload.rank_died.SIGTERM"));

    // The SIGTERM summary alone names nothing.
    QTemporaryDir only;
    const fs::path d2 = only.path().toStdString();
    manifest(d2);
    writeFile(d2 / "applog-gpu-a17-torchrun.log",
              agentLog("2026-11-30 12:14:40", "", entry(0, "gpu-a17", 3, 3, -15, signalMessage(15, "SIGTERM", 3))));
    Analysis b = analyze(d2.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(b.result)), QStringLiteral("unattributed"));
}

void TestTorchrunSummary::anAbortAfterCollectiveFailuresIsTheirConsequence()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    manifest(dir);
    writeFile(dir / "applog-gpu-b04-torchrun.log",
              agentLog("2026-11-30 12:24:55", "", entry(0, "gpu-b04", 11, 3, -6, signalMessage(6, "SIGABRT", 3))));
    writeFile(dir / "applog-gpu-b04-rank11.log",
              "[rank11]:[E1130 12:24:51.000000 88413 ProcessGroupNCCL.cpp:607] [Rank 11] Watchdog caught collective "
              "operation timeout: WorkNCCL(SeqNum=4120, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
              "Timeout(ms)=600000) ran for 600012 milliseconds before timing out.\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("unattributed"));
    QVERIFY(!candidateFor(a.result, "workload.rank_died.SIGABRT"));
    // The event is still there, demoted, with the rule that did it.
    bool demoted = false;
    for (const auto& e : a.result.events)
        demoted = demoted || (e.symptom == "workload.rank_died.SIGABRT" &&
                              e.roleOverrideBy == "workload.filter.rank-died-after-collective-failure");
    QVERIFY(demoted);
}

void TestTorchrunSummary::anObservedExceptionOnTheRankBeatsTheSummary()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    manifest(dir);
    writeFile(dir / "applog-gpu-b04-torchrun.log",
              agentLog("2026-11-30 12:14:50", "", entry(0, "gpu-b04", 11, 3, 1, "Traceback (most recent call last):")));
    writeFile(dir / "applog-gpu-b04-rank11.log",
              "[rank11]: ValueError: Expected input batch_size (32) to match target batch_size (16).\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("workload.exception"));
    QVERIFY(!a.result.rootCause->inferred);
    // The rank's own traceback is untimed, the summary inherits the agent's
    // stamp: time cannot order them, the observed cause on the node explains it.
    QVERIFY(!candidateFor(a.result, "workload.rank_died.exit"));
    bool explained = false;
    for (const auto& e : a.result.events)
        explained = explained || (e.symptom == "workload.rank_died.exit" && e.inferred &&
                                  (e.roleOverrideBy == "workload.filter.rank-died-explained-on-its-node" ||
                                   e.roleOverrideBy == "workload.filter.rank-exit-explained-in-the-job"));
    QVERIFY(explained);
}

namespace {
std::string withRootTime(std::string block, const std::string& time)
{
    const std::string was = "2026-11-30_12:14:55";
    for (size_t at = block.find(was); at != std::string::npos; at = block.find(was, at + time.size()))
        block.replace(at, was.size(), time);
    return block;
}
constexpr int64_t kSec = 1'000'000'000;
const SymptomEvent* eventOf(const Result& r, const std::string& symptom)
{
    for (const auto& e : r.events)
        if (e.symptom == symptom)
            return &e;
    return nullptr;
}
} // namespace

void TestTorchrunSummary::theEntrysTimeDatesTheFailure()
{
    // The entry's `time` (datetime.fromtimestamp(...).isoformat(sep="_"): local
    // time, whole seconds, no zone) dates the failure; before, the summary had
    // only the interval of its untimed line, from the agent's last stamp to the
    // end of the file.
    const std::string root = entry(0, "gpu-b04", 11, 3, -11, signalMessage(11, "SIGSEGV", 3));
    for (const auto& [zone, stamp, rootTime] :
         {std::tuple<std::string, std::string, std::string>{"", "2026-11-30 12:14:50", "2026-11-30_12:14:55"},
          {R"(, "timezone": "+02:00")", "2026-11-30 14:14:50", "2026-11-30_14:14:55"}}) {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"})" + zone + "}");
        writeFile(dir / "applog-gpu-b04-torchrun.log", withRootTime(agentLog(stamp, "", root), rootTime));
        Analysis a = analyze(dir.string(), shippedOnly());
        QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
        const RootCause& rc = *a.result.rootCause;
        QCOMPARE(QString::fromStdString(rc.symptom), QStringLiteral("workload.rank_died.SIGSEGV"));
        const int64_t failure = *parseIso8601Ns("2026-11-30T12:14:55Z");
        QCOMPARE(rc.time.ns, failure);
        QCOMPARE(QString::fromUtf8(toString(rc.time.basis).data()), QStringLiteral("assumed_utc"));
        // On its node's clock: its second, reaching back the agent's monitor
        // interval (infer before_s); the root cause adds what the clock offset
        // does not know.
        const SymptomEvent* e = eventOf(a.result, "workload.rank_died.SIGSEGV");
        QVERIFY(e);
        QCOMPARE(e->time.interval.latestNs, failure + kSec - 1);
        QCOMPARE(e->time.interval.earliestNs, failure - 5 * kSec);
    }
}

void TestTorchrunSummary::aFailureTimeInAnotherZoneIsNotTrusted()
{
    // The agent's log is stamped 12:14:50 and 12:15:00 around the summary, but
    // the entry says 14:14:55: a zone the bundle does not state. The summary
    // keeps the time of its line, and a warning says why.
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "workload.json", R"({"window": {"start": "2026-11-30T11:00:00Z"}})");
    writeFile(dir / "applog-gpu-b04-torchrun.log",
              withRootTime(agentLog("2026-11-30 12:14:50", "", entry(0, "gpu-b04", 11, 3, -11, signalMessage(11, "SIGSEGV", 3))),
                           "2026-11-30_14:14:55") +
                  "[2026-11-30 12:15:00] I1130 agent: [default] worker group stopped\n");
    Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    const RootCause& rc = *a.result.rootCause;
    QCOMPARE(QString::fromUtf8(toString(rc.time.basis).data()), QStringLiteral("inherited"));
    const SymptomEvent* e = eventOf(a.result, "workload.rank_died.SIGSEGV");
    QVERIFY(e);
    QCOMPARE(e->time.interval.latestNs, *parseIso8601Ns("2026-11-30T12:15:01Z") - 1); // the next stamp's second
    bool warned = false;
    for (const auto& w : a.result.warnings)
        warned = warned || (w.find("applog-gpu-b04-torchrun.log") != std::string::npos &&
                            w.find("2026-11-30_14:14:55") != std::string::npos);
    QVERIFY2(warned, "no warning names the file and the failure time");
}

QTEST_GUILESS_MAIN(TestTorchrunSummary)
#include "test_torchrun_summary.moc"
