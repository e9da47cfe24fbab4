// Files by path template per node, on this machine or over ssh. Rotated
// copies (syslog.1, syslog.2.gz, syslog-20260301) next to a match come too,
// unless they were last written before the window; bytes are copied as they
// are (compressed files stay compressed).
#include "collect/process.h"
#include "collect/sources.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <glob.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fl::collect {

namespace {

struct Found {
    std::string path;
    int64_t mtimeNs = 0;
    uint64_t size = 0;
};

std::string replaceAll(std::string s, std::string_view what, std::string_view with)
{
    for (size_t at = 0; (at = s.find(what, at)) != std::string::npos; at += with.size())
        s.replace(at, what.size(), with);
    return s;
}

std::string jobToken(const Scope& scope)
{
    std::string j = scope.scheduler == "kubernetes" ? scope.name : scope.workloadId;
    return safeComponent(j);
}

// Every path pattern for this node: {node} {job} replaced, {rank} once per rank.
std::vector<std::string> patternsFor(const SourceContext& ctx, const std::string& node, std::string& error)
{
    std::vector<std::string> out;
    for (const auto& t : ctx.options.fileTemplates) {
        std::string p = replaceAll(replaceAll(t, "{node}", node), "{job}", jobToken(ctx.scope));
        if (p.find("{rank}") == std::string::npos) {
            out.push_back(p);
            continue;
        }
        if (ctx.scope.tasks <= 0) {
            error = "template '" + t + "' uses {rank} but the number of ranks is unknown (give --ranks N)";
            continue;
        }
        for (int r = 0; r < ctx.scope.tasks; ++r)
            out.push_back(replaceAll(p, "{rank}", std::to_string(r)));
    }
    return out;
}

void globLocal(const std::string& pattern, std::vector<std::string>& out)
{
    glob_t g{};
    if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i)
            out.emplace_back(g.gl_pathv[i]);
    ::globfree(&g);
}

std::vector<Found> findLocal(const std::vector<std::string>& patterns)
{
    std::vector<std::string> paths;
    for (const auto& p : patterns) {
        std::vector<std::string> matched;
        globLocal(p, matched);
        for (const auto& m : matched) {
            paths.push_back(m);
            globLocal(m + ".[0-9]*", paths);
            globLocal(m + "-[0-9]*", paths);
        }
    }
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    std::vector<Found> found;
    for (const auto& p : paths) {
        struct stat st {};
        if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        found.push_back({p, static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec,
                         static_cast<uint64_t>(st.st_size)});
    }
    return found;
}

// The remote shell expands the pattern ($1, unquoted on purpose: globbing is
// the feature; IFS empty so a space in the path does not split it) and prints
// "mtime size path\0" for each regular file.
constexpr const char* kRemoteList = "IFS=; for f in $1; do [ -f \"$f\" ] || continue; "
                                    "for g in \"$f\" \"$f\".[0-9]* \"$f\"-[0-9]*; do [ -f \"$g\" ] && "
                                    "printf '%s %s\\0' \"$(stat -L -c '%Y %s' -- \"$g\")\" \"$g\"; done; done";

std::vector<Found> parseRemoteList(const std::string& out)
{
    std::vector<Found> found;
    size_t i = 0;
    while (i < out.size()) {
        size_t end = out.find('\0', i);
        if (end == std::string::npos)
            end = out.size();
        const std::string rec = out.substr(i, end - i);
        i = end + 1;
        const size_t a = rec.find(' ');
        const size_t b = a == std::string::npos ? a : rec.find(' ', a + 1);
        if (b == std::string::npos)
            continue;
        try {
            found.push_back({rec.substr(b + 1), std::stoll(rec.substr(0, a)) * 1'000'000'000,
                             std::stoull(rec.substr(a + 1, b - a - 1))});
        } catch (const std::exception&) {
        }
    }
    std::sort(found.begin(), found.end(), [](const Found& x, const Found& y) { return x.path < y.path; });
    found.erase(std::unique(found.begin(), found.end(), [](const Found& x, const Found& y) { return x.path == y.path; }),
                found.end());
    return found;
}

