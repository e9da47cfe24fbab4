// SPDX-License-Identifier: MIT
// faultline --service URL [--token-file FILE] [--session ID]: the service browser
// connected from the command line, as File → Connect to service… does by hand,
// and, with a session, its latest result opened in the main window. A state
// naming a service session (faultline --state LINK, File → Copy link on a service
// result) opens that session's run the same way, then shows the state's tab,
// selection, window and mode. One finished() says when that is done (or why
// not), so --screenshot can wait for it.
#pragma once

#include "store/state_file.h"
#include "views/service/servicebrowser.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>

namespace fl {

class MainWindow;

class ServiceStart : public QObject
{
    Q_OBJECT
public:
    ServiceStart(MainWindow* window, QString url, QString tokenFile, QString session);
    // The state's service session, at its run (0: the latest), then the state applied to the main window; a tab or
    // evidence id the result lacks makes finished() say so.
    ServiceStart(MainWindow* window, const store::WorkbenchState& state, QString tokenFile);
    ServiceBrowser* browser() const { return m_browser; }
    // Connects; finished() follows once (at once when the URL or token file is unusable).
    void start();

    // A service that accepts the connection and never answers must not hold a screenshot forever.
    static constexpr int kTimeoutMs = 120'000;

signals:
    // Empty `error`: the sessions are listed (and the session's result is open in the main window).
    void finished(const QString& error);

private:
    enum class Step { Idle, Connecting, Opening, Done };
    void onIdle();
    void finish(const QString& error);

    MainWindow* m_window;
    ServiceBrowser* m_browser;
    QString m_url, m_session;
    int m_run = 0;
    std::optional<store::WorkbenchState> m_state;
    Step m_step = Step::Idle;
    QTimer m_timeout;
};

} // namespace fl
