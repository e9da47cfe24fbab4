// Progress and cancellation for long work (loading, scanning, analysis).
// Callers on another thread set `cancel`; workers poll it between files and
// every few MB, then stop with a partial result marked as cancelled.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string_view>

namespace fl {

struct Progress {
    std::function<void(std::string_view stage, uint64_t done, uint64_t total)> report;
    const std::atomic<bool>* cancel = nullptr;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void operator()(std::string_view stage, uint64_t done, uint64_t total) const
    {
        if (report)
            report(stage, done, total);
    }
};

} // namespace fl
