// A report made from a compact result (schema 2.0 without --detail: what `analyze` writes by default and the
// service keeps) holds the whole chain: the root family (or the tied candidates) as itself, and every symptom
// family linked downstream of it with its count and its place, in the Markdown, the HTML and the Graphviz chain;
// the timeline is drawn from its evidence lines. The expected families are read from the result itself.
#include "engine/engine.h"
#include "engine/result_json.h"
#include "engine/trace_json.h"
#include "present/report.h"
#include "present/verdict.h"

#include <QtTest>

#include <set>
#include <string>

namespace {

using nlohmann::json;

json compactResult(const char* sample)
{
    fl::AnalyzeOptions o;
    o.userConfigRules = false;
    return fl::resultToJson(fl::analyze(std::string(FAULTLINE_SOURCE_DIR "/samples/") + sample, o).result);
}

std::string mdEscaped(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (std::string("\\`*_[]<>|~&").find(c) != std::string::npos)
            out += '\\';
        out += c;
    }
    return out;
}

struct Rendered {
    std::string md, html, dot, timeline;
};

Rendered render(const fl::Result& result)
{
    const fl::present::Report r = fl::present::buildReport(result, {}, "test");
    return {fl::present::reportMarkdown(r, {}), fl::present::reportHtml(r, {}), fl::present::chainDot(result),
            fl::present::timelineSvg(result)};
}

// The families the chain must show: the roots and every family reachable from them.
std::vector<json> linkedFamilies(const json& result)
{
    const json& chain = result["symptom_chain"];
    std::set<std::string> reached;
    for (const json& f : chain["families"])
        if (f["role"] == "root")
            reached.insert(f["id"].get<std::string>());
    for (bool grew = true; grew;) {
        grew = false;
        for (const json& e : chain["family_edges"])
            if (reached.count(e["from"].get<std::string>()) && reached.insert(e["to"].get<std::string>()).second)
                grew = true;
    }
    std::vector<json> out;
    for (const json& f : chain["families"])
        if (reached.count(f["id"].get<std::string>()))
            out.push_back(f);
    return out;
}

// What a reader of the document sees: the result read back with the one reader.
Rendered render(const json& document)
{
    return render(fl::resultFromJson(document));
}

// "/evidence/2/raw/line": a JSON pointer into an array element past the second.
bool beyondSecondElement(const std::string& pointer)
{
    size_t at = 0;
    while (at < pointer.size()) {
        const size_t end = std::min(pointer.find('/', at + 1), pointer.size());
        const std::string segment = pointer.substr(at + 1, end - at - 1);
        if (!segment.empty() && segment.find_first_not_of("0123456789") == std::string::npos && segment != "0" &&
            segment != "1")
            return true;
        at = end;
    }
    return false;
}

} // namespace

class TestReportCompact : public QObject {
    Q_OBJECT
private slots:
    void compactResultsCarryNoPerEventChain()
    {
        const json r = compactResult("xid149-nccl");
        QVERIFY(!r["symptom_chain"].contains("nodes"));
        QVERIFY(r["symptom_chain"]["families"].size() > 2);
    }

