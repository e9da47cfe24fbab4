// faultline-service: the engine behind a REST API (docs/service.md).
#include "admission.h"
#include "api.h"
#include "retention.h"
#include "sessions.h"
#include "store.h"
#include "../common/huge_pages.h"
#include "../common/malloc_tuning.h"

#include "engine/engine.h"
#include "rules/ruleset.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include <signal.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace fl::service;

struct Listen {
    std::string host;
    int port = 0;
};

Listen parseListen(const std::string& s)
{
    Listen l;
    size_t colon = s.rfind(':');
    if (colon == std::string::npos)
        throw CLI::ValidationError("--listen", "expected HOST:PORT, got '" + s + "'");
    l.host = s.substr(0, colon);
    if (l.host.size() >= 2 && l.host.front() == '[' && l.host.back() == ']')
        l.host = l.host.substr(1, l.host.size() - 2);
    try {
        size_t used = 0;
        l.port = std::stoi(s.substr(colon + 1), &used);
        if (used != s.size() - colon - 1 || l.port < 0 || l.port > 65535)
            throw std::out_of_range("port");
    } catch (const std::exception&) {
        throw CLI::ValidationError("--listen", "port of '" + s + "' is not 0..65535");
    }
    if (l.host.empty())
        throw CLI::ValidationError("--listen", "host of '" + s + "' is empty");
    return l;
}

bool isLoopback(const std::string& host)
{
    return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string readToken(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read token file " + path);
    std::string token((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' '))
        token.pop_back();
    if (token.size() < 16)
        throw std::runtime_error("token file " + path + " holds fewer than 16 characters");
    return token;
}

} // namespace

// --scratch: a folder of this process's own under DIR (replicas on one host may share DIR), also where the loader
// expands archives (core's ExtractionDir takes $TMPDIR; set before any thread starts). An analysis of an upload
// creates and deletes one file per member: 709 for the bench's bundle. On the bench machine's ext4 /tmp (no
// journal, whose inode allocator skips inodes freed in the last minutes) that cost ~0.5 s of CPU per analysis,
// on a tmpfs ~0.02 s (docs/performance.md, service).
static std::string scratchFolder(const std::string& dir)
{
    fs::create_directories(dir);
    const std::string prefix = "faultline-service.";
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) { // leftovers of killed processes: their pid is gone
        const std::string name = e.path().filename().string();
        if (name.rfind(prefix, 0) != 0)
            continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
            fs::remove_all(e.path(), ec);
    }
    const std::string own = dir + "/" + prefix + std::to_string(::getpid());
    fs::remove_all(own, ec);
    fs::create_directories(own);
    ::setenv("TMPDIR", own.c_str(), 1);
    return own;
}

