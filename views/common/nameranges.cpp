// SPDX-License-Identifier: MIT
#include "views/common/nameranges.h"
#include "present/hostlist.h"

#include <utility>

namespace fl {

// The grammar is present/hostlist's, the one the result document and the text report use.
QString nameRanges(std::vector<std::string> names, int maxGroups)
{
    return QString::fromStdString(present::compressHostList(names, maxGroups > 0 ? static_cast<size_t>(maxGroups) : 0));
}

QString numberRanges(std::vector<int> numbers, int maxGroups)
{
    return QString::fromStdString(present::numberRanges(std::move(numbers), maxGroups > 0 ? static_cast<size_t>(maxGroups) : 0));
}

} // namespace fl
