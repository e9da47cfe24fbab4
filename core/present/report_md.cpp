// The report as Markdown (CommonMark + tables). Text from logs and notes is
// backslash-escaped (so no link, HTML tag or emphasis can come from a log line);
// raw lines go in fences longer than any backtick run they hold.
#include "present/report.h"

#include <algorithm>
#include <sstream>

namespace fl::present {

namespace {

std::string md(const std::string& s)
{
    // Characters that open inline markup anywhere; line-start markup is handled below.
    static const std::string kInline = "\\`*_[]<>|~&";
    std::string out;
    out.reserve(s.size() + s.size() / 4);
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        const bool lineStart = i == 0;
        if (c == '\n' || c == '\r' || c == '\t')
            out += ' ';
        else if (static_cast<unsigned char>(c) < 0x20)
            out += "\xEF\xBF\xBD";
        else if (kInline.find(c) != std::string::npos || (lineStart && std::string("#-+=").find(c) != std::string::npos)) {
            out += '\\';
            out += c;
        } else if ((c == '.' || c == ')') && i > 0 && i == s.find_first_not_of("0123456789")) {
            out += '\\';  // "1." or "1)" opening the text would start a list
            out += c;
        } else
            out += c;
    }
    return out;
}

std::string fenced(const std::string& text)
{
    size_t longest = 0, run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(std::max<size_t>(3, longest + 1), '`');
    std::string body;
    for (char c : text)
        body += static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' ? std::string("\xEF\xBF\xBD") : std::string(1, c);
    return fence + "text\n" + body + "\n" + fence + "\n";
}

void facts(std::ostringstream& os, const std::vector<ReportFact>& rows)
{
    os << "| | |\n|---|---|\n";
    for (const ReportFact& f : rows)
        os << "| " << md(f.label) << " | " << md(f.value) << " |\n";
    os << "\n";
}

// First, so a ticket shows the decision before anything else; the engine's verdict stays beside it.
void review(std::ostringstream& os, const Report& r)
{
    if (r.reviewLine.empty())
        return;
    os << "**" << md(r.reviewLine) << "**\n\n";
}

void reviewHistory(std::ostringstream& os, const Report& r)
{
    if (r.reviewHistory.empty())
        return;
    os << "### Review history\n\n| Who | Decision | When (UTC) |\n|---|---|---|\n";
    for (const ReportNoteLine& n : r.reviewHistory)
        os << "| " << md(n.about) << " | " << md(n.text) << " | " << md(n.when) << " |\n";
    os << "\n";
}

void images(std::ostringstream& os, const std::vector<ReportImage>& all, const std::string& section)
{
    for (const ReportImage& img : all)
        if (img.section == section && !img.fileName.empty())
            os << "![" << md(img.caption) << "](<" << img.fileName << ">)\n\n";
}

} // namespace

std::string reportMarkdown(const Report& r, const std::vector<ReportImage>& imgs)
{
    std::ostringstream os;
    review(os, r);
    os << "# " << md(r.title) << "\n\n**" << md(r.headline) << "**\n\n" << md(r.summary) << "\n\n";
    os << "## Verdict\n\n";
    facts(os, r.facts);
    if (r.verdictOverride) {
        os << "### Reviewer's override\n\n";
        facts(os, *r.verdictOverride);
    }
    reviewHistory(os, r);

    os << "## Root cause\n\n";
    if (r.rootTitle.empty()) {
        os << "No root cause was named.\n\n";
    } else {
        os << "### " << md(r.rootTitle) << "\n\n";
        facts(os, r.rootFacts);
        if (!r.rootLines.empty())
            os << "Raw lines:\n\n";
        for (const ReportRawLine& l : r.rootLines)
            os << md(l.where) << "\n\n" << fenced(l.text) << "\n";
    }

    if (!r.missing.empty()) {
        os << "## " << md(r.missingHeading) << "\n\n";
        for (const std::string& m : r.missing)
            os << "- " << md(m) << "\n";
        os << "\n";
    }

    os << "## Symptom chain\n\n";
    images(os, imgs, "chain");
    if (r.chain.empty())
        os << "No symptom was linked to a cause.\n";
    for (const ReportChainGroup& g : r.chain) {
        os << "- " << md(g.from) << "\n";
        for (const std::string& t : g.leadsTo)
            os << "  - → " << md(t) << "\n";
    }
    if (r.chainGroupsLeftOut)
        os << "- … and " << r.chainGroupsLeftOut << " more linked events\n";
    os << "\n";

    if (r.baseline) {
        const BaselineText& b = *r.baseline;
        os << "## Against the baseline\n\n" << md(b.summary) << "\n\n";
        if (!b.verdict.empty())
            os << "**" << md(b.verdict) << "**\n\n";
        auto table = [&os](const char* heading, const std::vector<BaselineLine>& rows) {
            if (rows.empty())
                return;
            os << "### " << heading << "\n\n| | Where | |\n|---|---|---|\n";
            for (const BaselineLine& l : rows)
                os << "| " << md(l.label) << " | " << md(baselineWhere(l)) << " | " << md(l.detail) << " |\n";
            os << "\n";
        };
        table("Candidates", b.candidates);
        table("New symptom families", b.newFamilies);
        table("Also in the baseline", b.alsoFamilies);
        table("Gone (only in the baseline)", b.gone);
        if (!b.newLines.empty()) {
            os << "### " << md(b.newLinesHeading) << "\n\n";
            for (const BaselineLine& l : b.newLines)
                os << fenced(l.label) << md(l.detail) << "\n\n";
        }
    }

    bool timeline = false;
    for (const ReportImage& img : imgs)
        timeline = timeline || (img.section == "timeline" && !img.fileName.empty());
    if (timeline) {
        os << "## Timeline\n\n";
        images(os, imgs, "timeline");
    }

    os << "## Candidates\n\n";
    if (r.candidates.empty()) {
        os << "No initiating event survived filtering.\n\n";
    } else {
        os << "| | Candidate | Where | When | Why it won or lost |\n|---|---|---|---|---|\n";
        for (const ReportCandidate& c : r.candidates)
            os << "| " << (c.chosen ? "★" : md(c.label)) << " | " << md(c.title) << " | " << md(c.place) << " | "
               << md(c.time) << " | " << md(c.verdict) << " |\n";
        os << "\n";
        for (const ReportCandidate& c : r.candidates) {
            if (c.lines.empty())
                continue;
            os << "### " << md(c.label) << ": " << md(c.title) << " on " << md(c.place) << "\n\n";
            for (const ReportRawLine& l : c.lines)
                os << md(l.where) << "\n\n" << fenced(l.text) << "\n";
        }
    }

    if (!r.notes.empty()) {
        os << "## Reviewer's notes\n\n| About | Note | When |\n|---|---|---|\n";
        for (const ReportNoteLine& n : r.notes)
            os << "| " << md(n.about) << " | " << md(n.text) << " | " << md(n.when) << " |\n";
        os << "\n";
    }

    os << "## Coverage\n\n";
    for (const std::string& c : r.coverage)
        os << "- " << md(c) << "\n";
    for (const std::string& w : r.warnings)
        os << "- warning: " << md(w) << "\n";
    return os.str();
}

} // namespace fl::present
