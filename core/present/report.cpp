#include "present/report.h"

#include "baseline/comparison.h"
#include "present/report_chain.h"
#include "present/timefmt.h"
#include "present/verdict.h"
#include "present/would_decide.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>
#include <stdexcept>

namespace fl::present {

namespace {

constexpr size_t kChainGroups = 24;      // "from" events shown in the summarised chain
constexpr size_t kLeadsTo = 24;          // symptoms listed under each of them
constexpr size_t kProblemFiles = 40;     // coverage lines beyond the totals
constexpr size_t kQuotedCandidates = 26; // ambiguous: candidates whose raw lines are quoted (A-Z)
constexpr size_t kQuotedLines = 4;       // raw lines quoted per candidate

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

std::vector<ReportChainGroup> chainGroups(const Result& result, size_t& leftOut)
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

std::vector<std::string> coverageLines(const Result& result)
{
    std::map<std::string, size_t> byStatus;
    for (const ConnectorReport& c : result.connectors)
        ++byStatus[std::string(toString(c.status))];
    std::string head = plural(result.connectors.size(), "file", "files") + " read";
    for (const auto& [status, n] : byStatus)
        head += ", " + std::to_string(n) + " " + status;
    std::vector<std::string> lines{head};
    size_t shown = 0, hidden = 0;
    for (const ConnectorReport& c : result.connectors) {
        if ((c.status == FileStatus::Ok && c.parseErrors == 0) || c.status == FileStatus::Skipped)
            continue;
        if (shown == kProblemFiles) {
            ++hidden;
            continue;
        }
        ++shown;
        std::string line = std::string(toString(c.status)) + ": " + c.file;
        if (!c.reason.empty())
            line += " (" + c.reason + ")";
        if (c.parseErrors > 0)
            line += ", " + plural(static_cast<size_t>(c.parseErrors), "line", "lines") + " not parsed";
        lines.push_back(line);
    }
    if (hidden)
        lines.push_back("… and " + plural(hidden, "other file", "other files") + " with problems");
    return lines;
}

} // namespace

Report buildReport(const Result& result, const ReviewNotes& review, const std::string& source)
{
    Report r;
    r.title = "Faultline report";
    if (!result.workloadId.empty())
        r.title += ": workload " + result.workloadId + (result.attempt >= 0 ? ", attempt " + std::to_string(result.attempt) : "");
    r.status = std::string(toString(result.status));
    r.headline = upper(r.status) + ": " + std::string(toString(result.domain));
    if (!result.subDomain.empty())
        r.headline += " / " + result.subDomain;
    r.summary = result.summary;
    if (result.baseline)
        r.baseline = baselineText(result, *result.baseline);

    addFact(r.facts, "Outcome", std::string(toString(result.outcome)));
    const std::string ws = formatTimeUtc(result.windowStartNs), we = formatTimeUtc(result.windowEndNs);
    if (!ws.empty() || !we.empty())
        addFact(r.facts, "Window", (ws.empty() ? "?" : ws) + " to " + (we.empty() ? "?" : we));
    addFact(r.facts, "Affected nodes", result.affectedNodes.empty() ? std::string() : std::to_string(result.affectedNodes.size()));
    addFact(r.facts, "Source", source);
    addFact(r.facts, "Engine", "faultline " + result.engineVersion);
    addFact(r.facts, "Rules", result.rulesDigest);

    if (const auto& o = review.verdictOverride) {
        std::vector<ReportFact> f;
        addFact(f, "Status", o->status);
        addFact(f, "Domain", o->domain + (o->subDomain.empty() ? "" : " / " + o->subDomain));
        addFact(f, "Root node", o->rootNode);
        f.push_back({"Reason", o->reason.empty() ? std::string("(none given)") : o->reason});
        addFact(f, "Recorded", o->when);
        r.verdictOverride = std::move(f);
    }

    std::map<EvidenceId, const EvidenceItem*> evidence;
    for (const EvidenceItem& e : result.evidence)
        evidence.emplace(e.id, &e);

    if (const auto& rc = result.rootCause) {
        r.rootTitle = rc->title.empty() ? rc->symptom : rc->title;
        addFact(r.rootFacts, "Where", place(rc->node, rc->gpuIndex, rc->pciBus, rc->rank));
        addFact(r.rootFacts, "When", timeText(rc->time) + " (" + std::string(toString(rc->time.basis)) + ")");
        addFact(r.rootFacts, "Symptom", rc->symptom);
        addFact(r.rootFacts, "PCI bus", rc->pciBus);
        addFact(r.rootFacts, "Advice", rc->advice);
        for (const EvidenceId id : rc->evidence) {
            auto it = evidence.find(id);
            if (it == evidence.end()) {
                r.rootLines.push_back({toString(id), "(evidence not in this document)"});
                continue;
            }
            r.rootLines.push_back({toString(id) + "  " + lineRef(it->second->file, it->second->ref.line), it->second->excerpt});
        }
    }

    r.missing = result.missing;
    r.missingHeading = missingHeading(result);

    r.chain = chainGroups(result, r.chainGroupsLeftOut);

    const CandidateIndex index(result);
    for (const Candidate& c : result.candidates)
        r.candidates.push_back({c.chosen, c.title.empty() ? c.symptom : c.title, place(c.node, c.gpuIndex, c.pciBus, c.rank),
                                timeText(c.time), candidateVerdict(c, index), {}, {}});
    // Ambiguous: a reviewer weighs the candidates by their own lines, so each is quoted (issue #45).
    if (result.status == ResultStatus::Ambiguous)
        for (size_t i = 0; i < r.candidates.size() && i < kQuotedCandidates; ++i) {
            ReportCandidate& rc = r.candidates[i];
            rc.label = std::string(1, char('A' + i));
            for (const EvidenceId id : result.candidates[i].evidence) {
                if (rc.lines.size() == kQuotedLines)
                    break;
                auto it = evidence.find(id);
                if (it != evidence.end())
                    rc.lines.push_back({lineRef(it->second->file, it->second->ref.line), it->second->excerpt});
            }
        }

    for (const ReviewNote& n : review.notes) {
        std::string about = n.kind == "lane" ? "lane " + n.target : n.kind + " " + n.target;
        if (!n.file.empty())
            about += " (" + lineRef(n.file, n.line) + ")";
        r.notes.push_back({about, n.text, n.when});
    }
    // The evidence threads, each comment with its author and, for a reply, the comment it answers (#id).
    for (const ThreadComment& c : review.threads) {
        std::string about = "evidence " + c.target;
        if (!c.file.empty())
            about += " (" + lineRef(c.file, c.line) + ")";
        about += ", #" + std::to_string(c.id) + " by " + c.author;
        if (c.parent > 0)
            about += " replying to #" + std::to_string(c.parent);
        r.notes.push_back({about, c.text, c.when});
    }
    for (const ReviewBookmark& b : review.bookmarks)
        r.notes.push_back({"bookmark " + lineRef(b.file, b.line), b.note, b.when});

    addReviewToReport(r, result, review);
    r.coverage = coverageLines(result);
    r.warnings = result.warnings;
    return r;
}

} // namespace fl::present
