#include "exercise/quiz.h"


#include <algorithm>

namespace fl::exercise {


Analysis quizAnalysis(const Analysis& analysis)
{
    Analysis a = analysis;
    a.trace.clear();
    Result& r = a.result;
    clearVerdict(r);
    r.edges.clear();
    r.familyEdges.clear();
    r.rulesFired.clear();
    r.evidenceOmitted.clear();
    for (SymptomEvent& e : r.events) {
        // A symptom id is the engine's classification, its prefix the domain of the verdict ("nvlink.nvls_failure"):
        // the learner reads the lines themselves.
        e.symptom = {};
        e.originalSymptom = {};
        e.suppressed = false;
        e.suppressedBy = {};
        e.suppressReason = {};
        e.roleOverride.reset();
        e.roleOverrideBy = {};
        e.evidenceRole.reset();
        e.inferred.reset();
    }
    for (SymptomFamily& f : r.families) {
        f.role = EvidenceRole::Interesting;
        f.suppressedBy.clear();
        f.causes.clear();
        f.symptom.clear();
        f.title.clear();
    }
    for (EvidenceItem& ev : r.evidence) {
        ev.role = EvidenceRole::Interesting;
        ev.symptom.clear();
    }
    return a;
}

void clearVerdict(Result& r)
{
    r.status = ResultStatus::Unattributed;
    r.domain = Domain::Unknown;
    r.subDomain.clear();
    r.rootCause.reset();
    r.summary.clear();
    r.missing.clear();
    r.onset.reset();
    r.candidates.clear();
    r.wouldDecide.clear();  // names the tied candidates' nodes: part of the answer
}

Label labelOfEngine(const Result& r)
{
    Truth t;
    t.status = r.status;
    t.domain = r.domain;
    t.subDomain = r.subDomain;
    if (r.rootCause) {
        t.culpritNode = r.rootCause->node;
        t.culpritRank = r.rootCause->rank;
        t.culpritGpu = r.rootCause->gpuIndex;
    }
    if (r.status == ResultStatus::Ambiguous)
        for (const Candidate& c : r.candidates)
            if (c.outcome.tied() && c.node != t.culpritNode) {
                if (t.culpritNode.empty())
                    t.culpritNode = c.node;
                else if (std::find(t.alsoAcceptableNodes.begin(), t.alsoAcceptableNodes.end(), c.node) ==
                         t.alsoAcceptableNodes.end())
                    t.alsoAcceptableNodes.push_back(c.node);
            }
    Label label;
    label.source = LabelSource::Expected;
    label.truth = t;
    label.document = truthToJson(t);
    return label;
}

} // namespace fl::exercise
