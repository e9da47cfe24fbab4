// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/review/reviewpanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

namespace {
// Written to the notes file, then every panel shows the record again (the timeline and chain mark the
// reviewed root); a refusal is said on the tab.
void stored(ReviewPanel* r, WorkbenchView& wb, bool ok)
{
    if (ok) {
        wb.refreshNotes();
        emit wb.notesChanged();
        return;
    }
    const NotesStore* n = wb.notes();
    r->showRefusal(!n->refusal().isEmpty() ? n->refusal()
                                           : QObject::tr("Not saved: %1").arg(n->error().isEmpty() ? QObject::tr("no bundle open")
                                                                                                   : n->error()));
}
} // namespace

// The review record (issue #45 item 3): confirm or choose with a reason, the history of decisions, the
// threads per evidence item. It names a root, so an exercise hides it.
PanelSpec review()
{
    PanelSpec p = namedPanel(QStringLiteral("review"), QObject::tr("Review"), PanelArea::Side, QuizRole::Decision);
    p.create = [](FocusState* focus) { return new ReviewPanel(focus); };
    p.attach = as<ReviewPanel>([](ReviewPanel* r, WorkbenchView& wb) {
        QObject::connect(r, &ReviewPanel::decisionMade, &wb,
                         [r, &wb](present::ReviewDecision d) { stored(r, wb, wb.notes()->appendReview(d)); });
        QObject::connect(r, &ReviewPanel::commentMade, &wb,
                         [r, &wb](present::ThreadComment c) { stored(r, wb, wb.notes()->addComment(c)); });
    });
    p.clear = as<ReviewPanel>([](ReviewPanel* r) {
        r->setAnalysis(nullptr);
        r->setRecord({}, {});
    });
    p.load = as<ReviewPanel>([](ReviewPanel* r, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("review record"), onGuiThread, [r, a](bool) { r->setAnalysis(a); });
    });
    p.showNotes = as<ReviewPanel>([](ReviewPanel* r, const PanelNotes& n) { r->setRecord(n.reviews, n.threads); });
    return p;
}

} // namespace fl::panels
