// Symptom families: the compact chain keeps every event reachable, groups what
// belongs together, and does not grow with the number of nodes.
#include "engine/engine.h"
#include "engine/families.h"
#include "engine/result_json.h"
#include "present/verdict.h"
#include "synth/synth.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace fl;
using fltest::kSource;
using fltest::shippedOnly;

namespace {

Result wide(int nodes, const std::string& dir)
{
    synth::Options o;
    o.seed = 11;
    o.nodes = nodes;
    o.iterations = 3;
    o.fault = "xid79";
    std::string error;
    if (!synth::generate(o, dir, &error))
        qFatal("synth: %s", error.c_str());
    return analyze(dir, shippedOnly()).result;
}

// Every event is in exactly one family; a family's members agree on what makes it one.
void checkPartition(const Result& r)
{
    std::vector<int> seen(r.events.size(), 0);
    uint32_t occurrences = 0;
    for (const auto& f : r.families) {
        QVERIFY(!f.events.empty());
        QVERIFY(f.representatives.size() >= 1 && f.representatives.size() <= 3);
        QCOMPARE(f.count, static_cast<uint32_t>(f.events.size()));
        std::set<std::string> nodes;
        for (EventId id : f.events) {
            QVERIFY(id.value < r.events.size());
            ++seen[id.value];
            const SymptomEvent& e = r.events[id.value];
            QCOMPARE(QString::fromStdString(e.symptom), QString::fromStdString(f.symptom));
            QVERIFY(!e.time.known() || (e.time.ns >= f.first.ns && e.time.ns <= f.last.ns));
            if (!e.node.empty())
                nodes.insert(e.node);
            occurrences += e.count;
        }
        QCOMPARE(f.nodes, std::vector<std::string>(nodes.begin(), nodes.end()));
        for (EventId id : f.representatives)
            QVERIFY(std::find(f.events.begin(), f.events.end(), id) != f.events.end());
        // Its representatives' lines are evidence, never capped away.
        for (const auto& ev : f.evidence) {
            bool found = false;
            for (const auto& item : r.evidence)
                found = found || item.id == ev;
            QVERIFY2(found, toString(ev).c_str());
        }
    }
    for (size_t i = 0; i < seen.size(); ++i)
        QVERIFY2(seen[i] == 1, ("event " + std::to_string(i)).c_str());
    uint32_t edgeCount = 0;
    for (const auto& e : r.familyEdges) {
        QVERIFY(e.from.value < r.families.size() && e.to.value < r.families.size());
        edgeCount += e.count;
    }
    QCOMPARE(edgeCount, static_cast<uint32_t>(r.edges.size()));
    (void)occurrences;
}

} // namespace

class TestFamilies : public QObject {
    Q_OBJECT
private slots:
    void ranges()
    {
        QCOMPARE(QString::fromStdString(present::formatRanges(present::toRanges({5, 0, 2, 1, 2, 7, 8}))), QStringLiteral("0-2,5,7-8"));
        QCOMPARE(QString::fromStdString(present::formatRanges(present::toRanges({}))), QString());
        QCOMPARE(QString::fromStdString(present::formatRanges(present::toRanges({-1}))), QStringLiteral("-1"));
    }
    void samplesPartitionTheirEvents_data()
    {
        QTest::addColumn<QString>("sample");
        for (const char* s : {"xid149-nccl", "nvlink-signal-integrity", "ambiguous-two-faults", "unattributed-timeouts"})
            QTest::newRow(s) << QString::fromUtf8(s);
    }
    void samplesPartitionTheirEvents()
    {
        QFETCH(QString, sample);
        const Result r = analyze(kSource + "/samples/" + sample.toStdString(), shippedOnly()).result;
        checkPartition(r);
        if (r.rootCause) {
            // The root is the first family and holds the root event alone.
            QVERIFY(!r.families.empty());
            QCOMPARE(r.families.front().events, std::vector<EventId>{r.rootCause->event});
            QVERIFY(r.families.front().role == EvidenceRole::Root);
        }
        if (r.status == ResultStatus::Ambiguous) {
            size_t roots = 0;
            for (const auto& f : r.families)
                roots += f.role == EvidenceRole::Root;
            QVERIFY(roots >= 2); // tied candidates are never merged
        }
    }
    void familiesDoNotGrowWithNodes()
    {
        QTemporaryDir a, b;
        const Result small = wide(6, a.path().toStdString() + "/b");
        const Result large = wide(24, b.path().toStdString() + "/b");
        checkPartition(small);
        checkPartition(large);
        QVERIFY(large.events.size() > 3 * small.events.size() / 2);
        QVERIFY2(large.families.size() <= small.families.size() + 2,
                 (std::to_string(small.families.size()) + " vs " + std::to_string(large.families.size())).c_str());
        // The downstream watchdog timeouts are one family spanning the other nodes' ranks.
        const SymptomFamily* timeouts = nullptr;
        for (const auto& f : large.families)
            if (f.symptom == "nccl.watchdog_timeout" && f.role == EvidenceRole::Symptom &&
                (!timeouts || f.count > timeouts->count))
                timeouts = &f;
        QVERIFY(timeouts);
        QVERIFY(timeouts->nodes.size() >= 20);
        QVERIFY(timeouts->rankCount >= 8 * 20);
        QCOMPARE(timeouts->causes, std::vector<FamilyId>{FamilyId(0)});
        QVERIFY(timeouts->nodeRanges.find('[') != std::string::npos);
    }
    void compactDocumentLeavesOutEvents()
    {
        QTemporaryDir a;
        const Result r = wide(12, a.path().toStdString() + "/b");
        const auto compact = nlohmann::json::parse(resultToString(r));
        const auto detail = nlohmann::json::parse(resultToString(r, ResultJsonOptions{true}));
        QVERIFY(!compact["symptom_chain"].contains("nodes"));
        QCOMPARE(compact["symptom_chain"]["families"].size(), r.families.size());
        QCOMPARE(detail["symptom_chain"]["nodes"].size(), r.events.size());
        QCOMPARE(detail["symptom_chain"]["edges"].size(), r.edges.size());
        QVERIFY(compact.dump().size() * 2 < detail.dump().size());
        // Evidence names its family.
        for (const auto& ev : compact["evidence"])
            QVERIFY(ev["family"].is_string());
    }
};

QTEST_GUILESS_MAIN(TestFamilies)
#include "test_families.moc"
