#include "commands.h"
#include "text_report.h"

#include "bundle/bundle.h"
#include "engine/engine.h"
#include "engine/result_json.h"
#include "engine/timefmt.h"
#include "rules/matcher.h"
#include "rules/ruleset.h"

#include <cstdio>
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

} // namespace

int analyzeCommand(const std::vector<std::string>& args)
{
    std::string bundle, output;
    bool json = true, explain = false, jsonChosen = false, timing = false;
    AnalyzeOptions options;
    options.keepMetricSamples = false; // the result document does not carry samples
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json") {
            json = true;
            jsonChosen = true;
        } else if (a == "--text") {
            json = false;
            jsonChosen = true;
        } else if (a == "--explain") {
            explain = true;
        } else if (a == "--timing") {
            timing = true;
        } else if (a == "--no-user-rules") {
            options.userConfigRules = false;
        } else if (a == "--rules" && i + 1 < args.size()) {
            options.ruleDirs.push_back(args[++i]);
        } else if ((a == "-o" || a == "--output") && i + 1 < args.size()) {
            output = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            return fail("analyze: unknown option '" + a + "'");
        } else if (bundle.empty()) {
            bundle = a;
        } else {
            return fail("analyze: one bundle at a time ('" + a + "' is extra)");
        }
    }
    if (bundle.empty())
        return fail("analyze: which bundle? usage: faultline-cli analyze <bundle> [--json|--text] [--explain]");
    // --explain alone means "show me": text plus the trace.
    if (explain && !jsonChosen)
        json = false;

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

    if (timing) {
        double total = 0;
        for (const auto& [stage, ms] : analysis.stageMs) {
            std::fprintf(stderr, "%-10s %9.1f ms\n", stage.c_str(), ms);
            total += ms;
        }
        std::fprintf(stderr, "%-10s %9.1f ms\n", "total", total);
    }
    std::string text;
    if (json)
        text = resultToString(analysis.result);
    else
        text = formatDiagnosis(analysis);
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

int inspectCommand(const std::vector<std::string>& args)
{
    std::string path;
    bool asJson = false;
    for (const auto& a : args) {
        if (a == "--json")
            asJson = true;
        else if (!a.empty() && a[0] == '-')
            return fail("inspect: unknown option '" + a + "'");
        else
            path = a;
    }
    if (path.empty())
        return fail("inspect: which bundle? usage: faultline-cli inspect <bundle>");
    Analysis analysis;
    try {
        AnalyzeOptions options;
        analysis = analyze(path, options);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::string text = formatInspection(analysis, asJson);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

int validateRulesCommand(const std::vector<std::string>& argsIn)
{
    // --patterns: print every extract pattern, one per line, with named groups
    // made plain, so another tool (the benchmark's rg) can search for the same lines.
    bool patternsOnly = false;
    std::vector<std::string> args;
    for (const auto& a : argsIn) {
        if (a == "--patterns")
            patternsOnly = true;
        else
            args.push_back(a);
    }
    if (args.empty())
        return fail("validate-rules: which folder? usage: faultline-cli validate-rules [--patterns] <DIR>...");
    if (patternsOnly) {
        try {
            RuleSet rules;
            for (const auto& dir : args)
                rules.loadDirectory(dir);
            rules.compile();
            for (const auto& r : rules.rules()) {
                if (r.phase != Phase::Extract)
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
                if (prefilterLiterals(r).empty()) {
                    ++noLiteral;
                    std::printf("%s:%d: rule '%s': warning: no literal the pre-filter can use; it will run on every "
                                "line (add \"literal\")\n",
                                r.file.c_str(), r.line, r.id.c_str());
                }
            }
            std::printf("%s: ok: %zu rules (%zu extract, %zu without a literal), %zu symptoms, digest %s\n", dir.c_str(),
                        rules.rules().size(), extract, noLiteral, rules.symptoms().size(), rules.digest().c_str());
        } catch (const RuleError& e) {
            std::fprintf(stderr, "%s\n", e.what());
            ++bad;
        }
    }
    return bad ? 1 : 0;
}

} // namespace fl::cli
