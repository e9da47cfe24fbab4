// `kubectl get pod(s)|node(s) -o json`: the same facts as kubectl describe (core/parse/kubectl_text.cpp),
// read from the API objects (k8s.io/api core/v1: Pod.spec.nodeName, Pod.status.{phase,reason,message},
// ContainerStatus.{state,lastState}.terminated.{reason,exitCode,signal,message,finishedAt},
// Node.status.conditions[].{type,status,reason,message,lastTransitionTime}).
#include "parse/cluster_text_util.h"
#include "parse/structured.h"
#include "parse/structured_util.h"

#include <nlohmann/json.hpp>

namespace fl {

using namespace structured;
using clustertext::field;
using nlohmann::json;

namespace {

std::string str(const json& j) { return j.is_string() ? j.get<std::string>() : std::string(); }
std::string num(const json& j) { return j.is_number_integer() ? std::to_string(j.get<int64_t>()) : std::string(); }

std::string kindOf(const json& o) { return str(member(o, "kind")); }

void setTime(StructuredRecord& r, const std::string& text)
{
    int64_t ns = 0;
    TimeBasis basis = TimeBasis::None;
    if (timeText(text, ns, basis)) {
        r.timeNs = ns;
        r.basis = basis;
    }
}

void podRecords(const json& pod, const StructuredRecord& raw, std::vector<StructuredRecord>& out)
{
    const std::string name = str(member(member(pod, "metadata"), "name"));
    const std::string node = str(member(member(pod, "spec"), "nodeName"));
    const json& status = member(pod, "status");
    if (!str(member(status, "reason")).empty()) {
        StructuredRecord r = raw;
        r.node = node;
        r.severity = Severity::Warning;
        r.text = "k8s pod";
        field(r.text, "pod", name);
        field(r.text, "phase", str(member(status, "phase")));
        field(r.text, "reason", str(member(status, "reason")));
        field(r.text, "node", node);
        field(r.text, "message", str(member(status, "message")), 1024);
        out.push_back(std::move(r));
    }
    for (const char* list : {"initContainerStatuses", "containerStatuses"}) {
        const json& cs = member(status, list);
        if (!cs.is_array())
            continue;
        for (const json& c : cs)
            for (const char* which : {"lastState", "state"}) {
                const json& t = member(member(c, which), "terminated");
                if (!t.is_object())
                    continue;
                StructuredRecord r = raw;
                r.node = node;
                setTime(r, str(member(t, "finishedAt")));
                const std::string exit = num(member(t, "exitCode"));
                r.severity = exit == "0" ? Severity::Info : Severity::Warning;
                r.text = "k8s pod";
                field(r.text, "pod", name);
                field(r.text, "container", str(member(c, "name")));
                field(r.text, "state", "Terminated");
                field(r.text, "reason", str(member(t, "reason")));
                field(r.text, "exit", exit);
                const std::string sig = num(member(t, "signal"));
                field(r.text, "signal", sig == "0" ? std::string() : sig);
                field(r.text, "last", std::string_view(which) == "lastState" ? "yes" : "no");
                field(r.text, "node", node);
                field(r.text, "message", str(member(t, "message")), 1024);
                out.push_back(std::move(r));
            }
    }
}

void nodeRecords(const json& node, const StructuredRecord& raw, std::vector<StructuredRecord>& out)
{
    const std::string name = str(member(member(node, "metadata"), "name"));
    const json& conds = member(member(node, "status"), "conditions");
    if (!conds.is_array())
        return;
    for (const json& c : conds) {
        StructuredRecord r = raw;
        r.node = name;
        setTime(r, str(member(c, "lastTransitionTime")));
        r.text = "k8s node";
        field(r.text, "node", name);
        field(r.text, "condition", str(member(c, "type")));
        field(r.text, "status", str(member(c, "status")));
        field(r.text, "reason", str(member(c, "reason")));
        field(r.text, "message", str(member(c, "message")), 1024);
        out.push_back(std::move(r));
    }
}

} // namespace

bool parseK8sObjects(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    const size_t root = jsonpos::skipWs(data, 0);
    if (root >= data.size() || data[root] != '{')
        return false;
    json doc = json::parse(data.begin(), data.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return false;
    const std::string kind = kindOf(doc);
    if (kind != "Pod" && kind != "Node" && kind != "PodList" && kind != "NodeList" && kind != "List")
        return false;
    const jsonpos::LineIndex lines(data);
    std::vector<std::pair<const json*, std::pair<size_t, size_t>>> items;
    if (kind == "Pod" || kind == "Node") {
        items.push_back({&doc, {root, jsonpos::valueEnd(data, root)}});
    } else {
        const json& list = member(doc, "items");
        if (!list.is_array())
            return false;
        const auto spans = jsonpos::elements(data, jsonpos::memberValue(data, root, "items"));
        for (size_t i = 0; i < list.size(); ++i)
            items.push_back({&list[i], i < spans.size() ? spans[i] : std::make_pair(root, data.size())});
    }
    bool any = false;
    for (const auto& [obj, span] : items) {
        const std::string k = kindOf(*obj);
        StructuredRecord raw;
        setRaw(raw, lines, data, span.first, span.second);
        if (k == "Pod" || (k.empty() && kind == "PodList")) {
            podRecords(*obj, raw, out);
            any = true;
        } else if (k == "Node" || (k.empty() && kind == "NodeList")) {
            nodeRecords(*obj, raw, out);
            any = true;
        } else if (kind == "List" && k.empty()) {
            issues.push_back({lines.lineOf(span.first), "Kubernetes List entry without a kind"});
        }
    }
    return any || kind != "List";
}

} // namespace fl
