// faultline-cli: the engine from a terminal. Exit code 0 whenever a result was
// produced (whatever its status); 2 for unusable input or bad usage.
#include "commands.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

void usage(FILE* out)
{
    std::fputs(
        "usage: faultline-cli <command> [options]\n"
        "\n"
        "commands:\n"
        "  analyze <bundle> [--json|--text] [--explain] [--rules DIR]... [--no-user-rules] [-o FILE] [--timing]\n"
        "        diagnose a workload bundle (folder, .tar, .tar.gz, .tgz, .tar.zst, .zip)\n"
        "  inspect <bundle> [--json]\n"
        "        list sources, nodes, ranks, time span and coverage without diagnosing\n"
        "  validate-rules <DIR>...\n"
        "        check rule files; reports file:line:column and the rule id of the first problem\n"
        "  synth <out-dir> [--fault KIND] [--nodes N] [--gpus G] [--seed S] [--skew SECONDS]\n"
        "        [--app-logs-only] [--iterations N] [--noise 0|1|2] [--list-faults]\n"
        "        write a realistic synthetic bundle with one injected fault and its truth.json\n"
        "  eval <dir> [--json]\n"
        "        analyze every bundle under <dir> that has a truth.json and score the verdicts\n"
        "\n"
        "Rules: the shipped rules, then $XDG_CONFIG_HOME/faultline/rules, then each --rules DIR;\n"
        "a rule with the id of an earlier one replaces it.\n",
        out);
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
        usage(args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        std::printf("faultline-cli %s\n", FAULTLINE_VERSION);
        return 0;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    if (cmd == "analyze")
        return fl::cli::analyzeCommand(args);
    if (cmd == "inspect")
        return fl::cli::inspectCommand(args);
    if (cmd == "validate-rules")
        return fl::cli::validateRulesCommand(args);
    if (cmd == "synth")
        return fl::cli::synthCommand(args);
    if (cmd == "eval")
        return fl::cli::evalCommand(args);
    std::fprintf(stderr, "faultline-cli: unknown command '%s'\n\n", cmd.c_str());
    usage(stderr);
    return 2;
}
