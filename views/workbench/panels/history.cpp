// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/history/historypanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

// "This GPU failed before" points at the root cause's place: part of the decision an exercise hides.
PanelSpec history()
{
    PanelSpec p = namedPanel(QStringLiteral("history"), QObject::tr("History"), PanelArea::Centre, QuizRole::Decision);
    p.create = [](FocusState* focus) { return new HistoryPanel(focus); };
    // Another database chosen while a result is open: read it for that result at once (a few indexed queries).
    p.attach = as<HistoryPanel>([](HistoryPanel* h, WorkbenchView& wb) {
        QObject::connect(h, &HistoryPanel::databaseChanged, h, [h, &wb] {
            if (wb.analysis())
                h->setPrepared(HistoryPanel::prepare(wb.analysis().get(), h->database()));
        });
    });
    p.clear = as<HistoryPanel>([](HistoryPanel* h) { h->clear(); });
    p.load = as<HistoryPanel>([](HistoryPanel* h, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("history of the job's places"),
                 [a, db = h->database()](const std::atomic<bool>&) { return HistoryPanel::prepare(a.get(), db); },
                 [h](HistoryPanel::Prepared prepared) { h->setPrepared(std::move(prepared)); });
    });
    return p;
}

} // namespace fl::panels
