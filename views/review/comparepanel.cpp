// SPDX-License-Identifier: MIT
#include "views/review/comparepanel.h"

#include "present/clock_table.h"
#include "present/would_decide.h"
#include "views/common/focusstate.h"
#include "views/common/viewstyle.h"
#include "views/models/comparemodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace fl {

namespace {
// The clock table with the compared candidates' nodes first (10,000 ranks give a thousand rows; the tie is
// about two of them), a node without an estimate listed with the tolerance that widened it.
std::vector<present::ClockRow> candidateClocksFirst(const Result& r, const present::Comparison& c)
{
    std::vector<std::string> nodes;
    for (const auto& col : c.columns)
        nodes.push_back(col.node);
    int64_t tolerance = 0;
    for (const Candidate& cand : r.candidates)
        if (cand.outcome.tied())
            tolerance = std::max(tolerance, cand.outcome.limitNs);
    auto rows = present::clockRows(r, nodes, tolerance);
    std::stable_partition(rows.begin(), rows.end(), [&nodes](const present::ClockRow& row) {
        return std::find(nodes.begin(), nodes.end(), row.node) != nodes.end();
    });
    return rows;
}
} // namespace

ComparePanel::ComparePanel(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_tie(new QLabel(this))
    , m_decide(new QLabel(this))
    , m_zoom(new QPushButton(tr("Zoom timeline to candidates"), this))
    , m_candidateModel(new CompareModel(this))
    , m_clockModel(new ClockTableModel(this))
    , m_candidates(new QTableView(this))
    , m_clocks(new QTableView(this))
{
    setObjectName(QStringLiteral("comparePanel"));
    for (QLabel* l : {m_tie, m_decide}) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_zoom->setEnabled(false);
    connect(m_zoom, &QPushButton::clicked, this, &ComparePanel::zoomToCandidates);

    m_candidates->setModel(m_candidateModel);
    m_candidates->setWordWrap(true);
    m_candidates->setTextElideMode(Qt::ElideNone);
    m_candidates->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_candidates->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_candidates->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_candidates->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);

    m_clocks->setModel(m_clockModel);
    m_clocks->horizontalHeader()->setStretchLastSection(true);
    m_clocks->verticalHeader()->hide();
    m_clocks->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_clocks->setWordWrap(false);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(4, 4, 4, 0);
    topLayout->addWidget(m_tie);
    topLayout->addWidget(m_decide);
    topLayout->addWidget(m_zoom, 0, Qt::AlignLeft);
    topLayout->addWidget(m_candidates, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_clocks);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void ComparePanel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    m_comparison = m_analysis ? present::compareCandidates(m_analysis->result, kMarginNs) : present::Comparison{};
    QString tie = style::q(m_comparison.tieSetting);
    if (m_comparison.omitted > 0)
        tie += QLatin1Char('\n') +
               tr("%n more candidate(s) not shown side by side.", nullptr, static_cast<int>(m_comparison.omitted));
    m_tie->setText(tie);
    QStringList decide;
    if (m_analysis)
        for (const auto& line : present::wouldDecideLines(m_analysis->result))
            decide << tr("Would decide: %1").arg(style::q(line));
    m_decide->setText(decide.join(QLatin1Char('\n')));
    m_decide->setVisible(!decide.isEmpty());
    m_zoom->setEnabled(m_comparison.zoom.bounded());
    m_candidateModel->setColumns(m_comparison.columns);
    m_clockModel->setRows(m_analysis ? candidateClocksFirst(m_analysis->result, m_comparison) : std::vector<present::ClockRow>{});
    m_clocks->resizeColumnsToContents();
    emit comparisonChanged();
}

void ComparePanel::zoomToCandidates()
{
    if (!m_focus || !m_comparison.zoom.bounded())
        return;
    m_focus->setTimeWindow(m_comparison.zoom.earliestNs, m_comparison.zoom.latestNs);
    std::vector<EventId> events;
    for (const auto& c : m_comparison.columns)
        events.push_back(c.event);
    std::sort(events.begin(), events.end());
    m_focus->setHighlight(std::move(events));
    emit zoomed();
}

} // namespace fl
