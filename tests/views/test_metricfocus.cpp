// SPDX-License-Identifier: MIT
// A metric evidence item opens the Metrics tab on its series at its sample, with the same metric on the
// other nodes, GPUs and ports (its peers) drawn behind it (issue #42 item 5): from the evidence list, from
// its event on the timeline or in the chain, and the same with samples read back from the files as the
// workbench keeps none. An analysis opens on its start selection without leaving the timeline, and a state
// file's own tab wins over the selection it restores.
#include "views/timeline/metricfocus.h"
#include "views/workbench/workbenchstate.h"
#include "views/workbench/workbenchview.h"

#include <QTabWidget>
#include <QTest>
#include <qcustomplot.h>

using namespace fl;

namespace {

std::shared_ptr<const Analysis> ibSample(bool keepSamples)
{
    AnalyzeOptions o;
    o.userConfigRules = false;
    o.keepMetricSamples = keepSamples;
    return std::make_shared<const Analysis>(analyze(FAULTLINE_SOURCE_DIR "/samples/ib-link-down-metric", o));
}

// The root cause's metric evidence item (the port that went down).
const EvidenceItem& rootMetricItem(const Analysis& a)
{
    for (EvidenceId id : a.result.rootCause->evidence)
        for (const EvidenceItem& e : a.result.evidence)
            if (e.id == id && e.kind == EvidenceKind::Metric)
                return e;
    qFatal("no metric root evidence");
}

// Every graph's points, by name.
std::map<QString, std::vector<std::pair<double, double>>> pointsOf(QCustomPlot* p)
{
    std::map<QString, std::vector<std::pair<double, double>>> out;
    for (int i = 0; i < p->graphCount(); ++i)
        for (auto it = p->graph(i)->data()->constBegin(); it != p->graph(i)->data()->constEnd(); ++it)
            out[p->graph(i)->name()].push_back({it->key, it->value});
    return out;
}

} // namespace

class TestMetricFocus : public QObject
{
    Q_OBJECT
private slots:
    void peersOfAPort()
    {
        const auto a = ibSample(true);
        const EvidenceItem& item = rootMetricItem(*a);
        const auto t = metricFocusTarget(*a, item);
        QVERIFY(t);
        const MetricSeries& s = a->metrics[t->series];
        QCOMPARE(s.name, std::string("node_infiniband_link_downed_total"));
        QCOMPARE(s.node, item.node);
        // 4 nodes × 2 ports: the 7 others, this node's other port first.
        QCOMPARE(t->peers.size(), size_t(7));
        QCOMPARE(a->metrics[t->peers.front()].node, item.node);
        for (size_t k = 1; k < t->peers.size(); ++k)
            QVERIFY(a->metrics[t->peers[k]].node != item.node);
        QCOMPARE(t->pointNs, item.time.ns);
        const std::atomic<bool> no{false};
        const FocusedPlot f = prepareFocusedPlot(*a, *t, no);
        QCOMPARE(f.peers.size(), size_t(7));
        QCOMPARE(f.peerCount, size_t(7));
        QVERIFY(!f.bandX.isEmpty());
        // The band holds every peer's value at each sample time: the lowest never above the median, nor it above the highest.
        for (qsizetype i = 0; i < f.bandX.size(); ++i)
            QVERIFY(f.bandLo[i] <= f.bandMid[i] && f.bandMid[i] <= f.bandHi[i]);
        QVERIFY(f.title.contains(QStringLiteral("7 peer")));
        // A log line has no series.
        for (const EvidenceItem& e : a->result.evidence)
            if (e.kind == EvidenceKind::Log) {
                QVERIFY(!metricFocusTarget(*a, e));
                break;
            }
    }

