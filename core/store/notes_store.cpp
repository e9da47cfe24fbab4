#include "store/notes_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <fstream>
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

// One prepared statement; values bound in order with bind().
class Stmt
{
public:
    Stmt(sqlite3* db, const char* sql) { m_ok = sqlite3_prepare_v2(db, sql, -1, &m_s, nullptr) == SQLITE_OK; }
    ~Stmt() { sqlite3_finalize(m_s); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& bind(const std::string& v)
    {
        m_ok = m_ok && sqlite3_bind_text(m_s, ++m_arg, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) == SQLITE_OK;
        return *this;
    }
    Stmt& bind(uint64_t v)
    {
        m_ok = m_ok && sqlite3_bind_int64(m_s, ++m_arg, static_cast<sqlite3_int64>(v)) == SQLITE_OK;
        return *this;
    }
    // Runs to the end, calling row(stmt) for each result row.
    template <typename F>
    bool each(F row)
    {
        if (!m_ok)
            return false;
        int rc;
        while ((rc = sqlite3_step(m_s)) == SQLITE_ROW)
            row(*this);
        return rc == SQLITE_DONE;
    }
    bool run()
    {
        return each([](Stmt&) {});
    }
    std::string text(int i) const
    {
        const unsigned char* t = sqlite3_column_text(m_s, i);
        return t ? reinterpret_cast<const char*>(t) : std::string();
    }
    uint64_t line(int i) const { return static_cast<uint64_t>(std::max<sqlite3_int64>(0, sqlite3_column_int64(m_s, i))); }
    int integer(int i) const { return sqlite3_column_int(m_s, i); }
    int64_t integer64(int i) const { return sqlite3_column_int64(m_s, i); }

private:
    sqlite3_stmt* m_s = nullptr;
    int m_arg = 0;
    bool m_ok = false;
};

bool hasTable(sqlite3* db, const std::string& name)
{
    bool found = false;
    Stmt s(db, "SELECT name FROM sqlite_master WHERE type = 'table'");
    s.each([&](Stmt& r) { found |= r.text(0) == name; });
    return found;
}

bool anyTable(sqlite3* db, bool& any)
{
    any = false;
    Stmt s(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table'");
    return s.each([&](Stmt& r) { any = r.integer(0) > 0; });
}

// The file's application and schema version from meta; version 0 when unrecorded.
bool metaOf(sqlite3* db, std::string& application, int& version)
{
    version = 0;
    Stmt s(db, "SELECT key, value FROM meta");
    return s.each([&](Stmt& r) {
        if (r.text(0) == "application")
            application = r.text(1);
        else if (r.text(0) == "schema_version")
            version = std::max(0, r.integer(1));
    });
}

// SQLite accepts any file at open and fails only at the first read: the header
// says at once whether this is a database at all.
bool looksLikeSqlite(const std::string& path, bool& exists)
{
    std::ifstream in(path, std::ios::binary);
    exists = in.good();
    if (!exists)
        return true;
    char head[16] = {};
    in.read(head, sizeof head);
    const auto got = in.gcount();
    return got == 0 || (got == 16 && std::string(head, 16) == std::string("SQLite format 3\0", 16));
}

// Runs steps from..to-1 of notesMigrations(), each in its own transaction with its version recorded, so a file
// cut off between steps is simply taken up again at the next open.
bool migrateSteps(sqlite3* db, int from, int to, const std::string& bundlePath, std::string& why)
{
    for (int step = from; step < to; ++step) {
        std::string sql = "BEGIN IMMEDIATE;";
        for (const char* statement : notesMigrations()[static_cast<size_t>(step)])
            sql += std::string(statement) + ";";
        // The meta values are bound, not spliced into the SQL: a bundle path may hold a quote.
        bool ok = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
        ok = ok && Stmt(db, "INSERT OR REPLACE INTO meta (key, value) VALUES ('application', ?), ('schema_version', ?)")
                       .bind(std::string(kNotesApplication))
                       .bind(std::to_string(step + 1))
                       .run();
        ok = ok && (bundlePath.empty() ||
                    Stmt(db, "INSERT OR REPLACE INTO meta (key, value) VALUES ('bundle_path', ?)").bind(bundlePath).run());
        ok = ok && sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
        if (!ok) {
            why = sqlite3_errmsg(db);
            sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
            return false;
        }
    }
    return true;
}

} // namespace

NotesDb::~NotesDb()
{
    close();
}

void NotesDb::close()
{
    sqlite3_close(m_db);
    m_db = nullptr;
}

bool NotesDb::fail(const std::string& why) const
{
    m_error = m_path + ": " + why;
    return false;
}

bool NotesDb::open(const std::string& path, Mode mode, const std::string& bundlePath)
{
    close();
    m_path = path;
    m_error.clear();
    bool exists = false;
    if (!looksLikeSqlite(path, exists))
        return fail("not a SQLite database (corrupt or not Faultline's)");
    if (!exists && mode == Mode::ReadOnly)
        return fail("cannot open the notes file: no such file");
    const int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
        const std::string why = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        close();
        return fail("cannot open the notes file: " + why);
    }
    sqlite3_busy_timeout(m_db, 2000);
    bool any = false;
    if (!anyTable(m_db, any)) {
        const std::string why = sqlite3_errmsg(m_db);
        close();
        return fail("unreadable notes file: " + why);
    }
    std::string application;
    int version = 0;
    const bool fresh = !any && mode == Mode::ReadWrite;
    std::string refused;
    if (!fresh && (!hasTable(m_db, "meta") || !metaOf(m_db, application, version) || application != kNotesApplication))
        refused = "not a Faultline notes file";
    else if (version > kNotesSchemaVersion)
        refused = "notes schema version " + std::to_string(version) + ", newer than this Faultline reads (" +
                  std::to_string(kNotesSchemaVersion) + ")";
    else if (!fresh && (version < 1 || !hasTable(m_db, "notes") || !hasTable(m_db, "bookmarks")))
        refused = "not a Faultline notes file";
    if (!refused.empty()) {
        close();
        return fail(refused);
    }
    if (mode == Mode::ReadWrite && !migrate(version, kNotesSchemaVersion, bundlePath)) {
        close();
        return false;
    }
    return true;
}

