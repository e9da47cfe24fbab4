// SPDX-License-Identifier: MIT
#include "views/verdict/explanationpanel.h"

#include "views/common/viewstyle.h"
#include "present/verdict.h"
#include "present/would_decide.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace fl {

namespace {
QTreeView* makeTree(ExplanationModel* model, QWidget* parent)
{
    auto* t = new QTreeView(parent);
    t->setModel(model);
    t->setRootIsDecorated(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setAlternatingRowColors(true);
    t->setUniformRowHeights(true);
    t->header()->setStretchLastSection(true);
    // Column widths from the first rows, not from every one of a wide
    // result's thousands of trace steps.
    t->header()->setResizeContentsPrecision(64);
    return t;
}
} // namespace

ExplanationPanel::ExplanationPanel(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_candidateModel(new ExplanationModel({tr("Candidate / why"), tr("Node"), tr("Time (UTC)"), tr("Support")}, this))
    , m_ruleModel(new ExplanationModel({tr("Phase / rule"), tr("Effect"), tr("Count"), tr("Detail")}, this))
    , m_candidates(makeTree(m_candidateModel, this))
    , m_side(new QWidget(this))
    , m_sideLayout(new QHBoxLayout(m_side))
    , m_decide(new QLabel(this))
    , m_rules(makeTree(m_ruleModel, this))
{
    m_rules->setRootIsDecorated(true);
    m_sideLayout->setContentsMargins(0, 0, 0, 0);
    m_side->hide();
    m_decide->setObjectName(QStringLiteral("wouldDecide"));
    m_decide->setWordWrap(true);
    m_decide->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_decide->hide();

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(new QLabel(tr("<b>Candidates</b> — initiators the engine weighed"), top));
    topLayout->addWidget(m_side);
    topLayout->addWidget(m_decide);
    topLayout->addWidget(m_candidates, 1);
    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(new QLabel(tr("<b>Rules fired</b> per phase, with the engine trace"), bottom));
    bottomLayout->addWidget(m_rules, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(bottom);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_candidates, &QTreeView::clicked, this, &ExplanationPanel::pick);
    connect(m_rules, &QTreeView::clicked, this, &ExplanationPanel::pick);
    connect(m_focus, &FocusState::eventSelected, this, &ExplanationPanel::followEvent);
}

void ExplanationPanel::followEvent(std::optional<EventId> event)
{
    // Selection only: clicked() is not emitted, so this never selects back into the focus.
    const QModelIndex i = event ? m_candidateModel->indexOfEvent(*event) : QModelIndex();
    if (!i.isValid()) {
        m_candidates->clearSelection();
        return;
    }
    m_candidates->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_candidates->scrollTo(i);
}

void ExplanationPanel::pick(const QModelIndex& index)
{
    const auto* model = static_cast<const ExplanationModel*>(index.model());
    if (const auto event = model ? model->eventAt(index) : std::nullopt)
        m_focus->selectEvent(*event);
}

void ExplanationPanel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    Prepared p = prepare(analysis.get());
    setPrepared(analysis.get(), std::move(p));
}

ExplanationPanel::Prepared ExplanationPanel::prepare(const Analysis* analysis)
{
    if (!analysis)
        return {};
    return {candidateRows(analysis->result), traceRows(*analysis)};
}

void ExplanationPanel::setPrepared(const Analysis* analysis, Prepared prepared)
{
    // By pointer: `analysis ? analysis->result : Result{}` was a copy of the
    // whole result, 160 ms of CPU on the GUI thread at 10,000 ranks.
    fillSideBySide(analysis ? &analysis->result : nullptr);
    m_candidateModel->setRows(std::move(prepared.candidates));
    bool wall = false, boot = false;
    if (analysis)
        for (const Candidate& c : analysis->result.candidates)
            if (c.time.known())
                (c.time.basis == TimeBasis::BootRelative ? boot : wall) = true;
    m_candidateModel->setHeader(2, style::timeColumnTitle(wall, boot));
    m_ruleModel->setRows(std::move(prepared.trace));
    followEvent(m_focus->current().event);
    // The why-sentences span the narrow panel; everything starts open.
    for (int r = 0; r < m_candidateModel->rowCount(); ++r) {
        const QModelIndex parent = m_candidateModel->index(r, 0);
        for (int c = 0; c < m_candidateModel->rowCount(parent); ++c)
            m_candidates->setFirstColumnSpanned(c, parent, true);
    }
    m_candidates->expandAll();
    m_rules->expandAll();
    for (int col = 1; col < 4; ++col)
        m_candidates->resizeColumnToContents(col);
    m_candidates->setColumnWidth(0, 240);
    m_rules->resizeColumnToContents(0);
    m_rules->resizeColumnToContents(1);
}

void ExplanationPanel::fillSideBySide(const Result* result)
{
    while (QLayoutItem* it = m_sideLayout->takeAt(0)) {
        delete it->widget();
        delete it;
    }
    m_sideCount = 0;
    // What would order the tied candidates, under them: the Verdict tab's list begins with the same lines.
    const std::vector<std::string> deciding = result ? present::wouldDecideLines(*result) : std::vector<std::string>{};
    QString decide;
    if (!deciding.empty()) {
        decide = QStringLiteral("<b>%1:</b><ul style='margin-top:2px'>").arg(style::q(present::missingHeading(*result)).toHtmlEscaped());
        for (const std::string& line : deciding)
            decide += QStringLiteral("<li>%1</li>").arg(style::q(line).toHtmlEscaped());
        decide += QStringLiteral("</ul>");
    }
    m_decide->setText(decide);
    m_decide->setVisible(!decide.isEmpty());
    const bool ambiguous = result && result->status == ResultStatus::Ambiguous && result->candidates.size() >= 2;
    m_side->setVisible(ambiguous);
    if (!ambiguous)
        return;
    const Result& r = *result;
    // The tied candidates next to each other: what the reader must decide between.
    for (const Candidate& c : r.candidates) {
        if (m_sideCount == 4)
            break;
        auto* box = new QGroupBox(style::q(c.title.empty() ? c.symptom : c.title), m_side);
        auto* l = new QLabel(QStringLiteral("<b>%1</b> / %2<br>%3<br>%4<br>support: %5<br><i>%6</i>")
                                 .arg(style::q(toString(c.domain)).toHtmlEscaped(), style::q(c.subDomain).toHtmlEscaped(),
                                      style::q(present::place(c.node, c.gpuIndex, c.pciBus, c.rank)).toHtmlEscaped(),
                                      style::timeText(c.time))
                                 .arg(c.support)
                                 .arg(style::q(present::candidateVerdict(c, r)).toHtmlEscaped()),
                             box);
        l->setWordWrap(true);
        (new QVBoxLayout(box))->addWidget(l);
        m_sideLayout->addWidget(box);
        ++m_sideCount;
    }
}

} // namespace fl