    void evidencePickOpensTheMetricsTab()
    {
        const auto a = ibSample(true);
        WorkbenchView w;
        w.resize(1400, 900);
        w.setAnalysis(a);
        // The start selection is the root's metric item: it is focused, but the timeline stays in front.
        QCOMPARE(w.centreTabs()->currentWidget(), static_cast<QWidget*>(w.timeline()));
        const EvidenceItem& item = rootMetricItem(*a);
        QCOMPARE(w.metrics()->focusedEvidence(), std::optional<EvidenceId>(item.id));
        // A log item first, then the metric item, as a reader clicks them in the evidence list.
        for (const EvidenceItem& e : a->result.evidence)
            if (e.kind == EvidenceKind::Log) {
                w.focus()->selectEvidence(e.id, e.event);
                break;
            }
        QCOMPARE(w.centreTabs()->currentWidget(), static_cast<QWidget*>(w.timeline()));
        w.focus()->selectEvidence(item.id, item.event);
        QCOMPARE(w.centreTabs()->currentWidget(), static_cast<QWidget*>(w.metrics()));
        QCustomPlot* p = w.metrics()->focusedPlot();
        QVERIFY(p);
        // Its series on top, after the band, its 7 peers and their median.
        QCustomPlot* top = p;
        QVERIFY(top->graph(top->graphCount() - 1)->name().startsWith(QString::fromStdString(item.node)));
        QCOMPARE(top->graphCount(), 7 + 4);  // peers, band low and high, median, the series
        // The sample is in the shared window, which the plot shows.
        const double x = double(item.time.ns) / 1e9;
        QVERIFY(p->xAxis->range().contains(x));
        QVERIFY(w.focus()->current().startNs <= item.time.ns && item.time.ns <= w.focus()->current().endNs);
        // The other plots are still there, below it.
        QVERIFY(w.metrics()->plotCount() >= 4);
        QVERIFY(w.metrics()->plot(0) != p);
    }

    void eventOnTheTimelineOpensItsItem()
    {
        const auto a = ibSample(true);
        WorkbenchView w;
        w.setAnalysis(a);
        // The symbol-error event (no evidence pick: the timeline and the chain select events).
        std::optional<EventId> ev;
        for (const EvidenceItem& e : a->result.evidence)
            if (e.kind == EvidenceKind::Metric && e.symptom == "network.metric.ib_symbol_errors")
                ev = e.event;
        QVERIFY(ev);
        w.focus()->selectEvent(*ev);
        QCOMPARE(w.centreTabs()->currentWidget(), static_cast<QWidget*>(w.metrics()));
        const EvidenceItem* shown = metricEvidenceOf(a->result, *ev);
        QVERIFY(shown);
        QCOMPARE(w.metrics()->focusedEvidence(), std::optional<EvidenceId>(shown->id));
        QCOMPARE(shown->time.ns, a->result.events[ev->value].time.ns);
        QVERIFY(w.metrics()->focusedPlot()->graph(w.metrics()->focusedPlot()->graphCount() - 1)->name().contains(
            QStringLiteral("mlx5")));
    }

    // The workbench keeps no samples: the focused plot reads its series and peers from the file in the
    // background, and draws what an analysis that kept them draws.
    void readFromTheFilesAsTheWorkbenchKeepsNoSamples()
    {
        const auto kept = ibSample(true);
        const auto read = ibSample(false);
        QVERIFY(read->metrics.front().samples.empty());
        WorkbenchView a, b;
        a.setAnalysis(kept);
        b.setAnalysis(read);
        const EvidenceItem& item = rootMetricItem(*kept);
        a.focus()->selectEvent(EventId(0));
        b.focus()->selectEvent(EventId(0));
        a.focus()->selectEvidence(item.id, item.event);
        b.focus()->selectEvidence(item.id, item.event);
        QVERIFY(a.metrics()->focusedPlot());
        QTRY_VERIFY(b.metrics()->focusedPlot());
        QCOMPARE(pointsOf(b.metrics()->focusedPlot()), pointsOf(a.metrics()->focusedPlot()));
        QVERIFY(!pointsOf(b.metrics()->focusedPlot()).empty());
    }

    void stateFileKeepsItsTab()
    {
        const auto a = ibSample(true);
        WorkbenchView w;
        w.setAnalysis(a);
        store::WorkbenchState s;
        s.tab = "timeline";
        // Another metric item than the start selection (selecting that one again changes nothing).
        for (const EvidenceItem& e : a->result.evidence)
            if (e.kind == EvidenceKind::Metric && e.event != rootMetricItem(*a).event)
                s.selection = e.id;
        QVERIFY(s.selection);
        QCOMPARE(applyState(w, s), QString());
        QCOMPARE(w.centreTabs()->currentWidget(), static_cast<QWidget*>(w.timeline()));
    }
};

QTEST_MAIN(TestMetricFocus)
#include "test_metricfocus.moc"
