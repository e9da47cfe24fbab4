// SPDX-License-Identifier: MIT
#include "views/review/reviewpanel.h"

#include "present/compare.h"
#include "present/exercise_text.h"
#include "store/review_store.h"
#include "views/common/focusstate.h"
#include "views/common/viewstyle.h"
#include "views/models/reviewmodels.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

namespace fl {

namespace {
// Threads are keyed by the evidence id's text, as the notes store keeps them.
QString evidenceText(std::optional<EvidenceId> id)
{
    return id ? QString::fromStdString(toString(*id)) : QString();
}
// A comment as tall as its text wrapped at its column's width: a tree asks a delegate for a row's height
// without the width the column has, so the stock one gives one line and the rest is cut off.
class WrappingDelegate : public QStyledItemDelegate
{
public:
    explicit WrappingDelegate(QTreeView* view)
        : QStyledItemDelegate(view)
        , m_view(view)
    {
    }
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QStyleOptionViewItem o = option;
        initStyleOption(&o, index);
        int depth = 0;
        for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
            ++depth;
        const int width = m_view->columnWidth(index.column()) - (index.column() == 0 ? (depth + 1) * m_view->indentation() : 0) - 8;
        if (width <= 0 || o.text.isEmpty())
            return QStyledItemDelegate::sizeHint(option, index);
        const QRect text = o.fontMetrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, o.text);
        return {width, std::max(text.height() + 4, QStyledItemDelegate::sizeHint(option, index).height())};
    }

private:
    QTreeView* m_view;
};

} // namespace

ReviewPanel::ReviewPanel(FocusState* focus, QWidget* parent)
    : QWidget(parent)
    , m_focus(focus)
    , m_reviewer(new QLineEdit(QString::fromStdString(store::loginName()), this))
    , m_verdict(new QLabel(this))
    , m_confirm(new QPushButton(tr("Confirm the engine's verdict"), this))
    , m_candidate(new QComboBox(this))
    , m_reason(new QLineEdit(this))
    , m_choose(new QPushButton(tr("Choose this candidate"), this))
    , m_history(new ReviewHistoryModel(this))
    , m_historyView(new QTableView(this))
    , m_threadTitle(new QLabel(this))
    , m_thread(new ThreadModel(this))
    , m_threadView(new QTreeView(this))
    , m_comment(new QPlainTextEdit(this))
    , m_post(new QPushButton(tr("Comment"), this))
    , m_reply(new QPushButton(tr("Reply"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("reviewPanel"));
    m_reviewer->setPlaceholderText(tr("your name"));
    m_reason->setPlaceholderText(tr("why (required to choose)"));
    m_verdict->setWordWrap(true);
    m_status->setWordWrap(true);
    m_threadTitle->setWordWrap(true);
    m_comment->setPlaceholderText(tr("A comment on the selected evidence item"));
    m_comment->setMaximumHeight(70);
    m_candidate->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_candidate->setMinimumContentsLength(16);

    auto* decision = new QGroupBox(tr("Decision"), this);
    auto* form = new QFormLayout(decision);
    form->addRow(tr("Reviewer:"), m_reviewer);
    form->addRow(m_verdict);
    form->addRow(m_confirm);
    form->addRow(tr("Candidate:"), m_candidate);
    form->addRow(tr("Reason:"), m_reason);
    form->addRow(m_choose);

    m_historyView->setModel(m_history);
    m_historyView->verticalHeader()->hide();
    // Every column on screen in a side tab: the long ones share the width and wrap.
    m_historyView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_historyView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_historyView->setWordWrap(true);
    m_historyView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    for (int c : {ReviewHistoryModel::NamesColumn, ReviewHistoryModel::ReasonColumn})
        m_historyView->horizontalHeader()->setSectionResizeMode(c, QHeaderView::Stretch);
    m_historyView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    m_threadView->setModel(m_thread);
    m_threadView->setHeaderHidden(false);
    m_threadView->setWordWrap(true);
    m_threadView->setTextElideMode(Qt::ElideNone);
    m_threadView->setItemDelegateForColumn(ThreadModel::TextColumn, new WrappingDelegate(m_threadView));
    m_threadView->setUniformRowHeights(false);
    m_threadView->header()->setSectionResizeMode(ThreadModel::TextColumn, QHeaderView::Stretch);
    m_threadView->header()->setStretchLastSection(false);
    m_threadView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // A tree lays its rows out once: the comment column stretching with the panel leaves each row one line high,
    // its text cut off. Lay them out again for the new width.
    connect(m_threadView->header(), &QHeaderView::sectionResized, m_threadView, [this](int section) {
        if (section == ThreadModel::TextColumn)
            m_threadView->doItemsLayout();
    });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_post);
    buttons->addWidget(m_reply);
    buttons->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(decision);
    layout->addWidget(new QLabel(tr("History (every decision is kept):"), this));
    layout->addWidget(m_historyView, 1);
    layout->addWidget(m_threadTitle);
    layout->addWidget(m_threadView, 2);
    layout->addWidget(m_comment);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(m_confirm, &QPushButton::clicked, this, &ReviewPanel::confirmVerdict);
    connect(m_choose, &QPushButton::clicked, this, &ReviewPanel::chooseCandidate);
    connect(m_post, &QPushButton::clicked, this, &ReviewPanel::comment);
    connect(m_reply, &QPushButton::clicked, this, &ReviewPanel::reply);
    connect(m_threadView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this] { m_reply->setEnabled(m_threadView->currentIndex().isValid()); });
    if (m_focus)
        connect(m_focus, &FocusState::evidenceSelected, this,
                [this](std::optional<EvidenceId> id) { showThreadOf(evidenceText(id)); });
    setAnalysis(nullptr);
}

