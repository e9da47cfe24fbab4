#include "engine/metric_nodes.h"

#include "engine/clock_offsets.h"

#include <map>
#include <set>

namespace fl::detail {

namespace {

struct HostOf {
    std::string host;
    std::string from;             // what said so first
    std::set<std::string> others; // other hosts said for the same address
};

void say(std::map<std::string, HostOf>& map, const std::string& address, const std::string& host, const std::string& from)
{
    if (address.empty() || host.empty() || address == host)
        return;
    auto [it, fresh] = map.try_emplace(address, HostOf{host, from, {}});
    if (!fresh && it->second.host != host)
        it->second.others.insert(host);
}

} // namespace

void nameMetricNodes(const std::vector<MetricTrackData>& tracks, std::vector<SymptomEvent>& events,
                     std::vector<Observation>& observations, std::vector<MetricSeries>& series,
                     std::vector<std::string>& warnings)
{
    // The machine's own word first (its uname), then the bundle's host map.
    std::map<std::string, HostOf> map;
    for (const auto& t : tracks)
        if (t.name == kHostNameSeries)
            if (auto n = t.labels.find("nodename"); n != t.labels.end())
                say(map, t.node, n->second.substr(0, n->second.find('.')), std::string(kHostNameSeries));
    for (const auto& e : events)
        if (e.symptom.str() == "network.address_map")
            if (auto a = e.fields.find("addr"); a != e.fields.end())
                say(map, a->second, e.node, "the host map");
    if (map.empty())
        return;
    for (const auto& [address, h] : map)
        if (!h.others.empty())
            warnings.push_back("metrics: address " + address + " is " + h.host + " (" + h.from + ") and also " +
                               *h.others.begin() + ": its metric series stay on the address");
    auto rename = [&](std::string& node) {
        auto it = map.find(node);
        if (it != map.end() && it->second.others.empty())
            node = it->second.host;
    };
    for (auto& e : events) {
        if (e.clockNode != kMetricsClock)
            continue;
        rename(e.node);
        for (ObservationId id : e.observations)
            if (id.value < observations.size() && observations[id.value].source == SourceKind::Metrics)
                rename(observations[id.value].node);
    }
    for (auto& s : series)
        rename(s.node);
}

} // namespace fl::detail
