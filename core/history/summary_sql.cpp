#include "history/offenders.h"

namespace fl::history {

namespace {

const char* levelName(OffenderLevel level) { return level == OffenderLevel::Gpu ? "'gpu'" : "'node'"; }

// A row of `table` that names a cause and a node: what the summary counts (collect writes NULL, the service '').
const char* kCaused = "fingerprint IS NOT NULL AND fingerprint <> '' AND root_node IS NOT NULL AND root_node <> ''";

// Row `r` of `table` counts in summary row `p` (a place at either level).
std::string countsIn(const std::string& p)
{
    return "r.fingerprint = " + p + ".fingerprint AND r.root_node = " + p + ".node AND (" + p + ".level = 'node' OR "
           "(COALESCE(r.root_pci, '') = " + p + ".pci AND COALESCE(r.root_gpu, -1) = " + p + ".gpu))";
}

} // namespace

std::string placesTable(const std::string& table) { return table + "_places"; }

std::string summarySchemaSql(const std::string& table)
{
    const std::string p = placesTable(table);
    return "CREATE TABLE IF NOT EXISTS " + p + " (fingerprint TEXT NOT NULL, node TEXT NOT NULL, level TEXT NOT NULL,"
           " pci TEXT NOT NULL, gpu INTEGER NOT NULL, jobs INTEGER NOT NULL, results INTEGER NOT NULL,"
           " first_at TEXT NOT NULL, last_at TEXT NOT NULL, PRIMARY KEY (fingerprint, node, level, pci, gpu));"
           "CREATE INDEX IF NOT EXISTS " + p + "_top ON " + p +
           " (level, jobs DESC, results DESC, fingerprint, node, pci, gpu);"
           "CREATE INDEX IF NOT EXISTS " + p + "_node ON " + p + " (node, level)";
}

std::string placesAtNodesSql(const std::string& table, size_t nodes)
{
    std::string in;
    for (size_t i = 1; i <= nodes; ++i)
        in += (i == 1 ? "$" : ", $") + std::to_string(i);
    return "SELECT fingerprint, node, pci, gpu, jobs, results, first_at, last_at FROM " + placesTable(table) +
           " WHERE node IN (" + in + ") AND level = 'gpu' AND results > 0"
           " ORDER BY node, jobs DESC, results DESC, fingerprint, pci, gpu";
}

std::vector<std::string> summaryRebuildSql(const std::string& table)
{
    const std::string p = placesTable(table);
    std::vector<std::string> sql{"DELETE FROM " + p};
    for (OffenderLevel level : {OffenderLevel::Gpu, OffenderLevel::Node}) {
        const bool gpu = level == OffenderLevel::Gpu;
        const std::string place = gpu ? "COALESCE(root_pci, ''), COALESCE(root_gpu, -1)" : "'', -1";
        // A row without a workload id is a result but no job (summaryAddSql counts it the same way).
        sql.push_back("INSERT INTO " + p + " (fingerprint, node, level, pci, gpu, jobs, results, first_at, last_at)"
               " SELECT fingerprint, root_node, " + levelName(level) + ", " + place +
               ", COUNT(DISTINCT NULLIF(workload_id, '')), COUNT(*), MIN(collected_at), MAX(collected_at) FROM " +
               table + " WHERE " + kCaused + " GROUP BY fingerprint, root_node" + (gpu ? ", " + place : ""));
    }
    return sql;
}

std::string summaryDriftSql(const std::string& table)
{
    return "SELECT (SELECT COUNT(*) FROM " + table + " WHERE " + kCaused + ") - (SELECT COALESCE(SUM(results), 0) FROM " +
           placesTable(table) + " WHERE level = 'node')";
}

std::string summaryAddSql(const std::string& table, OffenderLevel level)
{
    const std::string p = placesTable(table);
    const std::string here = level == OffenderLevel::Gpu
                                 ? "COALESCE(root_pci, '') = $3 AND COALESCE(root_gpu, -1) = $4"
                                 : "$3 = '' AND $4 = -1";
    // The job is new at this place unless another row of the same workload is there already.
    return "INSERT INTO " + p + " (fingerprint, node, level, pci, gpu, jobs, results, first_at, last_at) VALUES ($1, $2, " +
           levelName(level) + ", $3, $4, CASE WHEN $5 = '' THEN 0 ELSE 1 END, 1, $6, $6)"
           " ON CONFLICT (fingerprint, node, level, pci, gpu) DO UPDATE SET jobs = " + p + ".jobs + CASE WHEN $5 = '' OR"
           " EXISTS (SELECT 1 FROM " + table + " WHERE fingerprint = $1 AND root_node = $2 AND " + here +
           " AND workload_id = $5 AND id <> $7) THEN 0 ELSE 1 END, results = " + p + ".results + 1,"
           " first_at = CASE WHEN " + p + ".results = 0 OR excluded.first_at < " + p + ".first_at THEN excluded.first_at"
           " ELSE " + p + ".first_at END,"
           " last_at = CASE WHEN " + p + ".results = 0 OR excluded.last_at > " + p + ".last_at THEN excluded.last_at"
           " ELSE " + p + ".last_at END";
}

std::string summaryForgetSql(const std::string& table, const std::string& gone)
{
    const std::string p = placesTable(table);
    const std::string left = " FROM " + table + " r WHERE " + countsIn(p) + " AND NOT (" + gone + "))";
    return "UPDATE " + p + " SET jobs = (SELECT COUNT(DISTINCT NULLIF(r.workload_id, ''))" + left +
           ", results = (SELECT COUNT(*)" + left + ", first_at = COALESCE((SELECT MIN(r.collected_at)" + left +
           ", ''), last_at = COALESCE((SELECT MAX(r.collected_at)" + left + ", '')"
           " WHERE (fingerprint, node) IN (SELECT r.fingerprint, r.root_node FROM " + table + " r WHERE " + gone + ")";
}

} // namespace fl::history
