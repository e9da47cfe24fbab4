// SPDX-License-Identifier: MIT
#include "views/store/historystore.h"

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
QString canonical(const QString& path)
{
    QString abs = QFileInfo(path).absoluteFilePath();
    while (abs.size() > 1 && abs.endsWith(QLatin1Char('/')))
        abs.chop(1);
    return abs;
}
} // namespace

QString HistoryStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/history.sqlite");
}

HistoryStore::HistoryStore(const QString& dbPath)
    : m_connection(QStringLiteral("faultline-history-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
    , m_path(dbPath)
{
    // A failed open leaves the store unusable (isUsable() false) and names why in error().
    if (!open() && m_error.isEmpty())
        m_error = QObject::tr("Cannot open history file %1").arg(m_path);
}

HistoryStore::~HistoryStore()
{
    if (QSqlDatabase::contains(m_connection)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connection, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
    }
}

bool HistoryStore::open()
{
    const QFileInfo info(m_path);
    if (!QDir().mkpath(info.absolutePath())) {
        m_error = QObject::tr("Cannot create %1").arg(info.absolutePath());
        return false;
    }
    if (info.exists() && info.size() > 0) {
        QFile f(m_path);
        if (!f.open(QIODevice::ReadOnly) || f.read(16) != QByteArray("SQLite format 3\0", 16)) {
            m_error = QObject::tr("History file %1 is not a SQLite database; recent investigations are off").arg(m_path);
            return false;
        }
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    db.setDatabaseName(m_path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=2000"));
    if (!db.open()) {
        m_error = QObject::tr("Cannot open history file %1: %2").arg(m_path, db.lastError().text());
        return false;
    }
    // Idempotent: runs on every start; the version row says what a future
    // migration starts from.
    db.transaction();
    QSqlQuery q(db);
    const bool ok = q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"))
        && q.exec(QStringLiteral("CREATE TABLE IF NOT EXISTS investigations (path TEXT PRIMARY KEY, opened TEXT NOT NULL,"
                                 " verdict TEXT NOT NULL, has_notes INTEGER NOT NULL DEFAULT 0)"))
        && q.exec(QStringLiteral("INSERT OR IGNORE INTO meta VALUES ('application', 'faultline-history')"))
        && q.exec(QStringLiteral("INSERT OR IGNORE INTO meta VALUES ('schema_version', '%1')").arg(kSchemaVersion));
    if (!ok) {
        m_error = QObject::tr("History file %1 is unusable: %2").arg(m_path, q.lastError().text());
        db.rollback();
        return false;
    }
    QSqlQuery check(db);
    if (!check.exec(QStringLiteral("SELECT value FROM meta WHERE key = 'application'")) || !check.next()
        || check.value(0).toString() != QLatin1String("faultline-history")) {
        m_error = QObject::tr("%1 is not Faultline's history file; recent investigations are off").arg(m_path);
        db.rollback();
        return false;
    }
    if (!db.commit()) {
        m_error = db.lastError().text();
        return false;
    }
    return true;
}

bool HistoryStore::record(const QString& bundlePath, const QString& verdict, bool hasNotes)
{
    if (!isUsable())
        return false;
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    db.transaction();
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO investigations (path, opened, verdict, has_notes) VALUES (?, ?, ?, ?)"));
    q.addBindValue(canonical(bundlePath));
    q.addBindValue(QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    q.addBindValue(verdict);
    q.addBindValue(hasNotes ? 1 : 0);
    if (!q.exec()) {
        db.rollback();
        return false;
    }
    return db.commit();
}

bool HistoryStore::remove(const QString& bundlePath)
{
    if (!isUsable())
        return false;
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    db.transaction();
    QSqlQuery q(db);
    q.prepare(QStringLiteral("DELETE FROM investigations WHERE path = ?"));
    q.addBindValue(canonical(bundlePath));
    if (!q.exec()) {
        db.rollback();
        return false;
    }
    return db.commit();
}

std::vector<Investigation> HistoryStore::recent(int limit) const
{
    std::vector<Investigation> out;
    if (!isUsable())
        return out;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT path, opened, verdict, has_notes FROM investigations ORDER BY opened DESC, path LIMIT ?"));
    q.addBindValue(limit);
    if (!q.exec())
        return out;
    while (q.next())
        out.push_back({q.value(0).toString(), QDateTime::fromString(q.value(1).toString(), Qt::ISODateWithMs),
                       q.value(2).toString(), q.value(3).toInt() != 0});
    return out;
}

} // namespace fl
