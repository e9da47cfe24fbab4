// SPDX-License-Identifier: MIT
// faultline [BUNDLE]                      open the workbench (on BUNDLE)
// faultline --service URL [--token-file FILE] [--session ID]
//                                         open the service browser on URL (and session ID's latest result)
// faultline --quiz BUNDLE [--key KEY]     open BUNDLE as an exercise: its verdict hidden until Reveal
// faultline [--baseline HEALTHY] [--history DB] BUNDLE
//                                         with the Baseline tab against HEALTHY, the History tab on DB
// faultline --state FILE|LINK [--token-file FILE]
//                                         open what a state names (File > Copy link: a bundle, or a service
//                                         session's run), at its tab, selection, window and mode
// faultline --screenshot FILE [--notes] [--timings] [--tab PANEL_ID] [--state FILE|LINK]
//           [--step N] [--at TIME] [--quiz [--key KEY]] [--select EVIDENCE_ID] [--window FROM..TO]
//           BUNDLE | --service URL ...
//                                         analyse, build every view, render the window to FILE, exit; with
//                                         --notes, fail (exit 1) when the bundle's notes cannot be stored or
//                                         shown; with --timings (or FAULTLINE_TIMINGS=1), print where the time went
#include "mainwindow.h"
#include "views/history/historypanel.h"
#include "views/workbench/panelregistry.h"
#include "views/workbench/workbenchstate.h"
#include "servicestart.h"

#include "../common/cli_conventions.h"
#include "../common/huge_pages.h"
#include "bundle/iso_time.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

// Milliseconds from the process's creation (which an exec keeps: preferHugePages may have
// started the program once already) to now, to the kernel's tick (10 ms); 0 when unknown.
double msSinceProcessCreated()
{
    std::ifstream in("/proc/self/stat");
    std::string stat;
    std::getline(in, stat);
    const size_t close = stat.rfind(')');  // the command name may hold spaces and parentheses
    if (close == std::string::npos)
        return 0;
    std::istringstream fields(stat.substr(close + 2));
    std::string field;
    unsigned long long startTicks = 0;
    for (int i = 3; i <= 22 && fields >> field; ++i)  // field 22: start time, ticks since boot
        if (i == 22)
            startTicks = std::stoull(field);
    const long hz = sysconf(_SC_CLK_TCK);
    timespec now{};
    if (startTicks == 0 || hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0)
        return 0;
    const double ms = (static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6)
                      - static_cast<double>(startTicks) * 1e3 / static_cast<double>(hz);
    return ms > 0 ? ms : 0;
}

} // namespace

