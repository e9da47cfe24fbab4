// Scores the engine against bundles that carry a truth.json (from `synth`, or
// written by a person for a real incident). Used by `faultline-cli eval` and by
// the accuracy test.
#pragma once

#include "bundle/truth.h"
#include "engine/engine.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fl {

struct EvalCase {
    std::string bundle;
    Truth truth;
    std::optional<ResultStatus> status;          // what the engine said; none when the bundle was unusable
    std::string domain, subDomain, node;
    int rank = -1;
    bool correct = false;            // status matches and, when attributed, domain and culprit node match
    bool culpritCorrect = false;     // culprit node right (or status right where no culprit is expected)
    bool confidentlyWrong = false;   // attributed, but the truth is another cause or not attributable
    std::string error;               // unusable bundle
};

struct EvalReport {
    std::vector<EvalCase> cases;
    std::map<std::string, std::map<std::string, int>> confusion; // expected class -> got class -> count
    int culpritCorrect = 0;
    int confidentlyWrong = 0;
    int confidentlyWrongOnAmbiguous = 0;
    double culpritAccuracy() const { return cases.empty() ? 0 : double(culpritCorrect) / double(cases.size()); }
};

// Every folder under `root` (or `root` itself) holding truth.json, sorted by path.
std::vector<std::string> findTruthBundles(const std::string& root);
EvalReport evaluate(const std::vector<std::string>& bundles, const AnalyzeOptions& options,
                    const Progress& progress = {});
std::string formatEvalReport(const EvalReport& report);   // confusion matrix, precision/recall, culprit accuracy
std::string evalReportJson(const EvalReport& report);

} // namespace fl
