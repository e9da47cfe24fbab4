// SPDX-License-Identifier: MIT
#include "views/evidence/evidencepanel.h"

#include "views/common/viewstyle.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenu>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace fl {

EvidencePanel::EvidencePanel(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_model(new EvidenceModel(this))
    , m_proxy(new EvidenceFilterProxy(this))
    , m_table(new QTableView(this))
    , m_role(new QComboBox(this))
    , m_node(new QComboBox(this))
    , m_source(new QComboBox(this))
    , m_text(new QLineEdit(this))
{
    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(EvidenceModel::TimeColumn, Qt::AscendingOrder);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, &EvidencePanel::showContextMenu);

    m_role->addItem(tr("All roles"), -1);
    for (auto r : {EvidenceRole::Root, EvidenceRole::Symptom, EvidenceRole::Interesting, EvidenceRole::Context})
        m_role->addItem(style::q(toString(r)), static_cast<int>(r));
    m_text->setPlaceholderText(tr("Search evidence text, symptom, file"));
    m_text->setClearButtonEnabled(true);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(m_role);
    bar->addWidget(m_node);
    bar->addWidget(m_source);
    bar->addWidget(m_text, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);

    auto comboFilter = [](QComboBox* c, auto apply) {
        connect(c, &QComboBox::currentIndexChanged, c, [c, apply](int) { apply(c->currentData()); });
    };
    comboFilter(m_role, [this](const QVariant& v) { m_proxy->setRole(v.toInt()); });
    comboFilter(m_node, [this](const QVariant& v) { m_proxy->setNode(v.toString()); });
    comboFilter(m_source, [this](const QVariant& v) { m_proxy->setSource(v.toInt()); });
    connect(m_text, &QLineEdit::textChanged, m_proxy, &EvidenceFilterProxy::setText);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) {
                if (!m_syncing && cur.isValid())
                    activateRow(cur.row());
            });
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& idx) { activateRow(idx.row()); });
    connect(focus, &FocusState::evidenceSelected, this, &EvidencePanel::onEvidenceSelected);
    connect(focus, &FocusState::eventSelected, this, &EvidencePanel::onEventSelected);
}

void EvidencePanel::setMarking(bool on)
{
    m_marking = on;
    if (on)
        m_role->setCurrentIndex(0); // all roles
    m_role->setVisible(!on);
}

void EvidencePanel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    std::set<std::string> nodes;
    std::set<int> sources;
    if (analysis) {
        for (const auto& e : analysis->result.evidence) {
            if (!e.node.empty())
                nodes.insert(e.node);
            sources.insert(static_cast<int>(e.source));
        }
    }
    const QSignalBlocker b1(m_node), b2(m_source);
    m_node->clear();
    m_node->addItem(tr("All nodes"), QString());
    for (const auto& n : nodes)
        m_node->addItem(style::q(n), style::q(n));
    m_source->clear();
    m_source->addItem(tr("All sources"), -1);
    for (int s : sources)
        m_source->addItem(style::q(toString(static_cast<SourceKind>(s))), s);
    m_proxy->setNode({});
    m_proxy->setSource(-1);
    m_model->setAnalysis(std::move(analysis));
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(EvidenceModel::LocationColumn,
                            std::min(m_table->columnWidth(EvidenceModel::LocationColumn), 220));
    fitNoteColumn();
}

void EvidencePanel::fitNoteColumn()
{
    bool any = false;
    for (int r = 0; r < m_model->rowCount() && !any; ++r)
        any = !m_model->index(r, EvidenceModel::NoteColumn).data().toString().isEmpty();
    if (any)
        m_table->resizeColumnToContents(EvidenceModel::NoteColumn);
    m_table->setColumnWidth(EvidenceModel::NoteColumn,
                            any ? std::clamp(m_table->columnWidth(EvidenceModel::NoteColumn), 48, 140) : 48);
}

