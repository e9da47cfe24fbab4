#include "present/summary.h"

#include "present/timefmt.h"
#include "present/verdict.h"

#include <algorithm>

namespace fl::present {

namespace {

constexpr size_t kFoundInsteadShown = 6;

std::string plural(size_t n, const char* word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// " on 3 nodes"; nothing when no event named its node ("4 downstream symptoms on 0 nodes" read as none).
std::string onNodes(size_t nodes)
{
    return nodes ? " on " + plural(nodes, "node") : std::string();
}

// "only downstream or informational symptoms were found (nccl.watchdog_timeout ×4, …)"
std::string foundInstead(const MissingFacts& f)
{
    std::string s = "only downstream or informational symptoms were found (";
    for (size_t i = 0; i < f.foundInstead.size(); ++i) {
        if (i == kFoundInsteadShown) {
            s += ", …";
            break;
        }
        s += (i ? ", " : "") + f.foundInstead[i].first + " ×" + std::to_string(f.foundInstead[i].second);
    }
    return s + ")";
}

} // namespace

std::vector<std::string> missingEvidence(const MissingFacts& f)
{
    std::vector<std::string> out;
    if (f.initiatingEvent)
        out.push_back(f.foundInstead.empty() ? "any failure evidence: no rule matched a line of this bundle"
                                             : "an initiating event; " + foundInstead(f));
    if (f.kernelLogs)
        out.push_back("kernel logs (syslog or dmesg) of the nodes: Xid, ECC, fallen-off-the-bus, OOM-killer and "
                      "other host faults appear only there");
    else if (!f.nodesWithoutKernelLogs.empty()) {
        std::string s = "kernel logs of ";
        for (size_t i = 0; i < f.nodesWithoutKernelLogs.size(); ++i)
            s += (i ? ", " : "") + f.nodesWithoutKernelLogs[i];
        out.push_back(s);
    } else if (f.nodesWithoutKernelLogsCount)
        out.push_back("kernel logs of " + std::to_string(f.nodesWithoutKernelLogsCount) + " nodes");
    if (f.schedulerRecords)
        out.push_back("scheduler records (sacct, slurmctld or Kubernetes events): node failures, preemption, "
                      "time limits and OOM kills by the scheduler");
    if (f.applicationLogs)
        out.push_back("application logs of the ranks: which collective hung and which rank failed first");
    return out;
}

std::string summary(const Result& result, const std::vector<EventId>& tiedRoots, const SummaryCounts& c,
                    const MissingFacts& missing)
{
    if (result.status == ResultStatus::Attributed && result.rootCause) {
        const RootCause& rc = *result.rootCause;
        std::string s = rc.title + " on " + place(rc.node, rc.gpuIndex, rc.pciBus, rc.rank) + " at " +
                        (rc.time.known() ? formatTime(rc.time) : std::string("an unknown time")) +
                        (c.downstream ? "; " + plural(c.downstream, "downstream symptom") + onNodes(c.downstreamNodes)
                                      : std::string("; no downstream symptom linked to it"));
        if (c.otherErrors)
            s += "; " + plural(c.otherErrors, "other error") +
                 onNodes(c.otherErrorNodes) +
                 " kept as interesting evidence";
        if (rc.inferred)
            s += "; inferred: no line shows it, " + rc.inferred->fromSymptom.str() + " names it";
        return s + ".";
    }
    if (result.status == ResultStatus::Ambiguous) {
        std::string s = "Ambiguous: ";
        size_t n = 0;
        for (const auto& cand : result.candidates) {
            if (!cand.outcome.tied() && std::find(tiedRoots.begin(), tiedRoots.end(), cand.event) == tiedRoots.end())
                continue;
            s += (n++ ? " and " : "") + cand.title + " on " + place(cand.node, cand.gpuIndex, cand.pciBus, cand.rank);
        }
        return s + " cannot be ordered or told apart.";
    }
    std::string s = "Unattributed: no initiating event in the evidence";
    if (missing.initiatingEvent && !missing.foundInstead.empty())
        s += "; " + foundInstead(missing);
    s += ".";
    // The most useful missing source: the first after the initiating event, up to its colon.
    const std::vector<std::string> lines = missingEvidence(missing);
    // (With nothing found at all, that is "any failure evidence" itself.)
    for (size_t i = missing.initiatingEvent && !missing.foundInstead.empty() ? 1 : 0; i < lines.size(); ++i) {
        s += " Most useful missing evidence: " + lines[i].substr(0, lines[i].find(':')) + ".";
        break;
    }
    return s;
}

} // namespace fl::present
