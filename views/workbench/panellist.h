// SPDX-License-Identifier: MIT
// Every workbench panel, one line each: FL_PANEL(id) names `PanelSpec panels::id()`,
// defined in views/workbench/panels/<id>.cpp. The order is the order their jobs
// run and, within an area, their tab order. No include guard: panelregistry.h and
// panels.cpp include it with their own FL_PANEL.
FL_PANEL(verdict)
FL_PANEL(timeline)
FL_PANEL(chain)
FL_PANEL(metrics)
FL_PANEL(baseline)
FL_PANEL(history)
FL_PANEL(evidence)
FL_PANEL(raw)
FL_PANEL(explanation)
FL_PANEL(teach)
FL_PANEL(compare)
FL_PANEL(review)
FL_PANEL(quiz)
