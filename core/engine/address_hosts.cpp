#include "engine/address_hosts.h"

#include "engine/clock_offsets.h"

#include <cctype>

namespace fl::detail {

namespace {

// Four dot-separated numbers of at most three digits: what a wrapper's "ip=" names.
bool isIPv4(std::string_view s)
{
    int parts = 0;
    size_t digits = 0;
    for (char c : s) {
        if (std::isdigit(static_cast<unsigned char>(c))) {
            if (++digits > 3)
                return false;
        } else if (c == '.' && digits > 0) {
            ++parts;
            digits = 0;
        } else {
            return false;
        }
    }
    return parts == 3 && digits > 0;
}

} // namespace

void sayAddressHost(AddressHosts& map, const std::string& address, const std::string& host, const std::string& from)
{
    if (address.empty() || host.empty() || address == host)
        return;
    auto [it, fresh] = map.try_emplace(address, AddressHost{host, from, {}});
    if (!fresh && it->second.host != host)
        it->second.others.insert(host);
}

void addressHostsOf(AddressHosts& map, const std::vector<SymptomEvent>& events, bool ncclInit)
{
    for (const auto& e : events) {
        const std::string& s = e.symptom.str();
        const bool hostMap = s == "network.address_map";
        if (!hostMap && !(ncclInit && s == "network.nccl_net_init" && !isIPv4(e.node)))
            continue;
        if (auto a = e.fields.find("addr"); a != e.fields.end())
            sayAddressHost(map, a->second, e.node, hostMap ? "the host map" : "NCCL's address line on that node");
    }
}

const std::string* hostOfAddress(const AddressHosts& map, const std::string& address)
{
    auto it = map.find(address);
    return it != map.end() && it->second.others.empty() ? &it->second.host : nullptr;
}

void nameAddressedNodes(std::vector<SymptomEvent>& events, std::vector<Observation>& observations,
                        std::vector<std::string>& warnings)
{
    AddressHosts map;
    addressHostsOf(map, events, true);
    if (map.empty())
        return;
    std::set<std::string> ambiguous;
    for (auto& e : events) {
        if (e.clockNode == kMetricsClock || !isIPv4(e.node))
            continue;
        const std::string* host = hostOfAddress(map, e.node);
        if (!host) {
            if (auto it = map.find(e.node); it != map.end())
                ambiguous.insert(e.node);
            continue;
        }
        const std::string address = e.node;
        // The evidence keeps what the line named and who said which host that is.
        e.fields["node_address"] = address + " (" + map.at(address).from + ")";
        for (ObservationId id : e.observations)
            if (id.value < observations.size() && observations[id.value].node == address)
                observations[id.value].node = *host;
        if (e.clockNode == address)
            e.clockNode = *host;
        e.node = *host;
    }
    for (const std::string& a : ambiguous) {
        const AddressHost& h = map.at(a);
        warnings.push_back("address " + a + " is " + h.host + " (" + h.from + ") and also " + *h.others.begin() +
                           ": its lines stay on the address");
    }
}

} // namespace fl::detail