std::string baseName(const std::string& p)
{
    const size_t s = p.find_last_of('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

std::string parentName(const std::string& p)
{
    const size_t s = p.find_last_of('/');
    if (s == std::string::npos || s == 0)
        return "root";
    const size_t s2 = p.find_last_of('/', s - 1);
    return p.substr(s2 == std::string::npos ? 0 : s2 + 1, s - (s2 == std::string::npos ? 0 : s2 + 1));
}

std::chrono::milliseconds left(const SourceContext& ctx)
{
    return std::max(std::chrono::milliseconds(1), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                      ctx.deadline - std::chrono::steady_clock::now()));
}

// Copies one file into the bundle; returns bytes copied, sets error/truncated.
uint64_t copyOne(const SourceContext& ctx, const std::string& node, const Found& f, const std::string& folder,
                 std::string& rel, std::string& error, bool& truncated)
{
    const std::string base = safeComponent(baseName(f.path));
    rel = ctx.writer.reserve({folder + "/" + base, folder + "/" + safeComponent(parentName(f.path)) + "/" + base,
                              folder + "/" + std::to_string(std::hash<std::string>{}(f.path) % 100000) + "/" + base});
    if (rel.empty()) {
        error = "no free name in the bundle";
        return 0;
    }
    FILE* out = ctx.writer.open(rel, error);
    if (!out)
        return 0;
    uint64_t copied = 0;
    bool writeFailed = false;
    if (isLocalNode(ctx, node) || !ctx.options.ssh) {
        const int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            error = "cannot open: " + std::string(std::strerror(errno));
        } else {
            char buf[1 << 16];
            while (copied < ctx.options.maxFileBytes) {
                if (std::chrono::steady_clock::now() >= ctx.deadline) {
                    error = "timed out after " + std::to_string(copied) + " bytes";
                    break;
                }
                const ssize_t got = ::read(fd, buf, std::min<uint64_t>(sizeof buf, ctx.options.maxFileBytes - copied));
                if (got < 0 && errno == EINTR)
                    continue;
                if (got < 0) {
                    error = std::strerror(errno);
                    break;
                }
                if (got == 0)
                    break;
                writeFailed |= std::fwrite(buf, 1, static_cast<size_t>(got), out) != static_cast<size_t>(got);
                copied += static_cast<uint64_t>(got);
            }
            truncated = copied >= ctx.options.maxFileBytes && f.size > copied;
            ::close(fd);
        }
    } else {
        ProcessOptions po;
        po.timeout = left(ctx);
        po.maxStdoutBytes = ctx.options.maxFileBytes;
        po.stdoutSink = [&](std::string_view chunk) {
            writeFailed |= std::fwrite(chunk.data(), 1, chunk.size(), out) != chunk.size();
            copied += chunk.size();
        };
        const ProcessResult r = runProcess(remoteArgv(ctx, node, "cat -- " + shellQuote(f.path)), po);
        truncated = r.truncated;
        if (!r.truncated && (r.timedOut || r.exitCode != 0))
            error = "ssh cat: " + r.describe();
    }
    if (std::fclose(out) != 0 || writeFailed)
        error = "write failed: " + std::string(std::strerror(errno));
    return copied;
}

} // namespace

bool isLocalNode(const SourceContext& ctx, const std::string& node)
{
    return node == ctx.options.localHost || node == "localhost";
}

std::vector<std::string> remoteArgv(const SourceContext& ctx, const std::string& node, const std::string& command)
{
    std::vector<std::string> argv = ctx.options.sshCommand;
    argv.push_back(node);
    argv.push_back("--");
    argv.push_back(command);
    return argv;
}

