#include "collect/upload.h"

#include "collect/http.h"
#include "history/offenders.h"
#include "engine/result_json.h"
#include "present/timefmt.h"

#include <archive.h>
#include <archive_entry.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace fl::collect {

namespace fs = std::filesystem;

std::string tarGzFolder(const std::string& dir, std::string& error)
{
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && !it->is_symlink(ec))
            files.push_back(it->path());
    if (ec) {
        error = dir + ": " + ec.message();
        return {};
    }
    std::sort(files.begin(), files.end());
    std::string out;
    archive* a = archive_write_new();
    archive_write_add_filter_gzip(a);
    archive_write_set_format_pax_restricted(a);
    auto writer = [](archive*, void* data, const void* buf, size_t n) -> la_ssize_t {
        static_cast<std::string*>(data)->append(static_cast<const char*>(buf), n);
        return static_cast<la_ssize_t>(n);
    };
    if (archive_write_open(a, &out, nullptr, writer, nullptr) != ARCHIVE_OK) {
        error = archive_error_string(a) ? archive_error_string(a) : "cannot start the archive";
        archive_write_free(a);
        return {};
    }
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        archive_entry* e = archive_entry_new();
        archive_entry_set_pathname(e, fs::relative(f, dir).generic_string().c_str());
        archive_entry_set_size(e, static_cast<la_int64_t>(bytes.size()));
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        const bool ok = archive_write_header(a, e) == ARCHIVE_OK
            && archive_write_data(a, bytes.data(), bytes.size()) == static_cast<la_ssize_t>(bytes.size());
        archive_entry_free(e);
        if (!ok) {
            error = f.string() + ": " + (archive_error_string(a) ? archive_error_string(a) : "archive write failed");
            archive_write_free(a);
            return {};
        }
    }
    archive_write_close(a);
    archive_write_free(a);
    return out;
}

ServiceAnswer sendBundle(const std::string& serviceUrl, const std::string& dir, const std::string& token,
                         std::chrono::milliseconds timeout)
{
    ServiceAnswer s;
    const std::string body = tarGzFolder(dir, s.error);
    if (!s.error.empty())
        return s;
    HttpParams headers;
    if (!token.empty())
        headers.emplace_back("Authorization", "Bearer " + token);
    const HttpResult r = httpPost(serviceUrl, "/v2/bundles", body, "application/gzip", headers,
                                  std::chrono::steady_clock::now() + timeout);
    s.status = r.status;
    s.body = r.body;
    s.ok = r.ok;
    if (!r.ok)
        s.error = serviceUrl + "/v2/bundles: " + r.error;
    return s;
}

namespace {

struct Db {
    sqlite3* db = nullptr;
    ~Db() { sqlite3_close(db); }
};

} // namespace

bool appendHistory(const std::string& dbPath, const nlohmann::json& doc, const std::string& scheduler,
                   const std::string& bundleDir, std::string& error)
{
    // The row's columns are what the one reader of a result document makes of it.
    Result result;
    try {
        result = resultFromJson(doc);
    } catch (const std::invalid_argument& e) {
        error = dbPath + ": " + e.what();
        return false;
    }
    Db d;
    if (sqlite3_open_v2(dbPath.c_str(), &d.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
        error = dbPath + ": " + (d.db ? sqlite3_errmsg(d.db) : "cannot open");
        return false;
    }
    sqlite3_busy_timeout(d.db, 5000);
    const std::string schema = std::string("PRAGMA journal_mode=WAL;"
                         "CREATE TABLE IF NOT EXISTS results ("
                         " id INTEGER PRIMARY KEY,"
                         " collected_at TEXT NOT NULL,"
                         " scheduler TEXT, workload_id TEXT, attempt INTEGER,"
                         " status TEXT NOT NULL, outcome TEXT, domain TEXT, sub_domain TEXT,"
                         " root_symptom TEXT, root_node TEXT, root_gpu INTEGER, root_pci TEXT, root_rank INTEGER,"
                         " root_time TEXT, fingerprint TEXT, summary TEXT, bundle TEXT, result_json TEXT NOT NULL);"
                         "CREATE INDEX IF NOT EXISTS results_workload ON results(workload_id, attempt);"
                         "CREATE INDEX IF NOT EXISTS results_fingerprint ON results(fingerprint, root_node);") +
                         history::offendersIndexSql("results") + ";";
    char* msg = nullptr;
    if (sqlite3_exec(d.db, schema.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
        error = dbPath + ": " + (msg ? msg : "schema");
        sqlite3_free(msg);
        return false;
    }
    if (!history::ensureSummaryOnSqlite(d.db, "results", false, error)) {
        error = dbPath + ": " + error;
        return false;
    }
    sqlite3_stmt* st = nullptr;
    const char* insert = "INSERT INTO results (collected_at, scheduler, workload_id, attempt, status, outcome, domain,"
                         " sub_domain, root_symptom, root_node, root_gpu, root_pci, root_rank, root_time, fingerprint,"
                         " summary, bundle, result_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    if (sqlite3_prepare_v2(d.db, insert, -1, &st, nullptr) != SQLITE_OK) {
        error = dbPath + ": " + sqlite3_errmsg(d.db);
        return false;
    }
    const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    int i = 0;
    auto text = [&](const std::string& v) {
        ++i;
        if (v.empty())
            sqlite3_bind_null(st, i);
        else
            sqlite3_bind_text(st, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    };
    auto integer = [&](int v) {
        ++i;
        if (v < 0)
            sqlite3_bind_null(st, i);
        else
            sqlite3_bind_int(st, i, v);
    };
    const RootCause none;
    const RootCause& rc = result.rootCause ? *result.rootCause : none;
    const std::string collectedAt = formatTimeUtc(now / 1'000'000'000 * 1'000'000'000);
    text(collectedAt);
    text(scheduler);
    text(result.workloadId);
    integer(result.attempt);
    text(std::string(toString(result.status)));
    text(std::string(toString(result.outcome)));
    text(std::string(toString(result.domain)));
    text(result.subDomain);
    text(rc.symptom);
    text(rc.node);
    integer(rc.gpuIndex);
    text(rc.pciBus);
    integer(rc.rank);
    text(rc.time.known() ? formatTime(rc.time) : std::string());
    text(history::causePlace(result).fingerprint);
    text(result.summary);
    text(bundleDir);
    text(doc.dump());
    // The row and its count in the summary (history/offenders.h) land together or not at all.
    sqlite3_exec(d.db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    const int rc2 = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc2 != SQLITE_DONE || !history::addToSummaryOnSqlite(d.db, "results", history::causePlace(result), result.workloadId,
                                                             collectedAt, std::to_string(sqlite3_last_insert_rowid(d.db)),
                                                             error)) {
        if (rc2 != SQLITE_DONE)
            error = sqlite3_errmsg(d.db);
        error = dbPath + ": " + error;
        sqlite3_exec(d.db, "ROLLBACK", nullptr, nullptr, nullptr);
        return false;
    }
    if (sqlite3_exec(d.db, "COMMIT", nullptr, nullptr, &msg) != SQLITE_OK) {
        error = dbPath + ": " + (msg ? msg : "commit");
        sqlite3_free(msg);
        return false;
    }
    return true;
}

} // namespace fl::collect
