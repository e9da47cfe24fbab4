// SPDX-License-Identifier: MIT
// Throttle for progress reports that scan threads send concurrently: lets one
// caller through per interval, with nothing but one atomic shared between
// threads (the workbench's earlier QElapsedTimer was written by all of them).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace fl {

class ProgressGate
{
public:
    explicit ProgressGate(int64_t intervalMs = 50) : m_intervalMs(intervalMs) {}

    // True for the caller that may post now; `force` (the final report) always passes.
    bool claim(bool force)
    {
        const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now().time_since_epoch()).count();
        int64_t last = m_lastMs.load(std::memory_order_relaxed);
        if (!force && now - last < m_intervalMs)
            return false;
        return m_lastMs.compare_exchange_strong(last, now, std::memory_order_relaxed) || force;
    }

private:
    const int64_t m_intervalMs;
    std::atomic<int64_t> m_lastMs{INT64_MIN / 2};
};

} // namespace fl
