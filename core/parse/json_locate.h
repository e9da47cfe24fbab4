// Byte positions inside JSON text. nlohmann::json gives values but not where
// they were; these walk the raw text (strings, escapes, nesting) so that each
// record can point at the object it came from. Internal to core/parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace fl::jsonpos {

inline constexpr size_t npos = std::string_view::npos;

size_t skipWs(std::string_view s, size_t p);
// One past the end of the value starting at p (after whitespace), npos if malformed.
size_t valueEnd(std::string_view s, size_t p);
// For the object starting at p: offset of the value of `key` (a member of that object), npos if absent.
size_t memberValue(std::string_view s, size_t p, std::string_view key);
// For the array starting at p: [begin, end) of each element.
std::vector<std::pair<size_t, size_t>> elements(std::string_view s, size_t p);

// 1-based line numbers for byte offsets.
class LineIndex {
public:
    explicit LineIndex(std::string_view s);
    uint32_t lineOf(size_t offset) const;

private:
    std::vector<size_t> newlines_;
};

} // namespace fl::jsonpos
