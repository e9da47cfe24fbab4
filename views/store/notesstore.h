// SPDX-License-Identifier: MIT
// A reviewer's notes on one bundle, kept in a SQLite file beside it (or in
// the user's data folder when that is not writable): bookmarks on raw lines,
// notes on evidence items and lanes, and a verdict override with its reason.
// The evidence files are never written. No widgets here: tested headless.
// The file itself (schema, migrations, every query) is core's store::NotesDb,
// the one `faultline-cli report` reads with; this class chooses where the file
// lives and speaks Qt's types.
#pragma once

#include "store/notes_store.h"

#include <QDateTime>
#include <QString>

#include <optional>
#include <vector>

namespace fl {

struct LineBookmark {
    QString file;         // bundle path of the file, as in EvidenceItem::file
    quint64 line = 0;     // 1-based
    QString note;         // may be empty
    QDateTime created;
    friend bool operator==(const LineBookmark&, const LineBookmark&) = default;
};

struct ItemNote {
    QString kind;         // kEvidence or kLane
    QString target;       // evidence id, or lane key "node" / "node/rank"
    QString text;
    QString file;         // evidence only: where it points, so a note survives renumbered ids
    quint64 line = 0;
    QDateTime updated;
};

struct VerdictOverride {
    QString status;       // attributed | ambiguous | unattributed
    QString domain;
    QString subDomain;
    QString rootNode;
    QString reason;       // required: an override without a reason teaches nothing
    QDateTime created;
};

class NotesStore
{
public:
    static constexpr int kSchemaVersion = store::kNotesSchemaVersion;
    static inline const QString kEvidence = QStringLiteral("evidence");
    static inline const QString kLane = QStringLiteral("lane");

    NotesStore();
    ~NotesStore();
    NotesStore(const NotesStore&) = delete;
    NotesStore& operator=(const NotesStore&) = delete;

    // `<bundle>.faultline-notes.sqlite` next to the folder or archive.
    static QString besidePath(const QString& bundlePath);
    // In the user's data folder, keyed by a hash of the bundle's absolute path.
    static QString fallbackPath(const QString& bundlePath);

    // Attaches to the notes of `bundlePath`: an existing file beside it or in
    // the data folder is opened now; otherwise the file is created on the
    // first write (so merely looking at a bundle leaves nothing behind),
    // beside the bundle if that folder is writable, else in the data folder.
    // Returns false with error() set when notes cannot be stored: no folder is writable, an existing file is unusable
    // (corrupt, foreign, from a newer version; the store then stays empty) or
    // read-only (its notes are shown, changes fail).
    [[nodiscard]] bool openFor(const QString& bundlePath);
    // Opens (creating) exactly `dbPath`.
    [[nodiscard]] bool openFile(const QString& dbPath);
    // Writes everything to `dbPath` and continues there.
    [[nodiscard]] bool saveAs(const QString& dbPath);
    void close();

    QString path() const { return m_path; }     // where notes are (or will be) kept
    bool isOpen() const { return m_db.isOpen(); }
    bool isUsable() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }
    int schemaVersion() const;                  // of the open file, 0 if none
    bool hasNotes() const;

    [[nodiscard]] bool addBookmark(const QString& file, quint64 line, const QString& note = {});
    [[nodiscard]] bool removeBookmark(const QString& file, quint64 line);
    std::vector<LineBookmark> bookmarks(const QString& file = {}) const;  // sorted by file, line

    // Empty text removes the note.
    [[nodiscard]] bool setNote(const QString& kind, const QString& target, const QString& text, const QString& file = {},
                 quint64 line = 0);
    QString note(const QString& kind, const QString& target) const;
    std::vector<ItemNote> notes(const QString& kind = {}) const;  // sorted by kind, target

    [[nodiscard]] bool setVerdictOverride(const VerdictOverride& o);
    [[nodiscard]] bool clearVerdictOverride();
    [[nodiscard]] std::optional<VerdictOverride> verdictOverride() const;

    // The review record (append-only decisions, oldest first) and the threads of comments per evidence item,
    // in core's types (present/report.h): a decision's and a comment's time are set when stored. Refused
    // (false, error() says why) as core refuses them: no reviewer or author, a choose without a reason.
    [[nodiscard]] bool appendReview(present::ReviewDecision& decision);
    std::vector<present::ReviewDecision> reviews() const;
    [[nodiscard]] bool addComment(present::ThreadComment& comment);
    std::vector<present::ThreadComment> threads(const QString& target = {}) const;  // by target, then id
    // Why the last appendReview / addComment was refused (the store stays usable); empty after one succeeded.
    QString refusal() const { return m_lastRefusal; }

private:
    [[nodiscard]] bool ensureOpen();
    [[nodiscard]] bool openDb(const QString& dbPath, bool create);
    bool fail(const QString& message);
    bool write(bool ok);  // keeps the store's message when a write failed

    store::NotesDb m_db;
    QString m_path;
    QString m_bundle;
    QString m_error;
    QString m_lastRefusal;
};

} // namespace fl
