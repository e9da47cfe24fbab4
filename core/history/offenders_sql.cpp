#include "history/offenders.h"

#include "model.h"

namespace fl::history {

namespace {

// The rows of one cause at one place: $1 fingerprint, $2 node, $3 pci, $4 gpu. At Node level $3 and $4 are ''
// and -1, still compared so that both levels take the same parameters.
std::string atPlace(OffenderLevel level)
{
    return std::string(" WHERE fingerprint = $1 AND root_node = $2") +
           (level == OffenderLevel::Gpu ? " AND COALESCE(root_pci, '') = $3 AND COALESCE(root_gpu, -1) = $4"
                                        : " AND $3 = '' AND $4 = -1");
}

} // namespace

CausePlace causePlace(const Result& result)
{
    CausePlace p;
    if (result.status == ResultStatus::Unattributed || !result.rootCause)
        return p;
    // Same cause, whatever the job: what repeat-offender queries group by.
    p.fingerprint = std::string(toString(result.domain)) + "/" + result.subDomain + "/" + result.rootCause->symptom;
    p.node = result.rootCause->node;
    p.pciBus = result.rootCause->pciBus;
    p.gpu = result.rootCause->gpuIndex;
    return p;
}

// A result without a root cause has no fingerprint (collect writes NULL; the service writes no row): it offends nowhere.
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
    return "SELECT id, workload_id, collected_at FROM " + table + atPlace(level) + " ORDER BY collected_at, id LIMIT $5";
}

std::string seenSql(const std::string& table, OffenderLevel level)
{
    return "SELECT COUNT(DISTINCT workload_id), COUNT(*), COALESCE(MIN(collected_at), ''), "
           "COALESCE(MAX(collected_at), '') FROM " + table + atPlace(level) + " AND id <> $5";
}

std::string seenRowsSql(const std::string& table, OffenderLevel level)
{
    return "SELECT id, workload_id, collected_at FROM " + table + atPlace(level) +
           " AND id <> $5 ORDER BY collected_at DESC, id DESC LIMIT $6";
}

std::string offendersIndexSql(const std::string& table)
{
    return "CREATE INDEX IF NOT EXISTS " + table + "_offenders ON " + table +
           " (fingerprint, root_node, root_pci, root_gpu, workload_id, collected_at)";
}

} // namespace fl::history
