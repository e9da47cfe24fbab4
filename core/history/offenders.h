// Repeat offenders: the same cause (fingerprint: domain/sub_domain/symptom) on the same node, GPU or PCI address
// across jobs. One SQL text for the collector's history database (SQLite, collect --history) and the service's
// store (SQLite or PostgreSQL): only the table name differs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// The grouping query: $1 the least number of jobs, $2 the limit. Columns: fingerprint, node, pci, gpu, jobs,
// results, first, last. `table` has the columns id, workload_id, fingerprint, root_node, root_gpu, root_pci,
// collected_at.
std::string offendersSql(const std::string& table, OffenderLevel level);
// The rows behind one offender: $1 fingerprint, $2 node, $3 pci ('' for any at Node level), $4 gpu (-1 likewise),
// $5 limit. Columns: id, workload_id, collected_at.
std::string offenderRowsSql(const std::string& table, OffenderLevel level);
// The index both back ends create so that the grouping reads an index in order, not the table.
std::string offendersIndexSql(const std::string& table);

// Over a collect --history database. Returns false and `error` (naming the file) when it cannot be read.
bool offendersInHistoryDb(const std::string& path, const OffenderQuery& query, std::vector<Offender>& out,
                          std::string& error);

} // namespace fl::history
