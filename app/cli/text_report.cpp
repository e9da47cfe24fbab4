#include "text_report.h"

#include "present/family_label.h"
#include "present/timefmt.h"
#include "present/verdict.h"
#include "present/would_decide.h"
#include "engine/families.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace fl::cli {

using present::counted;
using present::familyLine;

namespace {

std::string upper(std::string s)
{
    for (auto& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string oneLine(std::string s, size_t max = 160)
{
    for (auto& c : s)
        if (c == '\n' || c == '\r' || c == '\t')
            c = ' ';
    if (s.size() > max)
        s = s.substr(0, max) + "…";
    return s;
}

const EvidenceItem* evidenceById(const Result& r, EvidenceId id)
{
    for (const auto& e : r.evidence)
        if (e.id == id)
            return &e;
    return nullptr;
}

std::string shortTime(const Timestamp& time)
{
    std::string t = formatTime(time);
    return t.empty() ? "(no time)" : t;
}

// The chain as families: each source family, then what the rules linked to it;
// then the families nothing links, by role. One line each.
std::string formatFamilies(const Result& r)
{
    constexpr size_t kMaxLines = 60;
    std::ostringstream os;
    std::map<FamilyId, std::vector<const FamilyEdge*>> out;
    std::set<FamilyId> linked;
    for (const auto& e : r.familyEdges) {
        out[e.from].push_back(&e);
        linked.insert(e.from);
        linked.insert(e.to);
    }
    size_t lines = 0, left = 0;
    auto emit = [&](const std::string& line) {
        if (lines++ < kMaxLines)
            os << line << "\n";
        else
            ++left;
    };
    auto tag = [](const SymptomFamily& f) {
        return upper(std::string(toString(f.role)));
    };
    os << "\nSymptom chain (" << counted(r.families.size(), "family", "families") << " of " << counted(r.events.size(), "event")
       << "; --detail lists every event)\n";
    // Several candidates often link to the same families: said once.
    std::map<std::vector<std::pair<FamilyId, std::string>>, FamilyId> printedTargets;
    for (const auto& [from, edges] : out) {
        const SymptomFamily& f = r.families[from.value];
        emit("  " + tag(f) + "  " + familyLine(f));
        std::vector<std::pair<FamilyId, std::string>> targets;
        for (const FamilyEdge* e : edges)
            targets.emplace_back(e->to, e->rule);
        if (auto it = printedTargets.find(targets); it != printedTargets.end() && targets.size() > 1) {
            emit("    -> the same " + std::to_string(targets.size()) + " families as " + r.families[it->second.value].symptom +
                 " above");
            continue;
        }
        printedTargets.emplace(targets, from);
        for (const FamilyEdge* e : edges)
            emit("    -> " + familyLine(r.families[e->to.value]) + "   (rule " + e->rule + ")");
    }
    for (EvidenceRole role : {EvidenceRole::Root, EvidenceRole::Symptom, EvidenceRole::Interesting, EvidenceRole::Context})
        for (size_t i = 0; i < r.families.size(); ++i) {
            const SymptomFamily& f = r.families[i];
            if (f.role == role && !linked.count(FamilyId(static_cast<uint32_t>(i))))
                emit("  " + tag(f) + "  " + familyLine(f));
        }
    if (left)
        os << "  … " << counted(left, "more line") << " (--detail, or the JSON's symptom_chain.families)\n";
    return os.str();
}

} // namespace

std::string formatDiagnosis(const Analysis& a, bool detail)
{
    const Result& r = a.result;
    std::ostringstream os;
    os << "Faultline diagnosis of " << a.bundle.root;
    if (!r.workloadId.empty())
        os << "  (workload " << r.workloadId << (r.attempt >= 0 ? ", attempt " + std::to_string(r.attempt) : "") << ")";
    os << "\n\n";
    os << "  Status      " << upper(std::string(toString(r.status))) << "   domain " << toString(r.domain);
    if (!r.subDomain.empty())
        os << " / " << r.subDomain;
    os << "\n  Outcome     " << toString(r.outcome) << "\n";
    if (r.rootCause) {
        const RootCause& rc = *r.rootCause;
        os << "  Root cause  " << rc.title << "\n";
        os << "              " << present::place(rc.node, rc.gpuIndex, rc.pciBus, rc.rank, present::BusDetail::Always) << " at " << shortTime(rc.time)
           << "\n";
        for (const EvidenceId id : rc.evidence) {
            if (const EvidenceItem* ev = evidenceById(r, id))
                os << "              " << toString(id) << "  " << ev->file << ":" << ev->ref.line << "  "
                   << oneLine(ev->excerpt, 110) << "\n";
        }
        if (!rc.advice.empty())
            os << "  Advice      " << rc.advice << "\n";
    }
    os << "  Summary     " << r.summary << "\n";
    if (!r.affectedNodes.empty()) {
        os << "  Affected    " << r.affectedNodes.size() << " node" << (r.affectedNodes.size() == 1 ? "" : "s") << ": ";
        for (size_t i = 0; i < r.affectedNodes.size() && i < 12; ++i)
            os << (i ? ", " : "") << r.affectedNodes[i];
        if (r.affectedNodes.size() > 12)
            os << ", …";
        os << "\n";
    }

    if (!r.candidates.empty()) {
        os << "\nCandidates considered\n";
        const present::CandidateIndex index(r);
        for (const auto& c : r.candidates)
            os << "  " << (c.chosen ? "*" : "-") << " " << c.title << " on " << present::place(c.node, c.gpuIndex, c.pciBus, c.rank)
               << " at " << shortTime(c.time) << "\n      " << present::candidateVerdict(c, index) << "\n";
    }

    if (!detail && !r.families.empty())
        os << formatFamilies(r);
    // Chain: root (or tied candidates) and what the rules linked to them, grouped by symptom.
    if (detail && !r.edges.empty()) {
        os << "\nSymptom chain (every event)\n";
        std::map<uint32_t, std::map<std::string, std::pair<std::set<std::string>, std::string>>> children;
        for (const auto& e : r.edges) {
            const SymptomEvent& to = r.events[e.to.value];
            auto& slot = children[e.from.value][to.symptom];
            slot.first.insert(to.node.empty() ? "?" : to.node);
            slot.second = e.rule;
        }
        for (const auto& [from, kids] : children) {
            const SymptomEvent& f = r.events[from];
            os << "  " << f.symptom.str() << " @ " << present::place(f.node, f.gpuIndex, f.pciBus, f.rank) << "  " << shortTime(f.time) << "\n";
            for (const auto& [sym, info] : kids)
                os << "    -> " << sym << " on " << info.first.size() << " node" << (info.first.size() == 1 ? "" : "s")
                   << "   (rule " << info.second << ")\n";
        }
    }

    if (!r.missing.empty()) {
        os << "\n" << present::missingHeading(r) << "\n";
        for (const auto& m : r.missing)
            os << "  - " << m << "\n";
    }

    std::map<FileStatus, size_t> byStatus;
    for (const auto& c : r.connectors)
        ++byStatus[c.status];
    os << "\nCoverage: " << r.connectors.size() << " files";
    for (const auto& [st, n] : byStatus)
        os << ", " << n << " " << toString(st);
    os << "\n";
    for (const auto& c : r.connectors) {
        if (c.status == FileStatus::Ok && c.parseErrors == 0)
            continue;
        os << "  " << toString(c.status) << "  " << c.file;
        if (!c.reason.empty())
            os << "  — " << c.reason;
        if (c.parseErrors)
            os << "  (" << c.parseErrors << " lines not parsed)";
        os << "\n";
    }
    for (const auto& w : r.warnings)
        os << "  warning: " << w << "\n";
    os << "\nEngine " << r.engineVersion << ", rules " << r.rulesDigest.substr(0, 19) << "\n";
    return os.str();
}

std::string formatExplanation(const Analysis& a)
{
    const Result& r = a.result;
    std::ostringstream os;
    os << "Explanation, phase by phase\n";
    std::optional<Phase> phase;
    for (const auto& step : a.trace) {
        if (step.phase != phase) {
            phase = step.phase;
            os << "\n[" << upper(std::string(toString(step.phase))) << "]\n";
        }
        os << "  " << step.rule << ": " << present::traceAction(step);
        if (!step.detail.empty())
            os << " — " << oneLine(step.detail, 140);
        if (step.phase == Phase::Extract && !step.events.empty()) {
            std::map<std::string, size_t> bySymptom;
            for (EventId id : step.events)
                if (id.value < r.events.size())
                    ++bySymptom[r.events[id.value].originalSymptom];
            os << " (";
            size_t i = 0;
            for (const auto& [s, n] : bySymptom)
                os << (i++ ? ", " : "") << s << " ×" << n;
            os << ")";
        }
        os << "\n";
    }
    os << "\nWhy the verdict\n";
    if (r.candidates.empty())
        os << "  No event with an initiating role survived filtering.\n";
    const present::CandidateIndex index(r);
    for (const auto& c : r.candidates)
        os << "  " << (c.chosen ? "*" : "-") << " " << c.symptom << " on " << present::place(c.node, c.gpuIndex, c.pciBus, c.rank) << ": "
           << present::candidateVerdict(c, index) << " (supports " << c.support << " downstream events)\n";
    return os.str();
}

std::string formatInspection(const Analysis& a, bool asJson)
{
    const auto& files = a.bundle.files;
    std::set<std::string> nodes;
    std::set<int> ranks;
    int64_t first = kNoTime, last = kNoTime;
    for (const auto& f : files) {
        if (!f.node.empty())
            nodes.insert(f.node);
        if (f.rank >= 0)
            ranks.insert(f.rank);
        if (f.firstTimeNs != kNoTime)
            first = first == kNoTime ? f.firstTimeNs : std::min(first, f.firstTimeNs);
        if (f.lastTimeNs != kNoTime)
            last = last == kNoTime ? f.lastTimeNs : std::max(last, f.lastTimeNs);
    }
    for (const auto& o : a.observations) {
        if (!o.node.empty())
            nodes.insert(o.node);
        if (o.rank >= 0)
            ranks.insert(o.rank);
    }
    if (asJson) {
        nlohmann::json j;
        j["bundle"] = a.bundle.root;
        j["nodes"] = nodes;
        j["ranks"] = ranks;
        j["time_span"] = {{"first", first == kNoTime ? nlohmann::json() : nlohmann::json(formatTimeUtc(first))},
                          {"last", last == kNoTime ? nlohmann::json() : nlohmann::json(formatTimeUtc(last))}};
        nlohmann::json fs = nlohmann::json::array();
        for (const auto& f : files)
            fs.push_back({{"file", f.path},
                          {"kind", std::string(toString(f.kind))},
                          {"kind_reason", f.kindReason},
                          {"node", f.node},
                          {"node_reason", f.nodeReason},
                          {"rank", f.rank},
                          {"status", std::string(toString(f.status))},
                          {"reason", f.statusReason},
                          {"bytes", f.size},
                          {"lines", f.lines},
                          {"observations", f.observations},
                          {"first", formatTimeUtc(f.firstTimeNs)},
                          {"last", formatTimeUtc(f.lastTimeNs)}});
        j["files"] = fs;
        j["metrics"] = a.metrics.size();
        return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    std::ostringstream os;
    os << "Bundle " << a.bundle.root << (a.bundle.isArchive ? " (archive)" : "") << "\n";
    os << "  " << files.size() << " files, " << nodes.size() << " nodes, " << ranks.size() << " ranks, "
       << a.metrics.size() << " metric series\n";
    os << "  time span " << (first == kNoTime ? "unknown" : formatTimeUtc(first)) << " .. "
       << (last == kNoTime ? "unknown" : formatTimeUtc(last)) << "\n";
    if (!nodes.empty()) {
        os << "  nodes: ";
        size_t i = 0;
        for (const auto& n : nodes) {
            if (i == 16) {
                os << ", …";
                break;
            }
            os << (i++ ? ", " : "") << n;
        }
        os << "\n";
    }
    os << "\n  " << "status       kind           node             rank  lines      file (why)\n";
    for (const auto& f : files) {
        char buf[512];
        std::snprintf(buf, sizeof buf, "  %-12s %-14s %-16s %5s %-10llu ", std::string(toString(f.status)).c_str(),
                      std::string(toString(f.kind)).c_str(), f.node.empty() ? "-" : f.node.c_str(),
                      f.rank >= 0 ? std::to_string(f.rank).c_str() : "-", static_cast<unsigned long long>(f.lines));
        os << buf << f.path << "  (" << f.kindReason;
        if (!f.nodeReason.empty())
            os << "; node: " << f.nodeReason;
        if (!f.statusReason.empty())
            os << "; " << f.statusReason;
        os << ")\n";
    }
    for (const auto& w : a.bundle.warnings)
        os << "  warning: " << w << "\n";
    return os.str();
}

} // namespace fl::cli