void ReviewPanel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    m_analysis = std::move(analysis);
    m_candidate->clear();
    if (m_analysis) {
        const Result& r = m_analysis->result;
        std::vector<std::string> nodes;
        if (r.rootCause)
            nodes.push_back(r.rootCause->node);
        m_verdict->setText(
            tr("Engine: %1").arg(style::q(present::verdictBrief(r.status, r.domain, r.subDomain, nodes))));
        // The same A, B … as the Compare tab and the timeline.
        for (const present::CompareColumn& c : present::compareCandidates(r, 0).columns)
            m_candidate->addItem(QStringLiteral("%1  %2 @ %3").arg(style::q(c.label), style::q(c.title), style::q(c.place)),
                                 QString::number(c.event.value));
    } else {
        m_verdict->clear();
    }
    m_confirm->setEnabled(m_analysis != nullptr);
    m_choose->setEnabled(m_candidate->count() > 0);
    m_candidate->setEnabled(m_candidate->count() > 0);
    m_status->clear();
    showThreadOf(m_focus && m_analysis ? evidenceText(m_focus->current().evidence) : QString());
}

void ReviewPanel::setRecord(std::vector<present::ReviewDecision> decisions, std::vector<present::ThreadComment> threads)
{
    m_history->setDecisions(std::move(decisions));
    if (m_history->rowCount() > 0)
        m_historyView->scrollToBottom();
    m_threads = std::move(threads);
    fillThread();
}

void ReviewPanel::showRefusal(const QString& message)
{
    m_status->setText(message);
}

QString ReviewPanel::reviewer() const
{
    return m_reviewer->text().trimmed();
}

void ReviewPanel::setReviewer(const QString& name)
{
    m_reviewer->setText(name);
}

void ReviewPanel::confirmVerdict()
{
    decide(present::ReviewChoice::Confirm, {});
}

void ReviewPanel::chooseCandidate()
{
    if (m_candidate->currentIndex() >= 0)
        decide(present::ReviewChoice::Choose, m_candidate->currentData().toString().toStdString());
}

void ReviewPanel::decide(present::ReviewChoice choice, const std::string& target)
{
    if (!m_analysis)
        return;
    present::ReviewDecision d;
    std::string error;
    if (reviewer().isEmpty())
        error = tr("A decision needs a reviewer's name.").toStdString();
    else if (choice == present::ReviewChoice::Choose && m_reason->text().trimmed().isEmpty())
        error = tr("Choosing a candidate needs a reason: the next reader must see why.").toStdString();
    else if (store::makeDecision(m_analysis->result, choice, target, m_reason->text().trimmed().toStdString(),
                                 reviewer().toStdString(), d, error)) {
        m_status->clear();
        emit decisionMade(d);
        m_reason->clear();
        return;
    }
    m_status->setText(QString::fromStdString(error));
}

void ReviewPanel::comment()
{
    post(0);
}

void ReviewPanel::reply()
{
    const QModelIndex at = m_threadView->currentIndex();
    if (at.isValid())
        post(at.data(ThreadModel::CommentIdRole).toLongLong());
}

void ReviewPanel::post(int64_t parent)
{
    if (m_evidence.isEmpty() || !m_analysis)
        return;
    const QString text = m_comment->toPlainText().trimmed();
    if (reviewer().isEmpty() || text.isEmpty()) {
        m_status->setText(reviewer().isEmpty() ? tr("A comment needs its author's name.") : tr("The comment is empty."));
        return;
    }
    present::ThreadComment c;
    c.parent = parent;
    c.target = m_evidence.toStdString();
    for (const EvidenceItem& item : m_analysis->result.evidence)
        if (toString(item.id) == c.target) {
            c.file = item.file;
            c.line = item.ref.line;
        }
    c.author = reviewer().toStdString();
    c.text = text.toStdString();
    m_status->clear();
    emit commentMade(c);
    m_comment->clear();
}

void ReviewPanel::showThreadOf(const QString& evidenceId)
{
    m_evidence = evidenceId;
    fillThread();
}

void ReviewPanel::fillThread()
{
    std::vector<present::ThreadComment> mine;
    for (const present::ThreadComment& c : m_threads)
        if (style::q(c.target) == m_evidence)
            mine.push_back(c);
    const size_t n = mine.size();
    m_thread->setComments(std::move(mine));
    m_threadView->expandAll();
    m_threadView->resizeColumnToContents(ThreadModel::AuthorColumn);
    m_threadView->resizeColumnToContents(ThreadModel::WhenColumn);
    if (m_evidence.isEmpty())
        m_threadTitle->setText(tr("Discussion: select an evidence item to read or start its thread."));
    else
        m_threadTitle->setText(n == 1 ? tr("Discussion of %1 (1 comment):").arg(m_evidence)
                                      : tr("Discussion of %1 (%2 comments):").arg(m_evidence).arg(n));
    m_post->setEnabled(!m_evidence.isEmpty() && m_analysis);
    m_comment->setEnabled(!m_evidence.isEmpty() && m_analysis);
    m_reply->setEnabled(m_threadView->currentIndex().isValid());
}

} // namespace fl
