// SPDX-License-Identifier: MIT
// Sparse line checkpoints of a mapped file, built on a background thread:
// the start offset of every kEvery-th line. Going to line N then walks at most
// kEvery lines from the nearest checkpoint instead of indexing the whole
// prefix on the GUI thread (1 GB: ~8M lines, ~8,000 checkpoints, 64 KB).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace fl {

class LineCheckpoints {
public:
    static constexpr uint64_t kEvery = 1024;

    LineCheckpoints() = default;
    LineCheckpoints(const LineCheckpoints&) = delete;
    LineCheckpoints& operator=(const LineCheckpoints&) = delete;
    ~LineCheckpoints() { stop(); }

    // Stops any previous scan, then scans `data` in the background. `data`
    // must stay mapped until stop() (or the destructor) returns.
    void start(std::string_view data);
    void stop();

    bool complete() const { return m_done.load(std::memory_order_acquire); }
    // Lines whose start is known (all of them once complete).
    uint64_t linesScanned() const { return m_lines.load(std::memory_order_acquire); }
    // Nearest checkpoint at or before 0-based `line`: {its line, its start offset}.
    std::pair<uint64_t, uint64_t> nearest(uint64_t line) const;

private:
    void scan();

    std::string_view m_data;
    std::thread m_thread;
    std::atomic<bool> m_cancel{false};
    std::atomic<bool> m_done{false};
    std::atomic<uint64_t> m_lines{0};
    mutable std::mutex m_mutex;
    std::vector<uint64_t> m_offsets;  // m_offsets[i]: start of line i * kEvery
};

} // namespace fl
