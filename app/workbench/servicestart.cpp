// SPDX-License-Identifier: MIT
#include "servicestart.h"

#include "mainwindow.h"

namespace fl {

ServiceStart::ServiceStart(MainWindow* window, QString url, QString tokenFile, QString session)
    : QObject(window)
    , m_window(window)
    , m_browser(window->serviceBrowser())
    , m_url(std::move(url))
    , m_session(std::move(session))
{
    m_browser->setUrl(m_url);
    m_browser->setTokenFile(tokenFile);
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this,
            [this] { finish(tr("%1: no answer within %2 s").arg(m_url).arg(kTimeoutMs / 1000)); });
    connect(m_browser, &ServiceBrowser::idle, this, &ServiceStart::onIdle);
}

ServiceStart::ServiceStart(MainWindow* window, const store::WorkbenchState& state, QString tokenFile)
    : ServiceStart(window, QString::fromStdString(state.service), std::move(tokenFile), QString::fromStdString(state.session))
{
    m_run = state.run;
    m_state = state;
}

void ServiceStart::start()
{
    m_step = Step::Connecting;
    m_timeout.start(kTimeoutMs);
    // The field's own words (bad URL, unreadable token file), said from the event loop: a caller that
    // exits on finished() would otherwise exit before its loop runs, which Qt ignores.
    if (!m_browser->connectToService())
        QTimer::singleShot(0, this, [this] { finish(m_browser->statusText()); });
}

void ServiceStart::onIdle()
{
    if (m_step == Step::Done || m_step == Step::Idle)
        return;
    if (!m_browser->lastError().isEmpty()) {
        finish(tr("%1: %2").arg(m_url, m_browser->lastError()));
        return;
    }
    if (m_step == Step::Connecting) {
        if (m_session.isEmpty()) {
            finish({});
            return;
        }
        m_step = Step::Opening;
        m_browser->openSession(m_session, m_run);
        return;
    }
    // Opening: the result is shown in the browser; the main window takes it as "Open in workbench" does.
    if (m_browser->openSession() != m_session || (m_run > 0 && m_browser->openRun() != m_run) ||
        !m_browser->openInMainWindow())
        finish(tr("%1: session %2 has no result this workbench can read").arg(m_url, m_session));
    else if (m_state && !m_window->applyState(*m_state))
        finish(m_window->lastError());
    else
        finish({});
}

void ServiceStart::finish(const QString& error)
{
    if (m_step == Step::Done)
        return;
    m_step = Step::Done;
    m_timeout.stop();
    emit finished(error);
}

} // namespace fl
