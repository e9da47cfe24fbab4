// SPDX-License-Identifier: MIT
// faultline --service URL [--token-file FILE] [--session ID]: the service browser
// connected from the command line, as File → Connect to service… does by hand,
// and, with a session, its latest result opened in the main window. One
// finished() says when that is done (or why not), so --screenshot can wait for it.
#pragma once

#include "views/service/servicebrowser.h"

#include <QObject>
#include <QString>
#include <QTimer>

namespace fl {

class MainWindow;

class ServiceStart : public QObject
{
    Q_OBJECT
public:
    ServiceStart(MainWindow* window, QString url, QString tokenFile, QString session);
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

    ServiceBrowser* m_browser;
    QString m_url, m_session;
    Step m_step = Step::Idle;
    QTimer m_timeout;
};

} // namespace fl
