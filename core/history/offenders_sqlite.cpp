#include "history/offenders.h"

#include <sqlite3.h>

#include <algorithm>

namespace fl::history {

namespace {

struct Db {
    sqlite3* db = nullptr;
    ~Db() { sqlite3_close(db); }
};

struct Stmt {
    sqlite3_stmt* st = nullptr;
    ~Stmt() { sqlite3_finalize(st); }
};

std::string column(sqlite3_stmt* st, int i)
{
    const unsigned char* t = sqlite3_column_text(st, i);
    return t ? reinterpret_cast<const char*>(t) : "";
}

// A summary row: fingerprint, node, pci, gpu, jobs, results, first, last.
Offender placeAt(sqlite3_stmt* st)
{
    Offender o;
    o.fingerprint = column(st, 0);
    o.node = column(st, 1);
    o.pciBus = column(st, 2);
    o.gpu = sqlite3_column_int(st, 3);
    o.jobs = static_cast<uint32_t>(sqlite3_column_int64(st, 4));
    o.results = static_cast<uint32_t>(sqlite3_column_int64(st, 5));
    o.first = column(st, 6);
    o.last = column(st, 7);
    return o;
}

void bindPlace(sqlite3_stmt* st, const std::string& fingerprint, const std::string& node, const std::string& pci, int gpu)
{
    sqlite3_bind_text(st, 1, fingerprint.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, node.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, pci.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, gpu);
}

std::vector<OffenderResult> readRows(sqlite3_stmt* st)
{
    std::vector<OffenderResult> rows;
    while (sqlite3_step(st) == SQLITE_ROW)
        rows.push_back({column(st, 0), column(st, 1), column(st, 2)});
    return rows;
}

bool openHistory(Db& d, const std::string& path, std::string& error)
{
    if (sqlite3_open_v2(path.c_str(), &d.db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        error = path + ": " + (d.db ? sqlite3_errmsg(d.db) : "cannot open");
        return false;
    }
    sqlite3_busy_timeout(d.db, 5000);
    // A database written before the index existed gets it on its first query (collect creates it too).
    char* msg = nullptr;
    if (sqlite3_exec(d.db, offendersIndexSql("results").c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
        error = path + ": " + (msg ? msg : "cannot index") + " (is it a collect --history database?)";
        sqlite3_free(msg);
        return false;
    }
    // Likewise its summary; a database whose summary exists is kept in step by collect, so not counted again.
    if (!ensureSummaryOnSqlite(d.db, "results", false, error)) {
        error = path + ": " + error;
        return false;
    }
    return true;
}

bool exec(sqlite3* db, const std::string& sql, std::string& error)
{
    char* msg = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) == SQLITE_OK)
        return true;
    error = msg ? msg : sqlite3_errmsg(db);
    sqlite3_free(msg);
    return false;
}

// Parameters by their names ($1 ... $7): SQLite numbers named parameters in the order they first appear.
void bindNamed(sqlite3_stmt* st, const char* name, const std::string& v)
{
    sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, name), v.c_str(), -1, SQLITE_TRANSIENT);
}
void bindNamed(sqlite3_stmt* st, const char* name, int v) { sqlite3_bind_int(st, sqlite3_bind_parameter_index(st, name), v); }

} // namespace