template <typename F>
bool NotesDb::transaction(F&& body)
{
    if (!m_db)
        return fail("no notes file open");
    if (sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK)
        return fail(std::string("cannot write: ") + sqlite3_errmsg(m_db));
    if (!body()) {
        const std::string why = sqlite3_errmsg(m_db);
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        return fail("cannot write: " + why);
    }
    if (sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
        const std::string why = sqlite3_errmsg(m_db);
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        return fail("cannot write: " + why);
    }
    return true;
}

bool NotesDb::migrate(int from, int to, const std::string& bundlePath)
{
    std::string why;
    return migrateSteps(m_db, from, to, bundlePath, why) || fail("cannot prepare the notes file: " + why);
}

int NotesDb::schemaVersion() const
{
    if (!m_db)
        return 0;
    std::string application;
    int version = 0;
    return metaOf(m_db, application, version) ? version : 0;
}

bool NotesDb::hasNotes() const
{
    if (!m_db)
        return false;
    bool any = false;
    Stmt s(m_db, "SELECT (SELECT count(*) FROM bookmarks) + (SELECT count(*) FROM notes)");
    s.each([&](Stmt& r) { any = r.integer(0) > 0; });
    return any || verdictOverride().has_value();
}

bool NotesDb::addBookmark(const present::ReviewBookmark& b)
{
    return transaction([&] {
        return Stmt(m_db, "INSERT INTO bookmarks (file, line, note, created) VALUES (?, ?, ?, ?)"
                          " ON CONFLICT (file, line) DO UPDATE SET note = excluded.note")
            .bind(b.file).bind(b.line).bind(b.note).bind(b.when).run();
    });
}

bool NotesDb::removeBookmark(const std::string& file, uint64_t line)
{
    return transaction([&] { return Stmt(m_db, "DELETE FROM bookmarks WHERE file = ? AND line = ?").bind(file).bind(line).run(); });
}

std::vector<present::ReviewBookmark> NotesDb::bookmarks(const std::string& file) const
{
    std::vector<present::ReviewBookmark> out;
    if (!m_db)
        return out;
    Stmt s(m_db, file.empty() ? "SELECT file, line, note, created FROM bookmarks ORDER BY file, line"
                              : "SELECT file, line, note, created FROM bookmarks WHERE file = ? ORDER BY line");
    if (!file.empty())
        s.bind(file);
    if (!s.each([&](Stmt& r) { out.push_back({r.text(0), r.line(1), r.text(2), r.text(3)}); }))
        fail(std::string("cannot read the bookmarks: ") + sqlite3_errmsg(m_db));
    return out;
}

bool NotesDb::setNote(const present::ReviewNote& n)
{
    return transaction([&] {
        return Stmt(m_db, "INSERT OR REPLACE INTO notes (kind, target, text, file, line, updated) VALUES (?, ?, ?, ?, ?, ?)")
            .bind(n.kind).bind(n.target).bind(n.text).bind(n.file).bind(n.line).bind(n.when).run();
    });
}

bool NotesDb::removeNote(const std::string& kind, const std::string& target)
{
    return transaction([&] { return Stmt(m_db, "DELETE FROM notes WHERE kind = ? AND target = ?").bind(kind).bind(target).run(); });
}

std::optional<std::string> NotesDb::note(const std::string& kind, const std::string& target) const
{
    std::optional<std::string> out;
    if (m_db)
        Stmt(m_db, "SELECT text FROM notes WHERE kind = ? AND target = ?").bind(kind).bind(target).each([&](Stmt& r) {
            out = r.text(0);
        });
    return out;
}

