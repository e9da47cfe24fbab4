// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/chain/chaingraphview.h"
#include "views/review/reviewrecord.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

PanelSpec chain()
{
    PanelSpec p = namedPanel(QStringLiteral("chain"), QObject::tr("Symptom chain"), PanelArea::Centre, QuizRole::Decision);
    p.create = [](FocusState* focus) { return new ChainGraphView(focus); };
    p.clear = as<ChainGraphView>([](ChainGraphView* c) { c->show({}); });
    p.load = as<ChainGraphView>([](ChainGraphView* c, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("chain layout"),
                 [a, font = c->font()](const std::atomic<bool>&) { return ChainGraphView::plan(a, font); },
                 [c](ChainGraphView::Plan plan) { c->show(std::move(plan)); });
    });
    // At once: a step's chain is the result's at that step (no edge before the refine phases link them).
    p.replay = as<ChainGraphView>([](ChainGraphView* c, const AnalysisPtr& a, const ReplayPoint&) {
        c->show(ChainGraphView::plan(a, c->font()));
    });
    p.showNotes = as<ChainGraphView>([](ChainGraphView* c, const PanelNotes& n) {
        c->setReviewedRoot(n.reviewedRoot, n.reviewedRoot ? reviewedTag(n.reviews.back()) : QString());
    });
    return p;
}

} // namespace fl::panels
