// SQLite back end: one file under --data, WAL journal, synchronous=FULL so a
// committed transaction survives kill -9 and power loss. A small pool of
// connections lets readers run beside the one writer WAL allows.
#include "store.h"
#include "store_schema.h"

#include <sqlite3.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>

namespace fl::service {

namespace {

struct Conn {
    sqlite3* db = nullptr;
    ~Conn() { sqlite3_close_v2(db); }
};

class Stmt {
public:
    Stmt(sqlite3* db, const char* sql) : db_(db)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK)
            throw StoreError(std::string("sqlite prepare: ") + sqlite3_errmsg(db));
    }
    ~Stmt() { sqlite3_finalize(st_); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    Stmt& bind(int i, const std::string& v)
    {
        sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Stmt& blob(int i, const std::string& v)
    {
        sqlite3_bind_blob64(st_, i, v.data(), v.size(), SQLITE_STATIC);
        return *this;
    }
    Stmt& bind(int i, int64_t v)
    {
        sqlite3_bind_int64(st_, i, v);
        return *this;
    }
    Stmt& bind(int i, double v)
    {
        sqlite3_bind_double(st_, i, v);
        return *this;
    }
    bool step()
    {
        const int rc = sqlite3_step(st_);
        if (rc == SQLITE_ROW)
            return true;
        if (rc == SQLITE_DONE)
            return false;
        throw StoreError(std::string("sqlite: ") + sqlite3_errmsg(db_));
    }
    void reset()
    {
        sqlite3_reset(st_);
        sqlite3_clear_bindings(st_);
    }
    std::string text(int c) const
    {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(st_, c));
        return p ? std::string(p, static_cast<size_t>(sqlite3_column_bytes(st_, c))) : std::string();
    }
    int64_t i64(int c) const { return sqlite3_column_int64(st_, c); }
    double real(int c) const { return sqlite3_column_double(st_, c); }

private:
    sqlite3* db_;
    sqlite3_stmt* st_ = nullptr;
};

void exec(sqlite3* db, const char* sql)
{
    char* err = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        std::string m = err ? err : "unknown error";
        sqlite3_free(err);
        throw StoreError("sqlite: " + m);
    }
}

// INSERT OR REPLACE may delete a row before it inserts, so inside a transaction SQLite keeps a statement
// journal for it: every row written copies the 64 KiB page it lands on (the store's page size) into a temp
// file first. For the 709 files of the bench's archive that was 11 % of an analysis' CPU (perf). A plain
// INSERT of one row needs no statement journal, and is what "replace" means when the session has no files
// yet and no path comes twice, which is the case for every POST /v2/bundles.
bool plainInsertsSuffice(sqlite3* db, const SessionId& id, const std::vector<FileRecord>& files)
{
    std::vector<std::string_view> paths;
    paths.reserve(files.size());
    for (const auto& f : files)
        paths.push_back(f.path);
    std::sort(paths.begin(), paths.end());
    if (std::adjacent_find(paths.begin(), paths.end()) != paths.end())
        return false;
    Stmt any(db, "SELECT EXISTS (SELECT 1 FROM files WHERE session_id = ?)");
    any.bind(1, id.value).step();
    return any.i64(0) == 0;
}

std::string insertVerb(bool plain) { return plain ? "INSERT" : "INSERT OR REPLACE"; }

SessionRecord sessionFrom(const Stmt& s)
{
    SessionRecord r;
    r.id.value = s.text(0);
    r.workloadId = s.text(1);
    r.attempt = static_cast<int>(s.i64(2));
    r.userId = s.text(3);
    r.createdNs = s.i64(4);
    r.requestJson = s.text(5);
    r.latestRun = static_cast<int>(s.i64(6));
    r.status = s.text(7);
    r.domain = s.text(8);
    r.nodes = s.text(9);
    return r;
}

constexpr const char* kSessionCols =
    "id, workload_id, attempt, user_id, created_ns, request_json, latest_run, status, domain, nodes";

class SqliteStore final : public Store {
public:
    explicit SqliteStore(std::string path) : path_(std::move(path))
    {
        auto c = open();
        exec(c->db, storeSchema("INTEGER", "BLOB", "REAL").c_str());
        // Runs stored before the history's summary existed, or rows loaded around the service: count them.
        std::string error;
        if (!history::ensureSummaryOnSqlite(c->db, "run_causes", true, error))
            throw StoreError("sqlite: " + error);
        pool_.push_back(std::move(c));
    }

    std::string backend() const override { return "sqlite"; }

