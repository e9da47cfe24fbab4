// `scontrol show job` and `scontrol show node` (also -o, one record per line).
// Formats: SchedMD/slurm@284c3b95f08a2dc2478499837b03355e1b9c5c75 src/scontrol/info_job.c
// (JobId=... JobName=..., "JobState=%s Reason=%s [FailedNode=%s] Dependency=%s", "ExitCode=%u:%u",
// lines joined by "\n   ") and src/api/node_info.c ("NodeName=%s ...", "State=%s ...",
// "Reason=%s [%s@%s]" taking the rest of its line).
#include "bundle/text_lines.h"
#include "parse/cluster_text_util.h"
#include "parse/cursor.h"
#include "parse/structured.h"
#include "parse/structured_util.h"

#include <map>

namespace fl {

using clustertext::field;
using cursor::startsWith;

namespace {

using Fields = std::map<std::string, std::string, std::less<>>;

// "Key=value Key=value ..." on one line; a word without '=' continues the value before it
// ("OS=Linux 5.15.0 #45-Ubuntu"), and Reason= takes the rest of the line on a line of its own.
void readTokens(std::string_view line, Fields& f)
{
    line = cursor::trim(line);
    if (startsWith(line, "Reason=") && line.find(" [") != std::string_view::npos) {
        f["Reason"] = std::string(line.substr(7));
        return;
    }
    std::string* last = nullptr;
    size_t p = 0;
    while (p < line.size()) {
        const size_t e = std::min(line.find(' ', p), line.size());
        const std::string_view tok = line.substr(p, e - p);
        const size_t eq = tok.find('=');
        if (eq != std::string_view::npos && eq > 0 && cursor::isAlpha(tok[0])) {
            last = &(f[std::string(tok.substr(0, eq))] = std::string(tok.substr(eq + 1)));
        } else if (last && !tok.empty()) {
            *last += ' ';
            *last += tok;
        }
        p = e + 1;
    }
}

std::string_view get(const Fields& f, std::string_view k)
{
    auto it = f.find(k);
    return it == f.end() ? std::string_view() : std::string_view(it->second);
}

// A node list naming one host ("gpu-a17"), not "gpu-[a17,b04]" or "(null)".
std::string_view oneNode(std::string_view nodes)
{
    if (nodes.empty() || nodes.find_first_of("[],( ") != std::string_view::npos)
        return {};
    return nodes;
}

void setTime(StructuredRecord& r, std::string_view text)
{
    int64_t ns = 0;
    TimeBasis basis = TimeBasis::None;
    if (structured::timeText(text, ns, basis)) {
        r.timeNs = ns;
        r.basis = basis;
    }
}

void emit(const Fields& f, StructuredRecord r, std::vector<StructuredRecord>& out)
{
    if (f.count("JobId")) {
        const std::string_view state = get(f, "JobState");
        const std::string_view failed = get(f, "FailedNode");
        r.node = std::string(!failed.empty() ? failed : oneNode(get(f, "NodeList")));
        setTime(r, get(f, "EndTime"));
        r.severity = state == "COMPLETED" || state == "RUNNING" || state == "PENDING" ? Severity::Info : Severity::Warning;
        r.text = "scontrol";
        field(r.text, "job", get(f, "JobId"));
        field(r.text, "state", state);
        field(r.text, "reason", get(f, "Reason"));
        field(r.text, "exit", get(f, "ExitCode"));
        field(r.text, "nodes", get(f, "NodeList"), 1024);
        field(r.text, "failed_node", failed);
    } else {
        std::string_view reason = get(f, "Reason");
        // "Not responding [slurm@2025-11-30T12:15:40]": when and by whom the reason was set
        if (const size_t at = reason.rfind(" ["); at != std::string_view::npos && reason.back() == ']') {
            const std::string_view who = reason.substr(at + 2, reason.size() - at - 3);
            if (const size_t a = who.find('@'); a != std::string_view::npos)
                setTime(r, who.substr(a + 1));
            reason = reason.substr(0, at);
        }
        r.node = std::string(get(f, "NodeName"));
        const std::string_view state = get(f, "State");
        r.severity = state.find("DOWN") != std::string_view::npos || state.find("FAIL") != std::string_view::npos
            ? Severity::Warning : Severity::Info;
        r.text = "scontrol";
        field(r.text, "node", r.node);
        field(r.text, "state", state);
        field(r.text, "reason", reason, 1024);
    }
    out.push_back(std::move(r));
}

} // namespace

bool parseScontrolShow(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    (void)issues; // lines outside the records are passed on as text
    std::vector<StructuredRecord> recs;
    Fields f;
    StructuredRecord cur;
    bool open = false;
    const auto close = [&] {
        if (open)
            emit(f, cur, recs);
        open = false;
        f.clear();
    };
    for (const TextLine& l : linesOf(data)) {
        const std::string_view line = cursor::trimRight(l.text);
        if (startsWith(line, "JobId=") || startsWith(line, "NodeName=")) {
            close();
            open = true;
            cur = clustertext::lineRecord(l.offset, l.text, l.number);
            readTokens(line, f);
            continue;
        }
        if (open && startsWith(line, "   ") && line.find('=') != std::string_view::npos) {
            clustertext::extendTo(cur, l.offset, l.text.size(), l.number);
            readTokens(line, f);
            continue;
        }
        close();
    }
    close();
    if (recs.empty())
        return false;
    clustertext::deliver(data, recs, out);
    return true;
}

} // namespace fl
