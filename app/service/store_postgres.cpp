// PostgreSQL back end (libpq), for several replicas sharing one store. Same
// tables as the SQLite store; every write is one transaction, committed with
// the server's default synchronous_commit before the call returns.
#include "store.h"
#include "store_schema.h"

#include <libpq-fe.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>

namespace fl::service {

namespace {

// Parameters are passed as text except those marked binary (file contents).
struct Params {
    std::vector<std::string> values;
    std::vector<int> binary;
    Params& add(std::string v, bool bin = false)
    {
        values.push_back(std::move(v));
        binary.push_back(bin ? 1 : 0);
        return *this;
    }
    Params& add(int64_t v) { return add(std::to_string(v)); }
};

class Result {
public:
    explicit Result(PGresult* r) : r_(r) {}
    ~Result() { PQclear(r_); }
    Result(const Result&) = delete;
    Result& operator=(const Result&) = delete;
    int rows() const { return PQntuples(r_); }
    std::string text(int row, int col) const
    {
        return std::string(PQgetvalue(r_, row, col), static_cast<size_t>(PQgetlength(r_, row, col)));
    }
    int64_t i64(int row, int col) const { return std::stoll(text(row, col)); }
    const PGresult* raw() const { return r_; }
    double real(int row, int col) const { return std::stod(text(row, col)); }
    int64_t affected() const  // rows a DELETE/UPDATE touched
    {
        const char* n = PQcmdTuples(r_);
        return n && *n ? std::stoll(n) : 0;
    }

private:
    PGresult* r_;
};

struct Conn {
    PGconn* pg = nullptr;
    ~Conn() { PQfinish(pg); }

    // resultBinary: all columns come back in binary (used only for text/bytea columns).
    std::unique_ptr<Result> run(const char* sql, const Params& p = {}, bool resultBinary = false)
    {
        std::vector<const char*> vals;
        std::vector<int> lens;
        for (const auto& v : p.values) {
            vals.push_back(v.data());
            lens.push_back(static_cast<int>(v.size()));
        }
        PGresult* raw = PQexecParams(pg, sql, static_cast<int>(vals.size()), nullptr, vals.data(), lens.data(),
                                     p.binary.data(), resultBinary ? 1 : 0);
        const auto st = PQresultStatus(raw);
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
            std::string message = PQresultErrorMessage(raw);
            PQclear(raw);
            throw StoreError("postgresql: " + message);
        }
        return std::make_unique<Result>(raw);
    }
};

constexpr const char* kSessionCols =
    "id, workload_id, attempt, user_id, created_ns, request_json, latest_run, status, domain, nodes";

class PostgresStore final : public Store {
public:
    explicit PostgresStore(std::string url) : url_(std::move(url))
    {
        auto c = open();
        const std::string schema = storeSchema("BIGINT", "BYTEA", "DOUBLE PRECISION");
        PGresult* r = PQexec(c->pg, schema.c_str());
        const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        PQclear(r);
        // Two replicas starting together race on CREATE TABLE IF NOT EXISTS; the loser sees the table next time.
        if (!ok) {
            PGresult* again = PQexec(c->pg, schema.c_str());
            const bool ok2 = PQresultStatus(again) == PGRES_COMMAND_OK;
            PQclear(again);
            if (!ok2)
                throw StoreError(std::string("postgresql schema: ") + PQerrorMessage(c->pg));
        }
        countHistory(*c);
        pool_.push_back(std::move(c));
    }

    std::string backend() const override { return "postgresql"; }

    // Runs stored before the history's summary existed, or rows loaded around the service: count them. The lock
    // keeps a second replica starting at the same time (and runs being added) waiting until the count is in.
    static void countHistory(Conn& c)
    {
        c.run("BEGIN");
        try {
            c.run("LOCK TABLE run_causes_places IN EXCLUSIVE MODE");
            if (c.run(history::summaryDriftSql("run_causes").c_str())->i64(0, 0) != 0)
                for (const std::string& sql : history::summaryRebuildSql("run_causes"))
                    c.run(sql.c_str());
            c.run("COMMIT");
        } catch (...) {
            PQclear(PQexec(c.pg, "ROLLBACK"));
            throw;
        }
    }

