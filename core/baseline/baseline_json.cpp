#include "baseline/baseline_json.h"

#include "engine/result_json.h"
#include "present/baseline_text.h"
#include "present/timefmt.h"

namespace fl {

using nlohmann::json;

namespace {

json markJson(const BaselineMark& m)
{
    return {{"status", std::string(present::toString(m.match))},
            {"baseline_count", m.baselineCount},
            {"matched_by", std::string(present::toString(m.by))}};
}

json symptomJson(const BaselineSymptomMark& s)
{
    json j = markJson(s.mark);
    j["symptom"] = s.symptom;
    j["count"] = s.count;
    j["same_rate"] = s.sameRate;
    return j;
}

} // namespace

json baselineJson(const BaselineComparison& c, bool detail)
{
    json families = json::array();
    for (const auto& f : c.families) {
        json j = symptomJson(f.symptom);
        j["family"] = familyId(f.family);
        j["new_events"] = f.newEvents;
        j["matched_events"] = f.matchedEvents;
        families.push_back(std::move(j));
    }
    json candidates = json::array();
    for (const auto& m : c.candidates) {
        json j = symptomJson(m.symptom);
        j["event"] = m.event.value;
        j["weighed_down"] = m.weighedDown;
        candidates.push_back(std::move(j));
    }
    json gone = json::array();
    for (const auto& g : c.gone)
        gone.push_back({{"symptom", g.symptom},
                        {"status", std::string(present::toString(BaselineMatch::Gone))},
                        {"baseline_count", g.baselineCount},
                        {"nodes", g.nodes}});
    json unknown = json::array();
    for (const auto& u : c.unknownNew) {
        const Timestamp first{u.firstNs, u.basis, {}};
        unknown.push_back({{"template", u.text},
                           {"severity", std::string(toString(u.severity))},
                           {"status", std::string(present::toString(u.match))},
                           {"count", u.count},
                           {"nodes", u.nodes},
                           {"node_count", u.nodeCount},
                           {"first", first.known() ? json(formatTime(first)) : json()},
                           {"time_basis", std::string(toString(u.basis))},
                           {"file", u.file},
                           {"line", u.line}});
    }
    json j = {{"workload", {{"id", c.workloadId.empty() ? json() : json(c.workloadId)},
                            {"attempt", c.attempt < 0 ? json() : json(c.attempt)}}},
              {"failed_span_s", double(c.failedSpanNs) / 1e9},
              {"baseline_span_s", double(c.baselineSpanNs) / 1e9},
              {"same_rate_factor", BaselineComparison::kSameRateFactor},
              {"nodes_matched", {{"by_name", c.nodesByName}, {"by_position", c.nodesByPosition}}},
              {"families", families},
              {"candidates", candidates},
              {"gone", gone},
              {"new_unrecognized_lines", unknown},
              {"unrecognized_templates", {{"total", c.unknownTemplates},
                                          {"also_in_baseline", c.unknownAlso},
                                          {"new", c.unknownNewTotal},
                                          {"listed_at_most", BaselineComparison::kUnknownShown}}},
              {"verdict_change", c.change == BaselineVerdictChange::None ? "none"
                                 : c.change == BaselineVerdictChange::RootAlsoInBaseline ? "root_also_in_baseline"
                                                                                         : "root_only_new_candidate"},
              {"verdict", c.verdict.empty() ? json() : json(c.verdict)}};
    if (detail) {
        json events = json::array();
        for (const auto& e : c.events) {
            json m = markJson(e.mark);
            m["event"] = e.event.value;
            events.push_back(std::move(m));
        }
        j["events"] = std::move(events);
    }
    return j;
}

} // namespace fl

namespace fl {

std::string resultToStringWithBaseline(const Result& result, const BaselineComparison& comparison,
                                       const ResultJsonOptions& options)
{
    nlohmann::json j = resultToJson(result, options);
    j["baseline"] = baselineJson(comparison, options.detail);
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace fl
