// SPDX-License-Identifier: MIT
#include "views/timeline/metricspanel.h"

#include "engine/metric_samples.h"
#include "views/common/viewstyle.h"

#include <QFutureWatcher>
#include <QLabel>
#include <QtConcurrent/QtConcurrentRun>
#include <QVBoxLayout>

#include <map>
#include <qcustomplot.h>

namespace fl {

namespace {
double seconds(int64_t ns)
{
    return static_cast<double>(ns) / 1e9;
}

std::string rootNode(const Result& r)
{
    return r.rootCause ? r.rootCause->node : std::string();
}
} // namespace

MetricsPanel::MetricsPanel(FocusState* focus, QWidget* parent)
    : QScrollArea(parent)
    , m_focus(focus)
    , m_content(new QWidget)
    , m_layout(new QVBoxLayout(m_content))
{
    setWidgetResizable(true);
    setWidget(m_content);
    m_layout->setContentsMargins(2, 2, 2, 2);
    connect(focus, &FocusState::timeWindowChanged, this, &MetricsPanel::onTimeWindow);
    connect(focus, &FocusState::cursorMoved, this, &MetricsPanel::onCursor);
}

void MetricsPanel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    Prepared p = prepare(analysis.get());
    setPrepared(std::move(analysis), std::move(p));
}

MetricsPanel::Prepared MetricsPanel::prepare(const Analysis* analysis)
{
    Prepared out;
    std::map<std::string, std::vector<const MetricSeries*>> byName;
    if (analysis)
        for (const auto& s : analysis->metrics)
            byName[s.name].push_back(&s);
    if (byName.empty())
        return out;
    const std::string root = rootNode(analysis->result);
    // Root node's series first so that the cap never hides them, and drawn last (on top).
    for (auto& [name, series] : byName)
        std::stable_sort(series.begin(), series.end(), [&](const MetricSeries* a, const MetricSeries* b) {
            return (a->node == root) > (b->node == root);
        });
    // The workbench keeps series without samples (MainWindow's AnalyzeOptions):
    // the few it draws are read again from their files, here, off the GUI thread.
    std::vector<const MetricSeries*> unread;
    for (const auto& [name, series] : byName)
        for (size_t i = 0; i < std::min<size_t>(series.size(), kMaxGraphsPerPlot); ++i)
            if (series[i]->samples.empty())
                unread.push_back(series[i]);
    std::map<const MetricSeries*, std::vector<MetricSample>> read;
    if (!unread.empty()) {
        auto samples = readSeriesSamples(analysis->bundle, unread);
        for (size_t i = 0; i < unread.size(); ++i)
            read[unread[i]] = std::move(samples[i]);
    }
    for (auto& [name, series] : byName) {
        PreparedPlot plot;
        const size_t shown = std::min<size_t>(series.size(), kMaxGraphsPerPlot);
        plot.title = style::q(name);
        if (!root.empty())
            plot.title += tr("  (red: %1)").arg(style::q(root));
        if (shown < series.size())
            plot.title += tr("  — %1 of %2 series").arg(shown).arg(series.size());
        bool any = false;
        for (size_t i = shown; i-- > 0;) {
            const MetricSeries& s = *series[i];
            PreparedGraph g;
            g.index = i;
            g.isRoot = !root.empty() && s.node == root;
            g.rootGpu = g.isRoot && analysis->result.rootCause && s.gpu == analysis->result.rootCause->gpuIndex;
            g.name = style::q(s.node) + (s.gpu >= 0 ? QStringLiteral(" gpu%1").arg(s.gpu) : QString());
            const auto kept = read.find(&s);
            const std::vector<MetricSample>& samples = kept != read.end() ? kept->second : s.samples;
            g.x.reserve(static_cast<qsizetype>(samples.size()));
            g.y.reserve(static_cast<qsizetype>(samples.size()));
            for (const auto& smp : samples) {
                if (smp.timeNs == kNoTime || !std::isfinite(smp.value))
                    continue;
                g.x.push_back(seconds(smp.timeNs));
                g.y.push_back(smp.value);
                plot.lo = any ? std::min(plot.lo, smp.value) : smp.value;
                plot.hi = any ? std::max(plot.hi, smp.value) : smp.value;
                any = true;
            }
            plot.graphs.push_back(std::move(g));
        }
        out.plots.push_back(std::move(plot));
    }
    return out;
}

