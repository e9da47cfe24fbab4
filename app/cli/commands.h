#pragma once
#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}
namespace fl::synth {
struct Options;
}

namespace fl::cli {

// One subcommand of faultline-cli: its parser (options, --help), and what to run once the command line parsed.
struct Command {
    CLI::App* parser = nullptr;
    std::function<int()> run;  // the exit code
};

// Each adds its subcommand to `cli` and returns it; main.cpp lists them (see there for adding one).
Command addAnalyzeCommand(CLI::App& cli);
Command addInspectCommand(CLI::App& cli);
Command addValidateRulesCommand(CLI::App& cli);
Command addSynthCommand(CLI::App& cli);
Command addEvalCommand(CLI::App& cli);
Command addCollectCommand(CLI::App& cli);
Command addReportCommand(CLI::App& cli);
Command addReviewCommand(CLI::App& cli);
Command addExerciseCommand(CLI::App& cli);

// synth's options (--fault, --nodes, --seed ...), bound to `o`: `synth` and `exercise new` take the same.
void addSynthOptions(CLI::App* cmd, synth::Options& o);
Command addHistoryCommand(CLI::App& cli);

// --rules DIR, repeatable: the rule folders loaded after the shipped and the user's rules.
void addRulesOption(CLI::App* cmd, std::vector<std::string>& dirs);

} // namespace fl::cli