    void attributedChainComesFromFamilies()
    {
        const json result = compactResult("xid149-nccl");
        const Rendered out = render(result);
        // The root family as itself: its symptom, place and time.
        for (const std::string& s : {std::string("nvlink.fatal @ node-02 GPU 0 rank 2, 2026-03-14T10:00:41Z")}) {
            QVERIFY2(out.md.find(mdEscaped(s)) != std::string::npos, out.md.c_str());
            QVERIFY2(out.html.find(s) != std::string::npos, out.html.c_str());
        }
        QVERIFY(out.md.find("No symptom was linked to a cause") == std::string::npos);
        const std::vector<json> linked = linkedFamilies(result);
        QVERIFY(linked.size() >= 3);
        bool watchdog = false;
        for (const json& f : linked) {
            if (f["role"] == "root")
                continue;
            const std::string symptom = f["symptom"], nodes = f["nodes"];
            const std::string ranks = f["ranks"].is_string() ? f["ranks"].get<std::string>() : std::string();
            const size_t count = f["count"], nodeCount = f["node_count"];
            const std::string line = symptom + " on " + std::to_string(nodeCount) + (nodeCount == 1 ? " node" : " nodes") +
                                     " (" + std::to_string(count) + (count == 1 ? " event" : " events") + "): " +
                                     fl::present::placeOfMany(nodes, ranks);
            QVERIFY2(out.md.find(mdEscaped(line)) != std::string::npos, (line + "\n" + out.md).c_str());
            QVERIFY2(out.html.find(line) != std::string::npos, line.c_str());
            QVERIFY2(out.dot.find(symptom + " ×" + std::to_string(count)) != std::string::npos, out.dot.c_str());
            QVERIFY2(out.dot.find(nodes) != std::string::npos, out.dot.c_str());
            watchdog = watchdog || (symptom == "nccl.watchdog_timeout" && count == 7 && nodes == "node-[01-04]");
        }
        QVERIFY2(watchdog, "the seven watchdog timeouts on node-[01-04] are downstream of the Xid 149");
        // Interesting families that nothing links to stay out of the chain.
        QVERIFY(out.md.find("gpu.xid.63 on") == std::string::npos);
        // Timeline from the evidence lines: the root's node and the root mark.
        QVERIFY2(out.timeline.find("node-02") != std::string::npos, out.timeline.c_str());
        QVERIFY(out.timeline.find("fill=\"#b3261e\" stroke") != std::string::npos);
    }

    void ambiguousChainShowsBothTiedCandidates()
    {
        const json result = compactResult("ambiguous-two-faults");
        QCOMPARE(result["status"], "ambiguous");
        const Rendered out = render(result);
        QVERIFY2(out.md.find(mdEscaped("gpu.xid.79 @ node-01 GPU 0 rank 0")) != std::string::npos, out.md.c_str());
        QVERIFY2(out.md.find(mdEscaped("gpu.xid.48 @ node-03")) != std::string::npos, out.md.c_str());
        QVERIFY2(out.md.find(mdEscaped("nccl.watchdog_timeout on 4 nodes (6 events)")) != std::string::npos, out.md.c_str());
        // Both candidates drawn as candidates, each with an edge to the shared symptom family.
        QVERIFY(out.dot.find("n0 -> ") != std::string::npos && out.dot.find("n1 -> ") != std::string::npos);
    }

