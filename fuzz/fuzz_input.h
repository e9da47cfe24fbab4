// One harness body per fuzz target: `fuzzOne` is called by libFuzzer
// (fuzz_<target>, built with -DFAULTLINE_FUZZ=ON and clang) and by the replay
// test (replay_<target>, every build) that runs tests/fuzz/<target>/*, the seeds
// and every input a fuzzing run ever found. A finding is anything the
// sanitizers report, an uncaught exception, or a broken invariant (abort()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

void fuzzOne(std::string_view data);

// An invariant the harness checks; unlike assert() it stays on in Release.
#define FUZZ_CHECK(cond)                                                                                        \
    do {                                                                                                        \
        if (!(cond))                                                                                            \
            fuzzCheckFailed(#cond, __FILE__, __LINE__);                                                         \
    } while (0)
[[noreturn]] void fuzzCheckFailed(const char* what, const char* file, int line);
