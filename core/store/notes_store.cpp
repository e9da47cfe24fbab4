#include "store/notes_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <string>

namespace fl::store {

const std::vector<std::vector<const char*>>& notesMigrations()
{
    static const std::vector<std::vector<const char*>> steps = {
        {
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS bookmarks (file TEXT NOT NULL, line INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '',"
            " created TEXT NOT NULL, PRIMARY KEY (file, line))",
            "CREATE TABLE IF NOT EXISTS notes (kind TEXT NOT NULL, target TEXT NOT NULL, text TEXT NOT NULL,"
            " file TEXT NOT NULL DEFAULT '', line INTEGER NOT NULL DEFAULT 0, updated TEXT NOT NULL,"
            " PRIMARY KEY (kind, target))",
        },
        {
            "CREATE TABLE IF NOT EXISTS verdict_override (id INTEGER PRIMARY KEY CHECK (id = 1), status TEXT NOT NULL,"
            " domain TEXT NOT NULL, sub_domain TEXT NOT NULL, root_node TEXT NOT NULL, reason TEXT NOT NULL,"
            " created TEXT NOT NULL)",
        },
        {
            // The review history: one row per decision, never changed or removed (the triggers), so
            // who decided what, and when, stays on record; the current decision is the last row.
            "CREATE TABLE IF NOT EXISTS review (seq INTEGER PRIMARY KEY AUTOINCREMENT, reviewer TEXT NOT NULL,"
            " choice TEXT NOT NULL CHECK (choice IN ('confirm', 'choose')), status TEXT NOT NULL,"
            " domain TEXT NOT NULL, sub_domain TEXT NOT NULL, symptom TEXT NOT NULL, place TEXT NOT NULL,"
            " evidence_id TEXT NOT NULL, event INTEGER NOT NULL, engine_status TEXT NOT NULL, reason TEXT NOT NULL,"
            " created TEXT NOT NULL, CHECK (choice = 'confirm' OR length(trim(reason)) > 0))",
            "CREATE TRIGGER IF NOT EXISTS review_keep_updates BEFORE UPDATE ON review"
            " BEGIN SELECT RAISE(ABORT, 'the review history is append-only'); END",
            "CREATE TRIGGER IF NOT EXISTS review_keep_deletes BEFORE DELETE ON review"
            " BEGIN SELECT RAISE(ABORT, 'the review history is append-only'); END",
        },
    };
    static_assert(kNotesSchemaVersion == 3, "one migration step per schema version");
    return steps;
}

namespace {

struct Db {
    sqlite3* db = nullptr;
    ~Db() { sqlite3_close(db); }
};

std::string column(sqlite3_stmt* s, int i)
{
    const unsigned char* t = sqlite3_column_text(s, i);
    return t ? reinterpret_cast<const char*>(t) : std::string();
}

uint64_t lineOf(sqlite3_stmt* s, int i)
{
    return static_cast<uint64_t>(std::max<sqlite3_int64>(0, sqlite3_column_int64(s, i)));
}

template <typename F>
bool eachRow(sqlite3* db, const char* sql, F row)
{
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK)
        return false;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        row(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE;
}

bool hasTable(sqlite3* db, const std::string& name)
{
    bool found = false;
    eachRow(db, "SELECT name FROM sqlite_master WHERE type = 'table'", [&](sqlite3_stmt* s) { found |= column(s, 0) == name; });
    return found;
}

// The file's application and schema version from meta; version 0 when unrecorded.
bool metaOf(sqlite3* db, std::string& application, int& version)
{
    version = 0;
    return eachRow(db, "SELECT key, value FROM meta", [&](sqlite3_stmt* s) {
        if (column(s, 0) == "application")
            application = column(s, 1);
        else if (column(s, 0) == "schema_version")
            version = std::max(0, sqlite3_column_int(s, 1));
    });
}

} // namespace

bool readNotes(const std::string& path, present::ReviewNotes& out, std::string& error)
{
    Db d;
    if (sqlite3_open_v2(path.c_str(), &d.db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        error = path + ": cannot open the notes file: " + (d.db ? sqlite3_errmsg(d.db) : "out of memory");
        return false;
    }
    std::string application;
    int version = 0;
    if (!hasTable(d.db, "meta") || !metaOf(d.db, application, version) || application != kNotesApplication ||
        version < 1 || !hasTable(d.db, "notes") || !hasTable(d.db, "bookmarks")) {
        error = path + ": not a Faultline notes file";
        return false;
    }
    if (version > kNotesSchemaVersion) {
        error = path + ": notes schema version " + std::to_string(version) + ", newer than this Faultline reads (" +
                std::to_string(kNotesSchemaVersion) + ")";
        return false;
    }
    bool ok = eachRow(d.db, "SELECT kind, target, text, file, line, updated FROM notes ORDER BY kind, target",
                      [&](sqlite3_stmt* s) {
                          out.notes.push_back({column(s, 0), column(s, 1), column(s, 3), lineOf(s, 4), column(s, 2),
                                               column(s, 5)});
                      });
    ok = ok && eachRow(d.db, "SELECT file, line, note, created FROM bookmarks ORDER BY file, line", [&](sqlite3_stmt* s) {
        out.bookmarks.push_back({column(s, 0), lineOf(s, 1), column(s, 2), column(s, 3)});
    });
    if (ok && version >= 2)
        ok = eachRow(d.db, "SELECT status, domain, sub_domain, root_node, reason, created FROM verdict_override",
                     [&](sqlite3_stmt* s) {
                         out.verdictOverride = present::ReviewOverride{column(s, 0), column(s, 1), column(s, 2),
                                                                      column(s, 3), column(s, 4), column(s, 5)};
                     });
    if (ok && version >= 3)
        ok = eachRow(d.db,
                     "SELECT reviewer, choice, status, domain, sub_domain, symptom, place, evidence_id, event,"
                     " engine_status, reason, created FROM review ORDER BY seq",
                     [&](sqlite3_stmt* s) {
                         present::ReviewDecision r;
                         r.reviewer = column(s, 0);
                         r.choice = column(s, 1) == "choose" ? present::ReviewChoice::Choose : present::ReviewChoice::Confirm;
                         r.status = column(s, 2);
                         r.domain = column(s, 3);
                         r.subDomain = column(s, 4);
                         r.symptom = column(s, 5);
                         r.place = column(s, 6);
                         r.evidenceId = column(s, 7);
                         r.event = sqlite3_column_int64(s, 8);
                         r.engineStatus = column(s, 9);
                         r.reason = column(s, 10);
                         r.when = column(s, 11);
                         out.reviews.push_back(std::move(r));
                     });
    if (!ok)
        error = path + ": cannot read the notes: " + sqlite3_errmsg(d.db);
    return ok;
}

bool createNotes(const std::string& path, int version, std::string& error)
{
    if (version < 1 || version > kNotesSchemaVersion) {
        error = path + ": no notes schema version " + std::to_string(version);
        return false;
    }
    Db d;
    if (sqlite3_open_v2(path.c_str(), &d.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        error = path + ": " + (d.db ? sqlite3_errmsg(d.db) : "cannot open");
        return false;
    }
    std::string application;
    int from = 0;
    if (hasTable(d.db, "meta") && (!metaOf(d.db, application, from) || application != kNotesApplication)) {
        error = path + ": not a Faultline notes file";
        return false;
    }
    for (int step = from; step < version; ++step) {
        std::string sql = "BEGIN;";
        for (const char* statement : notesMigrations()[static_cast<size_t>(step)])
            sql += std::string(statement) + ";";
        sql += std::string("INSERT OR REPLACE INTO meta (key, value) VALUES ('application', '") + kNotesApplication +
               "'), ('schema_version', '" + std::to_string(step + 1) + "');COMMIT;";
        char* msg = nullptr;
        if (sqlite3_exec(d.db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
            error = path + ": " + (msg ? msg : "cannot migrate");
            sqlite3_free(msg);
            return false;
        }
    }
    return true;
}

} // namespace fl::store
