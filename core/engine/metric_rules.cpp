#include "engine/metric_rules.h"

#include "engine/clock_offsets.h"
#include "placement/placement.h"
#include "rules/ruleset.h"
#include "rules/template.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <span>
#include <tuple>

namespace fl::detail {

namespace {

// Labels that come and go on one device's series (the pod the GPU is given to, the exporter's own
// details): a series keeps its identity (its node, GPU and every other label) when they change.
constexpr std::string_view kVolatileLabels[] = {
    "pod", "namespace", "container", "job", "instance", "Hostname", "hostname", "host", "node", "pod_uid", "uid",
    "service", "endpoint", "prometheus", "prometheus_replica", "cluster", "modelName", "DCGM_FI_DRIVER_VERSION",
    "DCGM_FI_NVML_VERSION", "DCGM_FI_DEV_BRAND", "DCGM_FI_DEV_NAME", "DCGM_FI_DEV_SERIAL", "DCGM_FI_DEV_VBIOS_VERSION",
    "DCGM_FI_PROCESS_NAME", "err_code", "err_msg"};

// Asked of every label of every read series: the texts of its length only are compared.
bool isVolatileLabel(std::string_view k)
{
    constexpr size_t kLongest = 32;
    static const auto byLength = [] {
        std::array<std::vector<std::string_view>, kLongest> t;
        for (std::string_view v : kVolatileLabels)
            t.at(v.size()).push_back(v);
        return t;
    }();
    if (k.size() >= kLongest)
        return false;
    for (std::string_view v : byLength[k.size()])
        if (v == k)
            return true;
    return false;
}

// A series' identity (name, node, GPU and its lasting labels) hashed without building it as text: a key
// string, a map node and a member vector per series were most of what grouping a file's series cost.
uint64_t identityHash(const MetricSeries& s)
{
    const std::hash<std::string_view> h;
    uint64_t v = h(s.name);
    const auto mix = [&](uint64_t x) { v ^= x + 0x9e3779b97f4a7c15ULL + (v << 6) + (v >> 2); };
    mix(h(s.node));
    mix(static_cast<uint64_t>(s.gpu));
    for (const auto& [k, val] : s.labels)
        if (!isVolatileLabel(k)) {
            mix(h(k));
            mix(h(val));
        }
    return v;
}

bool sameIdentity(const MetricSeries& a, const MetricSeries& b)
{
    if (a.name != b.name || a.node != b.node || a.gpu != b.gpu)
        return false;
    auto i = a.labels.begin(), j = b.labels.begin();
    while (true) {
        while (i != a.labels.end() && isVolatileLabel(i->first))
            ++i;
        while (j != b.labels.end() && isVolatileLabel(j->first))
            ++j;
        if (i == a.labels.end() || j == b.labels.end())
            return i == a.labels.end() && j == b.labels.end();
        if (*i != *j)
            return false;
        ++i, ++j;
    }
}

// The file's series of the read names grouped by identity: each group's members in the parser's order
// (name, node, GPU, labels), the groups in the order of their first member.
struct IdentityGroups {
    std::vector<MetricSeries*> members; // group by group
    std::vector<size_t> starts;         // each group's first member, then members.size()
    size_t size() const { return starts.size() - 1; }
    std::span<MetricSeries* const> operator[](size_t i) const
    {
        return {members.data() + starts[i], starts[i + 1] - starts[i]};
    }
};

IdentityGroups identityGroups(std::vector<MetricSeries>& series, const MetricNames& names)
{
    struct Keyed {
        uint64_t hash;
        uint32_t index;
        uint32_t group;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(series.size());
    const MetricSeries* lastNamed = nullptr; // the series come grouped by name: a name is looked up once
    bool read = false;
    for (size_t i = 0; i < series.size(); ++i) {
        const MetricSeries& s = series[i];
        if (!lastNamed || s.name != lastNamed->name)
            read = names.count(s.name) > 0;
        lastNamed = &s;
        if (read)
            keyed.push_back({identityHash(s), static_cast<uint32_t>(i), 0});
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
        return a.hash != b.hash ? a.hash < b.hash : a.index < b.index;
    });
    // Within a run of one hash, a series joins the first earlier one of its identity (a collision: another group).
    for (size_t run = 0; run < keyed.size();) {
        size_t end = run + 1;
        while (end < keyed.size() && keyed[end].hash == keyed[run].hash)
            ++end;
        for (size_t k = run; k < end; ++k) {
            keyed[k].group = keyed[k].index;
            for (size_t e = run; e < k; ++e)
                if (keyed[e].group == keyed[e].index && sameIdentity(series[keyed[e].index], series[keyed[k].index])) {
                    keyed[k].group = keyed[e].index;
                    break;
                }
        }
        run = end;
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
        return a.group != b.group ? a.group < b.group : a.index < b.index;
    });
    IdentityGroups g;
    g.members.reserve(keyed.size());
    for (size_t k = 0; k < keyed.size(); ++k) {
        if (k == 0 || keyed[k].group != keyed[k - 1].group)
            g.starts.push_back(k);
        g.members.push_back(&series[keyed[k].index]);
    }
    g.starts.push_back(keyed.size());
    return g;
}

// How far a sample's text reaches: its line (OpenMetrics, CSV), or its [time, "value"] pair (JSON).
uint32_t sampleLength(std::string_view data, uint64_t offset)
{
    if (offset >= data.size())
        return 0;
    // Looked for within the longest length kept: a JSON result is often one line of every sample of a series.
    const std::string_view rest = data.substr(offset, 4096);
    if (rest[0] == '[') {
        const size_t close = rest.find(']');
        if (close != std::string_view::npos && rest.substr(0, close).find('\n') == std::string_view::npos)
            return static_cast<uint32_t>(close + 1);
    }
    size_t end = rest.find('\n');
    end = offset + (end == std::string_view::npos ? rest.size() : end);
    while (end > offset && (data[end - 1] == '\r' || data[end - 1] == ' '))
        --end;
    return static_cast<uint32_t>(std::min<size_t>(end - offset, 4096));
}

// Every sample timed and finite, each later in time and in the file than the one before: nothing to leave
// out, reorder or say, so the series' samples are its track as they are.
bool clean(const std::vector<MetricSample>& samples)
{
    for (size_t i = 0; i < samples.size(); ++i) {
        const MetricSample& s = samples[i];
        if (s.timeNs == kNoTime || !std::isfinite(s.value))
            return false;
        if (i > 0 && (s.timeNs <= samples[i - 1].timeNs || s.offset <= samples[i - 1].offset))
            return false;
    }
    return true;
}

// A GPU's PCI address comes on each of its fields' series: normalised once per address and file.
class PciNames {
public:
    const std::string& operator()(const std::string& raw)
    {
        for (const auto& [r, n] : seen_)
            if (r == raw)
                return n;
        if (seen_.size() == kMax)
            seen_.pop_back();
        seen_.emplace_back(raw, normalizePciAddress(raw));
        return seen_.back().second;
    }

private:
    static constexpr size_t kMax = 64; // a node's GPUs and NICs; more only cost a normalisation each
    std::vector<std::pair<std::string, std::string>> seen_;
};

// One kind of thing left out or reordered, per file: how many, the first line and its series (named as
// it first comes: at most one text per kind and file, and the series may be moved into its track after).
struct Tally {
    uint64_t count = 0;
    uint32_t firstLine = 0;
    std::string firstSeries;
    void add(uint32_t line, const MetricSeries& series)
    {
        if (count++ == 0) {
            firstLine = line;
            firstSeries = series.name + promLabels(series.labels);
        }
    }
};

// The times at which the file has a sample of another series of t's name on its node and GPU (the same
// count for another Xid, or none) but none of t: a windowed count was 0 there.
std::vector<int64_t> absentScrapes(const MetricTrackData& t, const std::vector<const MetricTrackData*>& all)
{
    std::vector<int64_t> scraped;
    for (const MetricTrackData* s : all)
        if (s != &t && s->name == t.name && s->node == t.node && s->gpu == t.gpu)
            for (const MetricPoint& p : s->track.points)
                scraped.push_back(p.timeNs);
    std::sort(scraped.begin(), scraped.end());
    scraped.erase(std::unique(scraped.begin(), scraped.end()), scraped.end());
    std::vector<int64_t> absent;
    auto own = t.track.points.begin();
    for (int64_t ns : scraped) {
        while (own != t.track.points.end() && own->timeNs < ns)
            ++own;
        if (own == t.track.points.end() || own->timeNs != ns)
            absent.push_back(ns);
    }
    return absent;
}

} // namespace

