#include "golden.h"

#include "present/timefmt.h"
#include "present/verdict.h"

#include <map>
#include <set>

using nlohmann::json;

json goldenOf(const fl::Result& r)
{
    json g;
    g["status"] = std::string(fl::toString(r.status));
    g["outcome"] = r.outcome;
    g["domain"] = r.domain;
    g["sub_domain"] = r.subDomain;
    if (r.rootCause) {
        const auto& rc = *r.rootCause;
        g["root_cause"] = {{"symptom", rc.symptom}, {"title", rc.title}, {"node", rc.node}, {"gpu", rc.gpuIndex},
                           {"pci_bus", rc.pciBus}, {"rank", rc.rank}, {"time", fl::formatTimeUtc(rc.timeNs)}};
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
        const auto& a = r.events[e.from];
        const auto& b = r.events[e.to];
        arrows.insert(a.symptom + "@" + a.node + " -> " + b.symptom + "@" + b.node + " [" + e.rule + "]");
    }
    g["chain"] = arrows;
    std::map<std::string, std::map<std::string, int>> roles;
    for (const auto& e : r.evidence)
        ++roles[std::string(fl::toString(e.role))][e.symptom];
    g["evidence_roles"] = roles;
    std::set<std::string> suppressed;
    for (const auto& e : r.events)
        if (e.suppressed)
            suppressed.insert(e.symptom + "@" + e.node + " by " + e.suppressedBy);
    g["suppressed"] = suppressed;
    g["missing"] = r.missing;
    return g;
}
