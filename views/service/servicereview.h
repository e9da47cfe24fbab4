// SPDX-License-Identifier: MIT
// A faultline-service result reviewed in the main window as fully as a local
// one. The result's bytes stay with the service, so when the reviewer selects an
// evidence item its raw lines are fetched (GET /v2/sessions/{id}/evidence/{ev},
// asynchronously) and shown in the raw viewer at their real line numbers (the
// lines before them are blank, one says they were not fetched), so bookmarks
// and line notes name the same file and line as for the bundle itself. A
// refusal (404, 401, a network error) is shown in the raw viewer and reported
// through message(). Reviewer notes live in the user's data folder, one file
// per service and session (notesKey()). The phase stepper gets the engine's
// trace, which the stored result does not carry, from GET …/trace (the service
// analyses the session again and checks it gives the stored result).
#pragma once

#include "engine/engine.h"

#include <nlohmann/json.hpp>

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

namespace fl {

class ServiceClient;
class WorkbenchView;

class ServiceReview : public QObject
{
    Q_OBJECT
public:
    // Lines fetched on each side of an evidence item.
    static constexpr int kContext = 20;
    void setContext(int lines) { m_context = lines; }

    // The view's review helper, created on first use (a child of the view).
    static ServiceReview* of(WorkbenchView* view);

    // Reviews `analysis` (now shown by the view) as run `run` of session `sessionId`
    // of the service `client` talks to: opens its notes and fetches the raw lines of
    // the selected evidence and the trace, both of that run (run 0: the latest, for
    // a result whose run is not known), so a session attributed again meanwhile
    // does not get in the way. Whatever the view shows next (a local bundle) ends it.
    void attach(ServiceClient* client, const QString& sessionId, int run, std::shared_ptr<const Analysis> analysis);
    bool active() const;
    QString sessionId() const { return m_session; }
    int run() const { return m_run; }
    QUrl serviceUrl() const;  // the service reviewed (empty when none)
    bool busy() const { return m_pending > 0; }
    QString lastError() const { return m_error; }
    QString traceError() const { return m_traceError; }

    // The notes of a session: `<data>/service-notes/<host>_<port>/<session>` as the
    // "bundle" path NotesStore keeps notes beside.
    static QString notesKey(const QUrl& service, const QString& sessionId);
    // The service window deleted the session whose notes are `notesKey` and is about to remove
    // its notes file: every review of that session closes its notes first (the view had the file
    // open: a note written after went to the removed file and failed, or, when none was written
    // yet, made a new notes file for a session that no longer exists) and says so. The result
    // stays shown; its raw lines are then refused by the service (404).
    static void sessionDeleted(const QString& notesKey);
    bool notesClosed() const { return m_notesClosed; }
    ~ServiceReview() override;

signals:
    void message(const QString& text);  // for the status bar
    void rawShown(fl::EvidenceId evidence);    // the raw viewer shows the item's lines (or why not)
    void traceShown(bool ok);                  // the phase stepper has the trace (or traceError() says why not)

private:
    explicit ServiceReview(WorkbenchView* view);
    void fetch(std::optional<EvidenceId> evidence);
    void fetchTrace();
    void show(EvidenceId evidence, const QString& file, const nlohmann::json& body);
    void showRefusal(EvidenceId evidence, const QString& file, const QString& error);
    [[nodiscard]] bool openText(const QString& file, const QByteArray& text, uint64_t highlightAt, uint32_t highlightLength,
                  uint64_t line);

    WorkbenchView* m_view;
    QPointer<ServiceClient> m_client;
    QString m_session;
    int m_run = 0;
    std::weak_ptr<const Analysis> m_analysis;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::optional<EvidenceId> m_wanted;  // the evidence whose lines are awaited; older answers are dropped
    int m_context = kContext;
    int m_pending = 0;
    int m_files = 0;
    QString m_notesKey;          // the notes the view has open for this review
    bool m_notesClosed = false;  // sessionDeleted() closed them
    QString m_shown;  // the temporary file the raw viewer shows
    QString m_error;
    QString m_traceError;
};

} // namespace fl
