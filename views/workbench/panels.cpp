// SPDX-License-Identifier: MIT
// The workbench's panels (panelregistry.h). One function a panel; the list at
// the end is the one line a new view adds.
#include "views/workbench/panelregistry.h"

#include "views/chain/chaingraphview.h"
#include "views/common/viewstyle.h"
#include "views/evidence/evidencepanel.h"
#include "views/evidence/rawfilepanel.h"
#include "views/teach/phasestepperpanel.h"
#include "views/timeline/metricspanel.h"
#include "views/timeline/timelinepanel.h"
#include "views/verdict/explanationpanel.h"
#include "views/verdict/verdictpanel.h"
#include "views/workbench/workbenchview.h"

#include <QTabWidget>

namespace fl {

namespace {

// Widgets that read the result directly are built on the GUI thread, one per turn of the event loop, so the
// verdict is painted first.
bool onGui(const std::atomic<bool>&)
{
    return true;
}

PanelSpec named(const QString& id, const QString& title, PanelArea area)
{
    PanelSpec p;
    p.id = id;
    p.title = title;
    p.area = area;
    return p;
}

PanelSpec verdictPanel()
{
    PanelSpec p = named(QStringLiteral("verdict"), QObject::tr("Verdict"), PanelArea::Side);
    p.create = [](FocusState* focus) { return new VerdictPanel(focus); };
    p.attach = as<VerdictPanel>([](VerdictPanel* v, WorkbenchView& wb) {
        QObject::connect(v, &VerdictPanel::overrideRequested, &wb, &WorkbenchView::editVerdictOverride);
        QObject::connect(v, &VerdictPanel::overrideClearRequested, &wb, [&wb] {
            static_cast<void>(wb.clearVerdictOverride());  // a failure reaches the user through notesError
        });
    });
    // What was decided is shown at once; the coverage rows follow.
    p.showNow = as<VerdictPanel>([](VerdictPanel* v, const AnalysisPtr& a) { v->setVerdict(a); });
    p.load = as<VerdictPanel>([](VerdictPanel* v, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("coverage rows"),
                 [a](const std::atomic<bool>&) { return a ? a->result.connectors : std::vector<ConnectorReport>(); },
                 [v](std::vector<ConnectorReport> rows) { v->setCoverage(std::move(rows)); });
    });
    p.showNotes = as<VerdictPanel>([](VerdictPanel* v, const PanelNotes& n) { v->setOverride(n.verdictOverride); });
    return p;
}

PanelSpec timelinePanel()
{
    PanelSpec p = named(QStringLiteral("timeline"), QObject::tr("Timeline"), PanelArea::Centre);
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
    p.showNotes = as<TimelinePanel>([](TimelinePanel* t, const PanelNotes& n) { t->view()->setLaneNotes(n.lanes); });
    return p;
}

PanelSpec chainPanel()
{
    PanelSpec p = named(QStringLiteral("chain"), QObject::tr("Symptom chain"), PanelArea::Centre);
    p.create = [](FocusState* focus) { return new ChainGraphView(focus); };
    p.clear = as<ChainGraphView>([](ChainGraphView* c) { c->show({}); });
    p.load = as<ChainGraphView>([](ChainGraphView* c, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("chain layout"),
                 [a, font = c->font()](const std::atomic<bool>&) { return ChainGraphView::plan(a, font); },
                 [c](ChainGraphView::Plan plan) { c->show(std::move(plan)); });
    });
    return p;
}

PanelSpec metricsPanel()
{
    PanelSpec p = named(QStringLiteral("metrics"), QObject::tr("Metrics"), PanelArea::Centre);
    p.create = [](FocusState* focus) { return new MetricsPanel(focus); };
    p.clear = as<MetricsPanel>([](MetricsPanel* m) { m->setPrepared(nullptr, {}); });
    p.load = as<MetricsPanel>([](MetricsPanel* m, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("metric series"), [a](const std::atomic<bool>&) { return MetricsPanel::prepare(a.get()); },
                 [m, a](MetricsPanel::Prepared prepared) { m->setPrepared(a, std::move(prepared)); });
    });
    return p;
}

