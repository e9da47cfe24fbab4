// Scores the engine against bundles that carry a truth.json (from `synth`, or
// written by a person for a real incident). Used by `faultline-cli eval` and by
// the accuracy test.
#pragma once

#include "engine/engine.h"
#include "evaluation.h"
#include "present/eval_report.h" // formatEvalReport: the scores in words

#include <string>
#include <vector>

namespace fl {

// Every folder under `root` (or `root` itself) holding truth.json, sorted by path.
std::vector<std::string> findTruthBundles(const std::string& root);
EvalReport evaluate(const std::vector<std::string>& bundles, const AnalyzeOptions& options,
                    const Progress& progress = {});
std::string evalReportJson(const EvalReport& report);

} // namespace fl
