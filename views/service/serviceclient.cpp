// SPDX-License-Identifier: MIT
#include "views/service/serviceclient.h"

#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QUrlQuery>

namespace fl {

namespace {
// A session id or evidence id as one path segment, whatever it holds.
QString segment(const QString& s)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(s));
}
} // namespace

ServiceClient::ServiceClient(QObject* parent)
    : QObject(parent)
    , m_net(new QNetworkAccessManager(this))
{
    // A result of a big bundle takes a while to arrive; a dead service does not keep us waiting forever.
    m_net->setTransferTimeout(120000);
}

bool ServiceClient::setBaseUrl(const QString& text, QString* error)
{
    QUrl url = QUrl::fromUserInput(text.trimmed());
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
        url.host().isEmpty()) {
        if (error)
            *error = tr("'%1' is not an http:// or https:// address of a faultline-service").arg(text);
        return false;
    }
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    url.setPath(path);
    url.setQuery(QString());
    url.setFragment(QString());
    m_base = url;
    return true;
}

std::optional<QByteArray> ServiceClient::readTokenFile(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Cannot read the token file %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    const QByteArray token = f.read(4096).split('\n').value(0).trimmed();
    if (token.isEmpty()) {
        if (error)
            *error = tr("The token file %1 is empty").arg(path);
        return std::nullopt;
    }
    return token;
}

QUrl ServiceClient::url(const QString& path) const
{
    QUrl u = m_base;
    u.setPath(m_base.path() + path, QUrl::TolerantMode);
    return u;
}

QString ServiceClient::describeError(int status, const nlohmann::json& body, const QString& networkError)
{
    if (status == 0)
        return networkError.isEmpty() ? tr("No answer from the service") : networkError;
    QString text = tr("HTTP %1").arg(status);
    if (body.is_object()) {
        const auto code = body.find("error"), detail = body.find("detail");
        if (code != body.end() && code->is_string())
            text += QLatin1Char(' ') + QString::fromStdString(code->get<std::string>());
        if (detail != body.end() && detail->is_string())
            text += QStringLiteral(": ") + QString::fromStdString(detail->get<std::string>());
    } else if (!networkError.isEmpty()) {
        text += QStringLiteral(": ") + networkError;
    }
    return text;
}

QNetworkReply* ServiceClient::issue(const Call& call, QString* error)
{
    if (call.filePath.isEmpty()) {
        switch (call.verb) {
        case Verb::Get:
            return m_net->get(call.request);
        case Verb::Delete:
            return m_net->deleteResource(call.request);
        case Verb::Post:
            break;
        }
        return m_net->post(call.request, call.body);
    }
    auto* file = new QFile(call.filePath);
    if (!file->open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2").arg(call.filePath, file->errorString());
        delete file;
        return nullptr;
    }
    QNetworkReply* reply = m_net->post(call.request, file);  // post() sends the file's size as Content-Length
    file->setParent(reply);  // lives as long as the upload
    connect(reply, &QNetworkReply::uploadProgress, this, &ServiceClient::uploadProgress);
    return reply;
}

namespace {
// Seconds of an HTTP Retry-After given as delta-seconds (the form faultline-service sends); -1 otherwise.
int retryAfterSeconds(const QByteArray& value)
{
    bool ok = false;
    const int s = value.trimmed().toInt(&ok);
    return ok && s >= 0 ? s : -1;
}
} // namespace

QNetworkReply* ServiceClient::send(Call call, QObject* receiver, Handler done)
{
    Q_ASSERT(receiver);
    QString openError;
    QNetworkReply* reply = issue(call, &openError);
    if (!reply) {
        ServiceReply r;
        r.error = openError;
        if (done)
            done(r);
        return nullptr;
    }
    // Queued: the abort must not re-enter the receiver's destructor through `finished`.
    connect(receiver, &QObject::destroyed, reply, &QNetworkReply::abort, Qt::QueuedConnection);
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, alive = QPointer<QObject>(receiver), call = std::move(call), done = std::move(done)]() mutable {
        reply->deleteLater();
        if (!alive)
            return;  // whoever asked is gone: a closed view is never called back
        ServiceReply r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.run = reply->rawHeader("X-Faultline-Run").toInt();
        const QByteArray bytes = reply->readAll();
        r.body = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
        if (r.body.is_discarded())
            r.body = nullptr;
        if (reply->error() != QNetworkReply::NoError || r.status < 200 || r.status >= 300)
            r.error = describeError(r.status, r.body, reply->error() == QNetworkReply::NoError ? QString() : reply->errorString());
        else if (r.body.is_null())
            r.error = tr("HTTP %1 but the answer is not JSON").arg(r.status);
        // Turned away before the service did anything: sending it again is safe, whatever the verb.
        const bool turnedAway = r.status == 429 ||
                                (r.status == 503 && r.body.is_object() && r.body.value("error", std::string()) == "unavailable");
        const int wait = turnedAway ? retryAfterSeconds(reply->rawHeader("Retry-After")) : -1;
        if (wait >= 0 && wait <= kMaxRetryWaitS && call.attempt < kMaxAttempts) {
            ++call.attempt;
            emit retrying(wait, call.attempt, r.error);
            QTimer::singleShot(wait * 1000, this, [this, alive, call = std::move(call), done = std::move(done)]() mutable {
                if (alive)
                    send(std::move(call), alive.data(), std::move(done));
            });
            return;
        }
        if (done)
            done(r);
    });
    return reply;
}

