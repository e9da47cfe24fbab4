#include "bundle/sniff.h"
#include "bundle/kubectl_row.h"
#include "bundle/text_lines.h"
#include "bundle/wrappers.h"

#include <algorithm>
#include <array>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <map>

namespace fl {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isHostChar(char c) { return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_'; }

constexpr std::array<std::string_view, 12> kMonths{
    {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}};
constexpr std::array<std::string_view, 7> kWeekdays{{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}};

template <size_t N>
bool oneOf(std::string_view s, const std::array<std::string_view, N>& words)
{
    for (auto w : words)
        if (s == w)
            return true;
    return false;
}

// Calls fn(line, wrapper's reading) for up to maxLines lines of `head`, each from where its wrapper lets
// the wrapped line start.
template <typename Fn>
size_t forSampleLines(std::string_view head, LineWrapper wrapper, size_t maxLines, Fn fn)
{
    size_t n = 0;
    for (const TextLine& line : linesOf(head)) {
        if (n >= maxLines)
            break;
        std::string_view text = line.text;
        Unwrapped u;
        if (wrapper != LineWrapper::None && unwrapLine(wrapper, text, u))
            text.remove_prefix(u.inner);
        if (text.find_first_not_of(" \t") != std::string_view::npos) {
            fn(text, u);
            ++n;
        }
    }
    return n;
}

size_t skipDigits(std::string_view s, size_t pos)
{
    while (pos < s.size() && isDigit(s[pos]))
        ++pos;
    return pos;
}

// "[  123.456789]" at the start of a line.
bool dmesgStamp(std::string_view line)
{
    if (line.empty() || line[0] != '[')
        return false;
    size_t p = line.find_first_not_of(' ', 1);
    if (p == std::string_view::npos)
        return false;
    const size_t intEnd = skipDigits(line, p);
    // Ten digits are an epoch stamp (UCX's "[1733460000.123456] [host:pid:tid]"), not 31 years of uptime.
    if (intEnd == p || intEnd - p >= 10 || intEnd >= line.size() || line[intEnd] != '.')
        return false;
    const size_t fracEnd = skipDigits(line, intEnd + 1);
    return fracEnd > intEnd + 1 && fracEnd < line.size() && line[fracEnd] == ']';
}

// dmesg -T: "[Wed Mar  1 17:38:27 2023] ..."
bool dmesgHumanStamp(std::string_view line)
{
    return line.size() > 9 && line[0] == '[' && oneOf(line.substr(1, 3), kWeekdays) && line[4] == ' '
        && oneOf(line.substr(5, 3), kMonths);
}

// Fabric Manager: "[Jul 23 2024 07:53:55] [ERROR] [tid 841] ..."
bool fabricManagerLine(std::string_view line)
{
    const size_t tid = line.find("] [tid ");
    if (tid == std::string_view::npos)
        return false;
    const size_t open = line.rfind('[', tid);
    if (open == std::string_view::npos || open + 1 >= tid)
        return false;
    for (size_t i = open + 1; i < tid; ++i)
        if (line[i] < 'A' || line[i] > 'Z')
            return false;
    return true;
}

// Megatron-LM's training_log() iteration line (NVIDIA/Megatron-LM@core_r0.9.0:
// megatron/training/training.py): " [2025-08-01 07:19:37] iteration    42/  5000 |
// consumed samples: ... | elapsed time per iteration (ms): ... | ... lm loss: ... |".
// A training log that prints only these (no torch, NCCL or traceback line in its
// head) is still an application log, whatever its file is called.
bool megatronIterationLine(std::string_view line)
{
    const size_t it = line.find("iteration ");
    if (it == std::string_view::npos)
        return false;
    return line.find("elapsed time per iteration (", it) != std::string_view::npos
           || line.find("| consumed samples:", it) != std::string_view::npos;
}

// slurmctld / slurmd log lines (src/slurmctld/*.c): "[2026-03-14T10:04:04.066] sched: Allocate JobId=...",
// "... error: Nodes node-02 not responding", "_slurm_rpc_kill_job: ...".
bool slurmctldLine(std::string_view line)
{
    return line.find(" JobId=") != std::string_view::npos || line.find("] sched: ") != std::string_view::npos
        || line.find("_slurm_rpc_") != std::string_view::npos
        || (line.find("error: Nodes ") != std::string_view::npos && line.find(" not responding") != std::string_view::npos);
}

// sacct's padded table header (no --parsable): "       JobID    JobName ...      State ExitCode", the
// dash line under it giving the columns (core/parse/sacct.cpp).
bool sacctTableHeader(std::string_view line)
{
    const size_t b = line.find_first_not_of(' ');
    if (b == std::string_view::npos || b > 16 || !line.substr(b).starts_with("JobID"))
        return false;
    for (char c : line) // column names only: letters and the blanks that pad them
        if (!isAlpha(c) && c != ' ')
            return false;
    const size_t state = line.find(" State");
    return state != std::string_view::npos && (state + 6 == line.size() || line[state + 6] == ' ');
}

// nslookup's answers: a reverse lookup's "<ptr>.in-addr.arpa  name = <host>." or a forward one's "Name:\t<host>".
bool nslookupLine(std::string_view line)
{
    return (line.find(".in-addr.arpa") != std::string_view::npos && line.find("name = ") != std::string_view::npos)
        || line.starts_with("Name:\t") || line.starts_with("Non-authoritative answer:");
}

struct Tally {
    size_t count = 0;
    std::string firstMarker;
    void hit(std::string_view marker)
    {
        if (count++ == 0)
            firstMarker = marker;
    }
};

bool startsWithHostToken(std::string_view s, size_t pos, size_t& end)
{
    end = pos;
    while (end < s.size() && isHostChar(s[end]))
        ++end;
    return end > pos && (isAlpha(s[pos]) || isDigit(s[pos]));
}

// After "<time> ": "host tag:" or "host tag[pid]:" -> host.
std::string_view hostBeforeTag(std::string_view line, size_t pos)
{
    size_t hostEnd = 0;
    if (!startsWithHostToken(line, pos, hostEnd) || hostEnd >= line.size() || line[hostEnd] != ' ')
        return {};
    const std::string_view host = line.substr(pos, hostEnd - pos);
    bool letter = false;
    for (char c : host)
        letter = letter || isAlpha(c);
    const size_t tagStart = hostEnd + 1;
    const size_t tagEnd = line.find_first_of(" :", tagStart);
    if (tagEnd == std::string_view::npos || tagEnd == tagStart || line[tagEnd] != ':')
        return {};
    if (host == "localhost" || (!letter && host.find('.') == std::string_view::npos))
        return {};
    return host;
}

// RFC 5424's header "<PRI>1 " (PRI of 1 to 3 digits): the offset after it, or npos when the line does not start
// with one.
size_t afterRfc5424Header(std::string_view line)
{
    if (line.size() < 5 || line[0] != '<')
        return std::string_view::npos;
    const size_t pri = skipDigits(line, 1);
    if (pri <= 1 || pri > 4 || line.substr(pri, 3) != ">1 ")
        return std::string_view::npos;
    return pri + 3;
}

// Syslog "Mon DD HH:MM:SS host tag:" anywhere in the line (alert tools quote
// whole syslog lines after their own prefix), or RFC 3339 "2024-..T..  host tag:" at its start.
std::string_view syslogHost(std::string_view line)
{
    // RFC 5424: "<34>1 2003-10-11T22:14:15.003Z host app procid msgid ...": the host follows the time ("-": none).
    if (const size_t time = afterRfc5424Header(line); time < line.size() && isDigit(line[time])) {
        const size_t sp = line.find(' ', time);
        size_t he = 0;
        if (sp != std::string_view::npos && startsWithHostToken(line, sp + 1, he) && he < line.size() && line[he] == ' ') {
            const std::string_view host = line.substr(sp + 1, he - sp - 1);
            if (std::any_of(host.begin(), host.end(), isAlpha) || host.find('.') != std::string_view::npos)
                return host;
        }
        return {};
    }
    if (line.size() > 20 && isDigit(line[0]) && line[4] == '-' && (line[10] == 'T' || line[10] == ' ')) {
        const size_t sp = line.find(' ', 11);
        if (sp != std::string_view::npos)
            if (auto h = hostBeforeTag(line, sp + 1); !h.empty())
                return h;
    }
    for (size_t i = 0; i + 16 <= line.size(); ++i) {
        // The two blanks around a three-letter word first: a byte compare each, where the month names cost
        // twelve memcmp calls at every position (5 % of a deep bundle's analysis, callgrind: every file's
        // first lines are sampled for their host).
        if (line[i + 3] != ' ' || (i > 0 && line[i - 1] != ' ') || !oneOf(line.substr(i, 3), kMonths))
            continue;
        size_t p = i + 4;
        if (line[p] == ' ')
            ++p;
        const size_t dayEnd = skipDigits(line, p);
        if (dayEnd == p || dayEnd - p > 2 || dayEnd >= line.size() || line[dayEnd] != ' ')
            continue;
        p = dayEnd + 1;
        if (p + 9 > line.size())
            continue;
        const std::string_view t = line.substr(p, 9);
        if (!(isDigit(t[0]) && isDigit(t[1]) && t[2] == ':' && isDigit(t[3]) && isDigit(t[4]) && t[5] == ':'
              && isDigit(t[6]) && isDigit(t[7]) && t[8] == ' '))
            continue;
        if (auto h = hostBeforeTag(line, p + 9); !h.empty())
            return h;
    }
    return {};
}

// NCCL: "host:pid:tid [dev] ...", possibly behind a launcher prefix like "[default3]:".
std::string_view ncclHost(std::string_view line)
{
    if (!line.empty() && line[0] == '[') {
        const size_t close = line.find("]:");
        if (close != std::string_view::npos && close < 40) {
            line.remove_prefix(close + 2);
            while (!line.empty() && line[0] == ' ')
                line.remove_prefix(1);
        }
    }
    size_t hostEnd = 0;
    if (!startsWithHostToken(line, 0, hostEnd) || hostEnd >= line.size() || line[hostEnd] != ':')
        return {};
    size_t p = skipDigits(line, hostEnd + 1);
    if (p == hostEnd + 1 || p >= line.size() || line[p] != ':')
        return {};
    const size_t tidStart = p + 1;
    p = skipDigits(line, tidStart);
    if (p == tidStart || line.substr(p, 2) != " [")
        return {};
    const size_t devEnd = skipDigits(line, p + 2);
    if (devEnd == p + 2 || devEnd >= line.size() || line[devEnd] != ']')
        return {};
    return line.substr(0, hostEnd);
}

// What makes a line a kernel line, wherever it came from: "NVRM:", a "kernel:" tag, a dmesg stamp. Null when
// none; else what was seen, for the file's kind reason.
// What the kernel prints first, before any syslog or dmesg prefix: the pr_fmt/dev_fmt and subsystem prefixes
// and the head lines of the failure areas of inventory/kernel.json. A kernel line pasted bare (its timestamp and
// host cut off) starts with one of these, or with a PCI driver and its device ("nvme 0000:5c:00.0: ").
constexpr std::string_view kKernelCores[] = {
    "Out of memory: ", "Memory cgroup out of memory: ", "oom-kill:", "oom_reaper: ", "INFO: task ", "BUG: ",
    "watchdog: BUG: soft lockup", "NMI watchdog: ", "Watchdog detected hard LOCKUP", "Kernel panic - not syncing",
    "kernel BUG at ", "Oops: ", "general protection fault", "traps: ", "mce: ", "MCE: ", "[Hardware Error]: ",
    "EDAC MC", "EDAC ", "ghes_edac: ", "AER: ", "pcieport ", "rcu: INFO: ", "INFO: rcu_", "EXT4-fs ", "JBD2: ",
    "Aborting journal on device", "XFS (", "Buffer I/O error on dev", "blk_update_request: ", "I/O error, dev ",
    "md/raid", "md: ", "block nvme", "nvme nvme", "NFS: ", "NFSv4: ", "nfs: server ", "NETDEV WATCHDOG: ",
    "mlx5_core ",
};

bool pciDevicePrefix(std::string_view line)
{
    // "<driver> 0000:5c:00.0" : a lower-case driver name, one space, a PCI domain:bus:device.function
    const size_t sp = line.find(' ');
    if (sp == 0 || sp == std::string_view::npos || sp > 32 || line.size() < sp + 13)
        return false;
    for (size_t i = 0; i < sp; ++i)
        if (!((line[i] >= 'a' && line[i] <= 'z') || (line[i] >= '0' && line[i] <= '9') || line[i] == '_' || line[i] == '-'))
            return false;
    const std::string_view bdf = line.substr(sp + 1, 12);
    const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    return hex(bdf[0]) && hex(bdf[1]) && hex(bdf[2]) && hex(bdf[3]) && bdf[4] == ':' && hex(bdf[5]) && hex(bdf[6])
        && bdf[7] == ':' && hex(bdf[8]) && hex(bdf[9]) && bdf[10] == '.' && bdf[11] >= '0' && bdf[11] <= '7';
}

bool kernelMessageCore(std::string_view line)
{
    for (std::string_view core : kKernelCores)
        if (line.starts_with(core))
            return true;
    // "python3[40231]: segfault at 0 ip ..." (show_signal_msg, arch/x86/mm/fault.c)
    const size_t seg = line.find("]: segfault at ");
    return (seg != std::string_view::npos && seg < 64) || pciDevicePrefix(line);
}

// RFC 5424's APP-NAME: "<PRI>1 TIMESTAMP HOSTNAME APP-NAME ..." (no colon after it, unlike BSD syslog's tag).
std::string_view rfc5424App(std::string_view line)
{
    const size_t time = afterRfc5424Header(line);
    if (time == std::string_view::npos)
        return {};
    const size_t host = line.find(' ', time);
    const size_t app = host == std::string_view::npos ? host : line.find(' ', host + 1);
    if (app == std::string_view::npos)
        return {};
    const size_t end = line.find(' ', app + 1);
    return end == std::string_view::npos ? std::string_view() : line.substr(app + 1, end - app - 1);
}

const char* kernelShape(std::string_view line)
{
    if (line.find("NVRM:") != std::string_view::npos)
        return "NVRM lines";
    if (line.starts_with("kernel:") || line.find(" kernel:") != std::string_view::npos)
        return "'kernel:' lines";
    if (rfc5424App(line) == "kernel")
        return "RFC 5424 'kernel' records";
    if (dmesgStamp(line) || dmesgHumanStamp(line))
        return "dmesg timestamps";
    if (kernelMessageCore(line))
        return "kernel messages without a timestamp";
    return nullptr;
}

// A line only a training job prints: NCCL, torch, a Python traceback.
bool appShape(std::string_view line)
{
    return line.find("NCCL") != std::string_view::npos || line.find("torch") != std::string_view::npos
        || line.find("Traceback") != std::string_view::npos;
}

size_t utf8SequenceLength(std::string_view s, size_t i)
{
    const auto c = static_cast<unsigned char>(s[i]);
    size_t len = 0;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4;
    else
        return 0;
    if (i + len > s.size())
        return len; // cut by the head limit: give it the benefit of the doubt
    for (size_t k = 1; k < len; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
            return 0;
    return len;
}

} // namespace

bool looksBinary(std::string_view head)
{
    // Printable ASCII with tabs and line ends, what nearly every log's head is, settles it in one pass; the
    // walk below cost ~11 instructions a byte, 3.5 % of a wide analysis (callgrind). SSE2 tests 16 bytes in ~10
    // instructions: the compiler's vectorisation of the plain loop widened each byte to 32 bits, ~4 a byte.
    bool odd = false;
    size_t at = 0;
#ifdef __SSE2__
    const __m128i space = _mm_set1_epi8(0x1F), del = _mm_set1_epi8(0x7F);
    const __m128i tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (; at + 16 <= head.size() && !odd; at += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(head.data() + at));
        // Signed: bytes from 0x80 are negative, so "greater than 0x1F" is 0x20..0x7F.
        const __m128i printable = _mm_andnot_si128(_mm_cmpeq_epi8(v, del), _mm_cmpgt_epi8(v, space));
        const __m128i ends = _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        odd = _mm_movemask_epi8(_mm_or_si128(printable, ends)) != 0xFFFF;
    }
#endif
    for (; at < head.size() && !odd; ++at) {
        const auto c = static_cast<unsigned char>(head[at]);
        odd = (c < 0x20 || c >= 0x7F) && c != '\t' && c != '\n' && c != '\r';
    }
    if (!odd)
        return false;
    if (head.find('\0') != std::string_view::npos)
        return true;
    size_t nonText = 0;
    for (size_t i = 0; i < head.size();) {
        const auto c = static_cast<unsigned char>(head[i]);
        if (c < 0x80) {
            // Tabs, line ends, form feeds, backspaces and ANSI colour escapes all occur in real logs.
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != '\b' && c != 0x1B)
                ++nonText;
            if (c == 0x7F)
                ++nonText;
            ++i;
            continue;
        }
        const size_t len = utf8SequenceLength(head, i);
        if (len == 0) {
            ++nonText;
            ++i;
        } else {
            i += len;
        }
    }
    return nonText * 10 > head.size() * 3;
}

