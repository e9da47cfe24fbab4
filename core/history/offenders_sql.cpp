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

// Read from the summary (summary_sql.cpp): the top places by its index, then each one's oldest rows by place
// (the index offendersIndexSql makes), in one statement so that a remote store answers in one round trip. Every
// listed place has a row (jobs > 0), so no outer join is needed.
std::string offendersSql(const std::string& table, OffenderLevel level)
{
    const bool gpu = level == OffenderLevel::Gpu;
    return "WITH top AS (SELECT fingerprint, node, pci, gpu, jobs, results, first_at, last_at FROM " +
           placesTable(table) + " WHERE level = " + (gpu ? "'gpu'" : "'node'") +
           " AND jobs >= $1 AND jobs > 0 ORDER BY jobs DESC, results DESC, fingerprint, node, pci, gpu LIMIT $2),"
           " listed AS (SELECT t.fingerprint, t.node, t.pci, t.gpu, t.jobs, t.results, t.first_at, t.last_at, r.id,"
           " r.workload_id, r.collected_at, ROW_NUMBER() OVER (PARTITION BY t.fingerprint, t.node, t.pci, t.gpu"
           " ORDER BY r.collected_at, r.id) AS n FROM top t JOIN " + table +
           " r ON r.fingerprint = t.fingerprint AND r.root_node = t.node" +
           (gpu ? " AND COALESCE(r.root_pci, '') = t.pci AND COALESCE(r.root_gpu, -1) = t.gpu" : "") +
           ") SELECT fingerprint, node, pci, gpu, jobs, results, first_at, last_at, id, workload_id, collected_at"
           " FROM listed WHERE n <= $3 ORDER BY jobs DESC, results DESC, fingerprint, node, pci, gpu, n";
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

// `id` last makes it covering for offendersSql's rows (the service's `id` is a text column, not the rowid): the
// node level's ~6,000 listed rows at 100,000 results were each looked up in the table. A store made with the
// index before it (`_offenders`, without `id`) has that one replaced on open.
std::string offendersIndexSql(const std::string& table)
{
    return "DROP INDEX IF EXISTS " + table + "_offenders; CREATE INDEX IF NOT EXISTS " + table + "_offender_rows ON " +
           table + " (fingerprint, root_node, root_pci, root_gpu, workload_id, collected_at, id)";
}

} // namespace fl::history
