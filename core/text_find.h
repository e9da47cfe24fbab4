// Substring search for the literals the engine looks for in every line: rule literals, the leads of anchored
// patterns, placement words. std::string_view::find stops at each occurrence of the needle's first byte and
// compares there; that byte is often a space, a '|' or an 'e', which a log line is full of. This compares two
// bytes of the needle at 16 positions at once, the first and the last that are not a space (the "packed pair"
// of Wojciech Muła's SIMD substring search and of the Rust memchr crate that ripgrep uses), and compares the
// whole needle only where both fit. Answers exactly what find answers (tests/parse, findLiteralIsFind).
// Where the needle's first byte is already rare ("NCCL WARN" in a message) plain find is cheaper: keep it there.
// Measured on the bench archive: " busId " over an NCCL INFO line 70-90 -> 15-24 ns; Megatron step lines'
// series rules 13,056 -> 12,278 instructions a line; the service, pinned to one core, 87.0 -> 85.5 ms CPU per
// upload (5 of 6 alternating runs).
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fl {

inline size_t findLiteral(std::string_view hay, std::string_view needle, size_t from = 0)
{
    const size_t n = needle.size();
    if (n < 2 || from > hay.size() || hay.size() - from < n)
        return hay.find(needle, from);
    size_t a = 0, b = n - 1; // the pair: the outermost bytes that are not spaces, when there are two
    while (a < b && needle[a] == ' ')
        ++a;
    while (b > a && needle[b] == ' ')
        --b;
    if (a == b) {
        a = 0;
        b = n - 1;
    }
    const char* h = hay.data();
    const size_t last = hay.size() - n; // the last start that fits
    size_t i = from;
#if defined(__SSE2__)
    const __m128i fa = _mm_set1_epi8(needle[a]), fb = _mm_set1_epi8(needle[b]);
    for (; i + 15 <= last; i += 16) {
        const __m128i ha = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i + a));
        const __m128i hb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i + b));
        auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(ha, fa), _mm_cmpeq_epi8(hb, fb))));
        while (mask) {
            const size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
            if (std::memcmp(h + at, needle.data(), n) == 0)
                return at;
            mask &= mask - 1;
        }
    }
#endif
    for (; i <= last; ++i)
        if (h[i + a] == needle[a] && h[i + b] == needle[b] && std::memcmp(h + i, needle.data(), n) == 0)
            return i;
    return std::string_view::npos;
}

} // namespace fl