MetricNames metricRuleSeries(const RuleSet& rules, bool acrossOnly)
{
    MetricNames out;
    for (const Rule& r : rules.rules())
        if (r.metric && (!acrossOnly || r.metric->acrossSeries()))
            out.insert(r.metric->series);
    return out;
}

std::vector<MetricTrackData> metricTracks(std::vector<MetricSeries>& series, SeriesAfter after, const MetricNames& names,
                                          const MetricNames& counters, FileId file, const std::string& path,
                                          std::vector<std::string>& notes)
{
    const IdentityGroups groups = identityGroups(series, names);
    Tally nonFinite, untimed, unordered, repeated, resets;
    std::vector<std::string> relabelled;
    std::vector<MetricTrackData> out;
    out.reserve(groups.size());
    struct Raw {
        const MetricSample* s;
        size_t member;
    };
    std::vector<Raw> raw; // one series' samples at a time, the buffer reused
    PciNames pciOf;
    for (size_t g = 0; g < groups.size(); ++g) {
        const std::span<MetricSeries* const> members = groups[g];
        if (std::all_of(members.begin(), members.end(), [](const MetricSeries* m) { return m->samples.empty(); }))
            continue;
        // The label set that changed: the series continues under its new labels (file order decides which is new).
        if (members.size() > 1) {
            size_t latest = 0;
            uint32_t changedAt = 0;
            for (size_t m = 1; m < members.size(); ++m)
                if (!members[m]->samples.empty() && !members[latest]->samples.empty() &&
                    members[m]->samples.front().line > members[latest]->samples.front().line) {
                    latest = m;
                    changedAt = members[m]->samples.front().line;
                }
            relabelled.push_back(members[0]->name + promLabels(members[0]->labels) + " has " +
                                 std::to_string(members.size()) + " label sets" +
                                 (changedAt ? " (a new one from line " + std::to_string(changedAt) + ")" : std::string()) +
                                 ": judged as one series of its node, GPU and device");
        }
        MetricSeries& last = **std::max_element(members.begin(), members.end(), [](const MetricSeries* a, const MetricSeries* b) {
            const uint32_t la = a->samples.empty() ? 0 : a->samples.back().line;
            const uint32_t lb = b->samples.empty() ? 0 : b->samples.back().line;
            return la < lb;
        });
        const MetricSeries& shown = last;
        const bool counter = counters.count(last.name) > 0;
        MetricTrackData t;
        t.file = file;
        t.gpu = last.gpu;
        if (auto p = last.labels.find("pci_bus_id"); p != last.labels.end())
            t.pci = pciOf(p->second);
        if (members.size() == 1 && clean(last.samples)) {
            // The usual series: its samples are the track's points as they are.
            if (counter)
                for (size_t i = 1; i < last.samples.size(); ++i)
                    if (last.samples[i].value < last.samples[i - 1].value)
                        resets.add(last.samples[i].line, shown);
            if (after == SeriesAfter::Dropped)
                t.track.points = std::move(last.samples);
            else
                t.track.points = last.samples;
        } else {
            raw.clear();
            for (size_t m = 0; m < members.size(); ++m)
                for (const MetricSample& s : members[m]->samples)
                    raw.push_back({&s, m});
            const auto byTime = [](const Raw& a, const Raw& b) { return std::tie(a.s->timeNs, a.s->offset) < std::tie(b.s->timeNs, b.s->offset); };
            const auto byOffset = [](const Raw& a, const Raw& b) { return a.s->offset < b.s->offset; };
            // The parser sorted each series by time: in time order and in file order at once, the exporter
            // wrote nothing out of time order.
            if (!std::is_sorted(raw.begin(), raw.end(), byTime))
                std::stable_sort(raw.begin(), raw.end(), byTime);
            if (!std::is_sorted(raw.begin(), raw.end(), byOffset)) {
                std::vector<Raw> byFile = raw;
                std::sort(byFile.begin(), byFile.end(), byOffset);
                for (size_t i = 1; i < byFile.size(); ++i)
                    if (byFile[i].s->timeNs != kNoTime && byFile[i - 1].s->timeNs != kNoTime && byFile[i].s->timeNs < byFile[i - 1].s->timeNs)
                        unordered.add(byFile[i].s->line, shown);
            }
            std::vector<MetricPoint>& points = t.track.points;
            points.reserve(raw.size());
            for (const Raw& r : raw) {
                const MetricSample& s = *r.s;
                if (s.timeNs == kNoTime) {
                    untimed.add(s.line, shown);
                    continue;
                }
                if (!std::isfinite(s.value)) {
                    nonFinite.add(s.line, shown);
                    continue;
                }
                if (!points.empty() && points.back().timeNs == s.timeNs) {
                    repeated.add(s.line, shown); // the later sample of the file stands
                    points.back() = s;
                    continue;
                }
                if (counter && !points.empty() && s.value < points.back().value)
                    resets.add(s.line, shown);
                points.push_back(s);
            }
        }
        if (t.track.points.empty())
            continue;
        if (after == SeriesAfter::Dropped) { // the series' text is the track's now: nothing reads the series again
            t.name = std::move(last.name);
            t.node = std::move(last.node);
            t.labels = std::move(last.labels);
        } else {
            t.name = last.name;
            t.node = last.node;
            t.labels = last.labels;
        }
        out.push_back(std::move(t));
    }
    auto note = [&](const Tally& tally, const char* what, const char* then) {
        if (tally.count)
            notes.push_back(path + ":" + std::to_string(tally.firstLine) + ": " + std::to_string(tally.count) + " " + what +
                            " (first: " + tally.firstSeries + "): " + then);
    };
    note(nonFinite, "metric samples are NaN or Inf", "not judged by metric rules");
    note(untimed, "metric samples have no time", "metric rules cannot date them, not judged");
    note(unordered, "metric samples come before an earlier time of their series", "judged in time order");
    note(repeated, "metric samples repeat a time of their series", "the later one in the file is judged");
    note(resets, "counter values fell (a counter reset: exporter or driver restart)", "counted again from zero");
    constexpr size_t kMaxRelabelNotes = 5;
    for (size_t i = 0; i < relabelled.size() && i < kMaxRelabelNotes; ++i)
        notes.push_back(path + ": " + relabelled[i]);
    if (relabelled.size() > kMaxRelabelNotes)
        notes.push_back(path + ": " + std::to_string(relabelled.size() - kMaxRelabelNotes) +
                        " more metric series changed their label set");
    return out;
}

