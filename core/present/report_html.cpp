// The report as one self-contained HTML page. Every string that came from a log,
// a result file or a note goes through htmlEscape; images are <img> with data:
// URIs (an SVG shown through <img> runs no script), and a Content-Security-Policy
// forbids any script or outside resource should something slip through.
#include "present/report.h"

#include <sstream>

namespace fl::present {

namespace {

const char* const kStyle = R"CSS(
body { font: 14px/1.45 "DejaVu Sans", system-ui, sans-serif; color: #1d2330; margin: 0; background: #f4f5f7; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 32px 48px; background: #fff; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid #d8dce3; }
h3 { font-size: 15px; margin: 12px 0 6px; }
.badge { display: inline-block; padding: 4px 10px; border-radius: 4px; font-weight: bold; color: #fff; }
.attributed .badge { background: #b3261e; }
.ambiguous .badge { background: #b26a00; }
.unattributed .badge, .unknown .badge { background: #5f6673; }
.summary { font-size: 15px; margin: 10px 0 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid #eceef2; }
table.facts th { width: 150px; color: #5f6673; font-weight: normal; }
tr.chosen td { background: #fdf0ef; font-weight: bold; }
pre { background: #1d2330; color: #e8eaef; padding: 8px 10px; border-radius: 4px; overflow-x: auto;
      white-space: pre-wrap; word-break: break-all; font: 12px/1.4 "DejaVu Sans Mono", monospace; margin: 4px 0 10px; }
.where { font: 12px "DejaVu Sans Mono", monospace; color: #5f6673; }
.override { border-left: 4px solid #b26a00; background: #fff8ec; padding: 6px 12px; margin-top: 16px; }
.reviewed { font-weight: bold; border-left: 4px solid #1d2330; padding: 6px 12px; margin: 0 0 12px; background: #eef0f4; }
figure { margin: 8px 0; }
figure img { max-width: 100%; border: 1px solid #d8dce3; }
figcaption { color: #5f6673; font-size: 12px; }
footer { color: #5f6673; font-size: 12px; margin-top: 32px; }
)CSS";

std::string e(const std::string& s)
{
    return htmlEscape(s);
}

void facts(std::ostringstream& os, const std::vector<ReportFact>& rows)
{
    os << "<table class=\"facts\">\n";
    for (const ReportFact& f : rows)
        os << "<tr><th>" << e(f.label) << "</th><td>" << e(f.value) << "</td></tr>\n";
    os << "</table>\n";
}

// At the top of the page, so a ticket shows the decision first; the engine's verdict stays beside it.
void review(std::ostringstream& os, const Report& r)
{
    if (!r.reviewLine.empty())
        os << "<p class=\"reviewed\">" << e(r.reviewLine) << "</p>\n";
}

void reviewHistory(std::ostringstream& os, const Report& r)
{
    if (r.reviewHistory.empty())
        return;
    os << "<div class=\"override\">\n<h3>Review history</h3>\n<table>\n"
          "<tr><th>Who</th><th>Decision</th><th>When (UTC)</th></tr>\n";
    for (const ReportNoteLine& n : r.reviewHistory)
        os << "<tr><td>" << e(n.about) << "</td><td>" << e(n.text) << "</td><td>" << e(n.when) << "</td></tr>\n";
    os << "</table>\n</div>\n";
}

void images(std::ostringstream& os, const std::vector<ReportImage>& all, const std::string& section)
{
    for (const ReportImage& img : all) {
        if (img.section != section || img.bytes.empty())
            continue;
        const std::string mime = img.mime == "image/png" ? "image/png" : "image/svg+xml";
        os << "<figure><img alt=\"" << e(img.caption) << "\" src=\"data:" << mime << ";base64," << base64(img.bytes)
           << "\"><figcaption>" << e(img.caption) << "</figcaption></figure>\n";
    }
}

} // namespace

std::string htmlEscape(const std::string& text)
{
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
            // Control characters other than tab and newline have no business in a page.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
                out += "\xEF\xBF\xBD";
            else
                out += c;
        }
    }
    return out;
}

std::string base64(const std::string& bytes)
{
    static const char* const kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
        out += kAlphabet[v >> 18 & 63];
        out += kAlphabet[v >> 12 & 63];
        out += kAlphabet[v >> 6 & 63];
        out += kAlphabet[v & 63];
    }
    if (i < bytes.size()) {
        uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        if (i + 1 < bytes.size())
            v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += kAlphabet[v >> 18 & 63];
        out += kAlphabet[v >> 12 & 63];
        out += i + 1 < bytes.size() ? kAlphabet[v >> 6 & 63] : '=';
        out += '=';
    }
    return out;
}

std::string reportHtml(const Report& r, const std::vector<ReportImage>& imgs)
{
    std::ostringstream os;
    os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
          "style-src 'unsafe-inline'\">\n"
       << "<title>" << e(r.title) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n<main>\n";
    review(os, r);
    os << "<header class=\"" << e(r.status) << "\">\n<h1>" << e(r.title) << "</h1>\n<span class=\"badge\">"
       << e(r.headline) << "</span>\n<p class=\"summary\">" << e(r.summary) << "</p>\n</header>\n";

    os << "<section>\n<h2>Verdict</h2>\n";
    facts(os, r.facts);
    if (r.verdictOverride) {
        os << "<div class=\"override\">\n<h3>Reviewer's override</h3>\n";
        facts(os, *r.verdictOverride);
        os << "</div>\n";
    }
    reviewHistory(os, r);
    os << "</section>\n";

    os << "<section>\n<h2>Root cause</h2>\n";
    if (r.rootTitle.empty()) {
        os << "<p>No root cause was named.</p>\n";
    } else {
        os << "<h3>" << e(r.rootTitle) << "</h3>\n";
        facts(os, r.rootFacts);
        if (!r.rootLines.empty())
            os << "<h3>Raw lines</h3>\n";
        for (const ReportRawLine& l : r.rootLines)
            os << "<div class=\"where\">" << e(l.where) << "</div>\n<pre>" << e(l.text) << "</pre>\n";
    }
    os << "</section>\n";

    if (!r.missing.empty()) {
        os << "<section>\n<h2>" << e(r.missingHeading) << "</h2>\n<ul>\n";
        for (const std::string& m : r.missing)
            os << "<li>" << e(m) << "</li>\n";
        os << "</ul>\n</section>\n";
    }

    os << "<section>\n<h2>Symptom chain</h2>\n";
    images(os, imgs, "chain");
    if (r.chain.empty())
        os << "<p>No symptom was linked to a cause.</p>\n";
    os << "<ul>\n";
    for (const ReportChainGroup& g : r.chain) {
        os << "<li>" << e(g.from) << "\n<ul>\n";
        for (const std::string& t : g.leadsTo)
            os << "<li>&rarr; " << e(t) << "</li>\n";
        os << "</ul></li>\n";
    }
    if (r.chainGroupsLeftOut)
        os << "<li>… and " << r.chainGroupsLeftOut << " more linked events</li>\n";
    os << "</ul>\n</section>\n";

    if (r.baseline) {
        const BaselineText& b = *r.baseline;
        os << "<section>\n<h2>Against the baseline</h2>\n<p>" << e(b.summary) << "</p>\n";
        if (!b.verdict.empty())
            os << "<p><strong>" << e(b.verdict) << "</strong></p>\n";
        auto table = [&os](const char* heading, const std::vector<BaselineLine>& rows, const char* cls) {
            if (rows.empty())
                return;
            os << "<h3>" << heading << "</h3>\n<table>\n";
            for (const BaselineLine& l : rows)
                os << "<tr class=\"" << cls << "\"><td>" << e(l.label) << "</td><td class=\"where\">" << e(baselineWhere(l))
                   << "</td><td>" << e(l.detail) << "</td></tr>\n";
            os << "</table>\n";
        };
        table("Candidates", b.candidates, "baseline-candidate");
        table("New symptom families", b.newFamilies, "baseline-new");
        table("Also in the baseline", b.alsoFamilies, "baseline-also");
        table("Gone (only in the baseline)", b.gone, "baseline-gone");
        if (!b.newLines.empty()) {
            os << "<h3>" << e(b.newLinesHeading) << "</h3>\n";
            for (const BaselineLine& l : b.newLines)
                os << "<pre>" << e(l.label) << "</pre>\n<div class=\"where\">" << e(l.detail) << "</div>\n";
        }
        os << "</section>\n";
    }

    os << "<section>\n<h2>Timeline</h2>\n";
    images(os, imgs, "timeline");
    os << "</section>\n";

    os << "<section>\n<h2>Candidates</h2>\n";
    if (r.candidates.empty()) {
        os << "<p>No initiating event survived filtering.</p>\n";
    } else {
        os << "<table>\n<tr><th></th><th>Candidate</th><th>Where</th><th>When</th><th>Why it won or lost</th></tr>\n";
        for (const ReportCandidate& c : r.candidates)
            os << "<tr" << (c.chosen ? " class=\"chosen\"" : "") << "><td>" << (c.chosen ? "&#9733;" : e(c.label))
               << "</td><td>" << e(c.title) << "</td><td>" << e(c.place) << "</td><td>" << e(c.time) << "</td><td>"
               << e(c.verdict) << "</td></tr>\n";
        os << "</table>\n";
        for (const ReportCandidate& c : r.candidates) {
            if (c.lines.empty())
                continue;
            os << "<h3>" << e(c.label) << ": " << e(c.title) << " on " << e(c.place) << "</h3>\n";
            for (const ReportRawLine& l : c.lines)
                os << "<div class=\"where\">" << e(l.where) << "</div>\n<pre>" << e(l.text) << "</pre>\n";
        }
    }
    os << "</section>\n";

    if (!r.notes.empty()) {
        os << "<section>\n<h2>Reviewer's notes</h2>\n<table>\n<tr><th>About</th><th>Note</th><th>When</th></tr>\n";
        for (const ReportNoteLine& n : r.notes)
            os << "<tr><td>" << e(n.about) << "</td><td>" << e(n.text) << "</td><td>" << e(n.when) << "</td></tr>\n";
        os << "</table>\n</section>\n";
    }

    os << "<section>\n<h2>Coverage</h2>\n<ul>\n";
    for (const std::string& c : r.coverage)
        os << "<li>" << e(c) << "</li>\n";
    for (const std::string& w : r.warnings)
        os << "<li>warning: " << e(w) << "</li>\n";
    os << "</ul>\n</section>\n";
    os << "<footer>Made by Faultline from the result document; the raw lines are quoted verbatim.</footer>\n"
          "</main>\n</body>\n</html>\n";
    return os.str();
}

} // namespace fl::present
