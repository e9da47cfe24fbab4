// A pattern "A.*?B" whose ".*?" stands at the top level, matched as its two
// pieces: A anchored where the match starts, then B searched from A's end.
// RE2 fills the groups of the whole pattern with a backtracking pass over the
// match (BitState), which walks the lazy gap byte by byte for every group:
// Megatron's step line (trend.series.*) cost ~0.9 and ~2.2 us that way, 0.5
// and 0.6 us in pieces. The pieces answer only when they are sure to agree with the whole
// pattern; otherwise the caller runs the whole pattern.
#pragma once

#include "text_find.h"

#include <re2/re2.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

struct LazyGap {
    std::unique_ptr<RE2> head; // "^(?:A)", matched by matchAnchoredAt
    std::unique_ptr<RE2> tail; // B; "^(?:B)" when there are tailLeads
    int headGroups = 0;
    // What every match of B starts with one of (leadingLiterals), when case-sensitive and each long enough to
    // be rare: B is then tried anchored where they occur. RE2's unanchored search with groups runs its DFA
    // forward and back before the groups' pass; Megatron's "elapsed time per iteration (" tail took
    // 0.36-0.47 us that way, 0.16 us anchored.
    std::vector<std::string> tailLeads;
};

// A pattern whose every match starts with a literal, matched where that literal occurs: "^(?:pattern)" run
// on the text from there. The same match as `pattern` run anchored at that place of the whole text (the
// literal comes first, so no assertion looks at the bytes before it), but RE2 takes its one-pass matcher
// when the pattern allows one, and otherwise backtracks over a shorter text: Megatron's step-time tail
// 0.19 -> 0.09 us, its head 0.145 -> 0.112 us, the NCCL watchdog line 0.99 -> 0.83 us.
std::unique_ptr<RE2> compileAnchoredAt(std::string_view pattern, const RE2& whole, const RE2::Options& options);
inline bool matchAnchoredAt(const RE2& atStart, std::string_view text, size_t at, re2::StringPiece* subs, int n)
{
    const re2::StringPiece rest(text.data() + at, text.size() - at);
    return atStart.Match(rest, 0, rest.size(), RE2::ANCHOR_START, subs, n);
}

// The pieces of `pattern` compiled with `options`, or null when it does not
// split or the pieces' groups do not add up to `whole`'s.
std::unique_ptr<LazyGap> compileLazyGap(std::string_view pattern, const RE2& whole, const RE2::Options& options);

enum class GapAnswer { Match, NoMatch, Unsure };

// Where the first of `leads` to occur at or after `from` begins, npos if none does.
inline size_t nextLead(const std::vector<std::string>& leads, std::string_view text, size_t from)
{
    size_t first = std::string_view::npos;
    for (const std::string& lead : leads)
        first = std::min(first, findLiteral(text, lead, from));
    return first;
}

// How many places a line's leads are tried at before the rest of the line goes to one unanchored search: a
// hostile line full of them costs no more than that search.
constexpr int kAnchoredTries = 4;

// The leftmost match at or after `from` of a pattern whose every match starts with one of `leads`: asks
// `matchesAt(at)` (a match anchored at `at`) where they occur, in order, and after kAnchoredTries of them
// answers `afterTries(at)` for the rest of the text (one unanchored search, or "unsure"). RE2's unanchored
// search with groups runs its DFA forward and back before the groups' pass; anchored at a rare literal it
// needs neither.
template <typename MatchesAt, typename AfterTries>
bool matchAtLead(const std::vector<std::string>& leads, std::string_view text, size_t from, MatchesAt matchesAt,
                 AfterTries afterTries)
{
    size_t at = nextLead(leads, text, from);
    for (int tries = 0; at != std::string_view::npos; ++tries) {
        if (tries == kAnchoredTries)
            return afterTries(at);
        if (matchesAt(at))
            return true;
        at = nextLead(leads, text, at + 1);
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
