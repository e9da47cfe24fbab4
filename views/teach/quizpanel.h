// SPDX-License-Identifier: MIT
// The exercise side panel of quiz mode: what to do, who is answering (the
// learner's name, default the login name: the score is recorded under it), the
// lines the learner marked as the initiating event, and Reveal, which scores
// them (core/exercise) and then shows the verdict and the Teach tab.
#pragma once

#include "exercise/score.h"

#include <QWidget>

#include <vector>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace fl {

class QuizPanel : public QWidget
{
    Q_OBJECT
public:
    explicit QuizPanel(QWidget* parent = nullptr);

    // Starts over: no marks, nothing revealed.
    void reset();
    void addMark(const QString& file, quint64 line);
    std::vector<exercise::Mark> marks() const;
    // After the reveal: the score and each mark's reason (or why it could not be scored).
    void showScore(const exercise::Score& score);
    void showError(const QString& message);
    // After showScore: where the score was recorded, or why it was not.
    void showRecorded(const QString& message);
    QString learner() const;
    QLineEdit* learnerEdit() const { return m_learner; }

    QListWidget* markList() const { return m_marks; }
    QPushButton* revealButton() const { return m_reveal; }
    QTextBrowser* result() const { return m_result; }

signals:
    void revealRequested();

private:
    QLabel* m_intro;
    QLineEdit* m_learner;
    QListWidget* m_marks;
    QPushButton* m_remove;
    QPushButton* m_reveal;
    QTextBrowser* m_result;
};

} // namespace fl
