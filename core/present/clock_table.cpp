#include "present/clock_table.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace fl::present {

namespace {

std::string seconds(int64_t ns)  // ns >= 0
{
    const int64_t ms = (ns + 500'000) / 1'000'000;
    char buf[40];
    std::snprintf(buf, sizeof buf, "%" PRId64 ".%03" PRId64 " s", ms / 1000, ms % 1000);
    return buf;
}

} // namespace

std::string signedSeconds(int64_t ns)
{
    return (ns < 0 ? "-" : "+") + seconds(std::llabs(ns));
}

std::vector<ClockRow> clockRows(const Result& result, const std::vector<std::string>& nodes, int64_t unknownNs)
{
    std::vector<ClockRow> rows;
    for (const ClockOffset& c : result.clockOffsets) {
        ClockRow row{c.node, signedSeconds(c.offsetNs), "±" + seconds(c.residualNs), c.anchors, {}};
        for (const ClockMoment& m : c.moments)
            row.from += (row.from.empty() ? "" : "; ") + m.key + " (" + std::to_string(m.nodes) + " nodes, " +
                        signedSeconds(m.deviationNs) + ")";
        if (row.from.empty())
            row.from = c.basis;  // a result written before moments were recorded
        rows.push_back(std::move(row));
    }
    if (unknownNs > 0)
        for (const std::string& node : nodes)
            if (std::none_of(rows.begin(), rows.end(), [&](const ClockRow& r) { return r.node == node; }))
                rows.push_back({node, "unknown", "±" + seconds(unknownNs) + " (clock_skew_tolerance_s)", 0,
                                "no moment shared with another node"});
    std::sort(rows.begin(), rows.end(), [](const ClockRow& a, const ClockRow& b) { return a.node < b.node; });
    return rows;
}

} // namespace fl::present
