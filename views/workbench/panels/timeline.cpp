// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/review/reviewrecord.h"
#include "views/timeline/timelinepanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

PanelSpec timeline()
{
    PanelSpec p = namedPanel(QStringLiteral("timeline"), QObject::tr("Timeline"), PanelArea::Centre);
    p.create = [](FocusState* focus) { return new TimelinePanel(focus); };
    p.attach = as<TimelinePanel>([](TimelinePanel* t, WorkbenchView& wb) {
        QObject::connect(wb.focus(), &FocusState::laneSelected, t->view(), &TimelineView::scrollToLane);
        QObject::connect(t->view(), &TimelineView::laneNoteRequested, &wb, &WorkbenchView::editLaneNote);
    });
    p.clear = as<TimelinePanel>([](TimelinePanel* t) { t->view()->setPrepared(nullptr, {}); });
    p.load = as<TimelinePanel>([](TimelinePanel* t, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("timeline lanes"), [a](const std::atomic<bool>&) { return TimelineView::prepare(a.get()); },
                 [t, a](TimelineView::Prepared prepared) { t->view()->setPrepared(a, std::move(prepared)); });
    });
    p.replay = as<TimelinePanel>([](TimelinePanel* t, const AnalysisPtr& a, const ReplayPoint&) { t->view()->setPrepared(a, TimelineView::prepare(a.get())); });
    p.showNotes = as<TimelinePanel>([](TimelinePanel* t, const PanelNotes& n) {
        t->view()->setLaneNotes(n.lanes);
        // The reviewer's root, beside the engine's marks (reviewrecord.h).
        std::vector<TimelineMark> reviewed;
        if (n.reviewedRoot)
            reviewed.push_back({*n.reviewedRoot, reviewedTag(n.reviews.back()), reviewColour(),
                                n.reviewedInterval.earliestNs, n.reviewedInterval.latestNs});
        t->view()->setMarks(QStringLiteral("review"), std::move(reviewed));
    });
    return p;
}

} // namespace fl::panels
