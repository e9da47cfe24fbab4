#include "history/offenders.h"

namespace fl::history {

// A result without a root cause has no fingerprint (collect writes NULL; the service an empty text): it offends nowhere.
std::string offendersSql(const std::string& table, OffenderLevel level)
{
    const bool gpu = level == OffenderLevel::Gpu;
    return std::string("SELECT fingerprint, root_node, ") +
           (gpu ? "COALESCE(root_pci, ''), COALESCE(root_gpu, -1)" : "'', -1") +
           ", COUNT(DISTINCT workload_id), COUNT(*), MIN(collected_at), MAX(collected_at) FROM " + table +
           " WHERE fingerprint IS NOT NULL AND fingerprint <> '' AND root_node IS NOT NULL AND root_node <> ''"
           " GROUP BY fingerprint, root_node" + (gpu ? ", root_pci, root_gpu" : "") +
           " HAVING COUNT(DISTINCT workload_id) >= $1"
           " ORDER BY 5 DESC, 6 DESC, 1, 2, 3, 4 LIMIT $2";
}

std::string offenderRowsSql(const std::string& table, OffenderLevel level)
{
    const bool gpu = level == OffenderLevel::Gpu;
    return "SELECT id, workload_id, collected_at FROM " + table +
           " WHERE fingerprint = $1 AND root_node = $2" +
           (gpu ? " AND COALESCE(root_pci, '') = $3 AND COALESCE(root_gpu, -1) = $4"
                : " AND $3 = '' AND $4 = -1") +
           " ORDER BY collected_at, id LIMIT $5";
}

std::string offendersIndexSql(const std::string& table)
{
    return "CREATE INDEX IF NOT EXISTS " + table + "_offenders ON " + table +
           " (fingerprint, root_node, root_pci, root_gpu, workload_id, collected_at)";
}

} // namespace fl::history