bool offendersOnSqlite(sqlite3* db, const std::string& table, const OffenderQuery& q, std::vector<Offender>& out,
                       std::string& error)
{
    Stmt st;
    if (sqlite3_prepare_v2(db, offendersSql(table, q.level).c_str(), -1, &st.st, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return false;
    }
    sqlite3_bind_int(st.st, 1, q.minJobs);
    sqlite3_bind_int(st.st, 2, q.limit);
    sqlite3_bind_int(st.st, 3, q.resultsPerOffender);
    int rc;
    while ((rc = sqlite3_step(st.st)) == SQLITE_ROW) {
        Offender o = placeAt(st.st);
        // One row per listed result, the offender repeated on each: a new offender starts where its place changes.
        if (out.empty() || out.back().fingerprint != o.fingerprint || out.back().node != o.node ||
            out.back().pciBus != o.pciBus || out.back().gpu != o.gpu)
            out.push_back(std::move(o));
        if (sqlite3_column_type(st.st, 8) != SQLITE_NULL)
            out.back().rows.push_back({column(st.st, 8), column(st.st, 9), column(st.st, 10)});
    }
    if (rc != SQLITE_DONE) {
        error = sqlite3_errmsg(db);
        return false;
    }
    return true;
}

bool ensureSummaryOnSqlite(sqlite3* db, const std::string& table, bool checkDrift, std::string& error)
{
    Stmt has;
    sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", -1, &has.st, nullptr);
    sqlite3_bind_text(has.st, 1, placesTable(table).c_str(), -1, SQLITE_TRANSIENT);
    bool rebuild = sqlite3_step(has.st) != SQLITE_ROW;
    if (!exec(db, "BEGIN IMMEDIATE", error))
        return false;
    std::string ignored;
    if (!exec(db, summarySchemaSql(table), error)) {
        exec(db, "ROLLBACK", ignored);
        return false;
    }
    if (!rebuild && checkDrift) {
        Stmt drift;
        if (sqlite3_prepare_v2(db, summaryDriftSql(table).c_str(), -1, &drift.st, nullptr) != SQLITE_OK ||
            sqlite3_step(drift.st) != SQLITE_ROW) {
            error = sqlite3_errmsg(db);
            exec(db, "ROLLBACK", ignored);
            return false;
        }
        rebuild = sqlite3_column_int64(drift.st, 0) != 0;
    }
    if (rebuild)
        for (const std::string& sql : summaryRebuildSql(table))
            if (!exec(db, sql, error)) {
                exec(db, "ROLLBACK", ignored);
                return false;
            }
    return exec(db, "COMMIT", error);
}

bool addToSummaryOnSqlite(sqlite3* db, const std::string& table, const CausePlace& place, const std::string& workloadId,
                          const std::string& collectedAt, const std::string& id, std::string& error)
{
    if (place.fingerprint.empty() || place.node.empty())
        return true;
    for (OffenderLevel level : {OffenderLevel::Gpu, OffenderLevel::Node}) {
        const bool gpu = level == OffenderLevel::Gpu;
        Stmt st;
        if (sqlite3_prepare_v2(db, summaryAddSql(table, level).c_str(), -1, &st.st, nullptr) != SQLITE_OK) {
            error = sqlite3_errmsg(db);
            return false;
        }
        bindNamed(st.st, "$1", place.fingerprint);
        bindNamed(st.st, "$2", place.node);
        bindNamed(st.st, "$3", gpu ? place.pciBus : std::string());
        bindNamed(st.st, "$4", gpu ? place.gpu : -1);
        bindNamed(st.st, "$5", workloadId);
        bindNamed(st.st, "$6", collectedAt);
        bindNamed(st.st, "$7", id);
        if (sqlite3_step(st.st) != SQLITE_DONE) {
            error = sqlite3_errmsg(db);
            return false;
        }
    }
    return true;
}

bool seenOnSqlite(sqlite3* db, const std::string& table, const CausePlace& place, const std::string& ownId, int limit,
                  std::vector<SeenAt>& out, std::string& error)
{
    if (place.fingerprint.empty() || place.node.empty())
        return true;
    std::vector<OffenderLevel> levels;
    if (!place.pciBus.empty() || place.gpu >= 0)
        levels.push_back(OffenderLevel::Gpu);
    levels.push_back(OffenderLevel::Node);
    for (OffenderLevel level : levels) {
        Stmt count, rows;
        if (sqlite3_prepare_v2(db, seenSql(table, level).c_str(), -1, &count.st, nullptr) != SQLITE_OK ||
            sqlite3_prepare_v2(db, seenRowsSql(table, level).c_str(), -1, &rows.st, nullptr) != SQLITE_OK) {
            error = sqlite3_errmsg(db);
            return false;
        }
        const bool gpu = level == OffenderLevel::Gpu;
        for (sqlite3_stmt* st : {count.st, rows.st}) {
            bindPlace(st, place.fingerprint, place.node, gpu ? place.pciBus : "", gpu ? place.gpu : -1);
            sqlite3_bind_text(st, 5, ownId.c_str(), -1, SQLITE_TRANSIENT);
        }
        sqlite3_bind_int(rows.st, 6, limit);
        if (sqlite3_step(count.st) != SQLITE_ROW) {
            error = sqlite3_errmsg(db);
            return false;
        }
        SeenAt s;
        s.level = level;
        s.jobs = static_cast<uint32_t>(sqlite3_column_int64(count.st, 0));
        s.results = static_cast<uint32_t>(sqlite3_column_int64(count.st, 1));
        s.first = column(count.st, 2);
        s.last = column(count.st, 3);
        s.rows = readRows(rows.st);
        out.push_back(std::move(s));
    }
    return true;
}

bool offendersInHistoryDb(const std::string& path, const OffenderQuery& q, std::vector<Offender>& out,
                          std::string& error)
{
    Db d;
    if (!openHistory(d, path, error))
        return false;
    if (!offendersOnSqlite(d.db, "results", q, out, error)) {
        error = path + ": " + error;
        return false;
    }
    return true;
}

bool placesOnSqlite(sqlite3* db, const std::string& table, const std::vector<std::string>& nodes,
                    std::vector<Offender>& out, std::string& error)
{
    for (size_t from = 0; from < nodes.size(); from += kPlacesPerStatement) {
        const size_t n = std::min(kPlacesPerStatement, nodes.size() - from);
        Stmt st;
        if (sqlite3_prepare_v2(db, placesAtNodesSql(table, n).c_str(), -1, &st.st, nullptr) != SQLITE_OK) {
            error = sqlite3_errmsg(db);
            return false;
        }
        for (size_t i = 0; i < n; ++i)
            sqlite3_bind_text(st.st, static_cast<int>(i + 1), nodes[from + i].c_str(), -1, SQLITE_TRANSIENT);
        int rc;
        while ((rc = sqlite3_step(st.st)) == SQLITE_ROW)
            out.push_back(placeAt(st.st));
        if (rc != SQLITE_DONE) {
            error = sqlite3_errmsg(db);
            return false;
        }
    }
    return true;
}

bool placesInHistoryDb(const std::string& path, const std::vector<std::string>& nodes, std::vector<Offender>& out,
                       std::string& error)
{
    Db d;
    if (!openHistory(d, path, error))
        return false;
    if (!placesOnSqlite(d.db, "results", nodes, out, error)) {
        error = path + ": " + error;
        return false;
    }
    return true;
}

bool seenInHistoryDb(const std::string& path, const CausePlace& place, const std::string& ownId, int limit,
                     std::vector<SeenAt>& out, std::string& error)
{
    Db d;
    if (!openHistory(d, path, error))
        return false;
    if (!seenOnSqlite(d.db, "results", place, ownId, limit, out, error)) {
        error = path + ": " + error;
        return false;
    }
    return true;
}

} // namespace fl::history
