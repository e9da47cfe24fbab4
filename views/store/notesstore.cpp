// SPDX-License-Identifier: MIT
#include "views/store/notesstore.h"

#include "store/notes_store.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QUuid>
#include <QVariant>

namespace fl {

namespace {
// The schema, its migration steps and the application tag are core's (core/store/notes_store.h),
// which the CLI report reads with: one definition of the file for both.
const QString kApplication = QString::fromLatin1(store::kNotesApplication);

// Qt binds a null QString as SQL NULL; the columns are NOT NULL.
QString nn(const QString& s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QDateTime parseTime(const QVariant& v)
{
    return QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
}
} // namespace

NotesStore::NotesStore()
    : m_connection(QStringLiteral("faultline-notes-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
}

NotesStore::~NotesStore()
{
    close();
}

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
    if (m_open) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connection, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
        m_open = false;
    }
    return false;
}

void NotesStore::close()
{
    if (QSqlDatabase::contains(m_connection)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connection, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
    }
    m_open = false;
    m_path.clear();
    m_bundle.clear();
    m_error.clear();
}

QString NotesStore::driverProblem()
{
    if (QSqlDatabase::isDriverAvailable(kDriver))
        return {};
    return QObject::tr("Notes cannot be stored: Qt's SQLite driver (%1) is not installed; install the Debian package "
                       "%2")
        .arg(kDriver, QString::fromLatin1(kDriverPackage));
}

bool NotesStore::openFor(const QString& bundlePath)
{
    close();
    m_bundle = QFileInfo(bundlePath).absoluteFilePath();
    const QString beside = besidePath(bundlePath);
    const QString fallback = fallbackPath(bundlePath);
    // Say so now rather than at the first note: a reviewer must know before writing one.
    if (const QString problem = driverProblem(); !problem.isEmpty()) {
        m_path = QFileInfo::exists(beside) ? beside : fallback;
        return fail(problem);
    }
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
    if (m_open)
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
    if (info.exists()) {
        // SQLite accepts any file at open and fails only at the first read;
        // check the header first so the message says what is wrong.
        QFile f(dbPath);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QObject::tr("Cannot read notes file %1: %2").arg(dbPath, f.errorString()));
        const QByteArray head = f.read(16);
        if (!head.isEmpty() && head != QByteArray("SQLite format 3\0", 16))
            return fail(QObject::tr("Notes file %1 is not a SQLite database (corrupt or not Faultline's); "
                                    "continuing without notes")
                            .arg(dbPath));
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(kDriver, m_connection);
        db.setDatabaseName(dbPath);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=2000"));
        if (!db.open()) {
            const QString why = db.lastError().text();
            m_open = true;  // so fail() removes the connection
            return fail(QObject::tr("Cannot open notes file %1: %2").arg(dbPath, why));
        }
    }
    m_open = true;
    return migrate();
}