    // A pooled connection the server dropped fails here and is not returned to the pool (Lease), so the next
    // ping connects afresh: ready again as soon as the server is.
    void ping() override
    {
        auto c = borrow();
        q(c, "SELECT 1 FROM sessions LIMIT 1");
    }

    void createSession(const SessionRecord& r) override
    {
        auto c = borrow();
        Params p;
        p.add(r.id.value).add(r.workloadId).add(int64_t(r.attempt)).add(r.userId).add(r.createdNs).add(r.requestJson);
        q(c, "INSERT INTO sessions (id, workload_id, attempt, user_id, created_ns, request_json, status) "
             "VALUES ($1,$2,$3,$4,$5,$6,'open')",
          p);
    }

    std::optional<SessionRecord> session(const SessionId& id) override
    {
        auto c = borrow();
        auto r = q(c, (std::string("SELECT ") + kSessionCols + " FROM sessions WHERE id = $1").c_str(),
                   Params().add(id.value));
        if (r->rows() == 0)
            return std::nullopt;
        return sessionFrom(*r, 0);
    }

    std::vector<SessionRecord> sessions(const SessionFilter& f) override
    {
        auto c = borrow();
        Params p;
        p.add(f.sinceNs).add(f.untilNs).add(f.workloadId).add(f.status).add(f.domain).add(f.node);
        p.add(int64_t(f.limit)).add(int64_t(f.offset));
        auto r = q(c,
                   (std::string("SELECT ") + kSessionCols +
                    " FROM sessions WHERE created_ns >= $1 AND created_ns <= $2"
                    " AND ($3 = '' OR workload_id = $3) AND ($4 = '' OR status = $4) AND ($5 = '' OR domain = $5)"
                    " AND ($6 = '' OR strpos(nodes, ',' || $6 || ',') > 0)"
                    " ORDER BY created_ns DESC, id LIMIT $7 OFFSET $8")
                       .c_str(),
                   p);
        std::vector<SessionRecord> out;
        for (int i = 0; i < r->rows(); ++i)
            out.push_back(sessionFrom(*r, i));
        return out;
    }

    void putFiles(const SessionId& id, const std::vector<FileRecord>& files) override
    {
        auto c = borrow();
        q(c, "BEGIN");
        try {
            bool replacedArchived = false;
            for (const auto& f : files) {
                Params p;
                p.add(id.value).add(f.path).add(f.kind).add(f.node).add(int64_t(f.rank));
                p.add(int64_t(f.content.size())).add(f.addedNs).add(f.content, true);
                q(c, "INSERT INTO files (session_id, path, kind, node, rank, size, added_ns, content) "
                     "VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ON CONFLICT (session_id, path) DO UPDATE SET "
                     "kind = EXCLUDED.kind, node = EXCLUDED.node, rank = EXCLUDED.rank, size = EXCLUDED.size, "
                     "added_ns = EXCLUDED.added_ns, content = EXCLUDED.content",
                  p);
                // A file posted again replaces one an archive held: its bytes are now this row's.
                replacedArchived |= q(c, "DELETE FROM archive_files WHERE session_id = $1 AND path = $2",
                                      Params().add(id.value).add(f.path))->affected() > 0;
            }
            if (replacedArchived)
                q(c, dropUnreferencedArchives(), Params().add(id.value));
            q(c, "COMMIT");
        } catch (...) {
            PQclear(PQexec(c.conn->pg, "ROLLBACK"));
            throw;
        }
    }

