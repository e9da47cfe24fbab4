// SPDX-License-Identifier: MIT
#include "views/timeline/metricfocus.h"

#include "engine/metric_samples.h"
#include "present/timefmt.h"
#include "rules/metric_detect.h"
#include "views/common/viewstyle.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace fl {

namespace {

std::string_view metricName(std::string_view series)
{
    return series.substr(0, series.find('{'));
}

// A place within a node that is not a GPU index: which port, disk or interface a series is about.
QString placeLabels(const MetricSeries& s)
{
    QString out;
    for (const char* k : {"device", "port", "mountpoint", "interface"})
        if (auto it = s.labels.find(k); it != s.labels.end())
            out += QLatin1Char(' ') + style::q(it->second);
    return out;
}

QString seriesName(const MetricSeries& s)
{
    return style::q(s.node) + (s.gpu >= 0 ? QStringLiteral(" gpu%1").arg(s.gpu) : QString()) + placeLabels(s);
}

double seconds(int64_t ns)
{
    return static_cast<double>(ns) / 1e9;
}

FocusedLine line(const MetricSeries& s, const std::vector<MetricSample>& samples)
{
    FocusedLine l;
    l.name = seriesName(s);
    for (const MetricSample& smp : samples)
        if (smp.timeNs != kNoTime && std::isfinite(smp.value)) {
            l.x.push_back(seconds(smp.timeNs));
            l.y.push_back(smp.value);
        }
    return l;
}

// The value a series had at `t`: its last sample at or before it (none before its first).
std::optional<double> valueAt(const FocusedLine& l, double t)
{
    auto it = std::upper_bound(l.x.begin(), l.x.end(), t);
    if (it == l.x.begin())
        return std::nullopt;
    return l.y[std::distance(l.x.begin(), it) - 1];
}

} // namespace

std::optional<MetricFocusTarget> metricFocusTarget(const Analysis& analysis, const EvidenceItem& item)
{
    if (item.kind != EvidenceKind::Metric || item.series.empty())
        return std::nullopt;
    const std::string_view name = metricName(item.series);
    std::vector<size_t> same;
    for (size_t i = 0; i < analysis.metrics.size(); ++i)
        if (analysis.metrics[i].name == name)
            same.push_back(i);
    // The item's series: its file, node and GPU, and its labels as the item cites them when several match
    // (a series whose label set changed is several MetricSeries; the rule judged them as one).
    std::optional<size_t> best;
    int bestScore = 0;
    for (size_t i : same) {
        const MetricSeries& s = analysis.metrics[i];
        const bool text = s.name + promLabels(s.labels) == item.series;
        const bool place = s.node == item.node && s.gpu == item.gpuIndex;
        const int score = (text ? 4 : 0) + (place ? 2 : 0) + (s.file == item.ref.file ? 1 : 0);
        if (score >= 4 || (place && score > 2)) {
            if (score > bestScore) {
                best = i;
                bestScore = score;
            }
        }
    }
    if (!best)
        return std::nullopt;
    const MetricSeries& focus = analysis.metrics[*best];
    MetricFocusTarget t;
    t.evidence = item.id;
    t.series = *best;
    t.pointNs = item.time.ns;
    if (analysis.result.rootCause)
        t.verdictNs = analysis.result.rootCause->time.ns;
    for (size_t i : same) {
        const MetricSeries& s = analysis.metrics[i];
        // The same device under another label set is the series itself, not a peer.
        if (i == *best || (s.node == focus.node && s.gpu == focus.gpu && placeLabels(s) == placeLabels(focus)))
            continue;
        t.peers.push_back(i);
    }
    // Nearest first: the item's node (its other GPUs or ports), then the others in node order.
    std::stable_sort(t.peers.begin(), t.peers.end(), [&](size_t a, size_t b) {
        const MetricSeries& x = analysis.metrics[a];
        const MetricSeries& y = analysis.metrics[b];
        return std::make_tuple(x.node != focus.node, std::cref(x.node), x.gpu, std::cref(x.labels)) <
               std::make_tuple(y.node != focus.node, std::cref(y.node), y.gpu, std::cref(y.labels));
    });
    return t;
}