bool isBlank(std::string_view data)
{
    return data.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos;
}

bool looksLikeMetricsCsvHeader(std::string_view head)
{
    const std::string_view first = head.substr(0, head.find('\n'));
    if (first.find(',') == std::string_view::npos)
        return false;
    size_t start = 0;
    while (start <= first.size()) {
        size_t end = first.find(',', start);
        if (end == std::string_view::npos)
            end = first.size();
        std::string_view cell = first.substr(start, end - start);
        while (!cell.empty() && (cell.front() == ' ' || cell.front() == '"'))
            cell.remove_prefix(1);
        while (!cell.empty() && (cell.back() == ' ' || cell.back() == '"' || cell.back() == '\r'))
            cell.remove_suffix(1);
        std::string low(cell);
        for (char& c : low)
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        if (low == "timestamp" || low == "time" || low == "ts" || low == "date" || low == "datetime")
            return true;
        start = end + 1;
    }
    return false;
}

ContentShape sniffContent(std::string_view head, LineWrapper wrapper, size_t maxLines)
{
    std::string_view body = head;
    if (body.starts_with("\xEF\xBB\xBF"))
        body.remove_prefix(3);
    const size_t firstChar = body.find_first_not_of(" \t\r\n");
    if (firstChar != std::string_view::npos && (body[firstChar] == '{' || body[firstChar] == '[')) {
        if (body.find("\"resultType\"") != std::string_view::npos)
            return {SourceKind::Metrics, "Prometheus JSON (\"resultType\")"};
        const auto keyThen = [&](std::string_view key, std::string_view valuePrefix) {
            for (size_t at = body.find(key); at != std::string_view::npos; at = body.find(key, at + 1)) {
                size_t p = body.find_first_not_of(" \t\r\n", at + key.size());
                if (p == std::string_view::npos || body[p] != ':')
                    continue;
                p = body.find_first_not_of(" \t\r\n", p + 1);
                if (p != std::string_view::npos && body.substr(p).starts_with(valuePrefix))
                    return true;
            }
            return false;
        };
        if (keyThen("\"jobs\"", "["))
            return {SourceKind::Scheduler, "sacct JSON (\"jobs\")"};
        if (keyThen("\"kind\"", "\"EventList\"") || keyThen("\"kind\"", "\"Event\""))
            return {SourceKind::Scheduler, "Kubernetes events (\"kind\": \"Event\")"};
        for (std::string_view k : {"\"PodList\"", "\"Pod\"", "\"NodeList\"", "\"Node\""})
            if (keyThen("\"kind\"", k))
                return {SourceKind::Scheduler, "Kubernetes pods or nodes (\"kind\": " + std::string(k) + ")"};
    }

    Tally sys, fm, app, torch, sched, smi, metrics, hostmap;
    const size_t sampled = forSampleLines(body, wrapper, maxLines, [&](std::string_view line, const Unwrapped&) {
        if (const char* k = kernelShape(line))
            sys.hit(k);
        else if (fabricManagerLine(line))
            fm.hit("Fabric Manager '[LEVEL] [tid N]' lines");
        else if (line.starts_with("==============NVSMI LOG") || line.starts_with("| Diagnostic "))
            smi.hit("nvidia-smi -q / dcgmi diag report"); // core/parse/nvidia_smi_q.cpp, dcgmi_diag.cpp
        else if (line.starts_with("JobId=") || line.starts_with("NodeName=") || line.starts_with("Conditions:")
                 || line.starts_with("Containers:") || (line.starts_with("NAME ") && line.find(" RESTARTS") != std::string_view::npos))
            sched.hit("scontrol show / kubectl get pods, describe lines"); // core/parse/scontrol.cpp, kubectl_text.cpp
        else if (KubectlPodRow row; readKubectlPodRow(line, row))
            sched.hit("kubectl get pods rows"); // without their header: bundle/kubectl_row.h
        else if (line.find("ProcessGroupNCCL") != std::string_view::npos)
            app.hit("ProcessGroupNCCL lines");
        else if (line.find("NCCL") != std::string_view::npos)
            app.hit("NCCL lines");
        else if (line.find("Traceback") != std::string_view::npos)
            app.hit("Python traceback");
        else if (megatronIterationLine(line))
            app.hit("Megatron-LM iteration lines");
        else if (line.starts_with("JobID|"))
            sched.hit("sacct 'JobID|' header");
        else if (sacctTableHeader(line))
            sched.hit("sacct table header");
        else if (line.find("LAST SEEN") != std::string_view::npos && line.find("   REASON ") != std::string_view::npos
                 && line.find("   OBJECT ") != std::string_view::npos)
            sched.hit("kubectl get events header"); // core/parse/k8s_events.cpp
        else if (line.starts_with("srun: ") || line.starts_with("slurmstepd: ") || !slurmDaemonPrefixNode(line).empty())
            sched.hit("srun/slurmstepd lines");
        else if (slurmctldLine(line))
            sched.hit("slurmctld lines");
        else if (nslookupLine(line))
            hostmap.hit("nslookup answers");
        else if (line.find("NVIDIA-SMI ") != std::string_view::npos)
            smi.hit("nvidia-smi table");
        else if (line.starts_with("# TYPE ") || line.starts_with("# HELP "))
            metrics.hit("OpenMetrics '# TYPE' lines");
        else if (line.find("torch") != std::string_view::npos)
            torch.hit("torch lines");
    });
    // A lone mention of "torch" (a grep command, a path) is too weak to call a file an app log.
    if (torch.count >= 2) {
        if (app.count == 0)
            app.firstMarker = torch.firstMarker;
        app.count += torch.count;
    }
    // Ties go to the earlier entry: kernel lines are the most specific shape.
    const std::array<std::pair<SourceKind, const Tally*>, 7> order{{
        {SourceKind::SysLog, &sys},
        {SourceKind::FabricManager, &fm},
        {SourceKind::AppLog, &app},
        {SourceKind::Scheduler, &sched},
        {SourceKind::GpuSnapshot, &smi},
        {SourceKind::Metrics, &metrics},
        {SourceKind::HostMap, &hostmap},
    }};
    const std::pair<SourceKind, const Tally*>* best = nullptr;
    for (const auto& entry : order)
        if (entry.second->count > 0 && (!best || entry.second->count > best->second->count))
            best = &entry;
    if (!best)
        return {};
    ContentShape shape{best->first, best->second->firstMarker + " (" + std::to_string(best->second->count) + " of "
                + std::to_string(sampled) + " sampled lines)", false};
    if (wrapper != LineWrapper::None)
        shape.reason += ", each behind a " + std::string(toString(wrapper)) + " prefix";
    // Kernel lines beside application lines: a console pasted whole, a journal that kept a job's output.
    if ((best->first == SourceKind::SysLog && app.count > 0) || (best->first == SourceKind::AppLog && sys.count > 0)) {
        const Tally& other = best->first == SourceKind::SysLog ? app : sys;
        shape.mixed = true;
        shape.reason += "; also " + other.firstMarker + " (" + std::to_string(other.count) + "): read line by line by shape";
    }
    return shape;
}

