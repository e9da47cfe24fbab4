#include "bundle/text_lines.h"
#include "parse/cursor.h"
#include "parse/structured.h"
#include "parse/structured_util.h"

#include <nlohmann/json.hpp>

#include <climits>

namespace fl {

using namespace structured;
using nlohmann::json;

namespace {

Severity stateSeverity(std::string_view state)
{
    static constexpr std::string_view kError[] = {"FAILED", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "TIMEOUT",
                                                  "DEADLINE"};
    static constexpr std::string_view kWarn[] = {"CANCELLED", "PREEMPTED", "REQUEUED", "REVOKED", "SUSPENDED"};
    for (auto s : kError)
        if (state.find(s) != std::string_view::npos)
            return Severity::Error;
    for (auto s : kWarn)
        if (state.find(s) != std::string_view::npos)
            return Severity::Warning;
    return Severity::Info;
}

// A node list naming one host gives the record a node; "node[01-04]" or "a,b" do not.
std::string singleNode(std::string_view nodes)
{
    if (nodes.empty() || nodes.find_first_of("[],( ") != std::string_view::npos || nodes == "None"
        || nodes == "None assigned")
        return {};
    return std::string(nodes);
}

std::string canonical(std::string_view job, std::string_view step, std::string_view state, std::string_view exit,
                      std::string_view nodes, std::string_view reason)
{
    std::string t = "sacct job=" + oneLine(job, 64);
    if (!step.empty())
        t += " step=" + oneLine(step, 64);
    t += " state=" + oneLine(state.empty() ? std::string_view("UNKNOWN") : state, 128);
    if (!exit.empty())
        t += " exit=" + oneLine(exit, 32);
    if (!nodes.empty())
        t += " nodes=" + oneLine(nodes, 1024);
    if (!reason.empty() && reason != "None")
        t += " reason=" + oneLine(reason, 1024);
    return t;
}

std::string exitText(const json& ec)
{
    if (ec.is_string())
        return ec.get<std::string>();
    if (!ec.is_object())
        return {};
    const auto rc = number(member(ec, "return_code"));
    const json& sig = member(ec, "signal");
    std::optional<int64_t> sn = number(member(sig, "id"));
    if (!sn)
        sn = number(member(sig, "signal_id"));
    if (!rc && !sn)
        return {};
    return std::to_string(rc.value_or(0)) + ":" + std::to_string(sn.value_or(0));
}

void setTimes(StructuredRecord& r, const json& obj)
{
    const json& t = member(obj, "time");
    auto end = number(member(t, "end"));
    auto start = number(member(t, "start"));
    std::optional<int64_t> pick = (end && *end > 0) ? end : ((start && *start > 0) ? start : std::nullopt);
    if (pick && *pick < 7258118400LL) {
        r.timeNs = *pick * 1000000000LL;
        r.basis = TimeBasis::Absolute;
    }
}

std::string stepId(const json& step)
{
    const json& s = member(step, "step");
    const json& id = member(s, "id");
    if (id.is_string()) {
        const auto& str = id.get_ref<const std::string&>();
        const size_t dot = str.find('.');
        return dot == std::string::npos ? str : str.substr(dot + 1);
    }
    const json& sid = member(id, "step_id");
    if (sid.is_string())
        return sid.get<std::string>();
    if (auto n = number(sid))
        return std::to_string(*n);
    return stringList(member(s, "name"));
}

std::string nodesOf(const json& obj)
{
    const json& n = member(obj, "nodes");
    if (n.is_string())
        return n.get<std::string>();
    if (n.is_object())
        return stringList(member(n, "range"));
    return {};
}

} // namespace

bool parseSacctJson(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    const size_t root = jsonpos::skipWs(data, 0);
    if (root >= data.size() || data[root] != '{')
        return false;
    json doc = json::parse(data.begin(), data.end(), nullptr, false);
    if (doc.is_discarded()) {
        // only claim the file when it looks like sacct output that got truncated or damaged
        if (data.substr(0, 4096).find("\"jobs\"") == std::string_view::npos)
            return false;
        issues.push_back({1, "sacct JSON is not valid JSON (truncated or damaged)"});
        return false;
    }
    const json& jobs = member(doc, "jobs");
    if (!jobs.is_array())
        return false;
    const jsonpos::LineIndex lines(data);
    const auto spans = jsonpos::elements(data, jsonpos::memberValue(data, root, "jobs"));
    for (size_t i = 0; i < jobs.size(); ++i) {
        const json& job = jobs[i];
        const auto span = i < spans.size() ? spans[i] : std::make_pair(root, data.size());
        const uint32_t line = lines.lineOf(span.first);
        if (!job.is_object()) {
            issues.push_back({line, "sacct job entry " + std::to_string(i) + " is not an object"});
            continue;
        }
        const auto id = number(member(job, "job_id"));
        if (!id) {
            issues.push_back({line, "sacct job entry " + std::to_string(i) + " has no job_id"});
            continue;
        }
        const std::string jobId = std::to_string(*id);
        const json& st = member(job, "state");
        const std::string state = st.is_object() ? stringList(member(st, "current")) : stringList(st);
        const std::string reason = stringList(member(st, "reason"));
        const std::string nodes = nodesOf(job);
        StructuredRecord r;
        setRaw(r, lines, data, span.first, span.second);
        setTimes(r, job);
        r.node = singleNode(nodes);
        r.severity = stateSeverity(state);
        r.text = canonical(jobId, {}, state, exitText(member(job, "exit_code")), nodes, reason);
        out.push_back(std::move(r));

        const json& steps = member(job, "steps");
        if (!steps.is_array())
            continue;
        const auto stepSpans = jsonpos::elements(data, jsonpos::memberValue(data, span.first, "steps"));
        for (size_t k = 0; k < steps.size(); ++k) {
            const json& step = steps[k];
            const auto sspan = k < stepSpans.size() ? stepSpans[k] : span;
            if (!step.is_object()) {
                issues.push_back({lines.lineOf(sspan.first), "sacct job " + jobId + " step entry is not an object"});
                continue;
            }
            const json& sst = member(step, "state");
            const std::string sstate = sst.is_object() ? stringList(member(sst, "current")) : stringList(sst);
            const std::string snodes = nodesOf(step);
            StructuredRecord s;
            setRaw(s, lines, data, sspan.first, sspan.second);
            setTimes(s, step);
            s.node = singleNode(snodes);
            s.severity = stateSeverity(sstate);
            s.text = canonical(jobId, stepId(step), sstate, exitText(member(step, "exit_code")), snodes, {});
            out.push_back(std::move(s));
        }
    }
    return true;
}

namespace {

// sacct's own table (no --parsable): a header of column names, a line of dash runs, one a column, then rows
// padded to those widths (src/common/print_fields.c). The column of each cell is the span of its dash run;
// the spans of the dash line, else empty.
std::vector<std::pair<size_t, size_t>> dashColumns(std::string_view line)
{
    std::vector<std::pair<size_t, size_t>> spans;
    for (size_t i = 0; i < line.size();) {
        if (line[i] == ' ') {
            ++i;
            continue;
        }
        if (line[i] != '-')
            return {};
        const size_t b = i;
        while (i < line.size() && line[i] == '-')
            ++i;
        spans.emplace_back(b, i - b);
    }
    return spans;
}

std::vector<std::string_view> cutColumns(std::string_view line, const std::vector<std::pair<size_t, size_t>>& spans)
{
    std::vector<std::string_view> cells;
    for (size_t k = 0; k < spans.size(); ++k) {
        const size_t b = std::min(spans[k].first, line.size());
        // The last column takes the rest of the line: a reason or node list wider than its dashes.
        const size_t e = k + 1 == spans.size() ? line.size() : std::min(spans[k].first + spans[k].second, line.size());
        cells.push_back(line.substr(b, e - b));
    }
    return cells;
}

// A row's cells: each blank-separated value goes to the column it overlaps most (the nearest when none), so a
// row pasted a column off its dash line ("OUT_OF_ME+    0:125" one place right) keeps its values whole. Two
// values in one column (a name with a blank) are that cell, from the first one's start to the last one's end.
std::vector<std::string_view> rowCells(std::string_view line, const std::vector<std::pair<size_t, size_t>>& spans)
{
    std::vector<std::pair<size_t, size_t>> cell(spans.size(), {std::string_view::npos, 0});
    for (size_t i = 0; i < line.size();) {
        if (line[i] == ' ' || line[i] == '\t') {
            ++i;
            continue;
        }
        const size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        size_t best = 0;
        long bestScore = LONG_MIN;
        for (size_t k = 0; k < spans.size(); ++k) {
            const long cb = long(spans[k].first), ce = long(spans[k].first + spans[k].second);
            const long overlap = std::min(long(i), ce) - std::max(long(b), cb); // negative: the gap between them
            if (overlap > bestScore) {
                bestScore = overlap;
                best = k;
            }
        }
        auto& c = cell[best];
        c.first = std::min(c.first, b);
        c.second = std::max(c.second, i);
    }
    std::vector<std::string_view> cells;
    for (const auto& [b, e] : cell)
        cells.push_back(b == std::string_view::npos ? std::string_view() : line.substr(b, e - b));
    return cells;
}

// The padded table ends a value wider than its column with '+' (print_fields.c): "OUT_OF_ME+" is
// OUT_OF_MEMORY, "CANCELLED+" is "CANCELLED by <uid>" cut. A cut state is the one job state it begins
// (src/common/slurm_protocol_defs.c job_state_string); cut further than that tells apart, it stays as printed.
std::string_view fullState(std::string_view state)
{
    if (!state.ends_with('+'))
        return state;
    static constexpr std::string_view kStates[] = {"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED", "FAILED",
                                                   "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE",
                                                   "OUT_OF_MEMORY", "REQUEUED", "RESIZING", "REVOKED", "SPECIAL_EXIT"};
    const std::string_view cut = state.substr(0, state.size() - 1);
    std::string_view found;
    for (std::string_view s : kStates) {
        if (!s.starts_with(cut))
            continue;
        if (!found.empty())
            return state;
        found = s;
    }
    return found.empty() ? state : found;
}

} // namespace

bool parseSacctPipe(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    std::vector<std::string> header;
    int cJob = -1, cState = -1, cExit = -1, cNodes = -1, cStart = -1, cEnd = -1, cReason = -1;
    bool any = false;
    // sacct's padded table: the header line (its names kept until the dash line gives the columns).
    std::string_view tableHeader;
    std::vector<std::pair<size_t, size_t>> spans;
    for (const TextLine& text : linesOf(data)) {
        const std::string_view raw = text.text;
        const std::string_view line = cursor::trimRight(raw);
        const uint32_t lineNo = text.number;
        const size_t begin = text.offset;
        if (line.empty())
            continue;
        if (header.empty() && tableHeader.empty() && line.find('|') == std::string_view::npos) {
            tableHeader = line; // a padded table's header, or no sacct output at all (the dash line says)
            continue;
        }
        if (header.empty() && !tableHeader.empty() && spans.empty()) {
            spans = dashColumns(line);
            if (spans.size() < 2)
                return false;
        }
        std::vector<std::string_view> fields;
        if (!spans.empty() && header.empty())
            fields = cutColumns(tableHeader, spans);
        else if (!spans.empty())
            fields = rowCells(line, spans);
        else
            fields = splitFields(line, '|');
        if (header.empty()) {
            for (size_t i = 0; i < fields.size(); ++i) {
                std::string f(cursor::trim(fields[i]));
                header.push_back(f);
                const int ix = int(i);
                if (f == "JobID" || f == "JobIDRaw")
                    cJob = cJob < 0 ? ix : cJob;
                else if (f == "State")
                    cState = ix;
                else if (f == "ExitCode")
                    cExit = ix;
                else if (f == "NodeList")
                    cNodes = ix;
                else if (f == "Start")
                    cStart = ix;
                else if (f == "End")
                    cEnd = ix;
                else if (f == "Reason")
                    cReason = ix;
            }
            if (cJob < 0 || cState < 0 || fields.size() < 2)
                return false;
            continue;
        }
        // "sacct -p" ends every row with '|'
        if (fields.size() == header.size() + 1 && fields.back().empty())
            fields.pop_back();
        if (fields.size() != header.size()) {
            issues.push_back({lineNo, "sacct row has " + std::to_string(fields.size()) + " fields, header has "
                                          + std::to_string(header.size())});
            continue;
        }
        auto col = [&](int c) { return c < 0 ? std::string_view() : cursor::trim(fields[size_t(c)]); };
        const std::string_view jobId = col(cJob);
        if (jobId.empty() || !cursor::isDigit(jobId[0])) {
            issues.push_back({lineNo, "sacct row without a job id"});
            continue;
        }
        const size_t dot = jobId.find('.');
        std::string_view state = col(cState);
        state = fullState(state.substr(0, state.find(' '))); // "CANCELLED by 1234"
        StructuredRecord r;
        r.offset = begin;
        r.length = uint32_t(std::min<size_t>(raw.size(), UINT32_MAX));
        r.line = lineNo;
        const std::string_view nodes = col(cNodes);
        r.node = nodes.ends_with('+') ? std::string() : singleNode(nodes); // a cut name is no node's
        r.severity = stateSeverity(state);
        int64_t ns = 0;
        TimeBasis basis = TimeBasis::None;
        if (timeText(col(cEnd), ns, basis) || timeText(col(cStart), ns, basis)) {
            r.timeNs = ns;
            r.basis = basis;
        }
        r.text = canonical(jobId.substr(0, dot), dot == std::string_view::npos ? std::string_view() : jobId.substr(dot + 1),
                           state, col(cExit), nodes, col(cReason));
        out.push_back(std::move(r));
        any = true;
    }
    return any || !header.empty();
}

} // namespace fl
