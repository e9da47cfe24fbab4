// Progress and cancellation for long work (loading, scanning, analysis).
// Callers on another thread set `cancel`; workers poll it between files and
// every few MB, then stop with a partial result marked as cancelled.
//
// Threads: `report` is called on the engine's worker threads, not on the thread
// that started the work: the bundle scan runs one thread per core and each
// reports when it finishes a file. The engine serialises its own calls (never
// two at once, and `done` never decreases within a stage), but the callback
// still runs beside the caller's thread, so it must be thread-safe: touch no
// state the caller's thread uses without a lock or an atomic, and hand GUI work
// to the GUI thread (a queued signal or QMetaObject::invokeMethod), never do it
// in place. It must be cheap and must not throw.
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
