// SPDX-License-Identifier: MIT
// File → Connect to service…: a window onto a faultline-service. Connect (URL and
// an optional token file), browse and filter its sessions, open a session's latest
// result (verdict, root cause, evidence; the raw lines of an evidence item of that
// run fetched from the service), re-run attribution, submit a bundle, delete a
// session (with the notes kept for it here), export the result as a report. Every request is asynchronous; the window says what it is waiting for
// and, on failure, the HTTP status with the service's {error, detail}.
#pragma once

#include "engine/engine.h"
#include "views/baseline/baselineattempt.h"
#include "views/service/serviceclient.h"

#include <nlohmann/json.hpp>

#include <QDialog>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;
class QTemporaryDir;

namespace fl {

class SessionListModel;

class ServiceBrowser : public QDialog
{
    Q_OBJECT
public:
    // `openBundle`: the bundle open in the workbench, offered by "Submit bundle…" (may be empty).
    explicit ServiceBrowser(const QString& openBundle, QWidget* parent = nullptr);

    ServiceClient* client() const { return m_client; }
    SessionListModel* sessions() const { return m_model; }
    QTableView* sessionView() const { return m_table; }
    QString statusText() const;
    // Why the last request failed ("HTTP 404 ..."); empty when it succeeded. Cleared by the next request.
    QString lastError() const { return m_lastError; }
    bool busy() const { return m_pending > 0; }
    const nlohmann::json& result() const { return m_result; }  // the open result document (null if none)
    QString openSession() const { return m_openSession; }
    int openRun() const { return m_openRun; }  // the run of the open result (0: not said)
    QString rawText() const;
    QListWidget* evidenceList() const { return m_evidence; }

    // The open result as an analysis the main window's views show like a local
    // one (core's resultFromJson; its files are the result's connector reports,
    // with no bytes here). Null when no result is open or it cannot be read.
    std::shared_ptr<const Analysis> resultAnalysis() const;
    // The healthy attempt the open result was compared against (Compare with…), once its result arrived; else null.
    std::shared_ptr<const BaselineAttempt> openBaseline() const { return m_openBaseline; }

public slots:
    // Reads the fields (URL, token file) and lists the sessions. False when the fields are unusable.
    [[nodiscard]] bool connectToService();
    void refresh();
    void openSelected();
    void rerunSelected();
    // Compare with…: attributes the selected session again against session `baselineId` (a healthy attempt of
    // the same job; empty: asked for among the listed sessions), shows that result and fetches the baseline's
    // own result, which the workbench puts on one time axis with it (openBaseline()).
    void compareSelected(const QString& baselineId = QString());
    // Asks, then deletes the selected session on the service.
    void deleteSelected();
    // Deletes session `id` on the service and, once it is gone there, the reviewer notes this
    // workbench kept for it (ServiceReview::notesKey); the list is refreshed.
    void deleteSession(const QString& id);
    // Submits `path` (an archive, or a folder packed with tar first).
    void submit(const QString& path);
    void setUrl(const QString& url);
    void setTokenFile(const QString& path);
    void setFilter(const SessionFilter& filter);
    // The bundle open in the workbench, offered by "Submit bundle…" (empty: none).
    void setOpenBundle(const QString& path) { m_openBundle = path; }
    // Emits openInWorkbench with the open result. False when there is none.
    [[nodiscard]] bool openInMainWindow();
    // Fetches and shows run `run` of session `id`, 0: its latest result (faultline --session ID; a state link
    // names the run it was copied on).
    void openSession(const QString& id, int run = 0);

signals:
    void idle();  // no request is pending any more
    void sessionDeleted(const QString& id);
    // "Open in workbench": the main window shows `analysis`, named `title`.
    void openInWorkbench(std::shared_ptr<const fl::Analysis> analysis, const QString& title);

private:
    void begin(const QString& what);
    void end(const ServiceReply& reply, const QString& done);
    void showResult(const QString& sessionId, int run, const nlohmann::json& result);
    void clearResult();
    void showEvidence(int row);
    void upload(const QString& archive, const QString& shownName, std::shared_ptr<QTemporaryDir> packed = {});
    void exportReport();
    QString selectedSession() const;

    ServiceClient* m_client;
    SessionListModel* m_model;
    QString m_openBundle;
    QLineEdit* m_url;
    QLineEdit* m_tokenFile;
    QLineEdit* m_workload;
    QComboBox* m_status;
    QLineEdit* m_domain;
    QLineEdit* m_node;
    QTableView* m_table;
    QLabel* m_verdict;
    QListWidget* m_evidence;
    QPlainTextEdit* m_raw;
    QLabel* m_state;
    QProgressBar* m_progress;
    QPushButton* m_exportButton;
    QPushButton* m_workbenchButton;
    nlohmann::json m_result;
    std::shared_ptr<const Result> m_read;  // m_result read back (resultFromJson); null when unreadable
    std::shared_ptr<const BaselineAttempt> m_openBaseline;
    QString m_openSession;
    int m_openRun = 0;
    int m_pending = 0;
    QString m_lastError;
};

} // namespace fl
