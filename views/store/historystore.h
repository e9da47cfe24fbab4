// SPDX-License-Identifier: MIT
// The investigations a user opened (path, when, verdict, whether notes
// exist), one SQLite file in the user's data folder, for File → Recent
// investigations. No widgets here: tested headless.
#pragma once

#include <QDateTime>
#include <QString>

#include <vector>

namespace fl {

struct Investigation {
    QString path;       // absolute bundle path
    QDateTime opened;   // UTC, last time it was opened
    QString verdict;    // e.g. "attributed · gpu / xid", "cancelled"
    bool hasNotes = false;
};

class HistoryStore
{
public:
    static constexpr int kSchemaVersion = 1;
    static QString defaultPath();  // AppDataLocation/history.sqlite

    explicit HistoryStore(const QString& dbPath = defaultPath());
    ~HistoryStore();
    HistoryStore(const HistoryStore&) = delete;
    HistoryStore& operator=(const HistoryStore&) = delete;

    bool isUsable() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    QString path() const { return m_path; }

    [[nodiscard]] bool record(const QString& bundlePath, const QString& verdict, bool hasNotes);
    [[nodiscard]] bool remove(const QString& bundlePath);
    // Most recent first, at most `limit`.
    std::vector<Investigation> recent(int limit = 15) const;

private:
    [[nodiscard]] bool open();
    QString m_connection;
    QString m_path;
    QString m_error;
};

} // namespace fl