bool mixedShapes(std::string_view head, LineWrapper wrapper)
{
    const auto holds = [&](std::string_view word) { return head.find(word) != std::string_view::npos; };
    const bool app = holds("NCCL") || holds("torch") || holds("Traceback");
    if (!app)
        return false;
    bool kernel = holds("kernel:") || holds("NVRM:") || dmesgStamp(head);
    for (size_t at = head.find("\n["); !kernel && at != std::string_view::npos; at = head.find("\n[", at + 2))
        kernel = dmesgStamp(head.substr(at + 1, 40)); // a dmesg line pasted without "kernel:"
    return kernel && sniffContent(head, wrapper).mixed;
}

SourceKind lineKindByShape(std::string_view line, SourceKind fileKind)
{
    if (kernelShape(line))
        return SourceKind::SysLog;
    if (fileKind == SourceKind::SysLog && appShape(line))
        return SourceKind::AppLog;
    return fileKind;
}

SourceKind otherShapeKind(SourceKind fileKind)
{
    return fileKind == SourceKind::SysLog ? SourceKind::AppLog : SourceKind::SysLog;
}

namespace {
// A Slurm or kubelet tag where a program name stands: at the start, or after a syslog host (" slurmd[12]: ").
bool schedulerShape(std::string_view line)
{
    static constexpr std::string_view kTags[] = {"slurmstepd", "slurmd", "slurmctld", "srun", "sbatch", "salloc", "kubelet"};
    for (std::string_view tag : kTags) {
        for (size_t at = line.find(tag); at != std::string_view::npos; at = line.find(tag, at + 1)) {
            const bool starts = at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t';
            size_t end = at + tag.size();
            if (end < line.size() && line[end] == '-') { // "slurmstepd-gpu-07:": named after its node
                const size_t sep = line.find_first_of(":[ ", end);
                if (sep != std::string_view::npos && !slurmDaemonNode(line.substr(at, sep - at)).empty())
                    end = sep;
            }
            const bool ends = end < line.size() && (line[end] == ':' || line[end] == '[');
            if (starts && ends)
                return true;
        }
    }
    return false;
}
} // namespace

