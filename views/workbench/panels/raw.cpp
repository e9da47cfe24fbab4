// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/evidence/rawfilepanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

PanelSpec raw()
{
    PanelSpec p = namedPanel(QStringLiteral("raw"), QObject::tr("Raw lines"), PanelArea::Bottom);
    p.create = [](FocusState*) { return new RawFilePanel; };
    p.attach = as<RawFilePanel>([](RawFilePanel* r, WorkbenchView& wb) {
        QObject::connect(wb.focus(), &FocusState::evidenceSelected, &wb, &WorkbenchView::openEvidence);
        QObject::connect(r->view(), &RawFileView::bookmarkToggleRequested, &wb, [r, &wb](quint64 line) {
            static_cast<void>(wb.toggleBookmark(r->view()->displayName(), line));  // failure: notesError
        });
        QObject::connect(r->view(), &RawFileView::lineNoteRequested, &wb, &WorkbenchView::editLineNote);
        QObject::connect(r->view(), &RawFileView::fileOpened, &wb, &WorkbenchView::refreshNotes);
    });
    // An exercise offers "Mark line N as the initiating event" (the quiz panel collects the marks).
    p.exercise = as<RawFilePanel>([](RawFilePanel* r, bool hidden) { r->view()->setMarking(hidden); });
    // A new analysis opens with no file shown; selecting its evidence opens one.
    p.showNow = as<RawFilePanel>([](RawFilePanel* r, const AnalysisPtr&) { r->view()->close(); });
    p.showNotes = as<RawFilePanel>([](RawFilePanel* r, const PanelNotes& n) {
        std::map<uint64_t, QString> marks;
        const QString file = r->view()->displayName();
        for (const LineBookmark& b : n.bookmarks)
            if (b.file == file)
                marks[b.line] = b.note;
        r->view()->setBookmarks(std::move(marks));
    });
    return p;
}

} // namespace fl::panels
