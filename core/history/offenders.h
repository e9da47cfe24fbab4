// Repeat offenders: the same cause (fingerprint: domain/sub_domain/symptom) on the same node, GPU or PCI address
// across jobs. One SQL text for the collector's history database (SQLite, collect --history) and the service's
// store (SQLite or PostgreSQL): only the table name differs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct sqlite3;

namespace fl {
struct Result;
}

namespace fl::history {

enum class OffenderLevel : uint8_t {
    Gpu,  // the same node and GPU (its PCI address, else its index)
    Node, // the same node, whichever GPU
};

struct OffenderQuery {
    OffenderLevel level = OffenderLevel::Gpu;
    int minJobs = 2;      // distinct workloads with that cause there
    int limit = 100;
    int resultsPerOffender = 20; // result rows listed under each offender, oldest first
};

struct OffenderResult {
    std::string id;        // the row's id (collect: its number; service: "<session>/<run>")
    std::string workloadId;
    std::string at;        // collected_at, ISO 8601 UTC
};

struct Offender {
    std::string fingerprint;
    std::string node;
    std::string pciBus;    // empty at OffenderLevel::Node or when no result named it
    int gpu = -1;
    uint32_t jobs = 0;     // distinct workloads
    uint32_t results = 0;  // rows
    std::string first, last; // collected_at of the first and last
    std::vector<OffenderResult> rows;
};

// The per-place summary `<table>_places` (one row per cause and place, at both levels: jobs, results, first,
// last) is kept in the transaction that adds a row, so the offenders query reads O(offenders) rows of it, not
// O(results) rows of `table`. Both back ends run the same statements.
std::string placesTable(const std::string& table);
// CREATE TABLE and its indexes (the PRIMARY KEY for the upsert, `_top` in the offenders' order).
std::string summarySchemaSql(const std::string& table);
// Recomputes the summary from `table`: three statements (delete, then one INSERT ... SELECT per level; PostgreSQL
// prepares one statement at a time). Run when the summary is new (a database from before it) or disagrees with the rows (summaryDriftSql).
std::vector<std::string> summaryRebuildSql(const std::string& table);
// One integer: rows of `table` with a cause minus the results the summary counts (0 when it is in step).
std::string summaryDriftSql(const std::string& table);
// After one row was added: $1 fingerprint, $2 node, $3 pci, $4 gpu (as offendersSql's places; '' and -1 at Node
// level), $5 workload_id, $6 collected_at, $7 the new row's id. Run once per level.
std::string summaryAddSql(const std::string& table, OffenderLevel level);
// Before rows of `table` are deleted: recounts every summary row those rows count in, without them. `gone` is a
// condition on alias `r` (the rows about to go, e.g. "r.session_id = $1"). A place left with no rows keeps a row
// with jobs 0, which no query lists and a later row reuses.
std::string summaryForgetSql(const std::string& table, const std::string& gone);

// Every cause the summary holds at GPU level on `nodes` nodes ($1 ... $nodes), by node, most jobs first: what a
// job's places did before. Columns as offendersSql's first eight. One statement for many nodes: the History tab
// asked node by node (1,250 statements at 10,000 ranks).
std::string placesAtNodesSql(const std::string& table, size_t nodes);
// Nodes per placesAtNodesSql statement: under SQLite's oldest host-parameter limit (999) and PostgreSQL's.
constexpr size_t kPlacesPerStatement = 500;

// The offenders with their rows, one query: $1 the least number of jobs, $2 the limit, $3 result rows per
// offender. Columns: fingerprint, node, pci, gpu, jobs, results, first, last (the offender, repeated on each of its
// rows), then id, workload_id, collected_at (oldest first). Ordered by offender (most jobs first).
// `table` has the columns id, workload_id, fingerprint, root_node, root_gpu, root_pci, collected_at.
std::string offendersSql(const std::string& table, OffenderLevel level);
// The index both back ends create so that "seen before?" and the summary's upkeep look rows up by place.
std::string offendersIndexSql(const std::string& table);

// One result's cause and place: what "seen before?" looks for. An empty fingerprint: no root cause (unattributed,
// or a verdict without one), which is seen nowhere.
struct CausePlace {
    std::string fingerprint; // domain/sub_domain/symptom
    std::string node;
    std::string pciBus;
    int gpu = -1;
};
[[nodiscard]] CausePlace causePlace(const Result& result);

// Earlier (other) results with the same cause at one level of the same place.
struct SeenAt {
    OffenderLevel level = OffenderLevel::Gpu;
    uint32_t jobs = 0;        // distinct workloads among them
    uint32_t results = 0;
    std::string first, last;  // collected_at
    std::vector<OffenderResult> rows; // newest first, at most the query's limit
};

// $1 fingerprint, $2 node, $3 pci, $4 gpu (as offenderRowsSql), $5 the result's own id (left out).
// Columns: jobs, results, first, last.
std::string seenSql(const std::string& table, OffenderLevel level);
// The same rows, newest first: $6 limit. Columns: id, workload_id, collected_at.
std::string seenRowsSql(const std::string& table, OffenderLevel level);

// The same queries on an open SQLite handle (collect's database, the service's SQLite store). False and
// `error` (SQLite's message) when a statement fails.
bool offendersOnSqlite(sqlite3* db, const std::string& table, const OffenderQuery& query, std::vector<Offender>& out,
                       std::string& error);
bool seenOnSqlite(sqlite3* db, const std::string& table, const CausePlace& place, const std::string& ownId, int limit,
                  std::vector<SeenAt>& out, std::string& error);
// The summary on SQLite: created (and filled from `table`) when missing; `checkDrift` also rebuilds it when it
// disagrees with the rows (rows written by an older program, or bulk-loaded).
bool ensureSummaryOnSqlite(sqlite3* db, const std::string& table, bool checkDrift, std::string& error);
// Counts one new row of `table` in the summary (both levels); call in the transaction that inserted it.
bool addToSummaryOnSqlite(sqlite3* db, const std::string& table, const CausePlace& place, const std::string& workloadId,
                          const std::string& collectedAt, const std::string& id, std::string& error);

// Over a collect --history database. Returns false and `error` (naming the file) when it cannot be read.
bool offendersInHistoryDb(const std::string& path, const OffenderQuery& query, std::vector<Offender>& out,
                          std::string& error);
// The causes at each of `nodes` (placesAtNodesSql; no rows listed), by node: one statement per
// kPlacesPerStatement nodes.
bool placesOnSqlite(sqlite3* db, const std::string& table, const std::vector<std::string>& nodes,
                    std::vector<Offender>& out, std::string& error);
// The same in a collect --history database.
bool placesInHistoryDb(const std::string& path, const std::vector<std::string>& nodes, std::vector<Offender>& out,
                       std::string& error);
// "Seen before?" for `place` in a collect --history database: the GPU level (when the place names a GPU), then
// the node level. `ownId`: the row of the result asked about, left out ('' for none).
bool seenInHistoryDb(const std::string& path, const CausePlace& place, const std::string& ownId, int limit,
                     std::vector<SeenAt>& out, std::string& error);

} // namespace fl::history