void MetricsPanel::setPrepared(std::shared_ptr<const Analysis> analysis, Prepared prepared)
{
    dropFocused();
    m_focusedEvidence.reset();
    for (auto& p : m_plots)
        delete p.plot;
    m_plots.clear();
    while (QLayoutItem* it = m_layout->takeAt(0)) {
        delete it->widget();
        delete it;
    }
    m_analysis = std::move(analysis);
    if (prepared.plots.empty()) {
        auto* l = new QLabel(m_analysis ? tr("No metrics in this bundle") : QString(), m_content);
        l->setAlignment(Qt::AlignCenter);
        l->setEnabled(false);
        m_layout->addWidget(l);
        return;
    }
    for (PreparedPlot& pp : prepared.plots) {
        QCustomPlot* plot = newPlot(pp.title);
        for (PreparedGraph& pg : pp.graphs) {
            QCPGraph* g = plot->addGraph();
            QColor c = pg.isRoot ? style::levelColor(style::Root) : QColor::fromHsv(static_cast<int>(pg.index * 47 % 360), 60, 170);
            if (pg.isRoot && !pg.rootGpu)
                c = c.lighter(140);
            g->setPen(QPen(c, pg.rootGpu ? 2.5 : (pg.isRoot ? 1.5 : 1)));
            g->setName(pg.name);
            g->setData(pg.x, pg.y, true);
        }
        const double pad = std::max((pp.hi - pp.lo) * 0.08, 1e-9);
        plot->yAxis->setRange(pp.lo - pad, pp.hi + pad);
        addPlot(plot, false);
    }
    const auto& cur = m_focus->current();
    if (cur.startNs != kNoTime)
        onTimeWindow(cur.startNs, cur.endNs);
}

QCustomPlot* MetricsPanel::newPlot(const QString& title)
{
    auto* plot = new QCustomPlot(m_content);
    plot->setMinimumHeight(150);
    plot->setNoAntialiasingOnDrag(true);
    plot->setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot->axisRect()->setRangeDrag(Qt::Horizontal);
    plot->axisRect()->setRangeZoom(Qt::Horizontal);
    auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
    ticker->setDateTimeSpec(Qt::UTC);
    ticker->setDateTimeFormat(QStringLiteral("HH:mm:ss"));
    plot->xAxis->setTicker(ticker);
    plot->plotLayout()->insertRow(0);
    auto* titleEl = new QCPTextElement(plot, title, QFont(font().family(), font().pointSize(), QFont::Bold));
    plot->plotLayout()->addElement(0, 0, titleEl);
    return plot;
}

void MetricsPanel::addPlot(QCustomPlot* plot, bool first)
{
    // Cursor on its own buffered layer: hover repaints only that layer.
    plot->addLayer(QStringLiteral("cursor"), nullptr, QCustomPlot::limAbove);
    plot->layer(QStringLiteral("cursor"))->setMode(QCPLayer::lmBuffered);
    auto* cursor = new QCPItemStraightLine(plot);
    cursor->setLayer(QStringLiteral("cursor"));
    cursor->setPen(QPen(QColor(0, 0, 0, 110)));
    cursor->setVisible(false);
    connect(plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this, plot] { onPlotRange(plot); });
    if (first) {
        m_layout->insertWidget(0, plot);
        m_plots.insert(m_plots.begin(), {plot, cursor});
    } else {
        m_layout->addWidget(plot);
        m_plots.push_back({plot, cursor});
    }
}

bool MetricsPanel::focusEvidence(const EvidenceItem& item, bool showSample)
{
    if (!m_analysis || m_focusedEvidence == item.id)
        return m_analysis && m_focusedEvidence == item.id;
    auto target = metricFocusTarget(*m_analysis, item);
    if (!target)
        return false;
    m_focusedEvidence = item.id;
    if (m_focusCancel)
        *m_focusCancel = true;
    const quint64 generation = ++m_focusGeneration;
    // The sample in the shared window (the timeline follows), keeping the window's span.
    const auto& cur = m_focus->current();
    if (showSample && target->pointNs != kNoTime && (cur.startNs == kNoTime || target->pointNs < cur.startNs || target->pointNs > cur.endNs)) {
        const int64_t span = cur.startNs != kNoTime && cur.endNs > cur.startNs ? cur.endNs - cur.startNs : int64_t(600'000'000'000);
        m_focus->setTimeWindow(target->pointNs - span / 2, target->pointNs + span / 2);
    }
    if (!focusNeedsFiles(*m_analysis, *target)) {
        const std::atomic<bool> never{false};
        showFocused(prepareFocusedPlot(*m_analysis, *target, never));
        return true;
    }
    // Reading the peers' samples again from a 10,000-rank scrape takes a second: off the GUI thread.
    m_focusCancel = std::make_shared<std::atomic<bool>>(false);
    m_focusPending = true;
    auto* watcher = new QFutureWatcher<FocusedPlot>(this);
    connect(watcher, &QFutureWatcher<FocusedPlot>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        FocusedPlot f = watcher->result();
        if (generation == m_focusGeneration && !f.cancelled)
            showFocused(std::move(f));
    });
    watcher->setFuture(QtConcurrent::run([a = m_analysis, t = *target, cancel = m_focusCancel] {
        return prepareFocusedPlot(*a, t, *cancel);
    }));
    return true;
}

