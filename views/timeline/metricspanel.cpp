// SPDX-License-Identifier: MIT
#include "views/timeline/metricspanel.h"

#include "engine/metric_samples.h"
#include "views/common/viewstyle.h"

#include <QLabel>
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
        auto* titleEl = new QCPTextElement(plot, pp.title, QFont(font().family(), font().pointSize(), QFont::Bold));
        plot->plotLayout()->addElement(0, 0, titleEl);
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
        // Cursor on its own buffered layer: hover repaints only that layer.
        plot->addLayer(QStringLiteral("cursor"), nullptr, QCustomPlot::limAbove);
        plot->layer(QStringLiteral("cursor"))->setMode(QCPLayer::lmBuffered);
        auto* cursor = new QCPItemStraightLine(plot);
        cursor->setLayer(QStringLiteral("cursor"));
        cursor->setPen(QPen(QColor(0, 0, 0, 110)));
        cursor->setVisible(false);
        connect(plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this, plot] { onPlotRange(plot); });
        m_layout->addWidget(plot);
        m_plots.push_back({plot, cursor});
    }
    const auto& cur = m_focus->current();
    if (cur.startNs != kNoTime)
        onTimeWindow(cur.startNs, cur.endNs);
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
