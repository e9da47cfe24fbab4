// Small helpers shared by the structured-source parsers. Internal to core/parse.
#pragma once

#include "parse/json_locate.h"
#include "parse/structured.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace fl::structured {

// Slurm prints numbers as 12, "12" or {"set": true, "number": 12} depending on its version.
[[nodiscard]] std::optional<int64_t> number(const nlohmann::json& j);
// A string, or a list of strings joined with ','.
std::string stringList(const nlohmann::json& j);
// j[key] if j is an object holding it, else null.
const nlohmann::json& member(const nlohmann::json& j, std::string_view key);
// A full date-time text ("2023-03-06T03:17:51", "...Z", epoch seconds) -> ns and basis.
[[nodiscard]] bool timeText(std::string_view text, int64_t& ns, TimeBasis& basis);
// Text safe for one canonical line: control characters become spaces, capped.
std::string oneLine(std::string_view s, size_t cap = 4096);
void setRaw(StructuredRecord& r, const jsonpos::LineIndex& lines, std::string_view data, size_t b, size_t e);
std::vector<std::string_view> splitFields(std::string_view line, char sep);

} // namespace fl::structured
