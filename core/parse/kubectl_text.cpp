// kubectl's text output: `kubectl get pods [-o wide]` tables and `kubectl describe pod|node`.
// Formats: kubernetes/kubectl@dee3483a3d6a64c07fdf746caf80af446dee99ac pkg/describe/describe.go
// (describePod, describeContainerState/describeStatus, describeNode's Conditions table; a
// tabwriter with two-space levels) and kubernetes/kubernetes pkg/printers/internalversion/printers.go
// (printPod: NAME READY STATUS RESTARTS AGE [IP NODE NOMINATED NODE READINESS GATES]; STATUS is the
// container's waiting/terminated reason, "Init:<reason>", "Signal:<n>", "ExitCode:<n>" or the phase).
// A row without its header is read when bundle/kubectl_row.h finds every cell in its column's shape.
#include "bundle/kubectl_row.h"
#include "bundle/text_lines.h"
#include "bundle/wrappers.h"
#include "parse/cluster_text_util.h"
#include "parse/cursor.h"
#include "parse/structured.h"
#include "parse/structured_util.h"

#include <optional>

namespace fl {

using namespace clustertext;
using cursor::startsWith;
using cursor::trim;

namespace {

size_t indentOf(std::string_view s)
{
    size_t i = 0;
    while (i < s.size() && s[i] == ' ')
        ++i;
    return i;
}

// "Key:   value" at any indentation: the key and the value.
bool keyValue(std::string_view line, std::string_view& key, std::string_view& value)
{
    const std::string_view t = trim(line);
    const size_t colon = t.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 40)
        return false;
    key = t.substr(0, colon);
    for (char c : key)
        if (!(cursor::isAlnum(c) || c == ' ' || c == '-' || c == '_' || c == '.' || c == '/'))
            return false;
    value = trim(t.substr(colon + 1));
    return true;
}

bool isPodsHeader(std::string_view line)
{
    return (startsWith(line, "NAME ") || startsWith(line, "NAMESPACE ")) && line.find(" READY ") != std::string_view::npos
           && line.find(" STATUS ") != std::string_view::npos && line.find(" RESTARTS") != std::string_view::npos;
}

// The node part of describe pod's "Node: gpu-a17/10.0.0.17".
std::string_view nodeOfDescribe(std::string_view value)
{
    if (value == "<none>")
        return {};
    return value.substr(0, value.find('/'));
}

struct ContainerState {
    std::optional<StructuredRecord> rec;
    std::string container, state, reason, exit, signal, message;
    bool last = false;
    int64_t finishedNs = kNoTime;
};

class DescribeReader {
public:
    explicit DescribeReader(std::vector<StructuredRecord>& out) : out_(out) {}

    void line(const TextLine& l)
    {
        const std::string_view raw = cursor::trimRight(l.text);
        const size_t ind = indentOf(raw);
        std::string_view key, value;
        const bool kv = keyValue(raw, key, value);
        if (ind == 0) {
            flushState();
            section_ = {};
            condCols_.reset();
            if (kv && key == "Name") {
                object_ = std::string(value);
                node_.clear();
                phase_.clear();
                podReason_.reset();
                nodeObject_ = false;
            } else if (kv && key == "Node") {
                node_ = std::string(nodeOfDescribe(value));
                shaped_ = true;
            } else if (kv && key == "Roles") {
                nodeObject_ = true; // describe node prints Roles right after Name
            } else if (kv && key == "Status") {
                phase_ = std::string(value);
            } else if (kv && key == "Reason" && !object_.empty()) {
                podReason(l, value);
            } else if (kv && key == "Message" && podReason_) {
                field(out_[*podReason_].text, "message", value, 1024);
                extendTo(out_[*podReason_], l.offset, l.text.size(), l.number);
            } else if (kv && value.empty()) {
                section_ = std::string(key);
                shaped_ = shaped_ || section_ == "Containers" || (section_ == "Conditions" && nodeObject_);
            }
            return;
        }
        if (section_ == "Conditions" && nodeObject_) {
            conditionRow(l, raw);
            return;
        }
        if (section_ != "Containers" && section_ != "Init Containers")
            return;
        if (ind == 2 && kv && value.empty()) { // "  trainer:"
            flushState();
            container_ = std::string(key);
            return;
        }
        if (ind == 4) {
            flushState();
            if (kv && (key == "State" || key == "Last State") && value == "Terminated") {
                cur_ = ContainerState{};
                cur_.rec = lineRecord(l.offset, l.text, l.number);
                cur_.container = container_;
                cur_.state = std::string(value);
                cur_.last = key == "Last State";
            }
            return;
        }
        if (ind >= 6 && cur_.rec && kv) {
            extendTo(*cur_.rec, l.offset, l.text.size(), l.number);
            if (key == "Reason")
                cur_.reason = std::string(value);
            else if (key == "Exit Code")
                cur_.exit = std::string(value);
            else if (key == "Signal")
                cur_.signal = std::string(value);
            else if (key == "Message")
                cur_.message = std::string(value);
            else if (key == "Finished") {
                int64_t ns = 0;
                if (rfc1123z(value, ns))
                    cur_.finishedNs = ns;
            }
        }
    }

    void finish() { flushState(); }
    // Saw what only describe prints: a pod's Node line or Containers, or a node's Conditions.
    bool shaped() const { return shaped_; }

private:
    void podReason(const TextLine& l, std::string_view reason)
    {
        StructuredRecord r = lineRecord(l.offset, l.text, l.number);
        r.node = node_;
        r.severity = Severity::Warning;
        r.text = "k8s pod";
        field(r.text, "pod", object_);
        field(r.text, "phase", phase_);
        field(r.text, "reason", reason);
        field(r.text, "node", node_);
        podReason_ = out_.size();
        out_.push_back(std::move(r));
    }

