#include "rules/samples.h"

#include "bundle/text_lines.h"
#include "rules/matcher.h"
#include "rules/metric_detect.h"
#include "rules/rule.h"
#include "rules/template.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>

namespace fl {

using nlohmann::json;

namespace {

std::vector<std::string> stringOrList(const json& j, const char* key)
{
    std::vector<std::string> out;
    auto it = j.find(key);
    if (it == j.end())
        return out;
    if (it->is_string()) {
        out.push_back(it->get<std::string>());
        return out;
    }
    if (!it->is_array())
        throw std::invalid_argument(std::string("'") + key + "' must be a string or a list of strings");
    for (const auto& v : *it) {
        if (!v.is_string() || v.get<std::string>().empty())
            throw std::invalid_argument(std::string("'") + key + "' must contain non-empty strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

// The emitted symptom and fields for one match, as the scan computes them
// ("@node" etc. for the place overrides).
std::map<std::string, std::string> emitted(const Rule& rule, const ExtractMatch& m, std::string& symptom)
{
    std::map<std::string, std::string> vals(m.groups.begin(), m.groups.end());
    symptom = expandTemplate(rule.emitSymptom.str(), vals);
    std::map<std::string, std::string> fields = vals;
    for (const auto& [k, tmpl] : rule.emitFields)
        fields[k] = expandTemplate(tmpl, vals);
    return fields;
}

int lineOf(std::string_view text, size_t byte)
{
    int line = 1;
    for (size_t i = 0; i < byte && i < text.size(); ++i)
        line += text[i] == '\n';
    return line;
}

// Where `value` is written (as a JSON string) at or after the rule's line.
int locate(std::string_view text, int fromLine, const std::string& value)
{
    std::optional<size_t> from = fromLine <= 1 ? std::optional<size_t>(0) : std::nullopt;
    for (const TextLine& line : linesOf(text))
        if (static_cast<int>(line.number) == fromLine) {
            from = line.offset;
            break;
        }
    if (!from)
        return fromLine;
    size_t at = text.find(json(value).dump(), *from);
    return at == std::string_view::npos ? fromLine : lineOf(text, at);
}

std::string shown(const std::string& s)
{
    return json(s.size() > 120 ? s.substr(0, 117) + "..." : s).dump();
}

// A metric rule's sample values as the engine would judge them: 15 s apart, null a missing scrape (window_count:
// a scrape of its GPU without this series, where the count was 0). The
// first series must yield the expected symptom and fields; a benign sample must yield nothing.
void checkMetricSamples(const Rule& rule, std::string_view fileText, std::vector<SampleFailure>& failures)
{
    const MetricRule& m = *rule.metric;
    auto run = [&](const MetricRuleSample& s) {
        std::vector<MetricTrack> tracks;
        for (const auto& values : s.series) {
            MetricTrack t;
            for (size_t i = 0; i < values.size(); ++i) {
                const int64_t ns = 1'700'000'000'000'000'000LL + int64_t(i) * 15'000'000'000LL;
                if (std::isfinite(values[i]))
                    t.points.push_back({ns, values[i], i});
                else if (m.kind == MetricKind::WindowCount) // its GPU scraped without it: none in the window
                    t.absentNs.push_back(ns);
            }
            tracks.push_back(std::move(t));
        }
        return detectMetric(m, tracks);
    };
    auto shownValues = [](const MetricRuleSample& s) {
        std::string t;
        for (const auto& values : s.series) {
            t += t.empty() ? "[" : " [";
            for (size_t i = 0; i < values.size(); ++i)
                t += (i ? "," : "") + formatMetricValue(values[i]);
            t += "]";
        }
        return t;
    };
    const int at = locate(fileText, rule.line, "metric");
    auto fail = [&](std::string message) { failures.push_back({&rule, at, std::move(message)}); };
    for (const auto& s : m.samples) {
        const auto found = run(s);
        auto it = std::find_if(found.begin(), found.end(), [&](const MetricFinding& f) {
            return f.track == 0 || m.jobWide();
        });
        if (it == found.end()) {
            fail("metric sample yields no event: " + shownValues(s));
            continue;
        }
        std::string symptom;
        const FieldMap fields = metricEventFields(rule, *it, s.labels, symptom);
        if (!s.symptom.empty() && symptom != s.symptom)
            fail("metric sample yields symptom '" + symptom + "', expected '" + s.symptom + "': " + shownValues(s));
        for (const auto& [k, want] : s.fields) {
            auto got = fields.find(k);
            if (got == fields.end() || got->second != want)
                fail("metric sample yields " + k + "=" + (got == fields.end() ? "(none)" : got->second) + ", expected " +
                     want + ": " + shownValues(s));
        }
    }
    for (const auto& s : m.benign)
        if (!run(s).empty())
            fail("benign metric sample yields an event: " + shownValues(s));
}

} // namespace

void parseRuleSamples(const json& j, Rule& rule)
{
    rule.sourceRefs = stringOrList(j, "source");
    rule.benign = stringOrList(j, "benign");
    auto it = j.find("samples");
    if (it == j.end())
        return;
    if (!it->is_array())
        throw std::invalid_argument("'samples' must be a list of lines or {\"line\", \"symptom\", \"fields\"} objects");
    for (const auto& s : *it) {
        RuleSample sample;
        if (s.is_string()) {
            sample.line = s.get<std::string>();
        } else if (s.is_object()) {
            for (const auto& [k, v] : s.items()) {
                if (k != "line" && k != "symptom" && k != "fields")
                    throw std::invalid_argument("unknown key '" + k + "' in a sample (line, symptom, fields)");
                (void)v;
            }
            auto line = s.find("line");
            if (line == s.end() || !line->is_string())
                throw std::invalid_argument("a sample object needs a 'line' string");
            sample.line = line->get<std::string>();
            if (auto sym = s.find("symptom"); sym != s.end()) {
                if (!sym->is_string())
                    throw std::invalid_argument("a sample's 'symptom' must be a string");
                sample.symptom = sym->get<std::string>();
            }
            if (auto f = s.find("fields"); f != s.end()) {
                if (!f->is_object())
                    throw std::invalid_argument("a sample's 'fields' must be an object of strings");
                for (const auto& [k, v] : f->items()) {
                    if (!v.is_string())
                        throw std::invalid_argument("a sample's field '" + k + "' must be a string");
                    sample.fields[k] = v.get<std::string>();
                }
            }
        } else {
            throw std::invalid_argument("each sample must be a line or an object {\"line\", \"symptom\", \"fields\"}");
        }
        if (sample.line.empty())
            throw std::invalid_argument("a sample line must not be empty");
        rule.samples.push_back(std::move(sample));
    }
}

std::vector<SampleFailure> checkRuleSamples(const std::vector<Rule>& rules, const CompiledRules& compiled,
                                            std::string_view fileText)
{
    std::vector<SampleFailure> failures;
    std::vector<ExtractMatch> matches;
    for (const Rule& rule : rules) {
        if (rule.phase != Phase::Extract)
            continue;
        if (rule.metric) {
            checkMetricSamples(rule, fileText, failures);
            continue;
        }
        const SourceKind kind = rule.sources.empty() ? SourceKind::AppLog : rule.sources.front();
        auto find = [&](const std::string& line) -> const ExtractMatch* {
            matches.clear();
            if (rule.series && rule.emitSymptom.empty())
                compiled.matchSeries(line, kind, matches);
            else
                compiled.match(line, kind, matches);
            for (const auto& m : matches)
                if (m.rule == &rule)
                    return &m;
            return nullptr;
        };
        auto fail = [&](const std::string& line, std::string message) {
            failures.push_back({&rule, locate(fileText, rule.line, line), std::move(message)});
        };
        for (const auto& sample : rule.samples) {
            const ExtractMatch* m = find(sample.line);
            if (!m) {
                fail(sample.line, "sample does not match: " + shown(sample.line));
                continue;
            }
            ExtractMatch read = *m;
            if (rule.continued) // the scan reads it from the matched line first (rule.h, Continuation)
                compiled.readContinuation(rule, sample.line, read.groups);
            std::string symptom;
            auto fields = emitted(rule, read, symptom);
            if (!sample.symptom.empty() && symptom != sample.symptom)
                fail(sample.line, "sample yields symptom '" + symptom + "', expected '" + sample.symptom + "': " +
                                      shown(sample.line));
            for (const auto& [k, want] : sample.fields) {
                auto got = fields.find(k);
                if (got == fields.end() || got->second != want)
                    fail(sample.line, "sample yields " + k + "=" + (got == fields.end() ? "(none)" : shown(got->second)) +
                                          ", expected " + shown(want) + ": " + shown(sample.line));
            }
        }
        for (const auto& line : rule.benign)
            if (find(line))
                fail(line, "benign line matches: " + shown(line));
        if (rule.continued)
            for (const auto& sample : rule.continued->samples) {
                std::vector<std::pair<std::string, std::string>> groups;
                if (!compiled.readContinuation(rule, sample.line, groups)) {
                    fail(sample.line, "'continued' sample does not match: " + shown(sample.line));
                    continue;
                }
                for (const auto& [k, want] : sample.fields) {
                    auto got = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == k; });
                    if (got == groups.end() || got->second != want)
                        fail(sample.line, "'continued' sample yields " + k + "=" +
                                              (got == groups.end() ? "(none)" : shown(got->second)) + ", expected " +
                                              shown(want) + ": " + shown(sample.line));
                }
            }
    }
    return failures;
}

std::string sourceOrigin(std::string_view ref)
{
    if (auto scheme = ref.find("://"); scheme != std::string_view::npos) {
        ref.remove_prefix(scheme + 3);
        return std::string(ref.substr(0, ref.find('/')));
    }
    size_t end = ref.find_first_of("@: ");
    return std::string(ref.substr(0, end));
}

} // namespace fl
