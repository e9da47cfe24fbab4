// What would decide an ambiguous verdict (issue #45, items 2 and 4): per tied pair the engine names the
// sources, nodes, UTC window and resolution that would order them (Result::wouldDecide), the presentation
// layer says it once, and the report quotes every candidate's raw lines beside it.
#include "engine/engine.h"
#include "engine/result_json.h"
#include "present/report.h"
#include "present/would_decide.h"
#include "synth/synth.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <sstream>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::statusOf;

namespace {

constexpr int64_t kSec = 1'000'000'000;

const std::string kSample = fltest::kSource + "/samples/ambiguous-two-faults";

std::vector<const Candidate*> tiedOf(const Result& r)
{
    std::vector<const Candidate*> out;
    for (const Candidate& c : r.candidates)
        if (c.outcome.tied())
            out.push_back(&c);
    return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The file:line an evidence id quotes, as the report writes it.
std::string whereOf(const Result& r, EvidenceId id)
{
    for (const EvidenceItem& e : r.evidence)
        if (e.id == id)
            return e.file + ":" + std::to_string(e.ref.line);
    return {};
}

synth::Options ambiguousBundle()
{
    synth::Options o;
    o.fault = "ambiguous";
    o.seed = 7;
    o.nodes = 8;
    o.iterations = 24;
    return o;
}

} // namespace

class TestWouldDecide : public QObject {
    Q_OBJECT
private slots:
    void theAmbiguousSampleNamesTheWindowAndTheNodes();
    void subSecondStampsForTheWindowDecide();
    void aSynthBundleAsksForWhatItLacks();
    void theResultDocumentKeepsIt();
    void theReportQuotesEveryCandidateAndWhatWouldDecide();
};

void TestWouldDecide::theAmbiguousSampleNamesTheWindowAndTheNodes()
{
    const Analysis a = analyze(kSample, shippedOnly());
    const Result& r = a.result;
    QCOMPARE(QString::fromStdString(statusOf(r)), QStringLiteral("ambiguous"));
    const auto tied = tiedOf(r);
    QCOMPARE(tied.size(), size_t(2));
    QCOMPARE(r.wouldDecide.size(), size_t(1));
    const WouldDecide& w = r.wouldDecide.front();
    QVERIFY(w.first == std::min(tied[0]->event, tied[1]->event));
    QVERIFY(w.second == std::max(tied[0]->event, tied[1]->event));
    std::vector<std::string> nodes{tied[0]->node, tied[1]->node};
    std::sort(nodes.begin(), nodes.end());
    QCOMPARE(w.nodes, nodes);
    QVERIFY(std::find(w.sources.begin(), w.sources.end(), SourceKind::SysLog) != w.sources.end());
    // The window holds both corrected intervals, on whole seconds.
    for (const Candidate* c : tied) {
        QVERIFY(w.window.earliestNs <= c->time.interval.earliestNs);
        QVERIFY(w.window.latestNs >= c->time.interval.latestNs);
    }
    QCOMPARE(w.window.earliestNs % kSec, int64_t(0));
    QCOMPARE((w.window.latestNs + 1) % kSec, int64_t(0));
    QVERIFY(w.window.latestNs - w.window.earliestNs < 5 * kSec);
    QCOMPARE(w.resolutionNs, kSec); // syslog prints whole seconds
    const std::string text = present::wouldDecideText(w);
    QVERIFY2(contains(text, nodes[0]) && contains(text, nodes[1]) && contains(text, "UTC") &&
                 contains(text, "sub-second") && contains(text, "kernel logs"),
             text.c_str());
    // The verdict's list begins with it, under its own heading.
    QVERIFY(!r.missing.empty());
    QCOMPARE(QString::fromStdString(r.missing.front()), QString::fromStdString(text));
    QCOMPARE(QString::fromStdString(present::missingHeading(r)), QStringLiteral("What would decide the verdict"));
}

// The sample with the named evidence added: its kernel logs stamped to the ms as rsyslog's RSYSLOG_FileFormat
// writes them (RFC 3339), every line of node-01 at `.frac01` and of node-03 at `.frac03` of its printed second.
// Nothing else changes: the clock offsets come from the application logs.
fs::path withSubSecondStamps(const QTemporaryDir& tmp, const std::string& frac01, const std::string& frac03)
{
    const fs::path dir = tmp.path().toStdString();
    fs::copy(kSample, dir, fs::copy_options::recursive);
    for (const auto& [node, frac] : {std::pair{std::string("node-01"), frac01}, std::pair{std::string("node-03"), frac03}}) {
        const fs::path file = dir / ("syslog-" + node + ".log");
        std::istringstream in(fltest::readFile(file));
        std::string out, line;
        while (std::getline(in, line)) {
            if (line.rfind("Mar 14 ", 0) != 0 || line.size() < 16) { // not a classic syslog line: left as it is
                out += line + "\n";
                continue;
            }
            out += "2026-03-14T" + line.substr(7, 8) + "." + frac + "+00:00" + line.substr(15) + "\n";
        }
        fltest::writeFile(file, out);
    }
    return dir;
}

// The named evidence, added, decides: with sub-second kernel stamps for the window the sample is attributed to
// the fault they put first. Stamps that leave the two within the clocks' residuals (node-01 at .999, node-03 a
// millisecond later on the consensus clock: both clocks run 1 s ahead) leave it ambiguous, and what would
// decide is then the clocks alone.
void TestWouldDecide::subSecondStampsForTheWindowDecide()
{
    const Result plain = analyze(kSample, shippedOnly()).result;
    QCOMPARE(plain.wouldDecide.size(), size_t(1));
    QVERIFY(plain.wouldDecide.front().clockNs * 2 < plain.wouldDecide.front().resolutionNs); // stamps would do
    {
        QTemporaryDir tmp;
        const Result r = analyze(withSubSecondStamps(tmp, "200", "700").string(), shippedOnly()).result;
        QCOMPARE(QString::fromStdString(statusOf(r)), QStringLiteral("attributed"));
        QVERIFY(r.wouldDecide.empty());
        QVERIFY(r.rootCause);
        QCOMPARE(QString::fromStdString(r.rootCause->node), QStringLiteral("node-01"));
    }
    {
        QTemporaryDir tmp;
        const Result r = analyze(withSubSecondStamps(tmp, "999", "000").string(), shippedOnly()).result;
        QCOMPARE(QString::fromStdString(statusOf(r)), QStringLiteral("ambiguous"));
        QCOMPARE(r.wouldDecide.size(), size_t(1));
        const std::string text = present::wouldDecideText(r.wouldDecide.front());
        QVERIFY2(!contains(text, "stamps") && contains(text, "clock offsets"), text.c_str());
    }
}

// A synth ambiguous bundle: its two culprit nodes printed no shared moment, so their clocks are known only to
// the skew tolerance. The plain bundle asks for sub-second stamps and better clocks; with sub-second stamps
// (synth --precise-syslog) it asks only for the clocks, and stays ambiguous: stamps alone cannot decide there.
void TestWouldDecide::aSynthBundleAsksForWhatItLacks()
{
    QTemporaryDir plainDir, preciseDir;
    synth::Options o = ambiguousBundle();
    std::string error;
    QVERIFY2(synth::generate(o, plainDir.path().toStdString(), &error), error.c_str());
    const Result plain = analyze(plainDir.path().toStdString(), shippedOnly()).result;
    QCOMPARE(QString::fromStdString(statusOf(plain)), QStringLiteral("ambiguous"));
    QVERIFY(!plain.wouldDecide.empty());
    const WouldDecide& w = plain.wouldDecide.front();
    QCOMPARE(w.resolutionNs, kSec);
    const std::string asked = present::wouldDecideText(w);
    QVERIFY2(contains(asked, "sub-second") && contains(asked, "clock offsets"), asked.c_str());

    o.preciseSyslog = true;
    QVERIFY2(synth::generate(o, preciseDir.path().toStdString(), &error), error.c_str());
    const Result precise = analyze(preciseDir.path().toStdString(), shippedOnly()).result;
    QCOMPARE(QString::fromStdString(statusOf(precise)), QStringLiteral("ambiguous"));
    QVERIFY(!precise.wouldDecide.empty());
    const WouldDecide& v = precise.wouldDecide.front();
    QCOMPARE(v.nodes, w.nodes);
    QVERIFY(v.resolutionNs < 1'000'000);
    const std::string still = present::wouldDecideText(v);
    QVERIFY2(!contains(still, "stamps") && contains(still, "clock offsets"), still.c_str());
}

void TestWouldDecide::theResultDocumentKeepsIt()
{
    const Result r = analyze(kSample, shippedOnly()).result;
    const nlohmann::json doc = resultToJson(r);
    QVERIFY(doc.at("would_decide").is_array());
    QCOMPARE(doc.at("would_decide").size(), size_t(1));
    QCOMPARE(QString::fromStdString(doc.at("would_decide")[0].at("text").get<std::string>()),
             QString::fromStdString(present::wouldDecideText(r.wouldDecide.front())));
    const Result back = resultFromJson(doc);
    QCOMPARE(back.wouldDecide.size(), size_t(1));
    QVERIFY(back.wouldDecide.front() == r.wouldDecide.front());
}

// What `faultline-cli report` writes (app/cli/report_cmd.cpp: buildReport, then Markdown or HTML).
void TestWouldDecide::theReportQuotesEveryCandidateAndWhatWouldDecide()
{
    const Result r = resultFromJson(resultToJson(analyze(kSample, shippedOnly()).result));
    const present::Report report = present::buildReport(r, {}, kSample);
    const std::string md = present::reportMarkdown(report, {});
    const std::string html = present::reportHtml(report, {});
    const auto tied = tiedOf(r);
    QCOMPARE(tied.size(), size_t(2));
    for (const Candidate* c : tied) {
        QVERIFY(!c->evidence.empty());
        const std::string where = whereOf(r, c->evidence.front());
        QVERIFY2(!where.empty() && contains(md, where) && contains(html, where), where.c_str());
    }
    QVERIFY(contains(md, "## What would decide the verdict"));
    const std::string decide = present::wouldDecideText(r.wouldDecide.front());
    QVERIFY2(contains(md, decide), md.c_str());
    QVERIFY(contains(html, present::htmlEscape(decide)));
    QVERIFY(contains(md, tied[0]->node) && contains(md, tied[1]->node));
}

QTEST_GUILESS_MAIN(TestWouldDecide)
#include "test_would_decide.moc"
