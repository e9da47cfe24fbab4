// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/baseline/baselinepanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

// What is new against a healthy attempt says which families are noise: part of the decision an exercise hides.
PanelSpec baseline()
{
    PanelSpec p = namedPanel(QStringLiteral("baseline"), QObject::tr("Baseline"), PanelArea::Centre, QuizRole::Decision);
    p.create = [](FocusState* focus) { return new BaselinePanel(focus); };
    // The healthy attempt's own result (its times) is the workbench's: the panel shows it with its comparison.
    p.attach = as<BaselinePanel>([](BaselinePanel* b, WorkbenchView& wb) { b->setAttemptSource([&wb] { return wb.baselineAttempt(); }); });
    p.clear = as<BaselinePanel>([](BaselinePanel* b) { b->clear(); });
    p.load = as<BaselinePanel>([](BaselinePanel* b, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("baseline rows"), onGuiThread, [b, a](bool) { b->setAnalysis(a); });
    });
    return p;
}

} // namespace fl::panels
