// The report's chain, read from a result document: the symptom families of a
// 2.0 result (so a compact result, as `analyze` writes by default and the
// service keeps, gives the whole chain), or, for an older result without
// families, its per-event nodes merged by symptom.
#include "present/report_json.h"
#include "present/verdict.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>

namespace fl::present::reportjson {

using nlohmann::json;

namespace {

int small(int64_t v)
{
    return static_cast<int>(std::clamp<int64_t>(v, -1, INT32_MAX));
}

size_t count(const json& j, const char* key)
{
    return static_cast<size_t>(std::max<int64_t>(0, integer(j, key)));
}

bool names(const json& ids, int64_t event)
{
    if (ids.is_array())
        for (const json& id : ids)
            if (id.is_number_integer() && id.get<int64_t>() == event)
                return true;
    return false;
}

ChainNode focusNode(const json& described, bool root)
{
    return {true, root, str(described, "symptom"), placeOf(described), timeOf(described), 1, 1};
}

ChainNode familyNode(const json& f)
{
    return {false, false, str(f, "symptom"), placeOfMany(str(f, "nodes"), str(f, "ranks")), timeOf(member(f, "first")),
            count(f, "count"), count(f, "node_count")};
}

// From symptom_chain.families and family_edges. The focus: the root families
// (the root cause, or the tied candidates), each described by the root cause or
// candidate whose event it represents; without a root, the candidates' families.
ChainSummary fromFamilies(const json& result, const json& families, size_t maxFocus, size_t maxGroups)
{
    std::map<std::string, const json*> byId;
    for (const json& f : families)
        byId.emplace(str(f, "id"), &f);
    std::map<std::string, std::vector<std::string>> out;
    for (const json& e : array(member(result, "symptom_chain"), "family_edges"))
        out[str(e, "from")].push_back(str(e, "to"));
    const json& rc = member(result, "root_cause");
    const json& candidates = array(result, "candidates");

    ChainSummary s;
    std::map<std::string, size_t> index;  // family id -> node
    std::vector<std::string> queue;
    auto addFocus = [&](const std::string& id, ChainNode node) {
        if (id.empty() || index.count(id) || index.size() >= maxFocus)
            return;
        index[id] = s.nodes.size();
        s.nodes.push_back(std::move(node));
        queue.push_back(id);
    };
    for (const json& f : families) {
        if (str(f, "role") != "root")
            continue;
        const json& reps = member(f, "representatives");
        const json* described = nullptr;
        if (rc.is_object() && names(reps, integer(rc, "event")))
            described = &rc;
        for (const json& c : candidates)
            if (!described && names(reps, integer(c, "event")))
                described = &c;
        ChainNode n = described ? focusNode(*described, described == &rc) : familyNode(f);
        n.focus = true;
        n.root = n.root || (described == nullptr && rc.is_object());
        addFocus(str(f, "id"), std::move(n));
    }
    if (index.empty()) {
        // A candidate's family is that of its evidence lines (or the family it represents).
        std::map<std::string, std::string> familyOfEvidence;
        for (const json& e : array(result, "evidence"))
            familyOfEvidence[str(e, "id")] = str(e, "family");
        for (const json& c : candidates) {
            std::string id;
            for (const json& ev : array(c, "evidence"))
                if (id.empty() && ev.is_string())
                    id = familyOfEvidence[ev.get<std::string>()];
            for (const json& f : families)
                if (id.empty() && names(member(f, "representatives"), integer(c, "event")))
                    id = str(f, "id");
            addFocus(id, focusNode(c, false));
        }
    }
    const size_t focus = s.nodes.size();

    // Breadth first along the family edges; the families reached are listed in
    // the result's order (by role, then first time), up to the cap.
    std::set<std::string> reached;
    for (size_t q = 0; q < queue.size(); ++q)
        for (const std::string& to : out[queue[q]])
            if (!index.count(to) && byId.count(to) && reached.insert(to).second)
                queue.push_back(to);
    for (const json& f : families) {
        const std::string id = str(f, "id");
        if (!reached.count(id))
            continue;
        if (s.nodes.size() - focus >= maxGroups) {
            ++s.symptomsLeftOut;
            continue;
        }
        index[id] = s.nodes.size();
        s.nodes.push_back(familyNode(f));
    }
    std::set<std::pair<size_t, size_t>> edges;
    for (const auto& [from, tos] : out) {
        auto f = index.find(from);
        if (f == index.end())
            continue;
        for (const std::string& to : tos) {
            auto t = index.find(to);
            if (t != index.end() && t->second != f->second)
                edges.insert({f->second, t->second});
        }
    }
    s.edges.assign(edges.begin(), edges.end());
    return s;
}

// From a 1.x result's per-event chain: the focus events as themselves, every
// event reachable from them merged by symptom id.
ChainSummary fromEvents(const json& result, size_t maxFocus, size_t maxSymptoms)
{
    const json& chain = member(result, "symptom_chain");
    std::map<int64_t, const json*> events;
    for (const json& n : array(chain, "nodes"))
        events[integer(n, "id")] = &n;
    std::map<int64_t, std::vector<int64_t>> out;
    for (const json& e : array(chain, "edges"))
        out[integer(e, "from")].push_back(integer(e, "to"));

    ChainSummary s;
    std::map<int64_t, size_t> focusIndex;
    const json& rc = member(result, "root_cause");
    auto addFocus = [&](int64_t id, bool root) {
        auto ev = events.find(id);
        if (ev == events.end() || focusIndex.count(id))
            return;
        focusIndex[id] = s.nodes.size();
        s.nodes.push_back(focusNode(*ev->second, root));
    };
    if (rc.is_object())
        addFocus(integer(rc, "event"), true);
    else
        for (const json& c : array(result, "candidates"))
            if (focusIndex.size() < maxFocus)
                addFocus(integer(c, "event"), false);

    std::map<std::string, std::pair<size_t, std::set<std::string>>> bySymptom;
    std::set<int64_t> seen;
    std::vector<int64_t> queue;
    for (const auto& [id, index] : focusIndex) {
        queue.push_back(id);
        seen.insert(id);
    }
    std::vector<std::pair<std::string, std::string>> symptomEdges;  // from key, to symptom
    for (size_t q = 0; q < queue.size(); ++q) {
        const int64_t from = queue[q];
        auto fe = events.find(from);
        const std::string fromKey = focusIndex.count(from) ? "#" + std::to_string(from) : str(*fe->second, "symptom");
        for (int64_t to : out[from]) {
            auto te = events.find(to);
            if (te == events.end() || focusIndex.count(to))
                continue;
            const std::string symptom = str(*te->second, "symptom");
            symptomEdges.push_back({fromKey, symptom});
            if (!seen.insert(to).second)
                continue;
            auto& slot = bySymptom[symptom];
            ++slot.first;
            slot.second.insert(str(*te->second, "node"));
            queue.push_back(to);
        }
    }
    std::map<std::string, size_t> index;
    for (const auto& [id, i] : focusIndex)
        index["#" + std::to_string(id)] = i;
    for (const auto& [symptom, info] : bySymptom) {
        if (index.size() - focusIndex.size() >= maxSymptoms) {
            ++s.symptomsLeftOut;
            continue;
        }
        index[symptom] = s.nodes.size();
        s.nodes.push_back({false, false, symptom, {}, {}, info.first, info.second.size()});
    }
    std::set<std::pair<size_t, size_t>> edges;
    for (const auto& [fromKey, symptom] : symptomEdges) {
        auto f = index.find(fromKey), t = index.find(symptom);
        if (f != index.end() && t != index.end() && f->second != t->second)
            edges.insert({f->second, t->second});
    }
    s.edges.assign(edges.begin(), edges.end());
    return s;
}

} // namespace

std::string placeOf(const json& j)
{
    return place(str(j, "node"), small(integer(j, "gpu")), str(j, "pci_bus"), small(integer(j, "rank")));
}

std::string timeOf(const json& j)
{
    const std::string t = j.is_string() ? j.get<std::string>() : str(j, "time");
    return t.empty() ? std::string("no time") : t;
}

ChainSummary summariseChain(const json& result, size_t maxFocus, size_t maxSymptoms)
{
    const json& families = member(member(result, "symptom_chain"), "families");
    return families.is_array() ? fromFamilies(result, families, maxFocus, maxSymptoms)
                               : fromEvents(result, maxFocus, maxSymptoms);
}

} // namespace fl::present::reportjson
