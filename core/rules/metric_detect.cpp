#include "rules/metric_detect.h"

#include "rules/template.h"

#include <algorithm>
#include <cmath>
#include <climits>
#include <cstdio>

namespace fl {

namespace {

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + long(mid), v.end());
    const double hi = v[mid];
    if (v.size() % 2)
        return hi;
    return (*std::max_element(v.begin(), v.begin() + long(mid)) + hi) / 2;
}

std::string hexBit(uint64_t bit)
{
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(bit));
    return b;
}

MetricFinding at(size_t track, const std::vector<MetricPoint>& p, size_t i)
{
    MetricFinding f;
    f.track = track;
    f.at = i;
    f.latestNs = p[i].timeNs;
    f.earliestNs = p[i].timeNs;
    f.fields["value"] = formatMetricValue(p[i].value);
    if (i > 0) {
        f.previous = i - 1;
        f.earliestNs = p[i - 1].timeNs;
        f.fields["previous"] = formatMetricValue(p[i - 1].value);
    }
    return f;
}

// The first increase of a counter, with how much and how often it rose over the whole series. A value
// below the one before is a reset (exporter or driver restart): the counter counts again from zero.
void increases(const MetricRule& r, size_t t, const std::vector<MetricPoint>& p, std::vector<MetricFinding>& out)
{
    std::optional<MetricFinding> first;
    double total = 0;
    int times = 0, resets = 0;
    size_t lastRise = 0;
    for (size_t i = 1; i < p.size(); ++i) {
        const bool reset = p[i].value < p[i - 1].value;
        resets += reset;
        const double inc = reset ? p[i].value : p[i].value - p[i - 1].value;
        if (inc <= 0 || inc < r.threshold)
            continue;
        total += inc;
        ++times;
        lastRise = i;
        if (!first) {
            first = at(t, p, i);
            first->fields["increase"] = formatMetricValue(inc);
            first->fields["reset"] = reset ? "yes" : "no";
        }
    }
    if (!first)
        return;
    first->fields["total"] = formatMetricValue(total);
    first->fields["times"] = std::to_string(times);
    first->fields["resets"] = std::to_string(resets);
    if (lastRise != first->at)
        first->others.emplace_back(t, lastRise);
    out.push_back(std::move(*first));
}

// The first rise of a count of occurrences in a sliding window. Where the series is absent at a scrape of
// its node / GPU no occurrence was in the window, so its next sample rises from 0 (the interval begins at
// that scrape); a fall is occurrences leaving the window. A series with no scrape before its first sample
// counted before the window and is not dated by it.
void windowCounts(const MetricRule& r, size_t t, const MetricTrack& track, std::vector<MetricFinding>& out)
{
    const std::vector<MetricPoint>& p = track.points;
    std::optional<MetricFinding> first;
    double total = 0;
    int times = 0;
    size_t lastRise = 0;
    size_t a = 0;
    for (size_t i = 0; i < p.size(); ++i) {
        int64_t absentAt = kNoTime; // the last scrape without it since its sample before
        for (; a < track.absentNs.size() && track.absentNs[a] < p[i].timeNs; ++a)
            if (i == 0 || track.absentNs[a] > p[i - 1].timeNs)
                absentAt = track.absentNs[a];
        if (absentAt == kNoTime && i == 0)
            continue;
        const double before = absentAt != kNoTime ? 0 : p[i - 1].value;
        const double inc = p[i].value - before;
        if (inc <= 0 || inc < r.threshold)
            continue;
        total += inc;
        ++times;
        lastRise = i;
        if (first)
            continue;
        if (absentAt != kNoTime) {
            MetricFinding f;
            f.track = t;
            f.at = i;
            f.latestNs = p[i].timeNs;
            f.earliestNs = absentAt;
            f.fields["value"] = formatMetricValue(p[i].value);
            f.fields["previous"] = "0";
            first = std::move(f);
        } else {
            first = at(t, p, i);
        }
        first->fields["increase"] = formatMetricValue(inc);
    }
    if (!first)
        return;
    first->fields["total"] = formatMetricValue(total);
    first->fields["times"] = std::to_string(times);
    if (lastRise != first->at)
        first->others.emplace_back(t, lastRise);
    out.push_back(std::move(*first));
}

