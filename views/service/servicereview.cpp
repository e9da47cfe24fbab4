// SPDX-License-Identifier: MIT
#include "views/service/servicereview.h"
#include "views/history/historypanel.h"

#include "engine/trace_json.h"
#include "views/common/focusstate.h"
#include "views/store/notesstore.h"
#include "views/teach/phasestepperpanel.h"
#include "views/evidence/rawfilepanel.h"
#include "views/evidence/rawfileview.h"
#include "views/service/serviceclient.h"
#include "views/workbench/workbenchview.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QUrl>

namespace fl {

namespace {
// Blank lines stand for the unfetched ones up to here (one byte each); beyond, the
// lines are shown from the top of the view, numbered from 1, and the header says where they are.
constexpr int64_t kMaxPaddedLines = 50'000'000;

QString q(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Every review alive (GUI thread only), so a deletion in the service window reaches the one that
// has the deleted session's notes open.
QList<ServiceReview*>& reviews()
{
    static QList<ServiceReview*> all;
    return all;
}
} // namespace

ServiceReview::ServiceReview(WorkbenchView* view)
    : QObject(view)
    , m_view(view)
{
    reviews().append(this);
    setObjectName(QStringLiteral("serviceReview"));
    // After the view's own handler, which finds no bytes on disk for a service result.
    connect(view->focus(), &FocusState::evidenceSelected, this, [this](std::optional<EvidenceId> e) { fetch(e); });
}

ServiceReview::~ServiceReview()
{
    reviews().removeOne(this);
}

void ServiceReview::sessionDeleted(const QString& notesKey)
{
    for (ServiceReview* r : reviews()) {
        if (r->m_notesKey.isEmpty() || r->m_notesKey != notesKey)
            continue;
        r->m_notesKey.clear();
        // Still these notes (not a local bundle's shown since, nor a file chosen by Save notes as…).
        NotesStore* notes = r->m_view->notes();
        if (notes->path() != NotesStore::besidePath(notesKey) && notes->path() != NotesStore::fallbackPath(notesKey))
            continue;
        notes->close();
        r->m_notesClosed = true;
        emit r->message(tr("Session %1 was deleted on the service with the notes kept for it; its result stays shown, "
                           "without notes")
                            .arg(r->m_session));
    }
}

ServiceReview* ServiceReview::of(WorkbenchView* view)
{
    if (auto* r = view->findChild<ServiceReview*>(QStringLiteral("serviceReview"), Qt::FindDirectChildrenOnly))
        return r;
    return new ServiceReview(view);
}

QString ServiceReview::notesKey(const QUrl& service, const QString& sessionId)
{
    const QString host = service.host().isEmpty() ? QStringLiteral("service") : service.host();
    QString key = host + QLatin1Char('_') + QString::number(service.port(service.scheme() == QLatin1String("https") ? 443 : 80));
    for (QChar& c : key)
        if (!c.isLetterOrNumber() && c != QLatin1Char('.') && c != QLatin1Char('_') && c != QLatin1Char('-'))
            c = QLatin1Char('_');
    QString session = sessionId;
    for (QChar& c : session)
        if (!c.isLetterOrNumber() && c != QLatin1Char('-') && c != QLatin1Char('_'))
            c = QLatin1Char('_');
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/service-notes/") + key +
           QLatin1Char('/') + session;
}

void ServiceReview::attach(ServiceClient* client, const QString& sessionId, int run, std::shared_ptr<const Analysis> analysis)
{
    m_client = client;
    m_session = sessionId;
    m_run = run;
    m_analysis = analysis;
    m_wanted.reset();
    m_error.clear();
    m_dir = std::make_unique<QTemporaryDir>();
    const QString key = notesKey(client->baseUrl(), sessionId);
    QDir().mkpath(QFileInfo(key).absolutePath());
    m_notesKey = key;
    m_notesClosed = false;
    if (const QString problem = m_view->openNotes(key); !problem.isEmpty())
        emit message(problem);
    // The view has already focused an evidence item (the root cause's) before we were attached.
    fetch(m_view->focus()->current().evidence);
    fetchTrace();
    // "Failed before?" from the service's own history, not a database on this machine.
    if (auto* history = m_view->panelAs<HistoryPanel>(QStringLiteral("history")))
        history->setService(client, sessionId, run, analysis);
}

void ServiceReview::fetchTrace()
{
    m_traceError.clear();
    ++m_pending;
    const QString session = m_session;
    const std::weak_ptr<const Analysis> forAnalysis = m_analysis;
    m_client->trace(session, m_run, this, [this, session, forAnalysis](const ServiceReply& r) {
        --m_pending;
        const auto analysis = forAnalysis.lock();
        if (session != m_session || !analysis || analysis != m_analysis.lock() || !active())
            return;
        const auto steps = r.ok() && r.body.is_object() ? r.body.find("trace") : r.body.end();
        const auto run = r.ok() && r.body.is_object() ? r.body.find("run") : r.body.end();
        const bool otherRun = m_run > 0 && (run == r.body.end() || !run->is_number_integer() || run->get<int64_t>() != m_run);
        if (!r.ok() || steps == r.body.end() || !steps->is_array() || otherRun) {
            m_traceError = tr("No phase trace from the service: %1")
                               .arg(!r.ok()     ? r.error
                                    : otherRun ? tr("it answered with another run's trace than run %1").arg(m_run)
                                               : tr("its answer holds no trace"));
            emit message(m_traceError);
            emit traceShown(false);
            return;
        }
        // The stepper alone gets the copy with the trace: the other views keep the analysis they show.
        auto withTrace = std::make_shared<Analysis>(*analysis);
        withTrace->trace = traceFromJson(*steps);
        m_view->stepper()->setAnalysis(std::move(withTrace));
        emit traceShown(true);
    });
}

QUrl ServiceReview::serviceUrl() const
{
    return m_client ? m_client->baseUrl() : QUrl();
}

bool ServiceReview::active() const
{
    const auto a = m_analysis.lock();
    return m_client && !m_session.isEmpty() && a && a == m_view->analysis();
}

void ServiceReview::fetch(std::optional<EvidenceId> evidence)
{
    if (!active() || !evidence || evidence == m_wanted)
        return;
    const EvidenceId wanted = *evidence;
    const QString evidenceId = q(toString(wanted));
    const auto analysis = m_view->analysis();
    QString file;
    int64_t line = 0;
    for (const EvidenceItem& e : analysis->result.evidence)
        if (e.id == wanted) {
            file = q(e.file);
            line = e.ref.line;
        }
    m_wanted = wanted;
    ++m_pending;
    emit message(tr("Fetching the raw lines of %1 from the service…").arg(evidenceId));
    const QString session = m_session;
    m_client->evidence(session, m_run, evidenceId, m_context, this, [this, session, wanted, evidenceId, file, line](const ServiceReply& r) {
        --m_pending;
        if (session != m_session || wanted != m_wanted || !active())
            return;  // the reviewer moved on
        if (!r.ok()) {
            showRefusal(wanted, file, r.error);
            return;
        }
        // Asked of this result's run, the service names the same file and line; if it does not (a result
        // whose run is not known, answered from a newer one), never show those lines as this result's.
        const auto f = r.body.is_object() ? r.body.find("file") : r.body.end();
        const auto l = r.body.is_object() ? r.body.find("line") : r.body.end();
        if (f == r.body.end() || !f->is_string() || q(f->get<std::string>()) != file || l == r.body.end() ||
            !l->is_number_integer() || l->get<int64_t>() != line) {
            showRefusal(wanted, file,
                        tr("the service's run %1 has %2 on another line than this result; open the session again")
                            .arg(r.body.value("run", 0))
                            .arg(evidenceId));
            return;
        }
        show(wanted, file, r.body);
    });
}

void ServiceReview::show(EvidenceId shown, const QString& fallbackFile, const nlohmann::json& body)
{
    const QString evidenceId = q(toString(shown));
    const auto lines = body.find("lines");
    if (!body.is_object() || lines == body.end() || !lines->is_array() || lines->empty()) {
        showRefusal(shown, fallbackFile, tr("the service's answer holds no lines"));
        return;
    }
    const QString file = body.contains("file") && body["file"].is_string() ? q(body["file"].get<std::string>()) : fallbackFile;
    auto lineOf = [](const nlohmann::json& l) {
        const auto it = l.find("line");
        return it != l.end() && it->is_number_integer() ? std::max<int64_t>(1, it->get<int64_t>()) : int64_t(1);
    };
    const int64_t first = lineOf(lines->front());
    QByteArray text;
    int64_t numberedFrom = 1;
    if (first > 1 && first - 1 <= kMaxPaddedLines) {
        text.fill('\n', static_cast<qsizetype>(first - 2));
        text += tr("⋯ lines 1–%1 of %2 are with the service: only the lines around %3 were fetched\n")
                    .arg(first - 1).arg(file, evidenceId).toUtf8();
        numberedFrom = first;
    } else if (first > 1) {
        text += tr("⋯ %1 from line %2 (the lines before are with the service)\n").arg(file).arg(first).toUtf8();
        numberedFrom = 2;
    }
    uint64_t hlBegin = 0, hlEnd = 0, hlLine = 0;
    int64_t n = numberedFrom;
    for (const auto& l : *lines) {
        if (!l.is_object())
            continue;
        const bool evidence = l.value("evidence", false);
        if (evidence && hlLine == 0) {
            hlBegin = static_cast<uint64_t>(text.size());
            hlLine = static_cast<uint64_t>(n);
        }
        const std::string t = l.value("text", std::string());
        text.append(t.data(), static_cast<qsizetype>(t.size()));
        if (evidence)
            hlEnd = static_cast<uint64_t>(text.size());
        text += '\n';
        ++n;
    }
    // Fewer lines than asked for: the file ended there. Else more may follow.
    const int64_t asked = body.value("line", int64_t(0)) + std::max<int64_t>(1, body.value("line_count", int64_t(1))) - 1 + m_context;
    if (lineOf(lines->back()) >= asked)
        text += tr("⋯ the lines after %1, if any, are with the service\n").arg(lineOf(lines->back())).toUtf8();
    if (hlLine == 0)
        hlLine = static_cast<uint64_t>(numberedFrom);
    if (!openText(file, text, hlBegin, static_cast<uint32_t>(hlEnd - hlBegin), hlLine))
        return;  // openText said why; do not claim the lines are shown
    m_error.clear();
    emit message(tr("%1: raw lines %2–%3 of %4 from the service").arg(evidenceId).arg(first).arg(lineOf(lines->back())).arg(file));
    emit rawShown(shown);
}

void ServiceReview::showRefusal(EvidenceId evidence, const QString& file, const QString& error)
{
    m_error = tr("The service did not give the raw lines of %1 (%2): %3").arg(q(toString(evidence)), file, error);
    const bool shown = openText(file, m_error.toUtf8() + '\n', 0, static_cast<uint32_t>(m_error.toUtf8().size()), 1);
    emit message(m_error);
    if (shown)
        emit rawShown(evidence);
}

bool ServiceReview::openText(const QString& file, const QByteArray& text, uint64_t highlightAt, uint32_t highlightLength,
                             uint64_t line)
{
    if (!m_dir || !m_dir->isValid()) {
        emit message(tr("Cannot show the raw lines of %1: no temporary folder to hold them").arg(file));
        return false;
    }
    // A new file each time: the view maps the file it shows.
    const QString path = m_dir->filePath(QStringLiteral("raw-%1.log").arg(++m_files));
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size()) {
        emit message(tr("Cannot write %1: %2").arg(path, out.errorString()));
        return false;
    }
    out.close();
    RawFileView* view = m_view->raw()->view();
    if (!view->open(path, file)) {
        emit message(view->errorString());
        return false;
    }
    if (!m_shown.isEmpty())
        QFile::remove(m_shown);  // unmapped by the open above
    m_shown = path;
    RawRef ref;
    ref.offset = highlightAt;
    ref.length = highlightLength;
    ref.line = static_cast<uint32_t>(line);
    view->showRef(ref);
    return true;
}

} // namespace fl
