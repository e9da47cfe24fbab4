// Runs an external command (sacct, scontrol, kubectl, journalctl, ssh) with a
// deadline. Always an argv array, never a shell string: text from a scheduler
// or a log cannot become a command.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fl::collect {

struct ProcessResult {
    bool started = false;      // false: could not be spawned (error says why)
    bool timedOut = false;     // killed at the deadline
    bool truncated = false;    // stdout passed maxStdoutBytes: the process was stopped there
    int exitCode = -1;         // exit status, or -1 when killed or not started
    int signal = 0;            // the signal that ended it, if any
    std::string out;           // stdout (unless a sink took it)
    std::string err;           // stderr, at most 64 KiB
    std::string error;         // spawn failure
    // One line saying how it ended, for reports: "exit 1: <first stderr line>".
    std::string describe() const;
};

struct ProcessOptions {
    std::chrono::milliseconds timeout{30000};
    uint64_t maxStdoutBytes = 256ull << 20;
    // When set, stdout goes here in chunks instead of into `out`.
    std::function<void(std::string_view)> stdoutSink;
};

[[nodiscard]] ProcessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// Ends (SIGKILL to their process groups) every command runProcess is running
// now; for an interrupted collect, so no ssh or journalctl outlives it.
void killAllRunning();

// Blocks SIGINT/SIGTERM in the calling thread (call before starting others) and
// waits for them on a thread of its own: it kills the running commands, prints
// `message` to stderr and exits with 130.
void exitOnInterrupt(std::string message);

// One word for a POSIX shell: 'it'\''s'. For the command line ssh hands to the remote shell.
std::string shellQuote(std::string_view word);

} // namespace fl::collect
