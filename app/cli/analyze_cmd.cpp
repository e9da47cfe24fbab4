#include "commands.h"
#include "rule_coverage.h"
#include "text_report.h"

#include "engine/baseline_json.h"
#include "baseline/compare.h"
#include "bundle/bundle.h"
#include "engine/engine.h"
#include "engine/result_json.h"
#include "present/timefmt.h"
#include "rules/matcher.h"
#include "rules/ruleset.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <unistd.h>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

namespace fl::cli {

namespace {

int fail(const std::string& message)
{
    std::fprintf(stderr, "faultline-cli: %s\n", message.c_str());
    return 2;
}

bool isatty_stderr()
{
    return ::isatty(2) != 0;
}

struct AnalyzeArgs {
    std::string bundle, output, baseline;
    bool json = false, text = false, explain = false, timing = false, noUserRules = false, detail = false;
    std::vector<std::string> ruleDirs;
};

struct InspectArgs {
    std::string bundle;
    bool json = false;
};

struct ValidateRulesArgs {
    std::vector<std::string> dirs;
    bool patterns = false;
    bool coverage = false;
};

int analyzeCommand(const AnalyzeArgs& a)
{
    const std::string& bundle = a.bundle;
    const std::string& output = a.output;
    const bool explain = a.explain, timing = a.timing;
    // JSON unless --text; --explain alone means "show me": text plus the trace.
    const bool json = a.json || (!a.text && !explain);
    AnalyzeOptions options;
    options.keepMetricSamples = false; // the result document does not carry samples
    options.keepMetricSeries = false;  // nor series: only the result is written
    options.keepTrace = explain;
    // An archive's members are read from memory rather than written out and read back (a new file per
    // member cost more than the scan on an ext4 /tmp); past this much, the rest go to $TMPDIR as before.
    options.load.memoryBytes = 256ull << 20;
    options.userConfigRules = !a.noUserRules;
    options.ruleDirs = a.ruleDirs;

    Analysis analysis;
    try {
        Progress progress;
        if (isatty_stderr())
            progress.report = [](std::string_view stage, uint64_t done, uint64_t total) {
                if (total > (64u << 20))
                    std::fprintf(stderr, "\r%.*s %3d%%", static_cast<int>(stage.size()), stage.data(),
                                 static_cast<int>(total ? done * 100 / total : 100));
            };
        analysis = analyze(bundle, options, progress);
        if (isatty_stderr())
            std::fprintf(stderr, "\r            \r");
    } catch (const BundleError& e) {
        return fail(e.what());
    } catch (const RuleError& e) {
        return fail(e.what());
    } catch (const std::exception& e) {
        return fail(bundle + ": " + e.what());
    }
    std::optional<BaselineComparison> comparison;
    if (!a.baseline.empty()) {
        try {
            AnalyzeOptions healthyOptions = options;
            healthyOptions.keepTrace = false;
            const Analysis healthy = analyze(a.baseline, healthyOptions);
            comparison = baseline::compare(analysis, healthy);
        } catch (const BundleError& e) {
            return fail(std::string("--baseline: ") + e.what());
        } catch (const std::exception& e) {
            return fail("--baseline " + a.baseline + ": " + e.what());
        }
    }

    if (timing) {
        double total = 0;
        for (const auto& [stage, ms] : analysis.stageMs) {
            std::fprintf(stderr, "%-10s %9.1f ms\n", stage.c_str(), ms);
            total += ms;
        }
        std::fprintf(stderr, "%-10s %9.1f ms\n", "total", total);
    }
    std::string text;
    if (json) {
        // The document is built from the result alone: what else the analysis
        // holds (a 10,000-rank job's 200,000 observations, its placement) is
        // freed first, so the JSON tree does not stack on it (peak memory).
        // --explain still reads the trace below.
        if (!explain) {
            Result result = std::move(analysis.result);
            analysis = Analysis{};
            analysis.result = std::move(result);
        }
        text = comparison ? resultToStringWithBaseline(analysis.result, *comparison, ResultJsonOptions{a.detail})
                          : resultToString(analysis.result, ResultJsonOptions{a.detail});
    } else {
        text = formatDiagnosis(analysis, a.detail);
        if (comparison)
            text += formatBaseline(analysis.result, *comparison);
    }
    if (explain)
        text += (json ? "" : "\n") + formatExplanation(analysis);
    if (!output.empty()) {
        std::ofstream out(output, std::ios::binary);
        if (!out)
            return fail(output + ": cannot write");
        out << text;
    } else {
        std::fwrite(text.data(), 1, text.size(), stdout);
    }
    return 0;
}

int inspectCommand(const InspectArgs& a)
{
    const std::string& path = a.bundle;
    const bool asJson = a.json;
    Analysis analysis;
    try {
        AnalyzeOptions options;
        analysis = analyze(path, options);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::string text = formatInspection(analysis, asJson);
    if (!asJson)
        text += "\n" + describePlacement(analysis.placement, analysis.bundle.files);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

int validateRulesCommand(const ValidateRulesArgs& a)
{
    const bool patternsOnly = a.patterns, coverage = a.coverage;
    const std::vector<std::string>& args = a.dirs;
    if (patternsOnly) {
        try {
            RuleSet rules;
            for (const auto& dir : args)
                rules.loadDirectory(dir);
            rules.compile();
            for (const auto& r : rules.rules()) {
                if (r.phase != Phase::Extract || r.metric)
                    continue;
                std::string p = r.pattern;
                for (size_t at; (at = p.find("(?P<")) != std::string::npos;) {
                    size_t close = p.find('>', at);
                    p.replace(at, close - at + 1, "(");
                }
                std::printf("%s%s\n", r.ignoreCase ? "(?i)" : "", p.c_str());
            }
        } catch (const RuleError& e) {
            return fail(e.what());
        }
        return 0;
    }
    // A folder that is not there is unusable input (2, as for every command), not a rule problem (1).
    for (const auto& dir : args) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            return fail("validate-rules: " + dir + ": not a folder of rule files");
    }
    int bad = 0;
    for (const auto& dir : args) {
        try {
            RuleSet rules;
            rules.loadDirectory(dir);
            rules.compile();
            size_t extract = 0;
            size_t noLiteral = 0;
            for (const auto& r : rules.rules()) {
                if (r.phase != Phase::Extract)
                    continue;
                ++extract;
                if (!r.metric && prefilterLiterals(r).empty() && r.noLiteral.empty()) {
                    ++noLiteral;
                    std::printf("%s:%d: rule '%s': warning: no literal the pre-filter can use; it will run on every "
                                "line (add \"literal\", or say why not in \"no_literal\")\n",
                                r.file.c_str(), r.line, r.id.c_str());
                }
            }
            std::fputs(ruleSampleWarnings(rules).c_str(), stdout);
            size_t samples = 0;
            for (const auto& r : rules.rules())
                samples += r.samples.size() + r.benign.size() +
                           (r.metric ? r.metric->samples.size() + r.metric->benign.size() : 0);
            std::printf("%s: ok: %zu rules (%zu extract, %zu without a literal), %zu symptoms, %zu sample lines checked, "
                        "digest %s\n",
                        dir.c_str(), rules.rules().size(), extract, noLiteral, rules.symptoms().size(), samples,
                        rules.digest().c_str());
            if (coverage)
                std::fputs(ruleCoverage(rules).c_str(), stdout);
        } catch (const RuleError& e) {
            std::fprintf(stderr, "%s\n", e.what());
            ++bad;
        }
    }
    return bad ? 1 : 0;
}

} // namespace

void addRulesOption(CLI::App* cmd, std::vector<std::string>& dirs)
{
    cmd->add_option("--rules", dirs, "also load the rules in DIR (repeatable; a rule with a known id replaces it)")
        ->type_name("DIR")
        ->allow_extra_args(false);  // one folder per --rules: the next word may be the bundle
}

Command addAnalyzeCommand(CLI::App& cli)
{
    auto a = std::make_shared<AnalyzeArgs>();
    CLI::App* cmd = cli.add_subcommand("analyze", "diagnose a workload bundle (folder, .tar, .tar.gz, .tgz, .tar.zst, "
                                                  ".zip); exit 0 whatever the verdict, 2 for unusable input");
    cmd->add_option("BUNDLE", a->bundle, "the bundle folder or archive")->required();
    auto* json = cmd->add_flag("--json", a->json, "print the versioned result document (the default)");
    cmd->add_flag("--text", a->text, "print a readable diagnosis instead")->excludes(json);
    cmd->add_flag("--explain", a->explain, "add the phase-by-phase trace (text unless --json)");
    cmd->add_flag("--detail", a->detail,
                  "keep the per-event chain: every symptom event and edge (JSON symptom_chain.nodes/edges, "
                  "family members), not only one node per symptom family");
    cmd->add_option("--baseline", a->baseline,
                    "compare with a healthy attempt of the same job: mark what is new, also in it, or gone "
                    "(result `baseline`)")
        ->type_name("HEALTHY");
    addRulesOption(cmd, a->ruleDirs);
    cmd->add_flag("--no-user-rules", a->noUserRules, "skip $XDG_CONFIG_HOME/faultline/rules");
    cmd->add_option("-o,--output", a->output, "write to FILE instead of standard output")->type_name("FILE");
    cmd->add_flag("--timing", a->timing, "print the wall time of each stage on standard error");
    return {cmd, [a] { return analyzeCommand(*a); }};
}

Command addInspectCommand(CLI::App& cli)
{
    auto a = std::make_shared<InspectArgs>();
    CLI::App* cmd = cli.add_subcommand("inspect", "list sources, nodes, ranks, time span and coverage without "
                                                  "diagnosing");
    cmd->add_option("BUNDLE", a->bundle, "the bundle folder or archive")->required();
    cmd->add_flag("--json", a->json, "as JSON");
    return {cmd, [a] { return inspectCommand(*a); }};
}

Command addValidateRulesCommand(CLI::App& cli)
{
    auto a = std::make_shared<ValidateRulesArgs>();
    CLI::App* cmd = cli.add_subcommand("validate-rules", "check rule files and run each rule's samples and benign "
                                                         "lines; reports file:line:column and the rule id of the "
                                                         "first problem; exit 1 when a folder has one, 2 when a "
                                                         "folder is missing");
    cmd->add_option("DIR", a->dirs, "rule folders (*.jsonc)")->required();
    // Every extract pattern, one per line, with named groups made plain, so another tool (the benchmark's rg)
    // can search for the same lines.
    cmd->add_flag("--patterns", a->patterns, "print every extract pattern, one per line, named groups made plain");
    cmd->add_flag("--coverage", a->coverage,
                  "also print the families (origin of the messages) and domains the extract rules cover");
    return {cmd, [a] { return validateRulesCommand(*a); }};
}

} // namespace fl::cli
