#include "rules/lazy_gap.h"

#include "rules/matcher.h"

#include <array>

namespace fl {

namespace {
constexpr int kMaxGroups = 32;
constexpr size_t kMinTailLead = 4;

// B's leftmost match at or after `from`.
bool tailMatch(const LazyGap& gap, std::string_view text, size_t from, re2::StringPiece* subs, int n)
{
    const re2::StringPiece t(text.data(), text.size());
    if (gap.tailLead.empty())
        return gap.tail->Match(t, from, text.size(), RE2::UNANCHORED, subs, n);
    return matchAtLead(*gap.tail, gap.tailLead, text, from, subs, n, [&](size_t at) {
        return gap.tail->Match(t, at, text.size(), RE2::ANCHOR_START, subs, n);
    });
}
} // namespace

std::unique_ptr<LazyGap> compileLazyGap(std::string_view pattern, const RE2& whole, const RE2::Options& options)
{
    const auto pieces = splitAtLazyGap(pattern);
    if (!pieces || whole.NumberOfCapturingGroups() + 1 > kMaxGroups)
        return nullptr;
    auto gap = std::make_unique<LazyGap>();
    gap->head = std::make_unique<RE2>(pieces->first, options);
    gap->tail = std::make_unique<RE2>(pieces->second, options);
    if (!gap->head->ok() || !gap->tail->ok() ||
        gap->head->NumberOfCapturingGroups() + gap->tail->NumberOfCapturingGroups() != whole.NumberOfCapturingGroups())
        return nullptr;
    gap->headGroups = gap->head->NumberOfCapturingGroups();
    if (options.case_sensitive())
        if (std::string lead = leadingLiteral(pieces->second); lead.size() >= kMinTailLead)
            gap->tailLead = std::move(lead);
    return gap;
}

// Exact because the whole pattern, run as Perl would backtrack it, tries A's
// preferred match first and, behind it, B at each later start in turn: when B
// is found behind that A (its leftmost start, its preferred match there) and
// "." can cross every byte between them, that is the whole pattern's match.
// When B is not found, the whole pattern may still match with another A.
GapAnswer matchLazyGap(const LazyGap& gap, std::string_view text, size_t at, re2::StringPiece* subs, int n)
{
    if (n > kMaxGroups || n < gap.headGroups + 1)
        return GapAnswer::Unsure;
    const re2::StringPiece t(text.data(), text.size());
    std::array<re2::StringPiece, kMaxGroups> a, b;
    if (!gap.head->Match(t, at, text.size(), RE2::ANCHOR_START, a.data(), gap.headGroups + 1))
        return GapAnswer::NoMatch;
    const size_t end = static_cast<size_t>(a[0].data() + a[0].size() - text.data());
    const int tailN = n - gap.headGroups;
    if (!tailMatch(gap, text, end, b.data(), tailN))
        return GapAnswer::Unsure;
    const size_t tailStart = static_cast<size_t>(b[0].data() - text.data());
    for (size_t i = end; i < tailStart; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n' || c >= 0x80) // "." stops at a newline and at a byte that is not valid UTF-8
            return GapAnswer::Unsure;
    }
    subs[0] = re2::StringPiece(text.data() + at, static_cast<size_t>(b[0].data() + b[0].size() - (text.data() + at)));
    for (int k = 1; k <= gap.headGroups; ++k)
        subs[k] = a[static_cast<size_t>(k)];
    for (int k = 1; k < tailN; ++k)
        subs[gap.headGroups + k] = b[static_cast<size_t>(k)];
    return GapAnswer::Match;
}

} // namespace fl
