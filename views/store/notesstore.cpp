// SPDX-License-Identifier: MIT
#include "views/store/notesstore.h"

#include "store/review_store.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace fl {

// The file, its schema, its migrations and every query are core's (core/store/notes_store.h), which the CLI
// report reads with: one store for both. Here only where the file lives and Qt's types.
namespace {

std::string s(const QString& v)
{
    return v.toStdString();
}

QString q(const std::string& v)
{
    return QString::fromStdString(v);
}

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QDateTime parseTime(const std::string& v)
{
    return QDateTime::fromString(q(v), Qt::ISODateWithMs);
}

QString stamp(const QDateTime& t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : now();
}

LineBookmark fromCore(const present::ReviewBookmark& b)
{
    return {q(b.file), b.line, q(b.note), parseTime(b.when)};
}

ItemNote fromCore(const present::ReviewNote& n)
{
    return {q(n.kind), q(n.target), q(n.text), q(n.file), n.line, parseTime(n.when)};
}

present::ReviewOverride toCore(const VerdictOverride& o)
{
    return {s(o.status), s(o.domain), s(o.subDomain), s(o.rootNode), s(o.reason), s(stamp(o.created))};
}

} // namespace

NotesStore::NotesStore() = default;

NotesStore::~NotesStore() = default;

QString NotesStore::besidePath(const QString& bundlePath)
{
    QString abs = QFileInfo(bundlePath).absoluteFilePath();
    while (abs.size() > 1 && abs.endsWith(QLatin1Char('/')))
        abs.chop(1);
    return abs + QStringLiteral(".faultline-notes.sqlite");
}

QString NotesStore::fallbackPath(const QString& bundlePath)
{
    QString abs = QFileInfo(bundlePath).absoluteFilePath();
    while (abs.size() > 1 && abs.endsWith(QLatin1Char('/')))
        abs.chop(1);
    const QByteArray hash = QCryptographicHash::hash(abs.toUtf8(), QCryptographicHash::Sha256).toHex().left(24);
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/notes");
    return dir + QLatin1Char('/') + QString::fromLatin1(hash) + QStringLiteral(".sqlite");
}

bool NotesStore::fail(const QString& message)
{
    m_error = message;
    m_db.close();
    return false;
}

void NotesStore::close()
{
    m_db.close();
    m_path.clear();
    m_bundle.clear();
    m_error.clear();
}

bool NotesStore::openFor(const QString& bundlePath)
{
    close();
    m_bundle = QFileInfo(bundlePath).absoluteFilePath();
    const QString beside = besidePath(bundlePath);
    const QString fallback = fallbackPath(bundlePath);
    for (const QString& existing : {beside, fallback}) {
        if (!QFileInfo::exists(existing))
            continue;
        if (!openDb(existing, false))
            return false;
        if (!QFileInfo(existing).isWritable()) {
            // Shown, but every change would fail: say which file and why up front.
            m_error = QObject::tr("Notes cannot be stored: notes file %1 is not writable (shown read-only)").arg(existing);
            return false;
        }
        return true;
    }
    // Nothing yet: decide where the first note will go.
    const QFileInfo dir(QFileInfo(beside).absolutePath());
    if (dir.isDir() && dir.isWritable()) {
        m_path = beside;
        return true;
    }
    m_path = fallback;
    // Created only at the first note: check the nearest folder that exists.
    const QString fallbackDir = QFileInfo(fallback).absolutePath();
    QFileInfo existing(fallbackDir);
    while (!existing.exists() && !existing.isRoot())
        existing = QFileInfo(existing.absolutePath());
    if (!existing.isDir() || !existing.isWritable())
        return fail(QObject::tr("Notes cannot be stored: neither the bundle's folder %1 nor %2 is writable")
                        .arg(dir.absoluteFilePath(), fallbackDir));
    return true;
}

bool NotesStore::openFile(const QString& dbPath)
{
    const QString bundle = m_bundle;
    close();
    m_bundle = bundle;
    return openDb(dbPath, true);
}

bool NotesStore::ensureOpen()
{
    if (m_db.isOpen())
        return true;
    if (!m_error.isEmpty() || m_path.isEmpty())
        return false;
    return openDb(m_path, true);
}

bool NotesStore::openDb(const QString& dbPath, bool create)
{
    m_path = dbPath;
    m_error.clear();
    const QFileInfo info(dbPath);
    if (!create && !info.isFile())
        return fail(QObject::tr("Notes file %1 is not a file").arg(dbPath));
    if (create && !QDir().mkpath(info.absolutePath()))
        return fail(QObject::tr("Cannot create the folder for notes file %1").arg(dbPath));
    // Read-write even for a file that is not writable: its notes are still shown (openFor says it is read-only).
    const auto mode = info.exists() && !info.isWritable() ? store::NotesDb::Mode::ReadOnly : store::NotesDb::Mode::ReadWrite;
    if (!m_db.open(s(dbPath), mode, s(m_bundle)))
        return fail(QObject::tr("Notes file unusable, continuing without notes: %1").arg(q(m_db.error())));
    return true;
}