// The first crossing of a gauge to the far side of the threshold; a series already there at its first
// point crossed before the window and is not dated by it.
void crossings(const MetricRule& r, size_t t, const std::vector<MetricPoint>& p, std::vector<MetricFinding>& out)
{
    auto beyond = [&](double v) { return r.kind == MetricKind::Above ? v >= r.threshold : v <= r.threshold; };
    for (size_t i = 1; i < p.size(); ++i) {
        if (!beyond(p[i].value) || beyond(p[i - 1].value))
            continue;
        MetricFinding f = at(t, p, i);
        f.fields["threshold"] = formatMetricValue(r.threshold);
        size_t worst = i;
        int points = 0;
        for (size_t k = i; k < p.size(); ++k) {
            points += beyond(p[k].value);
            if (r.kind == MetricKind::Above ? p[k].value > p[worst].value : p[k].value < p[worst].value)
                worst = k;
        }
        f.fields["worst"] = formatMetricValue(p[worst].value);
        f.fields["points"] = std::to_string(points) + " of " + std::to_string(p.size() - i);
        if (worst != i)
            f.others.emplace_back(t, worst);
        out.push_back(std::move(f));
        return;
    }
}

void changes(const MetricRule& r, size_t t, const std::vector<MetricPoint>& p, std::vector<MetricFinding>& out)
{
    constexpr size_t kMaxChanges = 20; // a flapping field is one story, not hundreds of events
    size_t n = 0;
    for (size_t i = 1; i < p.size() && n < kMaxChanges; ++i) {
        if (p[i].value == p[i - 1].value || (r.nonzero && p[i].value == 0))
            continue;
        out.push_back(at(t, p, i));
        ++n;
    }
}

// Each bit of the mask, the first time it becomes set.
void bits(const MetricRule& r, size_t t, const std::vector<MetricPoint>& p, std::vector<MetricFinding>& out)
{
    auto word = [](double v) { return v >= 0 && v < 1.8e19 ? static_cast<uint64_t>(v) : uint64_t(0); };
    uint64_t seen = 0;
    for (size_t i = 1; i < p.size(); ++i) {
        const uint64_t now = word(p[i].value) & r.mask;
        const uint64_t fresh = now & ~(word(p[i - 1].value) & r.mask) & ~seen;
        for (const auto& [bit, name] : r.bitNames) {
            if (!(fresh & bit))
                continue;
            MetricFinding f = at(t, p, i);
            f.fields["bit"] = hexBit(bit);
            f.fields["bit_name"] = name;
            out.push_back(std::move(f));
        }
        seen |= fresh;
    }
}

