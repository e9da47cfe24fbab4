// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/timeline/metricspanel.h"
#include "views/workbench/workbenchview.h"

#include <QTabWidget>

namespace fl::panels {

PanelSpec metrics()
{
    PanelSpec p = namedPanel(QStringLiteral("metrics"), QObject::tr("Metrics"), PanelArea::Centre);
    p.create = [](FocusState* focus) { return new MetricsPanel(focus); };
    // A metric evidence item picked anywhere (the evidence list, or its event on the timeline or in the chain)
    // opens this tab on its series at its sample, with its peers behind it: a metric's "raw line".
    p.attach = as<MetricsPanel>([](MetricsPanel* m, WorkbenchView& wb) {
        auto open = [m, &wb](const EvidenceItem* item) {
            // A step the reader took (there is a step back): an analysis opens on its start selection and
            // window without leaving the timeline.
            const bool step = wb.focus()->canGoBack();
            if (item && m->focusEvidence(*item, step) && step)
                wb.centreTabs()->setCurrentWidget(m);
        };
        QObject::connect(wb.focus(), &FocusState::evidenceSelected, m, [&wb, open](std::optional<EvidenceId> id) {
            if (id)
                open(wb.evidenceById(*id));
        });
        QObject::connect(wb.focus(), &FocusState::eventSelected, m, [&wb, open](std::optional<EventId> event) {
            if (!event || !wb.analysis())
                return;
            // An evidence pick selects its event too: the item picked is the one shown.
            if (const auto picked = wb.focus()->current().evidence)
                if (const EvidenceItem* item = wb.evidenceById(*picked); item && item->event == *event)
                    return;
            open(metricEvidenceOf(wb.analysis()->result, *event));
        });
    });
    p.clear = as<MetricsPanel>([](MetricsPanel* m) { m->setPrepared(nullptr, {}); });
    p.load = as<MetricsPanel>([](MetricsPanel* m, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("metric series"), [a](const std::atomic<bool>&) { return MetricsPanel::prepare(a.get()); },
                 [m, a](MetricsPanel::Prepared prepared) { m->setPrepared(a, std::move(prepared)); });
    });
    return p;
}

} // namespace fl::panels
