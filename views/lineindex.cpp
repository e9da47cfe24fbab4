// SPDX-License-Identifier: MIT
#include "lineindex.h"

#include <algorithm>
#include <cstring>

namespace fl {

void LineIndex::reset(std::string_view data)
{
    m_data = data;
    m_starts.clear();
    m_scanned = 0;
    if (!data.empty())
        m_starts.push_back(0);
}

bool LineIndex::indexMore(uint64_t bytes)
{
    const uint64_t end = std::min<uint64_t>(m_data.size(), m_scanned + bytes);
    const char* base = m_data.data();
    uint64_t pos = m_scanned;
    while (pos < end) {
        const void* nl = std::memchr(base + pos, '\n', end - pos);
        if (!nl)
            break;
        const uint64_t next = static_cast<uint64_t>(static_cast<const char*>(nl) - base) + 1;
        if (next < m_data.size())  // a final newline does not start an empty extra line
            m_starts.push_back(next);
        pos = next;
    }
    m_scanned = end;
    return complete();
}

void LineIndex::indexTo(uint64_t offset)
{
    if (offset >= m_scanned)
        indexMore(offset - m_scanned + 1);
}

std::string_view LineIndex::line(uint64_t l) const
{
    if (l >= m_starts.size())
        return {};
    const uint64_t b = m_starts[l];
    uint64_t e = l + 1 < m_starts.size() ? m_starts[l + 1] - 1 : m_data.size();
    if (l + 1 >= m_starts.size()) {
        // Last known line: it ends at the next newline, which may not be
        // indexed yet. Look only 1 MiB ahead: a viewer never shows more of a line.
        const uint64_t span = std::min<uint64_t>(m_data.size() - b, 1u << 20);
        const void* nl = std::memchr(m_data.data() + b, '\n', span);
        e = nl ? static_cast<uint64_t>(static_cast<const char*>(nl) - m_data.data()) : b + span;
    }
    if (e > b && m_data[e - 1] == '\r')
        --e;
    return m_data.substr(b, e - b);
}

uint64_t LineIndex::lineOf(uint64_t offset)
{
    indexTo(offset);
    auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset);
    return it == m_starts.begin() ? 0 : static_cast<uint64_t>(it - m_starts.begin()) - 1;
}

} // namespace fl
