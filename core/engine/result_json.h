// The versioned result document (docs/result-schema.md, resources/result.schema.json).
#pragma once

#include "model.h"

#include <nlohmann/json.hpp>
#include <string>

namespace fl {

nlohmann::json resultToJson(const Result& result);
// Stable text: sorted keys, two-space indent, invalid UTF-8 replaced, trailing newline.
std::string resultToString(const Result& result);

} // namespace fl
