#include "commands.h"

#include "synth/synth.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

namespace fl::cli {

namespace {
int fail(const std::string& message)
{
    std::fprintf(stderr, "faultline-cli synth: %s\n", message.c_str());
    return 2;
}

struct SynthArgs {
    synth::Options o;
    std::string dir;
    bool listFaults = false;
    bool baseline = false;
    std::string baselinePrefix = "gpu-";
};

int synthCommand(SynthArgs& a)
{
    synth::Options& o = a.o;
    const std::string& dir = a.dir;
    if (a.listFaults) {
        for (const auto& f : synth::faultKinds())
            std::printf("%-24s %-10s %-20s %s\n", f.id.c_str(), std::string(toString(f.domain)).c_str(), f.subDomain.c_str(),
                        f.title.c_str());
        return 0;
    }
    if (dir.empty())
        return fail("where to? usage: faultline-cli synth OUT_DIR [OPTIONS] (--list-faults; --help for every option)");
    if (o.nodes < 1 || o.nodes > 1250)
        return fail("--nodes must be 1..1250");
    if (o.gpusPerNode < 1 || o.gpusPerNode > 8)
        return fail("--gpus must be 1..8");
    std::string error;
    if (a.baseline) {
        if (a.baselinePrefix.empty())
            return fail("--baseline-nodes must not be empty");
        const synth::Options healthy = synth::healthyAttempt(o, a.baselinePrefix);
        if (!synth::generate(healthy, dir + "/healthy", &error))
            return fail(error.empty() ? "generation of the healthy attempt failed" : error);
        std::printf("%s/healthy: the same job without a fault, nodes %s0001..., started %s\n", dir.c_str(),
                    healthy.nodePrefix.c_str(), healthy.startIso.c_str());
    }
    const std::string failedDir = a.baseline ? dir + "/failed" : dir;
    const std::optional<synth::Truth> made = synth::generate(o, failedDir, &error);
    if (!made)
        return fail(error.empty() ? "generation failed" : error);
    const synth::Truth& truth = *made;
    std::printf("%s: %d nodes x %d GPUs, fault %s -> expected %s %s/%s%s%s\n", failedDir.c_str(), o.nodes, o.gpusPerNode,
                o.fault.c_str(), std::string(toString(truth.status)).c_str(), std::string(toString(truth.domain)).c_str(), truth.subDomain.c_str(),
                truth.culpritNode.empty() ? "" : " on ", truth.culpritNode.c_str());
    return 0;
}
} // namespace

void addSynthOptions(CLI::App* cmd, synth::Options& o)
{
    cmd->add_option("--fault", o.fault, "the fault to inject (--list-faults)")->type_name("KIND")->capture_default_str();
    cmd->add_option("--nodes", o.nodes, "nodes, 1..1250")->type_name("N")->check(CLI::Range(1, 1250))
        ->capture_default_str();
    cmd->add_option("--gpus", o.gpusPerNode, "GPUs per node, 1..8")->type_name("G")->check(CLI::Range(1, 8))
        ->capture_default_str();
    cmd->add_option("--seed", o.seed, "random seed: same seed, same bundle")->type_name("S")->capture_default_str();
    cmd->add_option("--skew", o.clockSkewSec, "largest clock offset between nodes")->type_name("SECONDS")
        ->capture_default_str();
    cmd->add_option("--culprit-ahead", o.culpritAheadSec, "the culprit node's clock runs this far ahead of true "
                                                           "time (0: seeded like the others)")
        ->type_name("SECONDS")->check(CLI::Range(0.0, 86400.0))->capture_default_str();
    cmd->add_flag("--peer-reports", o.peerReports, "a rank killed by its GPU makes its ring neighbours on other nodes "
                                                   "report NCCL error 12 naming its node's address");
    cmd->add_flag("--rotated", o.rotatedSyslog, "the culprit node's syslog was rotated during the episode: its first "
                                                "lines are lost (R590 driver: Xid 45 names the earlier Xid)");
    cmd->add_flag("--precise-syslog", o.preciseSyslog, "syslog and kernel lines with sub-second RFC 3339 stamps "
                                                       "(rsyslog's RSYSLOG_FileFormat) instead of \"Mar 14 10:00:41\"");
    cmd->add_flag("--last-rank-iterations", o.iterationsOnLastRank, "iteration lines only on the last rank "
                                                                "(Megatron's print_rank_last)");
    cmd->add_option("--iterations", o.iterations, "training iterations logged before the fault")->type_name("N")
        ->capture_default_str();
    cmd->add_option("--noise", o.noiseLevel, "benign noise: 0 none, 1 some, 2 a lot")->type_name("0|1|2")
        ->check(CLI::Range(0, 2))->capture_default_str();
    cmd->add_flag("--app-logs-only", o.appLogsOnly, "write only the ranks' application logs");
    cmd->add_option("--metrics", o.metrics, "metrics as csv (the generator's columns) or dcgm (dcgm-exporter and "
                                            "node-exporter scrapes, which the metric rules read)")
        ->type_name("csv|dcgm")->check(CLI::IsMember({"csv", "dcgm"}))->capture_default_str();
    cmd->add_flag("--metrics-only", o.metricsOnly, "write only the metrics (and the manifest)");
    cmd->add_option("--missing", o.missingSources, "leave out a source (repeatable)")->type_name("SOURCE")
        ->allow_extra_args(false);
    cmd->add_option("--start", o.startIso, "when the job starts (ISO 8601)")->type_name("TIME");
    cmd->add_option("--layout", o.layout, "ranks' output: one file per rank, one torchrun console per node "
                                          "([default<N>]: prefixes), or one srun --label file")
        ->check(CLI::IsMember(synth::layoutNames()))->capture_default_str();
}

Command addSynthCommand(CLI::App& cli)
{
    auto a = std::make_shared<SynthArgs>();
    synth::Options& o = a->o;
    CLI::App* cmd = cli.add_subcommand("synth", "write a realistic synthetic bundle with one injected fault and its "
                                                "truth.json");
    cmd->add_option("OUT_DIR", a->dir, "the folder to write");
    addSynthOptions(cmd, o);
    cmd->add_flag("--baseline", a->baseline, "also write a healthy attempt of the same job (same benign noise, no "
                                             "fault): OUT_DIR/failed and OUT_DIR/healthy");
    cmd->add_option("--baseline-nodes", a->baselinePrefix, "the healthy attempt's node name prefix (another "
                                                            "allocation)")
        ->type_name("PREFIX")->capture_default_str();
    cmd->add_flag("--list-faults", a->listFaults, "list the fault kinds and exit");
    return {cmd, [a] { return synthCommand(*a); }};
}

} // namespace fl::cli
