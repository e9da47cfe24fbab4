#include "commands.h"

#include "synth/synth.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace fl::cli {

namespace {
int fail(const std::string& message)
{
    std::fprintf(stderr, "faultline-cli synth: %s\n", message.c_str());
    return 2;
}

bool number(const std::string& s, double& out)
{
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return !s.empty() && end && *end == '\0';
}
} // namespace

int synthCommand(const std::vector<std::string>& args)
{
    synth::Options o;
    std::string dir;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](double& v) {
            if (i + 1 >= args.size() || !number(args[i + 1], v))
                return false;
            ++i;
            return true;
        };
        double v = 0;
        if (a == "--list-faults") {
            for (const auto& f : synth::faultKinds())
                std::printf("%-24s %-10s %-20s %s\n", f.id.c_str(), f.domain.c_str(), f.subDomain.c_str(),
                            f.title.c_str());
            return 0;
        } else if (a == "--fault" && i + 1 < args.size()) {
            o.fault = args[++i];
        } else if (a == "--nodes" && value(v)) {
            o.nodes = static_cast<int>(v);
        } else if (a == "--gpus" && value(v)) {
            o.gpusPerNode = static_cast<int>(v);
        } else if (a == "--seed" && value(v)) {
            o.seed = static_cast<uint64_t>(v);
        } else if (a == "--skew" && value(v)) {
            o.clockSkewSec = v;
        } else if (a == "--iterations" && value(v)) {
            o.iterations = static_cast<int>(v);
        } else if (a == "--noise" && value(v)) {
            o.noiseLevel = static_cast<int>(v);
        } else if (a == "--app-logs-only") {
            o.appLogsOnly = true;
        } else if (a == "--missing" && i + 1 < args.size()) {
            o.missingSources.push_back(args[++i]);
        } else if (a == "--start" && i + 1 < args.size()) {
            o.startIso = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            return fail("unknown option or missing value: '" + a + "'");
        } else if (dir.empty()) {
            dir = a;
        } else {
            return fail("one output folder at a time ('" + a + "' is extra)");
        }
    }
    if (dir.empty())
        return fail("where to? usage: faultline-cli synth <out-dir> [--fault KIND] [--nodes N] ... (--list-faults)");
    if (o.nodes < 1 || o.nodes > 1250)
        return fail("--nodes must be 1..1250");
    if (o.gpusPerNode < 1 || o.gpusPerNode > 8)
        return fail("--gpus must be 1..8");
    std::string error;
    synth::Truth truth = synth::generate(o, dir, &error);
    if (truth.status.empty())
        return fail(error.empty() ? "generation failed" : error);
    std::printf("%s: %d nodes x %d GPUs, fault %s -> expected %s %s/%s%s%s\n", dir.c_str(), o.nodes, o.gpusPerNode,
                o.fault.c_str(), truth.status.c_str(), truth.domain.c_str(), truth.subDomain.c_str(),
                truth.culpritNode.empty() ? "" : " on ", truth.culpritNode.c_str());
    return 0;
}

} // namespace fl::cli
