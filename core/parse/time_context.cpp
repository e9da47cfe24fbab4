#include "bundle/text_lines.h"
#include "bundle/wrappers.h"
#include "calendar.h"
#include "parse/lineparse.h"

#include <cstring>

namespace fl {

namespace {

constexpr size_t kContextLines = 4096; // lines of a sample read for its time context
constexpr size_t kBackScanBytes = 4u << 20; // how far inheritedTime may walk over long lines

bool fullDate(TimeBasis b) { return b == TimeBasis::Absolute || b == TimeBasis::AssumedUtc; }
bool wallClock(TimeBasis b) { return fullDate(b) || b == TimeBasis::AssumedYear; }


template <typename F>
void forEachLine(std::string_view sample, F&& f)
{
    for (const TextLine& line : linesOf(sample))
        if (line.number > kContextLines || !f(line.text))
            return;
}

// A file says what it will say about dates in its first lines; looking at
// more costs a parse of every line of the tens of thousands of small rank
// logs of a large job.
constexpr int kMaxLines = 256;

// The year of the first full date in the sample, else 0.
int sampleYear(std::string_view sample, SourceKind kind)
{
    const int64_t t = firstFullDateNs(sample, kind);
    return t == kNoTime ? 0 : yearOfNs(t);
}

// Boot time from the first line that prints both a wall clock and "[uptime]";
// needs the year first: syslog clocks carry none.
void learnBootTime(std::string_view sample, SourceKind kind, TimeContext& ctx)
{
    int seen = 0;
    forEachLine(sample, [&](std::string_view line) {
        if (!mayHoldUptime(line))
            return ++seen < kMaxLines;
        const LineInfo li = parseLine(line, kind, ctx);
        if (li.bootSeconds >= 0 && wallClock(li.basis)) {
            // bootSeconds came from at most ten digits, so the cast is defined;
            // the products are checked all the same (issue #13).
            const auto secs = int64_t(li.bootSeconds);
            const auto frac = int64_t((li.bootSeconds - double(secs)) * 1e9 + 0.5);
            const auto uptime = secondsToNsChecked(secs, frac);
            int64_t boot = 0;
            if (uptime && !__builtin_sub_overflow(li.timeNs, *uptime, &boot) && boot != kNoTime)
                ctx.bootTimeNs = boot;
            return false;
        }
        return ++seen < kMaxLines;
    });
}

} // namespace

int64_t firstFullDateNs(std::string_view sample, SourceKind kind)
{
    int64_t at = kNoTime;
    int seen = 0;
    TimeContext bare;
    bare.wrapper = detectWrapper(sample); // a relayed line's date is in the line it relays
    forEachLine(sample, [&](std::string_view line) {
        const LineInfo li = parseLine(line, kind, bare);
        if (fullDate(li.basis)) {
            at = li.timeNs;
            return false;
        }
        return ++seen < kMaxLines;
    });
    return at;
}

TimeContext inferTimeContext(std::string_view sample, SourceKind kind, int fallbackYear)
{
    TimeContext ctx;
    ctx.wrapper = detectWrapper(sample);
    const int own = sampleYear(sample, kind);
    ctx.defaultYear = own > 0 ? own : fallbackYear;
    learnBootTime(sample, kind, ctx);
    return ctx;
}

TimeContext inferTimeContext(std::string_view sample, SourceKind kind, const YearHint& hint)
{
    TimeContext ctx;
    ctx.wrapper = detectWrapper(sample);
    ctx.defaultYear = sampleYear(sample, kind);
    if (ctx.defaultYear > 0) { // the file's own full date wins
        learnBootTime(sample, kind, ctx);
        return ctx;
    }
    // Order of trust (issue #15): the manifest, then dated lines elsewhere in
    // the bundle, then the file's own modification time (copies made without
    // -p carry the copy's time, so it comes last), then nothing: year unknown.
    if (hint.latestNs != kNoTime) {
        ctx.yearRefNs = hint.latestNs;
        ctx.yearRefIsLatest = true;
    } else if (hint.nearNs != kNoTime) {
        ctx.yearRefNs = hint.nearNs;
    } else if (hint.fileLatestNs != kNoTime) {
        ctx.yearRefNs = hint.fileLatestNs;
        ctx.yearRefIsLatest = true;
    }
    if (ctx.yearRefNs != kNoTime)
        ctx.defaultYear = yearOfNs(ctx.yearRefNs);
    learnBootTime(sample, kind, ctx);
    return ctx;
}

int64_t inheritedTime(std::string_view buffer, size_t lineBegin, SourceKind kind, const TimeContext& ctx,
                      int maxLines, TimeBasis* basis, LookBehind& memo)
{
    if (lineBegin > buffer.size())
        lineBegin = buffer.size();
    const LookBehind earlier = memo.from <= lineBegin ? memo : LookBehind{};
    memo = LookBehind{};
    memo.from = lineBegin;
    const auto found = [&](size_t at, int lines, int64_t t, TimeBasis b) {
        memo.foundAt = at;
        memo.lines = lines;
        memo.timeNs = t;
        memo.basis = b;
        if (basis)
            *basis = b;
        return t;
    };
    size_t end = lineBegin; // one past the previous line's last byte + 1 (its newline)
    size_t scanned = 0;
    int i = 0;
    for (; i < maxLines && end > 0; ++i) {
        // Here the earlier search began; `i` untimed lines lie between. Its stamped line is this search's
        // answer when within the line budget and (then every line between starts within it too) the byte
        // budget. Untimed lines all the way to the start, or past the line budget, answer none.
        if (end == earlier.from) {
            if (earlier.foundAt != std::string_view::npos && i + earlier.lines <= maxLines &&
                lineBegin - earlier.foundAt <= kBackScanBytes)
                return found(earlier.foundAt, i + earlier.lines, earlier.timeNs, earlier.basis);
            if (earlier.foundAt == std::string_view::npos && (earlier.reachedStart || i + earlier.lines >= maxLines)) {
                memo.lines = i + earlier.lines;
                memo.reachedStart = earlier.reachedStart;
                return kNoTime;
            }
        }
        const size_t lineEnd = end - 1;
        const size_t budget = kBackScanBytes - scanned;
        const std::optional<size_t> start = lineStartFrom(buffer, lineEnd > budget ? lineEnd - budget : 0, lineEnd);
        if (!start)
            break;
        const size_t b = *start;
        scanned += lineEnd - b;
        const LineInfo li = parseLine(buffer.substr(b, lineEnd - b), kind, ctx);
        if (li.basis != TimeBasis::None)
            return found(b, i + 1, li.timeNs, li.basis);
        end = b;
    }
    memo.lines = i; // lines known to carry no time
    memo.reachedStart = end == 0;
    return kNoTime;
}

int64_t inheritedTime(std::string_view buffer, size_t lineBegin, SourceKind kind, const TimeContext& ctx,
                      int maxLines, TimeBasis* basis)
{
    LookBehind none;
    return inheritedTime(buffer, lineBegin, kind, ctx, maxLines, basis, none);
}

} // namespace fl
