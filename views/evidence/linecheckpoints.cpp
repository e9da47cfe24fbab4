// SPDX-License-Identifier: MIT
#include "views/evidence/linecheckpoints.h"

#include <cstring>

namespace fl {

void LineCheckpoints::start(std::string_view data)
{
    stop();
    m_data = data;
    m_cancel = false;
    m_done = false;
    m_lines = 0;
    {
        const std::lock_guard lock(m_mutex);
        m_offsets.assign(1, 0);
    }
    if (data.empty()) {
        m_done = true;
        return;
    }
    m_thread = std::thread([this] { scan(); });
}

void LineCheckpoints::stop()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void LineCheckpoints::scan()
{
    const char* base = m_data.data();
    const uint64_t size = m_data.size();
    uint64_t pos = 0, line = 0;
    std::vector<uint64_t> batch;
    auto flush = [&] {
        const std::lock_guard lock(m_mutex);
        m_offsets.insert(m_offsets.end(), batch.begin(), batch.end());
        batch.clear();
        m_lines.store(line, std::memory_order_release);
    };
    while (pos < size) {
        const void* nl = std::memchr(base + pos, '\n', size - pos);
        if (!nl)
            break;
        pos = static_cast<uint64_t>(static_cast<const char*>(nl) - base) + 1;
        if (pos >= size)
            break;  // a final newline starts no line
        if (++line % kEvery == 0) {
            batch.push_back(pos);
            if (batch.size() == 64) {
                flush();
                if (m_cancel.load(std::memory_order_relaxed))
                    return;
            }
        }
    }
    ++line;  // the last line, with or without its newline
    flush();
    m_done.store(true, std::memory_order_release);
}

std::pair<uint64_t, uint64_t> LineCheckpoints::nearest(uint64_t line) const
{
    const std::lock_guard lock(m_mutex);
    const uint64_t i = std::min<uint64_t>(line / kEvery, m_offsets.size() - 1);
    return {i * kEvery, m_offsets[i]};
}

} // namespace fl
