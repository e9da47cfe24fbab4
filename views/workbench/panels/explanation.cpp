// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/verdict/explanationpanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

PanelSpec explanation()
{
    PanelSpec p = namedPanel(QStringLiteral("explanation"), QObject::tr("Explanation"), PanelArea::Side, QuizRole::Decision);
    p.create = [](FocusState* focus) { return new ExplanationPanel(focus); };
    p.clear = as<ExplanationPanel>([](ExplanationPanel* e) { e->setAnalysis(nullptr); });
    p.load = as<ExplanationPanel>([](ExplanationPanel* e, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("candidates + trace rows"),
                 [a](const std::atomic<bool>&) { return ExplanationPanel::prepare(a.get()); },
                 [e, a](ExplanationPanel::Prepared prepared) { e->setPrepared(a.get(), std::move(prepared)); });
    });
    // The candidates and the rules fired as known after the step (the replayed analysis's trace ends there).
    p.replay = as<ExplanationPanel>([](ExplanationPanel* e, const AnalysisPtr& a, const ReplayPoint&) {
        e->setPrepared(a.get(), ExplanationPanel::prepare(a.get()));
    });
    return p;
}

} // namespace fl::panels
