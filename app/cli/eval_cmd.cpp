#include "commands.h"

#include "engine/evaluate.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

namespace fl::cli {

namespace {

struct EvalArgs {
    std::string dir;
    bool json = false;
    std::vector<std::string> ruleDirs;
};

int evalCommand(const EvalArgs& a)
{
    const std::string& dir = a.dir;
    AnalyzeOptions options;
    options.ruleDirs = a.ruleDirs;
    auto bundles = findTruthBundles(dir);
    if (bundles.empty()) {
        std::fprintf(stderr, "faultline-cli eval: %s: no bundle with a truth.json found\n", dir.c_str());
        return 2;
    }
    EvalReport report = evaluate(bundles, options);
    std::string text = a.json ? evalReportJson(report) : present::formatEvalReport(report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

} // namespace

Command addEvalCommand(CLI::App& cli)
{
    auto a = std::make_shared<EvalArgs>();
    CLI::App* cmd = cli.add_subcommand("eval", "analyze every bundle under DIR that has a truth.json and score the "
                                               "verdicts");
    cmd->add_option("DIR", a->dir, "folder holding the bundles")->required();
    cmd->add_flag("--json", a->json, "as JSON");
    addRulesOption(cmd, a->ruleDirs);
    return {cmd, [a] { return evalCommand(*a); }};
}

} // namespace fl::cli
