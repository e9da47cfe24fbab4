#include "retention.h"

#include <algorithm>
#include <cstdio>

namespace fl::service {

using namespace std::chrono;

Retention::Retention(Store& store, nanoseconds keep, std::function<void(size_t)> pruned)
    : store_(store), keep_(keep), every_(std::clamp<nanoseconds>(keep / 10, seconds(1), hours(1))),
      pruned_(std::move(pruned)), thread_([this] { run(); })
{
}

Retention::~Retention()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

size_t Retention::pruneNow()
{
    const int64_t now = duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
    try {
        const size_t n = store_.pruneIdleBefore(now - keep_.count());
        if (n && pruned_)
            pruned_(n);
        return n;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline-service: retention: %s (retried in %lld s)\n", e.what(),
                     static_cast<long long>(duration_cast<seconds>(every_).count()));
        return 0;
    }
}

void Retention::run()
{
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        pruneNow();
        lock.lock();
        cv_.wait_for(lock, every_, [this] { return stopping_; });
    }
}

} // namespace fl::service
