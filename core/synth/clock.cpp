#include "clock.h"

#include "bundle/iso_time.h"
#include "calendar.h"

#include <cmath>
#include <cstdio>

namespace fl::synth {

namespace {
constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};


} // namespace

bool parseIsoUtc(std::string_view s, int64_t* us)
{
    // The one ISO 8601 reader (bundle/iso_time.h); a stamp without a zone is UTC.
    const auto ns = parseIso8601Ns(s, 0);
    if (!ns || *ns < 0) // a job that starts before 1970 is a typo
        return false;
    *us = *ns / 1000;
    return true;
}

Civil toCivil(int64_t us)
{
    int64_t secs = us >= 0 ? us / kSec : (us - kSec + 1) / kSec;
    const int micro = int(us - secs * kSec);
    int64_t z = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
    const int64_t sod = secs - z * 86400;
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = unsigned(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t y = int64_t(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return Civil{int(y + (m <= 2)), int(m), int(d), int(sod / 3600), int(sod / 60 % 60), int(sod % 60), micro};
}

void appendInt(std::string& out, int64_t v)
{
    char buf[24];
    int n = 0;
    const bool neg = v < 0;
    uint64_t u = neg ? uint64_t(0) - uint64_t(v) : uint64_t(v);
    do {
        buf[n++] = char('0' + u % 10);
        u /= 10;
    } while (u);
    if (neg)
        out.push_back('-');
    while (n)
        out.push_back(buf[--n]);
}

void appendPadded(std::string& out, int64_t v, int width, char fill)
{
    char buf[24];
    int n = 0;
    uint64_t u = v < 0 ? 0 : uint64_t(v);
    do {
        buf[n++] = char('0' + u % 10);
        u /= 10;
    } while (u);
    for (int i = n; i < width; ++i)
        out.push_back(fill);
    while (n)
        out.push_back(buf[--n]);
}

void appendFixed(std::string& out, double v, int decimals)
{
    if (!std::isfinite(v)) {
        out += "nan";
        return;
    }
    if (v < 0) {
        out.push_back('-');
        v = -v;
    }
    int64_t scale = 1;
    for (int i = 0; i < decimals; ++i)
        scale *= 10;
    const int64_t scaled = int64_t(std::llround(v * double(scale)));
    appendInt(out, scaled / scale);
    if (decimals > 0) {
        out.push_back('.');
        appendPadded(out, scaled % scale, decimals);
    }
}

void appendSci(std::string& out, double v, int decimals)
{
    if (!std::isfinite(v)) {
        out += "nan";
        return;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*E", decimals, v);
    out += buf;
}

void appendHex(std::string& out, uint64_t v, int width)
{
    char buf[17];
    int n = 0;
    do {
        buf[n++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v && n < 16);
    for (int i = n; i < width; ++i)
        out.push_back('0');
    while (n)
        out.push_back(buf[--n]);
}

namespace {
void appendDate(std::string& out, const Civil& c, char sep)
{
    appendPadded(out, c.year, 4);
    out.push_back('-');
    appendPadded(out, c.month, 2);
    out.push_back('-');
    appendPadded(out, c.day, 2);
    out.push_back(sep);
}
void appendClock(std::string& out, const Civil& c)
{
    appendPadded(out, c.hour, 2);
    out.push_back(':');
    appendPadded(out, c.minute, 2);
    out.push_back(':');
    appendPadded(out, c.second, 2);
}
} // namespace

void appendIso(std::string& out, int64_t us)
{
    appendIsoLocal(out, us);
    out.push_back('Z');
}

void appendIsoLocal(std::string& out, int64_t us)
{
    const Civil c = toCivil(us);
    appendDate(out, c, 'T');
    appendClock(out, c);
}

void appendSyslogTime(std::string& out, int64_t us)
{
    const Civil c = toCivil(us);
    out += kMonths[c.month - 1];
    out.push_back(' ');
    appendPadded(out, c.day, 2, ' ');
    out.push_back(' ');
    appendClock(out, c);
}

void appendRfc3339Micro(std::string& out, int64_t us)
{
    const Civil c = toCivil(us);
    appendDate(out, c, 'T');
    appendClock(out, c);
    out.push_back('.');
    appendPadded(out, c.micro, 6);
    out += "+00:00";
}

void appendFmTime(std::string& out, int64_t us)
{
    const Civil c = toCivil(us);
    out += kMonths[c.month - 1];
    out.push_back(' ');
    appendPadded(out, c.day, 2);
    out.push_back(' ');
    appendPadded(out, c.year, 4);
    out.push_back(' ');
    appendClock(out, c);
}

void appendPyDate(std::string& out, int64_t us)
{
    const Civil c = toCivil(us);
    appendDate(out, c, ' ');
    appendClock(out, c);
}

void appendGlog(std::string& out, char level, int64_t us, int nanoExtra)
{
    const Civil c = toCivil(us);
    out.push_back(level);
    // c10 (C++) logging prints the month unpadded ("E321"), Python's glog
    // formatter pads it ("E0321").
    appendPadded(out, c.month, nanoExtra >= 0 ? 1 : 2);
    appendPadded(out, c.day, 2);
    out.push_back(' ');
    appendClock(out, c);
    out.push_back('.');
    appendPadded(out, c.micro, 6);
    if (nanoExtra >= 0)
        appendPadded(out, nanoExtra % 1000, 3);
}

void appendTorchrunTime(std::string& out, int64_t us)
{
    const Civil c = toCivil(us);
    appendDate(out, c, '_');
    appendClock(out, c);
}

void appendUptime(std::string& out, int64_t us)
{
    if (us < 0)
        us = 0;
    out.push_back('[');
    appendPadded(out, us / kSec, 5, ' ');
    out.push_back('.');
    appendPadded(out, us % kSec, 6);
    out.push_back(']');
}

} // namespace fl::synth
