// Retention (--retain-days): sessions idle for longer than the retention period —
// created, last attributed and last given a file all before it — are deleted with
// their files and runs, at start and then periodically (a tenth of the period,
// between 1 s and 1 h). Every replica may prune: the deletes are idempotent.
#pragma once

#include "store.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace fl::service {

class Retention {
public:
    // `pruned(n)` is called after every pass that deleted n > 0 sessions.
    Retention(Store& store, std::chrono::nanoseconds keep, std::function<void(size_t)> pruned);
    ~Retention();
    Retention(const Retention&) = delete;
    Retention& operator=(const Retention&) = delete;

    // One pass now; returns how many sessions went. A store error is reported and retried next pass.
    size_t pruneNow();

private:
    void run();
    Store& store_;
    const std::chrono::nanoseconds keep_;
    const std::chrono::nanoseconds every_;
    std::function<void(size_t)> pruned_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stopping_ = false;
    std::thread thread_;
};

} // namespace fl::service