    int putArchive(const SessionId& id, const std::string& archiveBytes, int64_t addedNs,
                   const std::vector<FileRecord>& members) override
    {
        auto c = borrow();
        q(c, "BEGIN");
        int number = 0;
        try {
            // The session's row lock serialises two replicas numbering archives of one session.
            if (q(c, "SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", Params().add(id.value))->rows() != 1)
                throw StoreError("no session " + id.value);
            number = static_cast<int>(q(c, "SELECT COALESCE(MAX(archive), 0) + 1 FROM archives WHERE session_id = $1",
                                        Params().add(id.value))->i64(0, 0));
            Params a;
            a.add(id.value).add(int64_t(number)).add(addedNs).add(archiveBytes, true);
            q(c, "INSERT INTO archives (session_id, archive, added_ns, content) VALUES ($1,$2,$3,$4)", a);
            for (const auto& f : members) {
                Params p;
                p.add(id.value).add(f.path).add(f.kind).add(f.node).add(int64_t(f.rank));
                p.add(int64_t(f.size)).add(f.addedNs);
                q(c, "INSERT INTO files (session_id, path, kind, node, rank, size, added_ns, content) "
                     "VALUES ($1,$2,$3,$4,$5,$6,$7,''::bytea) ON CONFLICT (session_id, path) DO UPDATE SET "
                     "kind = EXCLUDED.kind, node = EXCLUDED.node, rank = EXCLUDED.rank, size = EXCLUDED.size, "
                     "added_ns = EXCLUDED.added_ns, content = EXCLUDED.content",
                  p);
                q(c, "INSERT INTO archive_files (session_id, path, archive) VALUES ($1,$2,$3) "
                     "ON CONFLICT (session_id, path) DO UPDATE SET archive = EXCLUDED.archive",
                  Params().add(id.value).add(f.path).add(int64_t(number)));
            }
            q(c, dropUnreferencedArchives(), Params().add(id.value)); // earlier archives whose members all came again
            q(c, "COMMIT");
        } catch (...) {
            PQclear(PQexec(c.conn->pg, "ROLLBACK"));
            throw;
        }
        return number;
    }

    std::optional<std::string> archiveContent(const SessionId& id, int archive) override
    {
        auto c = borrow();
        auto r = q(c, "SELECT content FROM archives WHERE session_id = $1 AND archive = $2",
                   Params().add(id.value).add(int64_t(archive)), true);
        if (r->rows() == 0)
            return std::nullopt;
        return r->text(0, 0);
    }

    std::vector<FileRecord> files(const SessionId& id) override
    {
        auto c = borrow();
        auto r = q(c,
                   "SELECT f.path, f.kind, f.node, f.rank, f.size, f.added_ns, COALESCE(a.archive, 0) FROM files f"
                   " LEFT JOIN archive_files a ON a.session_id = f.session_id AND a.path = f.path"
                   " WHERE f.session_id = $1 ORDER BY f.path",
                   Params().add(id.value));
        std::vector<FileRecord> out;
        for (int i = 0; i < r->rows(); ++i)
            out.push_back(fileFrom(*r, i));
        return out;
    }

    void forEachFile(const SessionId& id, const std::function<void(const FileRecord&)>& fn) override
    {
        // One file at a time so a large session is never all in memory.
        for (auto f : files(id)) {
            auto withContent = file(id, f.path);
            if (!withContent)
                continue;
            fn(*withContent);
        }
    }

    std::optional<FileRecord> file(const SessionId& id, const std::string& path) override
    {
        auto c = borrow();
        auto meta = q(c,
                      "SELECT f.path, f.kind, f.node, f.rank, f.size, f.added_ns, COALESCE(a.archive, 0) FROM files f"
                      " LEFT JOIN archive_files a ON a.session_id = f.session_id AND a.path = f.path"
                      " WHERE f.session_id = $1 AND f.path = $2",
                      Params().add(id.value).add(path));
        if (meta->rows() == 0)
            return std::nullopt;
        FileRecord f = fileFrom(*meta, 0);
        auto r = q(c, "SELECT content FROM files WHERE session_id = $1 AND path = $2", Params().add(id.value).add(path),
                   true);
        if (r->rows() == 0)
            return std::nullopt;
        f.content = r->text(0, 0);
        return f;
    }