int NotesStore::schemaVersion() const
{
    return m_db.schemaVersion();
}

bool NotesStore::write(bool ok)
{
    if (!ok)
        m_error = q(m_db.error());
    return ok;
}

bool NotesStore::saveAs(const QString& dbPath)
{
    // Read everything, then write it into the new file in one transaction:
    // works whether or not the current file exists or is usable.
    present::ReviewNotes all;
    if (m_db.isOpen() && !m_db.read(all))
        return fail(q(m_db.error()));
    if (QFileInfo(dbPath).absoluteFilePath() == QFileInfo(m_path).absoluteFilePath() && m_db.isOpen())
        return true;
    if (QFileInfo::exists(dbPath) && !QFile::remove(dbPath))
        return fail(QObject::tr("Cannot replace %1").arg(dbPath));
    if (!openFile(dbPath))
        return false;
    return write(m_db.writeAll(all));
}

bool NotesStore::hasNotes() const
{
    return m_db.hasNotes();
}

bool NotesStore::addBookmark(const QString& file, quint64 line, const QString& note)
{
    if (file.isEmpty() || line == 0 || !ensureOpen())
        return false;
    return write(m_db.addBookmark({s(file), line, s(note), s(now())}));
}

bool NotesStore::removeBookmark(const QString& file, quint64 line)
{
    return ensureOpen() && write(m_db.removeBookmark(s(file), line));
}

std::vector<LineBookmark> NotesStore::bookmarks(const QString& file) const
{
    std::vector<LineBookmark> out;
    for (const present::ReviewBookmark& b : m_db.bookmarks(s(file)))
        out.push_back(fromCore(b));
    return out;
}

bool NotesStore::setNote(const QString& kind, const QString& target, const QString& text, const QString& file, quint64 line)
{
    if (kind.isEmpty() || target.isEmpty())
        return false;
    if (text.trimmed().isEmpty() && !m_db.isOpen())
        return true;  // removing what was never written: do not create a file for it
    if (!ensureOpen())
        return false;
    if (text.trimmed().isEmpty())
        return write(m_db.removeNote(s(kind), s(target)));
    return write(m_db.setNote({s(kind), s(target), s(file), line, s(text), s(now())}));
}

QString NotesStore::note(const QString& kind, const QString& target) const
{
    return q(m_db.note(s(kind), s(target)).value_or(std::string()));
}

std::vector<ItemNote> NotesStore::notes(const QString& kind) const
{
    std::vector<ItemNote> out;
    for (const present::ReviewNote& n : m_db.notes(s(kind)))
        out.push_back(fromCore(n));
    return out;
}

bool NotesStore::setVerdictOverride(const VerdictOverride& o)
{
    if (o.status.isEmpty() || o.reason.trimmed().isEmpty() || !ensureOpen())
        return false;
    return write(m_db.setVerdictOverride(toCore(o)));
}

bool NotesStore::clearVerdictOverride()
{
    if (!m_db.isOpen())
        return true;
    return write(m_db.clearVerdictOverride());
}

std::optional<VerdictOverride> NotesStore::verdictOverride() const
{
    const auto o = m_db.verdictOverride();
    if (!o)
        return std::nullopt;
    return VerdictOverride{q(o->status), q(o->domain), q(o->subDomain), q(o->rootNode), q(o->reason), parseTime(o->when)};
}

bool NotesStore::appendReview(present::ReviewDecision& decision)
{
    if (!ensureOpen())
        return false;
    // core's review store writes through its own connection; this one reads the row back afterwards.
    std::string error;
    if (!store::appendReview(s(m_path), decision, error)) {
        m_lastRefusal = q(error);
        return false;
    }
    m_lastRefusal.clear();
    return true;
}

std::vector<present::ReviewDecision> NotesStore::reviews() const
{
    return m_db.reviews();
}

bool NotesStore::addComment(present::ThreadComment& comment)
{
    if (!ensureOpen())
        return false;
    if (!m_db.addComment(comment)) {
        m_lastRefusal = q(m_db.error());
        return false;
    }
    m_lastRefusal.clear();
    return true;
}

std::vector<present::ThreadComment> NotesStore::threads(const QString& target) const
{
    return m_db.threads(s(target));
}

} // namespace fl
