// Which node an IP address is, as the bundle itself says: its host map (nslookup, /etc/hosts:
// rules/hostmap.jsonc, events network.address_map) and, for lines, NCCL's start-up line on a node's own log
// ("NET/IB : Using ...; OOB eth0:10.0.0.5<0>", network.nccl_net_init: that node has that address). A line
// wrapper that names only an address (Ray's "(pid=N, ip=A)", "(raylet, ip=A)") leaves a line on that address
// when its file names no node; nameAddressedNodes moves it to the host, so it meets the host's other events.
// Never a guess: an address no source maps stays as written, and one given two hosts stays too, said in the
// warnings. A moved event keeps the address, and who said which host it is, in its field `node_address`
// ("10.0.0.5 (the host map)").
#pragma once

#include "model.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace fl::detail {

struct AddressHost {
    std::string host;
    std::string from;             // what said so first
    std::set<std::string> others; // other hosts said for the same address
};
using AddressHosts = std::map<std::string, AddressHost>; // address -> host

void sayAddressHost(AddressHosts& map, const std::string& address, const std::string& host, const std::string& from);
// The host map's events (network.address_map); with `ncclInit` also NCCL's own address lines.
void addressHostsOf(AddressHosts& map, const std::vector<SymptomEvent>& events, bool ncclInit);
// The host of `address` when exactly one was said, else null.
const std::string* hostOfAddress(const AddressHosts& map, const std::string& address);

// Moves log events (not metric ones: engine/metric_nodes.h) whose node is an IPv4 address the bundle maps to
// one host onto that host, with their observations; an address given two hosts is said in `warnings`.
void nameAddressedNodes(std::vector<SymptomEvent>& events, std::vector<Observation>& observations,
                        std::vector<std::string>& warnings);

} // namespace fl::detail
