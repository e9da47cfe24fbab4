#include "engine/result_json.h"

#include "engine/timefmt.h"

namespace fl {

using nlohmann::json;

namespace {

json timeJson(int64_t ns)
{
    return ns == kNoTime ? json() : json(formatTimeUtc(ns));
}

json optInt(int v)
{
    return v < 0 ? json() : json(v);
}

json optStr(const std::string& s)
{
    return s.empty() ? json() : json(s);
}

json rawRef(const RawRef& r, const std::string& file)
{
    return {{"file", file}, {"offset", r.offset}, {"length", r.length}, {"line", r.line}, {"line_count", r.lineCount}};
}

} // namespace

json resultToJson(const Result& r)
{
    json j;
    j["schema_version"] = Result::kSchemaVersion;
    j["status"] = r.status;
    j["outcome"] = r.outcome;
    j["domain"] = r.domain;
    j["sub_domain"] = optStr(r.subDomain);
    j["summary"] = r.summary;
    j["workload"] = {{"id", optStr(r.workloadId)}, {"attempt", optInt(r.attempt)},
                     {"window_start", timeJson(r.windowStartNs)}, {"window_end", timeJson(r.windowEndNs)}};
    if (r.rootCause) {
        const RootCause& rc = *r.rootCause;
        j["root_cause"] = {{"event", rc.event},         {"symptom", rc.symptom}, {"title", rc.title},
                           {"node", optStr(rc.node)},   {"gpu", optInt(rc.gpuIndex)}, {"pci_bus", optStr(rc.pciBus)},
                           {"rank", optInt(rc.rank)},   {"time", timeJson(rc.timeNs)}, {"evidence", rc.evidence},
                           {"advice", optStr(rc.advice)}};
    } else {
        j["root_cause"] = nullptr;
    }
    j["missing"] = r.missing;
    json cands = json::array();
    for (const auto& c : r.candidates)
        cands.push_back({{"event", c.event},         {"symptom", c.symptom},       {"title", c.title},
                         {"domain", c.domain},       {"sub_domain", optStr(c.subDomain)}, {"node", optStr(c.node)},
                         {"rank", optInt(c.rank)},   {"gpu", optInt(c.gpuIndex)},  {"time", timeJson(c.timeNs)},
                         {"support", c.support},     {"chosen", c.chosen},         {"verdict", c.verdict},
                         {"evidence", c.evidence}});
    j["candidates"] = cands;
    j["affected_nodes"] = r.affectedNodes;

    json nodes = json::array();
    for (const auto& e : r.events) {
        json fields = json::object();
        for (const auto& [k, v] : e.fields)
            if (!k.empty() && k[0] != '_')
                fields[k] = v;
        json n = {{"id", e.id},
                  {"symptom", e.symptom},
                  {"original_symptom", e.originalSymptom != e.symptom ? json(e.originalSymptom) : json()},
                  {"kind", e.kind == EventKind::BadNode ? "bad_node" : "interesting_node"},
                  {"node", optStr(e.node)},
                  {"rank", optInt(e.rank)},
                  {"gpu", optInt(e.gpuIndex)},
                  {"pci_bus", optStr(e.pciBus)},
                  {"time", timeJson(e.timeNs)},
                  {"time_basis", std::string(toString(e.timeBasis))},
                  {"observations", e.observations},
                  {"fields", fields},
                  {"extracted_by", e.extractedBy},
                  {"count", e.count},
                  {"suppressed", e.suppressed}};
        if (e.suppressed)
            n["suppressed_by"] = {{"rule", e.suppressedBy}, {"reason", e.suppressReason}};
        if (e.roleOverride)
            n["role_override"] = {{"role", std::string(toString(*e.roleOverride))}, {"rule", e.roleOverrideBy}};
        nodes.push_back(std::move(n));
    }
    json edges = json::array();
    for (const auto& e : r.edges)
        edges.push_back({{"from", e.from}, {"to", e.to}, {"rule", e.rule}, {"label", optStr(e.label)}});
    j["symptom_chain"] = {{"nodes", nodes}, {"edges", edges}};

    json ev = json::array();
    for (const auto& e : r.evidence)
        ev.push_back({{"id", e.id},
                      {"kind", e.kind},
                      {"source", std::string(toString(e.source))},
                      {"node", optStr(e.node)},
                      {"rank", optInt(e.rank)},
                      {"gpu", optInt(e.gpuIndex)},
                      {"time", timeJson(e.timeNs)},
                      {"time_basis", std::string(toString(e.timeBasis))},
                      {"raw", rawRef(e.ref, e.file)},
                      {"excerpt", e.excerpt},
                      {"role", std::string(toString(e.role))},
                      {"symptom", e.symptom},
                      {"event", e.event}});
    j["evidence"] = ev;
    j["evidence_omitted"] = r.evidenceOmitted;

    json conns = json::array();
    for (const auto& c : r.connectors)
        conns.push_back({{"file", c.file},
                         {"kind", std::string(toString(c.kind))},
                         {"kind_reason", optStr(c.kindReason)},
                         {"node", optStr(c.node)},
                         {"rank", optInt(c.rank)},
                         {"status", std::string(toString(c.status))},
                         {"reason", optStr(c.reason)},
                         {"bytes", c.bytes},
                         {"lines", c.lines},
                         {"observations", c.observations},
                         {"parse_errors", c.parseErrors}});
    j["connector_reports"] = conns;
    json fired = json::array();
    for (const auto& f : r.rulesFired)
        fired.push_back({{"rule", f.rule}, {"phase", f.phase}, {"effect", f.effect}, {"count", f.count}});
    j["rules_fired"] = fired;
    j["warnings"] = r.warnings;
    j["engine"] = {{"name", "faultline"}, {"version", r.engineVersion}, {"rules_digest", r.rulesDigest}};
    return j;
}

std::string resultToString(const Result& result)
{
    return resultToJson(result).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace fl
