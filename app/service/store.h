// Where the service keeps what it was given and what it decided: sessions,
// the raw files ingested into them, and every attribution run. One interface,
// two back ends (SQLite under --data, PostgreSQL for several replicas).
// A call returns only after its transaction is committed and synced, so a
// client that got a 2xx never loses that data to a crash.
#pragma once

#include "history/offenders.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace fl::service {

struct SessionId {
    std::string value;
    friend bool operator==(const SessionId&, const SessionId&) = default;
};

struct SessionRecord {
    SessionId id;
    std::string workloadId;
    int attempt = -1;
    std::string userId;
    int64_t createdNs = 0;
    std::string requestJson;   // scope, failure context, workload context as given (normalised JSON)
    // Summary of the latest run, for listing and filtering.
    int latestRun = 0;
    std::string status = "open"; // open (no run yet) | attributed | ambiguous | unattributed
    std::string domain;
    std::string nodes;           // ",node-a,node-b," (affected + root-cause node) for LIKE filters
};

struct FileRecord {
    std::string path;          // bundle path, '/'-separated, unique within a session
    std::string kind;          // declared by the client, empty: let the loader decide
    std::string node;
    int rank = -1;
    uint64_t size = 0;
    int64_t addedNs = 0;
    std::string content;       // filled only by calls that say so
    // Non-zero: the bytes are those of this path in the session's stored archive number `archive`
    // (putArchive), extracted on demand; `content` is then always empty.
    int archive = 0;
};

// A run's cause in the history: its id there is "<session>/<run>", its job the result's workload id (the session
// id when the result names none, so that every unnamed bundle is a job of its own).
struct RunCause {
    history::CausePlace place;
    std::string workloadId;
    std::string collectedAt;   // the run's creation, ISO 8601 UTC to the second
};

struct RunRecord {
    int run = 0;
    int64_t createdNs = 0;
    std::string phase;         // attribute | bundle | v1-fast | v1-slow
    std::string status;
    std::string domain;
    std::string nodes;
    double elapsedMs = 0;
    std::string resultJson;    // the engine's result document, byte for byte
    // POST /v2/bundles: what made this result (archive bytes, rules, engine, limits; sessions.cpp), so the
    // same archive again can be answered with it. Empty for runs over a session's files.
    std::string inputDigest;    // The root cause's fingerprint and place, kept beside the run (table run_causes) for the history's queries
    // (repeat offenders, "seen before?"). Unset: no root cause, no row.
    std::optional<RunCause> cause;
};

struct RunRef {
    SessionId session;
    int run = 0;
};

struct SessionFilter {
    std::string workloadId, status, domain, node;
    int64_t sinceNs = INT64_MIN, untilNs = INT64_MAX;
    int limit = 100, offset = 0;
};

struct DeletedCounts {
    size_t files = 0, runs = 0;
};

struct StoreError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Store {
public:
    virtual ~Store() = default;
    virtual std::string backend() const = 0;
    // Reads one row of the sessions table: throws StoreError when the store cannot be reached (readiness).
    virtual void ping() = 0;
    virtual void createSession(const SessionRecord& s) = 0;
    virtual std::optional<SessionRecord> session(const SessionId& id) = 0;
    virtual std::vector<SessionRecord> sessions(const SessionFilter& f) = 0;
    // Adds or replaces (same path) files, all in one transaction.
    virtual void putFiles(const SessionId& id, const std::vector<FileRecord>& files) = 0;
    // Stores an uploaded archive once (one row) and its members as files whose bytes stay in it
    // (FileRecord::archive, content empty), in one transaction; `members` carry path, size, addedNs.
    // An archive no file refers to any more (every member replaced since) is deleted with it.
    // Returns the archive's number within the session.
    virtual int putArchive(const SessionId& id, const std::string& archiveBytes, int64_t addedNs,
                           const std::vector<FileRecord>& members) = 0;
    virtual std::optional<std::string> archiveContent(const SessionId& id, int archive) = 0;
    virtual std::vector<FileRecord> files(const SessionId& id) = 0;            // without content
    // With content, except files held in an archive (FileRecord::archive).
    virtual void forEachFile(const SessionId& id, const std::function<void(const FileRecord&)>& fn) = 0;
    // One file with its content (empty when it is held in an archive: FileRecord::archive).
    virtual std::optional<FileRecord> file(const SessionId& id, const std::string& path) = 0;
    // Appends a run and updates the session summary; returns the run number.
    virtual int addRun(const SessionId& id, RunRecord run) = 0;
    virtual std::vector<RunRecord> runs(const SessionId& id, bool withResults) = 0;
    virtual std::optional<RunRecord> run(const SessionId& id, int run) = 0;    // run 0: latest
    // The run whose inputDigest this is (the first one recorded), if any.
    virtual std::optional<RunRef> runByInput(const std::string& inputDigest) = 0;
    // Deletes every session idle since before `cutoffNs` (created, last run and last file all
    // older) with its files and runs, in one transaction; returns how many sessions went.
    virtual size_t pruneIdleBefore(int64_t cutoffNs) = 0;
    // Deletes one session with its files and runs, in one transaction; nullopt when there is no such session.
    virtual std::optional<DeletedCounts> deleteSession(const SessionId& id) = 0;
    // The history (core/history/offenders.h, the same SQL on both back ends) over the runs' causes.
    virtual std::vector<history::Offender> offenders(const history::OffenderQuery& query) = 0;
    // Other runs with `place`'s cause at its GPU (when it names one) and at its node; `ownId` ("<session>/<run>")
    // is left out.
    virtual std::vector<history::SeenAt> seen(const history::CausePlace& place, const std::string& ownId, int limit) = 0;
    // Every cause the history holds at a GPU of `nodes` (history::placesAtNodesSql), by node, most jobs first;
    // no rows listed. What the workbench's History tab shows for a service session.
    virtual std::vector<history::Offender> places(const std::vector<std::string>& nodes) = 0;
};

// The id of a run in the history's table, and back (nullopt for a text that is none).
std::string historyId(const SessionId& session, int run);
std::optional<RunRef> runOfHistoryId(const std::string& id);

// "sqlite:///path/to.db", a plain path, or "postgresql://..." / "postgres://...".
std::unique_ptr<Store> openStore(const std::string& url);
std::unique_ptr<Store> openSqliteStore(const std::string& path);
std::unique_ptr<Store> openPostgresStore(const std::string& url);

} // namespace fl::service