int main(int argc, char** argv)
{
    fl::app::preferHugePages(argv);  // first: it may start the program again
    // Start-up (Qt, the window, the stores) is part of what a user waits for:
    // --timings prints it beside the open's own clock.
    QElapsedTimer sinceStart;
    sinceStart.start();
    const double beforeMain = msSinceProcessCreated();
    // Parsed before QApplication exists, so --help, --version and usage errors work without a display.
    CLI::App cli{"Faultline workbench: root cause of failed distributed GPU jobs, from their logs.", "faultline"};
    fl::cli::applyConventions(cli);
    cli.set_version_flag("--version", std::string("faultline ") + FAULTLINE_VERSION);
    std::string bundleArg, shotArg, tabArg = "timeline", serviceArg, tokenArg, sessionArg, keyArg, selectArg, windowArg;
    bool notesWanted = false, timings = false, quiz = false;
    int stepArg = 0;
    auto* bundleOption = cli.add_option("BUNDLE", bundleArg, "bundle folder or archive to open");
    auto* serviceOption = cli.add_option("--service", serviceArg,
                                         "open the service browser (File > Connect to service) on a faultline-service "
                                         "at URL and list its sessions")
                              ->type_name("URL")
                              ->excludes(bundleOption);
    auto* tokenOption = cli.add_option("--token-file", tokenArg,
                                       "with --service (or --state naming a service session): the file holding the "
                                       "service's bearer token")
                            ->type_name("FILE");
    cli.add_option("--session", sessionArg,
                   "with --service: open the latest result of session ID in the workbench (as Open in workbench)")
        ->type_name("ID")
        ->needs(serviceOption);
    auto* shotOption = cli.add_option("--screenshot", shotArg,
                                      "render the window to FILE once the analysis is done, then exit (1 if it "
                                      "failed); needs BUNDLE or --service (the service browser, or with --session "
                                      "the main window on that result)")
                           ->type_name("FILE");
    cli.add_flag("--notes", notesWanted,
                 "with --screenshot: the bundle's notes are wanted; exit 1 if they cannot be stored (SQLite driver "
                 "missing, no writable folder, unusable file)")
        ->needs(shotOption);
    cli.add_flag("--timings", timings,
                 "print the time of each stage (engine, verdict, each view's job, grab) on standard error; "
                 "FAULTLINE_TIMINGS=1 does the same for an interactive open");
    auto* quizOption = cli.add_flag("--quiz", quiz,
                                    "open BUNDLE as an exercise: verdict, explanation, chain, roles, lane tint and the "
                                    "automatic selection hidden until Reveal (marks: right-click a line)")
                           ->needs(bundleOption);
    cli.add_option("--key", keyArg, "with --quiz: the exercise's key (faultline-cli exercise new / from-bundle); "
                                    "without it the engine's own verdict is the answer")
        ->type_name("KEY")
        ->needs(quizOption);
    std::vector<std::string> panelIds;  // every registry panel (views/workbench/panellist.h)
    for (const fl::PanelSpec& p : fl::workbenchPanels())
        panelIds.push_back(p.id.toStdString());
    cli.add_option("--tab", tabArg, "with --screenshot: the tab to show (side: verdict, explanation, teach, compare, "
                                    "review; centre: timeline, chain, metrics, baseline, history; any panel of the workbench)")
        ->check(CLI::IsMember(panelIds))
        ->needs(shotOption);
    std::string baselineArg, historyArg;
    cli.add_option("--baseline", baselineArg,
                   "compare BUNDLE with HEALTHY, a healthy attempt of the same job (as analyze --baseline): the "
                   "Baseline tab shows what is new and which noise the healthy run printed too")
        ->type_name("HEALTHY")
        ->needs(bundleOption);
    cli.add_option("--history", historyArg,
                   "a history database (faultline-cli collect --history DB): the History tab says whether the job's "
                   "GPUs and nodes failed before")
        ->type_name("DB");
    cli.add_option("--step", stepArg, "with --screenshot: the Teach replay at step N (1 is the first); with --tab "
                                      "verdict or explanation, that tab as known at the step")
        ->type_name("N")
        ->check(CLI::PositiveNumber)
        ->needs(shotOption);
    std::string atArg;
    cli.add_option("--at", atArg, "with --screenshot: the Teach replay shows only what was known at TIME (ISO 8601, "
                                  "UTC unless a zone is given; whole seconds); without --step, at the last step")
        ->type_name("TIME")
        ->needs(shotOption);
    cli.add_option("--select", selectArg, "with --screenshot: select evidence item ID (ev-00019) and open its line")
        ->type_name("EVIDENCE_ID")
        ->needs(shotOption);
    cli.add_option("--window", windowArg, "with --screenshot: the time window FROM..TO (ISO 8601, UTC unless a "
                                          "zone is given)")
        ->type_name("FROM..TO")
        ->needs(shotOption);
    std::string stateArg;
    cli.add_option("--state", stateArg,
                   "open what a state file (File > Copy link writes the same as a faultline:? link) names: its "
                   "bundle or service session, tab, selection, time window and mode")
        ->type_name("FILE|LINK")
        ->excludes(bundleOption)
        ->excludes(serviceOption)
        ->excludes(quizOption);
    cli.footer("Qt's own settings come from the environment (QT_QPA_PLATFORM=offscreen, QT_SCALE_FACTOR, ...).");
    if (const int code = fl::cli::parseCommandLine(cli, argc, argv); code >= 0)
        return code;
    if (tokenOption->count() > 0 && serviceOption->count() == 0 && stateArg.empty()) {
        std::fputs("faultline: --token-file needs --service or --state\n", stderr);
        return 2;
    }
    // An empty window is no picture of anything: say so instead of saving one.
    if (shotOption->count() > 0 && bundleArg.empty() && serviceOption->count() == 0 && stateArg.empty()) {
        std::fputs("faultline: --screenshot needs a BUNDLE or --service URL to show\n", stderr);
        return 2;
    }
    std::optional<std::pair<int64_t, int64_t>> shotWindow;
    if (!windowArg.empty()) {
        const size_t dots = windowArg.find("..");
        const auto from = dots == std::string::npos ? std::nullopt : fl::parseIso8601Ns(windowArg.substr(0, dots));
        const auto to = dots == std::string::npos ? std::nullopt : fl::parseIso8601Ns(windowArg.substr(dots + 2));
        if (!from || !to || *to <= *from) {
            std::fprintf(stderr, "faultline: --window %s: expected FROM..TO, two ISO 8601 times, FROM first\n",
                         windowArg.c_str());
            return 2;
        }
        shotWindow = std::make_pair(*from, *to);
    }
    int64_t shotAt = fl::kNoTime;
    if (!atArg.empty()) {
        const auto at = fl::parseIso8601Ns(atArg);
        if (!at) {
            std::fprintf(stderr, "faultline: --at %s: expected an ISO 8601 time\n", atArg.c_str());
            return 2;
        }
        shotAt = *at;
    }
    std::optional<fl::EvidenceId> shotSelect;
    if (!selectArg.empty()) {
        shotSelect = fl::evidenceIdFromString(selectArg);
        if (!shotSelect) {
            std::fprintf(stderr, "faultline: --select %s: expected an evidence id (ev-00019)\n", selectArg.c_str());
            return 2;
        }
    }

    // A state names what to open: read it now, so a bad file is refused before any window appears.
    std::optional<fl::store::WorkbenchState> state;
    if (!stateArg.empty()) {
        try {
            state = stateArg.rfind("faultline:", 0) == 0 ? fl::store::stateFromLink(stateArg) : fl::store::readState(stateArg);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "faultline: --state %s\n", e.what());
            return 2;
        }
        bundleArg = state->bundle;
        quiz = state->mode == fl::store::StateMode::Quiz && !state->bundle.empty();
        if (state->bundle.empty()) {
            serviceArg = state->service;
            sessionArg = state->session;
        } else if (tokenOption->count() > 0) {
            std::fputs("faultline: --token-file: the state names a bundle, not a service session\n", stderr);
            return 2;
        }
    }

    // Qt gets the program name only: every argument was ours and is parsed.
    int qtArgc = 1;
    QApplication app(qtArgc, argv);
    QApplication::setOrganizationName(QStringLiteral("Faultline"));
    QApplication::setApplicationName(QStringLiteral("faultline"));
    QApplication::setApplicationVersion(QStringLiteral(FAULTLINE_VERSION));
    const QString bundle = QString::fromLocal8Bit(bundleArg.c_str());
    timings = timings || qEnvironmentVariableIntValue("FAULTLINE_TIMINGS") > 0;

    fl::MainWindow window;
    window.resize(1600, 1000);
    window.setBaselinePath(QString::fromLocal8Bit(baselineArg.c_str()));
    if (auto* history = window.workbench()->panelAs<fl::HistoryPanel>(QStringLiteral("history"))) {
        history->setDatabase(QString::fromLocal8Bit(historyArg.c_str()));
        // A past job's result: its bundle is analysed on its own (not against this job's baseline).
        QObject::connect(history, &fl::HistoryPanel::openBundle, &window, [&window](const QString& path) {
            window.setBaselinePath({});
            window.openPath(path);
        });
        QObject::connect(history, &fl::HistoryPanel::openResult, &window,
                         [&window](std::shared_ptr<const fl::Analysis> a, const QString& title) {
                             window.showAnalysis(std::move(a), title);
                             window.statusBar()->showMessage(
                                 QObject::tr("%1: the result collect --history stored (no raw lines: its bundle is not "
                                             "on this machine)").arg(title));
                         });
    }
    std::unique_ptr<fl::ServiceStart> service;
    if (state && !state->service.empty())  // its run, then its tab, selection, window and mode
        service = std::make_unique<fl::ServiceStart>(&window, *state, QString::fromLocal8Bit(tokenArg.c_str()));
    else if (serviceOption->count() > 0)
        service = std::make_unique<fl::ServiceStart>(&window, QString::fromStdString(serviceArg),
                                                     QString::fromLocal8Bit(tokenArg.c_str()),
                                                     QString::fromStdString(sessionArg));
    if (shotOption->count() == 0) {
        if (timings)
            QObject::connect(&window, &fl::MainWindow::analysisFinished, &window,
                             [&window] { std::fputs(qPrintable(window.timingReport()), stderr); });
        window.show();
        if (service) {
            // Failures stay on the browser's status line, as when connecting from the menu.
            service->browser()->show();
            service->start();
        } else if (state)
            window.openState(*state);
        else if (quiz)
            window.openQuiz(bundle, QString::fromLocal8Bit(keyArg.c_str()));
        else if (!bundle.isEmpty())
            window.openPath(bundle);
        return QApplication::exec();
    }

    // Screenshot mode: no dialogs, a result code that says whether it worked.
    const QString out = QString::fromLocal8Bit(shotArg.c_str());
    window.setProperty("headless", true);
    window.show();
    auto save = [&window, out, notesWanted, tabArg, timings, stepArg, shotAt, shotSelect,
                 timeWindow = shotWindow, &state](bool ok) {
        fl::WorkbenchView* w = window.workbench();
        // The selection first: a metric item opens the Metrics tab, and --tab names the tab shown.
        if (shotSelect)
            w->focus()->selectEvidence(*shotSelect);
        // The Teach replay before the tab: Verdict and Explanation chosen after it keep its step.
        if (!fl::applyReplay(*w, stepArg, shotAt)) {
            std::fputs("faultline: --step/--at: this result has no trace to replay\n", stderr);
            ok = false;
        }
        QWidget* tab = w->panel(QString::fromStdString(tabArg));
        for (QTabWidget* t : {w->centreTabs(), w->sideTabs()})
            if (t->indexOf(tab) >= 0)
                t->setCurrentWidget(tab);
        if (timeWindow)
            w->focus()->setTimeWindow(timeWindow->first, timeWindow->second);
        if (state && ok)  // over the default --tab; a tab or evidence id the result lacks fails the picture
            ok = window.applyState(*state);
        // Let queued layout and replots settle before grabbing (and a metric item's peers be read: metricfocus.h).
        const int settle = 200;
        auto grab = [&window, out, ok, notesWanted, timings] {
            QDir().mkpath(QFileInfo(out).absolutePath());
            QElapsedTimer grabClock;
            grabClock.start();
            const bool saved = window.grab().save(out);
            if (timings)
                std::fprintf(stderr, "%s%-64s %10.1f ms\n", qPrintable(window.timingReport()), "grab + PNG (after a 200 ms settle)",
                             static_cast<double>(grabClock.nsecsElapsed()) / 1e6);
            if (!saved)
                std::fprintf(stderr, "faultline: cannot write %s\n", qPrintable(out));
            if (!ok)
                std::fprintf(stderr, "faultline: %s\n", qPrintable(window.lastError()));
            // The problem itself is already in the log (MainWindow::showNotesProblem).
            const bool notesOk = !notesWanted || window.notesError().isEmpty();
            QApplication::exit(saved && ok && notesOk ? 0 : 1);
        };
        if (w->metrics()->focusPending())
            QObject::connect(w->metrics(), &fl::MetricsPanel::focusShown, &window,
                             [&window, settle, grab] { QTimer::singleShot(settle, &window, grab); }, Qt::SingleShotConnection);
        else
            QTimer::singleShot(settle, &window, grab);
    };
    if (timings)
        std::fprintf(stderr, "%-64s %10.1f ms\n", "start-up (process start to open)",
                     beforeMain + static_cast<double>(sinceStart.nsecsElapsed()) / 1e6);
    if (service) {
        // Without --session the picture is the browser's session list; with it, the main window on the result.
        fl::ServiceBrowser* browser = service->browser();
        browser->resize(1200, 800);
        browser->show();
        QObject::connect(service.get(), &fl::ServiceStart::finished, &window,
                         [browser, out, save, withSession = !sessionArg.empty()](const QString& error) {
                             if (!error.isEmpty()) {
                                 std::fprintf(stderr, "faultline: %s\n", qPrintable(error));
                                 QApplication::exit(1);
                                 return;
                             }
                             if (withSession) {
                                 save(true);
                                 return;
                             }
                             QTimer::singleShot(200, browser, [browser, out] {
                                 QDir().mkpath(QFileInfo(out).absolutePath());
                                 const bool saved = browser->grab().save(out);
                                 if (!saved)
                                     std::fprintf(stderr, "faultline: cannot write %s\n", qPrintable(out));
                                 QApplication::exit(saved ? 0 : 1);
                             });
                         });
        service->start();
        return QApplication::exec();
    }
    QObject::connect(&window, &fl::MainWindow::analysisFinished, &window, save);
    if (state)
        window.openState(*state);
    else if (quiz)
        window.openQuiz(bundle, QString::fromLocal8Bit(keyArg.c_str()));
    else
        window.openPath(bundle);
    return QApplication::exec();
}
