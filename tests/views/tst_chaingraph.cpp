// SPDX-License-Identifier: MIT
#include "viewfixture.h"
#include "views/chaingraphview.h"
#include "views/chainlayout.h"
#include "views/timelineview.h"

#include <QGraphicsItem>
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

    void layoutIsLayered()
    {
        const Result& r = m_analysis->result;
        const auto ids = chainEvents(r);
        // Root + 15 timeouts + the suppressed IB error; the unlinked Xid 63 is not in the chain.
        QCOMPARE(ids.size(), size_t(17));
        std::vector<QSizeF> sizes(ids.size(), QSizeF(100, 30));
        const ChainLayout l = layoutChain(r, sizes);
        QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        QCOMPARE(l.nodes.size(), ids.size());
        QCOMPARE(l.edges.size(), r.edges.size());
        double rootX = 0;
        for (const auto& n : l.nodes)
            if (n.event == test::kRootEvent)
                rootX = n.centre.x();
        // Ranked left to right: the cause is left of every effect, and the
        // fan-out stacks vertically (distinct y for the 15 timeouts).
        QSet<int> ys;
        for (const auto& n : l.nodes) {
            if (n.event != test::kRootEvent) {
                QVERIFY(n.centre.x() > rootX);
                ys.insert(int(n.centre.y()));
            }
        }
        QCOMPARE(ys.size(), int(l.nodes.size()) - 1);
        for (const auto& e : l.edges)
            QVERIFY(e.spline.size() >= 4);
    }

    void oneItemPerChainNode()
    {
        FocusState focus;
        ChainGraphView g(&focus);
        g.setAnalysis(m_analysis);
        QCOMPARE(g.nodeItemCount(), int(chainEvents(m_analysis->result).size()));
        QVERIFY(g.itemForEvent(test::kRootEvent));
        QVERIFY(!g.itemForEvent(16));  // Xid 63: not linked
    }

    void selectionSyncsWithTimeline()
    {
        FocusState focus;
        ChainGraphView g(&focus);
        TimelineView t(&focus);
        g.setAnalysis(m_analysis);
        t.setAnalysis(m_analysis);
        // Graph -> focus (and so the timeline).
        g.itemForEvent(5)->setSelected(true);
        QCOMPARE(focus.current().event, qint64(5));
        // Focus (e.g. a timeline click) -> graph.
        focus.selectEvent(test::kRootEvent);
        QVERIFY(g.itemForEvent(test::kRootEvent)->isSelected());
        QVERIFY(!g.itemForEvent(5)->isSelected());
        focus.back();
        QVERIFY(g.itemForEvent(5)->isSelected());
    }

    void emptyAndHostileChains()
    {
        FocusState focus;
        ChainGraphView g(&focus);
        auto a = std::make_shared<Analysis>();
        g.setAnalysis(a);
        QCOMPARE(g.nodeItemCount(), 0);
        // Edges naming events that do not exist, self loops, a huge fan-out: no crash, capped.
        for (uint32_t i = 0; i < 1000; ++i)
            a->result.edges.push_back({0, i, "r", ""});
        a->result.edges.push_back({7, 7, "loop", ""});
        g.setAnalysis(a);
        QCOMPARE(g.nodeItemCount(), int(kMaxChainNodes));
    }
};

QTEST_MAIN(TestChainGraph)
#include "tst_chaingraph.moc"
