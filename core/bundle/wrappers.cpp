#include "bundle/wrappers.h"

#include "bundle/text_lines.h"

#include <array>
#include <stdexcept>

namespace fl {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isAlnum(char c) { return isDigit(c) || isAlpha(c); }
bool isNameChar(char c) { return isAlnum(c) || c == '-' || c == '.' || c == '_'; }

// End of a run of name characters from `p` (at most `max`), p itself when none.
size_t nameEnd(std::string_view s, size_t p, size_t max = 64)
{
    size_t q = p;
    while (q < s.size() && q - p < max && isNameChar(s[q]))
        ++q;
    return q;
}

bool lit(std::string_view s, size_t& p, std::string_view word)
{
    if (s.substr(p, word.size()) != word)
        return false;
    p += word.size();
    return true;
}

bool number(std::string_view s, size_t& p, size_t maxDigits, int& out)
{
    const size_t b = p;
    int64_t v = 0;
    while (p < s.size() && isDigit(s[p]) && p - b < maxDigits)
        v = v * 10 + (s[p++] - '0');
    if (p == b)
        return false;
    out = int(v);
    return true;
}

// pdsh / clush -L: "<host>: " (pdsh's dshbak-less output; clush --label). A host name holds a digit, a dot
// or a dash ("node-02", "gpu7", "10.0.0.5"); words like "kernel: ", "ERROR: " or "RuntimeError: " do not
// pass, nor a dotted exception class ("torch.distributed.DistBackendError: ").
bool readPdsh(std::string_view s, Unwrapped& out)
{
    if (s.empty() || !isAlnum(s[0]))
        return false;
    const size_t e = nameEnd(s, 0);
    if (e >= s.size() || s.substr(e, 2) != ": ")
        return false;
    const std::string_view host = s.substr(0, e);
    if (!slurmDaemonNode(host).empty())
        return false;
    bool marked = false, letter = false;
    for (char c : host) {
        marked = marked || isDigit(c) || c == '-' || c == '.';
        letter = letter || isAlpha(c);
    }
    if (!marked || (!letter && host.find('.') == std::string_view::npos) || host.find("Error") != std::string_view::npos
        || host.find("Exception") != std::string_view::npos || host.find("Warning") != std::string_view::npos)
        return false;
    out.host = host;
    out.inner = e + 2;
    return true;
}

// docker compose: "<service>-<n>  | " (v2) or "<project>_<service>_<n>  | " (v1), names padded to one width.
bool readCompose(std::string_view s, Unwrapped& out)
{
    if (s.empty() || !isAlnum(s[0]))
        return false;
    const size_t e = nameEnd(s, 0);
    size_t p = e;
    while (p < s.size() && s[p] == ' ' && p - e < 64)
        ++p;
    if (p == e || p >= s.size() || s[p] != '|')
        return false;
    ++p;
    if (p < s.size() && s[p] == ' ')
        ++p;
    else if (p < s.size())
        return false;
    out.pod = s.substr(0, e);
    out.inner = p;
    return true;
}

// kubectl logs --prefix: "[pod/<pod>/<container>] " (kubectl's logs.go: "[%s/%s/%s] ", kind/name/container).
bool readKubectlPrefix(std::string_view s, Unwrapped& out)
{
    size_t p = 0;
    if (!lit(s, p, "[pod/"))
        return false;
    const size_t pb = p;
    p = nameEnd(s, p, 253);
    if (p == pb || !lit(s, p, "/"))
        return false;
    const size_t pe = p - 1;
    const size_t cb = p;
    p = nameEnd(s, p, 253);
    if (p == cb || !lit(s, p, "]"))
        return false;
    if (p < s.size() && !lit(s, p, " "))
        return false;
    out.pod = s.substr(pb, pe - pb);
    out.inner = p;
    return true;
}

// Metaflow: "[<run>/<step>/<task> (pid N)] " (also "[<step>/<task> (pid N)] ").
bool readMetaflow(std::string_view s, Unwrapped& out)
{
    size_t p = 0;
    if (!lit(s, p, "["))
        return false;
    const size_t b = p;
    int slashes = 0;
    while (p < s.size() && p - b < 200 && (isNameChar(s[p]) || s[p] == '/')) {
        slashes += s[p] == '/';
        ++p;
    }
    int pid = -1;
    if (slashes == 0 || !lit(s, p, " (pid ") || !number(s, p, 10, pid) || !lit(s, p, ")]"))
        return false;
    if (p < s.size() && !lit(s, p, " "))
        return false;
    out.pod = s.substr(b, s.find(' ', b) - b);
    out.pid = pid;
    out.inner = p;
    return true;
}

// Ray's log monitor: "(raylet) ", "(raylet, ip=10.0.0.5) ", "(pid=1234) ", "(RayTrainWorker pid=1234,
// ip=10.0.0.5) " (ray/_private/ray_logging.py, the prefix of lines streamed to the driver).
bool readRay(std::string_view s, Unwrapped& out)
{
    size_t p = 0;
    if (!lit(s, p, "("))
        return false;
    const size_t nb = p;
    while (p < s.size() && p - nb < 64 && (isNameChar(s[p]) || s[p] == ':'))
        ++p;
    std::string_view name = s.substr(nb, p - nb);
    int pid = -1;
    if (name == "pid" && lit(s, p, "=")) {
        name = {};
        if (!number(s, p, 10, pid))
            return false;
    } else if (!name.empty() && lit(s, p, " pid=") && !number(s, p, 10, pid)) {
        return false;
    }
    if (name.empty() && pid < 0)
        return false;
    std::string_view ip;
    if (lit(s, p, ", ip=")) {
        const size_t ib = p;
        while (p < s.size() && p - ib < 64 && (isAlnum(s[p]) || s[p] == '.' || s[p] == ':' || s[p] == '-'))
            ++p;
        ip = s.substr(ib, p - ib);
    }
    if (!lit(s, p, ")"))
        return false;
    if (p < s.size() && !lit(s, p, " ") && s[p] != '\x1b') // Ray colours its prefix: an escape may follow
        return false;
    out.address = ip;
    out.pid = pid;
    out.pod = name;
    out.inner = p;
    return true;
}

// mpirun --tag-output: "[<job>,<rank>]<stdout>:" / "<stderr>:" / "<stddiag>:" (Open MPI).
bool readMpiTag(std::string_view s, Unwrapped& out)
{
    size_t p = 0;
    int job = 0, rank = 0;
    if (!lit(s, p, "[") || !number(s, p, 10, job) || !lit(s, p, ",") || !number(s, p, 7, rank) || !lit(s, p, "]"))
        return false;
    if (!lit(s, p, "<stdout>:") && !lit(s, p, "<stderr>:") && !lit(s, p, "<stddiag>:"))
        return false;
    out.rank = rank;
    out.inner = p;
    return true;
}

// Azure ML's per-process log: "[<process>, <node address>] ".
bool readAzureMl(std::string_view s, Unwrapped& out)
{
    size_t p = 0;
    if (!lit(s, p, "["))
        return false;
    const size_t nb = p;
    p = nameEnd(s, p);
    if (p == nb || !lit(s, p, ", "))
        return false;
    const size_t ne = p - 2;
    const size_t ib = p;
    int dots = 0;
    while (p < s.size() && p - ib < 15 && (isDigit(s[p]) || s[p] == '.')) {
        dots += s[p] == '.';
        ++p;
    }
    const size_t ie = p;
    if (dots != 3 || !lit(s, p, "]"))
        return false;
    if (p < s.size() && !lit(s, p, " "))
        return false;
    out.pod = s.substr(nb, ne - nb);
    out.address = s.substr(ib, ie - ib);
    out.inner = p;
    return true;
}

// A syslog record after its RFC 3339 time: "<host> <tag>[<pid>]: " (rsyslog's file format, RFC 5424 relays).
bool syslogHostTag(std::string_view s)
{
    size_t p = nameEnd(s, 0);
    if (p == 0 || !lit(s, p, " "))
        return false;
    const size_t tb = p;
    while (p < s.size() && p - tb < 64 && (isNameChar(s[p]) || s[p] == '/'))
        ++p;
    int pid = 0;
    if (p == tb || (lit(s, p, "[") && (!number(s, p, 10, pid) || !lit(s, p, "]"))))
        return false;
    return lit(s, p, ":") && (p == s.size() || s[p] == ' ');
}

// kubectl logs --timestamps: "<RFC 3339 time> <line>" (the kubelet's CRI time, "2024-03-14T09:57:40.123456789Z",
// Go's RFC3339Nano: trailing zeros of the fraction dropped, a zone offset where the node is not in UTC). A CRI
// file's own "<time> stdout F " is not it (that is the file, read by parseLine), nor a syslog file whose
// records start with an RFC 3339 time and go on with "<host> <tag>: ".
bool readKubectlTimestamps(std::string_view s, Unwrapped& out)
{
    size_t p = 0;
    int v = 0;
    if (!number(s, p, 4, v) || p != 4 || !lit(s, p, "-") || !number(s, p, 2, v) || !lit(s, p, "-") || !number(s, p, 2, v)
        || !lit(s, p, "T") || !number(s, p, 2, v) || !lit(s, p, ":") || !number(s, p, 2, v) || !lit(s, p, ":")
        || !number(s, p, 2, v))
        return false;
    if (lit(s, p, ".")) {
        const size_t fb = p;
        while (p < s.size() && p - fb < 9 && isDigit(s[p]))
            ++p;
        if (p == fb)
            return false;
    }
    if (!lit(s, p, "Z")) {
        if (p >= s.size() || (s[p] != '+' && s[p] != '-'))
            return false;
        ++p;
        if (!number(s, p, 2, v) || !lit(s, p, ":") || !number(s, p, 2, v))
            return false;
    }
    const size_t stampEnd = p;
    if (!lit(s, p, " "))
        return false;
    const std::string_view rest = s.substr(p);
    if (rest.starts_with("stdout ") || rest.starts_with("stderr ") || syslogHostTag(rest))
        return false;
    out.stamp = s.substr(0, stampEnd);
    out.inner = p;
    return true;
}

constexpr std::array<std::string_view, 3> kPdshSamples{{
    "node-02: Mar 14 09:57:40 node-02 kernel: NVRM: Xid (PCI:0000:5c:00): 79, pid=41002",
    "gpu7.cluster: [rank3]:[E314 10:10:40.1 ProcessGroupNCCL.cpp:1556] Watchdog caught collective operation timeout",
    "10.0.0.5: slurmstepd: error: *** JOB 7731 ON node-02 CANCELLED ***",
}};
constexpr std::array<std::string_view, 2> kComposeSamples{{
    "trainer-1  | node-01:41000:41000 [0] NCCL INFO cudaDriverVersion 12040",
    "proj_worker_2 | RuntimeError: CUDA error: an illegal memory access was encountered",
}};
constexpr std::array<std::string_view, 2> kKubectlPrefixSamples{{
    "[pod/trainer-0/main] [rank0]: torch.distributed.DistBackendError: NCCL error",
    "[pod/pytorchjob-worker-3/pytorch] 2024-03-14T09:57:40Z ERROR step failed",
}};
constexpr std::array<std::string_view, 2> kMetaflowSamples{{
    "[1712/train/3 (pid 5678)] Traceback (most recent call last):",
    "[train/3 (pid 5678)] RuntimeError: CUDA out of memory.",
}};
constexpr std::array<std::string_view, 4> kRaySamples{{
    "(raylet) [2024-03-14 09:57:40,123 E 1234 1234] node_manager.cc:3007: worker was killed",
    "(raylet, ip=10.0.0.5) A worker died or was killed while executing a task",
    "(RayTrainWorker pid=1234, ip=10.0.0.5) [rank3]: RuntimeError: NCCL error",
    "(pid=1234) ValueError: bad input",
}};
constexpr std::array<std::string_view, 2> kMpiSamples{{
    "[1,3]<stderr>:node-02:41002:41002 [2] NCCL WARN NET/IB : Got completion with error 12",
    "[7,0]<stdout>:Mar 14 09:57:40 node-01 kernel: NVRM: Xid (PCI:0000:5c:00): 79",
}};
constexpr std::array<std::string_view, 3> kKubectlTimestampSamples{{
    "2024-03-14T09:57:40.123456789Z [rank3]:[E314 09:57:40.1 ProcessGroupNCCL.cpp:1556] Watchdog caught collective operation timeout",
    "2024-03-14T09:57:40.1Z Mar 14 09:57:40 node-02 kernel: NVRM: Xid (PCI:0000:5c:00): 79, pid=41002",
    "2024-03-14T10:57:40+01:00 node-02:41002:41002 [2] NCCL WARN NET/IB : Got completion from peer 10.0.0.5<3410> with status=12",
}};
constexpr std::array<std::string_view, 2> kAzureSamples{{
    "[worker-0, 10.0.0.4] RuntimeError: NCCL communicator was aborted",
    "[rank_3, 10.1.2.3] Traceback (most recent call last):",
}};

const std::array<WrapperShape, 8> kShapes{{
    {LineWrapper::MpiTag, "mpirun --tag-output", kMpiSamples, readMpiTag},
    {LineWrapper::KubectlPrefix, "kubectl logs --prefix", kKubectlPrefixSamples, readKubectlPrefix},
    {LineWrapper::Metaflow, "Metaflow", kMetaflowSamples, readMetaflow},
    {LineWrapper::AzureMl, "Azure ML", kAzureSamples, readAzureMl},
    {LineWrapper::Ray, "Ray", kRaySamples, readRay},
    {LineWrapper::Compose, "docker compose", kComposeSamples, readCompose},
    {LineWrapper::Pdsh, "pdsh/clush", kPdshSamples, readPdsh},
    {LineWrapper::KubectlTimestamps, "kubectl logs --timestamps", kKubectlTimestampSamples, readKubectlTimestamps},
}};

void ensureChecked()
{
    static const bool ok = [] {
        if (const std::string problems = checkWrapperShapes(); !problems.empty())
            throw std::logic_error("line wrapper table: " + problems);
        return true;
    }();
    (void)ok;
}

} // namespace

