#include "present/eval_report.h"

#include <cstdio>
#include <set>
#include <sstream>

namespace fl::present {

namespace {

std::string statusText(const std::optional<ResultStatus>& status)
{
    return status ? std::string(toString(*status)) : std::string();
}

} // namespace

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
        os << "  " << c.bundle << ": truth " << toString(c.truth.status) << " " << toString(c.truth.domain) << "/" << c.truth.subDomain
           << (c.truth.culpritNode.empty() ? "" : " on " + c.truth.culpritNode) << "; got " << statusText(c.status) << " "
           << toString(c.domain) << "/" << c.subDomain << (c.node.empty() ? "" : " on " + c.node)
           << (c.error.empty() ? "" : " ERROR " + c.error) << "\n";
    }
    return os.str();
}

} // namespace fl::present
