// The review record in the notes file (schema 3, core/store/notes_store.h): a reviewer confirms the
// engine's verdict or chooses one candidate event with a reason; every decision is appended, none is
// replaced, and the latest is the current one. readNotes() reads them back (ReviewNotes::reviews).
#pragma once

#include "model.h"
#include "present/report.h"

#include <string>

namespace fl::store {

// The login name a decision is recorded under when none is given: $LOGNAME, $USER, else the
// password entry of the real user; empty when none of them names anybody.
std::string loginName();

// The decision `choice` on `result` by `reviewer`, with what it names copied from the result.
// `target` (choose only) is an evidence id of a candidate or its event id as a number.
// False with `error` when the target names no candidate, or a choose has no reason.
[[nodiscard]] bool makeDecision(const Result& result, present::ReviewChoice choice, const std::string& target,
                                const std::string& reason, const std::string& reviewer,
                                present::ReviewDecision& out, std::string& error);

// Appends `decision` to the notes file at `path`, creating it or migrating it to the current schema
// first, and stamps it with the current UTC time (decision.when is set). Refuses, naming the file,
// a decision without a reviewer or a choose without a reason.
[[nodiscard]] bool appendReview(const std::string& path, present::ReviewDecision& decision, std::string& error);

} // namespace fl::store