SourceKind lineKindOfText(std::string_view line)
{
    if (kernelShape(line))
        return SourceKind::SysLog;
    if (schedulerShape(line))
        return SourceKind::Scheduler;
    return SourceKind::AppLog;
}

ContentHost hostFromContent(std::string_view head, LineWrapper wrapper, size_t maxLines)
{
    std::map<std::string, size_t, std::less<>> hosts;
    size_t syslogLines = 0;
    size_t ncclLines = 0;
    size_t wrapperLines = 0;
    size_t slurmLines = 0;
    forSampleLines(head, wrapper, maxLines, [&](std::string_view line, const Unwrapped& u) {
        if (auto h = ncclHost(line); !h.empty()) {
            ++hosts[std::string(h)];
            ++ncclLines;
        } else if (auto s = syslogHost(line); !s.empty()) {
            ++hosts[std::string(s)];
            ++syslogLines;
        } else if (auto d = slurmDaemonPrefixNode(line); !d.empty()) {
            ++hosts[std::string(d)];
            ++slurmLines;
        } else if (!u.host.empty()) { // pdsh "host: ": the host that printed the line
            ++hosts[std::string(u.host)];
            ++wrapperLines;
        }
    });
    if (hosts.empty())
        return {};
    if (hosts.size() > 1)
        return {{}, "content names " + std::to_string(hosts.size()) + " different hosts ('" + hosts.begin()->first
                        + "', '" + std::next(hosts.begin())->first + "' ...): no single node"};
    const size_t most = std::max({ncclLines, syslogLines, wrapperLines, slurmLines});
    const std::string what = wrapperLines == most && wrapperLines > std::max(ncclLines, syslogLines)
        ? std::string(toString(wrapper)) + " host prefix"
        : slurmLines == most && slurmLines > std::max(ncclLines, syslogLines) ? "Slurm daemon's 'slurmstepd-<node>:' name"
        : ncclLines >= syslogLines ? "NCCL 'host:pid:tid [dev]' prefix" : "syslog host field";
    return {hosts.begin()->first,
            "content: " + what + " (" + std::to_string(ncclLines + syslogLines + wrapperLines + slurmLines) + " lines)"};
}

} // namespace fl
