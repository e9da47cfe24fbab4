// A small JSON file read whole (truth.json, a label, an exercise key): one
// reader, so each says the same "cannot read" / "not valid JSON" naming the file.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace fl {

// Throws BundleError naming `path` when it cannot be read or is not JSON.
[[nodiscard]] nlohmann::json readJsonFile(const std::string& path);

} // namespace fl
