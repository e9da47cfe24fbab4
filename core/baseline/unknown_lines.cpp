#include "baseline/unknown_lines.h"

#include "baseline/line_template.h"
#include "bundle/mapped_file.h"
#include "bundle/text_lines.h"
#include "parse/lineparse.h"

#include <algorithm>
#include <set>
#include <utility>

namespace fl::baseline {

namespace {

constexpr size_t kHeadBytes = 64 << 10;   // what the file's time context is learnt from
constexpr size_t kMaxMessageBytes = 512;  // a template is made of the message's head

bool readsLines(SourceKind kind)
{
    return kind == SourceKind::AppLog || kind == SourceKind::SysLog || kind == SourceKind::FabricManager;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool containsWord(std::string_view text, std::string_view word)
{
    if (word.size() > text.size())
        return false;
    for (size_t i = 0; i + word.size() <= text.size(); ++i) {
        size_t k = 0;
        while (k < word.size() && lower(text[i + k]) == word[k])
            ++k;
        if (k == word.size())
            return true;
    }
    return false;
}

// A line's level: its own (glog letter, NCCL WARN, ERROR, the kernel's), else what its words say.
std::optional<Severity> levelOf(const LineInfo& info, std::string_view message)
{
    if (info.severity)
        return info.severity;
    for (std::string_view w : {"error", "fatal", "exception", "traceback", "fail"})
        if (containsWord(message, w))
            return Severity::Error;
    if (containsWord(message, "warn"))
        return Severity::Warning;
    return std::nullopt;
}

// Lines [first, last] of each file that some observation (a rule's match) covers.
std::vector<std::vector<std::pair<uint32_t, uint32_t>>> coveredLines(const Analysis& a)
{
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> covered(a.bundle.files.size());
    for (const Observation& o : a.observations)
        if (o.ref.file.value < covered.size())
            covered[o.ref.file.value].emplace_back(o.ref.line, o.ref.line + std::max<uint32_t>(o.ref.lineCount, 1) - 1);
    for (auto& c : covered)
        std::sort(c.begin(), c.end());
    return covered;
}

bool isCovered(const std::vector<std::pair<uint32_t, uint32_t>>& spans, uint32_t line)
{
    auto it = std::upper_bound(spans.begin(), spans.end(), std::make_pair(line, UINT32_MAX));
    // Spans are short (a record); look back over the few that start before the line.
    for (int back = 0; it != spans.begin() && back < 64; ++back) {
        --it;
        if (it->first <= line && line <= it->second)
            return true;
    }
    return false;
}

} // namespace

UnknownLines unknownLines(const Analysis& a, const std::vector<std::string>& nodes)
{
    UnknownLines out;
    const auto covered = coveredLines(a);
    std::map<std::string, std::set<std::string>> nodesOf;
    for (const SourceFile& f : a.bundle.files) {
        if (!readsLines(f.kind) || f.status != FileStatus::Ok)
            continue;
        MappedFile map;
        std::string error;
        if (!openSource(map, f, &error))
            continue;  // reported by the scan in the file's connector report
        const std::string_view data = map.data();
        const TimeContext ctx = inferTimeContext(data.substr(0, std::min(data.size(), kHeadBytes)), f.kind,
                                                 YearHint{kNoTime, kNoTime, f.modifiedNs});
        LineReader reader(data);
        TextLine line;
        while (reader.next(line)) {
            if (line.text.empty() || isCovered(covered[f.index.value], line.number))
                continue;
            const LineInfo info = parseLine(line.text, f.kind, ctx);
            std::string_view message = line.text.substr(std::min(info.messageStart, line.text.size()));
            if (message.size() > kMaxMessageBytes)
                message = message.substr(0, kMaxMessageBytes);
            const std::optional<Severity> level = levelOf(info, message);
            if (!level || *level < Severity::Warning)
                continue;
            std::string text = maskLine(message, nodes);
            if (text.empty())
                continue;
            auto it = out.templates.find(text);
            if (it == out.templates.end()) {
                if (out.templates.size() >= kMaxUnknownTemplates) {
                    ++out.overflowLines;
                    continue;
                }
                it = out.templates.emplace(std::move(text), UnknownTemplate{}).first;
                it->second.file = f.path;
                it->second.line = line.number;
            }
            UnknownTemplate& t = it->second;
            t.severity = std::max(t.severity, *level);
            ++t.count;
            const std::string node = !f.node.empty() ? f.node : std::string(info.host);
            if (!node.empty())
                nodesOf[it->first].insert(node);
            if (info.timeNs != kNoTime && (t.firstNs == kNoTime || info.timeNs < t.firstNs)) {
                t.firstNs = info.timeNs;
                t.basis = info.basis;
                t.file = f.path;
                t.line = line.number;
            }
        }
    }
    for (auto& [text, ns] : nodesOf)
        out.templates[text].nodes.assign(ns.begin(), ns.end());
    return out;
}

} // namespace fl::baseline
