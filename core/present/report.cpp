#include "present/report.h"
#include "present/report_json.h"
#include "present/verdict.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <stdexcept>

namespace fl::present {

using nlohmann::json;
using namespace reportjson;

namespace {

constexpr size_t kChainGroups = 24;      // "from" events shown in the summarised chain
constexpr size_t kLeadsTo = 24;          // symptoms listed under each of them
constexpr size_t kProblemFiles = 40;     // coverage lines beyond the totals

std::string upper(std::string s)
{
    for (char& c : s)
        if (c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
    return s;
}

std::string plural(size_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string lineRef(const std::string& file, uint64_t line)
{
    return line ? file + ":" + std::to_string(line) : file;
}

void addFact(std::vector<ReportFact>& facts, const std::string& label, const std::string& value)
{
    if (!value.empty())
        facts.push_back({label, value});
}

std::string groupText(const ChainNode& n)
{
    return n.symptom + " on " + plural(n.nodes, "node", "nodes") + " (" + plural(n.events, "event", "events") + ")" +
           (n.where.empty() ? "" : ": " + n.where);
}

std::vector<ReportChainGroup> chainGroups(const json& result, size_t& leftOut)
{
    const ChainSummary chain = summariseChain(result, kChainGroups, 48);
    leftOut = chain.symptomsLeftOut;
    std::vector<ReportChainGroup> groups;
    std::map<size_t, size_t> groupOf;
    for (const auto& [from, to] : chain.edges) {
        auto [it, fresh] = groupOf.try_emplace(from, groups.size());
        if (fresh) {
            const ChainNode& f = chain.nodes[from];
            groups.push_back({f.focus ? f.symptom + " @ " + f.where + ", " + f.when : groupText(f),
                              {}});
        }
        auto& leads = groups[it->second].leadsTo;
        if (leads.size() < kLeadsTo)
            leads.push_back(groupText(chain.nodes[to]));
    }
    return groups;
}

std::vector<std::string> coverageLines(const json& result)
{
    std::map<std::string, size_t> byStatus;
    const json& conns = array(result, "connector_reports");
    for (const json& c : conns)
        ++byStatus[str(c, "status")];
    std::string head = plural(conns.size(), "file", "files") + " read";
    for (const auto& [status, n] : byStatus)
        head += ", " + std::to_string(n) + " " + (status.empty() ? "unknown" : status);
    std::vector<std::string> lines{head};
    size_t shown = 0, hidden = 0;
    for (const json& c : conns) {
        const std::string status = str(c, "status");
        const int64_t parseErrors = integer(c, "parse_errors");
        if ((status == "ok" && parseErrors <= 0) || status == "skipped")
            continue;
        if (shown == kProblemFiles) {
            ++hidden;
            continue;
        }
        ++shown;
        std::string line = status + ": " + str(c, "file");
        if (!str(c, "reason").empty())
            line += " (" + str(c, "reason") + ")";
        if (parseErrors > 0)
            line += ", " + plural(static_cast<size_t>(parseErrors), "line", "lines") + " not parsed";
        lines.push_back(line);
    }
    if (hidden)
        lines.push_back("… and " + plural(hidden, "other file", "other files") + " with problems");
    return lines;
}

} // namespace

Report buildReport(const json& result, const ReviewNotes& review, const std::string& source)
{
    if (!result.is_object() || !result.contains("status") || !result.contains("schema_version"))
        throw std::invalid_argument("not a Faultline result document (no \"status\" or \"schema_version\")");
    Report r;
    const json& workload = member(result, "workload");
    const std::string workloadId = str(workload, "id");
    const int64_t attempt = integer(workload, "attempt");
    r.title = "Faultline report";
    if (!workloadId.empty())
        r.title += ": workload " + workloadId + (attempt >= 0 ? ", attempt " + std::to_string(attempt) : "");
    r.status = str(result, "status");
    if (r.status != "attributed" && r.status != "ambiguous" && r.status != "unattributed")
        r.status = "unknown";
    r.headline = upper(r.status) + ": " + (str(result, "domain").empty() ? "unknown" : str(result, "domain"));
    if (!str(result, "sub_domain").empty())
        r.headline += " / " + str(result, "sub_domain");
    r.summary = str(result, "summary");

    addFact(r.facts, "Outcome", str(result, "outcome"));
    const std::string ws = str(workload, "window_start"), we = str(workload, "window_end");
    if (!ws.empty() || !we.empty())
        addFact(r.facts, "Window", (ws.empty() ? "?" : ws) + " to " + (we.empty() ? "?" : we));
    addFact(r.facts, "Affected nodes", array(result, "affected_nodes").empty()
                                           ? std::string()
                                           : std::to_string(array(result, "affected_nodes").size()));
    addFact(r.facts, "Source", source);
    const json& engine = member(result, "engine");
    addFact(r.facts, "Engine", str(engine, "name").empty() ? std::string() : str(engine, "name") + " " + str(engine, "version"));
    addFact(r.facts, "Rules", str(engine, "rules_digest"));

    if (const auto& o = review.verdictOverride) {
        std::vector<ReportFact> f;
        addFact(f, "Status", o->status);
        addFact(f, "Domain", o->domain + (o->subDomain.empty() ? "" : " / " + o->subDomain));
        addFact(f, "Root node", o->rootNode);
        f.push_back({"Reason", o->reason.empty() ? std::string("(none given)") : o->reason});
        addFact(f, "Recorded", o->when);
        r.verdictOverride = std::move(f);
    }

    std::map<std::string, const json*> evidence;
    for (const json& e : array(result, "evidence"))
        evidence[str(e, "id")] = &e;

    const json& rc = member(result, "root_cause");
    if (rc.is_object()) {
        r.rootTitle = str(rc, "title").empty() ? str(rc, "symptom") : str(rc, "title");
        addFact(r.rootFacts, "Where", placeOf(rc));
        addFact(r.rootFacts, "When", timeOf(rc) + (str(rc, "time_basis").empty() ? "" : " (" + str(rc, "time_basis") + ")"));
        addFact(r.rootFacts, "Symptom", str(rc, "symptom"));
        addFact(r.rootFacts, "PCI bus", str(rc, "pci_bus"));
        addFact(r.rootFacts, "Advice", str(rc, "advice"));
        for (const json& id : array(rc, "evidence")) {
            if (!id.is_string())
                continue;
            auto it = evidence.find(id.get<std::string>());
            if (it == evidence.end()) {
                r.rootLines.push_back({id.get<std::string>(), "(evidence not in this document)"});
                continue;
            }
            const json& raw = member(*it->second, "raw");
            r.rootLines.push_back({id.get<std::string>() + "  " + lineRef(str(raw, "file"), static_cast<uint64_t>(
                                                                              std::max<int64_t>(0, integer(raw, "line")))),
                                   str(*it->second, "excerpt")});
        }
    }

    for (const json& m : array(result, "missing"))
        if (m.is_string())
            r.missing.push_back(m.get<std::string>());
    r.missingHeading = r.status == "unattributed" ? "Missing evidence" : "Would strengthen the verdict";

    r.chain = chainGroups(result, r.chainGroupsLeftOut);

    for (const json& c : array(result, "candidates"))
        r.candidates.push_back({boolean(c, "chosen"), str(c, "title").empty() ? str(c, "symptom") : str(c, "title"),
                                placeOf(c), timeOf(c), str(c, "verdict")});

    for (const ReviewNote& n : review.notes) {
        std::string about = n.kind == "lane" ? "lane " + n.target : n.kind + " " + n.target;
        if (!n.file.empty())
            about += " (" + lineRef(n.file, n.line) + ")";
        r.notes.push_back({about, n.text, n.when});
    }
    for (const ReviewBookmark& b : review.bookmarks)
        r.notes.push_back({"bookmark " + lineRef(b.file, b.line), b.note, b.when});

    r.coverage = coverageLines(result);
    for (const json& w : array(result, "warnings"))
        if (w.is_string())
            r.warnings.push_back(w.get<std::string>());
    return r;
}

} // namespace fl::present
