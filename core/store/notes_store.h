// The reviewer's notes file (`<bundle>.faultline-notes.sqlite`): its schema,
// the steps that migrate it, and the one store that reads and writes it.
// Qt-free, on sqlite3: the CLI report reads it here, the workbench's NotesStore
// (views/store/notesstore.cpp) keeps its notes through NotesDb, so a schema
// change is made once and both follow.
#pragma once

#include "present/report.h"

#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace fl::store {

inline constexpr int kNotesSchemaVersion = 3;
// meta.application: tells a notes file from any other SQLite file.
inline constexpr const char* kNotesApplication = "faultline-notes";

// Step i takes the schema from version i to i + 1. Every statement is idempotent,
// so a step interrupted before its version was recorded can simply run again.
// After each step the writer records meta(application, schema_version = i + 1).
const std::vector<std::vector<const char*>>& notesMigrations();

// One open notes file. Every failure leaves a message naming the file in error().
class NotesDb
{
public:
    enum class Mode { ReadOnly, ReadWrite };

    NotesDb() = default;
    ~NotesDb();
    NotesDb(const NotesDb&) = delete;
    NotesDb& operator=(const NotesDb&) = delete;

    // ReadOnly: an existing notes file of schema 1..kNotesSchemaVersion, left as it is.
    // ReadWrite: creates `path` when missing (not its folder) and migrates it to
    // kNotesSchemaVersion; `bundlePath`, when given, is recorded in meta. Refused,
    // with the file untouched: not SQLite, not a Faultline notes file, a newer schema.
    [[nodiscard]] bool open(const std::string& path, Mode mode, const std::string& bundlePath = {});
    void close();
    bool isOpen() const { return m_db != nullptr; }
    const std::string& error() const { return m_error; }
    int schemaVersion() const;  // of the open file, 0 if none
    bool hasNotes() const;

    // A bookmark on a line already marked keeps its creation time and takes the new note.
    [[nodiscard]] bool addBookmark(const present::ReviewBookmark& b);
    [[nodiscard]] bool removeBookmark(const std::string& file, uint64_t line);
    std::vector<present::ReviewBookmark> bookmarks(const std::string& file = {}) const;  // by file, line

    [[nodiscard]] bool setNote(const present::ReviewNote& n);  // replaces (kind, target)
    [[nodiscard]] bool removeNote(const std::string& kind, const std::string& target);
    std::optional<std::string> note(const std::string& kind, const std::string& target) const;
    std::vector<present::ReviewNote> notes(const std::string& kind = {}) const;  // by kind, target

    [[nodiscard]] bool setVerdictOverride(const present::ReviewOverride& o);
    [[nodiscard]] bool clearVerdictOverride();
    std::optional<present::ReviewOverride> verdictOverride() const;  // schema 2 on
    std::vector<present::ReviewDecision> reviews() const;            // schema 3 on, oldest first

    // Everything at once: reading the whole file, or writing a whole set in one transaction (save as).
    [[nodiscard]] bool read(present::ReviewNotes& out) const;
    [[nodiscard]] bool writeAll(const present::ReviewNotes& all);

private:
    bool fail(const std::string& why) const;
    bool migrate(int from, int to, const std::string& bundlePath);
    template <typename F> bool transaction(F&& body);

    sqlite3* m_db = nullptr;
    std::string m_path;
    mutable std::string m_error;
};

// Reads a notes file of any schema 1..kNotesSchemaVersion, read-only: its notes
// (sorted by kind, target), bookmarks (by file, line) and the verdict override
// (schema 2 on) and the review decisions, oldest first (schema 3 on). False with `error` naming the file when it cannot be opened, is
// not a Faultline notes file, or has a newer schema than this build reads.
[[nodiscard]] bool readNotes(const std::string& path, present::ReviewNotes& out, std::string& error);

// Creates `path` (or upgrades it) to schema `version` (1..kNotesSchemaVersion) with
// notesMigrations(): an old-schema file for tests and tools.
[[nodiscard]] bool createNotes(const std::string& path, int version, std::string& error);

} // namespace fl::store
