// SPDX-License-Identifier: MIT
#include "viewfixture.h"
#include "views/chain/chaingraphview.h"
#include "views/chain/chainfamilies.h"
#include "views/chain/chainlayout.h"
#include "views/timeline/timelineview.h"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

class TestChainGraph : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::shared_ptr<Analysis> m_analysis;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_analysis = test::makeIncident(m_dir.path());
    }

    // A fan-out: one cause, fifteen effects, each edge labelled. Ranked left
    // to right, the effects stacked, and every label given its own room by dot:
    // no label box overlaps another label or a node box.
    void layoutIsLayeredAndLabelsDoNotOverlap()
    {
        std::vector<QSizeF> sizes(16, QSizeF(100, 30));
        std::vector<GraphEdge> edges;
        for (size_t i = 1; i < sizes.size(); ++i)
            edges.push_back({0, i, QStringLiteral("rule.%1").arg(i), QSizeF(70, 14)});
        const ChainLayout l = layoutGraph(sizes, edges);
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        QCOMPARE(l.nodes.size(), sizes.size());
        QCOMPARE(l.edges.size(), edges.size());
        const double rootX = l.nodes[0].centre.x();
        QSet<int> ys;
        for (size_t i = 1; i < l.nodes.size(); ++i) {
            QVERIFY(l.nodes[i].centre.x() > rootX);
            ys.insert(int(l.nodes[i].centre.y()));
        }
        QCOMPARE(ys.size(), int(l.nodes.size()) - 1);
        std::vector<QRectF> boxes;
        for (const auto& n : l.nodes)
            boxes.emplace_back(n.centre - QPointF(n.size.width() / 2, n.size.height() / 2), n.size);
        std::vector<QRectF> labels;
        for (const auto& e : l.edges) {
            QVERIFY(e.spline.size() >= 4);
            labels.emplace_back(e.labelPos - QPointF(35, 7), QSizeF(70, 14));
        }
        for (size_t i = 0; i < labels.size(); ++i) {
            for (size_t j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!labels[i].intersects(labels[j]), qPrintable(QStringLiteral("labels %1 and %2 overlap").arg(i).arg(j)));
            for (const QRectF& b : boxes)
                QVERIFY2(!labels[i].intersects(b), qPrintable(QStringLiteral("label %1 overlaps a box").arg(i)));
        }
    }

    // Every text item of the scene (box texts, arrow labels, the caption).
    static QStringList sceneTexts(const ChainGraphView& g)
    {
        QStringList out;
        for (QGraphicsItem* it : g.scene()->items())
            if (auto* t = dynamic_cast<QGraphicsSimpleTextItem*>(it))
                out << t->text();
        return out;
    }

    // Arrows say what the link means in the rule's words; when every arrow
    // means the same, one caption says so instead of the same label on each.
    void arrowsSayWhatTheyMean()
    {
        FocusState focus;
        ChainGraphView g(&focus);
        g.setAnalysis(m_analysis);
        QStringList texts = sceneTexts(g);
        QCOMPARE(texts.count(QStringLiteral("rank lost its peer")), 15);
        QCOMPARE(texts.count(QStringLiteral("peer gone")), 1);
        QVERIFY(!texts.join(QLatin1Char('|')).contains(QStringLiteral("chain.gpu-loss")));
        QVERIFY(!g.caption());

        auto same = std::make_shared<Analysis>(*m_analysis);
        for (ChainEdge& e : same->result.edges) {
            e.rule = std::string("chain.initiator-to-symptom");
            e.label = std::string("follows");
        }
        g.setAnalysis(same);
        texts = sceneTexts(g);
        QCOMPARE(texts.count(QStringLiteral("follows")), 0);
        QVERIFY(!texts.join(QLatin1Char('|')).contains(QStringLiteral("chain.initiator-to-symptom\n")));
        QVERIFY(g.caption());
        QCOMPARE(static_cast<QGraphicsSimpleTextItem*>(g.caption())->text(),
                 QStringLiteral("Every arrow: follows (rule chain.initiator-to-symptom)"));
    }

    // Fitted to the view on show and resize: the whole graph when its text
    // stays readable, else the smallest readable size with scrolling; never
    // the 7 px text of a graph squeezed into a small panel.
    void fitsReadably()
    {
        FocusState focus;
        ChainGraphView g(&focus);
        g.resize(1600, 2000);  // room for its 16 stacked effects at full size
        g.setAnalysis(m_analysis);
        static_cast<QWidget&>(g).show();  // ChainGraphView::show(Plan) hides it
        QVERIFY(QTest::qWaitForWindowExposed(&g));
        auto textPx = [&g] {
            QFont f = g.font();
            f.setPointSizeF(f.pointSizeF() * 0.9);
            return g.zoom() * QFontMetricsF(f).height();
        };
        auto wholeInView = [&g] {
            const QRect shown = g.mapFromScene(g.sceneRect()).boundingRect();
            return g.viewport()->rect().adjusted(-2, -2, 2, 2).contains(shown);
        };
        QVERIFY2(textPx() >= ChainGraphView::kMinTextPx - 0.01, qPrintable(QString::number(textPx())));
        QVERIFY2(wholeInView(), "a graph that fits is shown whole");
        g.resize(420, 260);  // far too small for 17 boxes
        QTest::qWait(10);
        QVERIFY2(textPx() >= ChainGraphView::kMinTextPx - 0.01, qPrintable(QString::number(textPx())));
        QVERIFY(g.horizontalScrollBar()->maximum() > 0 || g.verticalScrollBar()->maximum() > 0);
        QVERIFY(g.mapFromScene(g.itemForEvent(EventId(test::kRootEvent))->sceneBoundingRect().center()).x() >= 0);
        g.resize(1600, 2000);
        QTest::qWait(10);
        QVERIFY2(wholeInView(), "fitted again after a resize");
    }

    void oneItemPerChainNode()
    {
        FocusState focus;
        ChainGraphView g(&focus);
        g.setAnalysis(m_analysis);
        // Root + 15 timeouts + the suppressed IB error, each its own box (a
        // small chain starts expanded); the unlinked Xid 63 is not in the chain.
        QCOMPARE(g.nodeItemCount(), 17);
        QVERIFY(g.itemForEvent(EventId(test::kRootEvent)));
        QVERIFY(!g.itemForEvent(EventId(16)));  // Xid 63: not linked
    }

    void selectionSyncsWithTimeline()
    {
        FocusState focus;
        ChainGraphView g(&focus);
        TimelineView t(&focus);
        g.setAnalysis(m_analysis);
        t.setAnalysis(m_analysis);
        // Graph -> focus (and so the timeline).
        g.itemForEvent(EventId(5))->setSelected(true);
        QCOMPARE(focus.current().event, std::optional<EventId>(EventId(5)));
        // Focus (e.g. a timeline click) -> graph.
        focus.selectEvent(EventId(test::kRootEvent));
        QVERIFY(g.itemForEvent(EventId(test::kRootEvent))->isSelected());
        QVERIFY(!g.itemForEvent(EventId(5))->isSelected());
        focus.back();
        QVERIFY(g.itemForEvent(EventId(5))->isSelected());
    }

    void emptyAndHostileChains()
    {
        FocusState focus;
        ChainGraphView g(&focus);
        auto a = std::make_shared<Analysis>();
        g.setAnalysis(a);
        QCOMPARE(g.nodeItemCount(), 0);
        // Family edges naming families that do not exist, self loops: no crash, no box.
        for (uint32_t i = 0; i < 1000; ++i)
            a->result.familyEdges.push_back({FamilyId(0), FamilyId(i), "r", 1});
        a->result.familyEdges.push_back({FamilyId(7), FamilyId(7), "loop", 1});
        g.setAnalysis(a);
        QCOMPARE(g.nodeItemCount(), 0);
        a->result.familyEdges.clear();
        for (uint32_t i = 0; i < 1000; ++i)
            a->result.edges.push_back({EventId(0), EventId(i), "r", ""});
        a->result.edges.push_back({EventId(7), EventId(7), "loop", ""});
        // 1,000 distinct symptoms: 1,000 families, capped, the root's kept
        // although its id is the highest.
        for (uint32_t i = 0; i < 1000; ++i) {
            SymptomEvent e;
            e.id = EventId(i);
            e.symptom = "s" + std::to_string(i);
            e.node = "n";
            e.time.ns = test::kRootTimeNs + i;
            a->result.events.push_back(e);
        }
        a->result.rootCause = RootCause{};
        a->result.rootCause->event = EventId(999);
        for (auto& e : a->result.edges)
            e.from = EventId(999);
        test::addFamilies(a->result);
        g.setAnalysis(a);
        QCOMPARE(g.nodeItemCount(), int(kMaxChainNodes));
        QVERIFY(g.truncated());
        QVERIFY(g.itemForEvent(EventId(999)));
    }

    // 10,000 ranks on 1,250 nodes time out on the same collective after one
    // Xid: three boxes, the timeouts one family that expands on demand.
    void wideChainIsFamilies()
    {
        auto a = std::make_shared<Analysis>();
        Result& r = a->result;
        auto add = [&r](std::string symptom, std::string node, int rank, int64_t t, EventKind kind = EventKind::BadNode) {
            SymptomEvent e;
            e.id = EventId(static_cast<uint32_t>(r.events.size()));
            e.symptom = std::move(symptom);
            e.node = std::move(node);
            e.rank = rank;
            e.time.ns = t;
            e.kind = kind;
            e.fields["seq"] = "4711";
            r.events.push_back(e);
            return e.id;
        };
        std::vector<EventId> timeouts;
        for (int n = 0; n < 1250; ++n) {
            char node[32];
            std::snprintf(node, sizeof node, "node-%04d", n + 1);
            for (int g = 0; g < 8; ++g)
                if (!(n == 978 && g == 3))
                    timeouts.push_back(add("nccl.watchdog_timeout", node, n * 8 + g, test::kRootTimeNs + 600'000'000'000 + n));
        }
        const EventId root = add("gpu.xid.79", "node-0979", 978 * 8 + 3, test::kRootTimeNs);
        const EventId exit = add("workload.child_failed", "node-0001", -1, test::kRootTimeNs + 700'000'000'000);
        r.rootCause = RootCause{};
        r.rootCause->event = root;
        for (EventId t : timeouts)
            r.edges.push_back({root, t, "gpu_fault_explains_nccl", ""});
        r.edges.push_back({timeouts.front(), exit, "timeout_kills_job", ""});

        test::addFamilies(r);
        const ChainFamilies fam = chainFamilies(r);
        QCOMPARE(fam.families.size(), size_t(3));
        QCOMPARE(fam.families.front().representative, root);  // root first
        const ChainFamily& t = fam.families[size_t(fam.familyOfEvent(timeouts.front()))];
        QCOMPARE(t.events.size(), size_t(9999));
        QCOMPARE(t.family->nodes.size(), size_t(1250));
        QCOMPARE(familyTitle(*t.family), QStringLiteral("nccl.watchdog_timeout · 1,250 nodes · 9,999 ranks · 9,999 events"));
        // The place as core/present writes it, each list capped for a box.
        QCOMPARE(familyPlace(*t.family, 2), QStringLiteral("node-[0001-1250] ranks 0-7826,7828-9999"));

        FocusState focus;
        ChainGraphView g(&focus);
        g.setAnalysis(a);
        QCOMPARE(g.nodeItemCount(), 3);
        QVERIFY(!g.truncated());
        QCOMPARE(g.itemForEvent(timeouts[0]), g.itemForEvent(timeouts[5000]));
        // Selecting the family box selects its earliest event.
        g.itemForEvent(timeouts[7])->setSelected(true);
        QCOMPARE(focus.current().event, std::optional<EventId>(timeouts.front()));
        // Expanded: the first kMaxExpanded events and one "+N more" box.
        const size_t ti = size_t(fam.familyOfEvent(timeouts.front()));
        g.setExpanded(ti, true);
        QCOMPARE(g.nodeItemCount(), int(3 - 1 + ChainGraphView::kMaxExpanded + 1));
        QVERIFY(g.itemForEvent(timeouts[0]) != g.itemForEvent(timeouts[5000]));
        QVERIFY(g.itemForEvent(root));
        g.setExpanded(ti, false);
        QCOMPARE(g.nodeItemCount(), 3);
    }

    // A result read back from its compact document (a service's) has the
    // families and their representatives, no events and no event edges: one
    // box per family, the family edges between them, nothing to expand.
    void compactResultDrawsItsFamilies()
    {
        auto a = std::make_shared<Analysis>(*m_analysis);
        Result& r = a->result;
        r.events.clear();
        r.edges.clear();
        for (SymptomFamily& f : r.families)
            f.events.clear();
        FocusState focus;
        ChainGraphView g(&focus);
        g.setAnalysis(a);
        const ChainFamilies& fam = g.families();
        QCOMPARE(g.nodeItemCount(), int(fam.families.size()));
        QCOMPARE(fam.families.size(), size_t(3));  // root, the 15 timeouts, the suppressed IB error
        QVERIFY(!fam.edges.empty());
        QVERIFY(g.itemForEvent(EventId(test::kRootEvent)));
        const size_t timeouts = size_t(fam.familyOfEvent(fam.families[1].representative));
        QCOMPARE(fam.families[timeouts].family->count, 15u);
        QVERIFY(!fam.families[timeouts].complete());
        g.setExpanded(timeouts, true);
        QVERIFY(!g.isExpanded(timeouts));
        QCOMPARE(g.nodeItemCount(), int(fam.families.size()));
    }
};

QTEST_MAIN(TestChainGraph)
#include "test_chaingraph.moc"
