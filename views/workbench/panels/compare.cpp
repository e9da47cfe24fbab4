// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/models/comparemodel.h"
#include "views/review/comparepanel.h"
#include "views/timeline/timelinepanel.h"
#include "views/workbench/workbenchview.h"

#include <QTabWidget>

namespace fl::panels {

namespace {

// The compared candidates as the timeline labels them: A, B … over each corrected interval, in the
// compare table's colours.
std::vector<TimelineMark> candidateMarks(const present::Comparison& c)
{
    std::vector<TimelineMark> marks;
    for (size_t i = 0; i < c.columns.size(); ++i) {
        const auto& col = c.columns[i];
        marks.push_back({col.event, QString::fromStdString(col.label), candidateColor(i), col.interval.earliestNs,
                         col.interval.latestNs});
    }
    return marks;
}

} // namespace

// Compare candidates (issue #45): the tied candidates side by side, the clocks behind their intervals, what
// would decide; the timeline labels them. It says how close the decision was, so an exercise hides it.
PanelSpec compare()
{
    PanelSpec p = namedPanel(QStringLiteral("compare"), QObject::tr("Compare"), PanelArea::Side, QuizRole::Decision);
    p.create = [](FocusState* focus) { return new ComparePanel(focus); };
    p.attach = as<ComparePanel>([](ComparePanel* c, WorkbenchView& wb) {
        QObject::connect(c, &ComparePanel::comparisonChanged, &wb, [c, &wb] {
            // Only an ambiguous result's tie is labelled: one candidate alone is the verdict, not a comparison.
            // (the columns hold every candidate when none tied: an attributed result's losers are not labelled)
            const auto& cmp = c->comparison();
            const auto a = wb.analysis();
            const bool tie = a && a->result.status == ResultStatus::Ambiguous && cmp.columns.size() > 1;
            wb.timeline()->view()->setMarks(QStringLiteral("compare"), tie ? candidateMarks(cmp) : std::vector<TimelineMark>{});
        });
        // The zoom is seen on the timeline: bring it to the front.
        QObject::connect(c, &ComparePanel::zoomed, &wb, [&wb] { wb.centreTabs()->setCurrentWidget(wb.timeline()); });
    });
    p.clear = as<ComparePanel>([](ComparePanel* c) { c->setAnalysis(nullptr); });
    p.load = as<ComparePanel>([](ComparePanel* c, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("compare candidates"), onGuiThread, [c, a](bool) { c->setAnalysis(a); });
    });
    return p;
}

} // namespace fl::panels
