// SPDX-License-Identifier: MIT
// MainWindow's shareable state (File → Copy link, faultline --state) and the exercise library (File →
// Exercises…): the state is core's (store/state_file.h), how it maps onto the views is workbenchstate.h.
#include "mainwindow.h"

#include "exercise/library.h"
#include "views/teach/exercisesdialog.h"
#include "views/workbench/workbenchstate.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QStatusBar>

namespace fl {

QString MainWindow::stateLink(QString* why) const
{
    if (!m_workbench->analysis() || m_path.isEmpty() || !QFileInfo::exists(m_path)) {
        if (why)
            *why = tr("Nothing to link: open a bundle first (a service result is linked by its session).");
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

} // namespace fl