    void flushState()
    {
        if (!cur_.rec)
            return;
        StructuredRecord r = std::move(*cur_.rec);
        r.node = node_;
        r.timeNs = cur_.finishedNs;
        r.basis = cur_.finishedNs != kNoTime ? TimeBasis::Absolute : TimeBasis::None;
        r.severity = cur_.exit == "0" ? Severity::Info : Severity::Warning;
        r.text = "k8s pod";
        field(r.text, "pod", object_);
        field(r.text, "container", cur_.container);
        field(r.text, "state", cur_.state);
        field(r.text, "reason", cur_.reason);
        field(r.text, "exit", cur_.exit);
        field(r.text, "signal", cur_.signal);
        field(r.text, "last", cur_.last ? "yes" : "no");
        field(r.text, "node", node_);
        field(r.text, "message", cur_.message, 1024);
        out_.push_back(std::move(r));
        cur_ = ContainerState{};
    }

    void conditionRow(const TextLine& l, std::string_view raw)
    {
        const std::string_view t = trim(raw);
        if (!condCols_) {
            Columns c;
            if (startsWith(t, "Type") && headerColumns(raw, c))
                condCols_ = std::move(c);
            return;
        }
        if (startsWith(t, "----"))
            return;
        const auto cs = cells(raw, *condCols_);
        std::string_view type, status, reason, message, transition;
        for (size_t i = 0; i < cs.size(); ++i) {
            const std::string& n = condCols_->names[i];
            if (n == "Type")
                type = cs[i];
            else if (n == "Status")
                status = cs[i];
            else if (n == "Reason")
                reason = cs[i];
            else if (n == "Message")
                message = cs[i];
            else if (n == "LastTransitionTime")
                transition = cs[i];
        }
        if (type.empty() || status.empty())
            return;
        StructuredRecord r = lineRecord(l.offset, l.text, l.number);
        int64_t ns = 0;
        if (rfc1123z(transition, ns)) {
            r.timeNs = ns;
            r.basis = TimeBasis::Absolute;
        }
        r.node = object_;
        r.text = "k8s node";
        field(r.text, "node", object_);
        field(r.text, "condition", type);
        field(r.text, "status", status);
        field(r.text, "reason", reason);
        field(r.text, "message", message, 1024);
        out_.push_back(std::move(r));
    }

    std::vector<StructuredRecord>& out_;
    std::string object_, node_, phase_, section_, container_;
    bool nodeObject_ = false;
    bool shaped_ = false;
    std::optional<size_t> podReason_;
    std::optional<Columns> condCols_;
    ContainerState cur_;
};

void podRecord(const TextLine& l, std::string_view name, std::string_view status, std::string_view restarts,
               std::string_view node, std::vector<StructuredRecord>& out)
{
    StructuredRecord r = lineRecord(l.offset, l.text, l.number);
    r.node = std::string(node);
    r.text = "k8s pod";
    field(r.text, "pod", name);
    field(r.text, "status", status);
    field(r.text, "restarts", restarts.substr(0, restarts.find(' ')));
    field(r.text, "node", node);
    out.push_back(std::move(r));
}

void podRow(const TextLine& l, std::string_view line, const Columns& cols, std::vector<StructuredRecord>& out)
{
    const auto cs = cells(line, cols);
    std::string_view name, status, restarts, node;
    for (size_t i = 0; i < cs.size(); ++i) {
        const std::string& n = cols.names[i];
        if (n == "NAME")
            name = cs[i];
        else if (n == "STATUS")
            status = cs[i];
        else if (n == "RESTARTS")
            restarts = cs[i];
        else if (n == "NODE")
            node = cs[i] == "<none>" ? std::string_view() : cs[i];
    }
    if (name.empty() || status.empty())
        return;
    podRecord(l, name, status, restarts, node, out);
}

} // namespace

bool parseKubectlText(std::string_view data, std::vector<StructuredRecord>& out, std::vector<ParseIssue>& issues)
{
    (void)issues; // every line is read: what is not understood is passed on as text
    std::vector<StructuredRecord> recs;
    std::optional<Columns> pods;
    bool table = false, rows = false, describe = false;
    DescribeReader desc(recs);
    // a table or describe output relayed by pdsh, compose or kubectl --prefix: read the relayed lines
    const LineWrapper wrapper = detectWrapper(data.substr(0, 64 * 1024));
    for (const TextLine& raw : linesOf(data)) {
        const std::string_view inner = innerLine(wrapper, raw.text);
        const TextLine l{inner, raw.offset + size_t(inner.data() - raw.text.data()), raw.number};
        const std::string_view line = cursor::trimRight(l.text);
        if (isPodsHeader(line)) {
            Columns c;
            if (headerColumns(line, c)) {
                pods = std::move(c);
                table = true;
            }
            continue;
        }
        if (line.empty())
            pods.reset();
        if (pods && line[0] != ' ') {
            podRow(l, line, *pods, recs);
            continue;
        }
        // a row pasted without its header: read only when its every cell has its column's shape
        if (KubectlPodRow row; !pods && !describe && readKubectlPodRow(line, row)) {
            podRecord(l, row.name, row.status, row.restarts, row.node, recs);
            rows = true;
            continue;
        }
        describe = describe || startsWith(line, "Name:");
        if (describe)
            desc.line(l);
    }
    desc.finish();
    if (!table && !rows && !desc.shaped())
        return false;
    deliver(data, recs, out);
    return true;
}

} // namespace fl
