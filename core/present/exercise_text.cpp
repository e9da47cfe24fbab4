#include "present/exercise_text.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace fl::present {

namespace {

std::string joinNodes(const std::vector<std::string>& nodes)
{
    std::string s;
    for (const auto& n : nodes)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

// Where the answer was: the root lines, or why there is none.
std::string answer(const std::vector<LineText>& roots, const std::string& noLine)
{
    if (roots.empty())
        return "; no line of this bundle shows the initiating event (" + noLine + ")";
    std::string s = roots.size() == 1 ? "; the initiating event is " : "; the initiating event is any of ";
    const size_t shown = std::min<size_t>(roots.size(), 3);
    for (size_t i = 0; i < shown; ++i)
        s += (i ? ", " : "") + lineText(roots[i]);
    if (roots.size() > shown)
        s += " and " + std::to_string(roots.size() - shown) + " more";
    return s;
}

std::string whatLine(const std::string& why)
{
    return why.empty() ? std::string("the engine matched nothing on this line (no rule reads it as a symptom)") : why;
}

} // namespace

std::string lineText(const LineText& l)
{
    std::string s = l.file + ":" + std::to_string(l.line);
    if (!l.title.empty())
        s += " (" + l.title + (l.place.empty() ? "" : " on " + l.place) + ")";
    return s;
}

std::string noLineUnattributed(const std::string& notes)
{
    return "the truth is unattributed: the bundle does not show the cause" + (notes.empty() ? "" : " —" + notes);
}

std::string noLineNoCulprit()
{
    return "the label names no culprit node or rank: the cause is not on one node, so no line is the answer";
}

std::string noLineCulpritNotInBundle(const std::string& culprit)
{
    return "the label's culprit (\"" + culprit + "\") names no node of this bundle, so no line can be named "
           "without guessing";
}

std::string noLineEngineDisagrees(const std::string& engineSaid, const std::vector<std::string>& labelNodes)
{
    return "the engine's verdict (" + engineSaid + ") does not agree with the label" +
           (labelNodes.empty() ? std::string() : " (culprit " + joinNodes(labelNodes) + ")") +
           ", so the key names no line rather than guess";
}

std::string verdictBrief(ResultStatus status, Domain domain, const std::string& subDomain,
                         const std::vector<std::string>& nodes)
{
    std::string s(toString(status));
    if (status != ResultStatus::Unattributed)
        s += " " + std::string(toString(domain)) + (subDomain.empty() ? "" : "/" + subDomain);
    if (!nodes.empty())
        s += " on " + joinNodes(nodes);
    return s;
}

std::string markOnRoot(const LineText& root, const std::string& whyRoot)
{
    return "the initiating event: " + lineText(root) + (whyRoot.empty() ? "" : " — " + whyRoot);
}

std::string markOnRightNode(const std::string& node, const std::string& why, const std::vector<LineText>& roots,
                            const std::string& noLine)
{
    return "right node (" + node + "), another line: " + whatLine(why) + answer(roots, noLine);
}

std::string markElsewhere(const std::string& why, const std::vector<LineText>& roots, const std::string& noLine)
{
    return "not the cause: " + whatLine(why) + answer(roots, noLine);
}

std::string scoreText(double score)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", score);
    return buf;
}

std::string libraryEntryText(const std::string& id, const std::string& lesson, const std::string& root,
                             const std::string& folder, bool found, const std::vector<PastScore>& scores)
{
    std::string s = id + " — " + lesson + "\n  ";
    if (folder.empty())
        s += "(" + root + " folder not given: --" + root + " DIR)";
    else
        s += found ? folder : folder + " (not found)";
    s += "\n";
    // Learners in name order, each one's attempts oldest first.
    std::map<std::string, std::vector<const PastScore*>> byLearner;
    for (const PastScore& p : scores)
        byLearner[p.learner].push_back(&p);
    for (const auto& [learner, list] : byLearner) {
        s += "  " + learner + ":";
        for (const PastScore* p : list)
            s += " " + scoreText(p->score) + " (" + p->when + ")";
        s += "\n";
    }
    if (scores.empty())
        s += "  not tried yet\n";
    return s;
}

std::string replayNote(int step, int steps, const std::string& phase, bool decided, const std::string& at)
{
    std::string s = "Teach replay, step " + std::to_string(step) + " of " + std::to_string(steps) + " (" + phase + ")";
    if (!at.empty())
        s += ", only what was known at " + at;
    s += decided ? ": the verdict as known after this step." : ": not decided yet — the engine chooses at outcome (Last » on the Teach tab: the whole result).";
    return s;
}

std::string replayUndecidedBanner()
{
    return "NOT DECIDED YET";
}

} // namespace fl::present
