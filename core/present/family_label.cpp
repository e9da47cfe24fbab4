#include "present/family_label.h"

#include "present/hostlist.h"
#include "present/timefmt.h"
#include "present/verdict.h"

namespace fl::present {

std::string thousands(uint64_t n)
{
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<size_t>(i), ",");
    return s;
}

std::string counted(uint64_t n, const std::string& word, const std::string& plural)
{
    return thousands(n) + " " + (n == 1 ? word : plural.empty() ? word + "s" : plural);
}

std::string familyName(const SymptomFamily& f)
{
    return f.title.empty() ? f.symptom : f.title + " [" + f.symptom + "]";
}

std::string familyCollective(const SymptomFamily& f)
{
    std::string c;
    for (const char* k : {"op", "pg", "seq"})
        if (auto it = f.collective.find(k); it != f.collective.end())
            c += (c.empty() ? "" : " ") + (std::string(k) == "op" ? it->second : std::string(k) + " " + it->second);
    return c;
}

std::string familyLine(const SymptomFamily& f)
{
    std::string s = familyName(f);
    if (!f.collective.empty())
        s += " · " + familyCollective(f);
    // A short node list is worth reading; a long one is a count.
    if (f.nodes.size() == 1)
        s += " · " + f.nodes.front();
    else if (!f.nodes.empty())
        s += " · " + counted(f.nodes.size(), "node") + (f.nodeRanges.size() <= 40 ? " (" + f.nodeRanges + ")" : "");
    if (f.rankCount == 1)
        s += " · rank " + formatRanges(f.ranks);
    else if (f.rankCount > 1) {
        const std::string ranges = formatRanges(f.ranks);
        s += " · " + counted(f.rankCount, "rank") + (ranges.size() <= 24 ? " (" + ranges + ")" : "");
    }
    if (f.count > 1)
        s += " · " + counted(f.count, "event");
    if (!f.first.known())
        s += " · no time";
    else if (f.last.ns == f.first.ns)
        s += " · " + formatTime(f.first);
    else
        s += " · first " + formatTime(f.first) + " · last " + formatTime(f.last);
    if (!f.suppressedBy.empty())
        s += " · suppressed by " + f.suppressedBy;
    return s;
}

std::string familySize(const SymptomFamily& f)
{
    if (f.count <= 1)
        return {};
    std::string s = " · " + counted(f.nodes.size(), "node");
    if (f.rankCount)
        s += " · " + counted(f.rankCount, "rank");
    return s + " · " + counted(f.count, "event");
}

std::string familyPlace(const SymptomFamily& f, size_t maxGroups)
{
    const std::string nodes = maxGroups == 0 ? f.nodeRanges : compressHostList(f.nodes, maxGroups);
    return placeOfMany(nodes, formatRanges(f.ranks, maxGroups));
}

std::string familyGpuPlace(const SymptomFamily& f, const std::vector<SymptomEvent>& events, size_t maxGroups)
{
    std::vector<int> gpus;
    for (const EventId id : f.events)
        if (id.value < events.size() && events[id.value].gpuIndex >= 0)
            gpus.push_back(events[id.value].gpuIndex);
    const std::string nodes = maxGroups == 0 ? f.nodeRanges : compressHostList(f.nodes, maxGroups);
    std::string s = nodes.empty() ? std::string("unknown nodes") : nodes;
    if (const std::string g = numberRanges(std::move(gpus), maxGroups); !g.empty())
        s += (g.find_first_of(",-") == std::string::npos ? " GPU " : " GPUs ") + g;
    if (const std::string r = formatRanges(f.ranks, maxGroups); !r.empty())
        s += (r.find_first_of(",-") == std::string::npos ? " rank " : " ranks ") + r;
    return s;
}

} // namespace fl::present
