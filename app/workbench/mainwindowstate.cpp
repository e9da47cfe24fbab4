// SPDX-License-Identifier: MIT
// MainWindow's shareable state (File → Copy link, faultline --state) and its exercises (File → Exercises…,
// New exercise…, Open exercise…): the state is core's (store/state_file.h), how it maps onto the views is
// workbenchstate.h; exercises are made and scored by core/exercise.
#include "mainwindow.h"

#include "exercise/library.h"
#include "views/service/servicereview.h"
#include "views/teach/exercisesdialog.h"
#include "views/teach/newexercisedialog.h"
#include "views/workbench/workbenchstate.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QStatusBar>

namespace fl {

QString MainWindow::stateLink(QString* why) const
{
    // A service result: its service, session and run stand where a bundle's path would (the token is not
    // part of a link; whoever opens it gives their own, faultline --state LINK --token-file FILE).
    if (const ServiceReview* review = ServiceReview::of(m_workbench); review->active()) {
        store::WorkbenchState s = stateOf(*m_workbench, {});
        s.bundle.clear();
        s.service = review->serviceUrl().toString(QUrl::RemoveUserInfo).toStdString();
        s.session = review->sessionId().toStdString();
        s.run = review->run();
        return QString::fromStdString(store::stateToLink(s));
    }
    if (!m_workbench->analysis() || m_path.isEmpty() || !QFileInfo::exists(m_path)) {
        if (why)
            *why = tr("Nothing to link: open a bundle or a service session first.");
        return {};
    }
    return QString::fromStdString(store::stateToLink(stateOf(*m_workbench, m_path)));
}

void MainWindow::copyLink()
{
    QString why;
    const QString link = stateLink(&why);
    if (link.isEmpty()) {
        statusBar()->showMessage(why);
        return;
    }
    QApplication::clipboard()->setText(link);
    statusBar()->showMessage(tr("Link copied: %1").arg(link));
}

void MainWindow::openState(const store::WorkbenchState& state)
{
    const QString bundle = QString::fromStdString(state.bundle);
    if (state.mode == store::StateMode::Quiz)
        openQuiz(bundle, {});
    else
        openPath(bundle);
    m_pendingState = state;
}

bool MainWindow::applyState(const store::WorkbenchState& state)
{
    const QString problems = fl::applyState(*m_workbench, state);
    if (problems.isEmpty())
        return true;
    m_lastError = tr("state not fully applied: %1").arg(problems);
    statusBar()->showMessage(m_lastError);
    return false;
}

void MainWindow::showExercises()
{
    std::vector<exercise::LibraryEntry> library;
    QString error;
    try {
        library = exercise::readLibrary(exercise::defaultLibraryPath());
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    auto* dialog = new ExercisesDialog(std::move(library), error, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ExercisesDialog::openRequested, this, [this](const QString& folder) { openQuiz(folder, {}); });
    dialog->show();
}

void MainWindow::newExercise()
{
    auto* dialog = new NewExerciseDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewExerciseDialog::created, this, [this](const QString& dir, const QString& key) { openQuiz(dir, key); });
    dialog->show();
}

void MainWindow::openExercise()
{
    if (const auto choice = askExercise(this))
        openQuiz(choice->bundle, choice->key);
}

} // namespace fl
