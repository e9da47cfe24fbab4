#include "engine/failure_summary.h"

#include "bundle/iso_time.h"
#include "bundle/mapped_file.h"
#include "bundle/text_lines.h"
#include "engine/internal.h"
#include "parse/cursor.h"
#include "rules/ruleset.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

namespace fl::detail {

namespace {

using cursor::trim;

constexpr std::string_view kRootHeader = "Root Cause (first observed failure):";
constexpr std::string_view kFailuresHeader = "Failures:";
// The entry's lines, in the order _FAILURE_FORMAT_TEMPLATE prints them.
constexpr std::array<std::string_view, 6> kKeys = {"time", "host", "rank", "exitcode", "error_file", "traceback"};
// A Root Cause line is found in the record or, for a block whose closing
// border was cut off (a truncated log), this far after the matched line.
constexpr size_t kReadAhead = 4096;

bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "  rank      : 11 (local_rank: 3)" -> "11 (local_rank: 3)" when `key` is the
// line's key. Launcher labels ("3: ", "[default3]:") may come before it.
std::optional<std::string_view> valueOf(std::string_view line, std::string_view key)
{
    for (size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
        if (at > 0 && line[at - 1] != ' ' && line[at - 1] != '\t' && line[at - 1] != ':')
            continue;
        size_t p = at + key.size();
        while (p < line.size() && (line[p] == ' ' || line[p] == '\t'))
            ++p;
        if (p < line.size() && line[p] == ':')
            return trim(line.substr(p + 1));
    }
    return std::nullopt;
}

// "[3]:" at the end of a line (its label, if any, before it): an entry's first line.
bool isEntryStart(std::string_view line)
{
    line = trim(line);
    if (line.size() < 4 || line.substr(line.size() - 2) != "]:")
        return false;
    const size_t open = line.rfind('[', line.size() - 3);
    return open != std::string_view::npos && allDigits(line.substr(open + 1, line.size() - 3 - open));
}

bool isBorder(std::string_view line)
{
    line = trim(line);
    size_t run = 0;
    for (size_t i = line.size(); i > 0 && line[i - 1] == '='; --i)
        ++run;
    return run >= 20;
}

// The leading integer of `s` ("-6 (pid: 88412)" -> "-6").
std::string_view leadingInt(std::string_view s)
{
    size_t n = (!s.empty() && s[0] == '-') ? 1 : 0;
    while (n < s.size() && s[n] >= '0' && s[n] <= '9')
        ++n;
    return (n == 0 || (n == 1 && s[0] == '-')) ? std::string_view{} : s.substr(0, n);
}

// "(pid: 88412)" / "(local_rank: 3)" -> the number.
std::string_view parenthesised(std::string_view s, std::string_view key)
{
    const size_t at = s.find(key);
    if (at == std::string_view::npos)
        return {};
    return leadingInt(trim(s.substr(at + key.size())));
}

// Linux signal names (signal(7)); what Python's signal.Signals(n).name prints.
std::string_view signalName(int n)
{
    switch (n) {
    case 1: return "SIGHUP";
    case 2: return "SIGINT";
    case 3: return "SIGQUIT";
    case 4: return "SIGILL";
    case 5: return "SIGTRAP";
    case 6: return "SIGABRT";
    case 7: return "SIGBUS";
    case 8: return "SIGFPE";
    case 9: return "SIGKILL";
    case 10: return "SIGUSR1";
    case 11: return "SIGSEGV";
    case 12: return "SIGUSR2";
    case 13: return "SIGPIPE";
    case 14: return "SIGALRM";
    case 15: return "SIGTERM";
    default: return {};
    }
}

// "Signal 6 (SIGABRT) received by PID 88412" -> "SIGABRT".
std::string_view signalInMessage(std::string_view m)
{
    const size_t at = m.find("(SIG");
    if (m.substr(0, 7) != "Signal " || at == std::string_view::npos)
        return {};
    const size_t close = m.find(')', at);
    return close == std::string_view::npos ? std::string_view{} : m.substr(at + 1, close - at - 1);
}

std::string shortNode(std::string_view host)
{
    const bool address = std::all_of(host.begin(), host.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
    if (address || host.find(':') != std::string_view::npos)
        return std::string(host);
    return std::string(host.substr(0, host.find('.')));
}

constexpr int64_t kSecNs = 1'000'000'000;
// How long before the summary is printed its failure may lie: the agent stops
// the other workers (SIGTERM, then SIGKILL after a grace period) and raises at
// once; a time further back than this is a zone the bundle does not say.
constexpr int64_t kMaxLeadNs = 15 * 60 * kSecNs;

// The entry's `time`: datetime.fromtimestamp(timestamp).isoformat(sep="_") —
// the agent host's local time in whole seconds, no zone (ProcessFailure.
// timestamp_isoformat). The timestamp is the worker's error file's, else when
// the agent saw the exit: the failure itself, not when the summary was printed.
// Read in the bundle's zone for unzoned stamps; kept only when it fits the
// summary's place in its log (at most 2 s after the line could have been
// printed, at most kMaxLeadNs before), else the line keeps its own time and a
// warning says why.
void timeFromRootTime(SymptomEvent& e, const std::string& rootTime, int tzOffsetSec, const std::string& where,
                      std::vector<std::string>& warnings)
{
    auto stamp = scanIso8601(rootTime);
    if (!stamp || stamp->end != rootTime.size() || !stamp->hasSeconds)
        return;
    auto t = isoStampNs(*stamp, tzOffsetSec);
    if (!t)
        return;
    const TimeInterval line = e.time.interval;
    const bool tooLate = line.latestNs != kNoTime && *t > line.latestNs + 2 * kSecNs;
    const bool tooEarly = line.earliestNs != kNoTime && *t + kSecNs < line.earliestNs - kMaxLeadNs;
    if (tooLate || tooEarly) {
        warnings.push_back(where + ": torchrun's failure time '" + rootTime + "' is " +
                           (tooLate ? "after its summary was printed" : "more than 15 min before its summary") +
                           " as the bundle's zone reads it; the summary keeps the time of its line");
        return;
    }
    e.time.ns = *t;
    e.time.basis = stamp->zoneSec ? TimeBasis::Absolute : TimeBasis::AssumedUtc;
    e.time.interval = {*t, *t + kSecNs - 1};
}

} // namespace

std::map<std::string, std::string> readRootCause(std::string_view block)
{
    std::map<std::string, std::string> f;
    std::vector<std::string_view> lines;
    for (const TextLine& line : linesOf(block))
        lines.push_back(line.text);
    size_t root = lines.size(), failures = lines.size();
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find(kRootHeader) != std::string_view::npos) {
            root = i;
            break;
        }
        if (trim(lines[i]).size() >= kFailuresHeader.size() &&
            trim(lines[i]).substr(trim(lines[i]).size() - kFailuresHeader.size()) == kFailuresHeader)
            failures = i;
    }
    if (root == lines.size())
        return f;
    int others = 0;
    for (size_t i = failures + 1; i < root && failures < root; ++i)
        others += isEntryStart(lines[i]) ? 1 : 0;