    void ping() override
    {
        auto c = borrow();
        Stmt s(c.get(), "SELECT 1 FROM sessions LIMIT 1");
        s.step();
    }

    void createSession(const SessionRecord& r) override
    {
        const std::lock_guard writing(writer_);
        auto c = borrow();
        Stmt s(c.get(), "INSERT INTO sessions (id, workload_id, attempt, user_id, created_ns, request_json, status) "
                        "VALUES (?,?,?,?,?,?,'open')");
        s.bind(1, r.id.value).bind(2, r.workloadId).bind(3, int64_t(r.attempt)).bind(4, r.userId);
        s.bind(5, r.createdNs).bind(6, r.requestJson).step();
    }

    std::optional<SessionRecord> session(const SessionId& id) override
    {
        auto c = borrow();
        Stmt s(c.get(), (std::string("SELECT ") + kSessionCols + " FROM sessions WHERE id = ?").c_str());
        s.bind(1, id.value);
        if (!s.step())
            return std::nullopt;
        return sessionFrom(s);
    }

    std::vector<SessionRecord> sessions(const SessionFilter& f) override
    {
        auto c = borrow();
        std::string sql = std::string("SELECT ") + kSessionCols +
                          " FROM sessions WHERE created_ns >= ? AND created_ns <= ?"
                          " AND (? = '' OR workload_id = ?) AND (? = '' OR status = ?) AND (? = '' OR domain = ?)"
                          " AND (? = '' OR instr(nodes, ',' || ? || ',') > 0)"
                          " ORDER BY created_ns DESC, id LIMIT ? OFFSET ?";
        Stmt s(c.get(), sql.c_str());
        s.bind(1, f.sinceNs).bind(2, f.untilNs);
        s.bind(3, f.workloadId).bind(4, f.workloadId).bind(5, f.status).bind(6, f.status);
        s.bind(7, f.domain).bind(8, f.domain).bind(9, f.node).bind(10, f.node);
        s.bind(11, int64_t(f.limit)).bind(12, int64_t(f.offset));
        std::vector<SessionRecord> out;
        while (s.step())
            out.push_back(sessionFrom(s));
        return out;
    }

