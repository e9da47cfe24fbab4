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

// "~2026-03-14 10:00:41 UTC": the onset is an estimate, to the second.
std::string aboutUtc(int64_t ns)
{
    std::string t = formatTimeUtc(ns - ((ns % 1'000'000'000) + 1'000'000'000) % 1'000'000'000);
    if (auto p = t.find('T'); p != std::string::npos)
        t[p] = ' ';
    if (!t.empty() && t.back() == 'Z')
        t.replace(t.size() - 1, 1, " UTC");
    return "~" + t;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string s;
    for (size_t i = 0; i < items.size(); ++i)
        s += (i ? ", " : "") + items[i];
    return s;
}

// The evidence an unexplained onset asks for: an event before it, the quiet ranks' own logs, and the
// sources of that moment on the nodes involved.
void onsetEvidence(const MissingFacts& f, std::vector<std::string>& out)
{
    const OnsetFacts& o = *f.onset;
    const std::string when = aboutUtc(o.estimateNs);
    out.push_back("an event from before " + when + ", when " + onsetWitness(o.byMetrics, o.symptoms) +
                  (o.byMetrics ? " says" : " say") + " the hang began, that explains it" +
                  (o.laterInitiators ? "; the " + plural(o.laterInitiators, "initiating event") + " found began after it"
                   : f.foundInstead.empty() ? std::string()
                                            : "; " + foundInstead(f)));
    if (!o.quietRanks.empty())
        out.push_back("application logs of " + placeOfMany(joined(o.quietNodes), formatRanges(o.quietRanks)) +
                      " around " + when + ": they did not report waiting, so the others may have waited for them");
    if (!o.nodes.empty())
        out.push_back("evidence from the minutes before " + when + " on " + joined(o.nodes) +
                      (o.nodeCount > o.nodes.size() ? " and " + std::to_string(o.nodeCount - o.nodes.size()) + " more"
                                                    : std::string()) +
                      ": kernel logs (Xid, NIC, hung task, OOM), GPU and fabric state (nvidia-smi, DCGM, "
                      "fabric manager), switch and storage logs");
}

} // namespace

std::vector<std::string> missingEvidence(const MissingFacts& f)
{
    std::vector<std::string> out;
    if (f.onset)
        onsetEvidence(f, out);
    else if (f.initiatingEvent)
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
    if (missing.onset) {
        std::string s = "Unattributed: the hang began at " + aboutUtc(missing.onset->estimateNs) +
                        "; no event before it explains it";
        size_t later = 0;
        for (const auto& cand : result.candidates)
            if (cand.outcome.reason == CandidateReason::AfterOnset && ++later <= 3)
                s += "; " + cand.title + " on " + place(cand.node, cand.gpuIndex, cand.pciBus, cand.rank) + " began " +
                     seconds(cand.outcome.deltaNs) + " after it: a later consequence or an independent fault";
        if (later > 3)
            s += "; " + plural(later - 3, "more initiating event") + " after it";
        s += ".";
        const std::vector<std::string> lines = missingEvidence(missing);
        if (lines.size() > 1) // up to the colon that ends what it names (the times have colons too)
            s += " Most useful missing evidence: " + lines[1].substr(0, lines[1].find(": ")) + ".";
        return s;
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
