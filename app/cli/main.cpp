// faultline-cli: the engine from a terminal. Exit code 0 whenever a result was
// produced (whatever its status); 2 for unusable input or bad usage.
//
// Adding a subcommand (e.g. `collect`):
//   1. in app/cli/collect_cmd.cpp write `Command addCollectCommand(CLI::App& cli)`: it calls
//      cli.add_subcommand("collect", "one line for the command list"), declares every option and positional
//      there (bound to a shared struct, with ->required() / ->check(...) as needed), and returns
//      {subcommand, [args] { return collect(*args); }}, the lambda returning the exit code;
//   2. declare it in commands.h and add it to the list in main() below.
// --help, usage errors (exit 2 naming the option), --version and the bash completion script
// (`faultline-cli --bash-completion`, installed by CMake) then cover it with no further step.
#include "commands.h"

#include "../common/cli_conventions.h"
#include "../common/huge_pages.h"
#include "../common/malloc_tuning.h"

#include <string>
#include <vector>

using namespace fl::cli;

int main(int argc, char** argv)
{
    fl::app::preferHugePages(argv);  // first: it may start the program again
    fl::app::keepFreedMemory();
    CLI::App app{"Finds why a distributed AI workload failed, from its logs.", "faultline-cli"};
    applyConventions(app);
    app.set_version_flag("--version", std::string("faultline-cli ") + FAULTLINE_VERSION);
    app.require_subcommand(1, 1);
    app.footer("Rules: the shipped rules, then $XDG_CONFIG_HOME/faultline/rules, then each --rules DIR;\n"
               "a rule with the id of an earlier one replaces it. 'faultline-cli COMMAND --help' for each command.");

    const std::vector<Command> commands = {
        addAnalyzeCommand(app), addInspectCommand(app), addValidateRulesCommand(app),
        addSynthCommand(app),   addEvalCommand(app),         addCollectCommand(app),
        addReportCommand(app),  addReviewCommand(app),       addExerciseCommand(app),
        addHistoryCommand(app),
    };

    // `faultline-cli help [COMMAND]` is `faultline-cli [COMMAND] --help`.
    std::vector<char*> args(argv, argv + argc);
    std::string helpFlag = "--help";
    if (args.size() >= 2 && std::string(args[1]) == "help") {
        args.erase(args.begin() + 1);
        args.push_back(helpFlag.data());
    }
    if (const int code = parseCommandLine(app, static_cast<int>(args.size()), args.data()); code >= 0)
        return code;
    for (const Command& c : commands)
        if (c.parser->parsed())
            return c.run();
    return kUsageError;  // unreachable: one subcommand is required
}
