#include "engine/metric_nodes.h"

#include "engine/address_hosts.h"
#include "engine/clock_offsets.h"

namespace fl::detail {

void nameMetricNodes(const std::vector<MetricTrackData>& tracks, std::vector<SymptomEvent>& events,
                     std::vector<Observation>& observations, std::vector<MetricSeries>& series,
                     std::vector<std::string>& warnings)
{
    // The machine's own word first (its uname), then the bundle's host map.
    AddressHosts map;
    for (const auto& t : tracks)
        if (t.name == kHostNameSeries)
            if (auto n = t.labels.find("nodename"); n != t.labels.end())
                sayAddressHost(map, t.node, n->second.substr(0, n->second.find('.')), std::string(kHostNameSeries));
    addressHostsOf(map, events, false);
    if (map.empty())
        return;
    for (const auto& [address, h] : map)
        if (!h.others.empty())
            warnings.push_back("metrics: address " + address + " is " + h.host + " (" + h.from + ") and also " +
                               *h.others.begin() + ": its metric series stay on the address");
    auto rename = [&](std::string& node) {
        if (const std::string* host = hostOfAddress(map, node))
            node = *host;
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
