// A pattern "A.*?B" whose ".*?" stands at the top level, matched as its two
// pieces: A anchored where the match starts, then B searched from A's end.
// RE2 fills the groups of the whole pattern with a backtracking pass over the
// match (BitState), which walks the lazy gap byte by byte for every group:
// Megatron's step line (trend.series.*) cost ~0.9 and ~2.2 us that way, 0.5
// and 0.6 us in pieces. The pieces answer only when they are sure to agree with the whole
// pattern; otherwise the caller runs the whole pattern.
#pragma once

#include <re2/re2.h>

#include <memory>
#include <string>
#include <string_view>

namespace fl {

struct LazyGap {
    std::unique_ptr<RE2> head; // A
    std::unique_ptr<RE2> tail; // B
    int headGroups = 0;
    // B's leading literal, when case-sensitive and long enough to be rare: B is then tried anchored where the
    // literal occurs. RE2's unanchored search with groups runs its DFA forward and back before the groups'
    // pass; Megatron's "elapsed time per iteration (" tail took 0.36-0.47 us that way, 0.16 us anchored.
    std::string tailLead;
};

// The pieces of `pattern` compiled with `options`, or null when it does not
// split or the pieces' groups do not add up to `whole`'s.
std::unique_ptr<LazyGap> compileLazyGap(std::string_view pattern, const RE2& whole, const RE2::Options& options);

enum class GapAnswer { Match, NoMatch, Unsure };

// The leftmost match of `re` at or after `from`, for a pattern whose every match starts with `lead`: asks
// `matchesAt(at)` (a match anchored at `at`, groups into `subs`) at the lead's occurrences in order, and after
// four of them lets one unanchored search from there answer. RE2's unanchored search with groups runs its DFA
// forward and back before the groups' pass; anchored at a rare literal it needs neither.
template <typename MatchesAt>
bool matchAtLead(const RE2& re, std::string_view lead, std::string_view text, size_t from, re2::StringPiece* subs,
                 int n, MatchesAt matchesAt)
{
    constexpr int kAnchoredTries = 4;
    size_t at = text.find(lead, from);
    for (int tries = 0; at != std::string_view::npos; ++tries) {
        if (tries == kAnchoredTries)
            return re.Match(re2::StringPiece(text.data(), text.size()), at, text.size(), RE2::UNANCHORED, subs, n);
        if (matchesAt(at))
            return true;
        at = text.find(lead, at + 1);
    }
    return false;
}

// The whole pattern matched anchored at `at` of `text`, through its pieces.
// Match: `subs` (n entries, as RE2::Match fills them for the whole pattern)
// hold the whole pattern's answer. NoMatch: the whole pattern does not match
// anchored at `at`. Unsure: run the whole pattern (A matched but B was not
// found behind it, or the gap holds a byte "." may not cross: a newline or a
// non-ASCII byte), `subs` unspecified.
GapAnswer matchLazyGap(const LazyGap& gap, std::string_view text, size_t at, re2::StringPiece* subs, int n);

} // namespace fl
