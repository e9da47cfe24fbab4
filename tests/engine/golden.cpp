#include "golden.h"

#include "present/timefmt.h"
#include "present/verdict.h"
#include "engine/families.h"

#include <map>
#include <set>

using nlohmann::json;

json goldenOf(const fl::Result& r)
{
    json g;
    g["status"] = std::string(fl::toString(r.status));
    g["outcome"] = std::string(toString(r.outcome));
    g["domain"] = std::string(toString(r.domain));
    g["sub_domain"] = r.subDomain;
    if (r.rootCause) {
        const auto& rc = *r.rootCause;
        g["root_cause"] = {{"symptom", rc.symptom}, {"title", rc.title}, {"node", rc.node}, {"gpu", rc.gpuIndex},
                           {"pci_bus", rc.pciBus}, {"rank", rc.rank}, {"time", fl::formatTimeUtc(rc.time.ns)}};
    } else {
        g["root_cause"] = nullptr;
    }
    json cands = json::array();
    for (const auto& c : r.candidates)
        cands.push_back(c.symptom + " @ " + c.node + " — " + fl::present::candidateVerdict(c, r));
    g["candidates"] = cands;
    g["affected_nodes"] = r.affectedNodes;
    std::set<std::string> arrows;
    for (const auto& e : r.edges) {
        const auto& a = r.events[e.from.value];
        const auto& b = r.events[e.to.value];
        arrows.insert(a.symptom.str() + "@" + a.node + " -> " + b.symptom.str() + "@" + b.node + " [" + e.rule.str() + "]");
    }
    g["chain"] = arrows;
    // The compact chain, one line per family, in the result's order.
    json families = json::array();
    for (const auto& f : r.families) {
        std::string line = std::string(fl::toString(f.role)) + " " + f.symptom;
        for (const auto& [k, v] : f.collective)
            line += " " + k + "=" + v;
        line += " · nodes " + (f.nodeRanges.empty() ? std::string("-") : f.nodeRanges) + " · ranks " +
                (f.ranks.empty() ? std::string("-") : fl::present::formatRanges(f.ranks)) + " · " + std::to_string(f.count) +
                " event" + (f.count == 1 ? "" : "s");
        for (fl::FamilyId c : f.causes)
            line += " · caused by " + r.families[c.value].symptom + "@" + r.families[c.value].nodeRanges;
        if (!f.suppressedBy.empty())
            line += " · suppressed by " + f.suppressedBy;
        families.push_back(line);
    }
    g["families"] = families;
    std::set<std::string> familyEdges;
    for (const auto& e : r.familyEdges)
        familyEdges.insert(r.families[e.from.value].symptom + " -> " + r.families[e.to.value].symptom + " ×" +
                           std::to_string(e.count) + " [" + e.rule + "]");
    g["family_edges"] = familyEdges;
    std::map<std::string, std::map<std::string, int>> roles;
    for (const auto& e : r.evidence)
        ++roles[std::string(fl::toString(e.role))][e.symptom];
    g["evidence_roles"] = roles;
    std::set<std::string> suppressed;
    for (const auto& e : r.events)
        if (e.suppressed)
            suppressed.insert(e.symptom.str() + "@" + e.node + " by " + e.suppressedBy.str());
    g["suppressed"] = suppressed;
    g["missing"] = r.missing;
    return g;
}
