#include "bundle/text_lines.h"
#include "parse/cluster_text_util.h"
#include "parse/cursor.h"
#include "parse/structured.h"
#include "parse/structured_util.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace fl {

using namespace structured;
using nlohmann::json;

namespace {

std::string str(const json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }

std::string lowerAscii(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; });
    return s;
}

bool looksLikeEvent(const json& e)
{
    return e.is_object() && (e.contains("involvedObject") || e.contains("regarding"))
           && (e.contains("reason") || e.contains("message") || e.contains("note"));
}

std::string eventText(std::string_view type, std::string_view reason, std::string_view kind, std::string_view name,
                      std::string_view node, std::string_view message)
{
    std::string t = "k8s event type=" + oneLine(type.empty() ? "Unknown" : type, 64) + " reason=" + oneLine(reason, 128)
        + " object=" + oneLine(kind, 64) + "/" + oneLine(name, 256);
    if (!node.empty())
        t += " node=" + oneLine(node, 256);
    return t + " message=" + oneLine(message);
}

// `kubectl get events [-A] [-o wide]` as a table (kubernetes/kubectl pkg/cmd/events and the server's event
// printer: [NAMESPACE] LAST SEEN TYPE REASON OBJECT [SUBOBJECT SOURCE] MESSAGE [FIRST SEEN COUNT NAME]):
// the same records as the JSON list, so that the columns a user asked for do not decide what is read. LAST
// SEEN is an age ("3m"), no time. False when the first line is no such header.
bool parseEventTable(std::string_view data, std::vector<StructuredRecord>& out)
{
    clustertext::Columns cols;
    int cType = -1, cReason = -1, cObject = -1, cSource = -1, cMessage = -1;
    std::vector<StructuredRecord> recs;
    bool header = false;
    for (const TextLine& l : linesOf(data)) {
        const std::string_view line = cursor::trimRight(l.text);
        if (line.empty())
            continue;
        if (!header) {
            if (!clustertext::headerColumns(line, cols))
                return false;
            for (size_t i = 0; i < cols.names.size(); ++i) {
                const std::string& n = cols.names[i];
                for (auto [name, column] : {std::pair{"TYPE", &cType}, std::pair{"REASON", &cReason},
                                            std::pair{"OBJECT", &cObject}, std::pair{"SOURCE", &cSource},
                                            std::pair{"MESSAGE", &cMessage}})
                    if (n == name)
                        *column = int(i);
            }
            if (cType < 0 || cReason < 0 || cObject < 0 || cMessage < 0)
                return false;
            header = true;
            continue;
        }
        const auto cell = clustertext::cells(line, cols);
        const std::string_view type = cell[size_t(cType)];
        if (type != "Warning" && type != "Normal")
            continue; // not a row (a wrapped message, a note): read as a line
        const std::string_view object = cell[size_t(cObject)];
        const size_t slash = object.find('/');
        const std::string kind = lowerAscii(std::string(slash == std::string_view::npos ? std::string_view() : object.substr(0, slash)));
        const std::string_view name = slash == std::string_view::npos ? object : object.substr(slash + 1);
        std::string_view node;
        if (cSource >= 0) { // "kubelet, gpu-07" / "kernel-monitor, gpu-07": the reporting host
            const std::string_view src = cell[size_t(cSource)];
            if (const size_t comma = src.rfind(", "); comma != std::string_view::npos)
                node = cursor::trim(src.substr(comma + 2));
        }
        if (node.empty() && kind == "node")
            node = name;
        StructuredRecord r = clustertext::lineRecord(l.offset, l.text, l.number);
        r.node = std::string(node);
        r.severity = type == "Warning" ? Severity::Warning : Severity::Info;
        r.text = eventText(type, cell[size_t(cReason)], kind, name, node, cell[size_t(cMessage)]);
        recs.push_back(std::move(r));
    }
    if (recs.empty())
        return false;
    clustertext::deliver(data, recs, out);
    return true;
}

} // namespace

bool parseK8sEvents(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    const size_t root = jsonpos::skipWs(data, 0);
    if (root >= data.size())
        return false;
    if (data[root] != '{' && data[root] != '[')
        return parseEventTable(data, out); // kubectl get events' table: not JSON
    json doc = json::parse(data.begin(), data.end(), nullptr, false);
    if (doc.is_discarded())
        return false;
    const json* items = nullptr;
    std::vector<std::pair<size_t, size_t>> spans;
    if (doc.is_array()) {
        items = &doc;
        spans = jsonpos::elements(data, root);
    } else if (doc.is_object() && member(doc, "items").is_array()) {
        items = &doc["items"];
        spans = jsonpos::elements(data, jsonpos::memberValue(data, root, "items"));
    } else if (looksLikeEvent(doc)) {
        json single = json::array({doc});
        doc = std::move(single);
        items = &doc;
        spans = {{root, jsonpos::valueEnd(data, root)}};
    } else {
        return false;
    }
    // A list of something else (pods, nodes) is not an event list.
    bool anyEvent = items->empty();
    for (const auto& e : *items)
        anyEvent = anyEvent || looksLikeEvent(e);
    if (!anyEvent)
        return false;

    const jsonpos::LineIndex lines(data);
    for (size_t i = 0; i < items->size(); ++i) {
        const json& e = (*items)[i];
        const auto span = i < spans.size() && spans[i].second != jsonpos::npos ? spans[i] : std::make_pair(root, data.size());
        const uint32_t line = lines.lineOf(span.first);
        if (!looksLikeEvent(e)) {
            issues.push_back({line, "k8s event entry " + std::to_string(i) + " has no involvedObject/reason"});
            continue;
        }
        const json& obj = e.contains("involvedObject") ? e["involvedObject"] : e["regarding"];
        const std::string type = str(member(e, "type"));
        const std::string reason = str(member(e, "reason"));
        std::string message = str(member(e, "message"));
        if (message.empty())
            message = str(member(e, "note"));
        const std::string kind = lowerAscii(str(member(obj, "kind")));
        const std::string name = str(member(obj, "name"));
        std::string node = str(member(member(e, "source"), "host"));
        if (node.empty())
            node = str(member(member(e, "deprecatedSource"), "host"));
        if (node.empty() && kind == "node")
            node = name;

        StructuredRecord r;
        setRaw(r, lines, data, span.first, span.second);
        for (const char* key : {"lastTimestamp", "eventTime", "firstTimestamp"}) {
            int64_t ns = 0;
            TimeBasis basis = TimeBasis::None;
            if (timeText(str(member(e, key)), ns, basis)) {
                r.timeNs = ns;
                r.basis = basis;
                break;
            }
        }
        if (r.basis == TimeBasis::None) {
            int64_t ns = 0;
            TimeBasis basis = TimeBasis::None;
            if (timeText(str(member(member(e, "metadata"), "creationTimestamp")), ns, basis)) {
                r.timeNs = ns;
                r.basis = basis;
            }
        }
        r.node = node;
        r.severity = type == "Warning" ? Severity::Warning : Severity::Info;
        r.text = eventText(type, reason, kind, name, node, message);
        out.push_back(std::move(r));
    }
    return true;
}

} // namespace fl
