#include "bundle/truth.h"

#include "bundle/bundle.h"
#include "bundle/json_file.h"

#include <optional>

namespace fl {

nlohmann::ordered_json truthToJson(const Truth& t)
{
    nlohmann::ordered_json j;
    j["status"] = std::string(toString(t.status));
    j["domain"] = std::string(toString(t.domain));
    j["sub_domain"] = t.subDomain;
    j["fault"] = t.fault;
    j["culprit_node"] = t.culpritNode;
    j["culprit_rank"] = t.culpritRank;
    j["culprit_gpu"] = t.culpritGpu;
    j["also_acceptable_nodes"] = t.alsoAcceptableNodes;
    j["notes"] = t.notes;
    return j;
}

std::optional<Domain> labelDomain(const std::string& text, const std::string& path)
{
    if (text.empty())
        return std::nullopt;
    if (std::optional<Domain> d = domainFromString(text))
        return d;
    throw BundleError(path, "'domain' must be gpu, nvlink, network, host, storage, scheduler, workload or unknown, "
                            "not '" + text + "'");
}

Truth truthFromJson(const nlohmann::json& j, const std::string& path)
{
    auto s = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string(); };
    auto i = [&](const char* k) { return j.contains(k) && j[k].is_number_integer() ? j[k].get<int>() : -1; };
    Truth t;
    const std::string status = s("status");
    const std::optional<ResultStatus> known = resultStatusFromString(status);
    if (!known)
        throw BundleError(path, "'status' must be attributed, ambiguous or unattributed, not '" + status + "'");
    t.status = *known;
    t.domain = labelDomain(s("domain"), path);
    t.subDomain = s("sub_domain");
    t.fault = s("fault");
    t.culpritNode = s("culprit_node");
    t.culpritRank = i("culprit_rank");
    t.culpritGpu = i("culprit_gpu");
    if (j.contains("also_acceptable_nodes") && j["also_acceptable_nodes"].is_array())
        for (const auto& n : j["also_acceptable_nodes"])
            if (n.is_string())
                t.alsoAcceptableNodes.push_back(n.get<std::string>());
    t.notes = s("notes");
    return t;
}

Truth readTruth(const std::string& path)
{
    return truthFromJson(readJsonFile(path), path);
}

} // namespace fl