// A series that departs from its peers: scrape by scrape, each series' robust z-score against the median
// and MAD of every series at that scrape (Minder's idea, made deterministic: no training, the same answer
// for the same points). Scrapes of different machines fall into the same slot of the scrape interval (the
// median gap between a series' samples). Fires for a series that departs at min_points compared scrapes in
// a row (a scrape it misses does not break the run), dated from the first of them; nothing when more than
// max_share of the series do (a job-wide change, not an odd one out).
void peers(const MetricRule& r, const std::vector<const MetricTrack*>& tracks, std::vector<MetricFinding>& out)
{
    if (tracks.size() < size_t(r.minPeers) + 1)
        return;
    std::vector<int64_t> gaps;
    int64_t start = INT64_MAX;
    for (const MetricTrack* tr : tracks)
        for (size_t i = 0; i < tr->points.size(); ++i) {
            start = std::min(start, tr->points[i].timeNs);
            if (i && tr->points[i].timeNs > tr->points[i - 1].timeNs)
                gaps.push_back(tr->points[i].timeNs - tr->points[i - 1].timeNs);
        }
    if (gaps.empty())
        return;
    std::nth_element(gaps.begin(), gaps.begin() + long(gaps.size() / 2), gaps.end());
    const int64_t slot = std::max<int64_t>(gaps[gaps.size() / 2], 1'000'000'000);
    // slot -> (track, point), the last point of each track in the slot, tracks ascending. Indexed by slot
    // number (a scrape window holds a few dozen), each slot sized for every track: a map look-up and a
    // growing vector per point were a third of this function.
    int64_t end = start;
    for (const MetricTrack* tr : tracks)
        if (!tr->points.empty())
            end = std::max(end, tr->points.back().timeNs);
    const auto slotOf = [&](int64_t timeNs) { return size_t((timeNs - start + slot / 2) / slot); };
    std::vector<std::vector<std::pair<size_t, size_t>>> bySlot(slotOf(end) + 1);
    for (size_t t = 0; t < tracks.size(); ++t) {
        const auto& p = tracks[t]->points;
        for (size_t i = 0; i < p.size(); ++i) {
            auto& v = bySlot[slotOf(p[i].timeNs)];
            if (v.empty())
                v.reserve(tracks.size());
            if (!v.empty() && v.back().first == t)
                v.back().second = i;
            else
                v.emplace_back(t, i);
        }
    }
    struct Score {
        int run = 0;                       // departing compared scrapes in a row so far
        size_t runStart = 0;               // its first point
        double runWorstZ = 0;
        size_t runWorst = 0;
        std::optional<std::pair<size_t, size_t>> runPeer;
        double runMedian = 0;
        bool found = false;                // a run of min_points: the finding below
        size_t onset = 0, worst = 0;
        double worstZ = 0, median = 0;
        int length = 0;
        std::optional<std::pair<size_t, size_t>> peer;
    };
    std::vector<Score> scores(tracks.size());
    std::vector<double> vals, dev;
    for (const auto& members : bySlot) {
        if (members.size() < size_t(r.minPeers) + 1)
            continue;
        vals.clear();
        for (const auto& [t, i] : members)
            vals.push_back(tracks[t]->points[i].value);
        const double m = median(vals);
        dev.clear();
        for (double v : vals)
            dev.push_back(std::fabs(v - m));
        const double scale = std::max({1.4826 * median(dev), r.minSpread, 1e-12});
        // the peer drawn beside a departing series: the one nearest the median (lowest track on a tie)
        size_t nearest = 0;
        for (size_t k = 1; k < members.size(); ++k)
            if (std::fabs(vals[k] - m) < std::fabs(vals[nearest] - m))
                nearest = k;
        for (size_t k = 0; k < members.size(); ++k) {
            Score& sc = scores[members[k].first];
            if (sc.found && sc.run == 0)
                continue;
            const double z = (vals[k] - m) / scale;
            const bool departs = r.direction == "high" ? z >= r.z : r.direction == "low" ? z <= -r.z : std::fabs(z) >= r.z;
            if (!departs) {
                sc.run = 0;
                continue;
            }
            if (sc.run++ == 0) {
                sc.runStart = members[k].second;
                sc.runWorstZ = 0;
            }
            if (std::fabs(z) > std::fabs(sc.runWorstZ)) {
                sc.runWorstZ = z;
                sc.runWorst = members[k].second;
                sc.runMedian = m;
                sc.runPeer = nearest != k ? std::optional(members[nearest]) : std::nullopt;
            }
            if (sc.run >= r.minPoints) {
                sc.found = true;
                sc.onset = sc.runStart;
                sc.worst = sc.runWorst;
                sc.worstZ = sc.runWorstZ;
                sc.median = sc.runMedian;
                sc.peer = sc.runPeer;
                sc.length = sc.run;
            }
        }
    }
    std::vector<size_t> odd;
    for (size_t t = 0; t < tracks.size(); ++t)
        if (scores[t].found)
            odd.push_back(t);
    if (odd.empty() || double(odd.size()) > r.maxShare * double(tracks.size()))
        return;
    for (size_t t : odd) {
        const Score& sc = scores[t];
        MetricFinding f = at(t, tracks[t]->points, sc.onset);
        f.fields["value"] = formatMetricValue(tracks[t]->points[sc.worst].value);
        f.fields["peers"] = formatMetricValue(sc.median);
        char z[32];
        std::snprintf(z, sizeof z, "%.1f", sc.worstZ);
        f.fields["z"] = z;
        f.fields["points"] = std::to_string(sc.length);
        f.fields["peer_count"] = std::to_string(tracks.size() - 1);
        if (sc.worst != f.at)
            f.others.emplace_back(t, sc.worst);
        if (sc.peer)
            f.others.push_back(*sc.peer);
        out.push_back(std::move(f));
    }
}

// One finding for the job from where each series went low for good (`drop`: its first point of the low run
// that lasts to its end): dated from the first drop, its interval reaching from the point before the
// earliest drop to the latest drop; `until` is the first series' end, when every series was still low.
MetricFinding jobFinding(const std::vector<const MetricTrack*>& tracks, const std::vector<size_t>& drop)
{
    auto timeOf = [&](size_t t) { return tracks[t]->points[drop[t]].timeNs; };
    auto endOf = [&](size_t t) { return tracks[t]->points.back().timeNs; };
    size_t first = 0, last = 0, ends = 0;
    for (size_t t = 1; t < tracks.size(); ++t) {
        if (timeOf(t) < timeOf(first))
            first = t;
        if (timeOf(t) >= timeOf(last))
            last = t;
        if (endOf(t) < endOf(ends))
            ends = t;
    }
    MetricFinding f = at(first, tracks[first]->points, drop[first]);
    f.fields["series_count"] = std::to_string(tracks.size());
    f.latestNs = timeOf(last);
    if (last != first)
        f.others.emplace_back(last, drop[last]);
    f.until = {ends, tracks[ends]->points.size() - 1};
    return f;
}

// Every series fell to <= threshold and stayed there (GPU utilisation on every rank: the job stopped
// computing, a hang's onset).
void allBelow(const MetricRule& r, const std::vector<const MetricTrack*>& tracks, std::vector<MetricFinding>& out)
{
    if (tracks.size() < size_t(r.minPeers))
        return;
    std::vector<size_t> drop(tracks.size());
    for (size_t t = 0; t < tracks.size(); ++t) {
        const auto& p = tracks[t]->points;
        size_t i = p.size();
        while (i > 0 && p[i - 1].value <= r.threshold)
            --i;
        if (i == 0 || i == p.size())
            return; // never above (idle all along), or not below at its end
        drop[t] = i;
    }
    MetricFinding f = jobFinding(tracks, drop);
    f.fields["threshold"] = formatMetricValue(r.threshold);
    out.push_back(std::move(f));
}

// Every series fell to <= fraction of its own level and stayed there to its end (GPU power on every rank:
// the kernels still run, spinning in a collective that waits, but compute nothing). A series' level at a
// point is the median of the min_points points before it; its drop is the earliest point from which no
// later value exceeds fraction x that level, at two points at least, so a dip that recovers is none, nor the
// last scrape alone (a synchronous job's slow phase), and a second fall (spinning, then the process gone) is
// part of the first.
void allFall(const MetricRule& r, const std::vector<const MetricTrack*>& tracks, std::vector<MetricFinding>& out)
{
    if (tracks.size() < size_t(r.minPeers))
        return;
    const size_t before = size_t(std::max(r.minPoints, 1));
    std::vector<size_t> drop(tracks.size());
    std::vector<double> level(before); // reused: the window's values, partly ordered
    double levelSum = 0;
    for (size_t t = 0; t < tracks.size(); ++t) {
        const auto& p = tracks[t]->points;
        size_t found = 0;
        double foundLevel = 0;
        double tailMax = -INFINITY;
        for (size_t i = p.size(); i-- > before;) {
            tailMax = std::max(tailMax, p[i].value);
            for (size_t k = 0; k < before; ++k)
                level[k] = p[i - before + k].value;
            std::nth_element(level.begin(), level.begin() + long(before / 2), level.end());
            const double lv = level[before / 2];
            if (lv > 0 && tailMax <= r.fraction * lv) {
                found = i;
                foundLevel = lv;
            }
        }
        if (found == 0 || found + 1 >= p.size())
            return; // this series did not fall for good (or only at its last point): the job did not stop
        drop[t] = found;
        levelSum += foundLevel;
    }
    MetricFinding f = jobFinding(tracks, drop);
    f.fields["percent"] = formatMetricValue(std::round(r.fraction * 100));
    f.fields["level"] = formatMetricValue(std::round(levelSum / double(tracks.size())));
    out.push_back(std::move(f));
}

} // namespace

