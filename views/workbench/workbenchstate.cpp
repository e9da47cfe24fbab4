// SPDX-License-Identifier: MIT
#include "views/workbench/workbenchstate.h"

#include "views/workbench/workbenchview.h"

#include <QFileInfo>
#include <QTabWidget>

namespace fl {

namespace {

QString panelId(const WorkbenchView& wb, const QWidget* w)
{
    for (const PanelSpec& spec : workbenchPanels())
        if (w && wb.panel(spec.id) == w)
            return spec.id;
    return {};
}

} // namespace

bool applyReplay(WorkbenchView& wb, int step, int64_t atNs)
{
    if (step < 1 && atNs == kNoTime)
        return true;
    PhaseStepperPanel* teach = wb.stepper();
    if (!teach || teach->steps().count() == 0)
        return false;
    wb.sideTabs()->setCurrentWidget(teach);
    teach->setStep(step >= 1 ? step - 1 : teach->steps().count() - 1);  // a moment alone: every step done
    teach->replayClock()->setTime(atNs);
    return true;
}

store::WorkbenchState stateOf(const WorkbenchView& wb, const QString& bundlePath)
{
    store::WorkbenchState s;
    s.bundle = QFileInfo(bundlePath).absoluteFilePath().toStdString();
    const QWidget* side = wb.sideTabs()->currentWidget();
    const bool sideChosen = side && wb.sideTabs()->currentIndex() > 0;
    s.tab = panelId(wb, sideChosen ? side : wb.centreTabs()->currentWidget()).toStdString();
    s.selection = wb.focus()->current().evidence;
    if (wb.focus()->current().startNs != kNoTime && wb.focus()->current().endNs > wb.focus()->current().startNs) {
        s.fromNs = wb.focus()->current().startNs;
        s.toNs = wb.focus()->current().endNs;
    }
    if (wb.quizHidesVerdict())
        s.mode = store::StateMode::Quiz;
    else if (s.tab == "compare" || s.tab == "review")
        s.mode = store::StateMode::Review;
    // The Teach replay: its step (the Teach tab's, or kept by the Verdict or Explanation tab) and its moment.
    if (wb.replayedStep() >= 0) {
        s.step = wb.replayedStep() + 1;
        s.atNs = wb.replayTime();
    }
    return s;
}

QString applyState(WorkbenchView& wb, const store::WorkbenchState& s)
{
    QStringList problems;
    if (s.selection) {
        if (wb.evidenceById(*s.selection))
            wb.focus()->selectEvidence(*s.selection);
        else
            problems << QObject::tr("evidence '%1' is not in this result").arg(QString::fromStdString(toString(*s.selection)));
    }
    // The replay after the selection (a moment may leave the item out of the table, not out of the result) and
    // before the tab: Verdict and Explanation chosen after it keep its step.
    if (!applyReplay(wb, s.step, s.atNs))
        problems << QObject::tr("the Teach replay cannot be shown (no trace)");
    // The window and the tab after the selection: selecting a metric evidence item moves the window to its
    // sample and opens the Metrics tab (panels/metrics.cpp).
    if (s.fromNs != kNoTime && s.toNs != kNoTime)
        wb.focus()->setTimeWindow(s.fromNs, s.toNs);
    QString tab = QString::fromStdString(s.tab);
    if (tab.isEmpty() && s.mode == store::StateMode::Review)
        tab = QStringLiteral("review");
    if (!tab.isEmpty()) {
        QWidget* w = wb.panel(tab);
        bool shown = false;
        for (QTabWidget* t : {wb.centreTabs(), wb.sideTabs()})
            if (w && t->indexOf(w) >= 0) {
                t->setCurrentWidget(w);
                shown = true;
            }
        if (!shown)
            problems << QObject::tr("tab '%1' is not shown").arg(tab);
    }
    return problems.join(QStringLiteral("; "));
}

} // namespace fl
