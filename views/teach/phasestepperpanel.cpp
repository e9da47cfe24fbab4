// SPDX-License-Identifier: MIT
#include "views/teach/phasestepperpanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace fl {

PhaseStepperPanel::PhaseStepperPanel(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_model(new PhaseStepModel(this))
    , m_rows(new TraceStepModel(this))
    , m_phaseList(new QTreeView(this))
    , m_phase(new QLabel(this))
    , m_description(new QLabel(this))
    , m_counts(new QLabel(this))
    , m_items(new QTreeView(this))
    , m_first(new QPushButton(tr("« First"), this))
    , m_prev(new QPushButton(tr("‹ Prev"), this))
    , m_next(new QPushButton(tr("Next ›"), this))
    , m_last(new QPushButton(tr("Last »"), this))
    , m_clock(new ReplayClock(this))
{
    QFont f = m_phase->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_phase->setFont(f);
    m_description->setWordWrap(true);
    m_counts->setWordWrap(true);
    m_counts->setTextFormat(Qt::RichText);
    m_items->setModel(m_rows);
    m_items->setRootIsDecorated(false);
    m_items->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_items->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_items->setAlternatingRowColors(true);
    m_items->setUniformRowHeights(true);
    m_items->header()->setStretchLastSection(true);

    // Every phase at a glance, the current one selected: a click goes there.
    m_phaseList->setModel(m_model);
    m_phaseList->setRootIsDecorated(false);
    m_phaseList->setUniformRowHeights(true);
    m_phaseList->setAlternatingRowColors(true);
    m_phaseList->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_phaseList->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_phaseList->setSelectionMode(QAbstractItemView::SingleSelection);
    m_phaseList->header()->setStretchLastSection(false);
    m_phaseList->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_phaseList->header()->setSectionResizeMode(PhaseStepModel::PhaseColumn, QHeaderView::Stretch);

    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {m_first, m_prev, m_next, m_last})
        buttons->addWidget(b);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(buttons);
    layout->addWidget(m_clock);
    layout->addWidget(m_phaseList);
    layout->addWidget(m_phase);
    layout->addWidget(m_description);
    layout->addWidget(m_counts);
    layout->addWidget(m_items, 1);

    connect(m_first, &QPushButton::clicked, this, &PhaseStepperPanel::first);
    connect(m_prev, &QPushButton::clicked, this, &PhaseStepperPanel::previous);
    connect(m_next, &QPushButton::clicked, this, &PhaseStepperPanel::next);
    connect(m_last, &QPushButton::clicked, this, &PhaseStepperPanel::last);
    connect(m_phaseList->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    setStep(current.row());
            });
    connect(m_items, &QTreeView::clicked, this, [this](const QModelIndex& index) {
        if (const QVariant event = index.data(TraceStepModel::EventRole); event.isValid())
            m_focus->selectEvent(EventId(event.toUInt()));
    });
    setAnalysis(nullptr);
}

void PhaseStepperPanel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    PhaseSteps built;
    m_rows->setAnalysis(m_analysis);
    if (m_analysis)
        built.build(*m_analysis);
    m_index = -1;
    m_model->setSteps(std::move(built));
    // The clock scrubs the result's window, else the span of its events.
    int64_t from = kNoTime, to = kNoTime;
    if (m_analysis) {
        from = m_analysis->result.windowStartNs;
        to = m_analysis->result.windowEndNs;
        if (from == kNoTime || to <= from)
            for (const SymptomEvent& e : m_analysis->result.events)
                if (e.time.known() && e.time.basis != TimeBasis::BootRelative) {
                    from = from == kNoTime ? e.time.ns : std::min(from, e.time.ns);
                    to = to == kNoTime ? e.time.ns : std::max(to, e.time.ns);
                }
    }
    m_clock->setSpan(from, to);
    // The narrow side panel shows each phase and how many events it touched; the kinds of change are the
    // counts line under it. (Again after each reset: a header may forget hidden sections.)
    for (int c = PhaseStepModel::FirstChangeColumn; c < m_model->columnCount(); ++c)
        m_phaseList->setColumnHidden(c, true);
    // Tall enough for every phase (about ten), no taller: the step's changes below need the room.
    const int rows = std::min(m_model->rowCount(), 12);
    m_phaseList->setFixedHeight(m_phaseList->header()->sizeHint().height() + 2 * m_phaseList->frameWidth() +
                                rows * (m_phaseList->sizeHintForRow(0) > 0 ? m_phaseList->sizeHintForRow(0) : fontMetrics().height() + 2));
    setStep(0);
}

