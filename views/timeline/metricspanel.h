// SPDX-License-Identifier: MIT
// One QCustomPlot per metric name, one graph per node/GPU series, the root
// node's series drawn in red. Shares the timeline's window and hover cursor
// through FocusState.
#pragma once

#include "engine/engine.h"
#include "views/common/focusstate.h"
#include "views/timeline/metricfocus.h"

#include <QScrollArea>
#include <QString>
#include <QVector>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPItemStraightLine;
class QVBoxLayout;

namespace fl {

class MetricsPanel : public QScrollArea
{
    Q_OBJECT
public:
    static constexpr int kMaxGraphsPerPlot = 64;  // beyond this a plot is unreadable and slow

    explicit MetricsPanel(FocusState* focus, QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // The series grouped into plots with their points, built on any thread
    // (the workbench's background job); setPrepared makes the plots.
    struct PreparedGraph {
        QString name;
        QVector<double> x, y;
        size_t index = 0;  // colour
        bool isRoot = false, rootGpu = false;
    };
    struct PreparedPlot {
        QString title;
        std::vector<PreparedGraph> graphs;  // in drawing order
        double lo = 0, hi = 0;
    };
    struct Prepared {
        std::vector<PreparedPlot> plots;
    };
    static Prepared prepare(const Analysis* analysis);
    void setPrepared(std::shared_ptr<const Analysis> analysis, Prepared prepared);

    // The plots of every metric, below the focused one when there is one.
    int plotCount() const { return static_cast<int>(m_plots.size()) - (m_focused ? 1 : 0); }
    QCustomPlot* plot(int i) const { return m_plots[static_cast<size_t>(i + (m_focused ? 1 : 0))].plot; }

    // A metric evidence item: its series at its sample with its peers behind it, in a plot above the others
    // (metricfocus.h), and (`showSample`) the shared window moved to show the sample. False when the item is no metric's or its
    // series is not in the analysis. The plot lands at once when the samples are in memory, else after a
    // background read (focusShown).
    bool focusEvidence(const EvidenceItem& item, bool showSample = true);
    QCustomPlot* focusedPlot() const { return m_focused ? m_plots.front().plot : nullptr; }
    std::optional<EvidenceId> focusedEvidence() const { return m_focusedEvidence; }
    // A focused plot is still being read (focusShown follows).
    bool focusPending() const { return m_focusPending; }

signals:
    void focusShown();

private:
    void showFocused(FocusedPlot focused);
    void dropFocused();
    QCustomPlot* newPlot(const QString& title);
    void addPlot(QCustomPlot* plot, bool first);

    struct Plot {
        QCustomPlot* plot = nullptr;
        QCPItemStraightLine* cursor = nullptr;
    };
    void onTimeWindow(qint64 start, qint64 end);
    void onCursor(qint64 t);
    void onPlotRange(QCustomPlot* plot);

    FocusState* m_focus;
    std::shared_ptr<const Analysis> m_analysis;
    QWidget* m_content;
    QVBoxLayout* m_layout;
    std::vector<Plot> m_plots;
    bool m_syncing = false;
    bool m_focusPending = false;
    bool m_focused = false;                    // m_plots.front() is the focused plot
    std::optional<EvidenceId> m_focusedEvidence;  // asked for (it may still be read)
    quint64 m_focusGeneration = 0;             // a later focus or analysis drops an earlier read's plot
    std::shared_ptr<std::atomic<bool>> m_focusCancel;
};

} // namespace fl