void measureSampleLengths(MetricTrackData& track, std::string_view data)
{
    for (MetricPoint& p : track.track.points)
        if (p.length == 0)
            p.length = sampleLength(data, p.offset);
}

void runMetricRules(const RuleSet& rules, bool across, const std::vector<const MetricTrackData*>& tracks, uint32_t obsBase,
                    std::vector<Observation>& observations, uint32_t eventBase, std::vector<SymptomEvent>& events,
                    std::string_view data)
{
    for (const Rule& rule : rules.rules()) {
        if (!rule.metric || rule.metric->acrossSeries() != across)
            continue;
        std::vector<const MetricTrackData*> mine;
        std::vector<const MetricTrack*> input;
        for (const MetricTrackData* t : tracks)
            if (t->name == rule.metric->series &&
                std::all_of(rule.metric->labels.begin(), rule.metric->labels.end(), [&](const auto& want) {
                    auto l = t->labels.find(want.first);
                    return l != t->labels.end() && l->second == want.second;
                })) {
                mine.push_back(t);
                input.push_back(&t->track);
            }
        if (mine.empty())
            continue;
        std::vector<MetricTrack> windowed; // window_count: each track with the scrapes of its GPU it was absent at
        if (rule.metric->kind == MetricKind::WindowCount) {
            windowed.reserve(mine.size());
            for (size_t i = 0; i < mine.size(); ++i) {
                windowed.push_back(mine[i]->track);
                windowed.back().absentNs = absentScrapes(*mine[i], tracks);
                input[i] = &windowed.back();
            }
        }
        const bool job = rule.metric->jobWide();
        for (const MetricFinding& f : detectMetric(*rule.metric, input)) {
            const MetricTrackData& t = *mine[f.track];
            auto observe = [&](const MetricTrackData& of, size_t point) {
                const MetricPoint& p = of.track.points[point];
                Observation o;
                o.id = ObservationId(obsBase + static_cast<uint32_t>(observations.size()));
                o.source = SourceKind::Metrics;
                o.severity = Severity::Warning;
                o.ref.file = of.file;
                o.ref.offset = p.offset;
                o.ref.line = p.line;
                o.ref.length = p.length == 0 && !data.empty() ? sampleLength(data, p.offset) : p.length;
                o.text = of.name + promLabels(of.labels);
                if (o.text.size() > 1024)
                    o.text.resize(1024);
                o.time = {p.timeNs, TimeBasis::Absolute, {p.timeNs, p.timeNs}};
                if (!job) { // a job's event is placed nowhere: placement would put it where its first sample is
                    o.node = of.node;
                    o.gpuIndex = of.gpu;
                    o.pciBus = of.pci;
                }
                observations.push_back(std::move(o));
                return observations.back().id;
            };
            SymptomEvent ev;
            ev.id = EventId(eventBase + static_cast<uint32_t>(events.size()));
            ev.kind = rule.emitKind;
            if (!job) {
                ev.node = t.node;
                ev.gpuIndex = t.gpu;
                ev.pciBus = t.pci;
            }
            const MetricPoint& p = t.track.points[f.at];
            ev.time = {p.timeNs, TimeBasis::Absolute, {f.earliestNs, f.latestNs}};
            ev.clockNode = kMetricsClock;
            if (f.until) {
                // Every series still low at the first one's end: seen then, a wait that began at the drops, like
                // a watchdog's "ran for" (engine/onset.h reads it when no line dates a wait).
                const MetricTrackData& u = *mine[f.until->first];
                const int64_t seen = u.track.points[f.until->second].timeNs;
                ev.time = {seen, TimeBasis::Absolute, {seen, seen}};
                ev.waited = Wait{seen - f.latestNs, seen - f.earliestNs};
                ev.observations.push_back(observe(u, f.until->second));
            }
            if (!f.until || *f.until != std::pair(f.track, f.at))
                ev.observations.push_back(observe(t, f.at));
            if (f.previous)
                ev.observations.push_back(observe(t, *f.previous));
            for (const auto& [track, point] : f.others)
                ev.observations.push_back(observe(*mine[track], point));
            std::string symptom;
            ev.fields = metricEventFields(rule, f, t.labels, symptom);
            for (const auto& [k, tmpl] : rule.emitFields) {
                if (k.empty() || k[0] != '@')
                    continue;
                const std::string v = expandTemplate(tmpl, ev.fields);
                int n = -1;
                const bool number = std::from_chars(v.data(), v.data() + v.size(), n).ec == std::errc() && n >= 0;
                if (k == "@node" && !v.empty())
                    ev.node = v;
                else if (k == "@gpu" && number)
                    ev.gpuIndex = n;
                else if (k == "@rank" && number)
                    ev.rank = n;
                else if (k == "@pci" && !v.empty())
                    ev.pciBus = normalizePciAddress(v);
            }
            ev.symptom = SharedText(symptom);
            ev.originalSymptom = ev.symptom;
            ev.extractedBy = sharedRuleId(rule);
            if (!job)
                ev.file = t.file;
            events.push_back(std::move(ev));
        }
    }
}

} // namespace fl::detail
