// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/teach/phasestepperpanel.h"
#include "views/workbench/workbenchview.h"

#include <QTabWidget>

namespace fl::panels {

PanelSpec teach()
{
    PanelSpec p = namedPanel(QStringLiteral("teach"), QObject::tr("Teach"), PanelArea::Side, QuizRole::Decision);
    p.create = [](FocusState* focus) {
        auto* stepper = new PhaseStepperPanel(focus);
        stepper->setHighlighting(false);
        return stepper;
    };
    // The stepper highlights only while its tab is shown: elsewhere the dimmed graph would puzzle a reader who
    // never asked for it.
    // While the Teach tab is on show the other views replay the investigation at its step (workbenchreplay.cpp);
    // the Verdict and Explanation tabs chosen after it keep the step; elsewhere the views show the whole result.
    p.attach = as<PhaseStepperPanel>([](PhaseStepperPanel* s, WorkbenchView& wb) {
        QTabWidget* side = wb.sideTabs();
        QObject::connect(side, &QTabWidget::currentChanged, s, [s, side, &wb] {
            const bool shown = side->currentWidget() == s;
            s->setHighlighting(shown);
            if (shown)
                wb.replayStep(s->currentIndex());
            else if (!wb.followsReplay(side->currentWidget()))
                wb.replayStep(-1);
        });
        QObject::connect(s, &PhaseStepperPanel::stepChanged, &wb, [s, side, &wb](int index) {
            if (side->currentWidget() == s || wb.replayedStep() >= 0)
                wb.replayStep(index);
        });
        QObject::connect(s->replayClock(), &ReplayClock::timeChanged, &wb, [&wb](qint64 ns) { wb.setReplayTime(ns); });
    });
    // The start focus reset the highlight; it comes back when the stepper is the tab on show.
    p.ready = as<PhaseStepperPanel>([](PhaseStepperPanel* s, WorkbenchView& wb) {
        s->setHighlighting(wb.sideTabs()->currentWidget() == s);
    });
    p.clear = as<PhaseStepperPanel>([](PhaseStepperPanel* s) { s->setAnalysis(nullptr); });
    p.load = as<PhaseStepperPanel>([](PhaseStepperPanel* s, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("phase stepper"), onGuiThread, [s, a](bool) { s->setAnalysis(a); });
    });
    return p;
}

} // namespace fl::panels
