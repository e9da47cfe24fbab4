// The sources behind collect(): one function per kind, each returning one
// report per node (or one for the whole source). Internal to core/collect.
#pragma once

#include "collect/bundle_writer.h"
#include "collect/collect.h"

#include <chrono>

namespace fl::collect {

struct SourceContext {
    const Scope& scope;
    const CollectOptions& options;
    BundleWriter& writer;
    int64_t fromNs;
    int64_t toNs;
    std::chrono::steady_clock::time_point deadline; // of this task
};

bool isLocalNode(const SourceContext& ctx, const std::string& node);
std::vector<std::string> remoteArgv(const SourceContext& ctx, const std::string& node, const std::string& command);

SourceReport collectFiles(const SourceContext& ctx, const std::string& node);
SourceReport collectOutputFiles(const SourceContext& ctx); // Slurm's StdOut/StdErr of the job
SourceReport collectJournal(const SourceContext& ctx, const std::string& node);
std::vector<SourceReport> collectPrometheus(const SourceContext& ctx);
SourceReport collectLoki(const SourceContext& ctx, const std::string& node);
SourceReport collectPodLog(const SourceContext& ctx, const ScopeStep& pod);

} // namespace fl::collect
