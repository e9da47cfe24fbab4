// SPDX-License-Identifier: MIT
// WorkbenchView's exercise (quiz mode): which panels are on screen follows each
// PanelSpec's QuizRole; setAnalysis empties and skips the hidden ones.
#include "views/workbench/workbenchview.h"

#include "exercise/library.h"
#include "exercise/quiz.h"
#include "exercise/record.h"
#include "exercise/score.h"

#include <QSplitter>
#include <QTabWidget>

namespace fl {

bool WorkbenchView::panelShown(const PanelSpec& spec) const
{
    switch (spec.quiz) {
    case QuizRole::Neutral: return true;
    case QuizRole::Decision: return !quizHidesVerdict();
    case QuizRole::Exercise: return m_quizFull != nullptr;
    }
    return true;
}

void WorkbenchView::applyExercise()
{
    // Tabs are laid out again in list order; a widget out of its area stays this view's child, out of sight.
    for (QTabWidget* tabs : {m_side, m_centre})
        while (tabs->count() > 0)
            tabs->removeTab(0);
    const auto& specs = workbenchPanels();
    int bottomAt = 0;
    for (size_t i = 0; i < specs.size(); ++i) {
        QWidget* w = m_panels[i];
        const bool shown = panelShown(specs[i]);
        if (!shown) {
            w->setParent(this);
            w->hide();
        } else if (specs[i].area == PanelArea::Side) {
            m_side->addTab(w, specs[i].title);
        } else if (specs[i].area == PanelArea::Centre) {
            m_centre->addTab(w, specs[i].title);
        } else {
            m_bottom->insertWidget(bottomAt, w);  // moves it when it is there already
            m_bottom->setStretchFactor(bottomAt++, 1);
            w->show();
        }
        if (specs[i].exercise)
            specs[i].exercise(w, quizHidesVerdict());
    }
}

void WorkbenchView::setQuiz(std::shared_ptr<const Analysis> full, std::optional<exercise::ExerciseKey> key,
                            ViewJobs::Mode mode)
{
    m_quizFull = std::move(full);
    m_quizKey = std::move(key);
    m_revealed = false;
    applyExercise();
    setAnalysis(m_quizFull ? std::make_shared<const Analysis>(exercise::quizAnalysis(*m_quizFull)) : nullptr, mode);
}

void WorkbenchView::endQuiz()
{
    if (!m_quizFull)
        return;
    m_quizFull.reset();
    m_quizKey.reset();
    m_revealed = false;
    applyExercise();
}

void WorkbenchView::reveal()
{
    if (!m_quizFull || m_revealed)
        return;
    if (!m_quizKey)
        m_quizKey = exercise::buildKey(*m_quizFull, exercise::labelOfEngine(m_quizFull->result), m_quizFull->bundle.root);
    exercise::Score score;
    try {
        score = exercise::scoreMarks(*m_quizKey, quiz()->marks(), "the exercise key");
    } catch (const std::exception& e) {
        quiz()->showError(QString::fromStdString(e.what()));
        return;
    }
    quiz()->showScore(score);
    recordScore(score);
    m_revealed = true;
    applyExercise();
    // The replay starts at step 1, where nothing is decided: no start selection (it is the root's line).
    m_revealing = true;
    setAnalysis(m_quizFull, ViewJobs::Mode::Inline);
    m_revealing = false;
    m_side->setCurrentWidget(stepper());
}

void WorkbenchView::recordScore(const exercise::Score& score)
{
    const QString learner = quiz()->learner();
    if (m_scoresPath.isEmpty() || learner.isEmpty()) {
        quiz()->showRecorded(learner.isEmpty() ? tr("Score not kept: no learner name.") : tr("Score not kept: no place for scores."));
        return;
    }
    // Under the library's id (the bundle folder's name), where File → Exercises… looks for past scores.
    const std::string id = exercise::exerciseIdOf(m_quizKey->bundle.empty() ? m_quizFull->bundle.root : m_quizKey->bundle);
    std::string error;
    if (exercise::recordScore(m_scoresPath.toStdString(), learner.toStdString(), id, score, error))
        quiz()->showRecorded(tr("Score kept for %1 on %2 (File → Exercises… lists it).").arg(learner, QString::fromStdString(id)));
    else
        quiz()->showRecorded(tr("Score not kept: %1").arg(QString::fromStdString(error)));
}

} // namespace fl
