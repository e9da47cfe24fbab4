#include "present/timefmt.h"

#include "calendar.h"

#include <cstdio>

namespace fl {


std::string formatTimeUtc(int64_t ns)
{
    if (ns == kNoTime)
        return {};
    int64_t secs = ns / 1'000'000'000;
    int64_t frac = ns % 1'000'000'000;
    if (frac < 0) {
        frac += 1'000'000'000;
        secs -= 1;
    }
    int64_t days = secs / 86400;
    int64_t rem = secs % 86400;
    if (rem < 0) {
        rem += 86400;
        days -= 1;
    }
    int y;
    unsigned m, d;
    civilFromDays(days, y, m, d);
    char buf[64];
    int n = std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d", y, m, d, static_cast<int>(rem / 3600),
                          static_cast<int>(rem / 60 % 60), static_cast<int>(rem % 60));
    std::string out(buf, static_cast<size_t>(n));
    if (frac) {
        char f[16];
        std::snprintf(f, sizeof f, ".%09lld", static_cast<long long>(frac));
        std::string fs(f);
        while (fs.size() > 4 && fs.compare(fs.size() - 3, 3, "000") == 0)
            fs.resize(fs.size() - 3);
        out += fs;
    }
    out += 'Z';
    return out;
}

std::string formatTime(const Timestamp& t)
{
    if (!t.known() || t.basis != TimeBasis::BootRelative)
        return formatTimeUtc(t.ns);
    char buf[48];
    std::snprintf(buf, sizeof buf, "boot+%lld.%06llds", static_cast<long long>(t.ns / 1'000'000'000),
                  static_cast<long long>((t.ns % 1'000'000'000) / 1000));
    return buf;
}

} // namespace fl
