// Bounded byte-cursor helpers (digits, spaces, literals, trims) of core's line
// and record parsers. Internal to core: nothing outside core/ includes this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fl::cursor {

inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
inline bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool isAlnum(char c) { return isDigit(c) || isAlpha(c); }
inline bool isSpace(char c) { return c == ' ' || c == '\t'; }
inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

// Reads exactly n digits at s[p]; advances p on success.
inline bool digitsN(std::string_view s, size_t& p, int n, int& out)
{
    if (p + size_t(n) > s.size())
        return false;
    int v = 0;
    for (int i = 0; i < n; ++i) {
        const char c = s[p + size_t(i)];
        if (!isDigit(c))
            return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    p += size_t(n);
    return true;
}

// Reads 1..maxN digits; caps the value so that hostile runs of digits cannot overflow.
inline bool digitsUpTo(std::string_view s, size_t& p, int maxN, int64_t& out)
{
    size_t q = p;
    int64_t v = 0;
    while (q < s.size() && isDigit(s[q]) && int(q - p) < maxN) {
        v = v * 10 + (s[q] - '0');
        ++q;
    }
    if (q == p)
        return false;
    out = v;
    p = q;
    return true;
}

// Fraction digits after '.' or ',' as nanoseconds (extra digits beyond 9 are read and dropped).
inline bool fractionNs(std::string_view s, size_t& p, int64_t& ns)
{
    size_t q = p;
    int64_t v = 0;
    int n = 0;
    while (q < s.size() && isDigit(s[q]) && q - p < 18) {
        if (n < 9) {
            v = v * 10 + (s[q] - '0');
            ++n;
        }
        ++q;
    }
    if (q == p)
        return false;
    while (n < 9) {
        v *= 10;
        ++n;
    }
    ns = v;
    p = q;
    return true;
}

inline bool lit(std::string_view s, size_t& p, std::string_view word)
{
    if (s.substr(p, word.size()) != word)
        return false;
    p += word.size();
    return true;
}

// One character: what most prefix checks ask, and cheap enough to inline everywhere.
inline bool lit(std::string_view s, size_t& p, char c)
{
    if (p >= s.size() || s[p] != c)
        return false;
    ++p;
    return true;
}

inline bool startsWith(std::string_view s, std::string_view w) { return s.substr(0, w.size()) == w; }
inline bool endsWith(std::string_view s, std::string_view w)
{
    return s.size() >= w.size() && s.substr(s.size() - w.size()) == w;
}

inline size_t skipSpaces(std::string_view s, size_t p)
{
    while (p < s.size() && isSpace(s[p]))
        ++p;
    return p;
}

inline std::string_view trimRight(std::string_view s)
{
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

inline std::string_view trim(std::string_view s)
{
    // What it trims are all bytes <= ' ': a field with none at either end, nearly every one, is left at two compares.
    if (!s.empty() && static_cast<unsigned char>(s.front()) > ' ' && static_cast<unsigned char>(s.back()) > ' ')
        return s;
    s = trimRight(s);
    size_t p = skipSpaces(s, 0);
    return s.substr(p);
}

// "Jan".."Dec" -> 1..12, else 0.
inline int monthFromAbbrev(std::string_view s, size_t p)
{
    if (p + 3 > s.size())
        return 0;
    static constexpr std::string_view kNames = "janfebmaraprmayjunjulaugsepoctnovdec";
    const char a = lower(s[p]);
    // Asked at every prefix position of every log line: only the months of the first letter are compared.
    int from = 0, to = 0;
    switch (a) {
    case 'j': from = 0, to = 7; break; // jan .. jul
    case 'f': from = 1, to = 2; break;
    case 'm': from = 2, to = 5; break; // mar .. may
    case 'a': from = 3, to = 8; break; // apr .. aug
    case 's': from = 8, to = 9; break;
    case 'o': from = 9, to = 10; break;
    case 'n': from = 10, to = 11; break;
    case 'd': from = 11, to = 12; break;
    default: return 0;
    }
    const char b = lower(s[p + 1]), c = lower(s[p + 2]);
    for (int m = from; m < to; ++m)
        if (kNames[size_t(m) * 3] == a && kNames[size_t(m) * 3 + 1] == b && kNames[size_t(m) * 3 + 2] == c)
            return m + 1;
    return 0;
}

inline bool isWeekday(std::string_view s, size_t p)
{
    if (p + 3 > s.size())
        return false;
    static constexpr std::string_view kNames = "montuewedthufrisatsun";
    const char a = lower(s[p]), b = lower(s[p + 1]), c = lower(s[p + 2]);
    for (int d = 0; d < 7; ++d)
        if (kNames[size_t(d) * 3] == a && kNames[size_t(d) * 3 + 1] == b && kNames[size_t(d) * 3 + 2] == c)
            return true;
    return false;
}

} // namespace fl::cursor
