#include "present/would_decide.h"

#include "present/timefmt.h"

#include <algorithm>

namespace fl::present {

namespace {

constexpr int64_t kMs = 1'000'000, kSec = 1'000'000'000;

std::string sourceText(SourceKind k)
{
    switch (k) {
    case SourceKind::SysLog: return "kernel logs";
    case SourceKind::AppLog: return "application logs";
    case SourceKind::FabricManager: return "Fabric Manager logs";
    case SourceKind::Scheduler: return "scheduler records";
    case SourceKind::GpuSnapshot: return "nvidia-smi snapshots";
    default: return std::string(toString(k)) + " files";
    }
}

// "a, b and c"
std::string listText(const std::vector<std::string>& items)
{
    std::string s;
    for (size_t i = 0; i < items.size(); ++i)
        s += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return s;
}

// A duration as a person writes it: 2 s, 1.5 s, 400 ms, 3 us.
std::string durationText(int64_t ns)
{
    auto fixed = [](int64_t v, int64_t unit, const char* name) {
        const int64_t whole = v / unit, tenth = v % unit * 10 / unit;
        return std::to_string(whole) + (tenth ? "." + std::to_string(tenth) : "") + " " + name;
    };
    if (ns >= kSec)
        return fixed(ns, kSec, "s");
    if (ns >= kMs)
        return fixed(ns, kMs, "ms");
    return fixed(ns, 1000, "us");
}

// "2026-03-14 10:00:40–10:00:43 UTC": the end without its date when on the same day.
std::string windowText(const TimeInterval& w)
{
    auto plain = [](std::string t) { // "2026-03-14T10:00:40Z" -> "2026-03-14 10:00:40"
        if (t.size() > 10 && t[10] == 'T')
            t[10] = ' ';
        if (!t.empty() && t.back() == 'Z')
            t.pop_back();
        return t;
    };
    const std::string from = plain(formatTimeUtc(w.earliestNs)), to = plain(formatTimeUtc(w.latestNs + 1));
    if (from.size() > 11 && to.size() > 11 && from.compare(0, 11, to, 0, 11) == 0)
        return from + "–" + to.substr(11) + " UTC";
    return from + " – " + to + " UTC";
}

} // namespace

std::string wouldDecideText(const WouldDecide& w)
{
    std::vector<std::string> sources;
    for (SourceKind k : w.sources)
        sources.push_back(sourceText(k));
    std::string s = (sources.empty() ? std::string("logs") : listText(sources)) + " of " + listText(w.nodes);
    // Stamps already finer than the clocks are known: only the clocks can order the pair.
    const bool stampsHelp = w.clockNs * 2 < w.resolutionNs || w.resolutionNs >= kSec;
    if (stampsHelp)
        s += w.resolutionNs == kSec ? " with sub-second stamps" : " with stamps finer than " + durationText(w.resolutionNs);
    s += " for " + windowText(w.window);
    if (w.clockNeededNs != kNoTime)
        s += ", or their clock offsets known to better than ±" + durationText(w.clockNeededNs) + " (now ±" +
             durationText(w.clockNs) + ")";
    else if (w.clockNs * 2 >= w.resolutionNs)
        // Finer stamps alone leave the clocks' own uncertainty: it must shrink too.
        s += std::string(stampsHelp ? ", and" : ", with") + " their clock offsets known to better than the ±" +
             durationText(w.clockNs) + " they are known to now";
    return s;
}

std::vector<std::string> wouldDecideLines(const Result& result)
{
    std::vector<std::string> out;
    for (const WouldDecide& w : result.wouldDecide) {
        std::string s = wouldDecideText(w);
        if (std::find(out.begin(), out.end(), s) == out.end())
            out.push_back(std::move(s));
    }
    return out;
}

std::string missingHeading(const Result& result)
{
    if (result.status == ResultStatus::Unattributed)
        return "Missing evidence";
    return result.wouldDecide.empty() ? "Would strengthen the verdict" : "What would decide the verdict";
}

} // namespace fl::present
