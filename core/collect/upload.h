// Sending a collected bundle to faultline-service, and the history of results.
#pragma once

#include "collect/collect.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace fl::collect {

// The bundle folder as a .tar.gz in memory (regular files, sorted, relative paths).
std::string tarGzFolder(const std::string& dir, std::string& error);

struct ServiceAnswer {
    bool ok = false;
    int status = 0;
    std::string body;      // the service's JSON: {session_id, run, result}
    std::string error;
};

// POST /v2/bundles with the archive; token (may be empty) as a bearer token.
ServiceAnswer sendBundle(const std::string& serviceUrl, const std::string& dir, const std::string& token,
                         std::chrono::milliseconds timeout);

// Appends one row per result to a SQLite database (created when missing):
// the workload, attempt, verdict, root cause and a fingerprint of the cause
// (domain/sub-domain/symptom) so repeat-offender nodes and GPUs can be found
// across jobs. Returns false and error on failure.
// `result` is the result document (docs/result-schema.md), local or from the service.
[[nodiscard]] bool appendHistory(const std::string& dbPath, const nlohmann::json& result, const std::string& scheduler,
                   const std::string& bundleDir, std::string& error);

} // namespace fl::collect
