// TRENDS (see trends.h): series judged over many lines, one derived event per
// finding. The thresholds are the rule's (rules/trends.jsonc); nothing here
// knows a framework's log format.
#include "engine/trends.h"
#include "engine/internal.h"
#include "parse/cursor.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <tuple>

namespace fl::detail {

namespace {

bool finite(const SeriesPoint& p) { return std::isfinite(p.value); }

double median(std::vector<double> v)
{
    if (v.empty())
        return std::nan("");
    const size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + long(mid), v.end());
    double m = v[mid];
    if (v.size() % 2 == 0)
        m = (m + *std::max_element(v.begin(), v.begin() + long(mid))) / 2;
    return m;
}

std::string fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string stepText(const SeriesPoint& p)
{
    return std::isfinite(p.step) ? fixed(p.step, 0) : std::string();
}

std::string stepRange(const SeriesPoint& a, const SeriesPoint& b)
{
    const std::string x = stepText(a), y = stepText(b);
    if (x.empty() || y.empty())
        return {};
    return x == y ? x : x + "-" + y;
}

// The last `last` finite points of a series (indices into points).
std::vector<size_t> window(const TrendSeries& s, int last)
{
    std::vector<size_t> w;
    for (size_t i = s.points.size(); i-- > 0 && w.size() < size_t(last);)
        if (finite(s.points[i]))
            w.push_back(i);
    std::reverse(w.begin(), w.end());
    return w;
}

std::vector<size_t> sortedUnique(std::vector<size_t> v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

// Each series' (key, point) pairs by ascending key, one per key.
using Keyed = std::vector<std::pair<double, size_t>>;

// Steps align the series when every point printed one; else the k-th point from the end of each series is
// compared with the others' k-th. Sorted vectors, not a std::map per series (10,000 ranks: 120,000 map nodes).
// Of two points of one step in the window the newer print is kept, as the map's assignment in window order
// (oldest first) kept it. `judged`: the series with enough points to be judged.
std::vector<Keyed> keyedSeries(const Trend& t, const std::vector<TrendSeries>& series, size_t& judged)
{
    bool steps = true;
    for (const auto& s : series)
        for (const auto& p : s.points)
            steps = steps && std::isfinite(p.step);
    std::vector<Keyed> at(series.size());
    judged = 0;
    for (size_t s = 0; s < series.size(); ++s) {
        const auto w = window(series[s], t.last);
        Keyed keyed;
        keyed.reserve(w.size());
        for (size_t k = 0; k < w.size(); ++k)
            keyed.emplace_back(steps ? series[s].points[w[k]].step : double(k) - double(w.size()), w[k]);
        std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        Keyed& one = at[s];
        one.reserve(keyed.size());
        for (const auto& kp : keyed) {
            if (!one.empty() && !(one.back().first < kp.first))
                one.back() = kp;
            else
                one.push_back(kp);
        }
        judged += w.size() >= size_t(t.minPoints) ? 1 : 0;
    }
    return at;
}

// Every series' value at each key, sorted once: a series' peers at a key are these minus its own value, so
// their median is read by index instead of gathering and selecting the other series' values for every series
// (quadratic in the ranks: 80 % of analyze on 10,000 ranks).
std::map<double, std::vector<double>> valuesAtKeys(const std::vector<TrendSeries>& series, const std::vector<Keyed>& at)
{
    std::map<double, std::vector<double>> valuesAt;
    for (size_t s = 0; s < series.size(); ++s)
        for (const auto& [key, pi] : at[s])
            valuesAt[key].push_back(series[s].points[pi].value);
    for (auto& [key, values] : valuesAt)
        std::sort(values.begin(), values.end());
    return valuesAt;
}

// The median of `all` with one element equal to `own` left out, as median() computes it.
double peerMedian(const std::vector<double>& all, double own)
{
    const size_t skip = size_t(std::lower_bound(all.begin(), all.end(), own) - all.begin());
    auto nth = [&](size_t j) { return all[j < skip ? j : j + 1]; };
    const size_t n = all.size() - 1, mid = n / 2;
    return n % 2 == 0 ? (nth(mid) + nth(mid - 1)) / 2 : nth(mid);
}

// One series against its peers at every key: how often, and how much, it was slower.
struct Slowness {
    size_t compared = 0, slow = 0;
    std::vector<double> ratios, slowValues, peerMedians;
    std::optional<size_t> onset, worst;
    double worstRatio = 0, worstKey = 0;
};

Slowness slownessOf(const Trend& t, const TrendSeries& series, const Keyed& keyed,
                    const std::map<double, std::vector<double>>& valuesAt)
{
    Slowness out;
    for (const auto& [key, pi] : keyed) {
        const std::vector<double>& all = valuesAt.at(key);
        if (all.size() < 3) // fewer than two peers
            continue;
        const double v = series.points[pi].value;
        const double m = peerMedian(all, v);
        if (!(m > 0))
            continue;
        ++out.compared;
        const double r = v / m;
        if (r < t.factor)
            continue;
        ++out.slow;
        out.ratios.push_back(r);
        out.slowValues.push_back(v);
        out.peerMedians.push_back(m);
        if (!out.onset)
            out.onset = pi;
        if (!out.worst || r > out.worstRatio) {
            out.worst = pi;
            out.worstRatio = r;
            out.worstKey = key;
        }
    }
    return out;
}

// The peer whose value at the worst step is the peers' median: the line to compare with.
std::optional<std::pair<size_t, size_t>> medianPeer(const std::vector<TrendSeries>& series, const std::vector<Keyed>& at,
                                                    size_t s, const Slowness& slow)
{
    std::optional<std::pair<size_t, size_t>> peer;
    double best = 0;
    const double peersMedian = median(slow.peerMedians);
    for (size_t o = 0; o < series.size(); ++o) {
        if (o == s)
            continue;
        auto it = std::lower_bound(at[o].begin(), at[o].end(), slow.worstKey,
                                   [](const std::pair<double, size_t>& kp, double key) { return kp.first < key; });
        if (it == at[o].end() || slow.worstKey < it->first)
            continue;
        const double d = std::fabs(series[o].points[it->second].value - peersMedian);
        if (!peer || d < best) {
            peer = std::make_pair(o, it->second);
            best = d;
        }
    }
    return peer;
}

std::vector<TrendFinding> stragglers(const Trend& t, const std::vector<TrendSeries>& series)
{
    size_t judged = 0;
    const std::vector<Keyed> at = keyedSeries(t, series, judged);
    if (judged < 3) // a straggler needs at least two peers to be slower than
        return {};
    const std::map<double, std::vector<double>> valuesAt = valuesAtKeys(series, at);

    std::vector<TrendFinding> out;
    const size_t allowed = std::max<size_t>(1, judged / 4);
    for (size_t s = 0; s < series.size(); ++s) {
        if (at[s].size() < size_t(t.minPoints))
            continue;
        const Slowness slow = slownessOf(t, series[s], at[s], valuesAt);
        if (slow.compared < size_t(t.minPoints) || double(slow.slow) < t.share * double(slow.compared) || !slow.onset)
            continue;
        TrendFinding f;
        f.series = s;
        f.onset = *slow.onset;
        const size_t first = at[s].front().second, last = at[s].back().second;
        f.evidence = sortedUnique({first, *slow.onset, *slow.worst, last});
        f.peer = medianPeer(series, at, s, slow);
        const SeriesUnit unit = series[s].points[*slow.onset].unit;
        f.fields["series"] = t.series;
        f.fields["ratio"] = fixed(median(slow.ratios), 2);
        f.fields["value"] = formatSeriesValue(median(slow.slowValues), unit);
        f.fields["peers"] = formatSeriesValue(median(slow.peerMedians), unit);
        f.fields["slow_points"] = std::to_string(slow.slow) + " of " + std::to_string(slow.compared);
        f.fields["peer_count"] = std::to_string(judged - 1);
        if (auto r = stepRange(series[s].points[first], series[s].points[last]); !r.empty())
            f.fields["steps"] = r;
        out.push_back(std::move(f));
        // A straggler is the odd one out: when many are "slow", the median is not
        // the peers' speed (two groups, a job-wide change): nothing is concluded.
        if (out.size() > allowed)
            return {};
    }
    return out;
}

std::optional<TrendFinding> spike(const Trend& t, const TrendSeries& s)
{
    std::vector<size_t> f;
    for (size_t i = 0; i < s.points.size(); ++i)
        if (finite(s.points[i]))
            f.push_back(i);
    std::optional<TrendFinding> recoveredOne;
    for (size_t j = 1; j < f.size(); ++j) {
        const size_t from = j > size_t(t.last) ? j - size_t(t.last) : 0;
        if (j - from < size_t(t.minPoints))
            continue;
        std::vector<double> base;
        for (size_t k = from; k < j; ++k)
            base.push_back(s.points[f[k]].value);
        const double b = median(base);
        const double v = s.points[f[j]].value;
        if (!(b > 0) || v < t.factor * b)
            continue;
        bool recovered = false;
        for (size_t k = j + 1; k < f.size() && !recovered; ++k)
            recovered = s.points[f[k]].value <= b * (1 + t.recovery);
        if (recovered && recoveredOne)
            continue;
        TrendFinding r;
        r.onset = f[j];
        r.evidence = sortedUnique({f[from], f[j - 1], f[j], s.points.size() - 1});
        const SeriesUnit unit = s.points[f[j]].unit;
        r.fields["ratio"] = fixed(v / b, 2);
        r.fields["value"] = formatSeriesValue(v, unit);
        r.fields["baseline"] = formatSeriesValue(b, unit);
        r.fields["last"] = formatSeriesValue(s.points.back().value, unit);
        r.fields["recovered"] = recovered ? "yes" : "no";
        if (auto st = stepText(s.points[f[j]]); !st.empty())
            r.fields["step"] = st;
        if (!recovered)
            return r; // a spike the series never came back from is the finding
        recoveredOne = std::move(r);
    }
    return recoveredOne;
}

std::optional<TrendFinding> growth(const Trend& t, const TrendSeries& s)
{
    const auto w = window(s, t.last);
    if (w.size() < size_t(t.minPoints) || w.size() < 2)
        return std::nullopt;
    size_t rises = 0;
    for (size_t k = 1; k < w.size(); ++k) {
        const double a = s.points[w[k - 1]].value, b = s.points[w[k]].value;
        if (b < a * 0.99) // a drop is a release: not a leak
            return std::nullopt;
        rises += b > a ? 1 : 0;
    }
    const double a = s.points[w.front()].value, b = s.points[w.back()].value;
    if (!(a > 0) || double(rises) < t.share * double(w.size() - 1) || b / a - 1 < t.minGrowth)
        return std::nullopt;
    TrendFinding f;
    f.onset = w.front();
    f.evidence = sortedUnique({w.front(), w[w.size() / 2], w.back()});
    const SeriesUnit unit = s.points[w.front()].unit;
    f.fields["from"] = formatSeriesValue(a, unit);
    f.fields["to"] = formatSeriesValue(b, unit);
    f.fields["growth"] = "+" + fixed(100 * (b / a - 1), 0) + "%";
    f.fields["points"] = std::to_string(w.size());
    if (auto r = stepRange(s.points[w.front()], s.points[w.back()]); !r.empty())
        f.fields["steps"] = r;
    return f;
}

} // namespace

bool parseSeriesValue(std::string_view value, std::string_view unit, double& out, SeriesUnit& kind)
{
    while (!value.empty() && (value.front() == ' ' || value.front() == '+'))
        value.remove_prefix(1);
    // Every step line gives two or three of these: no copies of the text are made.
    const auto is = [&](std::string_view word) {
        return value.size() == word.size() &&
               std::equal(value.begin(), value.end(), word.begin(), [](char a, char b) { return cursor::lower(a) == b; });
    };
    if (is("nan") || is("-nan")) {
        out = std::nan("");
    } else if (is("inf") || is("infinity")) {
        out = HUGE_VAL;
    } else if (is("-inf") || is("-infinity")) {
        out = -HUGE_VAL;
    } else if (value.find(',') == std::string_view::npos) {
        const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
        if (ec != std::errc() || p != value.data() + value.size() || value.empty())
            return false;
    } else {
        // Thousands separators ("1,234 tps") are printed by some loggers.
        std::string digits;
        for (char c : value)
            if (c != ',')
                digits.push_back(c);
        const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
        if (ec != std::errc() || p != digits.data() + digits.size() || digits.empty())
            return false;
    }
    static const std::map<std::string, std::pair<double, SeriesUnit>, std::less<>> units{
        {"", {1, SeriesUnit::None}},
        {"us", {1e-6, SeriesUnit::Seconds}},      {"ms", {1e-3, SeriesUnit::Seconds}},
        {"s", {1, SeriesUnit::Seconds}},          {"sec", {1, SeriesUnit::Seconds}},
        {"B", {1, SeriesUnit::Bytes}},
        // Training frameworks print KB/MB/GB computed with 1024 (torch.cuda.memory_allocated() / 2**20).
        {"KB", {1024.0, SeriesUnit::Bytes}},      {"KiB", {1024.0, SeriesUnit::Bytes}},
        {"MB", {1048576.0, SeriesUnit::Bytes}},   {"MiB", {1048576.0, SeriesUnit::Bytes}},
        {"GB", {1073741824.0, SeriesUnit::Bytes}}, {"GiB", {1073741824.0, SeriesUnit::Bytes}},
    };
    auto it = units.find(unit);
    if (it == units.end())
        return false;
    out *= it->second.first;
    kind = it->second.second;
    return true;
}

std::string formatSeriesValue(double v, SeriesUnit unit)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    switch (unit) {
    case SeriesUnit::Seconds:
        return std::fabs(v) < 1 ? fixed(v * 1000, 1) + " ms" : fixed(v, 2) + " s";
    case SeriesUnit::Bytes:
        return std::fabs(v) >= 1073741824.0 ? fixed(v / 1073741824.0, 2) + " GiB" : fixed(v / 1048576.0, 1) + " MiB";
    case SeriesUnit::None:
        break;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::vector<TrendFinding> findTrends(const Trend& trend, const std::vector<TrendSeries>& series)
{
    if (trend.kind == TrendKind::Straggler)
        return stragglers(trend, series);
    std::vector<TrendFinding> out;
    for (size_t s = 0; s < series.size(); ++s) {
        auto f = trend.kind == TrendKind::Spike ? spike(trend, series[s]) : growth(trend, series[s]);
        if (!f)
            continue;
        f->series = s;
        f->fields["series"] = trend.series;
        out.push_back(std::move(*f));
    }
    return out;
}

namespace {

// The series of one rank as its lines place it; lines that name no rank are
// kept apart by node and launcher label, else by file.
struct SeriesKey {
    std::string node;
    int rank = -1;
    int localRank = -1;
    int task = -1;
    uint32_t file = 0;
    auto tie() const { return std::tie(node, rank, localRank, task, file); }
    bool operator<(const SeriesKey& o) const { return tie() < o.tie(); }
};

// Straggler by node: each node's series is, per step, the median of its ranks;
// its line is the slowest rank's at that step.
std::vector<TrendSeries> byNode(const std::vector<TrendSeries>& ranks)
{
    std::map<std::string, std::map<double, std::vector<SeriesPoint>>> perNode;
    for (const auto& s : ranks) {
        auto& steps = perNode[s.node];
        for (const auto& p : s.points)
            if (finite(p) && std::isfinite(p.step))
                steps[p.step].push_back(p);
    }
    std::vector<TrendSeries> out;
    for (auto& [node, steps] : perNode) {
        TrendSeries n;
        n.node = node;
        for (auto& [step, pts] : steps) {
            std::vector<double> v;
            for (const auto& p : pts)
                v.push_back(p.value);
            SeriesPoint slowest = *std::max_element(pts.begin(), pts.end(), [](const SeriesPoint& a, const SeriesPoint& b) {
                return std::tie(a.value, b.observation) < std::tie(b.value, a.observation);
            });
            slowest.value = median(v);
            slowest.rank = -1;
            n.points.push_back(slowest);
        }
        out.push_back(std::move(n));
    }
    return out;
}

} // namespace

uint32_t emitTrend(const State& state, const Rule& rule, std::vector<SymptomEvent>& events,
                   std::vector<TraceStep>* trace)
{
    const Trend& t = *rule.trend;
    auto found = state.series.find(t.series);
    if (found == state.series.end())
        return 0;
    std::map<SeriesKey, TrendSeries> grouped;
    // A file's points come one after another (the scan commits file by file): most find the series of the
    // point before, without a look-up in the map (10,000 ranks: 120,000 points, ~15 string compares each).
    auto last = grouped.end();
    for (const SeriesPoint& p : found->second) {
        const Observation& o = state.observations[p.observation];
        SeriesKey k{o.node, p.rank >= 0 ? p.rank : o.rank, o.localRank, o.task, 0};
        if (k.rank < 0 && k.localRank < 0 && k.task < 0)
            k.file = o.ref.file.value;
        if (k.rank >= 0)
            k.localRank = k.task = -1;
        if (last == grouped.end() || last->first.tie() != k.tie())
            last = grouped.try_emplace(std::move(k)).first;
        TrendSeries& s = last->second;
        s.node = last->first.node;
        s.rank = last->first.rank;
        s.points.push_back(p);
    }
    std::vector<TrendSeries> series;
    for (auto& [k, s] : grouped)
        series.push_back(std::move(s));
    if (t.kind == TrendKind::Straggler && t.by == "node")
        series = byNode(series);

    std::vector<TrendFinding> findings = findTrends(t, series);
    auto onsetTime = [&](const TrendFinding& f) {
        return state.observations[series[f.series].points[f.onset].observation].time.ns;
    };
    if (t.by == "job" && findings.size() > 1) {
        // One event for the job (a loss every rank prints is one loss): the earliest onset.
        auto first = std::min_element(findings.begin(), findings.end(), [&](const TrendFinding& a, const TrendFinding& b) {
            return std::make_tuple(onsetTime(a), a.series) < std::make_tuple(onsetTime(b), b.series);
        });
        findings = {std::move(*first)};
    }

    uint32_t emitted = 0;
    for (TrendFinding& f : findings) {
        const TrendSeries& s = series[f.series];
        const Observation& onset = state.observations[s.points[f.onset].observation];
        SymptomEvent ev;
        ev.id = EventId(static_cast<uint32_t>(events.size()));
        ev.kind = EventKind::BadNode;
        if (t.by != "job") {
            ev.node = s.node;
            ev.rank = s.rank;
            ev.gpuIndex = t.by == "node" ? -1 : onset.gpuIndex;
        }
        ev.time = onset.time;
        ev.clockNode = onset.node;
        ev.observations.push_back(onset.id);
        for (size_t i : f.evidence)
            if (const ObservationId id(s.points[i].observation); id != onset.id)
                ev.observations.push_back(id);
        if (f.peer)
            ev.observations.push_back(ObservationId(series[f.peer->first].points[f.peer->second].observation));
        ev.fields = f.fields;
        for (const auto& [k, tmpl] : t.fields)
            ev.fields[k] = expandTemplate(tmpl, f.fields);
        ev.symptom = expandTemplate(t.symptom, ev.fields);
        ev.originalSymptom = ev.symptom;
        ev.extractedBy = sharedRuleId(rule);
        if (trace && emitted < 200)
            trace->push_back({rule.phase, rule.id, TraceAction::Emitted, {ev.id},
                              ev.symptom.str() + " @ " + (ev.node.empty() ? std::string("job") : ev.node) +
                                  (ev.rank >= 0 ? " rank " + std::to_string(ev.rank) : std::string()),
                              {}});
        events.push_back(std::move(ev));
        ++emitted;
    }
    return emitted;
}

} // namespace fl::detail
