#include "history/past_results.h"

#include <sqlite3.h>

namespace fl::history {

bool pastResultsInHistoryDb(const std::string& path, const Offender& place, const std::string& ownWorkload, int limit,
                            std::vector<PastResult>& out, std::string& error)
{
    sqlite3* db = nullptr;
    sqlite3_stmt* st = nullptr;
    auto fail = [&](const char* what) {
        error = path + ": " + (db ? sqlite3_errmsg(db) : what);
        sqlite3_finalize(st);
        sqlite3_close(db);
        return false;
    };
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
        return fail("cannot open");
    sqlite3_busy_timeout(db, 5000);
    // The place as the summary (placesAtNodesSql) names it: collect writes NULL where the service writes ''.
    const char* sql = "SELECT id, COALESCE(workload_id, ''), collected_at, COALESCE(bundle, ''), result_json FROM results"
                      " WHERE fingerprint = ?1 AND root_node = ?2 AND COALESCE(root_pci, '') = ?3 AND"
                      " COALESCE(root_gpu, -1) = ?4 AND (?5 = '' OR COALESCE(workload_id, '') <> ?5)"
                      " ORDER BY collected_at DESC, id DESC LIMIT ?6";
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK)
        return fail("cannot read");
    sqlite3_bind_text(st, 1, place.fingerprint.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, place.node.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, place.pciBus.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 4, place.gpu);
    sqlite3_bind_text(st, 5, ownWorkload.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 6, limit);
    auto text = [st](int i) {
        const unsigned char* t = sqlite3_column_text(st, i);
        return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
    };
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        out.push_back({text(0), text(1), text(2), text(3), text(4)});
    if (rc != SQLITE_DONE)
        return fail("cannot read");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return true;
}

} // namespace fl::history
