// The three label files an exercise can rest on, told apart by their fields.
#include "exercise/key.h"

#include "bundle/bundle.h"
#include "bundle/json_file.h"


namespace fl::exercise {

namespace {

using nlohmann::json;

std::string text(const json& j, const char* key)
{
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

int number(const json& j, const char* key)
{
    return j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : -1;
}

// "gpu.xid.48 @ node-03 — tied with ...": the node of a tied candidate line of a sample's expected.json.
std::string tiedNode(const std::string& line)
{
    const size_t at = line.find(" @ ");
    const size_t dash = line.find(" \xE2\x80\x94 ", at == std::string::npos ? 0 : at);
    if (at == std::string::npos || dash == std::string::npos)
        return {};
    if (line.compare(dash + 5, 4, "tied") != 0)
        return {};
    return line.substr(at + 3, dash - at - 3);
}

Truth truthOfExpected(const json& j, const std::string& path)
{
    Truth t;
    const std::string status = text(j, "status");
    const auto known = resultStatusFromString(status);
    if (!known)
        throw BundleError(path, "'status' must be attributed, ambiguous or unattributed, not '" + status + "'");
    t.status = *known;
    t.domain = labelDomain(text(j, "domain"), path);
    t.subDomain = text(j, "sub_domain");
    if (j.contains("root_cause") && j["root_cause"].is_object()) {
        const json& rc = j["root_cause"];
        t.culpritNode = text(rc, "node");
        t.culpritRank = number(rc, "rank");
        t.culpritGpu = number(rc, "gpu");
        t.fault = text(rc, "symptom");
    }
    if (t.status == ResultStatus::Ambiguous && j.contains("candidates") && j["candidates"].is_array())
        for (const json& c : j["candidates"]) {
            const std::string node = c.is_string() ? tiedNode(c.get<std::string>()) : std::string();
            if (node.empty() || node == t.culpritNode)
                continue;
            if (t.culpritNode.empty())
                t.culpritNode = node;
            else
                t.alsoAcceptableNodes.push_back(node);
        }
    return t;
}

} // namespace

std::string_view toString(LabelSource s)
{
    switch (s) {
    case LabelSource::Synth: return "synth";
    case LabelSource::Expected: return "expected";
    case LabelSource::Incident: return "incident";
    }
    return "synth";
}

Label readLabel(const std::string& path)
{
    return labelFromJson(readJsonFile(path), path);
}

Label labelFromJson(const json& j, const std::string& path)
{
    if (!j.is_object())
        throw BundleError(path, "not a JSON object");
    Label label;
    label.document = nlohmann::ordered_json::parse(j.dump());
    if (j.contains("culprit_node_or_rank") || j.contains("root_cause_category")) {
        label.source = LabelSource::Incident;
        if (!j.contains("culprit_node_or_rank"))
            throw BundleError(path, "a real incident's label needs 'culprit_node_or_rank' (a string, or null)");
        const json& c = j["culprit_node_or_rank"];
        if (c.is_string())
            label.culprit = c.get<std::string>();
        else if (!c.is_null())
            throw BundleError(path, "'culprit_node_or_rank' must be a string or null");
        return label;
    }
    if (j.contains("culprit_node") && j.contains("status")) {
        label.source = LabelSource::Synth;
        label.truth = truthFromJson(j, path);
        return label;
    }
    if (j.contains("status") && (j.contains("root_cause") || j.contains("evidence_roles"))) {
        label.source = LabelSource::Expected;
        label.truth = truthOfExpected(j, path);
        return label;
    }
    throw BundleError(path, "not a label: expected a truth.json (status, culprit_node), a sample's expected.json "
                            "(status, root_cause) or a real incident's expected.json (culprit_node_or_rank)");
}

} // namespace fl::exercise