    int addRun(const SessionId& id, RunRecord run) override
    {
        auto c = borrow();
        q(c, "BEGIN");
        try {
            // The row lock serialises replicas appending runs to the same session.
            auto n = q(c, "SELECT latest_run FROM sessions WHERE id = $1 FOR UPDATE", Params().add(id.value));
            if (n->rows() == 0)
                throw StoreError("no session " + id.value);
            run.run = static_cast<int>(n->i64(0, 0)) + 1;
            Params p;
            p.add(id.value).add(int64_t(run.run)).add(run.createdNs).add(run.phase).add(run.status).add(run.domain);
            p.add(run.nodes).add(std::to_string(run.elapsedMs)).add(run.resultJson);
            q(c, "INSERT INTO runs (session_id, run, created_ns, phase, status, domain, nodes, elapsed_ms, result_json) "
                 "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)",
              p);
            Params u;
            u.add(int64_t(run.run)).add(run.status).add(run.domain).add(run.nodes).add(id.value);
            q(c, "UPDATE sessions SET latest_run = $1, status = $2, domain = $3, nodes = $4 WHERE id = $5", u);
            if (!run.inputDigest.empty())
                q(c, "INSERT INTO bundle_runs (input_digest, session_id, run) VALUES ($1,$2,$3) ON CONFLICT DO NOTHING",
                  Params().add(run.inputDigest).add(id.value).add(int64_t(run.run)));
            if (run.cause) {
                const history::CausePlace& pl = run.cause->place;
                Params h;
                h.add(id.value).add(int64_t(run.run)).add(historyId(id, run.run)).add(run.cause->workloadId);
                h.add(pl.fingerprint).add(pl.node).add(pl.pciBus).add(int64_t(pl.gpu)).add(run.cause->collectedAt);
                q(c, insertRunCause(), h);
                if (!pl.fingerprint.empty() && !pl.node.empty())
                    for (const auto level : {history::OffenderLevel::Gpu, history::OffenderLevel::Node}) {
                        const bool gpu = level == history::OffenderLevel::Gpu;
                        Params a;
                        a.add(pl.fingerprint).add(pl.node).add(gpu ? pl.pciBus : "").add(int64_t(gpu ? pl.gpu : -1));
                        a.add(run.cause->workloadId).add(run.cause->collectedAt).add(historyId(id, run.run));
                        q(c, history::summaryAddSql("run_causes", level).c_str(), a);
                    }
            }
            q(c, "COMMIT");
        } catch (...) {
            PQclear(PQexec(c.conn->pg, "ROLLBACK"));
            throw;
        }
        return run.run;
    }

    std::vector<RunRecord> runs(const SessionId& id, bool withResults) override
    {
        auto c = borrow();
        auto r = q(c,
                   withResults ? "SELECT run, created_ns, phase, status, domain, nodes, elapsed_ms, result_json FROM runs "
                                 "WHERE session_id = $1 ORDER BY run"
                               : "SELECT run, created_ns, phase, status, domain, nodes, elapsed_ms, '' FROM runs "
                                 "WHERE session_id = $1 ORDER BY run",
                   Params().add(id.value));
        std::vector<RunRecord> out;
        for (int i = 0; i < r->rows(); ++i)
            out.push_back(runFrom(*r, i));
        return out;
    }

    std::optional<RunRecord> run(const SessionId& id, int run) override
    {
        auto c = borrow();
        auto r = q(c,
                   "SELECT run, created_ns, phase, status, domain, nodes, elapsed_ms, result_json FROM runs "
                   "WHERE session_id = $1 AND run = CASE WHEN $2::int > 0 THEN $2::int ELSE "
                   "(SELECT latest_run FROM sessions WHERE id = $1) END",
                   Params().add(id.value).add(int64_t(run)));
        if (r->rows() == 0)
            return std::nullopt;
        return runFrom(*r, 0);
    }

    std::optional<RunRef> runByInput(const std::string& digest) override
    {
        auto c = borrow();
        auto r = q(c, "SELECT session_id, run FROM bundle_runs WHERE input_digest = $1", Params().add(digest));
        if (r->rows() == 0)
            return std::nullopt;
        return RunRef{SessionId{r->text(0, 0)}, static_cast<int>(r->i64(0, 1))};
    }

    size_t pruneIdleBefore(int64_t cutoffNs) override
    {
        auto c = borrow();
        q(c, "BEGIN");
        size_t pruned = 0;
        try {
            for (const std::string& sql : pruneStatements())
                pruned = static_cast<size_t>(q(c, sql.c_str(), Params().add(cutoffNs))->affected());  // last: sessions
            q(c, "COMMIT");
        } catch (...) {
            PQclear(PQexec(c.conn->pg, "ROLLBACK"));
            throw;
        }
        return pruned;
    }

