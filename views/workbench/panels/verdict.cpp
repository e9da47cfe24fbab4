// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "present/exercise_text.h"
#include "present/timefmt.h"
#include "views/common/viewstyle.h"
#include "views/verdict/verdictpanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

PanelSpec verdict()
{
    PanelSpec p = namedPanel(QStringLiteral("verdict"), QObject::tr("Verdict"), PanelArea::Side, QuizRole::Decision);
    p.create = [](FocusState* focus) { return new VerdictPanel(focus); };
    p.attach = as<VerdictPanel>([](VerdictPanel* v, WorkbenchView& wb) {
        QObject::connect(v, &VerdictPanel::overrideRequested, &wb, &WorkbenchView::editVerdictOverride);
        QObject::connect(v, &VerdictPanel::overrideClearRequested, &wb, [&wb] {
            static_cast<void>(wb.clearVerdictOverride());  // a failure reaches the user through notesError
        });
    });
    p.clear = as<VerdictPanel>([](VerdictPanel* v) { v->setVerdict(nullptr); });
    // What was decided is shown at once; the coverage rows follow.
    p.showNow = as<VerdictPanel>([](VerdictPanel* v, const AnalysisPtr& a) { v->setVerdict(a); });
    p.load = as<VerdictPanel>([](VerdictPanel* v, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("coverage rows"),
                 [a](const std::atomic<bool>&) { return a ? a->result.connectors : std::vector<ConnectorReport>(); },
                 [v](std::vector<ConnectorReport> rows) { v->setCoverage(std::move(rows)); });
    });
    // Before outcome nothing is decided: the banner says so and no verdict text is shown.
    p.replay = as<VerdictPanel>([](VerdictPanel* v, const AnalysisPtr& a, const ReplayPoint& at) {
        v->setVerdict(a);
        v->setCoverage(a ? a->result.connectors : std::vector<ConnectorReport>());
        if (at.step < 0)
            return;
        const std::string time = at.atNs == kNoTime ? std::string() : formatTimeUtc(at.atNs);
        v->setReplayNote(style::q(present::replayNote(at.step + 1, at.steps, at.phase.toStdString(), at.decided, time)),
                         at.decided);
    });
    p.showNotes = as<VerdictPanel>([](VerdictPanel* v, const PanelNotes& n) { v->setOverride(n.verdictOverride); });
    return p;
}

} // namespace fl::panels
