#include "bundle/iso_time.h"

namespace fl {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlnum(char c) { return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Reads exactly `n` digits at `pos`.
std::optional<int> digits(std::string_view s, size_t& pos, size_t n)
{
    if (pos + n > s.size())
        return std::nullopt;
    int v = 0;
    for (size_t i = 0; i < n; ++i) {
        const char c = s[pos + i];
        if (!isDigit(c))
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    pos += n;
    return v;
}

bool expect(std::string_view s, size_t& pos, char c)
{
    if (pos < s.size() && s[pos] == c) {
        ++pos;
        return true;
    }
    return false;
}

int daysInMonth(int year, int month)
{
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

// A zone at `pos`; on success `pos` is past it. Leaves `pos` alone otherwise.
std::optional<int> zoneAt(std::string_view s, size_t& pos)
{
    size_t q = pos;
    if (expect(s, q, 'Z') || expect(s, q, 'z')) {
        pos = q;
        return 0;
    }
    if (s.substr(q, 4) == " UTC" && (q + 4 == s.size() || !isAlnum(s[q + 4]))) {
        pos = q + 4;
        return 0;
    }
    if (q >= s.size() || (s[q] != '+' && s[q] != '-'))
        return std::nullopt;
    const bool west = s[q] == '-';
    ++q;
    const auto hh = digits(s, q, 2);
    if (!hh)
        return std::nullopt;
    int mm = 0;
    size_t r = q;
    expect(s, r, ':');
    if (const auto m = digits(s, r, 2)) {
        mm = *m;
        q = r;
    }
    if (*hh > 23 || mm > 59)
        return std::nullopt;
    pos = q;
    const int sec = *hh * 3600 + mm * 60;
    return west ? -sec : sec;
}

} // namespace

std::optional<IsoStamp> scanIso8601(std::string_view s)
{
    IsoStamp t;
    size_t pos = 0;
    const auto year = digits(s, pos, 4);
    if (!year || !expect(s, pos, '-'))
        return std::nullopt;
    const auto month = digits(s, pos, 2);
    if (!month || !expect(s, pos, '-'))
        return std::nullopt;
    const auto day = digits(s, pos, 2);
    if (!day || *month < 1 || *month > 12 || *day < 1 || *day > daysInMonth(*year, *month))
        return std::nullopt;
    if (!expect(s, pos, 'T') && !expect(s, pos, 't') && !expect(s, pos, ' ') && !expect(s, pos, '_'))
        return std::nullopt;
    const auto hour = digits(s, pos, 2);
    if (!hour || !expect(s, pos, ':'))
        return std::nullopt;
    const auto minute = digits(s, pos, 2);
    if (!minute)
        return std::nullopt;
    if (pos + 1 < s.size() && s[pos] == ':' && isDigit(s[pos + 1])) {
        ++pos;
        const auto sec = digits(s, pos, 2);
        if (!sec)
            return std::nullopt;
        t.second = *sec;
        t.hasSeconds = true;
        if (pos + 1 < s.size() && (s[pos] == '.' || s[pos] == ',') && isDigit(s[pos + 1])) {
            ++pos;
            int64_t scale = 100'000'000;
            while (pos < s.size() && isDigit(s[pos])) {
                t.nanos += (s[pos] - '0') * scale; // digits past nanoseconds are dropped
                scale /= 10;
                ++t.fracDigits;
                ++pos;
            }
        }
    }
    if (*hour > 23 || *minute > 59 || t.second > 60)
        return std::nullopt;
    t.year = *year;
    t.month = *month;
    t.day = *day;
    t.hour = *hour;
    t.minute = *minute;
    t.zoneSec = zoneAt(s, pos);
    t.end = pos;
    return t;
}

std::optional<int64_t> isoStampNs(const IsoStamp& t, int defaultOffsetSec)
{
    return civilToNsChecked(t.year, static_cast<unsigned>(t.month), static_cast<unsigned>(t.day), t.hour, t.minute,
                            t.second, t.nanos, t.zoneSec.value_or(defaultOffsetSec));
}

std::optional<int64_t> parseIso8601Ns(std::string_view s, int defaultOffsetSec)
{
    const auto t = scanIso8601(s);
    if (!t || t->end != s.size())
        return std::nullopt;
    // Year 0 or 9999 parses but does not fit int64 ns: nullopt, never wrap.
    return isoStampNs(*t, defaultOffsetSec);
}

std::optional<int> parseUtcOffset(std::string_view text)
{
    if (text == "UTC" || text == "utc")
        return 0;
    size_t pos = 0;
    const auto zone = zoneAt(text, pos);
    if (!zone || pos != text.size())
        return std::nullopt;
    return zone;
}

} // namespace fl
