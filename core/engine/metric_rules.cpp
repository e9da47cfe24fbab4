#include "engine/metric_rules.h"

#include "placement/placement.h"
#include "rules/ruleset.h"
#include "rules/template.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
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

std::string identityOf(const MetricSeries& s)
{
    std::string key = s.name + '\x1f' + s.node + '\x1f' + std::to_string(s.gpu);
    for (const auto& [k, v] : s.labels)
        if (std::find(std::begin(kVolatileLabels), std::end(kVolatileLabels), k) == std::end(kVolatileLabels))
            key += '\x1f' + k + '=' + v;
    return key;
}

// How far a sample's text reaches: its line (OpenMetrics, CSV), or its [time, "value"] pair (JSON).
uint32_t sampleLength(std::string_view data, uint64_t offset)
{
    if (offset >= data.size())
        return 0;
    size_t end = data.find('\n', offset);
    if (end == std::string_view::npos)
        end = data.size();
    if (data[offset] == '[') {
        const size_t close = data.find(']', offset);
        if (close != std::string_view::npos && close < end)
            end = close + 1;
    }
    while (end > offset && (data[end - 1] == '\r' || data[end - 1] == ' '))
        --end;
    return static_cast<uint32_t>(std::min<size_t>(end - offset, 4096));
}

// One kind of thing left out or reordered, per file: how many and the first line.
struct Tally {
    uint64_t count = 0;
    uint32_t firstLine = 0;
    std::string firstSeries;
    void add(uint32_t line, const std::string& series)
    {
        if (count++ == 0) {
            firstLine = line;
            firstSeries = series;
        }
    }
};

} // namespace

std::set<std::string> metricRuleSeries(const RuleSet& rules, bool acrossOnly)
{
    std::set<std::string> out;
    for (const Rule& r : rules.rules())
        if (r.metric && (!acrossOnly || r.metric->acrossSeries()))
            out.insert(r.metric->series);
    return out;
}

std::vector<MetricTrackData> metricTracks(const std::vector<MetricSeries>& series, const std::set<std::string>& names,
                                          const std::set<std::string>& counters, FileId file, std::string_view data,
                                          const std::string& path, std::vector<std::string>& notes)
{
    // identity -> the file's series of it, in the order the parser gave them (name, node, gpu, labels)
    std::map<std::string, std::vector<const MetricSeries*>> groups;
    std::vector<std::string> order;
    for (const MetricSeries& s : series) {
        if (!names.count(s.name))
            continue;
        auto [it, added] = groups.try_emplace(identityOf(s));
        if (added)
            order.push_back(it->first);
        it->second.push_back(&s);
    }
    Tally nonFinite, untimed, unordered, repeated, resets;
    std::vector<std::string> relabelled;
    std::vector<MetricTrackData> out;
    for (const std::string& key : order) {
        const auto& members = groups[key];
        struct Raw {
            const MetricSample* s;
            size_t member;
        };
        std::vector<Raw> raw;
        for (size_t m = 0; m < members.size(); ++m)
            for (const MetricSample& s : members[m]->samples)
                raw.push_back({&s, m});
        if (raw.empty())
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
        const MetricSeries& last = **std::max_element(members.begin(), members.end(), [](const MetricSeries* a, const MetricSeries* b) {
            const uint32_t la = a->samples.empty() ? 0 : a->samples.back().line;
            const uint32_t lb = b->samples.empty() ? 0 : b->samples.back().line;
            return la < lb;
        });
        const std::string shown = last.name + promLabels(last.labels);
        // File order says whether the exporter wrote it out of time order; the parser already sorted each series.
        std::vector<Raw> byFile = raw;
        std::sort(byFile.begin(), byFile.end(), [](const Raw& a, const Raw& b) { return a.s->offset < b.s->offset; });
        for (size_t i = 1; i < byFile.size(); ++i)
            if (byFile[i].s->timeNs != kNoTime && byFile[i - 1].s->timeNs != kNoTime && byFile[i].s->timeNs < byFile[i - 1].s->timeNs)
                unordered.add(byFile[i].s->line, shown);
        std::stable_sort(raw.begin(), raw.end(), [](const Raw& a, const Raw& b) {
            return std::tie(a.s->timeNs, a.s->offset) < std::tie(b.s->timeNs, b.s->offset);
        });
        MetricTrackData t;
        t.name = last.name;
        t.node = last.node;
        t.gpu = last.gpu;
        t.labels = last.labels;
        if (auto p = last.labels.find("pci_bus_id"); p != last.labels.end())
            t.pci = normalizePciAddress(p->second);
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
            RawRef ref;
            ref.file = file;
            ref.offset = s.offset;
            ref.line = s.line;
            ref.length = sampleLength(data, s.offset);
            if (!t.track.points.empty() && t.track.points.back().timeNs == s.timeNs) {
                repeated.add(s.line, shown); // the later sample of the file stands
                t.track.points.back().value = s.value;
                t.refs.back() = ref;
                continue;
            }
            if (counters.count(t.name) && !t.track.points.empty() && s.value < t.track.points.back().value)
                resets.add(s.line, shown);
            t.track.points.push_back({s.timeNs, s.value, static_cast<uint32_t>(t.refs.size())});
            t.refs.push_back(ref);
        }
        if (!t.track.points.empty())
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

void runMetricRules(const RuleSet& rules, bool across, const std::vector<const MetricTrackData*>& tracks, uint32_t obsBase,
                    std::vector<Observation>& observations, uint32_t eventBase, std::vector<SymptomEvent>& events)
{
    for (const Rule& rule : rules.rules()) {
        if (!rule.metric || rule.metric->acrossSeries() != across)
            continue;
        std::vector<const MetricTrackData*> mine;
        std::vector<MetricTrack> input;
        for (const MetricTrackData* t : tracks)
            if (t->name == rule.metric->series &&
                std::all_of(rule.metric->labels.begin(), rule.metric->labels.end(), [&](const auto& want) {
                    auto l = t->labels.find(want.first);
                    return l != t->labels.end() && l->second == want.second;
                })) {
                mine.push_back(t);
                input.push_back(t->track);
            }
        if (mine.empty())
            continue;
        const bool job = rule.metric->kind == MetricKind::AllBelow;
        for (const MetricFinding& f : detectMetric(*rule.metric, input)) {
            const MetricTrackData& t = *mine[f.track];
            auto observe = [&](const MetricTrackData& of, size_t point) {
                const MetricPoint& p = of.track.points[point];
                Observation o;
                o.id = ObservationId(obsBase + static_cast<uint32_t>(observations.size()));
                o.source = SourceKind::Metrics;
                o.severity = Severity::Warning;
                o.ref = of.refs[p.ref];
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
            ev.clockNode = ev.node;
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
                ev.file = t.refs.front().file;
            events.push_back(std::move(ev));
        }
    }
}

} // namespace fl::detail
