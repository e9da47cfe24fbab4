// Runs `work` on the calling thread and on up to (cores - 1, at most 7) more,
// and returns when every one has returned. Each worker pulls its own items
// (an atomic index), so callers write each item's result into its own slot and
// the output does not depend on scheduling, nor on how many threads there are.
// `maxThreads` (0: no cap) bounds the threads in all: a caller that already runs
// one analysis per core (the service) asks for fewer, or its analyses crowd each
// other off the cores.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace fl {

template <typename Work>
void runOnEveryCore(size_t items, Work&& work, unsigned maxThreads = 0)
{
    unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    if (maxThreads > 0)
        threads = std::min(threads, maxThreads);
    threads = std::min<unsigned>(threads, static_cast<unsigned>(std::max<size_t>(1, items)));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

} // namespace fl
