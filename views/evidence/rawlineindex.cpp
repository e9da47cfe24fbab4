// SPDX-License-Identifier: MIT
#include "views/evidence/rawlineindex.h"

#include <algorithm>
#include <cstring>

namespace fl {

void RawLineIndex::reset(std::string_view data)
{
    m_data = data;
    m_starts.clear();
    m_win.clear();
    m_winFirst = 0;
    m_scanned = 0;
    if (!data.empty())
        m_starts.push_back(0);
}

bool RawLineIndex::indexMore(uint64_t bytes)
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
    if (!m_win.empty() && (complete() || m_starts.size() >= m_winFirst + m_win.size()))
        m_win.clear();  // the prefix knows these lines now, by its own count
    return complete();
}

void RawLineIndex::setWindow(uint64_t offset, uint64_t line0, uint64_t radius)
{
    m_win.clear();
    if (offset >= m_data.size() || line0 < m_starts.size())
        return;  // already indexed (or nonsense): the prefix answers
    const char* base = m_data.data();
    // Start of the line holding offset, looking back at most 1 MiB.
    auto startBefore = [&](uint64_t pos) -> uint64_t {
        const uint64_t lo = pos > (1u << 20) ? pos - (1u << 20) : 0;
        const void* nl = pos > lo ? memrchr(base + lo, '\n', pos - lo) : nullptr;
        return nl ? static_cast<uint64_t>(static_cast<const char*>(nl) - base) + 1 : lo;
    };
    std::vector<uint64_t> back;
    uint64_t b = startBefore(offset);
    back.push_back(b);
    while (back.size() <= radius && b > 0 && back.size() <= line0) {
        b = startBefore(b - 1);
        back.push_back(b);
    }
    std::reverse(back.begin(), back.end());
    m_winFirst = line0 + 1 - back.size();
    m_win = std::move(back);
    for (uint64_t i = 0, pos = m_win.back(); i < radius; ++i) {
        const void* nl = std::memchr(base + pos, '\n', std::min<uint64_t>(m_data.size() - pos, 1u << 20));
        if (!nl)
            break;
        pos = static_cast<uint64_t>(static_cast<const char*>(nl) - base) + 1;
        if (pos >= m_data.size())
            break;
        m_win.push_back(pos);
    }
}

uint64_t RawLineIndex::lineStart(uint64_t line) const
{
    if (line < m_starts.size())
        return m_starts[line];
    if (line >= m_winFirst && line - m_winFirst < m_win.size())
        return m_win[line - m_winFirst];
    return m_data.size();
}

void RawLineIndex::indexTo(uint64_t offset)
{
    if (offset >= m_scanned)
        indexMore(offset - m_scanned + 1);
}

std::string_view RawLineIndex::line(uint64_t l) const
{
    if (!known(l))
        return {};
    const uint64_t b = lineStart(l);
    uint64_t e = known(l + 1) ? lineStart(l + 1) - 1 : m_data.size();
    if (!known(l + 1)) {
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

uint64_t RawLineIndex::lineOf(uint64_t offset)
{
    if (!m_win.empty() && offset >= m_win.front() && offset >= m_scanned) {
        auto it = std::upper_bound(m_win.begin(), m_win.end(), offset);
        return m_winFirst + static_cast<uint64_t>(it - m_win.begin()) - 1;
    }
    indexTo(offset);
    auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset);
    return it == m_starts.begin() ? 0 : static_cast<uint64_t>(it - m_starts.begin()) - 1;
}

} // namespace fl
