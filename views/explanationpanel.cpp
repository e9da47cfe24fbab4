// SPDX-License-Identifier: MIT
#include "explanationpanel.h"

#include "viewstyle.h"
#include "present/verdict.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace fl {

namespace {
constexpr int kEventRole = Qt::UserRole + 1;

QTreeWidget* makeTree(const QStringList& headers, QWidget* parent)
{
    auto* t = new QTreeWidget(parent);
    t->setHeaderLabels(headers);
    t->setRootIsDecorated(false);
    t->setAlternatingRowColors(true);
    t->setUniformRowHeights(true);
    t->header()->setStretchLastSection(true);
    return t;
}
} // namespace

ExplanationPanel::ExplanationPanel(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_candidates(makeTree({tr("Candidate / why"), tr("Node"), tr("Time (UTC)"), tr("Support")}, this))
    , m_side(new QWidget(this))
    , m_sideLayout(new QHBoxLayout(m_side))
    , m_rules(makeTree({tr("Phase / rule"), tr("Effect"), tr("Count"), tr("Detail")}, this))
{
    m_rules->setRootIsDecorated(true);
    m_sideLayout->setContentsMargins(0, 0, 0, 0);
    m_side->hide();

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(new QLabel(tr("<b>Candidates</b> — initiators the engine weighed"), top));
    topLayout->addWidget(m_side);
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

    auto pick = [this](QTreeWidgetItem* it) {
        if (it && it->data(0, kEventRole).isValid())
            m_focus->selectEvent(it->data(0, kEventRole).toLongLong());
    };
    connect(m_candidates, &QTreeWidget::itemClicked, this, pick);
    connect(m_rules, &QTreeWidget::itemClicked, this, pick);
}

void ExplanationPanel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_candidates->clear();
    m_rules->clear();
    fillSideBySide(Result{});
    if (!analysis)
        return;
    fillCandidates(analysis->result);
    fillSideBySide(analysis->result);
    fillRules(*analysis);
}

void ExplanationPanel::fillCandidates(const Result& r)
{
    for (const Candidate& c : r.candidates) {
        auto* it = new QTreeWidgetItem(m_candidates);
        it->setText(0, style::q(c.title.empty() ? c.symptom : c.title));
        it->setText(1, style::q(c.node) + (c.rank >= 0 ? QStringLiteral(" r%1").arg(c.rank) : QString()));
        it->setText(2, style::timeText(c.timeNs, c.timeBasis, false));
        it->setData(3, Qt::DisplayRole, c.support);
        it->setData(0, kEventRole, static_cast<qint64>(c.event.value));
        // Why it won or lost, on its own full-width line: the panel is narrow
        // and this is the sentence the reader came for.
        auto* why = new QTreeWidgetItem(it);
        why->setText(0, QStringLiteral("→ ") + style::q(present::candidateVerdict(c, r)));
        why->setData(0, kEventRole, static_cast<qint64>(c.event.value));
        why->setForeground(0, QColor(0x55, 0x55, 0x55));
        why->setFirstColumnSpanned(true);
        it->setExpanded(true);
        if (c.chosen) {
            QFont f = it->font(0);
            f.setBold(true);
            for (int col = 0; col < 4; ++col) {
                it->setFont(col, f);
                it->setForeground(col, style::levelColor(style::Root));
            }
        }
    }
    for (int col = 1; col < 4; ++col)
        m_candidates->resizeColumnToContents(col);
    m_candidates->setColumnWidth(0, 240);
}

void ExplanationPanel::fillSideBySide(const Result& r)
{
    while (QLayoutItem* it = m_sideLayout->takeAt(0)) {
        delete it->widget();
        delete it;
    }
    m_sideCount = 0;
    const bool ambiguous = r.status == ResultStatus::Ambiguous && r.candidates.size() >= 2;
    m_side->setVisible(ambiguous);
    if (!ambiguous)
        return;
    // The tied candidates next to each other: what the reader must decide between.
    for (const Candidate& c : r.candidates) {
        if (m_sideCount == 4)
            break;
        auto* box = new QGroupBox(style::q(c.title.empty() ? c.symptom : c.title), m_side);
        auto* l = new QLabel(QStringLiteral("<b>%1</b> / %2<br>%3 %4<br>%5<br>support: %6<br><i>%7</i>")
                                 .arg(style::q(c.domain).toHtmlEscaped(), style::q(c.subDomain).toHtmlEscaped(),
                                      style::q(c.node).toHtmlEscaped(), style::gpuText(c.gpuIndex), style::timeText(c.timeNs, c.timeBasis))
                                 .arg(c.support)
                                 .arg(style::q(present::candidateVerdict(c, r)).toHtmlEscaped()),
                             box);
        l->setWordWrap(true);
        (new QVBoxLayout(box))->addWidget(l);
        m_sideLayout->addWidget(box);
        ++m_sideCount;
    }
}

void ExplanationPanel::fillRules(const Analysis& a)
{
    // Phases in the order they ran (first appearance), rules under them.
    std::vector<std::string> order;
    std::map<std::string, QTreeWidgetItem*> phases;
    auto phaseItem = [&](const std::string& phase) {
        auto it = phases.find(phase);
        if (it != phases.end())
            return it->second;
        auto* item = new QTreeWidgetItem(m_rules);
        item->setText(0, style::q(phase));
        QFont f = item->font(0);
        f.setBold(true);
        item->setFont(0, f);
        item->setExpanded(true);
        phases[phase] = item;
        return item;
    };
    for (const auto& f : a.result.rulesFired) {
        auto* it = new QTreeWidgetItem(phaseItem(f.phase));
        it->setText(0, style::q(f.rule));
        it->setText(1, style::q(f.effect));
        it->setData(2, Qt::DisplayRole, f.count);
    }
    for (const auto& s : a.trace) {
        auto* it = new QTreeWidgetItem(phaseItem(s.phase));
        it->setText(0, QStringLiteral("↳ %1").arg(style::q(s.rule)));
        it->setText(1, style::q(present::traceAction(s)));
        it->setData(2, Qt::DisplayRole, static_cast<qulonglong>(s.events.size()));
        it->setText(3, style::q(s.detail));
        it->setForeground(0, QColor(0x55, 0x55, 0x55));
        if (!s.events.empty())
            it->setData(0, kEventRole, static_cast<qint64>(s.events.front().value));
    }
    m_rules->resizeColumnToContents(0);
    m_rules->resizeColumnToContents(1);
}

} // namespace fl