namespace {

SourceReport copyFound(const SourceContext& ctx, const std::string& node, const std::string& source,
                       std::vector<Found> found, const std::string& folder, std::string note)
{
    SourceReport rep{source, node, SourceStatus::Ok, {}, {}, 0, 0};
    std::sort(found.begin(), found.end(), [](const Found& x, const Found& y) { return x.path < y.path; });
    found.erase(std::unique(found.begin(), found.end(), [](const Found& x, const Found& y) { return x.path == y.path; }),
                found.end());
    size_t old = 0;
    std::vector<std::string> problems;
    for (const auto& f : found) {
        if (f.mtimeNs < ctx.fromNs - ctx.options.rotatedSlackNs) {
            ++old;
            continue;
        }
        std::string rel, error;
        bool truncated = false;
        const uint64_t n = copyOne(ctx, node, f, folder, rel, error, truncated);
        if (!error.empty()) {
            problems.push_back(f.path + ": " + error);
            if (n == 0 && !rel.empty())
                ctx.writer.remove(rel);
            if (n == 0)
                continue;
        }
        if (truncated)
            problems.push_back(f.path + ": cut at " + std::to_string(ctx.options.maxFileBytes) + " bytes (--max-file-bytes)");
        rep.files.push_back(rel);
        rep.bytes += n;
        if (std::chrono::steady_clock::now() >= ctx.deadline) {
            problems.push_back("timed out; files not copied: "
                               + std::to_string(found.size() - old - rep.files.size()));
            break;
        }
    }
    std::string why = std::to_string(rep.files.size()) + " files, " + std::to_string(rep.bytes) + " bytes";
    if (old)
        why += "; " + std::to_string(old) + " last written before the window, not copied";
    if (!note.empty())
        why += "; " + note;
    for (const auto& p : problems)
        why += "; " + p;
    rep.reason = why;
    if (rep.files.empty())
        rep.status = problems.empty() ? SourceStatus::Empty : SourceStatus::Error;
    else if (rep.bytes == 0)
        rep.status = SourceStatus::Empty;
    return rep;
}

} // namespace

SourceReport collectFiles(const SourceContext& ctx, const std::string& node)
{
    std::string templateError;
    const std::vector<std::string> patterns = patternsFor(ctx, node, templateError);
    std::vector<Found> found;
    const bool local = isLocalNode(ctx, node) || !ctx.options.ssh;
    if (local) {
        found = findLocal(patterns);
    } else {
        for (const auto& p : patterns) {
            ProcessOptions po;
            po.timeout = left(ctx);
            po.maxStdoutBytes = 16u << 20;
            const ProcessResult r
                = runProcess(remoteArgv(ctx, node, "sh -c " + shellQuote(kRemoteList) + " sh " + shellQuote(p)), po);
            if (!r.started || r.timedOut || (r.exitCode != 0 && r.out.empty()))
                return {"files", node, SourceStatus::Error, "ssh " + node + ": " + r.describe(), {}, 0, 0};
            auto more = parseRemoteList(r.out);
            found.insert(found.end(), more.begin(), more.end());
        }
    }
    if (found.empty()) {
        std::string why = "no file matches";
        for (const auto& p : patterns)
            why += " '" + p + "'";
        if (!templateError.empty())
            why += "; " + templateError;
        return {"files", node, templateError.empty() ? SourceStatus::Empty : SourceStatus::Error,
                why + (local ? " on this machine" : " on " + node), {}, 0, 0};
    }
    return copyFound(ctx, node, "files", std::move(found), node, templateError);
}

SourceReport collectOutputFiles(const SourceContext& ctx)
{
    const std::string& host = ctx.scope.batchHost.empty() && !ctx.scope.nodes.empty() ? ctx.scope.nodes[0]
                                                                                        : ctx.scope.batchHost;
    std::vector<Found> found;
    if (isLocalNode(ctx, host) || !ctx.options.ssh) {
        found = findLocal(ctx.scope.outputFiles);
    } else {
        for (const auto& p : ctx.scope.outputFiles) {
            ProcessOptions po;
            po.timeout = left(ctx);
            const ProcessResult r = runProcess(
                remoteArgv(ctx, host, "stat -L -c '%Y %s' -- " + shellQuote(p)), po);
            if (r.exitCode == 0 && !r.out.empty()) {
                const size_t sp = r.out.find(' ');
                try {
                    found.push_back({p, std::stoll(r.out.substr(0, sp)) * 1'000'000'000, std::stoull(r.out.substr(sp + 1))});
                } catch (const std::exception&) {
                }
            }
        }
    }
    if (found.empty()) {
        std::string why = "the job's output";
        for (const auto& p : ctx.scope.outputFiles)
            why += " '" + p + "'";
        return {"slurm-output", "", SourceStatus::Empty, why + " is not readable here", {}, 0, 0};
    }
    // The job's stdout is the application log of every rank (srun --label prefixes).
    return copyFound(ctx, host, "slurm-output", std::move(found), "job", "");
}

} // namespace fl::collect