    std::optional<DeletedCounts> deleteSession(const SessionId& id) override
    {
        auto c = borrow();
        q(c, "BEGIN");
        std::optional<DeletedCounts> out;
        try {
            // The row lock waits for a replica appending a run to this session (addRun) to commit.
            if (q(c, "SELECT 1 FROM sessions WHERE id = $1 FOR UPDATE", Params().add(id.value))->rows() == 1) {
                std::vector<size_t> changed;  // ..., runs, files, session (deleteSessionStatements)
                for (const std::string& sql : deleteSessionStatements())
                    changed.push_back(static_cast<size_t>(q(c, sql.c_str(), Params().add(id.value))->affected()));
                const size_t n = changed.size();
                out = DeletedCounts{changed[n - 2], changed[n - 3]};
            }
            q(c, "COMMIT");
        } catch (...) {
            PQclear(PQexec(c.conn->pg, "ROLLBACK"));
            throw;
        }
        return out;
    }

    std::vector<history::Offender> offenders(const history::OffenderQuery& query) override
    {
        auto c = borrow();
        auto r = q(c, history::offendersSql("run_causes", query.level).c_str(),
                   Params().add(int64_t(query.minJobs)).add(int64_t(query.limit)).add(int64_t(query.resultsPerOffender)));
        std::vector<history::Offender> out;
        for (int i = 0; i < r->rows(); ++i) {
            // One row per listed result, the offender repeated on each (history/offenders.h).
            if (i == 0 || r->text(i, 0) != r->text(i - 1, 0) || r->text(i, 1) != r->text(i - 1, 1) ||
                r->text(i, 2) != r->text(i - 1, 2) || r->text(i, 3) != r->text(i - 1, 3))
                out.push_back(placeOf(*r, i));
            if (!PQgetisnull(r->raw(), i, 8))
                out.back().rows.push_back({r->text(i, 8), r->text(i, 9), r->text(i, 10)});
        }
        return out;
    }

    std::vector<history::SeenAt> seen(const history::CausePlace& place, const std::string& ownId, int limit) override
    {
        std::vector<history::SeenAt> out;
        if (place.fingerprint.empty() || place.node.empty())
            return out;
        auto c = borrow();
        std::vector<history::OffenderLevel> levels;
        if (!place.pciBus.empty() || place.gpu >= 0)
            levels.push_back(history::OffenderLevel::Gpu);
        levels.push_back(history::OffenderLevel::Node);
        for (const auto level : levels) {
            const bool gpu = level == history::OffenderLevel::Gpu;
            Params p;
            p.add(place.fingerprint).add(place.node).add(gpu ? place.pciBus : "").add(int64_t(gpu ? place.gpu : -1));
            p.add(ownId);
            auto n = q(c, history::seenSql("run_causes", level).c_str(), p);
            history::SeenAt s;
            s.level = level;
            s.jobs = static_cast<uint32_t>(n->i64(0, 0));
            s.results = static_cast<uint32_t>(n->i64(0, 1));
            s.first = n->text(0, 2);
            s.last = n->text(0, 3);
            s.rows = rowsOf(*q(c, history::seenRowsSql("run_causes", level).c_str(), p.add(int64_t(limit))));
            out.push_back(std::move(s));
        }
        return out;
    }

    std::vector<history::Offender> places(const std::vector<std::string>& nodes) override
    {
        auto c = borrow();
        std::vector<history::Offender> out;
        for (size_t from = 0; from < nodes.size(); from += history::kPlacesPerStatement) {
            const size_t n = std::min(history::kPlacesPerStatement, nodes.size() - from);
            Params p;
            for (size_t i = 0; i < n; ++i)
                p.add(nodes[from + i]);
            auto r = q(c, history::placesAtNodesSql("run_causes", n).c_str(), p);
            for (int i = 0; i < r->rows(); ++i)
                out.push_back(placeOf(*r, i));
        }
        return out;
    }

private:
    // A summary row: fingerprint, node, pci, gpu, jobs, results, first, last (history/offenders.h).
    static history::Offender placeOf(const Result& r, int i)
    {
        history::Offender o;
        o.fingerprint = r.text(i, 0);
        o.node = r.text(i, 1);
        o.pciBus = r.text(i, 2);
        o.gpu = static_cast<int>(r.i64(i, 3));
        o.jobs = static_cast<uint32_t>(r.i64(i, 4));
        o.results = static_cast<uint32_t>(r.i64(i, 5));
        o.first = r.text(i, 6);
        o.last = r.text(i, 7);
        return o;
    }

