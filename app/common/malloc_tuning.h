// glibc's malloc, told to keep what an analysis frees for the next allocations instead of handing it back to
// the kernel at once. By default a block of 128 KiB or more gets a fresh mmap, unmapped again when freed, and
// free space at the top of a heap is returned past 128 KiB; each page of it is then faulted in and zeroed
// again. An analysis allocates and frees blocks of those sizes over and over (events, observations, members'
// text, the service's upload bodies), and on a virtual machine a page fault costs tens of microseconds.
// Measured on the bench's 64-node archive (docs/performance.md, "Keeping freed memory"):
//   - faultline-cli analyze, pinned to one core, 4 alternating runs: 5,290 -> 3,590 page faults, 355 -> 308 ms CPU;
//   - faultline-service, 20 uploads one after another on one core: 620 -> 170 faults and
//     93.3 -> 86.6 ms CPU per upload, in 5 of 5 alternating runs.
// The price: up to kTrimBytes of freed memory per malloc arena stays resident after an analysis.
// A user's own MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ or glibc.malloc.* tunable wins.
#pragma once

#include <cstdlib> // first: it defines __GLIBC__, tested below

#if defined(__GLIBC__)
#include <malloc.h>

#include <cstring>
#endif

#include <algorithm>
#include <thread>

namespace fl::app {

inline void keepFreedMemory()
{
#if defined(__GLIBC__)
    constexpr int kMmapBytes = 32 << 20; // glibc's upper limit for the threshold on 64-bit
    constexpr int kTrimBytes = 64 << 20;
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    const bool tunedByUser = std::getenv("MALLOC_MMAP_THRESHOLD_") || std::getenv("MALLOC_TRIM_THRESHOLD_") ||
                             (tunables && (std::strstr(tunables, "glibc.malloc.mmap_threshold") ||
                                           std::strstr(tunables, "glibc.malloc.trim_threshold")));
    if (tunedByUser)
        return;
    mallopt(M_MMAP_THRESHOLD, kMmapBytes);
    mallopt(M_TRIM_THRESHOLD, kTrimBytes);
#endif
}

// For the service: glibc gives each new thread an arena of its own, up to 8 per core. The service runs each
// analysis on one of its many HTTP threads and starts scan threads per analysis, so an analysis' ~20 MB landed
// in arenas whose freed memory had gone back to the kernel, and was faulted in again page by page: ~6,500 page
// faults and a fifth of the CPU per analysis of the bench's bundle. With 2 arenas per core the memory freed by
// one analysis is what the next one reuses (~1,000 faults, 0.23 -> 0.18 s CPU; docs/performance.md). One arena
// in all made the threads wait on its lock. GLIBC_TUNABLES=glibc.malloc.arena_max=N still decides when given.
inline void fewerMallocArenas()
{
#if defined(__GLIBC__)
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    if (tunables && std::strstr(tunables, "glibc.malloc.arena_max"))
        return;
    mallopt(M_ARENA_MAX, static_cast<int>(2 * std::max(1u, std::thread::hardware_concurrency())));
#endif
}

} // namespace fl::app
