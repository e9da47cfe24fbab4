// SPDX-License-Identifier: MIT
#include "views/teach/phasestepperpanel.h"

#include "exercise/replay.h"
#include "views/common/viewstyle.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

namespace fl {

namespace {

// Measures a wrapped cell at its column's width (QTreeView asks the delegate with no width, so text never wraps).
class ColumnWidthDelegate : public QStyledItemDelegate
{
public:
    explicit ColumnWidthDelegate(QHeaderView* header) : QStyledItemDelegate(header), m_header(header) {}
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem o(option);
        // A valid rect (a height too) is what makes the style wrap to its width.
        o.rect.setSize(QSize(m_header->sectionSize(index.column()), std::max(o.rect.height(), 1)));
        return QStyledItemDelegate::sizeHint(o, index);
    }

private:
    QHeaderView* m_header;
};

} // namespace

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
    , m_whyNot(new QTextBrowser(this))
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
    // The narrow side panel: what each rule did (the Detail, which names the events) wraps across the width;
    // the rule and the events are in the tooltips.
    m_items->setUniformRowHeights(false);
    m_items->setWordWrap(true);
    m_items->setTextElideMode(Qt::ElideNone);
    m_items->header()->setStretchLastSection(true);
    m_items->setColumnHidden(TraceStepModel::RuleColumn, true);
    m_items->setColumnHidden(TraceStepModel::EventsColumn, true);
    m_items->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_whyNot->setOpenLinks(false);
    m_items->setItemDelegateForColumn(TraceStepModel::DetailColumn, new ColumnWidthDelegate(m_items->header()));
    // A wrapped row's height follows its column's width, which QTreeView does not re-measure on a resize.
    connect(m_items->header(), &QHeaderView::sectionResized, m_items, [this](int logical) {
        if (logical == TraceStepModel::DetailColumn)
            m_items->doItemsLayout();
    });

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
    layout->addWidget(m_items, 2);
    layout->addWidget(m_whyNot, 3);

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
        m_whyNot->clear();
        m_whyNot->hide();
        m_focus->setHighlight({});
        return;
    }
    const auto& s = steps().step(m_index);
    m_description->setText(PhaseSteps::phaseDescription(s.phase));
    m_counts->setText(s.items.empty() ? tr("<i>Nothing changed in this phase.</i>")
                                      : tr("<b>%1</b> events touched: %2").arg(s.touched.size()).arg(countsText().toHtmlEscaped()));
    m_items->resizeColumnToContents(TraceStepModel::ChangeColumn);
    showWhyNot();
    if (m_highlighting)
        m_focus->setHighlight(s.touched);
}

void PhaseStepperPanel::showWhyNot()
{
    const auto& s = steps().step(m_index);
    const std::optional<Phase> phase = phaseFromString(s.phase.toStdString());
    exercise::WhyNotLines lines;
    if (m_analysis && phase) {
        // The trace as this panel holds it (a service result's comes apart from its result).
        std::vector<TraceStep> trace;
        for (int i = 0; i < steps().count(); ++i)
            for (const TraceStep* t : steps().step(i).items)
                trace.push_back(*t);
        lines = exercise::whyNotAt(*m_analysis, trace, *phase, kWhyNotShown);
    }
    if (lines.total == 0) {
        m_whyNot->clear();
        m_whyNot->hide();
        return;
    }
    QString html = QStringLiteral("<b>%1</b><ul style='margin-left:0px; -qt-list-indent:1'>")
                       .arg(tr("Why not the cause — %n event(s) set aside at this step", nullptr, static_cast<int>(lines.total)));
    for (const exercise::WhyNotLine& l : lines.lines)
        html += QStringLiteral("<li>%1</li>").arg(style::q(l.text).toHtmlEscaped());
    html += QStringLiteral("</ul>");
    if (lines.total > lines.lines.size())
        html += QStringLiteral("<p><i>%1</i></p>").arg(tr("+%1 more, not listed").arg(lines.total - lines.lines.size()));
    m_whyNot->setHtml(html);
    m_whyNot->show();
}

} // namespace fl
