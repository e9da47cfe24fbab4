#include "engine/evaluate.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fl {

using nlohmann::json;

namespace {

// A confusion-matrix class: the domain of an attributed verdict, else the status.
std::string classOf(ResultStatus status, std::optional<Domain> domain)
{
    return std::string(status == ResultStatus::Attributed ? toString(domain) : toString(status));
}

std::string statusText(const std::optional<ResultStatus>& status)
{
    return status ? std::string(toString(*status)) : std::string();
}

} // namespace

std::vector<std::string> findTruthBundles(const std::string& root)
{
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    std::error_code ec;
    if (fs::exists(fs::path(root) / "truth.json", ec))
        out.push_back(root);
    else if (fs::is_directory(root, ec))
        for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator();
             it.increment(ec)) {
            if (ec)
                break;
            if (it->is_directory() && fs::exists(it->path() / "truth.json"))
                out.push_back(it->path().string());
        }
    std::sort(out.begin(), out.end());
    return out;
}

EvalReport evaluate(const std::vector<std::string>& bundles, const AnalyzeOptions& options, const Progress& progress)
{
    EvalReport report;
    uint64_t done = 0;
    for (const auto& b : bundles) {
        if (progress.cancelled())
            break;
        EvalCase c;
        c.bundle = b;
        bool truthRead = false; // an unreadable truth.json is its own row, not "unattributed"
        try {
            c.truth = readTruth(b + "/truth.json");
            truthRead = true;
            Analysis a = analyze(b, options);
            const Result& r = a.result;
            c.status = r.status;
            c.domain = r.domain;
            c.subDomain = r.subDomain;
            if (r.rootCause) {
                c.node = r.rootCause->node;
                c.rank = r.rootCause->rank;
            }
        } catch (const std::exception& e) {
            c.error = e.what();
        }
        const Truth& t = c.truth;
        bool nodeOk = !t.culpritNode.empty() &&
                      (c.node == t.culpritNode ||
                       std::find(t.alsoAcceptableNodes.begin(), t.alsoAcceptableNodes.end(), c.node) != t.alsoAcceptableNodes.end());
        const bool saidAttributed = c.status == ResultStatus::Attributed;
        if (t.status == ResultStatus::Attributed) {
            bool needsNode = !t.culpritNode.empty();
            c.culpritCorrect = saidAttributed && (!needsNode || nodeOk);
            c.correct = c.culpritCorrect && c.domain == t.domain;
            c.confidentlyWrong = saidAttributed && !c.correct;
        } else {
            c.culpritCorrect = c.status == t.status;
            c.correct = c.culpritCorrect;
            c.confidentlyWrong = saidAttributed;
        }
        if (c.culpritCorrect)
            ++report.culpritCorrect;
        if (c.confidentlyWrong) {
            ++report.confidentlyWrong;
            if (t.status == ResultStatus::Ambiguous)
                ++report.confidentlyWrongOnAmbiguous;
        }
        ++report.confusion[truthRead ? classOf(t.status, t.domain) : "error"][c.error.empty() && c.status ? classOf(*c.status, c.domain) : "error"];
        report.cases.push_back(std::move(c));
        progress("eval", ++done, bundles.size());
    }
    return report;
}

std::string evalReportJson(const EvalReport& r)
{
    json j;
    j["culprit_accuracy"] = r.culpritAccuracy();
    j["culprit_correct"] = r.culpritCorrect;
    j["cases_total"] = r.cases.size();
    j["confidently_wrong"] = r.confidentlyWrong;
    j["confidently_wrong_on_ambiguous"] = r.confidentlyWrongOnAmbiguous;
    j["confusion"] = r.confusion;
    json cases = json::array();
    for (const auto& c : r.cases)
        cases.push_back({{"bundle", c.bundle}, {"truth_status", toString(c.truth.status)}, {"truth_domain", toString(c.truth.domain)},
                         {"truth_sub_domain", c.truth.subDomain}, {"truth_node", c.truth.culpritNode},
                         {"status", statusText(c.status)}, {"domain", toString(c.domain)}, {"sub_domain", c.subDomain}, {"node", c.node},
                         {"correct", c.correct}, {"confidently_wrong", c.confidentlyWrong}, {"error", c.error}});
    j["cases"] = cases;
    return j.dump(2) + "\n";
}

} // namespace fl