    struct Lease {
        PostgresStore* store;
        std::unique_ptr<Conn> conn;
        ~Lease()
        {
            if (!conn)
                return;
            std::lock_guard lock(store->mutex_);
            // A connection the server dropped is not returned; the next borrow opens a fresh one.
            if (PQstatus(conn->pg) != CONNECTION_OK) {
                --store->open_;
                store->cv_.notify_one();
                return;
            }
            store->pool_.push_back(std::move(conn));
            store->cv_.notify_one();
        }
    };

    std::unique_ptr<Result> q(Lease& c, const char* sql, const Params& p = {}, bool resultBinary = false)
    {
        return c.conn->run(sql, p, resultBinary);
    }

    static std::vector<history::OffenderResult> rowsOf(const Result& r)
    {
        std::vector<history::OffenderResult> rows;
        for (int i = 0; i < r.rows(); ++i)
            rows.push_back({r.text(i, 0), r.text(i, 1), r.text(i, 2)});
        return rows;
    }
    static SessionRecord sessionFrom(const Result& r, int i)
    {
        SessionRecord s;
        s.id.value = r.text(i, 0);
        s.workloadId = r.text(i, 1);
        s.attempt = static_cast<int>(r.i64(i, 2));
        s.userId = r.text(i, 3);
        s.createdNs = r.i64(i, 4);
        s.requestJson = r.text(i, 5);
        s.latestRun = static_cast<int>(r.i64(i, 6));
        s.status = r.text(i, 7);
        s.domain = r.text(i, 8);
        s.nodes = r.text(i, 9);
        return s;
    }
    static FileRecord fileFrom(const Result& r, int i)
    {
        FileRecord f;
        f.path = r.text(i, 0);
        f.kind = r.text(i, 1);
        f.node = r.text(i, 2);
        f.rank = static_cast<int>(r.i64(i, 3));
        f.size = static_cast<uint64_t>(r.i64(i, 4));
        f.addedNs = r.i64(i, 5);
        f.archive = static_cast<int>(r.i64(i, 6));
        return f;
    }
    static RunRecord runFrom(const Result& r, int i)
    {
        RunRecord x;
        x.run = static_cast<int>(r.i64(i, 0));
        x.createdNs = r.i64(i, 1);
        x.phase = r.text(i, 2);
        x.status = r.text(i, 3);
        x.domain = r.text(i, 4);
        x.nodes = r.text(i, 5);
        x.elapsedMs = r.real(i, 6);
        x.resultJson = r.text(i, 7);
        return x;
    }

    std::unique_ptr<Conn> open()
    {
        auto c = std::make_unique<Conn>();
        c->pg = PQconnectdb(url_.c_str());
        if (PQstatus(c->pg) != CONNECTION_OK)
            throw StoreError(std::string("cannot connect to PostgreSQL: ") + PQerrorMessage(c->pg));
        return c;
    }

    Lease borrow()
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return !pool_.empty() || open_ < kMaxConns; });
        if (!pool_.empty()) {
            auto c = std::move(pool_.back());
            pool_.pop_back();
            return Lease{this, std::move(c)};
        }
        ++open_;
        lock.unlock();
        try {
            return Lease{this, open()};
        } catch (...) {
            std::lock_guard again(mutex_);
            --open_;
            throw;
        }
    }

    static constexpr int kMaxConns = 8;
    std::string url_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<std::unique_ptr<Conn>> pool_;
    int open_ = 1;
};

} // namespace

std::unique_ptr<Store> openPostgresStore(const std::string& url)
{
    return std::make_unique<PostgresStore>(url);
}

} // namespace fl::service