const EvidenceItem* metricEvidenceOf(const Result& result, EventId event)
{
    const EvidenceItem* first = nullptr;
    const int64_t at = event.value < result.events.size() ? result.events[event.value].time.ns : kNoTime;
    for (const EvidenceItem& e : result.evidence) {
        if (e.event != event || e.kind != EvidenceKind::Metric)
            continue;
        if (at != kNoTime && e.time.ns == at)
            return &e;
        if (!first)
            first = &e;
    }
    return first;
}

bool focusNeedsFiles(const Analysis& analysis, const MetricFocusTarget& target)
{
    if (analysis.metrics[target.series].samples.empty())
        return true;
    return std::any_of(target.peers.begin(), target.peers.end(), [&](size_t i) { return analysis.metrics[i].samples.empty(); });
}

FocusedPlot prepareFocusedPlot(const Analysis& analysis, const MetricFocusTarget& target, const std::atomic<bool>& cancelled)
{
    FocusedPlot out;
    out.target = target;
    out.peerCount = target.peers.size();
    std::vector<const MetricSeries*> wanted{&analysis.metrics[target.series]};
    for (size_t i : target.peers)
        wanted.push_back(&analysis.metrics[i]);
    std::vector<std::vector<MetricSample>> read;
    if (focusNeedsFiles(analysis, target))
        read = readSeriesSamples(analysis.bundle, wanted);
    if (cancelled) {
        out.cancelled = true;
        return out;
    }
    auto samplesOf = [&](size_t k) -> const std::vector<MetricSample>& {
        return wanted[k]->samples.empty() && k < read.size() ? read[k] : wanted[k]->samples;
    };
    const MetricSeries& focus = *wanted[0];
    out.series = line(focus, samplesOf(0));
    std::vector<FocusedLine> peers;
    peers.reserve(target.peers.size());
    for (size_t k = 1; k < wanted.size(); ++k)
        peers.push_back(line(*wanted[k], samplesOf(k)));
    bool any = false;
    auto extend = [&](double v) {
        out.lo = any ? std::min(out.lo, v) : v;
        out.hi = any ? std::max(out.hi, v) : v;
        any = true;
    };
    for (double v : out.series.y)
        extend(v);
    // The band over every peer, at the series' own sample times.
    std::vector<double> at;
    at.reserve(peers.size());
    for (double x : out.series.x) {
        at.clear();
        for (const FocusedLine& p : peers)
            if (auto v = valueAt(p, x))
                at.push_back(*v);
        if (at.empty())
            continue;
        const auto [mn, mx] = std::minmax_element(at.begin(), at.end());
        const double lo = *mn, hi = *mx;
        auto mid = at.begin() + static_cast<std::ptrdiff_t>(at.size() / 2);
        std::nth_element(at.begin(), mid, at.end());
        out.bandX.push_back(x);
        out.bandLo.push_back(lo);
        out.bandMid.push_back(*mid);
        out.bandHi.push_back(hi);
        extend(lo);
        extend(hi);
    }
    if (peers.size() > kMaxPeerLines)
        peers.resize(kMaxPeerLines);
    for (const FocusedLine& p : peers)
        for (double v : p.y)
            extend(v);
    out.peers = std::move(peers);
    const QString at_ = target.pointNs != kNoTime ? style::q(formatTimeUtc(target.pointNs)) : QString();
    out.title = QCoreApplication::translate("MetricFocus", "%1 on %2 at %3 (%4)")
                    .arg(style::q(focus.name), out.series.name, at_, style::q(toString(target.evidence)));
    if (out.peerCount > out.peers.size())
        out.title += QCoreApplication::translate("MetricFocus", "\ngrey: the nearest %1 of %2 peers; band: every peer's lowest to highest, dashed: their median")
                         .arg(out.peers.size())
                         .arg(out.peerCount);
    else if (out.peerCount > 0)
        out.title += QCoreApplication::translate("MetricFocus", "\ngrey: %1 peer(s); band: their lowest to highest, dashed: their median")
                         .arg(out.peerCount);
    return out;
}

} // namespace fl
