// The rule set: symptom catalogue + rules, loaded from rules/*.jsonc (shipped)
// and user folders. See docs/rules.md for the language.
#pragma once

#include "model.h"

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace fl {

// A rule file that cannot be used. Names file:line:column and the rule id.
struct RuleError : std::runtime_error {
    RuleError(std::string file, int line, int column, std::string ruleId, const std::string& message);
    std::string file;
    int line = 0;
    int column = 0;
    std::string ruleId;
};

struct Rule;          // defined in rule.h
class CompiledRules;  // pattern matchers, pre-filter

class RuleSet {
public:
    RuleSet();
    ~RuleSet();
    RuleSet(RuleSet&&) noexcept;
    RuleSet& operator=(RuleSet&&) noexcept;

    // Loads every *.jsonc / *.json file of `dir` (sorted by name). A rule whose
    // id already exists replaces it (user rules override shipped ones).
    // Throws RuleError for a bad file; nothing is half-loaded from that file.
    void loadDirectory(const std::string& dir);
    void loadText(std::string_view text, const std::string& fileName);
    // Compiles patterns; call after loading. Throws RuleError on a bad pattern.
    void compile();

    const std::vector<Rule>& rules() const;
    const SymptomDef* symptom(std::string_view id) const;   // exact id, else longest "prefix.*" default
    const std::map<std::string, SymptomDef>& symptoms() const;
    const CompiledRules& compiled() const;
    double setting(std::string_view name, double fallback) const; // "settings" of the rule files
    std::string digest() const;                              // sha-256 of the canonical rule set
    std::vector<std::string> sources() const;                // files loaded, in order

private:
    std::string computeDigest() const;

    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace fl
