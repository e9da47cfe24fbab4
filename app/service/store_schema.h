// The tables both store back ends create; only the column types differ.
#pragma once

#include "history/offenders.h"

#include <string>
#include <vector>

namespace fl::service {

inline std::string storeSchema(const std::string& bigint, const std::string& bytes, const std::string& real)
{
    return "CREATE TABLE IF NOT EXISTS sessions ("
           " id TEXT PRIMARY KEY, workload_id TEXT NOT NULL, attempt INTEGER NOT NULL, user_id TEXT NOT NULL,"
           " created_ns " + bigint + " NOT NULL, request_json TEXT NOT NULL, latest_run INTEGER NOT NULL DEFAULT 0,"
           " status TEXT NOT NULL, domain TEXT NOT NULL DEFAULT '', nodes TEXT NOT NULL DEFAULT '');"
           "CREATE INDEX IF NOT EXISTS sessions_created ON sessions(created_ns);"
           "CREATE INDEX IF NOT EXISTS sessions_workload ON sessions(workload_id);"
           "CREATE TABLE IF NOT EXISTS files ("
           " session_id TEXT NOT NULL REFERENCES sessions(id), path TEXT NOT NULL, kind TEXT NOT NULL,"
           " node TEXT NOT NULL, rank INTEGER NOT NULL, size " + bigint + " NOT NULL, added_ns " + bigint + " NOT NULL,"
           " content " + bytes + " NOT NULL, PRIMARY KEY (session_id, path));"
           "CREATE TABLE IF NOT EXISTS runs ("
           " session_id TEXT NOT NULL REFERENCES sessions(id), run INTEGER NOT NULL, created_ns " + bigint + " NOT NULL,"
           " phase TEXT NOT NULL, status TEXT NOT NULL, domain TEXT NOT NULL, nodes TEXT NOT NULL,"
           " elapsed_ms " + real + " NOT NULL, result_json TEXT NOT NULL, PRIMARY KEY (session_id, run));"
           // A table of its own (not a column of runs): stores made before it need no migration.
           "CREATE TABLE IF NOT EXISTS bundle_runs ("
           " input_digest TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id), run INTEGER NOT NULL);"
           "CREATE INDEX IF NOT EXISTS bundle_runs_session ON bundle_runs(session_id);"
           // An uploaded archive, stored once instead of its members' expanded bytes (1.6 MB instead of 20 MB
           // for the bench's bundle); archive_files says which files of `files` (content empty) it holds.
           // New tables again: a store made before them reads as one where no archive was kept.
           "CREATE TABLE IF NOT EXISTS archives ("
           " session_id TEXT NOT NULL REFERENCES sessions(id), archive INTEGER NOT NULL, added_ns " + bigint + " NOT NULL,"
           " content " + bytes + " NOT NULL, PRIMARY KEY (session_id, archive));"
           "CREATE TABLE IF NOT EXISTS archive_files ("
           " session_id TEXT NOT NULL REFERENCES sessions(id), path TEXT NOT NULL, archive INTEGER NOT NULL,"
           " PRIMARY KEY (session_id, path));"
           // The history: one row per run with a root cause, the columns core/history/offenders.h queries (id is
           // "<session>/<run>"). A new table: runs stored before it are not in the history.
           "CREATE TABLE IF NOT EXISTS run_causes ("
           " session_id TEXT NOT NULL REFERENCES sessions(id), run INTEGER NOT NULL, id TEXT NOT NULL,"
           " workload_id TEXT NOT NULL, fingerprint TEXT NOT NULL, root_node TEXT NOT NULL, root_pci TEXT NOT NULL,"
           " root_gpu INTEGER NOT NULL, collected_at TEXT NOT NULL, PRIMARY KEY (session_id, run));" +
           history::offendersIndexSql("run_causes") + ";" + history::summarySchemaSql("run_causes") + ";";
}

// A run's cause, with the run (both back ends bind the parameters in this order).
inline const char* insertRunCause()
{
    return "INSERT INTO run_causes (session_id, run, id, workload_id, fingerprint, root_node, root_pci, root_gpu,"
           " collected_at) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)";
}

// After files of a session were replaced ($1: its id): the archives none of its files refer to any more.
inline const char* dropUnreferencedArchives()
{
    return "DELETE FROM archives WHERE session_id = $1 AND archive NOT IN"
           " (SELECT archive FROM archive_files WHERE session_id = $1)";
}

// Retention: a session is pruned when neither it, nor any of its runs or files, is as
// recent as $1 (ns since the epoch). $1 is a parameter both SQLite and PostgreSQL read.
// Deleted in this order (runs and files reference sessions), in one transaction; the history's summary is
// recounted without the runs before they go.
inline std::vector<std::string> pruneStatements()
{
    const std::string stale =
        "SELECT s.id FROM sessions s WHERE s.created_ns < $1"
        " AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.session_id = s.id AND r.created_ns >= $1)"
        " AND NOT EXISTS (SELECT 1 FROM files f WHERE f.session_id = s.id AND f.added_ns >= $1)";
    return {"DELETE FROM bundle_runs WHERE session_id IN (" + stale + ")",
            history::summaryForgetSql("run_causes", "r.session_id IN (" + stale + ")"),
            "DELETE FROM run_causes WHERE session_id IN (" + stale + ")",
            "DELETE FROM archive_files WHERE session_id IN (" + stale + ")",
            "DELETE FROM archives WHERE session_id IN (" + stale + ")",
            "DELETE FROM runs WHERE session_id IN (" + stale + ")",
            "DELETE FROM files WHERE session_id IN (" + stale + ")",
            "DELETE FROM sessions WHERE id IN (" + stale + ")"};
}

// DELETE /v2/sessions/{id}: its bundle digests, archives, runs, files, then the session ($1: its id), in one
// transaction. Callers count runs, files and sessions from the last three.
inline std::vector<std::string> deleteSessionStatements()
{
    return {"DELETE FROM bundle_runs WHERE session_id = $1",
            history::summaryForgetSql("run_causes", "r.session_id = $1"), "DELETE FROM run_causes WHERE session_id = $1",
            "DELETE FROM archive_files WHERE session_id = $1",
            "DELETE FROM archives WHERE session_id = $1", "DELETE FROM runs WHERE session_id = $1",
            "DELETE FROM files WHERE session_id = $1",
            "DELETE FROM sessions WHERE id = $1"};
}

} // namespace fl::service
