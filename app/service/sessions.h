// What the HTTP layer asks of the engine and the store: create sessions, add
// evidence (raw files or an archive, through core/bundle's loader and its
// limits), run attribution over everything a session holds, and find the raw
// lines behind an evidence id. No HTTP here.
#pragma once

#include "store.h"

#include "bundle/bundle.h"
#include "engine/engine.h"
#include "progress.h"
#include "rules/ruleset.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace fl::service {

// A client mistake the HTTP layer answers with a 4xx: status + {error, detail}.
struct ApiError : std::runtime_error {
    ApiError(int status, std::string code, const std::string& detail)
        : std::runtime_error(detail), status(status), code(std::move(code)) {}
    int status;
    std::string code;
};

struct IngestReport {
    std::vector<FileRecord> files;     // what was stored (no content)
    std::vector<std::string> warnings; // refused members, truncated archive, ...
};

struct RunOutcome {
    RunRecord run;
    bool cancelled = false;            // deadline hit: nothing stored
};

struct SessionServiceOptions {
    std::string tmpDir;                // where uploads are extracted and sessions materialised
    LoadOptions load;                  // archive limits (entry, total, count); its threads come from below
    // Threads one analysis scans on (0: one per core). The service runs --workers analyses at once: with as
    // many workers as cores, two threads each crowded 4 threads onto 2 cores (12.5-13.8 analyses/s with one
    // thread each, 9.9-12.3 with two; docs/performance.md).
    unsigned threadsPerAnalysis = 0;
};

class SessionService {
public:
    SessionService(Store& store, std::shared_ptr<const RuleSet> rules, SessionServiceOptions options);

    // Validates the request document (workload_id, attempt, scope, failure_context, ...) and stores a session.
    SessionRecord create(const nlohmann::json& request);
    SessionRecord require(const SessionId& id);

    IngestReport ingestFiles(const SessionId& id, std::vector<FileRecord> files);
    IngestReport ingestArchive(const SessionId& id, const std::string& archiveBytes, const Progress& progress);

    // With `baseline`: the session analysed against that session, a healthy attempt of the same job; the result
    // gains `baseline` (analyze --baseline, docs/result-schema.md).
    RunOutcome attribute(const SessionId& id, const std::string& phase, const Progress& progress,
                         const std::optional<SessionId>& baseline = std::nullopt);
    // POST /v2/bundles: a new session from one archive, analysed straight from its extraction; the run
    // records `digest` (bundleDigest of the archive).
    // With `baseline` (a stored session) the result gains `baseline`; the caller passes no digest then (the
    // result depends on the baseline's files too).
    std::pair<SessionRecord, RunOutcome> analyzeArchive(const std::string& archiveBytes, const std::string& digest,
                                                        const Progress& progress,
                                                        const std::optional<SessionId>& baseline = std::nullopt);
    // What determines a bundle's result: the archive's bytes, the rules, the engine, the archive limits.
    std::string bundleDigest(const std::string& archiveBytes) const;
    // The run an archive with this digest got before (on any replica sharing the store), if its session
    // still exists: same inputs give a byte-identical result, so it can answer instead of an analysis.
    std::optional<std::pair<SessionRecord, RunRecord>> earlierBundleRun(const std::string& digest);

    // The raw lines of one evidence item of a run (0: latest), `context` lines either side.
    nlohmann::json evidenceLines(const SessionId& id, int run, const std::string& evidenceId, int context);
    // The engine's trace of a run (0: latest): the analysis again of the files that run read (its
    // connector reports name them), with the trace on; 409 when they or the rules no longer give that
    // run's result (a file replaced since, other rules). Nullopt when `progress` was cancelled.
    std::optional<nlohmann::json> trace(const SessionId& id, int run, const Progress& progress);
    // Deletes a session with its files (an uploaded bundle's too) and runs; 404 when unknown.
    DeletedCounts remove(const SessionId& id);

    const RuleSet& rules() const { return *rules_; }
    const std::string& rulesDigest() const { return rulesDigest_; } // computed once: hashing the rules is not free
    Store& store() { return store_; }

private:
    // `beforeRun`, when given, is called before the run is stored: what the run needs in the store first.
    // `baseline`: a healthy attempt's bundle to compare with.
    RunOutcome runEngine(const SessionRecord& s, const Bundle& bundle, const std::string& phase,
                         const Progress& progress, double loadMs, const std::string& inputDigest = {},
                         const std::function<void()>& beforeRun = {}, const Bundle* baseline = nullptr);
    // The engine over one bundle, kept as an Analysis (what baseline::compare reads); empty when cancelled.
    Analysis analysisOf(const Bundle& bundle, const Progress& progress) const;
    // The baseline session (404 when there is none; 400 when it is `failed` itself).
    SessionRecord requireBaseline(const SessionId& baseline, const SessionId& failed);
    std::string writeTemp(const std::string& bytes) const;
    // Stores an uploaded archive's files: the archive itself once when loading it again gives the same files
    // (Store::putArchive), else each member's bytes. `records` get the stored files (content cleared or not).
    // refuseClashes: 409 when a path would also be another's folder (observations into a session).
    void storeUpload(const SessionId& id, const Bundle& b, const std::string& uploadPath, const std::string& bytes,
                     bool refuseClashes, IngestReport& rep, std::vector<FileRecord>& records);
    // One of the session's stored archives, extracted again by the loader (same paths as when it came).
    Bundle unpackArchive(const SessionId& id, int archive, const Progress& progress) const;
    // The bytes of a file held in a stored archive (FileRecord::archive).
    std::string archivedContent(const SessionId& id, const FileRecord& f) const;
    // The session's files written under `dir` and loaded as a bundle (a workload.json from the session when
    // it has none; what the client declared wins over what the loader inferred).
    // `only`: just these paths (the files a run read); null: every file of the session.
    Bundle materialise(const SessionRecord& s, const std::string& dir, const Progress& progress,
                       const std::set<std::string>* only = nullptr);
    // A store write refused because the session is gone (deleted meanwhile) becomes a 404.
    [[noreturn]] void rethrowIfGone(const SessionId& id, const StoreError& e);

    Store& store_;
    std::shared_ptr<const RuleSet> rules_;
    std::string rulesDigest_;
    SessionServiceOptions options_;
};

// "a/b.log" stays, "../x", "/etc/x", "a//b", "a/./b", NUL or backslashes are refused (ApiError 400).
std::string safeRelativePath(const std::string& path);
int64_t nowNs();
std::string newSessionId();

} // namespace fl::service