    size_t next = 0; // the fields come in template order: a key is looked for only after the one before
    for (size_t i = root + 1; i < lines.size() && next < kKeys.size(); ++i) {
        if (isBorder(lines[i]) || (i > root + 1 && isEntryStart(lines[i])))
            break;
        for (size_t k = next; k < kKeys.size(); ++k) {
            auto v = valueOf(lines[i], kKeys[k]);
            if (!v)
                continue;
            next = k + 1;
            const std::string_view key = kKeys[k];
            if (key == "time") {
                f["root_time"] = std::string(*v);
            } else if (key == "host") {
                f["root_host"] = std::string(*v);
                if (!v->empty())
                    f["root_node"] = shortNode(*v);
            } else if (key == "rank") {
                if (auto r = leadingInt(*v); !r.empty())
                    f["root_rank"] = std::string(r);
                if (auto l = parenthesised(*v, "local_rank:"); !l.empty())
                    f["root_local_rank"] = std::string(l);
            } else if (key == "exitcode") {
                if (auto c = leadingInt(*v); !c.empty())
                    f["root_exitcode"] = std::string(c);
                if (auto p = parenthesised(*v, "pid:"); !p.empty())
                    f["root_pid"] = std::string(p);
            } else if (key == "error_file") {
                f["root_error_file"] = std::string(*v);
            } else {
                f["root_message"] = std::string(v->substr(0, 300));
            }
            break;
        }
    }
    if (f.empty())
        return f;
    std::string signal(signalInMessage(f["root_message"]));
    const std::string& code = f["root_exitcode"];
    int exitCode = 0;
    if (!code.empty())
        exitCode = std::stoi(code.size() > 6 ? code.substr(0, 6) : code);
    if (signal.empty() && exitCode < 0)
        signal = std::string(signalName(-exitCode));
    if (signal.empty() && exitCode < 0)
        signal = "SIG" + std::to_string(-exitCode);
    if (!signal.empty())
        f["root_signal"] = signal;
    f["root_how"] = !signal.empty() ? signal : (exitCode > 0 ? "exit" : "unknown");
    f["other_failures"] = std::to_string(others);
    for (auto it = f.begin(); it != f.end();)
        it = it->second.empty() ? f.erase(it) : std::next(it);
    return f;
}

void readFailureSummaries(State& state, size_t firstEvent)
{
    std::set<std::string_view> readers; // the rules whose events ask for the summary (emit.read)
    if (state.rules)
        for (const Rule& r : state.rules->rules())
            if (r.emitRead == RecordReader::TorchrunRootCause)
                readers.insert(r.id);
    if (readers.empty())
        return;
    std::map<uint32_t, std::vector<size_t>> byFile; // file -> events, so each file opens once
    for (size_t i = firstEvent; i < state.extracted.size(); ++i) {
        const SymptomEvent& e = state.extracted[i];
        if (!readers.count(e.extractedBy.str()) || e.observations.empty())
            continue;
        const Observation& o = state.observations[e.observations.front().value];
        byFile[o.ref.file.value].push_back(i);
    }
    for (const auto& [file, events] : byFile) {
        if (file >= state.files.size())
            continue;
        const SourceFile& sf = state.files[file];
        MappedFile map;
        std::string err;
        if (!openSource(map, sf, &err)) {
            state.warnings.push_back(sf.path + ": torchrun failure summary not read: " + err);
            continue;
        }
        const std::string_view data = map.data();
        for (size_t i : events) {
            SymptomEvent& e = state.extracted[i];
            const RawRef& ref = state.observations[e.observations.front().value].ref;
            if (ref.offset >= data.size())
                continue;
            const size_t len = std::max<size_t>(ref.length, kReadAhead);
            for (auto& [k, v] : readRootCause(data.substr(ref.offset, std::min(len, data.size() - ref.offset))))
                e.fields[k] = std::move(v);
            if (auto t = e.fields.find("root_time"); t != e.fields.end())
                timeFromRootTime(e, t->second, state.manifest ? state.manifest->timezoneOffsetSec : 0,
                                 sf.path + ":" + std::to_string(ref.line), state.warnings);
        }
    }
}

} // namespace fl::detail
