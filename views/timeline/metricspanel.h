// SPDX-License-Identifier: MIT
// One QCustomPlot per metric name, one graph per node/GPU series, the root
// node's series drawn in red. Shares the timeline's window and hover cursor
// through FocusState.
#pragma once

#include "engine/engine.h"
#include "views/common/focusstate.h"

#include <QScrollArea>
#include <QString>
#include <QVector>

#include <memory>
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

    int plotCount() const { return static_cast<int>(m_plots.size()); }
    QCustomPlot* plot(int i) const { return m_plots[static_cast<size_t>(i)].plot; }

private:
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
};

} // namespace fl
