// SPDX-License-Identifier: MIT
#include "views/baseline/baselinepanel.h"

#include "engine/engine.h"
#include "present/baseline_text.h"

#include "present/timefmt.h"
#include "views/baseline/attemptaxisdelegate.h"
#include "views/baseline/baselineattempt.h"
#include "views/common/headedtable.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace fl {

BaselinePanel::BaselinePanel(FocusState*, QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_table(new QTableView(this))
    , m_model(new BaselineModel(this))
    , m_axisHeadline(new QLabel(this))
    , m_align(new QComboBox(this))
    , m_axisTable(new QTableView(this))
    , m_axisModel(new AttemptAxisModel(this))
{
    layOutHeadedTable(this, m_headline, m_table, m_model, QStringLiteral("baselineTable"));
    // Both attempts on one time axis, under the table: a row per family, the axis column drawn.
    auto* alignRow = new QHBoxLayout;
    m_axisHeadline->setWordWrap(true);
    m_axisHeadline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_axisHeadline->setObjectName(QStringLiteral("attemptAxisHeadline"));
    alignRow->addWidget(m_axisHeadline, 1);
    alignRow->addWidget(new QLabel(tr("Align at:"), this));
    m_align->setObjectName(QStringLiteral("attemptAlignment"));
    m_align->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_align->setMinimumContentsLength(24);
    alignRow->addWidget(m_align);
    auto* layout = static_cast<QVBoxLayout*>(this->layout());
    layout->addLayout(alignRow);
    m_axisTable->setObjectName(QStringLiteral("attemptAxisTable"));
    m_axisTable->setModel(m_axisModel);
    m_axisTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_axisTable->verticalHeader()->hide();
    m_axisTable->setWordWrap(false);
    m_axisTable->setItemDelegateForColumn(AttemptAxisModel::AxisColumn, new AttemptAxisDelegate(m_axisTable));
    m_axisTable->horizontalHeader()->setStretchLastSection(true);
    m_axisTable->horizontalHeader()->setResizeContentsPrecision(200);
    layout->addWidget(m_axisTable, 1);
    connect(m_align, &QComboBox::activated, this, [this](int i) { (void)alignAt(m_align->itemData(i).toInt()); });
    // Double-click a shared family: both attempts aligned at its first line.
    connect(m_axisTable, &QTableView::doubleClicked, this, [this](const QModelIndex& at) { (void)alignAt(at.row()); });
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
        m_axisModel->setAttempts({}, kNoTime, kNoTime);
        m_axisHeadline->clear();
        m_align->clear();
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
    const auto healthy = m_attemptSource ? m_attemptSource() : nullptr;
    showAxis(*a, healthy && healthy->comparison == a->result.baseline ? healthy.get() : nullptr);
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
    m_axisModel->setAttempts({}, kNoTime, kNoTime);
    m_axisHeadline->clear();
    m_align->clear();
}

void BaselinePanel::showAxis(const Analysis& failed, const BaselineAttempt* healthy)
{
    m_align->clear();
    if (!healthy) {
        m_axisModel->setAttempts({}, kNoTime, kNoTime);
        m_axisHeadline->setText(tr("Both attempts on one time axis need the healthy attempt's own result: open the "
                                   "pair from two folders (File → Open against a baseline…) or from the service's "
                                   "session list (Compare with…); a stored result carries only the comparison."));
        m_align->setEnabled(false);
        return;
    }
    m_axisModel->setAttempts(AttemptAxisModel::rowsOf(failed.result, *failed.result.baseline, healthy->result),
                             attemptStartNs(failed), healthy->startNs);
    m_align->addItem(tr("their starts"), -1);
    for (int r = 0; r < m_axisModel->rowCount(); ++r)
        if (m_axisModel->row(r).here.timed() && m_axisModel->row(r).there.timed())
            m_align->addItem(m_axisModel->row(r).label, r);
    m_align->setEnabled(m_align->count() > 1);
    m_axisTable->resizeColumnToContents(AttemptAxisModel::StatusColumn);
    m_axisTable->resizeColumnToContents(AttemptAxisModel::LabelColumn);
    m_axisTable->setColumnWidth(AttemptAxisModel::LabelColumn, std::min(m_axisTable->columnWidth(AttemptAxisModel::LabelColumn), 420));
    m_axisSource = healthy->source;
    sayAlignment();
}

bool BaselinePanel::alignAt(int row)
{
    if (row < 0)
        m_axisModel->alignAtStart();
    else if (!m_axisModel->alignAt(row))
        return false;
    m_align->setCurrentIndex(std::max(0, m_align->findData(row)));
    sayAlignment();
    return true;
}

void BaselinePanel::sayAlignment()
{
    auto at = [](int64_t ns) { return ns == kNoTime ? tr("an untimed start") : QString::fromStdString(formatTimeUtc(ns)); };
    const auto aligned = m_axisModel->alignedRow();
    m_axisHeadline->setText(
        tr("This attempt and the baseline %1 on one time axis, aligned at %2: %3 here, %4 there.")
            .arg(m_axisSource,
                 aligned ? tr("the first line of %1").arg(m_axisModel->row(*aligned).label) : tr("their starts"),
                 at(m_axisModel->failedOriginNs()), at(m_axisModel->healthyOriginNs())));
}

} // namespace fl