namespace {

// Every option of the command line (each with its FAULTLINE_* environment variable).
struct ServiceArgs {
    std::string listen = "127.0.0.1:8000", dataDir = "faultline-data", tokenFile, dbUrl, scratchDir;
    std::vector<std::string> ruleDirs;
    int workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    int waiters = -1, httpThreads = 32, backlog = 64;
    int timeoutMs = 60000, maxTimeoutMs = 600000;
    size_t maxBodyMiB = 256, maxExpandedMiB = 4096, resultCacheMiB = 256, memoryMiB = 256;
    uint32_t maxEntries = 100000;
    bool allowRemote = false, trustForwardedFor = false;
    double retainDays = 0, ratePerSecond = 0, rateBurst = 0;
};

void addOptions(CLI::App& app, ServiceArgs& a)
{
    app.set_version_flag("--version", std::string("faultline-service ") + FAULTLINE_VERSION);
    app.add_option("--listen", a.listen, "HOST:PORT to listen on (port 0: any free port, printed at start)")
        ->envname("FAULTLINE_LISTEN")->capture_default_str();
    app.add_option("--data", a.dataDir, "folder for the SQLite database and temporary files")
        ->envname("FAULTLINE_DATA")->capture_default_str();
    app.add_option("--scratch", a.scratchDir, "folder where uploads are expanded and sessions laid out for an analysis, "
                                              "best a tmpfs (default: --data/tmp, and $TMPDIR or /tmp for archives)")
        ->envname("FAULTLINE_SCRATCH");
    app.add_option("--token-file", a.tokenFile, "require 'Authorization: Bearer <token>' with the token in FILE")
        ->envname("FAULTLINE_TOKEN_FILE");
    app.add_option("--db", a.dbUrl, "database URL: postgresql://... (shared by replicas) or sqlite:///path "
                                    "(default: sqlite under --data)")
        ->envname("FAULTLINE_DB");
    app.add_option("--rules", a.ruleDirs, "extra rule folder, after the shipped rules (repeatable)")
        ->envname("FAULTLINE_RULES");
    app.add_option("--workers", a.workers, "analyses running at once (CPU-bound; default: cores)")
        ->envname("FAULTLINE_WORKERS")->check(CLI::Range(1, 256))->capture_default_str();
    app.add_option("--queue", a.waiters, "analyses waiting for a worker before 429 (default: 2 x workers)")
        ->envname("FAULTLINE_QUEUE")->check(CLI::Range(0, 10000));
    app.add_option("--http-threads", a.httpThreads, "connections served at once")
        ->envname("FAULTLINE_HTTP_THREADS")->check(CLI::Range(2, 1024))->capture_default_str();
    app.add_option("--backlog", a.backlog, "connections waiting for a thread before 503")
        ->envname("FAULTLINE_BACKLOG")->check(CLI::Range(0, 100000))->capture_default_str();
    app.add_option("--timeout-ms", a.timeoutMs, "default per-request deadline (requests may set timeout_ms)")
        ->envname("FAULTLINE_TIMEOUT_MS")->check(CLI::Range(1, 86400000))->capture_default_str();
    app.add_option("--max-timeout-ms", a.maxTimeoutMs, "largest timeout_ms a request may ask for")
        ->envname("FAULTLINE_MAX_TIMEOUT_MS")->check(CLI::Range(1, 86400000))->capture_default_str();
    app.add_option("--max-body-mib", a.maxBodyMiB, "largest request body, MiB (413 beyond)")
        ->envname("FAULTLINE_MAX_BODY_MIB")->check(CLI::Range(1, 65536))->capture_default_str();
    app.add_option("--max-expanded-mib", a.maxExpandedMiB, "largest expanded archive, MiB (bomb guard)")
        ->envname("FAULTLINE_MAX_EXPANDED_MIB")->check(CLI::Range(1, 1048576))->capture_default_str();
    app.add_option("--memory-mib", a.memoryMiB, "an upload's members are expanded in memory up to this many MiB per "
                                                "analysis, the rest into --scratch (0: all to disk)")
        ->envname("FAULTLINE_MEMORY_MIB")->check(CLI::Range(0, 1048576))->capture_default_str();
    app.add_option("--result-cache-mib", a.resultCacheMiB, "memory for recently read result documents, MiB")
        ->envname("FAULTLINE_RESULT_CACHE_MIB")->check(CLI::Range(0, 65536))->capture_default_str();
    app.add_option("--max-entries", a.maxEntries, "most members in one archive")
        ->envname("FAULTLINE_MAX_ENTRIES")->capture_default_str();
    app.add_flag("--allow-remote", a.allowRemote, "allow --listen on a non-loopback address")
        ->envname("FAULTLINE_ALLOW_REMOTE");
    app.add_option("--retain-days", a.retainDays, "delete sessions (files, runs) idle for more than N days, checked at "
                                                  "start and every tenth of N (fractions allowed; 0: keep forever)")
        ->envname("FAULTLINE_RETAIN_DAYS")->check(CLI::Range(0.0, 36500.0))->capture_default_str();
    app.add_option("--rate-limit", a.ratePerSecond, "requests a second one client may send before 429 + Retry-After "
                                                    "(health and OpenAPI exempt; 0: no limit)")
        ->envname("FAULTLINE_RATE_LIMIT")->check(CLI::Range(0.0, 1e6))->capture_default_str();
    app.add_option("--rate-burst", a.rateBurst, "requests one client may send at once (default: 2 x --rate-limit)")
        ->envname("FAULTLINE_RATE_BURST")->check(CLI::Range(0.0, 1e6));
    app.add_flag("--trust-forwarded-for", a.trustForwardedFor, "behind a proxy: the client of a rate limit is the last "
                                                               "X-Forwarded-For address (the proxy's own view of it)")
        ->envname("FAULTLINE_TRUST_FORWARDED_FOR");
}

// The API's limits, token and rate limit.
ApiConfig apiConfigOf(const ServiceArgs& a)
{
    ApiConfig config;
    config.version = FAULTLINE_VERSION;
    if (!a.tokenFile.empty())
        config.token = readToken(a.tokenFile);
    config.maxBodyBytes = a.maxBodyMiB << 20;
    config.defaultTimeoutMs = std::min(a.timeoutMs, a.maxTimeoutMs);
    config.maxTimeoutMs = a.maxTimeoutMs;
    config.resultCacheBytes = a.resultCacheMiB << 20;
    config.ratePerSecond = a.ratePerSecond;
    config.rateBurst = a.rateBurst > 0 ? a.rateBurst : std::max(1.0, std::ceil(2 * a.ratePerSecond));
    char rateText[96];
    std::snprintf(rateText, sizeof rateText, "%g requests/s (bursts of %g)", config.ratePerSecond, config.rateBurst);
    config.rateLimitText = rateText;
    config.trustForwardedFor = a.trustForwardedFor;
    return config;
}

// Where uploads are expanded, how large they may be, the threads of one analysis. Clears the last run's leftovers.
SessionServiceOptions sessionOptionsOf(const ServiceArgs& a)
{
    SessionServiceOptions so;
    so.tmpDir = a.dataDir + "/tmp";
    std::error_code ec;
    fs::remove_all(so.tmpDir, ec); // leftovers of a killed process
    if (!a.scratchDir.empty())
        so.tmpDir = scratchFolder(a.scratchDir);
    so.load.maxEntries = a.maxEntries;
    so.load.maxTotalBytes = uint64_t(a.maxExpandedMiB) << 20;
    so.load.maxEntryBytes = so.load.maxTotalBytes;
    so.load.memoryBytes = uint64_t(a.memoryMiB) << 20;
    // The cores shared out among the analyses that run at once: one thread each when there are as many
    // workers as cores, more when fewer workers leave cores idle.
    so.threadsPerAnalysis = std::max(1u, std::thread::hardware_concurrency() / unsigned(std::max(1, a.workers)));
    return so;
}

// The HTTP server's sockets, timeouts and connection queue (healthz reads the queue through `connections`).
void configureServer(httplib::Server& server, const ServiceArgs& a, std::atomic<const ConnectionQueue*>& connections)
{
    // httplib creates (and owns) the queue when listening starts.
    server.new_task_queue = [&connections, threads = a.httpThreads, backlog = a.backlog] {
        auto* q = new ConnectionQueue(static_cast<size_t>(threads), static_cast<size_t>(backlog));
        connections.store(q);
        return q;
    };
    // Not httplib's default SO_REUSEPORT, with which a second service binds the same port and the kernel
    // shares connections between the two (two stores answering by turns): SO_REUSEADDR alone still allows a
    // restart while the last run's connections are in TIME_WAIT, and makes a second bind fail (EADDRINUSE).
    server.set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    server.set_keep_alive_max_count(1000);
    server.set_tcp_nodelay(true); // small JSON answers must not wait for delayed ACKs (~40 ms each)
    server.set_read_timeout(10, 0);
    // A thread serves one connection at a time: idle keep-alive connections must let go soon.
    server.set_keep_alive_timeout(2);
    server.set_write_timeout(30, 0);
}

// The port bound (port 0: any free one); throws naming why it cannot listen.
int bindPort(httplib::Server& server, const Listen& where, const std::string& listen)
{
    if (where.port == 0) {
        const int port = server.bind_to_any_port(where.host);
        if (port < 0)
            throw std::runtime_error("cannot listen on " + where.host);
        return port;
    }
    if (errno = 0; !server.bind_to_port(where.host, where.port)) {
        const int err = errno;
        throw std::runtime_error("cannot listen on " + listen + ": " +
                                 (err == EADDRINUSE ? std::string("another process listens on that port")
                                  : err != 0        ? std::string(std::strerror(err))
                                                    : std::string("not an address of this host")));
    }
    return where.port;
}

// SIGINT/SIGTERM stop the server from a thread of ours, not from a signal handler (`sigs` blocked in every thread).
void stopOnSignal(httplib::Server& server, sigset_t sigs)
{
    std::thread stopper([&server, sigs] {
        int sig = 0;
        sigwait(&sigs, &sig);
        // A signal just after the "listening" line may come before httplib runs, when stop() does nothing
        // (seen: a SIGTERM sent on that line was lost, and the service ran on).
        while (!server.is_running())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        server.stop();
    });
    stopper.detach();
}

// Serves until a signal stops it; 2 when it cannot start.
int serve(const ServiceArgs& a, sigset_t sigs)
{
    const Listen where = parseListen(a.listen);
    if (!isLoopback(where.host) && !a.allowRemote) {
        std::fprintf(stderr, "faultline-service: refusing to listen on %s without --allow-remote "
                             "(and a --token-file)\n", where.host.c_str());
        return 2;
    }
    if (!isLoopback(where.host) && a.tokenFile.empty())
        std::fprintf(stderr, "faultline-service: warning: listening on %s without --token-file\n", where.host.c_str());
    const ApiConfig config = apiConfigOf(a);
    fs::create_directories(a.dataDir);
    const SessionServiceOptions so = sessionOptionsOf(a);

    fl::AnalyzeOptions ro;
    ro.ruleDirs = a.ruleDirs;
    ro.userConfigRules = false; // a service's verdicts must not depend on its user's home folder
    auto rules = fl::loadRulesFor(ro);

    auto store = openStore(a.dbUrl.empty() ? a.dataDir + "/faultline.db" : a.dbUrl);
    SessionService sessions(*store, rules, so);
    AnalysisGate gate(a.workers, a.waiters < 0 ? 2 * a.workers : a.waiters);
    DeadlineWatch deadlines;

    httplib::Server server;
    std::atomic<const ConnectionQueue*> connections{nullptr};
    configureServer(server, a, connections);
    Api api(sessions, gate, deadlines, &connections, config);
    const int port = bindPort(server, where, a.listen);
    api.install(server);
    std::unique_ptr<Retention> retention;
    if (a.retainDays > 0)
        retention = std::make_unique<Retention>(
            *store, std::chrono::nanoseconds(static_cast<int64_t>(a.retainDays * 86400e9)),
            [&api, retainDays = a.retainDays](size_t n) {
                api.forgetCachedResults();
                std::fprintf(stderr, "faultline-service: retention: deleted %zu session%s idle for more than %g days\n",
                             n, n == 1 ? "" : "s", retainDays);
            });
    stopOnSignal(server, sigs);

    std::printf("faultline-service %s listening on http://%s:%d (store: %s, workers %d)\n", FAULTLINE_VERSION,
                where.host.c_str(), port, store->backend().c_str(), a.workers);
    std::fflush(stdout);
    server.listen_after_bind();
    if (!a.scratchDir.empty()) {
        std::error_code ec;
        fs::remove_all(so.tmpDir, ec);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    fl::app::preferHugePages(argv);  // first: it may start the program again
    fl::app::fewerMallocArenas();    // before any thread starts
    fl::app::keepFreedMemory();
    CLI::App app{"faultline-service: failure attribution over HTTP (REST API v2, NVIDIA-compatible v1)",
                 "faultline-service"};
    ServiceArgs args;
    addOptions(app, args);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e); // prints help/version, or the error naming the option
        return rc == 0 ? 0 : 2;     // usage errors exit 2, as faultline-cli's do
    }

    // SIGINT/SIGTERM are blocked before any thread starts so that every thread inherits the mask.
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sigs, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    try {
        return serve(args, sigs);
    } catch (const CLI::Error& e) {
        app.exit(e);
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline-service: %s\n", e.what());
        return 2;
    }
}
