// The line parser: every prefix reader, time context inference and the walk
// back for an inherited time, on hostile bytes, for every source kind.
#include "fuzz_input.h"
#include "parse/lineparse.h"

using namespace fl;

void fuzzOne(std::string_view data)
{
    // The first byte picks the context so that year, boot time and zone are fuzzed too.
    TimeContext ctx;
    if (!data.empty()) {
        const auto b = static_cast<unsigned char>(data[0]);
        ctx.defaultYear = (b & 1) ? 1990 + (b >> 1) : 0;
        ctx.bootTimeNs = (b & 2) ? int64_t(b) * 1'000'000'000'000'000LL : kNoTime;
        ctx.tzOffsetSec = (b & 4) ? -(b * 60) : 0;
    }
    for (auto kind : {SourceKind::AppLog, SourceKind::SysLog, SourceKind::FabricManager, SourceKind::Scheduler}) {
        size_t pos = 0;
        while (pos <= data.size()) {
            const size_t nl = data.find('\n', pos);
            const size_t end = nl == std::string_view::npos ? data.size() : nl;
            const LineInfo li = parseLine(data.substr(pos, end - pos), kind, ctx);
            FUZZ_CHECK(li.messageStart <= end - pos);
            FUZZ_CHECK((li.timeNs == kNoTime) == (li.basis == TimeBasis::None));
            if (li.basis == TimeBasis::None)
                (void)inheritedTime(data, pos, kind, ctx, 16);
            if (nl == std::string_view::npos)
                break;
            pos = nl + 1;
        }
        const TimeContext inferred = inferTimeContext(data, kind, 0);
        (void)inferred;
    }
}
