// SPDX-License-Identifier: MIT
// The healthy attempt's own result, kept beside a failed attempt's comparison (Result::baseline) so the Baseline
// tab can put both attempts on one time axis. The comparison says what is new; only the healthy result says when
// the baseline printed what it shares. Held by the views (WorkbenchView::setBaselineAttempt), not by the engine's
// types: a result read from a service or a history database has no second attempt.
#pragma once

#include "engine/engine.h"

#include <QString>

#include <memory>

namespace fl {

struct BaselineAttempt {
    // The comparison it was compared in: a failed analysis shows this attempt only when its Result::baseline is
    // this very object (another open drops it).
    std::shared_ptr<const BaselineComparison> comparison;
    Result result;            // the healthy attempt's
    int64_t startNs = kNoTime;// its first timed line (attemptStartNs)
    QString source;           // its folder, archive or service session, for the tab's headline
};

// Where an attempt began: its earliest timed file line; else its manifest's window start; else its earliest
// symptom. kNoTime when nothing is timed.
int64_t attemptStartNs(const Analysis& analysis);
int64_t attemptStartNs(const Result& result);

// The healthy analysis reduced to what the time axis needs (its result and start), with `comparison`, the failed
// attempt's Result::baseline made against it.
std::shared_ptr<const BaselineAttempt> keepBaselineAttempt(Analysis&& healthy,
                                                           std::shared_ptr<const BaselineComparison> comparison,
                                                           const QString& source);
// A healthy attempt's stored result (a service session's): its start from the result alone.
std::shared_ptr<const BaselineAttempt> keepBaselineAttempt(Result healthy, std::shared_ptr<const BaselineComparison> comparison,
                                                           const QString& source);

} // namespace fl
