#include "parse/lineparse.h"
#include "parse/prefix_shapes.h"

#include "bundle/iso_time.h"
#include "bundle/wrappers.h"
#include "calendar.h"
#include "parse/cursor.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <span>

namespace fl {

using namespace cursor;

namespace {

// Prefixes live in the first few hundred bytes; a 100 MB line must cost no more than a short one.
constexpr size_t kHead = 512;
constexpr int64_t kNsPerSec = 1000000000LL;

struct Clock {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    int64_t nanos = 0;
    int fracDigits = 0;      // digits after the seconds: the stamp's resolution
    bool yearAssumed = false;
    bool hasZone = false;
    int zoneSec = 0;
};

bool leapYear(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

bool validClock(const Clock& c)
{
    if (!c.yearAssumed && (c.year < 1990 || c.year > 2200))
        return false;
    if (c.month < 1 || c.month > 12 || c.day < 1)
        return false;
    static constexpr std::array<int, 12> kDays{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int maxDay = kDays[size_t(c.month - 1)];
    // An assumed year may be wrong; Feb 29 stays plausible then.
    if (c.month == 2 && (c.yearAssumed || leapYear(c.year)))
        maxDay = 29;
    if (c.day > maxDay)
        return false;
    return c.hour < 24 && c.minute < 60 && c.second <= 60;
}

// nullopt when the clock (with an assumed year from the context) does not fit int64 ns.
std::optional<int64_t> clockNs(const Clock& c, const TimeContext& ctx)
{
    return civilToNsChecked(c.year, static_cast<unsigned>(c.month), static_cast<unsigned>(c.day), c.hour, c.minute,
                            c.second, c.nanos, c.hasZone ? c.zoneSec : ctx.tzOffsetSec);
}

// HH:MM:SS[.frac|,frac]
bool parseHms(std::string_view s, size_t& p, Clock& c)
{
    size_t q = p;
    if (!digitsN(s, q, 2, c.hour) || !lit(s, q, ':') || !digitsN(s, q, 2, c.minute) || !lit(s, q, ':')
        || !digitsN(s, q, 2, c.second))
        return false;
    c.nanos = 0;
    c.fracDigits = 0;
    if (q + 1 < s.size() && (s[q] == '.' || s[q] == ',') && isDigit(s[q + 1])) {
        ++q;
        const size_t f = q;
        fractionNs(s, q, c.nanos);
        c.fracDigits = int(q - f);
    }
    p = q;
    return true;
}

// YYYY-MM-DD[T| |_]HH:MM:SS[frac][zone], read by the one ISO 8601 reader
// (bundle/iso_time.h). A log line's stamp needs its seconds and a plausible year.
bool parseIso(std::string_view s, size_t& p, Clock& c)
{
    if (p >= s.size() || !isDigit(s[p])) // a stamp starts with its year: most positions are not one
        return false;
    const auto t = scanIso8601(s.substr(p));
    if (!t || !t->hasSeconds)
        return false;
    c.year = t->year;
    c.month = t->month;
    c.day = t->day;
    c.hour = t->hour;
    c.minute = t->minute;
    c.second = t->second;
    c.nanos = t->nanos;
    c.fracDigits = t->fracDigits;
    c.hasZone = t->zoneSec.has_value();
    c.zoneSec = t->zoneSec.value_or(0);
    c.yearAssumed = false;
    if (!validClock(c))
        return false;
    p += t->end;
    return true;
}

// 1 s for "HH:MM:SS", 1 ms for three digits after the seconds, 1 ns at most.
int64_t resolutionOf(int fracDigits)
{
    int64_t r = kNsPerSec;
    for (int i = 0; i < fracDigits && r > 1; ++i)
        r /= 10;
    return r;
}

void setTime(LineInfo& info, int64_t ns, TimeBasis basis, int fracDigits)
{
    if (info.basis != TimeBasis::None && info.basis != TimeBasis::BootRelative && info.basis != TimeBasis::BootOffset)
        return; // the first wall clock on the line wins
    info.timeNs = ns;
    info.basis = basis;
    info.resolutionNs = resolutionOf(fracDigits);
}

void setClock(LineInfo& info, const Clock& c, const TimeContext& ctx)
{
    TimeBasis basis = TimeBasis::AssumedUtc;
    if (c.yearAssumed)
        basis = TimeBasis::AssumedYear;
    else if (c.hasZone)
        basis = TimeBasis::Absolute;
    if (const auto ns = clockNs(c, ctx))
        setTime(info, *ns, basis, c.fracDigits);
}

// The year of a clock printed without one (month, day and time of `c` are set).
int assumedYear(const TimeContext& ctx, const Clock& c)
{
    if (ctx.yearRefNs == kNoTime)
        return ctx.defaultYear > 0 ? ctx.defaultYear : 1970;
    const int refYear = yearOfNs(ctx.yearRefNs);
    auto at = [&](int year) {
        Clock k = c;
        k.year = year;
        return clockNs(k, ctx);
    };
    if (ctx.yearRefIsLatest) {
        // A day of slack: zones and clocks that run a little ahead.
        constexpr int64_t kSlackNs = 86400 * kNsPerSec;
        int64_t bound = 0;
        if (__builtin_add_overflow(ctx.yearRefNs, kSlackNs, &bound))
            bound = std::numeric_limits<int64_t>::max();
        const auto same = at(refYear);
        return same && *same <= bound ? refYear : refYear - 1;
    }
    int best = refYear;
    uint64_t bestGap = std::numeric_limits<uint64_t>::max();
    for (int year : {refYear - 1, refYear, refYear + 1}) {
        if (const auto t = at(year)) {
            const uint64_t gap = *t > ctx.yearRefNs ? uint64_t(*t) - uint64_t(ctx.yearRefNs)
                                                    : uint64_t(ctx.yearRefNs) - uint64_t(*t);
            if (gap < bestGap) {
                bestGap = gap;
                best = year;
            }
        }
    }
    return best;
}

struct LevelWord {
    std::string_view word;
    Severity sev;
};
constexpr std::array<LevelWord, 9> kLevels{{
    {"CRITICAL", Severity::Fatal},
    {"FATAL", Severity::Fatal},
    {"ERROR", Severity::Error},
    {"WARNING", Severity::Warning},
    {"WARN", Severity::Warning},
    {"INFO", Severity::Info},
    {"DEBUG", Severity::Debug},
    {"NOTICE", Severity::Info},
    {"TRACE", Severity::Debug},
}};

// Returns the level word at s[q], case-sensitive upper case only (lower-case "error" is message text).
const LevelWord* levelAt(std::string_view s, size_t q)
{
    // Asked at every prefix position of every line; most are no level word's first letter (callgrind: the
    // nine compares were a sixth of parseLine).
    static constexpr std::array<bool, 256> kInitial = [] {
        std::array<bool, 256> t{};
        for (const auto& lw : kLevels)
            t[static_cast<unsigned char>(lw.word[0])] = true;
        return t;
    }();
    if (q >= s.size() || !kInitial[static_cast<unsigned char>(s[q])])
        return nullptr;
    const char c = s[q];
    for (const auto& lw : kLevels) {
        if (lw.word[0] == c && s.substr(q, lw.word.size()) == lw.word) {
            const size_t e = q + lw.word.size();
            if (e < s.size() && isAlnum(s[e]))
                continue;
            return &lw;
        }
    }
    return nullptr;
}

// A field a person redacted before pasting the log: "<hostname>", "<redacted>",
// "[REDACTED]", "[HOST]". Consumed so the rest of the line still parses; its
// value is unknown, never the placeholder.
bool tryRedaction(std::string_view s, size_t& p)
{
    size_t q = p;
    if (q >= s.size() || (s[q] != '<' && s[q] != '['))
        return false;
    const char close = s[q] == '<' ? '>' : ']';
    const bool upperOnly = s[q] == '[';
    ++q;
    const size_t b = q;
    if (upperOnly && levelAt(s, b))
        return false; // "[ERROR]" is a level, not a redaction
    while (q < s.size() && q - b < 40 && s[q] != close) {
        const char ch = s[q];
        const bool upper = ch >= 'A' && ch <= 'Z';
        if (upperOnly ? !(upper || ch == '_' || ch == '-') : !(isAlnum(ch) || ch == '_' || ch == '-' || ch == '.'))
            return false;
        ++q;
    }
    if (q == b || q >= s.size() || s[q] != close)
        return false;
    p = q + 1;
    return true;
}

// Where a host name token starting at q ends: letters, digits, '.', '-', '_' (at most 255).
constexpr std::array<bool, 256> kHostChar = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c)
        t[size_t(c)] = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == '-' || c == '_';
    return t;
}();

size_t hostTokenEnd(std::string_view s, size_t q)
{
    const size_t end = std::min(s.size(), q + 255);
    while (q < end && kHostChar[static_cast<unsigned char>(s[q])])
        ++q;
    return q;
}

// " host [12345.678901]": a kernel line a forwarder wrote without its "kernel:"
// tag. The host is taken; the uptime is left for the dmesg prefix.
bool parseHostBeforeUptime(std::string_view s, size_t& p, LineInfo& info)
{
    size_t q = p;
    if (q >= s.size() || s[q] != ' ')
        return false;
    q = skipSpaces(s, q);
    const size_t hb = q;
    const size_t he = q = hostTokenEnd(s, q);
    if (he == hb || !isAlpha(s[hb]) || !lit(s, q, " ["))
        return false;
    size_t r = skipSpaces(s, q);
    int64_t secs = 0;
    if (!digitsUpTo(s, r, 10, secs) || !lit(s, r, '.'))
        return false;
    info.host = s.substr(hb, he - hb);
    p = q - 1;
    return true;
}

// host tag[pid]: ' after a syslog / ISO time. Returns false (p untouched) when the shape is not there.
bool parseHostTag(std::string_view s, size_t& p, LineInfo& info)
{
    size_t q = p;
    if (q >= s.size() || s[q] != ' ')
        return false;
    q = skipSpaces(s, q);
    const size_t hb = q;
    const bool redacted = tryRedaction(s, q);
    if (!redacted && (q >= s.size() || !isAlnum(s[q])))
        return false;
    if (!redacted)
        q = hostTokenEnd(s, q);
    const size_t he = redacted ? hb : q;
    if (q >= s.size() || s[q] != ' ')
        return false;
    if (levelAt(s, hb))
        return false; // "2024-01-01 10:00:00 INFO x: ..." is a level, not a host
    ++q;
    const size_t tb = q;
    while (q < s.size() && (isAlnum(s[q]) || s[q] == '_' || s[q] == '.' || s[q] == '/' || s[q] == '-' || s[q] == '@')
           && q - tb < 64)
        ++q;
    if (q == tb)
        return false;
    if (q < s.size() && s[q] == '[') {
        ++q;
        int64_t pid = 0;
        if (!digitsUpTo(s, q, 10, pid) || !lit(s, q, ']'))
            return false;
    }
    if (!lit(s, q, ':') || (q < s.size() && s[q] != ' '))
        return false;
    info.host = s.substr(hb, he - hb);
    p = q;
    return true;
}

// RFC 5424 after the timestamp: "host app procid msgid [SD|-] "
bool parseRfc5424Rest(std::string_view s, size_t& p, LineInfo& info)
{
    size_t q = p;
    std::string_view tok[4];
    for (auto& t : tok) {
        if (!lit(s, q, ' '))
            return false;
        const size_t b = q;
        while (q < s.size() && s[q] > ' ' && q - b < 255)
            ++q;
        if (q == b)
            return false;
        t = s.substr(b, q - b);
    }
    if (!lit(s, q, ' '))
        return false;
    if (q < s.size() && s[q] == '-') {
        ++q;
    } else if (q < s.size() && s[q] == '[') {
        // structured data: skip bracket groups, honouring quoted values
        while (q < s.size() && s[q] == '[') {
            bool inQuote = false;
            while (q < s.size()) {
                const char ch = s[q++];
                if (inQuote && ch == '\\' && q < s.size()) {
                    ++q;
                    continue;
                }
                if (ch == '"')
                    inQuote = !inQuote;
                else if (ch == ']' && !inQuote)
                    break;
            }
        }
    } else {
        return false;
    }
    if (tok[0] != "-")
        info.host = tok[0];
    p = q;
    return true;
}

// Mon DD HH:MM:SS (syslog; day may be space padded)
bool parseSyslogClock(std::string_view s, size_t& p, Clock& c, const TimeContext& ctx)
{
    size_t q = p;
    c.month = monthFromAbbrev(s, q);
    if (c.month == 0)
        return false;
    q += 3;
    if (!lit(s, q, ' '))
        return false;
    if (q < s.size() && s[q] == ' ')
        ++q;
    int64_t d = 0;
    const size_t db = q;
    if (!digitsUpTo(s, q, 2, d) || !lit(s, q, ' '))
        return false;
    (void)db;
    c.day = int(d);
    if (!parseHms(s, q, c))
        return false;
    c.year = assumedYear(ctx, c);
    c.yearAssumed = true;
    c.hasZone = false;
    if (!validClock(c))
        return false;
    p = q;
    return true;
}

// dmesg -d appends the time since the previous message: " <    0.000123>".
bool skipDmesgDelta(std::string_view s, size_t& p)
{
    size_t q = p;
    if (!lit(s, q, " <"))
        return false;
    q = skipSpaces(s, q);
    int64_t secs = 0, ns = 0;
    if (!digitsUpTo(s, q, 12, secs) || !lit(s, q, '.') || !fractionNs(s, q, ns) || !lit(s, q, '>'))
        return false;
    p = q;
    return true;
}

bool tryDmesgSeconds(std::string_view s, size_t& p, LineInfo& info, const TimeContext& ctx)
{
    size_t q = p;
    if (!lit(s, q, '['))
        return false;
    q = skipSpaces(s, q);
    int64_t secs = 0, ns = 0;
    size_t f = 0;
    if (!digitsUpTo(s, q, 10, secs) || !lit(s, q, '.') || (f = q, !fractionNs(s, q, ns)))
        return false;
    const size_t fracEnd = q;
    if (!lit(s, q, ']') && !(skipDmesgDelta(s, q) && lit(s, q, ']')))
        return false;
    // Ten digits of seconds (317 years of uptime) need not fit int64 ns: such a
    // bracket is not an uptime (issue #13, "[9999999999.0]").
    const auto offset = secondsToNsChecked(secs, ns);
    if (!offset)
        return false;
    info.bootSeconds = double(secs) + double(ns) / 1e9;
    if (info.basis == TimeBasis::None) {
        int64_t at = 0;
        if (ctx.bootTimeNs != kNoTime) {
            if (!__builtin_add_overflow(ctx.bootTimeNs, *offset, &at) && at != kNoTime) {
                info.timeNs = at;
                info.basis = TimeBasis::BootOffset;
            }
        } else {
            info.timeNs = *offset;
            info.basis = TimeBasis::BootRelative;
        }
        info.resolutionNs = resolutionOf(int(fracEnd - f));
    }
    p = q;
    return true;
}

// dmesg -x / --decode puts "facility:level: " before the time, each name
// padded to six: "kern  :err   : [  123.456789] NVRM: ...". Names and the
// "%-6s:%-6s: " format from util-linux sys-utils/dmesg.c (facility_names,
// level_names, print_record). The level is the kernel's own severity.
bool tryDmesgDecode(std::string_view s, size_t& p, LineInfo& info)
{
    static constexpr std::array<std::string_view, 24> kFacilities{
        "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
        "res0", "res1", "res2", "res3", "local0", "local1", "local2", "local3", "local4", "local5", "local6",
        "local7"};
    struct DecodedLevel {
        std::string_view name;
        Severity sev;
    };
    static constexpr std::array<DecodedLevel, 8> kDecodedLevels{{
        {"emerg", Severity::Fatal},
        {"alert", Severity::Fatal},
        {"crit", Severity::Fatal},
        {"err", Severity::Error},
        {"warn", Severity::Warning},
        {"notice", Severity::Info},
        {"info", Severity::Info},
        {"debug", Severity::Debug},
    }};
    const auto word = [&](size_t& q) {
        const size_t b = q;
        while (q < s.size() && q - b < 8 && ((s[q] >= 'a' && s[q] <= 'z') || isDigit(s[q])))
            ++q;
        const std::string_view w = s.substr(b, q - b);
        while (q < s.size() && s[q] == ' ')
            ++q;
        return w;
    };
    size_t q = p;
    const std::string_view facility = word(q);
    if (facility.empty() || !lit(s, q, ':'))
        return false;
    if (std::find(kFacilities.begin(), kFacilities.end(), facility) == kFacilities.end())
        return false;
    const std::string_view level = word(q);
    if (!lit(s, q, ": "))
        return false;
    const auto it = std::find_if(kDecodedLevels.begin(), kDecodedLevels.end(),
                                 [&](const DecodedLevel& l) { return l.name == level; });
    if (it == kDecodedLevels.end())
        return false;
    if (!info.severity)
        info.severity = it->sev;
    p = q;
    return true;
}

// dmesg -T: [Thu Mar  2 15:59:56 2023]
bool tryDmesgHuman(std::string_view s, size_t& p, LineInfo& info, const TimeContext& ctx)
{
    size_t q = p;
    if (!lit(s, q, '[') || !isWeekday(s, q))
        return false;
    q += 3;
    if (!lit(s, q, ' '))
        return false;
    Clock c;
    if (!parseSyslogClock(s, q, c, ctx))
        return false;
    if (!lit(s, q, ' ') || !digitsN(s, q, 4, c.year))
        return false;
    skipDmesgDelta(s, q); // dmesg -T -d
    if (!lit(s, q, ']'))
        return false;
    c.yearAssumed = false;
    if (!validClock(c))
        return false;
    setClock(info, c, ctx);
    p = q;
    return true;
}

// dmesg --reltime / -H (util-linux sys-utils/dmesg.c): the first message of a
// minute gets "[%b%e %H:%M] " ("[Dec 3 10:01]", "[Dec13 10:01]"), local time,
// to the minute; the others "[  %+8.06f] ", seconds since the previous
// message, which give no time of their own (the line inherits one).
bool tryDmesgReltime(std::string_view s, size_t& p, LineInfo& info, const TimeContext& ctx)
{
    size_t q = p;
    if (!lit(s, q, '['))
        return false;
    Clock c;
    c.month = monthFromAbbrev(s, q);
    if (c.month == 0)
        return false;
    q = skipSpaces(s, q + 3);
    int64_t d = 0;
    if (!digitsUpTo(s, q, 2, d) || !lit(s, q, ' ') || !digitsN(s, q, 2, c.hour) || !lit(s, q, ':')
        || !digitsN(s, q, 2, c.minute) || !lit(s, q, ']'))
        return false;
    c.day = int(d);
    c.second = 0;
    c.year = assumedYear(ctx, c);
    c.yearAssumed = true;
    if (!validClock(c))
        return false;
    if (const auto ns = clockNs(c, ctx)) {
        setTime(info, *ns, TimeBasis::AssumedYear, 0);
        if (info.timeNs == *ns)
            info.resolutionNs = 60 * kNsPerSec;
    }
    p = q;
    return true;
}

bool tryDmesgRelDelta(std::string_view s, size_t& p)
{
    size_t q = p;
    if (!lit(s, q, '['))
        return false;
    q = skipSpaces(s, q);
    if (q >= s.size() || (s[q] != '+' && s[q] != '-'))
        return false;
    ++q;
    int64_t secs = 0, ns = 0;
    if (!digitsUpTo(s, q, 12, secs) || !lit(s, q, '.') || !fractionNs(s, q, ns) || !lit(s, q, ']'))
        return false;
    p = q;
    return true;
}

// Fabric Manager: [Jul 23 2024 07:53:55]
bool tryFabricManagerClock(std::string_view s, size_t& p, LineInfo& info, const TimeContext& ctx)
{
    size_t q = p;
    if (!lit(s, q, '['))
        return false;
    Clock c;
    c.month = monthFromAbbrev(s, q);
    if (c.month == 0)
        return false;
    q += 3;
    q = skipSpaces(s, q);
    int64_t d = 0;
    if (!digitsUpTo(s, q, 2, d) || !lit(s, q, ' ') || !digitsN(s, q, 4, c.year) || !lit(s, q, ' ')
        || !parseHms(s, q, c) || !lit(s, q, ']'))
        return false;
    c.day = int(d);
    if (!validClock(c))
        return false;
    setClock(info, c, ctx);
    p = q;
    return true;
}

// [2023-03-06T03:17:51.123] (Slurm) and [2021-08-12 08:19:28,225] (DeepSpeed)
bool tryBracketIso(std::string_view s, size_t& p, LineInfo& info, const TimeContext& ctx)
{
    size_t q = p;
    Clock c;
    if (!lit(s, q, '[') || !parseIso(s, q, c) || !lit(s, q, ']'))
        return false;
    setClock(info, c, ctx);
    p = q;
    return true;
}

// glog / c10: [E1021 10:00:00.123456 file.cpp:12] or E1021 10:00:00.123456 1234 file.cc:12]
// and the time-less "[E ProcessGroupNCCL.cpp:737]".
bool tryGlog(std::string_view s, size_t& p, LineInfo& info, const TimeContext& ctx)
{
    size_t q = p;
    const bool bracket = lit(s, q, '[');
    if (q >= s.size())
        return false;
    Severity sev;
    switch (s[q]) {
    case 'I': sev = Severity::Info; break;
    case 'W': sev = Severity::Warning; break;
    case 'E': sev = Severity::Error; break;
    case 'F': sev = Severity::Fatal; break;
    default: return false;
    }
    ++q;
    if (bracket && q < s.size() && s[q] == ' ') {
        // "[E file.cpp:123]": severity only; the closing bracket must be near
        const size_t close = s.find(']', q);
        if (close == std::string_view::npos || close - q > 120 || s.substr(q, close - q).find(':') == std::string_view::npos)
            return false;
        info.severity = sev;
        p = close + 1;
        return true;
    }
    const size_t db = q;
    int64_t md = 0;
    if (!digitsUpTo(s, q, 4, md) || q - db < 3 || !lit(s, q, ' '))
        return false;
    Clock c;
    c.month = int(md / 100);
    c.day = int(md % 100);
    if (!parseHms(s, q, c))
        return false;
    c.year = assumedYear(ctx, c);
    c.yearAssumed = true;
    if (!validClock(c))
        return false;
    const size_t close = s.find(']', q);
    if (close == std::string_view::npos || close - q > 160)
        return false;
    setClock(info, c, ctx);
    info.severity = sev;
    p = close + 1;
    return true;
}

// Epoch seconds with a fraction, as a leading column: "1700000000.123 ".
bool tryEpoch(std::string_view s, size_t& p, LineInfo& info)
{
    size_t q = p;
    int64_t secs = 0, ns = 0;
    const size_t b = q;
    if (!digitsUpTo(s, q, 11, secs) || q - b != 10 || !lit(s, q, '.'))
        return false;
    const size_t f = q;
    if (!fractionNs(s, q, ns))
        return false;
    if (q < s.size() && s[q] != ' ' && s[q] != '\t')
        return false;
    if (secs < 946684800LL || secs > 7258118400LL) // 2000 .. 2200
        return false;
    setTime(info, secs * kNsPerSec + ns, TimeBasis::Absolute, int(q - f));
    p = q;
    return true;
}

// Launcher and PyTorch rank labels.
// - torchrun (--tee/--redirects) prefixes every line of a worker with
//   "[${role_name}${local_rank}]:" by default: "[default3]:" is LOCAL rank 3
//   on its node (pytorch torch/distributed/elastic/agent/server/local_elastic_agent.py,
//   LocalElasticAgent docstring; TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE changes it).
// - PyTorch itself prints the global rank: "[rank12]:" before c10 log lines.
// `--role rank` makes torchrun print "[rank3]:" too (still local): the outer of
// two "[rankN]:" labels is then the local one; a single one is taken as global
// and the placement stage checks it for consistency across nodes.
bool tryRankLabel(std::string_view s, size_t& p, int& globalRank, int& localRank, bool lineStart)
{
    size_t q = p;
    if (!lit(s, q, '['))
        return false;
    const size_t nb = q;
    while (q < s.size() && (isAlpha(s[q]) || s[q] == '_') && q - nb < 32)
        ++q;
    const std::string_view role = s.substr(nb, q - nb);
    if (role.empty())
        return false;
    int64_t n = 0;
    if (!digitsUpTo(s, q, 7, n) || !lit(s, q, ']'))
        return false;
    const bool colon = lit(s, q, ':');
    if (role == "rank") {
        size_t r = q;
        int g = -1, l = -1;
        if (colon && tryRankLabel(s, r, g, l, false) && g >= 0) {
            localRank = int(n); // "[rank3]:[rank11]:": torchrun --role rank, then PyTorch's global label
            globalRank = g;
            p = r;
            return true;
        }
        globalRank = int(n);
    } else if (role == "default" || (lineStart && colon)) {
        localRank = int(n);
    } else {
        return false;
    }
    p = q;
    return true;
}

// srun --label: "3: " at the very start of the line (the Slurm task id).
bool trySrunLabel(std::string_view s, size_t& p, int& task)
{
    size_t q = p;
    int64_t n = 0;
    if (!digitsUpTo(s, q, 6, n) || !lit(s, q, ": "))
        return false;
    task = int(n);
    p = q;
    return true;
}

// A Slurm daemon named after its node, what a step's stderr starts with: "slurmstepd-gpu-07: " (the name
// bundle/wrappers.h reads). The node is the line's host.
bool trySlurmDaemonNode(std::string_view s, size_t& p, LineInfo& info)
{
    size_t after = 0;
    const std::string_view node = slurmDaemonPrefixNode(s.substr(p), &after);
    if (node.empty())
        return false;
    info.host = node;
    p += after;
    return true;
}

// mpirun --tag-output: "[1,3]<stdout>:" / "[1,3]<stderr>:" (OpenMPI: [jobid,rank]); the shape is the
// wrapper table's (bundle/wrappers.cpp), read here too when a file's lines are not all wrapped in it.
bool tryMpiTag(std::string_view s, size_t& p, int& globalRank)
{
    Unwrapped u;
    if (!unwrapLine(LineWrapper::MpiTag, s.substr(p), u))
        return false;
    globalRank = u.rank;
    p += u.inner;
    return true;
}

// Ray: "(pid=1234)", "(pid=1234, ip=10.0.0.5)", "(RayTrainWorker pid=1234, ip=10.0.0.5)": the wrapper
// table's shape, taken on a line of its own only when it names a pid.
bool tryRayPrefix(std::string_view s, size_t& p, LineInfo& info)
{
    Unwrapped u;
    if (!unwrapLine(LineWrapper::Ray, s.substr(p), u) || u.pid < 0)
        return false;
    info.pid = u.pid;
    if (!u.address.empty() && info.host.empty()) {
        info.host = u.address;
        info.hostIsAddress = true;
    }
    p += u.inner;
    return true;
}

// ANSI colour escapes ("\x1b[36m") that Ray and others put around their prefixes.
bool tryAnsi(std::string_view s, size_t& p)
{
    size_t q = p;
    if (!lit(s, q, "\x1b["))
        return false;
    while (q < s.size() && (isDigit(s[q]) || s[q] == ';') && q - p < 16)
        ++q;
    if (!lit(s, q, 'm'))
        return false;
    p = q;
    return true;
}

// NCCL: "host:pid:tid [dev] "
bool tryNccl(std::string_view s, size_t& p, LineInfo& info)
{
    size_t q = p;
    const size_t hb = q;
    const bool redacted = tryRedaction(s, q);
    if (!redacted)
        q = hostTokenEnd(s, q);
    const size_t he = redacted ? hb : q;
    int64_t pid = 0, tid = 0, dev = 0;
    if ((he == hb && !redacted) || !lit(s, q, ':') || !digitsUpTo(s, q, 10, pid) || !lit(s, q, ':') || !digitsUpTo(s, q, 10, tid)
        || !lit(s, q, " [") || !digitsUpTo(s, q, 4, dev) || !lit(s, q, ']'))
        return false;
    if (q < s.size() && s[q] != ' ')
        return false;
    info.host = s.substr(hb, he - hb);
    info.device = int(dev);
    info.pid = int(pid);
    p = q;
    return true;
}

// "[ERROR]", "ERROR:"(python basicConfig), and after a time "ERROR ", "- ERROR - ", "| ERROR |".
bool tryLevel(std::string_view s, size_t& p, LineInfo& info, bool afterTime, bool atStart)
{
    size_t q = p;
    if (lit(s, q, '[')) {
        const LevelWord* lw = levelAt(s, q);
        if (!lw)
            return false;
        q += lw->word.size();
        if (!lit(s, q, ']'))
            return false;
        lit(s, q, ':');
        info.severity = lw->sev;
        p = q;
        return true;
    }
    bool dashed = false;
    if (afterTime && (lit(s, q, "- ") || lit(s, q, "| "))) {
        dashed = true;
        q = skipSpaces(s, q);
    }
    const LevelWord* lw = levelAt(s, q);
    if (!lw)
        return false;
    q += lw->word.size();
    if (q < s.size() && s[q] == ':') {
        // python basicConfig "ERROR:logger:msg"; kernel "INFO: task ..." is message text
        if (!afterTime && (!atStart || q + 1 >= s.size() || s[q + 1] == ' '))
            return false;
        ++q;
    } else if (afterTime) {
        if (q < s.size() && s[q] != ' ')
            return false;
        const size_t r = skipSpaces(s, q);
        if (dashed && r < s.size() && (s[r] == '-' || s[r] == '|'))
            q = r + 1;
    } else {
        return false;
    }
    info.severity = lw->sev;
    p = q;
    return true;
}

// CRI container log files (what kubectl logs reads): "<time> stdout|stderr P|F "
// (kubernetes pkg/kubelet/kuberuntime/logs/logs.go, parseCRILog).
bool tryCriStream(std::string_view s, size_t& p)
{
    size_t q = p;
    if (!lit(s, q, "stdout ") && !lit(s, q, "stderr "))
        return false;
    if (!lit(s, q, 'F') && !lit(s, q, 'P'))
        return false;
    if (q < s.size() && s[q] != ' ')
        return false;
    p = q;
    return true;
}

// "[tid 841]" (Fabric Manager)
bool tryTid(std::string_view s, size_t& p)
{
    size_t q = p;
    int64_t n = 0;
    if (!lit(s, q, "[tid ") || !digitsUpTo(s, q, 12, n) || !lit(s, q, ']'))
        return false;
    p = q;
    return true;
}

// Syslog/ISO clocks embedded after a wrapper, e.g. "Xid errors on instance: h, Error: May 19 07:08:57 h kernel: ..."
bool findEmbeddedSyslog(std::string_view s, size_t& p, LineInfo& info, const TimeContext& ctx)
{
    for (size_t i = 1; i + 16 < s.size(); ++i) {
        if (s[i - 1] != ' ' || !isAlpha(s[i]) || monthFromAbbrev(s, i) == 0)
            continue;
        size_t q = i;
        Clock c;
        LineInfo probe;
        if (parseSyslogClock(s, q, c, ctx) && parseHostTag(s, q, probe)) {
            setClock(info, c, ctx);
            info.host = probe.host;
            p = q;
            return true;
        }
    }
    return false;
}

// "[Rank 3]", "[PG 0 Rank 3]", "[PG ID 0 PG GUID 0(default_pg) Rank 3]" inside the message.
int rankInMessage(std::string_view s, size_t from)
{
    // Each "]" closes the last "[" after the previous "]": found with memchr, not byte by byte (this walk over
    // every message was ~9 % of parseLine).
    for (size_t i = from; i < s.size();) {
        const auto* close = static_cast<const char*>(std::memchr(s.data() + i, ']', s.size() - i));
        if (!close)
            break;
        const size_t c = size_t(close - s.data());
        const auto* openAt = c > i ? static_cast<const char*>(::memrchr(s.data() + i, '[', c - i)) : nullptr;
        const size_t open = openAt ? size_t(openAt - s.data()) : std::string_view::npos;
        i = c + 1;
        if (open != std::string_view::npos) {
            const std::string_view inner = s.substr(open + 1, c - open - 1);
            const size_t r = inner.rfind("Rank ");
            if (r != std::string_view::npos && (r == 0 || inner[r - 1] == ' ' || inner[r - 1] == ')')) {
                size_t q = r + 5;
                int64_t n = 0;
                if (digitsUpTo(inner, q, 7, n) && q == inner.size())
                    return int(n);
            }
        }
    }
    return -1;
}

// The string value of "key":"..." in a one-line JSON object, searched in the
// first `limit` bytes; `at` receives where the value starts. Escapes are left
// as they are (the value is text to match, not to decode).
std::optional<std::string_view> jsonStringField(std::string_view line, std::string_view quotedKey, size_t limit,
                                                size_t* at = nullptr)
{
    const std::string_view head = line.substr(0, std::min(line.size(), limit));
    size_t k = head.find(quotedKey);
    while (k != std::string_view::npos) {
        size_t q = k + quotedKey.size();
        while (q < head.size() && head[q] == ' ')
            ++q;
        if (q < head.size() && head[q] == ':') {
            ++q;
            while (q < head.size() && head[q] == ' ')
                ++q;
            if (q >= head.size() || head[q] != '"')
                return std::nullopt;
            const size_t b = ++q;
            while (q < head.size() && head[q] != '"')
                q += head[q] == '\\' ? 2 : 1;
            if (at)
                *at = b;
            return head.substr(b, std::min(q, head.size()) - b);
        }
        k = head.find(quotedKey, k + 1);
    }
    return std::nullopt;
}

// journalctl -o json: one object per line (systemd.journal-fields(7),
// https://systemd.io/JOURNAL_EXPORT_FORMATS/). __REALTIME_TIMESTAMP is the
// receive time in usec since the epoch, UTC, as a decimal string; MESSAGE the
// text (an array of bytes when it is not UTF-8: then there is none);
// _HOSTNAME the host; PRIORITY the syslog level 0-7. Returns where MESSAGE's
// text starts, or npos when the line is not such an object.
size_t parseJournalJson(std::string_view line, LineInfo& info)
{
    constexpr size_t kJsonLimit = 64 * 1024;
    if (line.empty() || line[0] != '{')
        return std::string_view::npos;
    const auto rt = jsonStringField(line, "\"__REALTIME_TIMESTAMP\"", kJsonLimit);
    size_t msgAt = 0;
    const auto msg = jsonStringField(line, "\"MESSAGE\"", kJsonLimit, &msgAt);
    if (!rt || !msg)
        return std::string_view::npos;
    size_t q = 0;
    int64_t usec = 0;
    if (digitsUpTo(*rt, q, 19, usec) && q == rt->size() && usec >= 946684800LL * 1000000 &&
        usec <= 7258118400LL * 1000000)
        setTime(info, usec * 1000, TimeBasis::Absolute, 6);
    if (const auto host = jsonStringField(line, "\"_HOSTNAME\"", kJsonLimit); host && !host->empty())
        info.host = *host;
    if (const auto pri = jsonStringField(line, "\"PRIORITY\"", kJsonLimit); pri && pri->size() == 1) {
        const char c = (*pri)[0];
        if (c >= '0' && c <= '2')
            info.severity = Severity::Fatal;
        else if (c == '3')
            info.severity = Severity::Error;
        else if (c == '4')
            info.severity = Severity::Warning;
        else if (c == '5' || c == '6')
            info.severity = Severity::Info;
        else if (c == '7')
            info.severity = Severity::Debug;
    }
    return msgAt;
}

// ---- The prefix shapes, as data -------------------------------------------------------------------------
// Each shape a line can start with (after the ones before it) is one row: its name, the bytes it can start
// with, its reader and sample lines. parseLine asks, at each prefix position, the rows whose first bytes
// match, in table order; the first that reads wins the position. Every row's samples are checked by
// tests/parse (LineParseTest::shapeSamples): each must be read by its row and give the instant and message
// start written beside it (with a default year of 2024, no boot time, UTC), as lnav checks the sample lines
// of its formats.

// What the prefixes read so far tell the next reader, and the rank labels they found.
struct PrefixScan {
    LineInfo& info;
    const TimeContext& ctx;
    bool rfc5424 = false;    // "<34>1 ": the ISO time is followed by RFC 5424's fields
    bool lineStart = true;   // the line's own prefixes, not those of a syslog line it quotes
    bool firstRound = true;  // the first prefix of this pass
    bool atFirst = true;     // at the first position after the priority and blanks
    bool afterTime = false;  // the previous prefix was a wall clock
    bool ncclPrefix = false; // "host:pid:tid [dev]" already read
    int globalRank = -1, localRank = -1, task = -1;
    uint32_t shapesRead = 0; // bit i: kShapes[i] read a prefix
};

enum class Read : uint8_t {
    No,    // not this shape: the next row is asked
    Yes,   // read; `q` is past it
    Timed, // read a wall clock that a level or CRI stream word may follow
};

Read yes(bool read) { return read ? Read::Yes : Read::No; }
Read timed(bool read) { return read ? Read::Timed : Read::No; }

Read readIsoClock(std::string_view s, size_t& q, PrefixScan& scan)
{
    Clock c;
    if (!parseIso(s, q, c))
        return Read::No;
    setClock(scan.info, c, scan.ctx);
    size_t r = q;
    if (scan.rfc5424 ? parseRfc5424Rest(s, r, scan.info)
                     : (parseHostTag(s, r, scan.info) || parseHostBeforeUptime(s, r, scan.info))) {
        q = r;
        return Read::Yes;
    }
    return Read::Timed;
}

Read readSyslogClock(std::string_view s, size_t& q, PrefixScan& scan)
{
    Clock c;
    if (!parseSyslogClock(s, q, c, scan.ctx))
        return Read::No;
    setClock(scan.info, c, scan.ctx);
    size_t r = q;
    if (parseHostTag(s, r, scan.info) || parseHostBeforeUptime(s, r, scan.info)) {
        q = r;
        return Read::Yes;
    }
    return Read::Timed;
}

struct PrefixShape {
    std::string_view name;
    // The bytes the shape can start with: characters and ranges ("0-9", "A-Za-z"); '-' last is itself.
    std::string_view firstBytes;
    Read (*read)(std::string_view s, size_t& q, PrefixScan& scan);
    std::span<const PrefixSample> samples;
};

constexpr PrefixSample kAnsiSamples[] = {
    {"\x1b[36m(RayTrainWorker pid=1234, ip=10.0.0.5)\x1b[0m RuntimeError: x", "", "RuntimeError: x"},
};
constexpr PrefixSample kSrunSamples[] = {
    {"3: RuntimeError: CUDA error: an illegal memory access was encountered", "", "RuntimeError: CUDA error"},
};
constexpr PrefixSample kSlurmDaemonSamples[] = {
    {"slurmstepd-gpu-07: error: *** STEP 4412871.0 ON gpu-07 CANCELLED AT 2025-11-30T12:16:03 ***", "", "error: *** STEP"},
    {"slurmd-gpu-07: error: Unable to register: Zero Bytes were transmitted or received", "", "error: Unable"},
};
constexpr PrefixSample kMpiSamples[] = {
    {"[1,3]<stderr>:RuntimeError: NCCL error", "", "RuntimeError: NCCL error"},
};
constexpr PrefixSample kRaySamples[] = {
    {"(RayTrainWorker pid=1234, ip=10.0.0.5) RuntimeError: x", "", "RuntimeError: x"},
};
constexpr PrefixSample kRankSamples[] = {
    {"[default3]:terminate called after throwing an instance of 'c10::CUDAError'", "", "terminate called"},
    {"[rank3]:[rank11]:[E ProcessGroupNCCL.cpp:737] [Rank 11] Watchdog caught", "", "[Rank 11] Watchdog"},
};
constexpr PrefixSample kDmesgDecodeSamples[] = {
    // No boot time known: the uptime is the instant after the epoch (TimeBasis::BootRelative).
    {"kern  :err   : [  123.456789] NVRM: Xid (PCI:0000:01:00): 79", "1970-01-01T00:02:03.456789Z", "NVRM: Xid"},
};
constexpr PrefixSample kDmesgUptimeSamples[] = {
    {"[6781741.548779] NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>'", "1970-03-20T11:49:01.548779Z", "NVRM: Xid"},
    {"[  100.250000 <    0.000123>] nvidia-nvswitch1: SXid", "1970-01-01T00:01:40.25Z", "nvidia-nvswitch1"},
};
constexpr PrefixSample kDmesgHumanSamples[] = {
    {"[Thu Mar  2 15:59:56 2023] INFO: task epilog.sh:76609 blocked for more than 120 seconds.",
     "2023-03-02T15:59:56Z", "INFO: task"},
};
constexpr PrefixSample kFabricManagerSamples[] = {
    {"[Jul 23 2024 07:53:55] [ERROR] [tid 841] detected NVSwitch fatal error 20034", "2024-07-23T07:53:55Z",
     "detected NVSwitch"},
};
constexpr PrefixSample kBracketIsoSamples[] = {
    {"[2023-03-06T03:17:51.123] error: Node gpu-07 not responding", "2023-03-06T03:17:51.123Z", "error: Node"},
    {"[2021-08-12 08:19:28,225] [INFO] [logging.py:60:log_dist] step=100", "2021-08-12T08:19:28.225Z",
     "[logging.py:60:log_dist]"},
};
constexpr PrefixSample kDmesgReltimeSamples[] = {
    {"[Dec 3 10:01] NVRM: Xid (PCI:0000:3b:00): 79", "2024-12-03T10:01:00Z", "NVRM: Xid"},
};
constexpr PrefixSample kDmesgRelDeltaSamples[] = {
    {"[  +0.000123] NVRM: GPU at PCI:0000:3b:00: GPU-1", "", "NVRM: GPU"},
};
constexpr PrefixSample kCriSamples[] = {
    {"2024-07-23T07:53:55.123456789Z stderr F Traceback (most recent call last):", "2024-07-23T07:53:55.123456789Z",
     "Traceback"},
};
constexpr PrefixSample kIsoSamples[] = {
    {"2024-07-23T07:53:55.123456+00:00 node7 kernel: NVRM: Xid (PCI:0000:cb:00): 13", "2024-07-23T07:53:55.123456Z",
     "NVRM: Xid"},
    {"2024-07-23T09:53:55+02:00 node7 kernel: x", "2024-07-23T07:53:55Z", "x"},
    {"<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - 'su root' failed", "2003-10-11T22:14:15.003Z",
     "'su root' failed"},
};
constexpr PrefixSample kSyslogSamples[] = {
    {"Mar  2 15:59:56 node01 slurmd[1234]: error: x", "2024-03-02T15:59:56Z", "error: x"},
    {"May 19 07:08:57 ip-26-0-146-100 kernel: [680111.646286] NVRM: Xid (PCI:0000:10:1c): 63", "2024-05-19T07:08:57Z",
     "NVRM: Xid"},
};
constexpr PrefixSample kGlogSamples[] = {
    {"E1021 10:00:00.123456 12345 socket.cc:12] connection reset", "2024-10-21T10:00:00.123456Z", "connection reset"},
    {"[W socket.cpp:663] [c10d] The client socket has failed to connect", "", "[c10d] The client"},
};
constexpr PrefixSample kEpochSamples[] = {
    {"1700000000.123 gpu0 utilization 99", "2023-11-14T22:13:20.123Z", "gpu0 utilization"},
};
constexpr PrefixSample kNcclSamples[] = {
    {"node-2:5776:5902 [0] NCCL INFO proxy.cc:679 -> 6", "", "NCCL INFO"},
};
constexpr PrefixSample kLevelSamples[] = {
    {"[ERROR] something failed", "", "something failed"},
    {"2024-01-01 10:00:00,123 - ERROR - boom", "2024-01-01T10:00:00.123Z", "boom"},
};
constexpr PrefixSample kTidSamples[] = {
    {"[Feb 25 2025 14:01:18] [INFO] [tid 1808] multicast group 0 is allocated.", "2025-02-25T14:01:18Z",
     "multicast group 0"},
};

// In the order they are asked; a shape's conditions on the earlier prefixes are in its reader.
constexpr PrefixShape kShapes[] = {
    {"ANSI colour", "\x1b", [](std::string_view s, size_t& q, PrefixScan&) { return yes(tryAnsi(s, q)); }, kAnsiSamples},
    {"srun --label", "0-9",
     [](std::string_view s, size_t& q, PrefixScan& scan) {
         return yes(scan.lineStart && scan.firstRound && trySrunLabel(s, q, scan.task));
     },
     kSrunSamples},
    {"Slurm daemon-node name", "s",
     [](std::string_view s, size_t& q, PrefixScan& scan) {
         return yes(scan.lineStart && scan.firstRound && trySlurmDaemonNode(s, q, scan.info));
     },
     kSlurmDaemonSamples},
    {"mpirun --tag-output", "[",
     [](std::string_view s, size_t& q, PrefixScan& scan) { return yes(scan.lineStart && tryMpiTag(s, q, scan.globalRank)); },
     kMpiSamples},
    {"Ray worker", "(",
     [](std::string_view s, size_t& q, PrefixScan& scan) {
         return yes(scan.lineStart && scan.info.pid < 0 && tryRayPrefix(s, q, scan.info));
     },
     kRaySamples},
    {"rank label", "[",
     [](std::string_view s, size_t& q, PrefixScan& scan) {
         return yes(tryRankLabel(s, q, scan.globalRank, scan.localRank,
                                 scan.lineStart && scan.localRank < 0 && !scan.afterTime));
     },
     kRankSamples},
    {"dmesg --decode", "a-z",
     [](std::string_view s, size_t& q, PrefixScan& scan) {
         return yes(!scan.afterTime && scan.info.basis == TimeBasis::None && tryDmesgDecode(s, q, scan.info));
     },
     kDmesgDecodeSamples},
    {"dmesg uptime", "[",
     [](std::string_view s, size_t& q, PrefixScan& scan) { return yes(tryDmesgSeconds(s, q, scan.info, scan.ctx)); },
     kDmesgUptimeSamples},
    {"dmesg -T", "[",
     [](std::string_view s, size_t& q, PrefixScan& scan) { return yes(tryDmesgHuman(s, q, scan.info, scan.ctx)); },
     kDmesgHumanSamples},
    {"Fabric Manager clock", "[",
     [](std::string_view s, size_t& q, PrefixScan& scan) { return timed(tryFabricManagerClock(s, q, scan.info, scan.ctx)); },
     kFabricManagerSamples},
    {"bracketed ISO 8601", "[",
     [](std::string_view s, size_t& q, PrefixScan& scan) { return timed(tryBracketIso(s, q, scan.info, scan.ctx)); },
     kBracketIsoSamples},
    {"dmesg --reltime minute", "[",
     [](std::string_view s, size_t& q, PrefixScan& scan) { return yes(tryDmesgReltime(s, q, scan.info, scan.ctx)); },
     kDmesgReltimeSamples},
    {"dmesg --reltime delta", "[", [](std::string_view s, size_t& q, PrefixScan&) { return yes(tryDmesgRelDelta(s, q)); },
     kDmesgRelDeltaSamples},
    {"CRI stream", "s",
     [](std::string_view s, size_t& q, PrefixScan& scan) { return yes(scan.afterTime && tryCriStream(s, q)); }, kCriSamples},
    {"ISO 8601", "0-9", readIsoClock, kIsoSamples},
    {"syslog clock", "A-Za-z", readSyslogClock, kSyslogSamples},
    {"glog", "[IWEF", [](std::string_view s, size_t& q, PrefixScan& scan) { return yes(tryGlog(s, q, scan.info, scan.ctx)); },
     kGlogSamples},
    {"epoch seconds", "0-9", [](std::string_view s, size_t& q, PrefixScan& scan) { return timed(tryEpoch(s, q, scan.info)); },
     kEpochSamples},
    {"NCCL host:pid:tid [dev]", "<[0-9A-Za-z._-",
     [](std::string_view s, size_t& q, PrefixScan& scan) {
         if (scan.ncclPrefix || !tryNccl(s, q, scan.info))
             return Read::No;
         scan.ncclPrefix = true;
         return Read::Yes;
     },
     kNcclSamples},
    {"level word", "[A-Z|-",
     [](std::string_view s, size_t& q, PrefixScan& scan) {
         return yes(tryLevel(s, q, scan.info, scan.afterTime, scan.lineStart && scan.atFirst));
     },
     kLevelSamples},
    {"Fabric Manager [tid N]", "[", [](std::string_view s, size_t& q, PrefixScan&) { return yes(tryTid(s, q)); }, kTidSamples},
};
static_assert(std::size(kShapes) <= 32, "PrefixScan::shapesRead has a bit per shape");

// Byte -> the shapes (bit i: kShapes[i]) that can start with it.
constexpr std::array<uint32_t, 256> kShapeStarts = [] {
    std::array<uint32_t, 256> t{};
    for (size_t i = 0; i < std::size(kShapes); ++i) {
        const std::string_view b = kShapes[i].firstBytes;
        for (size_t k = 0; k < b.size(); ++k) {
            const auto from = static_cast<unsigned char>(b[k]);
            auto to = from;
            if (k + 2 < b.size() && b[k + 1] == '-') {
                to = static_cast<unsigned char>(b[k + 2]);
                k += 2;
            }
            for (unsigned c = from; c <= to; ++c)
                t[c] |= 1u << i;
        }
    }
    return t;
}();

// parseLine; `shapesRead` receives the shapes that read a prefix of the line (bit i: kShapes[i]).
LineInfo readLine(std::string_view line, const TimeContext& ctx, uint32_t& shapesRead)
{
    LineInfo info;
    // A journal JSON record: its own fields give time, host and level; the
    // prefixes are then read from the start of its MESSAGE.
    const size_t jsonMessage = parseJournalJson(line, info);
    size_t base = jsonMessage == std::string_view::npos ? 0 : jsonMessage;
    // A relayed line (pdsh "host: ", compose "name  | ", ...) is read from where the wrapped line starts.
    Unwrapped wrapped;
    if (ctx.wrapper != LineWrapper::None && unwrapLine(ctx.wrapper, line.substr(base), wrapped)) {
        base += wrapped.inner;
        info.pod = wrapped.pod;
        if (wrapped.pid >= 0)
            info.pid = wrapped.pid;
    }
    std::string_view s = line.substr(base, std::min(line.size() - base, kHead));
    size_t p = 0;

    // optional syslog priority "<34>" and RFC 5424 version "1 "
    bool rfc5424 = false;
    if (!s.empty() && s[0] == '<') {
        size_t q = 1;
        int64_t pri = 0;
        if (digitsUpTo(s, q, 3, pri) && lit(s, q, '>')) {
            if (lit(s, q, "1 "))
                rfc5424 = true;
            p = q;
        }
    }

    p = skipSpaces(s, p);
    const size_t first = p;
    PrefixScan scan{info, ctx, rfc5424};
    const auto prefixes = [&](bool lineStart) {
        scan.lineStart = lineStart;
        scan.afterTime = false;
        for (int iter = 0; iter < 16 && p < s.size(); ++iter) {
            scan.firstRound = iter == 0;
            scan.atFirst = p == first;
            size_t q = p;
            Read read = Read::No;
            // Only the shapes that can start with this byte are asked, in table order: a line's last round,
            // where every shape fails, costs a few calls, not ~20 (callgrind: parseLine was 15 % of the bench
            // bundle's analysis when every reader was asked).
            for (uint32_t ask = kShapeStarts[static_cast<unsigned char>(s[p])]; ask != 0 && read == Read::No;
                 ask &= ask - 1) {
                const int i = std::countr_zero(ask);
                read = kShapes[size_t(i)].read(s, q, scan);
                if (read != Read::No)
                    scan.shapesRead |= 1u << i;
            }
            if (read == Read::No)
                break;
            scan.afterTime = read == Read::Timed;
            p = skipSpaces(s, q);
        }
    };
    prefixes(true);
    // an alert or wrapper that quotes a syslog line: the quoted line's prefixes count
    if (info.basis == TimeBasis::None && p == first && findEmbeddedSyslog(s, p, info, ctx)) {
        p = skipSpaces(s, p);
        prefixes(false);
    }
    // kubectl logs --timestamps: the receive time stands in for a line that printed none of its own
    if (info.basis == TimeBasis::None && !wrapped.stamp.empty()) {
        size_t q = 0;
        if (Clock c; parseIso(wrapped.stamp, q, c))
            setClock(info, c, ctx);
    }

    // logfmt (containerd, kubelet, Go services): "level=error msg=..." keeps its text, gives the level
    if (!info.severity && p == first && startsWith(s.substr(p), "level=")) {
        const std::string_view v = s.substr(p + 6, 8);
        if (startsWith(v, "fatal") || startsWith(v, "panic") || startsWith(v, "crit"))
            info.severity = Severity::Fatal;
        else if (startsWith(v, "error") || startsWith(v, "err "))
            info.severity = Severity::Error;
        else if (startsWith(v, "warn"))
            info.severity = Severity::Warning;
        else if (startsWith(v, "info"))
            info.severity = Severity::Info;
        else if (startsWith(v, "debug") || startsWith(v, "trace"))
            info.severity = Severity::Debug;
    }

    // NCCL prints its level after "file:line": look a short way into the message.
    {
        const std::string_view win = s.substr(p, 160);
        if (win.find("NCCL WARN") != std::string_view::npos)
            info.severity = Severity::Warning;
        else if (!info.severity && win.find("NCCL INFO") != std::string_view::npos)
            info.severity = Severity::Info;
    }

    // The wrapped line's own host and rank are the more specific; the wrapper's stand in for them.
    if (info.host.empty()) {
        info.host = !wrapped.host.empty() ? wrapped.host : wrapped.address;
        info.hostIsAddress = wrapped.host.empty() && !wrapped.address.empty();
    }
    int globalRank = scan.globalRank;
    const int localRank = scan.localRank, task = scan.task;
    if (globalRank < 0)
        globalRank = wrapped.rank;
    info.rankFromLabel = globalRank >= 0 || (task >= 0 && localRank < 0);
    if (globalRank < 0)
        globalRank = rankInMessage(s, p);
    // srun --label with one task per GPU: the task id is the global rank; when
    // torchrun runs under srun (one task per node) the task id is the node's.
    if (globalRank < 0 && task >= 0 && localRank < 0)
        globalRank = task;
    info.task = task;
    info.localRank = localRank;
    info.rank = globalRank >= 0 ? globalRank : localRank;
    info.rankIsLocal = globalRank < 0 && localRank >= 0;
    info.messageStart = std::min(base + p, line.size());
    shapesRead = scan.shapesRead;
    return info;
}

} // namespace

LineInfo parseLine(std::string_view line, SourceKind kind, const TimeContext& ctx)
{
    (void)kind; // shapes are recognised by content: files are often misnamed
    uint32_t shapes = 0;
    return readLine(line, ctx, shapes);
}

std::vector<PrefixShapeSamples> prefixShapes()
{
    std::vector<PrefixShapeSamples> out;
    for (const auto& shape : kShapes)
        out.push_back({shape.name, shape.samples});
    return out;
}

uint32_t shapesReading(std::string_view line, const TimeContext& ctx)
{
    uint32_t shapes = 0;
    readLine(line, ctx, shapes);
    return shapes;
}

bool mayHoldUptime(std::string_view line)
{
    // The shape tryDmesgSeconds reads, on the same raw bytes; kept beside parseLine so the two change together.
    for (size_t open = line.find('['); open != std::string_view::npos; open = line.find('[', open + 1)) {
        size_t p = skipSpaces(line, open + 1);
        const size_t digits = p;
        while (p < line.size() && isDigit(line[p]))
            ++p;
        if (p > digits && p + 1 < line.size() && line[p] == '.' && isDigit(line[p + 1]))
            return true;
    }
    return false;
}

} // namespace fl
