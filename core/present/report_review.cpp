// The review in the report: the first line a ticket reader sees states the reviewer's current decision
// beside the engine's verdict, and the history lists every decision with its author and time.
#include "present/report.h"

namespace fl::present {

namespace {

std::string upper(std::string s)
{
    for (char& c : s)
        if (c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
    return s;
}

} // namespace

std::string reviewDecisionText(const ReviewDecision& d)
{
    std::string text = d.choice == ReviewChoice::Confirm ? "confirmed " : "";
    text += upper(d.status.empty() ? std::string("unknown") : d.status);
    if (!d.domain.empty())
        text += " " + d.domain + (d.subDomain.empty() ? "" : " / " + d.subDomain);
    if (!d.symptom.empty() || !d.place.empty())
        text += ": " + d.symptom + (d.place.empty() ? "" : " @ " + d.place);
    if (d.choice == ReviewChoice::Choose && !d.evidenceId.empty())
        text += " (" + d.evidenceId + ")";
    return text;
}

void addReviewToReport(Report& r, const Result& result, const ReviewNotes& review)
{
    if (review.reviews.empty())
        return;
    const ReviewDecision& current = review.reviews.back();
    r.reviewLine = "Reviewed: " + reviewDecisionText(current) + " by " + current.reviewer + " (engine: " +
                   upper(std::string(toString(result.status))) + ")";
    for (const ReviewDecision& d : review.reviews) {
        std::string about = d.reviewer + (d.choice == ReviewChoice::Confirm ? " confirmed" : " chose");
        if (d.engineStatus != std::string(toString(result.status)))
            about += " (engine then: " + upper(d.engineStatus) + ")";
        r.reviewHistory.push_back(
            {about, reviewDecisionText(d) + (d.reason.empty() ? "" : ". Reason: " + d.reason), d.when});
    }
}

} // namespace fl::present
