// SPDX-License-Identifier: MIT
// faultline [BUNDLE]                      open the workbench (on BUNDLE)
// faultline --screenshot FILE [--notes] [BUNDLE]
//                                         analyse, render the window to FILE, exit; with --notes, fail
//                                         (exit 1) when the bundle's notes cannot be stored or shown
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Faultline"));
    QApplication::setApplicationName(QStringLiteral("faultline"));
    QApplication::setApplicationVersion(QStringLiteral(FAULTLINE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Root cause of failed distributed GPU jobs, from their logs."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption shot(QStringLiteral("screenshot"), QStringLiteral("Render the window to FILE once the analysis is done, then exit."),
                            QStringLiteral("FILE"));
    parser.addOption(shot);
    QCommandLineOption notes(QStringLiteral("notes"),
                             QStringLiteral("With --screenshot: the bundle's notes are wanted; exit 1 if they cannot be "
                                            "stored (SQLite driver missing, no writable folder, unusable file)."));
    parser.addOption(notes);
    parser.addPositionalArgument(QStringLiteral("bundle"), QStringLiteral("Bundle folder or archive to open."), QStringLiteral("[BUNDLE]"));
    parser.process(app);
    const QString bundle = parser.positionalArguments().value(0);

    fl::MainWindow window;
    window.resize(1600, 1000);
    if (!parser.isSet(shot)) {
        window.show();
        if (!bundle.isEmpty())
            window.openPath(bundle);
        return QApplication::exec();
    }

    // Screenshot mode: no dialogs, a result code that says whether it worked.
    const QString out = parser.value(shot);
    window.setProperty("headless", true);
    window.show();
    const bool notesWanted = parser.isSet(notes);
    auto save = [&window, out, notesWanted](bool ok) {
        // Let queued layout and replots settle before grabbing.
        QTimer::singleShot(200, &window, [&window, out, ok, notesWanted] {
            QDir().mkpath(QFileInfo(out).absolutePath());
            const bool saved = window.grab().save(out);
            if (!saved)
                std::fprintf(stderr, "faultline: cannot write %s\n", qPrintable(out));
            if (!ok)
                std::fprintf(stderr, "faultline: %s\n", qPrintable(window.lastError()));
            // The problem itself is already in the log (MainWindow::showNotesProblem).
            const bool notesOk = !notesWanted || window.notesError().isEmpty();
            QApplication::exit(saved && ok && notesOk ? 0 : 1);
        });
    };
    QObject::connect(&window, &fl::MainWindow::analysisFinished, &window, save);
    if (bundle.isEmpty())
        save(true);
    else
        window.openPath(bundle);
    return QApplication::exec();
}
