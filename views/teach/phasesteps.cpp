// SPDX-License-Identifier: MIT
#include "views/teach/phasesteps.h"

#include "rules/rule.h"

#include <QObject>

#include <algorithm>

namespace fl {

namespace {
void sortUnique(std::vector<EventId>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}
} // namespace

PhaseSteps::Change PhaseSteps::classify(TraceAction a)
{
    switch (a) {
    case TraceAction::Extracted:
        return Appeared;
    case TraceAction::Rewrote:
    case TraceAction::Decoded:
    case TraceAction::Kind:
        return Rewritten;
    case TraceAction::Suppressed:
    case TraceAction::Merged:
        return Suppressed;
    case TraceAction::Linked:
        return Linked;
    case TraceAction::Role:
    case TraceAction::Chose:
    case TraceAction::Ambiguous:
    case TraceAction::Unattributed:
    case TraceAction::EvidenceCap:
    case TraceAction::EvidenceRole:
    case TraceAction::Reported:
        return Ranked;
    case TraceAction::Emitted:
    case TraceAction::Moved:
    case TraceAction::SetFields:
    case TraceAction::CopiedFields:
        break;
    }
    return Other;
}

QString PhaseSteps::changeName(Change c)
{
    switch (c) {
    case Appeared: return QObject::tr("appear");
    case Rewritten: return QObject::tr("decoded / rewritten");
    case Suppressed: return QObject::tr("suppressed / merged");
    case Linked: return QObject::tr("linked");
    case Ranked: return QObject::tr("ranked / chosen");
    case Other:
    case ChangeCount: break;
    }
    return QObject::tr("other");
}

QString PhaseSteps::phaseDescription(const QString& phase)
{
    static const std::vector<std::pair<QString, QString>> kText = {
        {QStringLiteral("extract"), QObject::tr("Extractor rules turn matching log lines (observations) into symptom events.")},
        {QStringLiteral("filter.early"), QObject::tr("First clean-up: decode codes into specific symptoms and drop known noise.")},
        {QStringLiteral("filter"), QObject::tr("Suppress benign or duplicate events and merge repeats.")},
        {QStringLiteral("filter.late"), QObject::tr("Last filtering, once the other filters have run.")},
        {QStringLiteral("refine.early"), QObject::tr("Start reasoning across events: link effects to their likely causes.")},
        {QStringLiteral("refine"), QObject::tr("Link symptoms to causes and adjust roles (\"this OOM is a symptom here\").")},
        {QStringLiteral("refine.final"), QObject::tr("Final adjustments before the engine decides.")},
        {QStringLiteral("outcome"), QObject::tr("The engine ranks the initiators (earliest, then weight) and chooses a root cause, calls a tie ambiguous, or finds none.")},
        {QStringLiteral("post_outcome"), QObject::tr("Rules that need the decision: e.g. demote what the root cause explains.")},
        {QStringLiteral("report"), QObject::tr("Evidence roles and caps for the report; the result is written.")},
    };
    for (const auto& [p, t] : kText)
        if (p == phase)
            return t;
    return QObject::tr("A phase this version of the workbench does not describe.");
}

void PhaseSteps::build(const Analysis& analysis)
{
    m_steps.clear();
    // The engine's order, then any phase the trace names that we do not know.
    std::vector<QString> order = {QString::fromUtf8(toString(Phase::Extract)),
                                  QString::fromUtf8(toString(Phase::FilterEarly)),
                                  QString::fromUtf8(toString(Phase::Filter)),
                                  QString::fromUtf8(toString(Phase::FilterLate)),
                                  QString::fromUtf8(toString(Phase::RefineEarly)),
                                  QString::fromUtf8(toString(Phase::Refine)),
                                  QString::fromUtf8(toString(Phase::RefineFinal)),
                                  QStringLiteral("outcome"),
                                  QString::fromUtf8(toString(Phase::PostOutcome)),
                                  QString::fromUtf8(toString(Phase::Report))};
    for (const TraceStep& t : analysis.trace) {
        const QString p = QString::fromStdString(std::string(toString(t.phase)));
        if (std::find(order.begin(), order.end(), p) == order.end())
            order.push_back(p);
    }
    for (const QString& p : order)
        m_steps.push_back(Step{p, {}, {}, {}});
    for (const TraceStep& t : analysis.trace) {
        Step& s = m_steps[static_cast<size_t>(indexOf(QString::fromStdString(std::string(toString(t.phase)))))];
        s.items.push_back(&t);
        auto& bucket = s.events[classify(t.action)];
        for (EventId id : t.events) {
            bucket.push_back(id);
            s.touched.push_back(id);
        }
    }
    for (Step& s : m_steps) {
        for (auto& b : s.events)
            sortUnique(b);
        sortUnique(s.touched);
    }
}

int PhaseSteps::indexOf(const QString& phase) const
{
    for (size_t i = 0; i < m_steps.size(); ++i)
        if (m_steps[i].phase == phase)
            return static_cast<int>(i);
    return -1;
}

} // namespace fl