std::string formatMetricValue(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "+Inf" : "-Inf";
    char b[48];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(b, sizeof b, "%lld", static_cast<long long>(v));
    else
        std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}

std::vector<MetricFinding> detectMetric(const MetricRule& rule, const std::vector<MetricTrack>& tracks)
{
    std::vector<const MetricTrack*> of;
    of.reserve(tracks.size());
    for (const MetricTrack& t : tracks)
        of.push_back(&t);
    return detectMetric(rule, of);
}

std::vector<MetricFinding> detectMetric(const MetricRule& rule, const std::vector<const MetricTrack*>& tracks)
{
    std::vector<MetricFinding> out;
    switch (rule.kind) {
    case MetricKind::Peers:
        peers(rule, tracks, out);
        return out;
    case MetricKind::AllBelow:
        allBelow(rule, tracks, out);
        return out;
    case MetricKind::AllFall:
        allFall(rule, tracks, out);
        return out;
    default:
        break;
    }
    for (size_t t = 0; t < tracks.size(); ++t) {
        const auto& p = tracks[t]->points;
        switch (rule.kind) {
        case MetricKind::Increase: increases(rule, t, p, out); break;
        case MetricKind::Above:
        case MetricKind::Below: crossings(rule, t, p, out); break;
        case MetricKind::Change: changes(rule, t, p, out); break;
        case MetricKind::Bits: bits(rule, t, p, out); break;
        case MetricKind::WindowCount: windowCounts(rule, t, *tracks[t], out); break;
        default: break;
        }
    }
    return out;
}

std::string promLabels(const std::map<std::string, std::string>& labels)
{
    if (labels.empty())
        return {};
    std::string s = "{";
    for (const auto& [k, v] : labels) {
        if (s.size() > 1)
            s += ',';
        s += k + "=\"";
        for (char c : v) {
            if (c == '"' || c == '\\')
                s += '\\';
            s += c == '\n' ? 'n' : c;
        }
        s += '"';
    }
    return s + "}";
}

FieldMap metricEventFields(const Rule& rule, const MetricFinding& finding, const std::map<std::string, std::string>& labels,
                           std::string& symptom)
{
    FieldMap f;
    for (const auto& [k, v] : labels)
        if (!k.empty() && k[0] != '_' && k != "node" && k != "rank" && k != "gpu" && k != "pci")
            f[k] = v;
    for (const auto& [k, v] : finding.fields)
        f[k] = v;
    f["series"] = rule.metric ? rule.metric->series : std::string();
    f["labels"] = promLabels(labels);
    for (const auto& [k, tmpl] : rule.emitFields)
        if (k.empty() || k[0] != '@')
            f[k] = expandTemplate(tmpl, f);
    symptom = expandTemplate(rule.emitSymptom.str(), f);
    return f;
}

} // namespace fl
