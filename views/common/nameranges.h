// SPDX-License-Identifier: MIT
// Long lists of node names and ranks written as ranges, so that 1,250
// affected nodes read "node-[0001-0978,0980-1250]" instead of a page of names.
#pragma once

#include <QString>

#include <string>
#include <vector>

namespace fl {

// Names that differ only in a trailing number of the same width are folded
// into runs: "node-[0001-0003,0007]". Others are listed as they are. Input
// need not be sorted; the output is sorted and has no duplicates.
// `maxGroups` caps the text: past it, "… and N more".
QString nameRanges(std::vector<std::string> names, int maxGroups = 12);

// "0-7,9,12-15"; input need not be sorted.
QString numberRanges(std::vector<int> numbers, int maxGroups = 12);

} // namespace fl