    void putFiles(const SessionId& id, const std::vector<FileRecord>& files) override
    {
        const std::lock_guard writing(writer_);
        auto c = borrow();
        exec(c.get(), "BEGIN IMMEDIATE");
        try {
            const bool fresh = plainInsertsSuffice(c.get(), id, files);
            Stmt s(c.get(), (insertVerb(fresh) + " INTO files (session_id, path, kind, node, rank, size, added_ns, "
                             "content) VALUES (?,?,?,?,?,?,?,?)").c_str());
            // A file posted again replaces one an archive held: its bytes are now this row's.
            Stmt a(c.get(), "DELETE FROM archive_files WHERE session_id = ? AND path = ?");
            bool replacedArchived = false;
            for (const auto& f : files) {
                s.bind(1, id.value).bind(2, f.path).bind(3, f.kind).bind(4, f.node).bind(5, int64_t(f.rank));
                s.bind(6, int64_t(f.content.size())).bind(7, f.addedNs).blob(8, f.content).step();
                s.reset();
                if (fresh) // no file yet, so no archive holds one
                    continue;
                a.bind(1, id.value).bind(2, f.path).step();
                replacedArchived |= sqlite3_changes(c.get()) > 0;
                a.reset();
            }
            if (replacedArchived) {
                Stmt d(c.get(), dropUnreferencedArchives());
                d.bind(1, id.value).step();
            }
            exec(c.get(), "COMMIT");
        } catch (...) {
            sqlite3_exec(c.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
    }

    int putArchive(const SessionId& id, const std::string& archiveBytes, int64_t addedNs,
                   const std::vector<FileRecord>& members) override
    {
        const std::lock_guard writing(writer_);
        auto c = borrow();
        exec(c.get(), "BEGIN IMMEDIATE");
        int number = 0;
        try {
            Stmt n(c.get(), "SELECT COALESCE(MAX(archive), 0) + 1 FROM archives WHERE session_id = ?");
            n.bind(1, id.value).step();
            number = static_cast<int>(n.i64(0));
            Stmt ar(c.get(), "INSERT INTO archives (session_id, archive, added_ns, content) VALUES (?,?,?,?)");
            ar.bind(1, id.value).bind(2, int64_t(number)).bind(3, addedNs).blob(4, archiveBytes).step();
            const bool fresh = plainInsertsSuffice(c.get(), id, members);
            Stmt s(c.get(), (insertVerb(fresh) + " INTO files (session_id, path, kind, node, rank, size, added_ns, "
                             "content) VALUES (?,?,?,?,?,?,?,x'')").c_str());
            Stmt a(c.get(), (insertVerb(fresh) + " INTO archive_files (session_id, path, archive) VALUES (?,?,?)").c_str());
            for (const auto& f : members) {
                s.bind(1, id.value).bind(2, f.path).bind(3, f.kind).bind(4, f.node).bind(5, int64_t(f.rank));
                s.bind(6, int64_t(f.size)).bind(7, f.addedNs).step();
                s.reset();
                a.bind(1, id.value).bind(2, f.path).bind(3, int64_t(number)).step();
                a.reset();
            }
            Stmt d(c.get(), dropUnreferencedArchives()); // earlier archives whose members all came again
            d.bind(1, id.value).step();
            exec(c.get(), "COMMIT");
        } catch (...) {
            sqlite3_exec(c.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
        return number;
    }

    std::optional<std::string> archiveContent(const SessionId& id, int archive) override
    {
        auto c = borrow();
        Stmt s(c.get(), "SELECT content FROM archives WHERE session_id = ? AND archive = ?");
        s.bind(1, id.value).bind(2, int64_t(archive));
        if (!s.step())
            return std::nullopt;
        return s.text(0);
    }

    std::vector<FileRecord> files(const SessionId& id) override
    {
        std::vector<FileRecord> out;
        auto c = borrow();
        Stmt s(c.get(), "SELECT f.path, f.kind, f.node, f.rank, f.size, f.added_ns, COALESCE(a.archive, 0) FROM files f"
                        " LEFT JOIN archive_files a ON a.session_id = f.session_id AND a.path = f.path"
                        " WHERE f.session_id = ? ORDER BY f.path");
        s.bind(1, id.value);
        while (s.step())
            out.push_back(fileFrom(s));
        return out;
    }

    void forEachFile(const SessionId& id, const std::function<void(const FileRecord&)>& fn) override
    {
        auto c = borrow();
        Stmt s(c.get(), "SELECT f.path, f.kind, f.node, f.rank, f.size, f.added_ns, COALESCE(a.archive, 0), f.content"
                        " FROM files f LEFT JOIN archive_files a ON a.session_id = f.session_id AND a.path = f.path"
                        " WHERE f.session_id = ? ORDER BY f.path");
        s.bind(1, id.value);
        while (s.step()) {
            FileRecord f = fileFrom(s);
            f.content = s.text(7);
            fn(f);
        }
    }

    std::optional<FileRecord> file(const SessionId& id, const std::string& path) override
    {
        auto c = borrow();
        Stmt s(c.get(), "SELECT f.path, f.kind, f.node, f.rank, f.size, f.added_ns, COALESCE(a.archive, 0), f.content"
                        " FROM files f LEFT JOIN archive_files a ON a.session_id = f.session_id AND a.path = f.path"
                        " WHERE f.session_id = ? AND f.path = ?");
        s.bind(1, id.value).bind(2, path);
        if (!s.step())
            return std::nullopt;
        FileRecord f = fileFrom(s);
        f.content = s.text(7);
        return f;
    }

    int addRun(const SessionId& id, RunRecord r) override
    {
        const std::lock_guard writing(writer_);
        auto c = borrow();
        exec(c.get(), "BEGIN IMMEDIATE");
        try {
            Stmt n(c.get(), "SELECT latest_run FROM sessions WHERE id = ?");
            n.bind(1, id.value);
            if (!n.step())
                throw StoreError("no session " + id.value);
            r.run = static_cast<int>(n.i64(0)) + 1;
            Stmt s(c.get(), "INSERT INTO runs (session_id, run, created_ns, phase, status, domain, nodes, elapsed_ms, "
                            "result_json) VALUES (?,?,?,?,?,?,?,?,?)");
            s.bind(1, id.value).bind(2, int64_t(r.run)).bind(3, r.createdNs).bind(4, r.phase).bind(5, r.status);
            s.bind(6, r.domain).bind(7, r.nodes).bind(8, r.elapsedMs).bind(9, r.resultJson).step();
            Stmt u(c.get(), "UPDATE sessions SET latest_run = ?, status = ?, domain = ?, nodes = ? WHERE id = ?");
            u.bind(1, int64_t(r.run)).bind(2, r.status).bind(3, r.domain).bind(4, r.nodes).bind(5, id.value).step();
            if (!r.inputDigest.empty()) {
                Stmt d(c.get(), "INSERT OR IGNORE INTO bundle_runs (input_digest, session_id, run) VALUES (?,?,?)");
                d.bind(1, r.inputDigest).bind(2, id.value).bind(3, int64_t(r.run)).step();
            }
            if (r.cause) {
                const history::CausePlace& p = r.cause->place;
                Stmt h(c.get(), insertRunCause());
                h.bind(1, id.value).bind(2, int64_t(r.run)).bind(3, historyId(id, r.run)).bind(4, r.cause->workloadId);
                h.bind(5, p.fingerprint).bind(6, p.node).bind(7, p.pciBus).bind(8, int64_t(p.gpu));
                h.bind(9, r.cause->collectedAt).step();
                std::string error;
                if (!history::addToSummaryOnSqlite(c.get(), "run_causes", p, r.cause->workloadId, r.cause->collectedAt,
                                                   historyId(id, r.run), error))
                    throw StoreError("sqlite: " + error);
            }
            exec(c.get(), "COMMIT");
        } catch (...) {
            sqlite3_exec(c.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
        return r.run;
    }

    std::vector<RunRecord> runs(const SessionId& id, bool withResults) override
    {
        auto c = borrow();
        Stmt s(c.get(), withResults ? "SELECT run, created_ns, phase, status, domain, nodes, elapsed_ms, result_json "
                                      "FROM runs WHERE session_id = ? ORDER BY run"
                                    : "SELECT run, created_ns, phase, status, domain, nodes, elapsed_ms, '' "
                                      "FROM runs WHERE session_id = ? ORDER BY run");
        s.bind(1, id.value);
        std::vector<RunRecord> out;
        while (s.step())
            out.push_back(runFrom(s));
        return out;
    }

    std::optional<RunRecord> run(const SessionId& id, int run) override
    {
        auto c = borrow();
        Stmt s(c.get(), "SELECT run, created_ns, phase, status, domain, nodes, elapsed_ms, result_json FROM runs "
                        "WHERE session_id = ?1 AND run = CASE WHEN ?2 > 0 THEN ?2 ELSE "
                        "(SELECT latest_run FROM sessions WHERE id = ?1) END");
        s.bind(1, id.value).bind(2, int64_t(run));
        if (!s.step())
            return std::nullopt;
        return runFrom(s);
    }

    std::optional<RunRef> runByInput(const std::string& digest) override
    {
        auto c = borrow();
        Stmt s(c.get(), "SELECT session_id, run FROM bundle_runs WHERE input_digest = ?");
        s.bind(1, digest);
        if (!s.step())
            return std::nullopt;
        return RunRef{SessionId{s.text(0)}, static_cast<int>(s.i64(1))};
    }

    size_t pruneIdleBefore(int64_t cutoffNs) override
    {
        const std::lock_guard writing(writer_);
        auto c = borrow();
        exec(c.get(), "BEGIN IMMEDIATE");
        size_t pruned = 0;
        try {
            for (const std::string& sql : pruneStatements()) {
                Stmt s(c.get(), sql.c_str());
                s.bind(1, cutoffNs).step();
                pruned = static_cast<size_t>(sqlite3_changes(c.get()));  // the last one: sessions
            }
            exec(c.get(), "COMMIT");
        } catch (...) {
            sqlite3_exec(c.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
        return pruned;
    }

    std::optional<DeletedCounts> deleteSession(const SessionId& id) override
    {
        const std::lock_guard writing(writer_);
        auto c = borrow();
        exec(c.get(), "BEGIN IMMEDIATE");
        std::optional<DeletedCounts> out;
        try {
            std::vector<size_t> changed;  // ..., runs, files, session (deleteSessionStatements)
            for (const std::string& sql : deleteSessionStatements()) {
                Stmt s(c.get(), sql.c_str());
                s.bind(1, id.value).step();
                changed.push_back(static_cast<size_t>(sqlite3_changes(c.get())));
            }
            const size_t n = changed.size();
            if (changed[n - 1] == 1)
                out = DeletedCounts{changed[n - 2], changed[n - 3]};
            exec(c.get(), "COMMIT");
        } catch (...) {
            sqlite3_exec(c.get(), "ROLLBACK", nullptr, nullptr, nullptr);
            throw;
        }
        return out;
    }

    std::vector<history::Offender> offenders(const history::OffenderQuery& query) override
    {
        auto c = borrow();
        std::vector<history::Offender> out;
        std::string error;
        if (!history::offendersOnSqlite(c.get(), "run_causes", query, out, error))
            throw StoreError("sqlite: " + error);
        return out;
    }

    std::vector<history::SeenAt> seen(const history::CausePlace& place, const std::string& ownId, int limit) override
    {
        auto c = borrow();
        std::vector<history::SeenAt> out;
        std::string error;
        if (!history::seenOnSqlite(c.get(), "run_causes", place, ownId, limit, out, error))
            throw StoreError("sqlite: " + error);
        return out;
    }

    std::vector<history::Offender> places(const std::vector<std::string>& nodes) override
    {
        auto c = borrow();
        std::vector<history::Offender> out;
        std::string error;
        if (!history::placesOnSqlite(c.get(), "run_causes", nodes, out, error))
            throw StoreError("sqlite: " + error);
        return out;
    }

private:
    static FileRecord fileFrom(const Stmt& s)
    {
        FileRecord f;
        f.path = s.text(0);
        f.kind = s.text(1);
        f.node = s.text(2);
        f.rank = static_cast<int>(s.i64(3));
        f.size = static_cast<uint64_t>(s.i64(4));
        f.addedNs = s.i64(5);
        f.archive = static_cast<int>(s.i64(6));
        return f;
    }
    static RunRecord runFrom(const Stmt& s)
    {
        RunRecord r;
        r.run = static_cast<int>(s.i64(0));
        r.createdNs = s.i64(1);
        r.phase = s.text(2);
        r.status = s.text(3);
        r.domain = s.text(4);
        r.nodes = s.text(5);
        r.elapsedMs = s.real(6);
        r.resultJson = s.text(7);
        return r;
    }

    std::unique_ptr<Conn> open()
    {
        auto c = std::make_unique<Conn>();
        if (sqlite3_open_v2(path_.c_str(), &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                            nullptr) != SQLITE_OK)
            throw StoreError("cannot open database " + path_ + ": " + (c->db ? sqlite3_errmsg(c->db) : "out of memory"));
        sqlite3_busy_timeout(c->db, 30000);
        // 64 KiB pages, for a new store only (an existing one keeps its size; the pragma is then a no-op, and
        // it must come before WAL, which fixes the size): a bundle's files are stored whole, 20 MB for the bench's
        // 64-node bundle, and 4 KiB pages wrote them as ~5,000 WAL frames and as many checkpoint writes, each a
        // syscall; 64 KiB pages cut the store's syscalls per analysis ~5x and its CPU for those 20 MB from
        // 0.12 s to 0.07 s (docs/performance.md, service). Small rows cost a 64 KiB frame per dirty page instead.
        exec(c->db, "PRAGMA page_size=65536; PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
        return c;
    }

    // A connection for the length of one call, returned to the pool afterwards.
    struct Lease {
        SqliteStore* store;
        std::unique_ptr<Conn> conn;
        sqlite3* get() const { return conn->db; }
        ~Lease()
        {
            std::lock_guard lock(store->mutex_);
            store->pool_.push_back(std::move(conn));
            store->cv_.notify_one();
        }
    };
    Lease borrow()
    {
        std::unique_lock lock(mutex_);
        if (pool_.empty() && open_ < kMaxConns) {
            ++open_;
            lock.unlock();
            return Lease{this, open()};
        }
        cv_.wait(lock, [&] { return !pool_.empty(); });
        auto c = std::move(pool_.back());
        pool_.pop_back();
        return Lease{this, std::move(c)};
    }

    static constexpr int kMaxConns = 8;
    std::string path_;
    // WAL allows one writer. Left to SQLite, a second writer polls the lock with sleeps of 1, 2, 5, 10 ... ms
    // (its busy handler) and wakes well after the first commits: two analyses at once slept 2.3 ms per
    // analysis that way. Writers of this process queue here instead; the busy timeout is for other processes.
    std::mutex writer_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<std::unique_ptr<Conn>> pool_;
    int open_ = 1;
};

} // namespace

std::string historyId(const SessionId& session, int run)
{
    return session.value + "/" + std::to_string(run);
}

std::optional<RunRef> runOfHistoryId(const std::string& id)
{
    const size_t slash = id.rfind('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == id.size())
        return std::nullopt;
    int run = 0;
    for (size_t i = slash + 1; i < id.size(); ++i) {
        if (id[i] < '0' || id[i] > '9' || run > 100'000'000)
            return std::nullopt;
        run = run * 10 + (id[i] - '0');
    }
    return RunRef{SessionId{id.substr(0, slash)}, run};
}

std::unique_ptr<Store> openSqliteStore(const std::string& path)
{
    return std::make_unique<SqliteStore>(path);
}

std::unique_ptr<Store> openStore(const std::string& url)
{
    if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0)
        return openPostgresStore(url);
    if (url.rfind("sqlite://", 0) == 0)
        return openSqliteStore(url.substr(9));
    return openSqliteStore(url);
}

} // namespace fl::service
