// The engine's scores against truth.json in words (faultline-cli eval, the accuracy test).
#pragma once

#include "evaluation.h"

#include <string>

namespace fl::present {

// Confusion matrix, precision/recall per class, culprit accuracy, then every miss.
std::string formatEvalReport(const EvalReport& report);

} // namespace fl::present
