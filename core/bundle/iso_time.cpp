#include "bundle/iso_time.h"

namespace fl {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

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

unsigned daysInMonth(int year, unsigned month)
{
    static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

// Parses the zone part starting at `pos`, which must run to the end.
std::optional<int> zoneAt(std::string_view s, size_t pos)
{
    if (pos >= s.size())
        return std::nullopt;
    if (s.substr(pos) == "Z" || s.substr(pos) == "z")
        return 0;
    const char sign = s[pos];
    if (sign != '+' && sign != '-')
        return std::nullopt;
    ++pos;
    const auto hh = digits(s, pos, 2);
    if (!hh)
        return std::nullopt;
    int mm = 0;
    if (pos < s.size()) {
        expect(s, pos, ':');
        const auto m = digits(s, pos, 2);
        if (!m)
            return std::nullopt;
        mm = *m;
    }
    if (pos != s.size() || *hh > 23 || mm > 59)
        return std::nullopt;
    const int sec = *hh * 3600 + mm * 60;
    return sign == '-' ? -sec : sec;
}

} // namespace


std::optional<int> parseUtcOffset(std::string_view text)
{
    if (text == "UTC" || text == "utc")
        return 0;
    return zoneAt(text, 0);
}

std::optional<int64_t> parseIso8601Ns(std::string_view s, int defaultOffsetSec)
{
    size_t pos = 0;
    const auto year = digits(s, pos, 4);
    if (!year || !expect(s, pos, '-'))
        return std::nullopt;
    const auto month = digits(s, pos, 2);
    if (!month || !expect(s, pos, '-'))
        return std::nullopt;
    const auto day = digits(s, pos, 2);
    if (!day || *month < 1 || *month > 12 || *day < 1
        || static_cast<unsigned>(*day) > daysInMonth(*year, static_cast<unsigned>(*month)))
        return std::nullopt;
    if (!expect(s, pos, 'T') && !expect(s, pos, 't') && !expect(s, pos, ' '))
        return std::nullopt;
    const auto hour = digits(s, pos, 2);
    if (!hour || !expect(s, pos, ':'))
        return std::nullopt;
    const auto minute = digits(s, pos, 2);
    if (!minute)
        return std::nullopt;
    int second = 0;
    int64_t fractionNs = 0;
    if (expect(s, pos, ':')) {
        const auto sec = digits(s, pos, 2);
        if (!sec)
            return std::nullopt;
        second = *sec;
        if (expect(s, pos, '.') || expect(s, pos, ',')) {
            size_t n = 0;
            int64_t scale = 100'000'000;
            while (pos < s.size() && isDigit(s[pos])) {
                fractionNs += (s[pos] - '0') * scale; // digits past nanoseconds are dropped
                scale /= 10;
                ++pos;
                ++n;
            }
            if (n == 0)
                return std::nullopt;
        }
    }
    // 24:00 and leap seconds are not accepted: manifests are written by tools, not people.
    if (*hour > 23 || *minute > 59 || second > 59)
        return std::nullopt;
    int offset = defaultOffsetSec;
    if (pos < s.size()) {
        const auto zone = zoneAt(s, pos);
        if (!zone)
            return std::nullopt;
        offset = *zone;
    }
    // Year 0 or 9999 parses but does not fit int64 ns: nullopt, never wrap.
    return civilToNsChecked(*year, static_cast<unsigned>(*month), static_cast<unsigned>(*day), *hour, *minute, second,
                            fractionNs, offset);
}

} // namespace fl
