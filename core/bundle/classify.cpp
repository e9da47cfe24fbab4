// File kind, node and rank inference. Content comes first: every text file is
// sniffed, whatever it is called ("console.log", "output.txt", "nohup.out"), and
// a host that prints its name on its lines is that host, whatever a token of the
// file name says. The name is the hint for what content does not settle (a
// sacct table, a hosts file), and is shown where it disagrees. Every decision
// records the token or shape that made it.
#include "bundle/bundle.h"
#include "bundle/sniff.h"
#include "bundle/wrappers.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace fl {

namespace {

struct KindToken {
    std::string_view token;
    SourceKind kind;
};

// Whole tokens of the base name (split on - _ .) and of folder names.
constexpr std::array<KindToken, 27> kKindTokens{{
    {"applog", SourceKind::AppLog},
    {"app", SourceKind::AppLog},
    {"stdout", SourceKind::AppLog},
    {"stderr", SourceKind::AppLog},
    {"train", SourceKind::AppLog},
    {"syslog", SourceKind::SysLog},
    {"dmesg", SourceKind::SysLog},
    {"kern", SourceKind::SysLog},
    {"messages", SourceKind::SysLog},
    {"journal", SourceKind::SysLog},
    {"fabricmanager", SourceKind::FabricManager},
    {"fm", SourceKind::FabricManager},
    {"sacct", SourceKind::Scheduler},
    {"slurm", SourceKind::Scheduler},
    {"slurmctld", SourceKind::Scheduler},
    {"slurmd", SourceKind::Scheduler},
    {"scontrol", SourceKind::Scheduler},
    {"squeue", SourceKind::Scheduler},
    {"k8s", SourceKind::Scheduler},
    {"events", SourceKind::Scheduler},
    {"metrics", SourceKind::Metrics},
    {"prometheus", SourceKind::Metrics},
    {"dcgm", SourceKind::Metrics},
    {"nvidiasmi", SourceKind::GpuSnapshot},
    {"smi", SourceKind::GpuSnapshot},
    {"nslookup", SourceKind::HostMap},
    {"hosts", SourceKind::HostMap},
}};

// Words that describe a file rather than name a host. They end or skip a
// host-name candidate in a file name ("xid-alert-<host>", "<host>-rank0").
constexpr std::array<std::string_view, 50> kDescriptorWords{{
    "log", "logs", "tail", "head", "main", "job", "jobs", "array", "rank", "ranks",
    "any", "unknown", "last", "first", "all", "local", "global", "attempt", "retry",
    "xid", "sxid", "alert", "alerts", "ps", "strace", "pyspy", "py", "spy", "trace",
    "traces", "stack", "stacks", "dump", "nvidia", "srun", "sbatch", "output", "err",
    "error", "errors", "debug", "crash", "core", "nccl", "cuda", "worker", "file", "files", "console", "nohup",
}};

// Prefixes that, followed by a number ("attempt2", "pid-280058"), are counters, not hosts.
constexpr std::array<std::string_view, 15> kCounterWords{{
    "rank", "default", "attempt", "pid", "tid", "job", "step", "try", "retry",
    "epoch", "iter", "part", "case", "run", "v",
}};

bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

std::string lower(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
}

std::optional<SourceKind> kindOfToken(std::string_view token)
{
    for (const auto& t : kKindTokens)
        if (t.token == token)
            return t.kind;
    return std::nullopt;
}

bool isDescriptor(std::string_view token)
{
    return std::find(kDescriptorWords.begin(), kDescriptorWords.end(), token) != kDescriptorWords.end()
        || kindOfToken(token).has_value();
}

bool isCounterWord(std::string_view word)
{
    return std::find(kCounterWords.begin(), kCounterWords.end(), word) != kCounterWords.end();
}

// "attempt2", "pid280058", "default3": a counter word glued to its number.
bool isCounterToken(std::string_view token)
{
    size_t i = 0;
    while (i < token.size() && isAlpha(token[i]))
        ++i;
    if (i == 0 || i >= token.size() || !allDigits(token.substr(i)) || !isCounterWord(token.substr(0, i)))
        return false;
    // "v2" is a version, "v100" a GPU model that host names carry ("v100-e02", like "a100-17", "h100-sxm-05").
    return !(token.substr(0, i) == "v" && token.size() - i >= 3);
}

struct Token {
    std::string_view text; // slice of the original name, case kept
    std::string low;
    size_t begin = 0;
};

std::vector<Token> tokenize(std::string_view s, std::string_view seps)
{
    std::vector<Token> out;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || seps.find(s[i]) != std::string_view::npos) {
            if (i > start)
                out.push_back({s.substr(start, i - start), lower(s.substr(start, i - start)), start});
            start = i + 1;
        }
    }
    return out;
}

