#include "rules/lazy_gap.h"

#include "rules/matcher.h"

#include <algorithm>
#include <array>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace fl {

namespace {
constexpr int kMaxGroups = 32;
constexpr size_t kMinTailLead = 4;

// B's leftmost match at or after `from`; false also when a hostile line holds B's lead too often to try each
// (the caller then runs the whole pattern).
bool tailMatch(const LazyGap& gap, std::string_view text, size_t from, re2::StringPiece* subs, int n)
{
    if (gap.tailLeads.empty())
        return gap.tail->Match(re2::StringPiece(text.data(), text.size()), from, text.size(), RE2::UNANCHORED, subs, n);
    return matchAtLead(
        gap.tailLeads, text, from, [&](size_t at) { return matchAnchoredAt(*gap.tail, text, at, subs, n); },
        [](size_t) { return false; });
}

// Whether "." crosses every byte of `gap`: it stops at a newline, and at a byte that is not valid UTF-8 (any
// byte >= 0x80 is treated so). 16 bytes at a time where SSE2 is there: the Megatron step line's gaps are
// ~200 bytes, and the byte loop was 1 % of an analysis (callgrind).
bool dotCrosses(std::string_view gap)
{
    size_t i = 0;
#ifdef __SSE2__
    const __m128i newline = _mm_set1_epi8('\n');
    for (; i + 16 <= gap.size(); i += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(gap.data() + i));
        if (_mm_movemask_epi8(_mm_or_si128(bytes, _mm_cmpeq_epi8(bytes, newline))) != 0)
            return false;
    }
#endif
    for (; i < gap.size(); ++i) {
        const auto c = static_cast<unsigned char>(gap[i]);
        if (c == '\n' || c >= 0x80)
            return false;
    }
    return true;
}

std::unique_ptr<RE2> anchoredAtStart(std::string_view pattern, const RE2::Options& options)
{
    return std::make_unique<RE2>("^(?:" + std::string(pattern) + ")", options);
}
} // namespace

std::unique_ptr<RE2> compileAnchoredAt(std::string_view pattern, const RE2& whole, const RE2::Options& options)
{
    auto re = anchoredAtStart(pattern, options);
    if (!re->ok() || re->NumberOfCapturingGroups() != whole.NumberOfCapturingGroups())
        return nullptr;
    return re;
}

std::unique_ptr<LazyGap> compileLazyGap(std::string_view pattern, const RE2& whole, const RE2::Options& options)
{
    const auto pieces = splitAtLazyGap(pattern);
    if (!pieces || whole.NumberOfCapturingGroups() + 1 > kMaxGroups)
        return nullptr;
    auto gap = std::make_unique<LazyGap>();
    if (options.case_sensitive()) {
        auto leads = leadingLiterals(pieces->second);
        if (std::all_of(leads.begin(), leads.end(), [](const std::string& l) { return l.size() >= kMinTailLead; }))
            gap->tailLeads = std::move(leads);
    }
    gap->head = anchoredAtStart(pieces->first, options);
    gap->tail = gap->tailLeads.empty() ? std::make_unique<RE2>(pieces->second, options)
                                      : anchoredAtStart(pieces->second, options);
    if (!gap->head->ok() || !gap->tail->ok() ||
        gap->head->NumberOfCapturingGroups() + gap->tail->NumberOfCapturingGroups() != whole.NumberOfCapturingGroups())
        return nullptr;
    gap->headGroups = gap->head->NumberOfCapturingGroups();
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
    std::array<re2::StringPiece, kMaxGroups> a, b;
    if (!matchAnchoredAt(*gap.head, text, at, a.data(), gap.headGroups + 1))
        return GapAnswer::NoMatch;
    const size_t end = static_cast<size_t>(a[0].data() + a[0].size() - text.data());
    const int tailN = n - gap.headGroups;
    if (!tailMatch(gap, text, end, b.data(), tailN))
        return GapAnswer::Unsure;
    const size_t tailStart = static_cast<size_t>(b[0].data() - text.data());
    if (!dotCrosses(text.substr(end, tailStart - end)))
        return GapAnswer::Unsure;
    subs[0] = re2::StringPiece(text.data() + at, static_cast<size_t>(b[0].data() + b[0].size() - (text.data() + at)));
    for (int k = 1; k <= gap.headGroups; ++k)
        subs[k] = a[static_cast<size_t>(k)];
    for (int k = 1; k < tailN; ++k)
        subs[gap.headGroups + k] = b[static_cast<size_t>(k)];
    return GapAnswer::Match;
}

} // namespace fl
