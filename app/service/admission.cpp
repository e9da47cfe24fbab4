#include "admission.h"

#include <algorithm>
#include <cmath>

namespace fl::service {

namespace {
thread_local bool tShed = false;
}

ConnectionQueue::ConnectionQueue(size_t threads, size_t backlog) : servers_(threads), backlog_(backlog)
{
    for (size_t i = 0; i < threads; ++i)
        threads_.emplace_back([this] { work(false); });
    // Two threads only refuse: shedding must not wait for a worker when every worker is busy
    // (two, so that one idle shed connection does not hold up the next refusal).
    for (int i = 0; i < 2; ++i)
        threads_.emplace_back([this] { work(true); });
}

ConnectionQueue::~ConnectionQueue()
{
    shutdown();
}

bool ConnectionQueue::shed()
{
    return tShed;
}

size_t ConnectionQueue::queued() const
{
    std::lock_guard lock(mutex_);
    return jobs_.size();
}

void ConnectionQueue::enqueue(std::function<void()> fn)
{
    {
        std::lock_guard lock(mutex_);
        // Connections being served plus those waiting: a free thread takes one at once, so
        // only what is beyond the threads counts against the backlog (with --backlog 0 a
        // connection is refused only when every thread is busy, not always).
        if (busy_ + jobs_.size() >= servers_ + backlog_) {
            shed_.fetch_add(1);
            shedJobs_.push_back(std::move(fn));
        } else {
            jobs_.push_back(std::move(fn));
        }
    }
    cv_.notify_all(); // the refuser must hear of shed jobs even when a worker would not take them
}

void ConnectionQueue::shutdown()
{
    {
        std::lock_guard lock(mutex_);
        if (stopping_)
            return;
        stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
        t.join();
}

void ConnectionQueue::work(bool refuserOnly)
{
    for (;;) {
        std::function<void()> fn;
        bool shedJob = false;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || (!refuserOnly && !jobs_.empty()) || !shedJobs_.empty(); });
            if (!shedJobs_.empty()) { // a refusal is cheap: answer it before real work
                fn = std::move(shedJobs_.front());
                shedJobs_.pop_front();
                shedJob = true;
            } else if (!refuserOnly && !jobs_.empty()) {
                fn = std::move(jobs_.front());
                jobs_.pop_front();
                ++busy_;
            } else {
                return; // stopping and drained
            }
        }
        tShed = shedJob;
        fn();
        tShed = false;
        if (!shedJob) {
            std::lock_guard lock(mutex_);
            --busy_;
        }
    }
}

AnalysisGate::Admit AnalysisGate::acquire(Clock::time_point deadline)
{
    std::unique_lock lock(mutex_);
    if (active_ < slots_) {
        ++active_;
        return Admit::Ok;
    }
    if (waiting_ >= waiters_) {
        rejected_.fetch_add(1);
        return Admit::Full;
    }
    ++waiting_;
    const bool got = cv_.wait_until(lock, deadline, [&] { return active_ < slots_; });
    --waiting_;
    if (!got)
        return Admit::Expired;
    ++active_;
    return Admit::Ok;
}

bool AnalysisGate::refuseIfFull()
{
    std::lock_guard lock(mutex_);
    if (active_ < slots_ || waiting_ < waiters_)
        return false;
    rejected_.fetch_add(1);
    return true;
}

void AnalysisGate::release()
{
    {
        std::lock_guard lock(mutex_);
        --active_;
    }
    completed_.fetch_add(1);
    cv_.notify_one();
}

int AnalysisGate::active() const
{
    std::lock_guard lock(mutex_);
    return active_;
}

int AnalysisGate::waiting() const
{
    std::lock_guard lock(mutex_);
    return waiting_;
}

DeadlineWatch::DeadlineWatch() : thread_([this] { run(); }) {}

DeadlineWatch::~DeadlineWatch()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

uint64_t DeadlineWatch::arm(Clock::time_point when, std::atomic<bool>* flag)
{
    std::lock_guard lock(mutex_);
    const uint64_t t = next_++;
    due_.emplace(when, std::make_pair(t, flag));
    cv_.notify_all();
    return t;
}

void DeadlineWatch::disarm(uint64_t ticket)
{
    std::lock_guard lock(mutex_);
    for (auto it = due_.begin(); it != due_.end(); ++it)
        if (it->second.first == ticket) {
            due_.erase(it);
            return;
        }
}

void DeadlineWatch::run()
{
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        if (due_.empty()) {
            cv_.wait(lock);
            continue;
        }
        const auto first = due_.begin()->first;
        if (Clock::now() >= first) {
            due_.begin()->second.second->store(true);
            due_.erase(due_.begin());
            continue;
        }
        cv_.wait_until(lock, first);
    }
}

RateLimiter::RateLimiter(double perSecond, double burst) : rate_(perSecond), burst_(std::max(1.0, burst)) {}

double RateLimiter::refilled(const Bucket& b, Clock::time_point now) const
{
    return std::min(burst_, b.tokens + rate_ * std::chrono::duration<double>(now - b.at).count());
}

int RateLimiter::secondsToNextToken(double tokens) const
{
    return std::max(1, static_cast<int>(std::ceil((1 - tokens) / rate_)));
}

int RateLimiter::admit(const std::string& client, Clock::time_point now)
{
    if (rate_ <= 0)
        return 0;
    std::lock_guard lock(mutex_);
    auto it = buckets_.find(client);
    if (it == buckets_.end()) {
        if (buckets_.size() >= kMaxClients)  // a client with a full bucket is as good as new: forget it
            std::erase_if(buckets_, [&](const auto& kv) { return refilled(kv.second, now) >= burst_; });
        it = buckets_.emplace(client, Bucket{burst_, now}).first;
    }
    Bucket& b = it->second;
    b.tokens = refilled(b, now);
    b.at = now;
    if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
    }
    ++limited_;
    return secondsToNextToken(b.tokens);
}

int RateLimiter::wouldWait(const std::string& client, Clock::time_point now) const
{
    if (rate_ <= 0)
        return 0;
    std::lock_guard lock(mutex_);
    const auto it = buckets_.find(client);
    if (it == buckets_.end())
        return 0;
    const double tokens = refilled(it->second, now);
    return tokens >= 1 ? 0 : secondsToNextToken(tokens);
}

} // namespace fl::service