void PhaseStepperPanel::setHighlighting(bool on)
{
    m_highlighting = on;
    if (!on)
        m_focus->setHighlight({});
    else if (m_index >= 0)
        m_focus->setHighlight(steps().step(m_index).touched);
}

void PhaseStepperPanel::setStep(int index)
{
    if (steps().count() == 0) {
        m_index = -1;
        show();
        return;
    }
    index = std::clamp(index, 0, steps().count() - 1);
    if (index == m_index)
        return;
    m_index = index;
    show();
    emit stepChanged(m_index);
}

QString PhaseStepperPanel::phaseText() const
{
    if (m_index < 0)
        return tr("No analysis loaded");
    return tr("%1 / %2 · %3").arg(m_index + 1).arg(steps().count()).arg(steps().step(m_index).phase);
}

QString PhaseStepperPanel::countsText() const
{
    if (m_index < 0)
        return {};
    const auto& s = steps().step(m_index);
    QStringList parts;
    for (int c = 0; c < PhaseSteps::ChangeCount; ++c)
        if (!s.events[static_cast<size_t>(c)].empty() || c != PhaseSteps::Other)
            parts << QStringLiteral("%1 %2").arg(PhaseSteps::changeName(static_cast<PhaseSteps::Change>(c)))
                         .arg(s.events[static_cast<size_t>(c)].size());
    return parts.join(QStringLiteral(" · "));
}

void PhaseStepperPanel::show()
{
    const bool have = m_index >= 0;
    m_rows->setSteps(have ? steps().step(m_index).items : std::vector<const TraceStep*>{});
    if (have && m_phaseList->currentIndex().row() != m_index)  // a button moved: the list follows (setStep ignores the echo)
        m_phaseList->setCurrentIndex(m_model->index(m_index, PhaseStepModel::PhaseColumn));
    m_first->setEnabled(have && m_index > 0);
    m_prev->setEnabled(have && m_index > 0);
    m_next->setEnabled(have && m_index + 1 < steps().count());
    m_last->setEnabled(have && m_index + 1 < steps().count());
    m_phase->setText(phaseText());
    if (!have) {
        m_description->clear();
        m_counts->clear();
        m_focus->setHighlight({});
        return;
    }
    const auto& s = steps().step(m_index);
    m_description->setText(PhaseSteps::phaseDescription(s.phase));
    m_counts->setText(s.items.empty() ? tr("<i>Nothing changed in this phase.</i>")
                                      : tr("<b>%1</b> events touched: %2").arg(s.touched.size()).arg(countsText().toHtmlEscaped()));
    for (int c = 0; c < TraceStepModel::DetailColumn; ++c)
        m_items->resizeColumnToContents(c);
    // The panel is narrow: the rule id and events are cut, the tooltips hold them whole.
    m_items->setColumnWidth(TraceStepModel::RuleColumn, std::min(m_items->columnWidth(TraceStepModel::RuleColumn), 150));
    m_items->setColumnWidth(TraceStepModel::EventsColumn, std::min(m_items->columnWidth(TraceStepModel::EventsColumn), 260));
    if (m_highlighting)
        m_focus->setHighlight(s.touched);
}

} // namespace fl
