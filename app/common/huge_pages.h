// Transparent huge pages for malloc's heaps, asked of glibc (>= 2.35) with its tunable
// glibc.malloc.hugetlb=1. A wide analysis builds a few hundred MB of events and observations
// in vectors that grow by reallocation; with 4 KiB pages that was ~98,000 page faults per run
// on the 1,250-node bench bundle, ~20,000 with the tunable, and 12 % less CPU
// (docs/performance.md, "Huge pages"). Tunables are read only when a program starts, so
// the program starts itself once more with the tunable added (same process id, arguments,
// open descriptors). It does not when:
//   - GLIBC_TUNABLES already names glibc.malloc.hugetlb (the second start, or the user's
//     own choice: glibc.malloc.hugetlb=0 turns this off);
//   - the kernel never grants transparent huge pages, or the program runs set-uid;
//   - LD_PRELOAD is set: valgrind, which preloads itself, would not follow the new start,
//     and a preloaded allocator (jemalloc, tcmalloc) ignores glibc's tunable. (heaptrack
//     takes its library out of LD_PRELOAD as it starts, so it cannot be seen here: give
//     it the tunable yourself, docs/performance.md "Huge pages for malloc".)
//   - it was started through the dynamic loader by hand (/proc/self/exe is then the
//     loader, not the program);
//   - FAULTLINE_HUGE_PAGES_TRIED is set (what the first start leaves behind: never a loop,
//     even where glibc drops the variable).
// If the new start cannot be made, the program goes on as it is.
#pragma once

#include <cstdlib>  // first: it defines __GLIBC__, tested below

#if defined(__linux__) && defined(__GLIBC__)
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#endif

namespace fl::app {

inline void preferHugePages(char** argv)
{
#if defined(__linux__) && defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
    static constexpr const char* kTried = "FAULTLINE_HUGE_PAGES_TRIED";
    if (std::getenv(kTried)) {
        unsetenv(kTried);  // not passed on to the programs this one starts
        // The kernel names a process after the file it was started from, here "exe" (of /proc/self/exe), which
        // pgrep, top and ps -e show: give it the name it had before the new start (15 bytes, as the kernel keeps).
        char self[4096];
        if (const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1); len > 0) {
            self[len] = '\0';
            const char* base = std::strrchr(self, '/');
            prctl(PR_SET_NAME, base ? base + 1 : self, 0, 0, 0);
        }
        return;
    }
    const char* current = std::getenv("GLIBC_TUNABLES");
    if ((current && std::strstr(current, "glibc.malloc.hugetlb")) || getauxval(AT_SECURE))
        return;
    if (const char* preload = std::getenv("LD_PRELOAD"); preload && *preload)
        return;
    char self[4096];
    const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return;
    self[len] = '\0';
    const char* base = std::strrchr(self, '/');
    base = base ? base + 1 : self;
    if (std::strncmp(base, "ld-", 3) == 0 || std::strncmp(base, "ld.so", 5) == 0)
        return;
    if (FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r")) {
        char mode[128] = {};
        const size_t n = std::fread(mode, 1, sizeof mode - 1, f);
        std::fclose(f);
        if (n == 0 || std::strstr(mode, "[never]"))
            return;
    } else {
        return;
    }
    const std::string previous = current ? current : "";
    const std::string wanted = previous.empty() ? "glibc.malloc.hugetlb=1" : previous + ":glibc.malloc.hugetlb=1";
    if (setenv("GLIBC_TUNABLES", wanted.c_str(), 1) != 0 || setenv(kTried, "1", 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // Still here: run without it, and leave the environment as it was.
    if (current)
        setenv("GLIBC_TUNABLES", previous.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
    unsetenv(kTried);
#else
    (void)argv;
#endif
}

} // namespace fl::app
