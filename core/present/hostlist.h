// The Slurm host-list grammar, both ways, written once: "node-[0001-0004,0006-1250],login1".
// The engine compresses a family's nodes with it (node_ranges in the result), the reader and
// `collect` expand it, and the views print their node and rank lists with it.
#pragma once

#include "model.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fl::present {

// Names ending in digits group by prefix and zero-padded width ("node-1000" joins "node-0999";
// unpadded numbers of any width join each other); the order is by prefix, then number; names
// without a trailing number are listed as they are. Input need not be sorted; duplicates go.
// `maxGroups` > 0 caps the text for display: at most that many runs inside one bracket (then
// ",…" and " (N more runs)" at the end), and that many comma-separated items (then
// " … and N more"). 0: the whole list, as the result document keeps it.
std::string compressHostList(const std::vector<std::string>& hosts, size_t maxGroups = 0);

// Runs of a sorted or unsorted list of integers: {0,1,2,5} -> {0-2, 5-5}.
std::vector<IndexRange> toRanges(std::vector<int> values);
// Runs as the result document writes them: "0-2,5"; empty for none. `maxGroups` as above.
std::string formatRanges(const std::vector<IndexRange>& ranges, size_t maxGroups = 0);
// "0-7,9,12-15"; input need not be sorted. `maxGroups` as above.
std::string numberRanges(std::vector<int> numbers, size_t maxGroups = 0);

// The inverse, as Slurm reads it: "r[1-2]n[8-9]" is four names, "[01-10]" keeps its zero padding.
// Names in the order written (duplicates kept). nullopt and `error` for unbalanced brackets, a bad
// range, or more than `maxHosts` names.
[[nodiscard]] std::optional<std::vector<std::string>> expandHostList(std::string_view list, std::string& error,
                                                                     size_t maxHosts = 100000);

} // namespace fl::present