std::vector<present::ReviewNote> NotesDb::notes(const std::string& kind) const
{
    std::vector<present::ReviewNote> out;
    if (!m_db)
        return out;
    Stmt s(m_db, kind.empty() ? "SELECT kind, target, text, file, line, updated FROM notes ORDER BY kind, target"
                              : "SELECT kind, target, text, file, line, updated FROM notes WHERE kind = ? ORDER BY target");
    if (!kind.empty())
        s.bind(kind);
    if (!s.each([&](Stmt& r) { out.push_back({r.text(0), r.text(1), r.text(3), r.line(4), r.text(2), r.text(5)}); }))
        fail(std::string("cannot read the notes: ") + sqlite3_errmsg(m_db));
    return out;
}

bool NotesDb::setVerdictOverride(const present::ReviewOverride& o)
{
    return transaction([&] {
        return Stmt(m_db, "INSERT OR REPLACE INTO verdict_override VALUES (1, ?, ?, ?, ?, ?, ?)")
            .bind(o.status).bind(o.domain).bind(o.subDomain).bind(o.rootNode).bind(o.reason).bind(o.when).run();
    });
}

bool NotesDb::clearVerdictOverride()
{
    return transaction([&] { return Stmt(m_db, "DELETE FROM verdict_override").run(); });
}

std::optional<present::ReviewOverride> NotesDb::verdictOverride() const
{
    std::optional<present::ReviewOverride> out;
    if (m_db && schemaVersion() >= 2)
        Stmt(m_db, "SELECT status, domain, sub_domain, root_node, reason, created FROM verdict_override").each([&](Stmt& r) {
            out = present::ReviewOverride{r.text(0), r.text(1), r.text(2), r.text(3), r.text(4), r.text(5)};
        });
    return out;
}

bool NotesDb::read(present::ReviewNotes& out) const
{
    if (!m_db)
        return fail("no notes file open");
    m_error.clear();
    out.notes = notes();
    out.bookmarks = bookmarks();
    out.verdictOverride = verdictOverride();
    out.reviews = reviews();
    return m_error.empty();
}

std::vector<present::ReviewDecision> NotesDb::reviews() const
{
    std::vector<present::ReviewDecision> out;
    if (!m_db || schemaVersion() < 3)
        return out;
    Stmt s(m_db, "SELECT reviewer, choice, status, domain, sub_domain, symptom, place, evidence_id, event,"
                 " engine_status, reason, created FROM review ORDER BY seq");
    const bool ok = s.each([&](Stmt& r) {
        present::ReviewDecision d;
        d.reviewer = r.text(0);
        d.choice = r.text(1) == "choose" ? present::ReviewChoice::Choose : present::ReviewChoice::Confirm;
        d.status = r.text(2);
        d.domain = r.text(3);
        d.subDomain = r.text(4);
        d.symptom = r.text(5);
        d.place = r.text(6);
        d.evidenceId = r.text(7);
        d.event = r.integer64(8);
        d.engineStatus = r.text(9);
        d.reason = r.text(10);
        d.when = r.text(11);
        out.push_back(std::move(d));
    });
    if (!ok)
        fail(std::string("cannot read the review history: ") + sqlite3_errmsg(m_db));
    return out;
}

bool NotesDb::writeAll(const present::ReviewNotes& all)
{
    return transaction([&] {
        for (const present::ReviewBookmark& b : all.bookmarks)
            if (!Stmt(m_db, "INSERT OR REPLACE INTO bookmarks (file, line, note, created) VALUES (?, ?, ?, ?)")
                     .bind(b.file).bind(b.line).bind(b.note).bind(b.when).run())
                return false;
        for (const present::ReviewNote& n : all.notes)
            if (!Stmt(m_db, "INSERT OR REPLACE INTO notes (kind, target, text, file, line, updated) VALUES (?, ?, ?, ?, ?, ?)")
                     .bind(n.kind).bind(n.target).bind(n.text).bind(n.file).bind(n.line).bind(n.when).run())
                return false;
        const auto& o = all.verdictOverride;
        return !o || Stmt(m_db, "INSERT OR REPLACE INTO verdict_override VALUES (1, ?, ?, ?, ?, ?, ?)")
                         .bind(o->status).bind(o->domain).bind(o->subDomain).bind(o->rootNode).bind(o->reason).bind(o->when)
                         .run();
    });
}

bool readNotes(const std::string& path, present::ReviewNotes& out, std::string& error)
{
    NotesDb db;
    if (!db.open(path, NotesDb::Mode::ReadOnly) || !db.read(out)) {
        error = db.error();
        return false;
    }
    return true;
}

bool createNotes(const std::string& path, int version, std::string& error)
{
    if (version < 1 || version > kNotesSchemaVersion) {
        error = path + ": no notes schema version " + std::to_string(version);
        return false;
    }
    // Upgrading stops at `version`, which NotesDb::open (always the newest) cannot do: migrate by hand.
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        error = path + ": " + (db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        return false;
    }
    std::string application;
    int from = 0;
    bool ok = true;
    if (hasTable(db, "meta") && (!metaOf(db, application, from) || application != kNotesApplication)) {
        error = path + ": not a Faultline notes file";
        ok = false;
    }
    if (ok && !migrateSteps(db, from, version, {}, error)) {
        error = path + ": " + error;
        ok = false;
    }
    sqlite3_close(db);
    return ok;
}

} // namespace fl::store
