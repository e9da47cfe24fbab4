#include "commands.h"

#include "engine/evaluate.h"

#include <cstdio>

namespace fl::cli {

int evalCommand(const std::vector<std::string>& args)
{
    std::string dir;
    bool asJson = false;
    AnalyzeOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json")
            asJson = true;
        else if (args[i] == "--rules" && i + 1 < args.size())
            options.ruleDirs.push_back(args[++i]);
        else if (!args[i].empty() && args[i][0] == '-') {
            std::fprintf(stderr, "faultline-cli eval: unknown option '%s'\n", args[i].c_str());
            return 2;
        } else
            dir = args[i];
    }
    if (dir.empty()) {
        std::fprintf(stderr, "faultline-cli eval: which folder? usage: faultline-cli eval <dir> [--json]\n");
        return 2;
    }
    auto bundles = findTruthBundles(dir);
    if (bundles.empty()) {
        std::fprintf(stderr, "faultline-cli eval: %s: no bundle with a truth.json found\n", dir.c_str());
        return 2;
    }
    EvalReport report = evaluate(bundles, options);
    std::string text = asJson ? evalReportJson(report) : formatEvalReport(report);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

} // namespace fl::cli
