// `faultline-cli report BUNDLE|RESULT.json --format md|html [-o FILE] [--notes FILE]`: the diagnosis as a
// report for a ticket or a postmortem (docs/report.md). The prose and layout come from core/present/report*;
// here: reading the input, the reviewer's notes (the workbench's SQLite notes file, read by core/store/notes_store),
// and laying out the chain graph with Graphviz.
#include "commands.h"
#include "result_input.h"

#include "present/report.h"
#include "store/notes_store.h"

#include <CLI/CLI.hpp>
#include <graphviz/gvc.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace fl::cli {

namespace {

struct ReportArgs {
    std::string input, output, format, notes;
    bool noNotes = false, noUserRules = false;
    std::vector<std::string> ruleDirs;
};

int fail(const std::string& message)
{
    std::fprintf(stderr, "faultline-cli report: %s\n", message.c_str());
    return 2;
}

// Graphviz's dot layout as SVG; empty (with a warning) when Graphviz cannot.
std::string renderDot(const std::string& dot)
{
    struct Ctx {
        GVC_t* gvc = gvContext();
        graph_t* g = nullptr;
        ~Ctx()
        {
            if (g) {
                gvFreeLayout(gvc, g);
                agclose(g);
            }
            gvFreeContext(gvc);
        }
    } ctx;
    ctx.g = agmemread(dot.c_str());
    if (!ctx.g || gvLayout(ctx.gvc, ctx.g, "dot") != 0)
        return {};
    char* data = nullptr;
    unsigned int length = 0;  // Debian 12's Graphviz 2.42 takes unsigned int*
    if (gvRenderData(ctx.gvc, ctx.g, "svg", &data, &length) != 0 || !data)
        return {};
    std::string svg(data, length);
    gvFreeRenderData(data);
    return svg;
}

bool writeFile(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    return static_cast<bool>(out.flush());
}

int reportCommand(const ReportArgs& a)
{
    std::string format = a.format;
    if (format.empty()) {
        const std::string ext = std::filesystem::path(a.output).extension().string();
        format = ext == ".html" || ext == ".htm" ? "html" : "md";
    }

    std::string error;
    Result result;
    bool fromBundle = false;
    if (!loadResult({a.input, a.ruleDirs, a.noUserRules}, result, fromBundle, error))
        return fail(error);

    present::ReviewNotes notes;
    std::string notesPath = a.notes;
    std::error_code ec;
    if (notesPath.empty() && fromBundle && !a.noNotes && std::filesystem::exists(notesBeside(a.input), ec))
        notesPath = notesBeside(a.input);
    if (!notesPath.empty() && !a.noNotes) {
        if (!std::filesystem::is_regular_file(notesPath, ec))
            return fail(notesPath + ": no such notes file");
        if (!store::readNotes(notesPath, notes, error))
            return fail(error);
    }

    const present::Report report = present::buildReport(result, notes, a.input);

    // Markdown links its pictures: they are written beside -o FILE (and left out on standard output).
    const bool pictures = format == "html" || !a.output.empty();
    std::vector<present::ReportImage> images;
    if (pictures) {
        const std::filesystem::path out(a.output);
        const std::string stem = out.stem().string();
        std::string chain = renderDot(present::chainDot(result));
        if (chain.empty())
            std::fprintf(stderr, "faultline-cli report: warning: Graphviz could not lay out the chain graph\n");
        else
            images.push_back({"chain", "The symptom chain, summarised: symptoms grouped by what led to them",
                              "image/svg+xml", std::move(chain), stem + "-chain.svg"});
        if (std::string timeline = present::timelineSvg(result); !timeline.empty())
            images.push_back({"timeline", "Timeline: one lane per node", "image/svg+xml", std::move(timeline),
                              stem + "-timeline.svg"});
        if (format == "md")
            for (const auto& img : images) {
                const std::string path = (out.parent_path() / img.fileName).string();
                if (!writeFile(path, img.bytes))
                    return fail(path + ": cannot write");
            }
    }

    const std::string text = format == "html" ? present::reportHtml(report, images) : present::reportMarkdown(report, images);
    if (a.output.empty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    if (!writeFile(a.output, text))
        return fail(a.output + ": cannot write");
    return 0;
}

} // namespace

Command addReportCommand(CLI::App& cli)
{
    auto a = std::make_shared<ReportArgs>();
    CLI::App* cmd = cli.add_subcommand("report", "write the diagnosis as a Markdown or self-contained HTML report "
                                                 "(verdict, root cause with its raw lines, chain, timeline, "
                                                 "candidates, reviewer's notes)");
    cmd->add_option("INPUT", a->input, "a bundle (analysed first) or a result document (RESULT.json)")->required();
    cmd->add_option("--format", a->format, "md or html (default: from -o's extension, else md)")
        ->check(CLI::IsMember({"md", "html"}));
    cmd->add_option("-o,--output", a->output,
                    "write to FILE instead of standard output (Markdown: the pictures go beside it as SVG files)")
        ->type_name("FILE");
    auto* notes = cmd->add_option("--notes", a->notes, "the workbench's notes file (default for a bundle: "
                                                       "BUNDLE.faultline-notes.sqlite beside it, when there is one)")
                      ->type_name("FILE");
    cmd->add_flag("--no-notes", a->noNotes, "leave the reviewer's notes out")->excludes(notes);
    addRulesOption(cmd, a->ruleDirs);
    cmd->add_flag("--no-user-rules", a->noUserRules, "skip $XDG_CONFIG_HOME/faultline/rules");
    return {cmd, [a] { return reportCommand(*a); }};
}

} // namespace fl::cli
