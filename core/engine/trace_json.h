// The engine's trace (what each rule did, phase by phase) as JSON and back, for
// a trace that crosses a process boundary: faultline-service re-runs a session's
// analysis with the trace on (GET /v2/sessions/{id}/trace) and the workbench's
// phase stepper reads it. Not part of the result document: a trace is as large
// as the evidence.
#pragma once

#include "model.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace fl {

// [{phase, rule, action, events: [ids], detail, change}] in trace order.
nlohmann::json traceToJson(const std::vector<TraceStep>& trace);
// Tolerant: a step with an unknown action or a field of the wrong type is skipped, never thrown on.
std::vector<TraceStep> traceFromJson(const nlohmann::json& steps);

} // namespace fl
