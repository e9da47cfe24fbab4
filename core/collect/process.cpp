#include "collect/process.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace fl::collect {

namespace {

constexpr size_t kMaxErr = 64 * 1024;

std::mutex runningMutex;
std::set<pid_t> running; // process group ids of commands not yet reaped

struct Pipe {
    int fd[2] = {-1, -1};
    ~Pipe()
    {
        for (int f : fd)
            if (f >= 0)
                ::close(f);
    }
    void closeEnd(int i)
    {
        if (fd[i] >= 0)
            ::close(fd[i]);
        fd[i] = -1;
    }
};

} // namespace

std::string ProcessResult::describe() const
{
    if (!started)
        return "cannot start: " + error;
    std::string firstErr = err.substr(0, err.find('\n'));
    if (firstErr.size() > 300)
        firstErr.resize(300);
    std::string s;
    if (timedOut)
        s = "timed out";
    else if (signal)
        s = std::string("killed by signal ") + std::to_string(signal);
    else
        s = "exit " + std::to_string(exitCode);
    if (!firstErr.empty())
        s += ": " + firstErr;
    return s;
}

void killAllRunning()
{
    std::lock_guard lock(runningMutex);
    for (pid_t p : running)
        ::kill(-p, SIGKILL);
}

void exitOnInterrupt(std::string message)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set, message = std::move(message)] {
        int sig = 0;
        if (::sigwait(&set, &sig) != 0)
            return;
        killAllRunning();
        std::fprintf(stderr, "\n%s\n", message.c_str());
        std::_Exit(130);
    }).detach();
}

std::string shellQuote(std::string_view word)
{
    std::string q = "'";
    for (char c : word) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    q += '\'';
    return q;
}

ProcessResult runProcess(const std::vector<std::string>& argv, const ProcessOptions& options)
{
    ProcessResult r;
    if (argv.empty()) {
        r.error = "empty command";
        return r;
    }
    Pipe out, err;
    if (::pipe2(out.fd, O_CLOEXEC) != 0 || ::pipe2(err.fd, O_CLOEXEC) != 0) {
        r.error = std::strerror(errno);
        return r;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out.fd[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err.fd[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Own process group, so a timeout also ends what the command started (ssh's children).
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);

    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        r.error = argv[0] + ": " + std::strerror(rc);
        return r;
    }
    r.started = true;
    {
        std::lock_guard lock(runningMutex);
        running.insert(pid);
    }
    out.closeEnd(1);
    err.closeEnd(1);

    const auto deadline = std::chrono::steady_clock::now() + options.timeout;
    uint64_t outBytes = 0;
    char buf[65536];
    bool stop = false;
    while ((out.fd[0] >= 0 || err.fd[0] >= 0) && !stop) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            r.timedOut = true;
            break;
        }
        pollfd fds[2];
        nfds_t n = 0;
        int which[2];
        if (out.fd[0] >= 0) {
            fds[n] = {out.fd[0], POLLIN, 0};
            which[n++] = 0;
        }
        if (err.fd[0] >= 0) {
            fds[n] = {err.fd[0], POLLIN, 0};
            which[n++] = 1;
        }
        const int ready = ::poll(fds, n, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
        if (ready < 0 && errno != EINTR)
            break;
        for (nfds_t i = 0; ready > 0 && i < n; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            if (got <= 0) {
                if (got < 0 && errno == EINTR)
                    continue;
                (which[i] == 0 ? out : err).closeEnd(0);
                continue;
            }
            if (which[i] == 1) {
                if (r.err.size() < kMaxErr)
                    r.err.append(buf, std::min<size_t>(static_cast<size_t>(got), kMaxErr - r.err.size()));
                continue;
            }
            uint64_t take = static_cast<uint64_t>(got);
            if (outBytes + take > options.maxStdoutBytes) {
                take = options.maxStdoutBytes - outBytes;
                r.truncated = true;
                stop = true;
            }
            outBytes += take;
            if (options.stdoutSink)
                options.stdoutSink(std::string_view(buf, take));
            else
                r.out.append(buf, take);
        }
    }
    if (r.timedOut || stop)
        ::kill(-pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    {
        std::lock_guard lock(runningMutex);
        running.erase(pid);
    }
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    if (r.timedOut || r.truncated) {
        r.exitCode = -1;
        r.signal = 0;
    }
    return r;
}

} // namespace fl::collect
