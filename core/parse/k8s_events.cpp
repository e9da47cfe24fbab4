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

} // namespace

bool parseK8sEvents(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    const size_t root = jsonpos::skipWs(data, 0);
    if (root >= data.size() || (data[root] != '{' && data[root] != '['))
        return false;
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
        r.text = "k8s event type=" + oneLine(type.empty() ? "Unknown" : type, 64) + " reason=" + oneLine(reason, 128)
                 + " object=" + oneLine(kind, 64) + "/" + oneLine(name, 256);
        if (!node.empty())
            r.text += " node=" + oneLine(node, 256);
        r.text += " message=" + oneLine(message);
        out.push_back(std::move(r));
    }
    return true;
}

} // namespace fl