const EvidenceItem* EvidencePanel::itemAtRow(int proxyRow) const
{
    const QModelIndex idx = m_proxy->index(proxyRow, 0);
    return idx.isValid() ? m_model->item(m_proxy->mapToSource(idx).row()) : nullptr;
}

void EvidencePanel::showContextMenu(const QPoint& pos)
{
    const QModelIndex idx = m_table->indexAt(pos);
    const EvidenceItem* it = itemAtRow(idx.isValid() ? idx.row() : m_table->currentIndex().row());
    if (!it)
        return;
    const EvidenceId id = it->id;
    const bool hasNote = !m_model->data(m_model->index(m_model->rowOfId(id), 0), EvidenceModel::NoteRole).toString().isEmpty();
    const bool marked = m_model->data(m_model->index(m_model->rowOfId(id), 0), EvidenceModel::BookmarkedRole).toBool();
    QMenu menu(this);
    if (m_marking) {
        const QString file = style::q(it->file);
        const quint64 line = it->ref.line;
        menu.addAction(tr("Mark as the initiating event"), this, [this, file, line] { emit markRequested(file, line); });
        menu.addSeparator();
    }
    menu.addAction(hasNote ? tr("Edit note…") : tr("Add note…"), this, [this, id] { emit noteRequested(id); });
    if (hasNote)
        menu.addAction(tr("Remove note"), this, [this, id] { emit noteRemoveRequested(id); });
    menu.addAction(marked ? tr("Remove bookmark from %1:%2").arg(style::q(it->file)).arg(it->ref.line)
                          : tr("Bookmark line %1:%2").arg(style::q(it->file)).arg(it->ref.line),
                   this, [this, id] { emit bookmarkToggleRequested(id); });
    menu.exec(m_table->viewport()->mapToGlobal(pos));
}

void EvidencePanel::activateRow(int proxyRow)
{
    const QModelIndex idx = m_proxy->index(proxyRow, 0);
    if (!idx.isValid())
        return;
    const EvidenceItem* it = m_model->item(m_proxy->mapToSource(idx).row());
    if (!it)
        return;
    QString lane = style::q(it->node);
    if (it->rank >= 0)
        lane += QLatin1Char('/') + QString::number(it->rank);
    m_focus->selectEvidence(it->id, it->event, lane);
}

void EvidencePanel::onEvidenceSelected(std::optional<EvidenceId> evidence)
{
    const QModelIndex idx = m_proxy->mapFromSource(m_model->index(evidence ? m_model->rowOfId(*evidence) : -1, 0));
    const QSignalBlocker block(m_table->selectionModel());
    m_syncing = true;
    if (idx.isValid()) {
        m_table->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(idx);
    } else {
        m_table->clearSelection();
    }
    m_syncing = false;
    m_table->viewport()->update();
}

void EvidencePanel::onEventSelected(std::optional<EventId> event)
{
    // Selecting an event elsewhere (timeline, graph) shows its first evidence
    // row here, without opening the raw viewer: that only follows an evidence pick.
    if (!event)
        return;
    QModelIndex best;
    for (int row : m_model->rowsOfEvent(*event)) {
        const QModelIndex idx = m_proxy->mapFromSource(m_model->index(row, 0));
        if (idx.isValid() && (!best.isValid() || idx.row() < best.row()))
            best = idx;
    }
    if (!best.isValid())
        return;
    const QSignalBlocker block(m_table->selectionModel());
    m_table->selectionModel()->setCurrentIndex(best, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(best);
    m_table->viewport()->update();
}

void EvidencePanel::step(int delta)
{
    const int n = m_proxy->rowCount();
    if (n == 0)
        return;
    const int cur = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : (delta > 0 ? -1 : n);
    const int next = ((cur + delta) % n + n) % n;
    m_table->setCurrentIndex(m_proxy->index(next, 0));
    activateRow(next);
}

void EvidencePanel::selectNext()
{
    step(1);
}

void EvidencePanel::selectPrevious()
{
    step(-1);
}

} // namespace fl
