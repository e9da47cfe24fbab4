// The rule loader and compiler: a bad rule file is a RuleError naming the
// file; anything else escaping (std::stoi's invalid_argument, json's type
// errors) is a finding.
#include "fuzz_input.h"
#include "rules/ruleset.h"

using namespace fl;

void fuzzOne(std::string_view data)
{
    RuleSet rules;
    try {
        rules.loadText(data, "fuzz.jsonc");
        rules.compile();
        (void)rules.digest();
    } catch (const RuleError& e) {
        FUZZ_CHECK(e.file == "fuzz.jsonc");
    }
}
