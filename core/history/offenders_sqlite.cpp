#include "history/offenders.h"

#include <sqlite3.h>

#include <memory>

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

} // namespace

bool offendersInHistoryDb(const std::string& path, const OffenderQuery& q, std::vector<Offender>& out,
                          std::string& error)
{
    Db d;
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
    Stmt group, rows;
    if (sqlite3_prepare_v2(d.db, offendersSql("results", q.level).c_str(), -1, &group.st, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v2(d.db, offenderRowsSql("results", q.level).c_str(), -1, &rows.st, nullptr) != SQLITE_OK) {
        error = path + ": " + sqlite3_errmsg(d.db);
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
        sqlite3_bind_text(rows.st, 1, o.fingerprint.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(rows.st, 2, o.node.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(rows.st, 3, o.pciBus.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(rows.st, 4, o.gpu);
        sqlite3_bind_int(rows.st, 5, q.resultsPerOffender);
        while (sqlite3_step(rows.st) == SQLITE_ROW)
            o.rows.push_back({column(rows.st, 0), column(rows.st, 1), column(rows.st, 2)});
        out.push_back(std::move(o));
    }
    if (rc != SQLITE_DONE) {
        error = path + ": " + sqlite3_errmsg(d.db);
        return false;
    }
    return true;
}

} // namespace fl::history
