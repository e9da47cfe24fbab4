// Bounding work so overload is answered, not suffered.
// - ConnectionQueue: httplib's per-connection task queue with a fixed number of
//   threads and a bounded backlog; connections beyond it are answered 503 +
//   Retry-After by two threads of their own (shed() is true while they are handled).
// - AnalysisGate: a few analysis slots (the engine is CPU-bound) and a short
//   wait list; beyond it a request gets 429 at once, a waiter whose deadline
//   passes gets 504.
// - RateLimiter: a token bucket per client address (--rate-limit); a client over
//   its rate gets 429 with Retry-After, the others are not slowed.
// - Deadlines: a watchdog that sets a request's cancel flag when its timeout_ms
//   passes, so the engine stops between files (core/progress.h).
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace fl::service {

using Clock = std::chrono::steady_clock;

class ConnectionQueue final : public httplib::TaskQueue {
public:
    ConnectionQueue(size_t threads, size_t backlog);
    ~ConnectionQueue() override;
    void enqueue(std::function<void()> fn) override;
    void shutdown() override;

    static bool shed();           // is this thread serving a shed connection?
    size_t queued() const;
    uint64_t shedCount() const { return shed_.load(); }

private:
    void work(bool refuserOnly);
    const size_t servers_;  // threads that serve (the two refusers are not counted)
    const size_t backlog_;
    size_t busy_ = 0;  // connections a serving thread holds now
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> jobs_, shedJobs_;
    std::vector<std::thread> threads_;
    bool stopping_ = false;
    std::atomic<uint64_t> shed_{0};
};

class AnalysisGate {
public:
    enum class Admit { Ok, Full, Expired };
    AnalysisGate(int slots, int waiters) : slots_(slots), waiters_(waiters) {}
    Admit acquire(Clock::time_point deadline);
    // Whether acquire() would answer Full now; counted as refused when so. For a client that asks before it
    // sends its body (Expect: 100-continue): an upload it is refused never crosses the network.
    bool refuseIfFull();
    void release();
    int active() const;
    int waiting() const;
    uint64_t rejected() const { return rejected_.load(); }
    // Analyses that held a slot and gave it back, finished or abandoned by their client: what a CPU
    // measurement over a span divides by (bench/service.sh).
    uint64_t completed() const { return completed_.load(); }

private:
    const int slots_, waiters_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    int active_ = 0, waiting_ = 0;
    std::atomic<uint64_t> rejected_{0};
    std::atomic<uint64_t> completed_{0};
};

class RateLimiter {
public:
    // `perSecond` <= 0: no limit. `burst`: requests a client may send at once (at least 1).
    RateLimiter(double perSecond, double burst);
    bool enabled() const { return rate_ > 0; }
    // 0 when `client` may go on (one token taken), else the whole seconds until it may (Retry-After).
    int admit(const std::string& client, Clock::time_point now);
    // What admit() would answer, taking nothing: for a client that asks before it sends its body.
    int wouldWait(const std::string& client, Clock::time_point now) const;
    uint64_t limited() const { return limited_.load(); }

private:
    struct Bucket {
        double tokens;
        Clock::time_point at;
    };
    double refilled(const Bucket& b, Clock::time_point now) const;
    int secondsToNextToken(double tokens) const;
    static constexpr size_t kMaxClients = 100000;  // beyond, clients whose bucket refilled are forgotten
    const double rate_, burst_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
    std::atomic<uint64_t> limited_{0};
};

class DeadlineWatch {
public:
    DeadlineWatch();
    ~DeadlineWatch();
    // Sets *flag at `when` unless cancelled first; returns a ticket for cancel().
    uint64_t arm(Clock::time_point when, std::atomic<bool>* flag);
    void disarm(uint64_t ticket);

private:
    void run();
    std::mutex mutex_;
    std::condition_variable cv_;
    std::multimap<Clock::time_point, std::pair<uint64_t, std::atomic<bool>*>> due_;
    uint64_t next_ = 1;
    bool stopping_ = false;
    std::thread thread_;
};

// One request's deadline: armed on construction, disarmed on destruction.
struct Deadline {
    Deadline(DeadlineWatch& w, Clock::time_point when) : watch(w), at(when), ticket(w.arm(when, &cancel)) {}
    ~Deadline() { watch.disarm(ticket); }
    Deadline(const Deadline&) = delete;
    Deadline& operator=(const Deadline&) = delete;
    DeadlineWatch& watch;
    Clock::time_point at;
    std::atomic<bool> cancel{false};
    uint64_t ticket;
};

} // namespace fl::service
