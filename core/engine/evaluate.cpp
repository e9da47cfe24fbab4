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
std::string classOf(ResultStatus status, const std::string& domain)
{
    return status == ResultStatus::Attributed ? domain : std::string(toString(status));
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

std::string formatEvalReport(const EvalReport& r)
{
    std::ostringstream os;
    std::set<std::string> classes;
    for (const auto& [e, row] : r.confusion) {
        classes.insert(e);
        for (const auto& [g, n] : row)
            classes.insert(g);
    }
    os << "Confusion matrix (rows: truth, columns: verdict; attributed verdicts by domain)\n\n";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%-14s", "");
    os << buf;
    for (const auto& c : classes) {
        std::snprintf(buf, sizeof buf, "%13.13s", c.c_str());
        os << buf;
    }
    os << "\n";
    for (const auto& e : classes) {
        if (!r.confusion.count(e))
            continue;
        std::snprintf(buf, sizeof buf, "%-14.14s", e.c_str());
        os << buf;
        for (const auto& g : classes) {
            auto row = r.confusion.at(e);
            int n = row.count(g) ? row.at(g) : 0;
            std::snprintf(buf, sizeof buf, "%13d", n);
            os << buf;
        }
        os << "\n";
    }
    os << "\nPer class        precision  recall   (n truth)\n";
    for (const auto& c : classes) {
        int tp = 0, predicted = 0, actual = 0;
        for (const auto& [e, row] : r.confusion)
            for (const auto& [g, n] : row) {
                if (g == c)
                    predicted += n;
                if (e == c)
                    actual += n;
                if (e == c && g == c)
                    tp += n;
            }
        if (actual == 0 && predicted == 0)
            continue;
        std::snprintf(buf, sizeof buf, "  %-14.14s %8s %8s", c.c_str(),
                      predicted ? (std::to_string(100 * tp / predicted) + "%").c_str() : "-",
                      actual ? (std::to_string(100 * tp / actual) + "%").c_str() : "-");
        os << buf << "   (" << actual << ")\n";
    }
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * r.culpritAccuracy());
    os << "\nCulprit accuracy: " << buf << " (" << r.culpritCorrect << "/" << r.cases.size() << ")\n";
    os << "Confidently wrong (attributed, but wrong): " << r.confidentlyWrong << " (of which truth ambiguous: "
       << r.confidentlyWrongOnAmbiguous << ")\n";
    bool header = false;
    for (const auto& c : r.cases) {
        if (c.correct && c.error.empty())
            continue;
        if (!header) {
            os << "\nMisses\n";
            header = true;
        }
        os << "  " << c.bundle << ": truth " << toString(c.truth.status) << " " << c.truth.domain << "/" << c.truth.subDomain
           << (c.truth.culpritNode.empty() ? "" : " on " + c.truth.culpritNode) << "; got " << statusText(c.status) << " "
           << c.domain << "/" << c.subDomain << (c.node.empty() ? "" : " on " + c.node)
           << (c.error.empty() ? "" : " ERROR " + c.error) << "\n";
    }
    return os.str();
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
        cases.push_back({{"bundle", c.bundle}, {"truth_status", toString(c.truth.status)}, {"truth_domain", c.truth.domain},
                         {"truth_sub_domain", c.truth.subDomain}, {"truth_node", c.truth.culpritNode},
                         {"status", statusText(c.status)}, {"domain", c.domain}, {"sub_domain", c.subDomain}, {"node", c.node},
                         {"correct", c.correct}, {"confidently_wrong", c.confidentlyWrong}, {"error", c.error}});
    j["cases"] = cases;
    return j.dump(2) + "\n";
}

} // namespace fl
