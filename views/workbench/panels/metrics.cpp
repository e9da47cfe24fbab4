// SPDX-License-Identifier: MIT
#include "views/workbench/panelregistry.h"

#include "views/timeline/metricspanel.h"
#include "views/workbench/workbenchview.h"

namespace fl::panels {

PanelSpec metrics()
{
    PanelSpec p = namedPanel(QStringLiteral("metrics"), QObject::tr("Metrics"), PanelArea::Centre);
    p.create = [](FocusState* focus) { return new MetricsPanel(focus); };
    p.clear = as<MetricsPanel>([](MetricsPanel* m) { m->setPrepared(nullptr, {}); });
    p.load = as<MetricsPanel>([](MetricsPanel* m, const AnalysisPtr& a, ViewJobs& jobs) {
        jobs.run(QStringLiteral("metric series"), [a](const std::atomic<bool>&) { return MetricsPanel::prepare(a.get()); },
                 [m, a](MetricsPanel::Prepared prepared) { m->setPrepared(a, std::move(prepared)); });
    });
    return p;
}

} // namespace fl::panels
