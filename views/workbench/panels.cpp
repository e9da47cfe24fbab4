// SPDX-License-Identifier: MIT
// The list of the workbench's panels (panelregistry.h); each panel's PanelSpec
// is in views/workbench/panels/<id>.cpp.
#include "views/workbench/panelregistry.h"

namespace fl {

PanelSpec namedPanel(const QString& id, const QString& title, PanelArea area, QuizRole quiz)
{
    PanelSpec p;
    p.id = id;
    p.title = title;
    p.area = area;
    p.quiz = quiz;
    return p;
}

const std::vector<PanelSpec>& workbenchPanels()
{
    static const std::vector<PanelSpec> list = {
#define FL_PANEL(id) panels::id(),
#include "views/workbench/panellist.h"
#undef FL_PANEL
    };
    return list;
}

} // namespace fl