    // A saved result (the document as the CLI writes it, parsed back from its text) gives the report of
    // the fresh analysis, byte for byte: Markdown, HTML, the Graphviz chain and the timeline.
    void savedResultReportsAsTheFreshAnalysis_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<bool>("detail");
        for (const char* s : {"xid149-nccl", "ambiguous-two-faults", "nvlink-signal-integrity", "unattributed-timeouts"}) {
            QTest::newRow((std::string(s) + " compact").c_str()) << QString(s) << false;
            QTest::newRow((std::string(s) + " detail").c_str()) << QString(s) << true;
        }
    }
    void savedResultReportsAsTheFreshAnalysis()
    {
        QFETCH(QString, sample);
        QFETCH(bool, detail);
        fl::AnalyzeOptions o;
        o.userConfigRules = false;
        const fl::Result fresh = fl::analyze(FAULTLINE_SOURCE_DIR "/samples/" + sample.toStdString(), o).result;
        const std::string saved = fl::resultToString(fresh, fl::ResultJsonOptions{detail});
        const Rendered a = render(fresh), b = render(json::parse(saved));
        QVERIFY(!a.md.empty() && !a.dot.empty());
        QVERIFY2(a.md == b.md, b.md.c_str());
        QVERIFY2(a.html == b.html, b.html.c_str());
        QVERIFY2(a.dot == b.dot, b.dot.c_str());
        QVERIFY2(a.timeline == b.timeline, b.timeline.c_str());
        // Why each candidate lost survives the document, as data.
        const fl::Result back = fl::resultFromJson(json::parse(saved));
        QCOMPARE(back.candidates.size(), fresh.candidates.size());
        for (size_t i = 0; i < fresh.candidates.size(); ++i) {
            const fl::CandidateOutcome &x = back.candidates[i].outcome, &y = fresh.candidates[i].outcome;
            QCOMPARE(fl::toString(x.reason), fl::toString(y.reason));
            QVERIFY(x.other == y.other && x.deltaNs == y.deltaNs && x.limitNs == y.limitNs);
        }
    }

    // The trace crosses the service's HTTP boundary for the workbench's stepper: read back as it was, and
    // hostile steps (unknown action, wrong types) skipped, never thrown on.
    void traceSurvivesItsJson()
    {
        fl::AnalyzeOptions o;
        o.userConfigRules = false;
        const fl::Analysis a = fl::analyze(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl", o);
        QVERIFY(a.trace.size() > 10);
        const std::vector<fl::TraceStep> back = fl::traceFromJson(json::parse(fl::traceToJson(a.trace).dump()));
        QCOMPARE(back.size(), a.trace.size());
        for (size_t i = 0; i < back.size(); ++i)
            QVERIFY(back[i].phase == a.trace[i].phase && back[i].rule == a.trace[i].rule &&
                    back[i].action == a.trace[i].action && back[i].events == a.trace[i].events &&
                    back[i].detail == a.trace[i].detail && back[i].change == a.trace[i].change);
        // A step of no known action or phase is left out (the phase is typed: there is no "no phase").
        const json hostile = json::parse(R"([{"action": "exploded"}, 7, {"action": "chose", "events": [-1, "x", 3],
                                            "phase": "outcome"}, {"action": "chose", "phase": ["outcome"]}])");
        const std::vector<fl::TraceStep> h = fl::traceFromJson(hostile);
        QCOMPARE(h.size(), size_t(1));
        QVERIFY(h[0].action == fl::TraceAction::Chose && h[0].phase == fl::Phase::Outcome && h[0].events == std::vector{fl::EventId(3)});
        QVERIFY(fl::traceFromJson(json::object()).empty());
    }

    // A result document is hostile input (a file handed to `report`, an answer from a service): every
    // field replaced by a value of every wrong type, one at a time, still reads and reports, never throws.
    void everyFieldOfTheWrongTypeStillReports()
    {
        fl::AnalyzeOptions o;
        o.userConfigRules = false;
        const json doc = fl::resultToJson(fl::analyze(FAULTLINE_SOURCE_DIR "/samples/ambiguous-two-faults", o).result);
        const json flat = doc.flatten();
        const std::vector<json> wrong{nullptr, -1, 4294967296LL, 1e300, "2026-13-45T99:99:99Z", "boot+xs",
                                      json::array({1, "x"}), json::object({{"id", 0}}), true};
        size_t mutations = 0;
        for (const auto& [pointer, value] : flat.items()) {
            // Every field once: in the arrays only the first two elements (the others are alike).
            if (beyondSecondElement(pointer))
                continue;
            for (const json& w : wrong) {
                json mutated = flat;
                mutated[pointer] = w;
                json back;
                try {
                    back = mutated.unflatten();
                } catch (const json::exception&) {
                    continue;
                }
                try {
                    const Rendered r = render(back);
                    QVERIFY(!r.md.empty() && !r.html.empty() && !r.dot.empty());
                } catch (const std::invalid_argument&) {
                    QVERIFY2(pointer == "/status" || pointer == "/schema_version", pointer.c_str());  // not a result any more
                }
                ++mutations;
            }
        }
        QVERIFY(mutations > 500);
    }

    // Evidence ids are typed (ev-00001 is EvidenceId(0)); their text is the one the documents always had.
    void evidenceIdsAreTextOnlyAtTheEdges()
    {
        QCOMPARE(fl::toString(fl::EvidenceId(0)), std::string("ev-00001"));
        QCOMPARE(fl::toString(fl::EvidenceId(123455)), std::string("ev-123456"));
        QCOMPARE(fl::evidenceIdFromString("ev-00001"), std::optional(fl::EvidenceId(0)));
        QCOMPARE(fl::evidenceIdFromString("ev-4"), std::optional(fl::EvidenceId(3)));
        QCOMPARE(fl::evidenceIdFromString("ev-4294967295"), std::optional(fl::EvidenceId(4294967294u)));
        for (const char* bad : {"", "ev-", "ev-0", "ev-00000", "ev-12a", "EV-00001", " ev-1", "ev--1", "ev-+1",
                                "ev-4294967296", "fam-0001"})
            QVERIFY2(!fl::evidenceIdFromString(bad), bad);
    }

    // The verdict's closed lists and the evidence ids are typed when read back: the document's text round-trips
    // byte for byte, a word outside the list reads as unknown, and an id that is no id points nowhere.
    void typedFieldsReadBackFromTheirText()
    {
        const json doc = compactResult("ambiguous-two-faults");
        fl::Result r = fl::resultFromJson(doc);
        const json again = fl::resultToJson(r);
        QCOMPARE(again.at("domain"), doc.at("domain"));
        for (const char* list : {"candidates", "evidence"})
            for (size_t i = 0; i < doc.at(list).size(); ++i)
                for (const char* key : {"domain", "evidence", "id"})
                    if (doc.at(list)[i].contains(key))
                        QCOMPARE(again.at(list)[i].at(key), doc.at(list)[i].at(key));
        for (size_t i = 0; i < doc.at("symptom_chain").at("families").size(); ++i)
            QCOMPARE(again.at("symptom_chain").at("families")[i].at("evidence"),
                     doc.at("symptom_chain").at("families")[i].at("evidence"));
        QVERIFY(r.domain != fl::Domain::Unknown || doc.at("domain") == "unknown");
        QVERIFY(r.candidates.size() >= 2 && !r.evidence.empty() && !r.candidates[0].evidence.empty());

        json changed = doc;
        changed["domain"] = "gpus";
        changed["candidates"][0]["domain"] = "GPU";
        changed["evidence"][0]["id"] = "line-7";
        changed["candidates"][0]["evidence"] = json::array({"ev-00002", "nonsense", "ev-0", "ev-00001"});
        r = fl::resultFromJson(changed);
        QVERIFY(r.domain == fl::Domain::Unknown);
        QVERIFY(r.candidates[0].domain == fl::Domain::Unknown);
        QVERIFY(r.evidence[0].id == fl::EvidenceId(0));  // its place in the list: the number the engine gave it
        QCOMPARE(r.candidates[0].evidence, (std::vector{fl::EvidenceId(1), fl::EvidenceId(0)}));
        const json back = fl::resultToJson(r);
        QCOMPARE(back.at("domain").get<std::string>(), std::string("unknown"));
        QCOMPARE(back.at("evidence")[0].at("id").get<std::string>(), std::string("ev-00001"));
        QCOMPARE(back.at("candidates")[0].at("evidence"), json::array({"ev-00002", "ev-00001"}));
    }

    void notAResultDocumentIsRefusedByTheReader()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fl::resultFromJson(json::parse(R"({"status": "attributed"})")));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fl::resultFromJson(json::array()));
    }

    void olderResultsStillReadThePerEventChain()
    {
        // A 1.x document has no families: the per-event nodes are read and merged by symptom.
        fl::AnalyzeOptions o;
        o.userConfigRules = false;
        json result = fl::resultToJson(
            fl::analyze(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl", o).result, fl::ResultJsonOptions{true});
        result["schema_version"] = "1.0";
        result["symptom_chain"].erase("families");
        result["symptom_chain"].erase("family_edges");
        const Rendered out = render(result);
        QVERIFY2(out.md.find(mdEscaped("nccl.watchdog_timeout on 4 nodes (7 events)")) != std::string::npos, out.md.c_str());
        QVERIFY(out.timeline.find("node-02") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestReportCompact)
#include "test_report_compact.moc"