int NotesStore::schemaVersion() const
{
    if (!m_open)
        return 0;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (!q.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'schema_version'")) || !q.next())
        return 0;
    return q.value(0).toInt();
}

bool NotesStore::migrate()
{
    // Queries must be gone before fail() drops the connection: check in a scope.
    int version = 0;
    const QString problem = [&]() -> QString {
        QSqlQuery q(QSqlDatabase::database(m_connection));
        if (!q.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'")))
            return QObject::tr("Notes file %1 is unreadable (%2); continuing without notes").arg(m_path, q.lastError().text());
        QStringList tables;
        while (q.next())
            tables << q.value(0).toString();
        if (tables.isEmpty())
            return {};
        const QString foreign = QObject::tr("%1 is a SQLite file but not a Faultline notes file; continuing without notes").arg(m_path);
        if (!tables.contains(QStringLiteral("meta")))
            return foreign;
        QString app;
        if (q.exec(QStringLiteral("SELECT key, value FROM meta"))) {
            while (q.next()) {
                if (q.value(0).toString() == QLatin1String("application"))
                    app = q.value(1).toString();
                else if (q.value(0).toString() == QLatin1String("schema_version"))
                    version = q.value(1).toInt();
            }
        }
        if (app != kApplication)
            return foreign;
        if (version > kSchemaVersion)
            return QObject::tr("Notes file %1 has schema version %2, newer than this Faultline reads (%3)")
                .arg(m_path)
                .arg(version)
                .arg(kSchemaVersion);
        return {};
    }();
    if (!problem.isEmpty())
        return fail(problem);
    for (int step = version; step < kSchemaVersion; ++step) {
        const bool ok = write([&](QSqlQuery& w) {
            for (const char* sql : store::notesMigrations()[static_cast<size_t>(step)])
                if (!w.exec(QString::fromLatin1(sql)))
                    return false;
            w.prepare(QStringLiteral("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"));
            w.addBindValue(QStringLiteral("application"));
            w.addBindValue(kApplication);
            if (!w.exec())
                return false;
            w.addBindValue(QStringLiteral("schema_version"));
            w.addBindValue(QString::number(step + 1));
            if (!w.exec())
                return false;
            if (!m_bundle.isEmpty()) {
                w.addBindValue(QStringLiteral("bundle_path"));
                w.addBindValue(m_bundle);
                return w.exec();
            }
            return true;
        });
        if (!ok)
            return fail(QObject::tr("Cannot prepare notes file %1: %2").arg(m_path, m_error));
    }
    return true;
}

template<typename F>
bool NotesStore::write(F&& body)
{
    if (!ensureOpen())
        return false;
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    if (!db.transaction()) {
        m_error = db.lastError().text();
        return false;
    }
    QSqlQuery q(db);
    if (!body(q)) {
        const QString why = q.lastError().text();
        db.rollback();
        m_error = why.isEmpty() ? QObject::tr("write failed") : why;
        return false;
    }
    if (!db.commit()) {
        m_error = db.lastError().text();
        db.rollback();
        return false;
    }
    return true;
}

bool NotesStore::saveAs(const QString& dbPath)
{
    // Read everything, then write it into the new file in one transaction:
    // works whether or not the current file exists or is usable.
    const auto marks = bookmarks();
    const auto items = notes();
    const auto over = verdictOverride();
    if (QFileInfo(dbPath).absoluteFilePath() == QFileInfo(m_path).absoluteFilePath() && m_open)
        return true;
    if (QFileInfo::exists(dbPath) && !QFile::remove(dbPath))
        return fail(QObject::tr("Cannot replace %1").arg(dbPath));
    if (!openFile(dbPath))
        return false;
    return write([&](QSqlQuery& q) {
        q.prepare(QStringLiteral("INSERT OR REPLACE INTO bookmarks (file, line, note, created) VALUES (?, ?, ?, ?)"));
        for (const auto& b : marks) {
            q.addBindValue(b.file);
            q.addBindValue(b.line);
            q.addBindValue(nn(b.note));
            q.addBindValue(b.created.toString(Qt::ISODateWithMs));
            if (!q.exec())
                return false;
        }
        q.prepare(QStringLiteral("INSERT OR REPLACE INTO notes (kind, target, text, file, line, updated) VALUES (?, ?, ?, ?, ?, ?)"));
        for (const auto& n : items) {
            q.addBindValue(n.kind);
            q.addBindValue(n.target);
            q.addBindValue(n.text);
            q.addBindValue(nn(n.file));
            q.addBindValue(n.line);
            q.addBindValue(n.updated.toString(Qt::ISODateWithMs));
            if (!q.exec())
                return false;
        }
        if (over) {
            q.prepare(QStringLiteral("INSERT OR REPLACE INTO verdict_override VALUES (1, ?, ?, ?, ?, ?, ?)"));
            for (const QString& v : {over->status, over->domain, over->subDomain, over->rootNode, over->reason,
                                     over->created.toString(Qt::ISODateWithMs)})
                q.addBindValue(nn(v));
            return q.exec();
        }
        return true;
    });
}

bool NotesStore::hasNotes() const
{
    if (!m_open)
        return false;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    return q.exec(QStringLiteral("SELECT (SELECT count(*) FROM bookmarks) + (SELECT count(*) FROM notes)"
                                 " + (SELECT count(*) FROM verdict_override)"))
        && q.next() && q.value(0).toLongLong() > 0;
}

bool NotesStore::addBookmark(const QString& file, quint64 line, const QString& note)
{
    if (file.isEmpty() || line == 0)
        return false;
    return write([&](QSqlQuery& q) {
        q.prepare(QStringLiteral("INSERT INTO bookmarks (file, line, note, created) VALUES (?, ?, ?, ?)"
                                 " ON CONFLICT (file, line) DO UPDATE SET note = excluded.note"));
        q.addBindValue(nn(file));
        q.addBindValue(line);
        q.addBindValue(nn(note));
        q.addBindValue(now());
        return q.exec();
    });
}

bool NotesStore::removeBookmark(const QString& file, quint64 line)
{
    return write([&](QSqlQuery& q) {
        q.prepare(QStringLiteral("DELETE FROM bookmarks WHERE file = ? AND line = ?"));
        q.addBindValue(nn(file));
        q.addBindValue(line);
        return q.exec();
    });
}

std::vector<LineBookmark> NotesStore::bookmarks(const QString& file) const
{
    std::vector<LineBookmark> out;
    if (!m_open)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(file.isEmpty() ? QStringLiteral("SELECT file, line, note, created FROM bookmarks ORDER BY file, line")
                             : QStringLiteral("SELECT file, line, note, created FROM bookmarks WHERE file = ? ORDER BY line"));
    if (!file.isEmpty())
        q.addBindValue(nn(file));
    if (!q.exec())
        return out;
    while (q.next())
        out.push_back({q.value(0).toString(), q.value(1).toULongLong(), q.value(2).toString(), parseTime(q.value(3))});
    return out;
}

bool NotesStore::setNote(const QString& kind, const QString& target, const QString& text, const QString& file, quint64 line)
{
    if (kind.isEmpty() || target.isEmpty())
        return false;
    if (text.trimmed().isEmpty() && !m_open)
        return true;  // removing what was never written: do not create a file for it
    return write([&](QSqlQuery& q) {
        if (text.trimmed().isEmpty()) {
            q.prepare(QStringLiteral("DELETE FROM notes WHERE kind = ? AND target = ?"));
            q.addBindValue(kind);
            q.addBindValue(target);
            return q.exec();
        }
        q.prepare(QStringLiteral("INSERT OR REPLACE INTO notes (kind, target, text, file, line, updated) VALUES (?, ?, ?, ?, ?, ?)"));
        q.addBindValue(kind);
        q.addBindValue(target);
        q.addBindValue(nn(text));
        q.addBindValue(nn(file));
        q.addBindValue(line);
        q.addBindValue(now());
        return q.exec();
    });
}

QString NotesStore::note(const QString& kind, const QString& target) const
{
    if (!m_open)
        return {};
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT text FROM notes WHERE kind = ? AND target = ?"));
    q.addBindValue(kind);
    q.addBindValue(target);
    return q.exec() && q.next() ? q.value(0).toString() : QString();
}

std::vector<ItemNote> NotesStore::notes(const QString& kind) const
{
    std::vector<ItemNote> out;
    if (!m_open)
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(kind.isEmpty()
                  ? QStringLiteral("SELECT kind, target, text, file, line, updated FROM notes ORDER BY kind, target")
                  : QStringLiteral("SELECT kind, target, text, file, line, updated FROM notes WHERE kind = ? ORDER BY target"));
    if (!kind.isEmpty())
        q.addBindValue(kind);
    if (!q.exec())
        return out;
    while (q.next())
        out.push_back({q.value(0).toString(), q.value(1).toString(), q.value(2).toString(), q.value(3).toString(),
                       q.value(4).toULongLong(), parseTime(q.value(5))});
    return out;
}

bool NotesStore::setVerdictOverride(const VerdictOverride& o)
{
    if (o.status.isEmpty() || o.reason.trimmed().isEmpty())
        return false;
    return write([&](QSqlQuery& q) {
        q.prepare(QStringLiteral("INSERT OR REPLACE INTO verdict_override VALUES (1, ?, ?, ?, ?, ?, ?)"));
        for (const QString& v : {o.status, o.domain, o.subDomain, o.rootNode, o.reason,
                                 (o.created.isValid() ? o.created.toUTC().toString(Qt::ISODateWithMs) : now())})
            q.addBindValue(nn(v));
        return q.exec();
    });
}

bool NotesStore::clearVerdictOverride()
{
    if (!m_open)
        return true;
    return write([](QSqlQuery& q) { return q.exec(QStringLiteral("DELETE FROM verdict_override")); });
}

std::optional<VerdictOverride> NotesStore::verdictOverride() const
{
    if (!m_open)
        return std::nullopt;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (!q.exec(QStringLiteral("SELECT status, domain, sub_domain, root_node, reason, created FROM verdict_override")) || !q.next())
        return std::nullopt;
    return VerdictOverride{q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
                           q.value(3).toString(), q.value(4).toString(), parseTime(q.value(5))};
}

} // namespace fl
