#include "history/offenders.h"

#include <sqlite3.h>

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
    return true;
}

} // namespace

bool offendersOnSqlite(sqlite3* db, const std::string& table, const OffenderQuery& q, std::vector<Offender>& out,
                       std::string& error)
{
    Stmt group, rows;
    if (sqlite3_prepare_v2(db, offendersSql(table, q.level).c_str(), -1, &group.st, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v2(db, offenderRowsSql(table, q.level).c_str(), -1, &rows.st, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return false;
    }
    sqlite3_bind_int(group.st, 1, q.minJobs);
    sqlite3_bind_int(group.st, 2, q.limit);
    int rc;
    while ((rc = sqlite3_step(group.st)) == SQLITE_ROW) {
        Offender o;
        o.fingerprint = column(group.st, 0);
        o.node = column(group.st, 1);
        o.pciBus = column(group.st, 2);
        o.gpu = sqlite3_column_int(group.st, 3);
        o.jobs = static_cast<uint32_t>(sqlite3_column_int64(group.st, 4));
        o.results = static_cast<uint32_t>(sqlite3_column_int64(group.st, 5));
        o.first = column(group.st, 6);
        o.last = column(group.st, 7);
        sqlite3_reset(rows.st);
        bindPlace(rows.st, o.fingerprint, o.node, o.pciBus, o.gpu);
        sqlite3_bind_int(rows.st, 5, q.resultsPerOffender);
        o.rows = readRows(rows.st);
        out.push_back(std::move(o));
    }
    if (rc != SQLITE_DONE) {
        error = sqlite3_errmsg(db);
        return false;
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
