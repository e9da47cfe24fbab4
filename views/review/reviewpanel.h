// SPDX-License-Identifier: MIT
// The Review tab (issue #45 item 3): a reviewer (default: the login name) confirms the engine's verdict or
// chooses one candidate event with a required reason; every decision is listed with author and time (the
// notes file keeps them append-only); the discussion of the selected evidence item is a thread of comments
// and replies. The panel makes the records (store::makeDecision, present::ThreadComment); the workbench
// writes them (decisionMade / commentMade) and shows the stored record back (setRecord).
#pragma once

#include "engine/engine.h"
#include "present/report.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTreeView;

namespace fl {

class FocusState;
class ReviewHistoryModel;
class ThreadModel;

class ReviewPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ReviewPanel(FocusState* focus, QWidget* parent = nullptr);

    // Null: nothing to review (a hidden decision, a background open).
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    // The stored record: every decision (oldest first) and every evidence item's comments.
    void setRecord(std::vector<present::ReviewDecision> decisions, std::vector<present::ThreadComment> threads);
    // Why the last write was refused (empty: it was stored).
    void showRefusal(const QString& message);

    QString reviewer() const;
    void setReviewer(const QString& name);
    QString evidenceId() const { return m_evidence; }  // the item whose thread is shown

    ReviewHistoryModel* historyModel() const { return m_history; }
    ThreadModel* threadModel() const { return m_thread; }
    QTreeView* threadView() const { return m_threadView; }
    QComboBox* candidateBox() const { return m_candidate; }
    QLineEdit* reasonEdit() const { return m_reason; }
    QPlainTextEdit* commentEdit() const { return m_comment; }
    QLabel* statusLabel() const { return m_status; }

public slots:
    void confirmVerdict();
    void chooseCandidate();
    // A new thread on the selected item, or (reply) an answer to the selected comment.
    void comment();
    void reply();
    void showThreadOf(const QString& evidenceId);

signals:
    void decisionMade(fl::present::ReviewDecision decision);
    void commentMade(fl::present::ThreadComment comment);

private:
    void decide(present::ReviewChoice choice, const std::string& target);
    void post(int64_t parent);
    void fillThread();

    FocusState* m_focus;
    std::shared_ptr<const Analysis> m_analysis;
    std::vector<present::ThreadComment> m_threads;
    QString m_evidence;
    QLineEdit* m_reviewer;
    QLabel* m_verdict;
    QPushButton* m_confirm;
    QComboBox* m_candidate;
    QLineEdit* m_reason;
    QPushButton* m_choose;
    ReviewHistoryModel* m_history;
    QTableView* m_historyView;
    QLabel* m_threadTitle;
    ThreadModel* m_thread;
    QTreeView* m_threadView;
    QPlainTextEdit* m_comment;
    QPushButton* m_post;
    QPushButton* m_reply;
    QLabel* m_status;
};

} // namespace fl