namespace {
QNetworkRequest request(const QUrl& url, const QByteArray& token)
{
    QNetworkRequest req(url);
    req.setRawHeader("Accept", "application/json");
    if (!token.isEmpty())
        req.setRawHeader("Authorization", "Bearer " + token);
    return req;
}
} // namespace

QNetworkReply* ServiceClient::health(QObject* receiver, Handler done)
{
    return send({Verb::Get, request(url(QStringLiteral("/v2/healthz")), m_token), {}, {}}, receiver, std::move(done));
}

QNetworkReply* ServiceClient::sessions(const SessionFilter& f, QObject* receiver, Handler done)
{
    QUrl u = url(QStringLiteral("/v2/sessions"));
    QUrlQuery q;
    const std::pair<const char*, QString> params[] = {
        {"workload_id", f.workloadId}, {"status", f.status}, {"domain", f.domain}, {"node", f.node}};
    for (const auto& [name, value] : params)
        if (!value.trimmed().isEmpty())
            q.addQueryItem(QString::fromLatin1(name), value.trimmed());
    q.addQueryItem(QStringLiteral("limit"), QString::number(f.limit));
    u.setQuery(q);
    return send({Verb::Get, request(u, m_token), {}, {}}, receiver, std::move(done));
}

// /v2/sessions/{id}{tail}, with ?run=N when a run is named (0: the latest) and `query` after it.
QUrl ServiceClient::sessionUrl(const QString& id, const QString& tail, int run, const QString& query) const
{
    QUrl u = url(QStringLiteral("/v2/sessions/") + segment(id) + tail);
    QStringList items;
    if (!query.isEmpty())
        items << query;
    if (run > 0)
        items << QStringLiteral("run=") + QString::number(run);
    if (!items.isEmpty())
        u.setQuery(items.join(QLatin1Char('&')));
    return u;
}

QNetworkReply* ServiceClient::result(const QString& id, int run, QObject* receiver, Handler done)
{
    return send({Verb::Get, request(sessionUrl(id, QStringLiteral("/result"), run), m_token), {}, {}}, receiver, std::move(done));
}

QNetworkReply* ServiceClient::evidence(const QString& id, int run, const QString& evidenceId, int context, QObject* receiver,
                                       Handler done)
{
    const QUrl u = sessionUrl(id, QStringLiteral("/evidence/") + segment(evidenceId), run,
                              QStringLiteral("context=") + QString::number(context));
    return send({Verb::Get, request(u, m_token), {}, {}}, receiver, std::move(done));
}

QNetworkReply* ServiceClient::trace(const QString& id, int run, QObject* receiver, Handler done)
{
    return send({Verb::Get, request(sessionUrl(id, QStringLiteral("/trace"), run), m_token), {}, {}}, receiver, std::move(done));
}

QNetworkReply* ServiceClient::history(const QString& id, int run, QObject* receiver, Handler done)
{
    const QUrl u = sessionUrl(id, QStringLiteral("/history"), run, QStringLiteral("places=true"));
    return send({Verb::Get, request(u, m_token), {}, {}}, receiver, std::move(done));
}

QNetworkReply* ServiceClient::deleteSession(const QString& id, QObject* receiver, Handler done)
{
    return send({Verb::Delete, request(sessionUrl(id, QString(), 0), m_token), {}, {}}, receiver, std::move(done));
}

QNetworkReply* ServiceClient::attribute(const QString& id, QObject* receiver, Handler done, const QString& baselineSessionId)
{
    QUrl u = url(QStringLiteral("/v2/sessions/") + segment(id) + QStringLiteral("/attribute"));
    if (!baselineSessionId.isEmpty()) {
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("baseline"), baselineSessionId);
        u.setQuery(q);
    }
    QNetworkRequest req = request(u, m_token);
    req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    return send({Verb::Post, req, QByteArray("{}"), {}}, receiver, std::move(done));
}

QNetworkReply* ServiceClient::submitBundle(const QString& path, QObject* receiver, Handler done)
{
    QNetworkRequest req = request(url(QStringLiteral("/v2/bundles")), m_token);
    req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/octet-stream"));
    return send({Verb::Post, req, {}, path}, receiver, std::move(done));
}

} // namespace fl
