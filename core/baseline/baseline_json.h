// The result document with the comparison against a healthy attempt (analyze --baseline): the usual document
// (docs/result-schema.md) plus its `baseline` object. Without --baseline nothing here is used, so a result
// without one stays byte for byte what it was.
#pragma once

#include "baseline/comparison.h"
#include "engine/result_json.h"

#include <nlohmann/json.hpp>
#include <string>

namespace fl {

// Per-event marks only with `detail` (as symptom_chain.nodes): at 10,000 ranks they are most of the document.
nlohmann::json baselineJson(const BaselineComparison& comparison, bool detail);

// resultToString's text (sorted keys, two-space indent, invalid UTF-8 replaced, trailing newline) with
// `baseline` added.
std::string resultToStringWithBaseline(const Result& result, const BaselineComparison& comparison,
                                       const ResultJsonOptions& options = {});

} // namespace fl