std::vector<std::string_view> splitPath(std::string_view path)
{
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (size_t i = 0; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/') {
            if (i > start)
                parts.push_back(path.substr(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

// Known extensions and rotation numbers ("syslog.1", "app.log.gz") are not part of a host name.
std::string_view stemOf(std::string_view base)
{
    static constexpr std::array<std::string_view, 12> kExts{
        {"log", "txt", "out", "err", "csv", "tsv", "prom", "json", "jsonl", "ndjson", "gz", "zst"}};
    for (int round = 0; round < 3; ++round) {
        const size_t dot = base.rfind('.');
        if (dot == std::string_view::npos || dot == 0)
            break;
        const std::string ext = lower(base.substr(dot + 1));
        if (!allDigits(ext) && std::find(kExts.begin(), kExts.end(), ext) == kExts.end())
            break;
        base = base.substr(0, dot);
    }
    return base;
}

std::string extensionOf(std::string_view base)
{
    const size_t dot = base.rfind('.');
    return dot == std::string_view::npos || dot == 0 ? std::string() : lower(base.substr(dot + 1));
}

// The first run of tokens that is neither a descriptor word nor a counter,
// starts with a letter and holds a digit: "xid-alert-ip-26-0-146-100" ->
// "ip-26-0-146-100", "applog-node-2-rank0" -> "node-2". Requiring a digit keeps
// plain words ("throughput", "gpu-feature-discovery") from passing for hosts.
std::string hostFromName(std::string_view name)
{
    const auto tokens = tokenize(name, "-_");
    std::vector<bool> stop(tokens.size(), false);
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = tokens[i].low;
        const bool countedNumber = allDigits(t) && i > 0 && isCounterWord(tokens[i - 1].low);
        stop[i] = isDescriptor(t) || isCounterToken(t) || countedNumber;
    }
    for (size_t i = 0; i < tokens.size();) {
        if (stop[i]) {
            ++i;
            continue;
        }
        size_t j = i;
        bool digit = false;
        while (j < tokens.size() && !stop[j]) {
            digit = digit || std::any_of(tokens[j].low.begin(), tokens[j].low.end(), isDigit);
            ++j;
        }
        const size_t begin = tokens[i].begin;
        const size_t end = tokens[j - 1].begin + tokens[j - 1].text.size();
        if (digit && isAlpha(tokens[i].text.front()) && end - begin >= 3)
            return std::string(name.substr(begin, end - begin));
        i = j;
    }
    return {};
}

// "rank3", "rank-3", "rank_3". torchrun's "default3" is a LOCAL rank (its
// "[${role_name}${local_rank}]:" prefix): it names no global rank, the
// placement stage resolves it from the lines.
std::optional<std::pair<int, std::string>> rankFromName(std::string_view name)
{
    const auto tokens = tokenize(name, "-_.");
    for (size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = tokens[i].low;
        for (std::string_view prefix : {std::string_view("rank")}) {
            std::string_view digits;
            if (t.size() > prefix.size() && t.starts_with(prefix) && allDigits(std::string_view(t).substr(prefix.size())))
                digits = std::string_view(t).substr(prefix.size());
            else if (t == prefix && prefix == "rank" && i + 1 < tokens.size() && allDigits(tokens[i + 1].low))
                digits = tokens[i + 1].low;
            if (digits.empty() || digits.size() > 7)
                continue;
            int rank = -1;
            std::from_chars(digits.data(), digits.data() + digits.size(), rank);
            const std::string shown = t == prefix ? t + "-" + std::string(digits) : t;
            return std::make_pair(rank, shown);
        }
    }
    return std::nullopt;
}

struct KindGuess {
    SourceKind kind = SourceKind::Unknown;
    std::string reason;
};

KindGuess kindFromName(std::string_view base, const std::vector<std::string_view>& folders, std::string_view head)
{
    const std::string low = lower(base);
    if (low.find("nvidia-smi") != std::string::npos || low.find("nvidia_smi") != std::string::npos)
        return {SourceKind::GpuSnapshot, "name token 'nvidia-smi'"};
    const std::string ext = extensionOf(base);
    if (ext == "out")
        return {SourceKind::AppLog, "name extension '.out'"}; // slurm-<job>.out is the job's stdout
    if (ext == "prom")
        return {SourceKind::Metrics, "name extension '.prom'"};
    for (const auto& t : tokenize(base, "-_."))
        if (const auto kind = kindOfToken(t.low))
            return {*kind, "name token '" + t.low + "'"};
    for (auto it = folders.rbegin(); it != folders.rend(); ++it)
        for (const auto& t : tokenize(*it, "-_."))
            if (const auto kind = kindOfToken(t.low))
                return {*kind, "folder token '" + t.low + "'"};
    if (ext == "csv" && looksLikeMetricsCsvHeader(head))
        return {SourceKind::Metrics, "name extension '.csv' with a time column"};
    return {};
}

// journalctl -o json: one object per line carrying __REALTIME_TIMESTAMP and
// MESSAGE (systemd.journal-fields(7); https://systemd.io/JOURNAL_EXPORT_FORMATS/).
// The journal holds the kernel's and the services' lines: a system log. Its
// node is _HOSTNAME when every sampled record names the same one.
bool journalJson(std::string_view head)
{
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{')
        return false;
    const std::string_view line = head.substr(first, head.find('\n', first) - first);
    return line.find("\"__REALTIME_TIMESTAMP\"") != std::string_view::npos &&
           line.find("\"MESSAGE\"") != std::string_view::npos;
}

std::string journalHost(std::string_view head, std::string& reason)
{
    constexpr std::string_view key = "\"_HOSTNAME\":\"";
    std::string host;
    size_t records = 0;
    for (size_t at = head.find(key); at != std::string_view::npos; at = head.find(key, at + 1)) {
        const size_t b = at + key.size();
        const size_t e = head.find('"', b);
        if (e == std::string_view::npos || e - b > 255)
            break;
        const std::string_view h = head.substr(b, e - b);
        if (!host.empty() && h != host)
            return {}; // several hosts: a merged journal, no single node
        host = std::string(h);
        ++records;
    }
    if (!host.empty())
        reason = "content: journal JSON _HOSTNAME (" + std::to_string(records) + " records)";
    return host;
}

KindGuess kindFromContent(std::string_view head, LineWrapper wrapper)
{
    if (journalJson(head))
        return {SourceKind::SysLog, "content: journal JSON export (__REALTIME_TIMESTAMP, MESSAGE)"};
    const ContentShape shape = sniffContent(head, wrapper, kClassifyLines);
    if (shape.kind == SourceKind::Unknown)
        return {};
    return {shape.kind, "content: " + shape.reason};
}

// Programs and their settings name failures in strings and comments without any having happened.
bool programOrConfig(std::string_view base)
{
    static constexpr std::string_view kExtensions[] = {"py", "sh", "bash", "c", "cc", "cpp", "cu", "h", "hpp", "js",
                                                       "ts", "go", "rs", "java", "yaml", "yml", "toml", "ini", "cfg",
                                                       "conf", "json", "xml", "html", "ipynb", "csv", "tsv"};
    const std::string ext = extensionOf(base);
    return std::find(std::begin(kExtensions), std::end(kExtensions), ext) != std::end(kExtensions);
}

// Kinds whose files hold lines of text the scan matches one by one. Content does not overrule a name that
// says metrics, a GPU snapshot or a host map: those are read by their own parsers, and their text (a
// metrics CSV with an "NCCL" column) may well mention a training job.
bool lineKind(SourceKind k)
{
    return k == SourceKind::AppLog || k == SourceKind::SysLog || k == SourceKind::Scheduler || k == SourceKind::FabricManager;
}

} // namespace

std::string hostFromPath(std::string_view path, std::string& reason)
{
    const auto parts = splitPath(path);
    if (parts.empty())
        return {};
    if (std::string host = hostFromName(stemOf(parts.back())); !host.empty()) {
        reason = "file name part '" + host + "'";
        return host;
    }
    // Nearest folder first: "cluster/node-03/logs/syslog" belongs to node-03.
    for (size_t i = parts.size() - 1; i-- > 0;) {
        if (std::string host = hostFromName(parts[i]); !host.empty()) {
            reason = "folder '" + std::string(parts[i]) + "'";
            return host;
        }
    }
    return {};
}

void classifyFile(SourceFile& file, std::string_view head)
{
    const auto parts = splitPath(file.path);
    const std::string_view base = parts.empty() ? std::string_view(file.path) : parts.back();
    const std::vector<std::string_view> folders(parts.begin(), parts.empty() ? parts.end() : parts.end() - 1);

    file.kind = SourceKind::Unknown;
    file.kindReason.clear();
    file.linesByShape = false;
    file.node.clear();
    file.nodeReason.clear();
    file.rank = -1;
    file.rankReason.clear();

    if (file.path == "workload.json") {
        file.kind = SourceKind::Manifest;
        file.kindReason = "name 'workload.json' at the bundle root";
        file.status = FileStatus::Skipped;
        file.statusReason = "manifest";
        return;
    }

    // Notes that travel with a bundle are for people, not evidence: a sample's
    // README, its golden verdict, synth's truth.json.
    const bool markdown = base.size() > 3 && base.substr(base.size() - 3) == ".md";
    if (markdown || base == "README" || base == "README.txt" || base == "truth.json" || base == "expected.json") {
        file.kind = SourceKind::Unknown;
        file.kindReason = "name '" + std::string(base) + "'";
        file.status = FileStatus::Skipped;
        file.statusReason = "notes or expected verdict, not evidence";
        return;
    }

    const LineWrapper wrapper = detectWrapper(head); // the scan finds the same from the same head
    const KindGuess named = kindFromName(base, folders, head);
    const KindGuess content = kindFromContent(head, wrapper);
    const bool contentDecides = content.kind != SourceKind::Unknown && (named.kind == SourceKind::Unknown || lineKind(named.kind));
    const KindGuess& kind = contentDecides ? content : named;
    file.kind = kind.kind;
    file.kindReason = kind.reason;
    if (contentDecides) {
        if (named.kind != SourceKind::Unknown && named.kind != content.kind)
            file.kindReason += " (the " + named.reason + " says " + std::string(toString(named.kind)) + ")";
    }

    // A host that prints its name on its lines is that host; the name and folders are the fallback, and
    // a name part that says another host is shown beside the content's.
    const std::string_view stem = stemOf(base);
    std::string nameHostReason;
    std::string nameHost = hostFromPath(file.path, nameHostReason);
    if (journalJson(head))
        file.node = journalHost(head, file.nodeReason);
    if (file.node.empty()) {
        const ContentHost host = hostFromContent(head, wrapper, kClassifyLines);
        file.node = host.host;
        file.nodeReason = host.reason;
    }
    if (file.node.empty()) {
        if (!nameHost.empty()) {
            file.node = std::move(nameHost);
            file.nodeReason = std::move(nameHostReason);
        }
    } else if (!nameHost.empty() && nameHost != file.node) {
        file.nodeReason += "; the " + nameHostReason + " says another host";
    }

    if (auto rank = rankFromName(stem)) {
        file.rank = rank->first;
        file.rankReason = "name token '" + rank->second + "'";
    } else {
        for (auto it = folders.rbegin(); it != folders.rend(); ++it) {
            if (auto folderRank = rankFromName(*it)) {
                file.rank = folderRank->first;
                file.rankReason = "folder token '" + folderRank->second + "'";
                break;
            }
        }
    }

    if (file.kind == SourceKind::Unknown && file.status == FileStatus::Ok && !head.empty()) {
        if (programOrConfig(base)) {
            file.status = FileStatus::Unrecognized;
            file.statusReason = "source code or configuration (name extension '" + extensionOf(base) + "'), not a log";
        } else {
            // Any text is evidence, whatever its name: a pasted console of three lines has no shape to sniff.
            file.kind = SourceKind::AppLog;
            file.linesByShape = true;
            file.kindReason = "content: text of no file-wide shape; each line read as its own shape gives it";
        }
    }
    if (file.kind == SourceKind::Unknown && file.status == FileStatus::Ok) {
        file.status = FileStatus::Unrecognized;
        file.statusReason = "no known file-name token or content shape";
    }
}

} // namespace fl