PanelSpec evidencePanel()
{
    PanelSpec p = named(QStringLiteral("evidence"), QObject::tr("Evidence"), PanelArea::Bottom);
    p.create = [](FocusState* focus) { return new EvidencePanel(focus); };
    p.attach = as<EvidencePanel>([](EvidencePanel* e, WorkbenchView& wb) {
        QObject::connect(e, &EvidencePanel::noteRequested, &wb, &WorkbenchView::editEvidenceNote);
        QObject::connect(e, &EvidencePanel::noteRemoveRequested, &wb, [&wb](const QString& id) {
            static_cast<void>(wb.setEvidenceNote(id, {}));  // a failure reaches the user through notesError
        });
        QObject::connect(e, &EvidencePanel::bookmarkToggleRequested, &wb, [&wb](const QString& id) {
            if (const EvidenceItem* item = wb.evidenceById(id))
                static_cast<void>(wb.toggleBookmark(style::q(item->file), item->ref.line));  // failure: notesError
        });
    });
    p.clear = as<EvidencePanel>([](EvidencePanel* e) { e->setAnalysis(nullptr); });
    p.load = as<EvidencePanel>([](EvidencePanel* e, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("evidence table"), onGui, [e, a](bool) { e->setAnalysis(a); });
    });
    p.showNotes = as<EvidencePanel>([](EvidencePanel* e, const PanelNotes& n) {
        e->model()->setNotes(n.evidence, n.markedLines);
        e->fitNoteColumn();
    });
    return p;
}

PanelSpec rawPanel()
{
    PanelSpec p = named(QStringLiteral("raw"), QObject::tr("Raw lines"), PanelArea::Bottom);
    p.create = [](FocusState*) { return new RawFilePanel; };
    p.attach = as<RawFilePanel>([](RawFilePanel* r, WorkbenchView& wb) {
        QObject::connect(wb.focus(), &FocusState::evidenceSelected, &wb, &WorkbenchView::openEvidence);
        QObject::connect(r->view(), &RawFileView::bookmarkToggleRequested, &wb, [r, &wb](quint64 line) {
            static_cast<void>(wb.toggleBookmark(r->view()->displayName(), line));  // failure: notesError
        });
        QObject::connect(r->view(), &RawFileView::lineNoteRequested, &wb, &WorkbenchView::editLineNote);
        QObject::connect(r->view(), &RawFileView::fileOpened, &wb, &WorkbenchView::refreshNotes);
    });
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

PanelSpec explanationPanel()
{
    PanelSpec p = named(QStringLiteral("explanation"), QObject::tr("Explanation"), PanelArea::Side);
    p.create = [](FocusState* focus) { return new ExplanationPanel(focus); };
    p.clear = as<ExplanationPanel>([](ExplanationPanel* e) { e->setAnalysis(nullptr); });
    p.load = as<ExplanationPanel>([](ExplanationPanel* e, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("candidates + trace rows"),
                 [a](const std::atomic<bool>&) { return ExplanationPanel::prepare(a.get()); },
                 [e, a](ExplanationPanel::Prepared prepared) { e->setPrepared(a.get(), std::move(prepared)); });
    });
    return p;
}

PanelSpec teachPanel()
{
    PanelSpec p = named(QStringLiteral("teach"), QObject::tr("Teach"), PanelArea::Side);
    p.create = [](FocusState* focus) {
        auto* stepper = new PhaseStepperPanel(focus);
        stepper->setHighlighting(false);
        return stepper;
    };
    // The stepper highlights only while its tab is shown: elsewhere the dimmed graph would puzzle a reader who
    // never asked for it.
    p.attach = as<PhaseStepperPanel>([](PhaseStepperPanel* s, WorkbenchView& wb) {
        QTabWidget* side = wb.sideTabs();
        QObject::connect(side, &QTabWidget::currentChanged, s, [s, side] { s->setHighlighting(side->currentWidget() == s); });
    });
    p.clear = as<PhaseStepperPanel>([](PhaseStepperPanel* s) { s->setAnalysis(nullptr); });
    p.load = as<PhaseStepperPanel>([](PhaseStepperPanel* s, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("phase stepper"), onGui, [s, a](bool) { s->setAnalysis(a); });
    });
    return p;
}

} // namespace

const std::vector<PanelSpec>& workbenchPanels()
{
    // Job order: the verdict's coverage, then what the centre shows, the proof, the side tabs behind the verdict.
    static const std::vector<PanelSpec> panels = {
        verdictPanel(),
        timelinePanel(),
        chainPanel(),
        metricsPanel(),
        evidencePanel(),
        rawPanel(),
        explanationPanel(),
        teachPanel(),
    };
    return panels;
}

} // namespace fl