void MetricsPanel::dropFocused()
{
    ++m_focusGeneration;
    m_focusPending = false;
    if (m_focusCancel)
        *m_focusCancel = true;
    if (!m_focused)
        return;
    delete m_plots.front().plot;
    m_plots.erase(m_plots.begin());
    m_focused = false;
}

void MetricsPanel::showFocused(FocusedPlot f)
{
    dropFocused();
    QCustomPlot* plot = newPlot(f.title);
    plot->setMinimumHeight(260);
    const QColor peer(150, 150, 150, 110);
    if (!f.bandX.isEmpty()) {
        QCPGraph* lo = plot->addGraph();
        QCPGraph* hi = plot->addGraph();
        lo->setName(tr("peers' lowest"));
        hi->setName(tr("peers' highest"));
        lo->setPen(QPen(peer, 1));
        hi->setPen(QPen(peer, 1));
        hi->setBrush(QColor(150, 150, 150, 45));
        hi->setChannelFillGraph(lo);
        lo->setData(f.bandX, f.bandLo, true);
        hi->setData(f.bandX, f.bandHi, true);
    }
    for (const FocusedLine& p : f.peers) {
        QCPGraph* g = plot->addGraph();
        g->setPen(QPen(peer, 1));
        g->setName(p.name);
        g->setData(p.x, p.y, true);
    }
    if (!f.bandX.isEmpty()) {
        QCPGraph* mid = plot->addGraph();
        mid->setName(tr("peers' median"));
        mid->setPen(QPen(QColor(90, 90, 90), 1.2, Qt::DashLine));
        mid->setData(f.bandX, f.bandMid, true);
    }
    QCPGraph* g = plot->addGraph();
    g->setName(f.series.name);
    g->setPen(QPen(style::levelColor(style::Root), 2.5));
    g->setData(f.series.x, f.series.y, true);
    // The item's sample, and the verdict's time when it is another.
    auto mark = [plot](int64_t ns, const QPen& pen) {
        auto* l = new QCPItemStraightLine(plot);
        l->setPen(pen);
        l->point1->setCoords(seconds(ns), 0);
        l->point2->setCoords(seconds(ns), 1);
    };
    if (f.target.pointNs != kNoTime)
        mark(f.target.pointNs, QPen(style::levelColor(style::Root), 1, Qt::DashLine));
    if (f.target.verdictNs != kNoTime && f.target.verdictNs != f.target.pointNs)
        mark(f.target.verdictNs, QPen(QColor(0, 0, 0, 160), 1, Qt::DotLine));
    const double pad = std::max((f.hi - f.lo) * 0.08, 1e-9);
    plot->yAxis->setRange(f.lo - pad, f.hi + pad);
    addPlot(plot, true);
    m_focused = true;
    const auto& cur = m_focus->current();
    if (cur.startNs != kNoTime && cur.endNs > cur.startNs)
        plot->xAxis->setRange(seconds(cur.startNs), seconds(cur.endNs));
    else if (f.target.pointNs != kNoTime)
        plot->xAxis->setRange(seconds(f.target.pointNs) - 300, seconds(f.target.pointNs) + 300);
    ensureVisible(0, 0);
    emit focusShown();
}

void MetricsPanel::onTimeWindow(qint64 start, qint64 end)
{
    if (start == kNoTime || end <= start)
        return;
    m_syncing = true;
    for (auto& p : m_plots) {
        p.plot->xAxis->setRange(seconds(start), seconds(end));
        p.plot->replot(QCustomPlot::rpQueuedReplot);
    }
    m_syncing = false;
}

void MetricsPanel::onPlotRange(QCustomPlot* plot)
{
    if (m_syncing)
        return;
    const QCPRange r = plot->xAxis->range();
    // Dragging a plot moves the shared window; other views (and plots) follow.
    m_focus->setTimeWindow(static_cast<int64_t>(r.lower * 1e9), static_cast<int64_t>(r.upper * 1e9),
                           FocusState::History::Coalesce);
}

void MetricsPanel::onCursor(qint64 t)
{
    for (auto& p : m_plots) {
        p.cursor->setVisible(t != kNoTime);
        if (t != kNoTime) {
            p.cursor->point1->setCoords(seconds(t), 0);
            p.cursor->point2->setCoords(seconds(t), 1);
        }
        p.plot->layer(QStringLiteral("cursor"))->replot();
    }
}

} // namespace fl
