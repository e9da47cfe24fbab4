#include "history_json.h"

namespace fl::service {

using nlohmann::json;

namespace {

json rowsJson(const std::vector<history::OffenderResult>& rows)
{
    json out = json::array();
    for (const auto& r : rows) {
        json row = {{"id", r.id}, {"workload_id", r.workloadId}, {"at", r.at}};
        if (auto ref = runOfHistoryId(r.id)) {
            row["session_id"] = ref->session.value;
            row["run"] = ref->run;
            row["result_url"] = "/v2/sessions/" + ref->session.value + "/result?run=" + std::to_string(ref->run);
        }
        out.push_back(std::move(row));
    }
    return out;
}

json placeJson(const std::string& node, const std::string& pci, int gpu)
{
    return {{"node", node.empty() ? json() : json(node)}, {"pci_bus", pci.empty() ? json() : json(pci)}, {"gpu", gpu < 0 ? json() : json(gpu)}};
}

} // namespace

json offendersJson(const std::vector<history::Offender>& offenders)
{
    json out = json::array();
    for (const auto& o : offenders) {
        json j = placeJson(o.node, o.pciBus, o.gpu);
        j["fingerprint"] = o.fingerprint;
        j["jobs"] = o.jobs;
        j["results"] = o.results;
        j["first"] = o.first;
        j["last"] = o.last;
        j["rows"] = rowsJson(o.rows);
        out.push_back(std::move(j));
    }
    return out;
}

json seenJson(const history::CausePlace& place, const std::vector<history::SeenAt>& seen)
{
    json j = placeJson(place.node, place.pciBus, place.gpu);
    j["fingerprint"] = place.fingerprint.empty() ? json() : json(place.fingerprint);
    json levels = json::array();
    for (const auto& s : seen)
        levels.push_back({{"level", s.level == history::OffenderLevel::Gpu ? "gpu" : "node"},
                          {"jobs", s.jobs},
                          {"results", s.results},
                          {"first", s.first.empty() ? json() : json(s.first)},
                          {"last", s.last.empty() ? json() : json(s.last)},
                          {"rows", rowsJson(s.rows)}});
    j["seen"] = levels;
    return j;
}

} // namespace fl::service
