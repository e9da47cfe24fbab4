// SPDX-License-Identifier: MIT
#include "views/baseline/baselinepanel.h"

#include "engine/engine.h"
#include "present/baseline_text.h"

#include "views/common/headedtable.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>

#include <algorithm>

namespace fl {

BaselinePanel::BaselinePanel(FocusState*, QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_table(new QTableView(this))
    , m_model(new BaselineModel(this))
{
    layOutHeadedTable(this, m_headline, m_table, m_model, QStringLiteral("baselineTable"));
    m_table->setWordWrap(false);
    // The family's title is what a reader scans; the status and the counts are short.
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(BaselineModel::LabelColumn, QHeaderView::Stretch);
    clear();
}

void BaselinePanel::setAnalysis(const std::shared_ptr<const Analysis>& a)
{
    if (!a || !a->result.baseline) {
        m_model->setRows({});
        m_headline->setText(tr("No baseline: open a failed attempt with --baseline HEALTHY (a healthy attempt of "
                               "the same job) to see what is new in it and which noise the healthy run printed too."));
        return;
    }
    const BaselineComparison& c = *a->result.baseline;
    const present::BaselineText text = present::baselineText(a->result, c);
    QString against = c.workloadId.empty() ? tr("the baseline") : QString::fromStdString(c.workloadId);
    if (c.attempt >= 0)
        against += tr(" attempt %1").arg(c.attempt);
    QString head = tr("Against %1: %2").arg(against, QString::fromStdString(text.summary));
    if (!text.verdict.empty())
        head += QStringLiteral("\n") + QString::fromStdString(text.verdict);
    m_headline->setText(head);
    m_model->setRows(BaselineModel::rowsOf(a->result, c));
    m_table->resizeColumnToContents(BaselineModel::StatusColumn);
    // Places are capped runs of nodes, GPUs and ranks: fitted, but never wider than the title's share.
    m_table->resizeColumnToContents(BaselineModel::PlaceColumn);
    m_table->setColumnWidth(BaselineModel::PlaceColumn, std::min(m_table->columnWidth(BaselineModel::PlaceColumn), 320));
    // A new unknown line's detail names its nodes and file: fitted, it took the label's room (10,000 ranks).
    m_table->resizeColumnToContents(BaselineModel::DetailColumn);
    m_table->setColumnWidth(BaselineModel::DetailColumn, std::min(m_table->columnWidth(BaselineModel::DetailColumn), 360));
}

void BaselinePanel::clear()
{
    m_headline->clear();
    m_model->setRows({});
}

} // namespace fl