std::span<const WrapperShape> wrapperShapes() { return kShapes; }

std::string checkWrapperShapes()
{
    std::string problems;
    for (size_t i = 0; i < kShapes.size(); ++i) {
        const WrapperShape& shape = kShapes[i];
        if (shape.samples.empty())
            problems += std::string(shape.name) + ": no sample lines\n";
        for (std::string_view line : shape.samples) {
            Unwrapped u;
            if (!shape.read(line, u) || u.inner == 0 || u.inner > line.size())
                problems += std::string(shape.name) + ": does not read its sample '" + std::string(line) + "'\n";
            for (size_t j = 0; j < i; ++j) {
                Unwrapped other;
                if (kShapes[j].read(line, other))
                    problems += std::string(shape.name) + ": sample '" + std::string(line) + "' is taken by "
                        + std::string(kShapes[j].name) + " first\n";
            }
        }
    }
    return problems;
}

LineWrapper detectWrapper(std::string_view head)
{
    ensureChecked();
    constexpr size_t kLines = 64;
    std::array<size_t, kShapes.size()> counts{};
    size_t sampled = 0;
    for (const TextLine& line : linesOf(head)) {
        if (sampled >= kLines)
            break;
        std::string_view text = line.text;
        if (!text.empty() && text.back() == '\r')
            text.remove_suffix(1);
        if (text.find_first_not_of(" \t") == std::string_view::npos)
            continue;
        ++sampled;
        for (size_t i = 0; i < kShapes.size(); ++i) {
            Unwrapped u;
            if (kShapes[i].read(text, u)) {
                ++counts[i];
                break; // the most specific shape that reads it
            }
        }
    }
    size_t best = kShapes.size();
    for (size_t i = 0; i < kShapes.size(); ++i)
        if (counts[i] > 0 && (best == kShapes.size() || counts[i] > counts[best]))
            best = i;
    if (best == kShapes.size() || counts[best] * 5 < sampled * 4 || (counts[best] < 2 && sampled > 1))
        return LineWrapper::None;
    return kShapes[best].wrapper;
}

bool unwrapLine(LineWrapper w, std::string_view line, Unwrapped& out)
{
    for (const WrapperShape& shape : kShapes)
        if (shape.wrapper == w)
            return shape.read(line, out);
    return false;
}

std::string_view slurmDaemonNode(std::string_view programName)
{
    for (std::string_view daemon : {std::string_view("slurmstepd-"), std::string_view("slurmd-")}) {
        if (!programName.starts_with(daemon))
            continue;
        const std::string_view node = programName.substr(daemon.size());
        return !node.empty() && isAlnum(node[0]) && nameEnd(node, 0) == node.size() ? node : std::string_view();
    }
    return {};
}

std::string_view slurmDaemonPrefixNode(std::string_view line, size_t* after)
{
    // A daemon name is short: a colon further in belongs to the message ("... failed: ...").
    const size_t colon = line.find(": ");
    if (colon == std::string_view::npos || colon > 80)
        return {};
    const std::string_view node = slurmDaemonNode(line.substr(0, colon));
    if (!node.empty() && after)
        *after = colon + 2;
    return node;
}

std::string_view toString(LineWrapper w)
{
    for (const WrapperShape& shape : kShapes)
        if (shape.wrapper == w)
            return shape.name;
    return "none";
}

} // namespace fl
