// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/common/viewstyle.h"
#include "views/evidence/evidencepanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

PanelSpec evidence()
{
    PanelSpec p = namedPanel(QStringLiteral("evidence"), QObject::tr("Evidence"), PanelArea::Bottom);
    p.create = [](FocusState* focus) { return new EvidencePanel(focus); };
    p.attach = as<EvidencePanel>([](EvidencePanel* e, WorkbenchView& wb) {
        QObject::connect(e, &EvidencePanel::noteRequested, &wb, &WorkbenchView::editEvidenceNote);
        QObject::connect(e, &EvidencePanel::noteRemoveRequested, &wb, [&wb](EvidenceId id) {
            static_cast<void>(wb.setEvidenceNote(id, {}));  // a failure reaches the user through notesError
        });
        QObject::connect(e, &EvidencePanel::bookmarkToggleRequested, &wb, [&wb](EvidenceId id) {
            if (const EvidenceItem* item = wb.evidenceById(id))
                static_cast<void>(wb.toggleBookmark(style::q(item->file), item->ref.line));  // failure: notesError
        });
    });
    // An exercise offers "Mark as the initiating event" on each row (the quiz panel collects the marks).
    p.exercise = as<EvidencePanel>([](EvidencePanel* e, bool hidden) { e->setMarking(hidden); });
    p.clear = as<EvidencePanel>([](EvidencePanel* e) { e->setAnalysis(nullptr); });
    p.load = as<EvidencePanel>([](EvidencePanel* e, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("evidence table"), onGuiThread, [e, a](bool) { e->setAnalysis(a); });
    });
    p.replay = as<EvidencePanel>([](EvidencePanel* e, const AnalysisPtr& a, const ReplayPoint&) { e->setAnalysis(a); });
    p.showNotes = as<EvidencePanel>([](EvidencePanel* e, const PanelNotes& n) {
        e->model()->setNotes(n.evidence, n.markedLines);
        e->fitNoteColumn();
    });
    return p;
}

} // namespace fl::panels
