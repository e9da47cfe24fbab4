// SPDX-License-Identifier: MIT
// The workbench's side of faultline-service (docs/service.md, docs/openapi.json):
// asynchronous requests on Qt Network, never blocking the GUI thread. Every
// answer comes back as a ServiceReply on the GUI thread; an error says the HTTP
// status and the service's {error, detail}, or what the network said.
#pragma once

#include <nlohmann/json.hpp>

#include <QNetworkRequest>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace fl {

struct ServiceReply {
    int status = 0;              // HTTP status; 0 when no answer came
    nlohmann::json body;         // the parsed JSON body (null when none or not JSON)
    QString error;               // empty on success: "HTTP 404 not_found: session 'x' …" or the network's words
    int run = 0;                 // the run a result document belongs to (X-Faultline-Run), 0 when not said
    bool ok() const { return error.isEmpty(); }
};

// What GET /v2/sessions filters on; empty fields are left out.
struct SessionFilter {
    QString workloadId, status, domain, node;
    int limit = 200;
};

class ServiceClient : public QObject
{
    Q_OBJECT
public:
    using Handler = std::function<void(const ServiceReply&)>;

    explicit ServiceClient(QObject* parent = nullptr);

    // "http://127.0.0.1:8000" (a trailing slash or path is kept as the API's prefix). False with a reason
    // when the URL is not http(s).
    [[nodiscard]] bool setBaseUrl(const QString& url, QString* error = nullptr);
    QUrl baseUrl() const { return m_base; }
    void setToken(const QByteArray& token) { m_token = token; }
    // The bearer token from a file (its first line, as the service reads it), or an error naming the file.
    [[nodiscard]] static std::optional<QByteArray> readTokenFile(const QString& path, QString* error);

    // Each request's handler runs on the receiver's thread only while the receiver lives; when the
    // receiver is destroyed first, the request is aborted and its handler never runs (a closed view must
    // not be called back).
    QNetworkReply* health(QObject* receiver, Handler done);
    QNetworkReply* sessions(const SessionFilter& filter, QObject* receiver, Handler done);
    // `run` 0: the latest run (the reply's `run` says which it was).
    QNetworkReply* result(const QString& sessionId, int run, QObject* receiver, Handler done);
    // The raw lines of an evidence item of run `run` (0: the latest).
    QNetworkReply* evidence(const QString& sessionId, int run, const QString& evidenceId, int context, QObject* receiver,
                            Handler done);
    // `baselineSessionId` non-empty: against that session's files, a healthy attempt of the same job
    // (?baseline=, the result's `baseline`).
    QNetworkReply* attribute(const QString& sessionId, QObject* receiver, Handler done,
                             const QString& baselineSessionId = QString());
    // The engine's trace of run `run` (0: the latest; the service analyses the files that run read again).
    QNetworkReply* trace(const QString& sessionId, int run, QObject* receiver, Handler done);
    // "Seen before?" for run `run` (0: the latest) and every cause the history holds at its nodes
    // (GET .../history?places=true): the History tab for a service session.
    QNetworkReply* history(const QString& sessionId, int run, QObject* receiver, Handler done);
    // DELETE: the session with its files and runs, on the service.
    QNetworkReply* deleteSession(const QString& sessionId, QObject* receiver, Handler done);
    // Streams the archive from disk (not read into memory); progress through uploadProgress.
    QNetworkReply* submitBundle(const QString& archivePath, QObject* receiver, Handler done);

    // The error text of a reply: HTTP status and the service's {error, detail}, else the network's error.
    static QString describeError(int status, const nlohmann::json& body, const QString& networkError);

    // A request the service turned away before doing anything (429, or 503 "unavailable" when its connection
    // queue is full) is sent again after its Retry-After, at most kMaxAttempts times in all and only when the
    // wait is at most kMaxRetryWaitS; the handler then runs once, with the last answer.
    static constexpr int kMaxAttempts = 3;
    static constexpr int kMaxRetryWaitS = 30;

signals:
    void uploadProgress(qint64 sent, qint64 total);
    // A turned-away request will be sent again in `seconds` (attempt `nextAttempt` of kMaxAttempts); `why` is
    // the service's answer, for the status line.
    void retrying(int seconds, int nextAttempt, const QString& why);

private:
    // What it takes to send a request again: the verb, the request, and a POST's body (bytes, or a file
    // streamed from disk, reopened for each attempt).
    enum class Verb { Get, Post, Delete };
    struct Call {
        Verb verb;
        QNetworkRequest request;
        QByteArray body;
        QString filePath;
        int attempt = 1;
    };
    QUrl url(const QString& path) const;
    QUrl sessionUrl(const QString& id, const QString& tail, int run, const QString& query = QString()) const;
    [[nodiscard]] QNetworkReply* issue(const Call& call, QString* error);
    QNetworkReply* send(Call call, QObject* receiver, Handler done);

    QNetworkAccessManager* m_net;
    QUrl m_base;
    QByteArray m_token;
};

} // namespace fl
