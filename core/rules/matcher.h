// Compiled extract rules: RE2 patterns plus a literal pre-filter, so that most
// lines of a multi-GB bundle are never handed to a regular expression.
// RE2 runs in linear time: a user's rule cannot hang the engine.
#pragma once

#include "model.h"
#include "rules/rule.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace re2 {
class RE2;
}

namespace fl {

struct ExtractMatch {
    const Rule* rule = nullptr;
    std::vector<std::pair<std::string, std::string>> groups; // named captures, in pattern order
};

class CompiledRules {
public:
    CompiledRules();
    ~CompiledRules();
    CompiledRules(CompiledRules&&) noexcept;
    CompiledRules& operator=(CompiledRules&&) noexcept;

    // What a build is for. Checking a rule file's sample lines needs only match() and matchSeries(): the
    // line pre-filters (an RE2 alternation and two Hyperscan databases per source kind) are then not
    // built, and nextCandidate() takes every line as a candidate.
    enum class Purpose { Scan, SampleCheck };

    // Throws RuleError (file:line, rule id) when a pattern does not compile. `reuse`: patterns compiled before
    // (absorb), taken instead of compiled again where a rule's pattern, exclude, case and continuation are the same.
    void build(const std::vector<Rule>& rules, Purpose purpose = Purpose::Scan, CompiledRules* reuse = nullptr);

    // Keeps `other`'s compiled patterns for a later build's `reuse` (each rule file is compiled alone for its
    // sample check, then all of them together: a third of loading the rules was compiling every pattern twice).
    // Call while `other`'s rules are still alive: the patterns are keyed by their text.
    void absorb(CompiledRules&& other);

    // Position of the first byte of the next line in [from, data.size()) that may
    // match some extract rule for `kind`, or npos. Lines are found by their literals.
    size_t nextCandidate(std::string_view data, size_t from, SourceKind kind) const;

    // Every extract rule for `kind` that matches `line` (a single line or a
    // structured record's canonical text), in rule order.
    void match(std::string_view line, SourceKind kind, std::vector<ExtractMatch>& out) const;

    // Series-only extract rules (a `series`, no `emit`) are left out of match():
    // a training log prints a step line per iteration, and the scan judges only
    // the last ones of each file (engine/scan.cpp). Their own matcher:
    void matchSeries(std::string_view line, SourceKind kind, std::vector<ExtractMatch>& out) const;
    bool hasSeries(SourceKind kind) const;
    // The first series-only rule whose literal `line` contains (an id for the
    // scan's per-rule tail), or -1.
    int seriesCandidate(std::string_view line, SourceKind kind) const;
    // Whether `line` contains a literal of a rule that match() tries.
    bool otherCandidate(std::string_view line, SourceKind kind) const;

    // The literals for a kind, for the benchmark's reference search and --explain.
    std::vector<std::string> literals(SourceKind kind) const;
    std::vector<std::string> patterns(SourceKind kind) const;

    // A rule's `continued` (rule.h, Continuation) on `line`: true when its pattern matches, its named groups
    // added to `groups` unless a group of that name is there already.
    bool readContinuation(const Rule& rule, std::string_view line,
                          std::vector<std::pair<std::string, std::string>>& groups) const;
    // Whether a rule with a `continued` matches `line` itself: the next report, where looking stops.
    bool startsRecord(const Rule& rule, std::string_view line) const;

    // A field pattern used by selectors (cached, full-match semantics).
    bool fieldMatches(const std::string& pattern, std::string_view value) const;

private:
    // `hits`: which of the kind's literals the line holds (see Impl::ruleLiteralDb), or null to look for each rule's.
    void matchAmong(const std::vector<size_t>& indices, std::string_view line, std::vector<ExtractMatch>& out,
                    const std::vector<std::vector<unsigned>>* ruleLiterals = nullptr,
                    const std::vector<char>* hits = nullptr) const;
    struct Impl;
    std::unique_ptr<Impl> d;
};

// The literals the pre-filter uses for an extract rule: its own "literal"
// list, else the required literal of its pattern when at least 3 characters
// long, else none (the rule then runs on every line of its sources).
std::vector<std::string> prefilterLiterals(const Rule& rule);

// The longest run of plain characters a match of `pattern` must contain, or ""
// when none can be proven (top-level alternation, optional parts ...).
std::string requiredLiteral(std::string_view pattern);
// The texts every match of `pattern` begins with one of: a leading literal, each alternative of a group of
// literals, and with an optional group in front also what follows it ("(?:\\[PG \\d+\\] )?(?:NCCL|TCP) work"
// -> "NCCL work", "TCP work", "[PG "), at most 8, none empty; {} when that cannot be shown. Case-sensitive
// patterns only. A lead that another one starts with is left out: {"ab", "abc"} -> {"ab"}; leads sharing a
// start of 4 bytes or more are that start: {"elapsed (ms)", "elapsed (s)"} -> {"elapsed ("}.
std::vector<std::string> leadingLiterals(std::string_view pattern);
// "A" and "B" when `pattern` is A, a top-level ".*?", then B, with A not empty,
// no top-level alternative, no inline flags and no \Q...\E; nullopt otherwise.
std::optional<std::pair<std::string, std::string>> splitAtLazyGap(std::string_view pattern);

} // namespace fl
