// A report of one diagnosis for tickets and postmortems (docs/report.md): built
// from a Result — a fresh analysis, or a RESULT.json from the CLI or the service
// read back with resultFromJson (core/engine/result_json.h), so both give the
// same report — plus the reviewer's notes.
// buildReport() writes every sentence; the Markdown and HTML renderers only lay
// the typed Report out and escape it. Everything from logs is hostile text.
#pragma once

#include "model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fl::present {

// The reviewer's side, as the workbench's notes store keeps it (views/notesstore.h).
struct ReviewNote {
    std::string kind;    // "evidence" | "lane"
    std::string target;  // evidence id or lane key
    std::string file;    // evidence notes: the raw file it points at
    uint64_t line = 0;
    std::string text;
    std::string when;    // ISO 8601 as stored
};
struct ReviewBookmark {
    std::string file;
    uint64_t line = 0;
    std::string note;
    std::string when;
};
struct ReviewOverride {
    std::string status, domain, subDomain, rootNode, reason, when;
};
// One reviewer's decision on a diagnosis (core/store/review_store.h keeps them, append-only).
enum class ReviewChoice { Confirm, Choose };
struct ReviewDecision {
    std::string reviewer;
    ReviewChoice choice = ReviewChoice::Confirm;
    // What the decision names, copied from the result when it was made, so the record reads
    // the same after a rule change: the engine's root (confirm) or the chosen candidate (choose).
    std::string status;       // attributed | ambiguous | unattributed
    std::string domain, subDomain, symptom, place;
    std::string evidenceId;   // choose: the candidate's evidence item the reviewer named
    int64_t event = -1;       // choose: the candidate's event id in that result
    std::string engineStatus; // the engine's verdict beside it
    std::string reason;       // required for choose
    std::string when;         // UTC, ISO 8601
};
struct ReviewNotes {
    std::vector<ReviewNote> notes;
    std::vector<ReviewBookmark> bookmarks;
    std::optional<ReviewOverride> verdictOverride;
    std::vector<ReviewDecision> reviews;  // oldest first; the last is the current decision
};

// A picture for the report: SVG or PNG bytes.
struct ReportImage {
    std::string section;   // where it goes: "chain" | "timeline"
    std::string caption;
    std::string mime;      // image/svg+xml | image/png
    std::string bytes;
    std::string fileName;  // Markdown: written beside the report under this name
};

struct ReportFact {
    std::string label, value;
};
struct ReportRawLine {
    std::string where;  // "syslog-node-02.log:17"
    std::string text;   // the raw excerpt, verbatim
};
struct ReportChainGroup {
    std::string from;                 // "nvlink.fatal @ node-02 GPU 0 rank 2, 2026-03-14T10:00:41Z"
    std::vector<std::string> leadsTo; // "nccl.watchdog_timeout on 4 nodes (12 events)"
};
struct ReportCandidate {
    bool chosen = false;
    std::string title, place, time, verdict;
    std::string label;                  // ambiguous: "A", "B", … as the raw lines below name it
    std::vector<ReportRawLine> lines;   // ambiguous: its raw lines (file:line and text), quoted
};
struct ReportNoteLine {
    std::string about;  // "evidence ev-00019 (syslog-node-02.log:17)", "lane node-03", "bookmark syslog:12"
    std::string text;
    std::string when;
};

struct Report {
    std::string reviewLine;           // "Reviewed: ATTRIBUTED gpu / … by alice (engine: AMBIGUOUS)"; empty unreviewed
    std::vector<ReportNoteLine> reviewHistory;  // every decision, oldest first
    std::string title;                // "Faultline report: workload gpt-8b, attempt 1"
    std::string status;               // attributed | ambiguous | unattributed (CSS class, badge)
    std::string headline;             // "ATTRIBUTED: nvlink / nvlink_error"
    std::string summary;
    std::vector<ReportFact> facts;    // outcome, workload, window, source, engine, rules
    std::optional<std::vector<ReportFact>> verdictOverride;  // reviewer's override, reason included
    std::string rootTitle;            // empty without a root cause
    std::vector<ReportFact> rootFacts;
    std::vector<ReportRawLine> rootLines;
    std::string missingHeading;
    std::vector<std::string> missing;
    std::vector<ReportChainGroup> chain;
    size_t chainGroupsLeftOut = 0;
    std::vector<ReportCandidate> candidates;
    std::vector<ReportNoteLine> notes;
    std::vector<std::string> coverage;  // "12 files: 10 ok, 2 skipped", then problem files
    std::vector<std::string> warnings;
};

Report buildReport(const Result& result, const ReviewNotes& notes, const std::string& source);

// One decision in words: "ATTRIBUTED gpu / xid_fatal: gpu.xid_fatal @ node-01 GPU 0 (ev-00012)" or
// "confirmed AMBIGUOUS gpu"; the CLI's history and the report say it the same way.
std::string reviewDecisionText(const ReviewDecision& d);
// Report::reviewLine and reviewHistory from the review decisions (buildReport calls it).
void addReviewToReport(Report& r, const Result& result, const ReviewNotes& review);

// Markdown; each image is linked by its fileName (the caller writes the files beside the report).
std::string reportMarkdown(const Report& report, const std::vector<ReportImage>& images);
// One self-contained HTML page: images as data: URIs, no script, no external resource.
std::string reportHtml(const Report& report, const std::vector<ReportImage>& images);

// The timeline drawn as SVG (nodes as lanes, events as marks; the root cause, the
// other candidates and the downstream symptoms told apart). Empty when no event has a date.
std::string timelineSvg(const Result& result);
// The chain summarised for Graphviz: the root cause and the candidates, and the
// symptoms they led to grouped by symptom id with their counts.
std::string chainDot(const Result& result);

// Escapers, exposed for tests.
std::string htmlEscape(const std::string& text);
std::string base64(const std::string& bytes);

} // namespace fl::present
