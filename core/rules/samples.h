// Rule samples, as lnav's format files carry them: an extract rule lists lines
// it must turn into an event ("samples", optionally with the symptom and fields
// expected) and lines of the same source it must leave alone ("benign"). The
// loader runs them through the compiled matcher, so a pattern edit that stops
// recognising a real message (or starts catching a benign one) is refused with
// the file:line of the sample. See docs/rules.md.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace fl {

struct Rule;
class CompiledRules;

// Reads "samples", "benign" and "source" of a rule object into `rule`.
// Throws std::invalid_argument naming the problem.
void parseRuleSamples(const nlohmann::json& j, Rule& rule);

struct SampleFailure {
    const Rule* rule = nullptr;
    int line = 0;                          // line of the sample in the rule file (the rule's line if not found)
    std::string message;
};

// Runs every sample and benign line of the extract rules in `rules` through
// `compiled` (built from the same rules). `fileText` is the rule file, to find
// each sample's line. Returns the failures in rule order.
[[nodiscard]] std::vector<SampleFailure> checkRuleSamples(const std::vector<Rule>& rules, const CompiledRules& compiled,
                                            std::string_view fileText);

// "NVIDIA/nccl@v2.21.5-1:src/transport/net_ib.cc" -> "NVIDIA/nccl";
// "https://docs.nvidia.com/deploy/xid-errors/..." -> "docs.nvidia.com".
std::string sourceOrigin(std::string_view ref);

} // namespace fl
