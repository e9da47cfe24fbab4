// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/evidence/evidencepanel.h"
#include "views/evidence/rawfilepanel.h"
#include "views/teach/quizpanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

// The exercise (WorkbenchView::setQuiz): what to do, the learner's marks, Reveal.
PanelSpec quiz()
{
    PanelSpec p = namedPanel(QStringLiteral("quiz"), QObject::tr("Exercise"), PanelArea::Side, QuizRole::Exercise);
    p.create = [](FocusState*) { return new QuizPanel; };
    // Marks come from the evidence table and the raw lines (their context menus while an exercise is open).
    p.attach = as<QuizPanel>([](QuizPanel* q, WorkbenchView& wb) {
        QObject::connect(wb.evidence(), &EvidencePanel::markRequested, q, &QuizPanel::addMark);
        RawFileView* raw = wb.raw()->view();
        QObject::connect(raw, &RawFileView::markRequested, q, [q, raw](quint64 line) { q->addMark(raw->displayName(), line); });
        QObject::connect(q, &QuizPanel::revealRequested, &wb, &WorkbenchView::reveal);
    });
    // A new exercise starts with no marks and nothing revealed; the reveal keeps the score on show.
    p.exercise = as<QuizPanel>([](QuizPanel* q, bool hidden) {
        if (hidden)
            q->reset();
    });
    return p;
}

} // namespace fl::panels
