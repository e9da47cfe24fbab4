// The scores of the engine against bundles that carry a truth.json: what
// core/engine/evaluate.cpp measures and core/present/eval_report.cpp writes out.
#pragma once

#include "bundle/truth.h"
#include "model.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fl {

struct EvalCase {
    std::string bundle;
    Truth truth;
    std::optional<ResultStatus> status;          // what the engine said; none when the bundle was unusable
    std::optional<Domain> domain;    // what the engine said; none when the bundle was unusable
    std::string subDomain, node;
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

} // namespace fl
