// A workbench state a reviewer hands a colleague ("look here", issue #45 item 5): what was open (a bundle, or
// a session of faultline-service), which tab, which evidence item, which time window and in which mode, as
// a small JSON file (`faultline --state FILE`) or a one-line link (File → Copy link). Qt-free: read and written
// here, applied by the workbench.
#pragma once

#include "model.h"

#include <nlohmann/json.hpp>

#include <string>

namespace fl::store {

inline constexpr const char* kStateFormat = "faultline-state/1";

enum class StateMode : uint8_t {
    Investigate,  // the workbench as it opens
    Review,       // the review record and the compare view at hand
    Quiz,         // the verdict hidden (exercise::quizAnalysis)
};

struct WorkbenchState {
    std::string bundle;                 // a bundle path, or empty when a service session is named
    std::string service, session;       // faultline-service URL and session id
    std::string tab;                    // verdict | explanation | teach | timeline | chain | metrics | compare ...
    std::optional<EvidenceId> selection; // the selected evidence item, written "ev-00019"; none: nothing selected
    int64_t fromNs = kNoTime, toNs = kNoTime;  // the time window (UTC), both or neither
    StateMode mode = StateMode::Investigate;
    int step = -1;                      // the Teach step, -1 for none
    int run = 0;                        // the service session's run (its result) shown; 0: the latest
    int64_t atNs = kNoTime;             // the Teach replay's "only what was known at" moment (UTC); kNoTime: none
    friend bool operator==(const WorkbenchState&, const WorkbenchState&) = default;
};

// The state as a document. A relative bundle path is kept as given.
[[nodiscard]] nlohmann::ordered_json stateToJson(const WorkbenchState& s);
// Throws BundleError naming `path` on a document that is not a state: another format, neither or both of
// bundle and service, a window with one side or FROM after TO, an unknown mode or tab type errors.
[[nodiscard]] WorkbenchState stateFromJson(const nlohmann::json& doc, const std::string& path);
// Reads the file; a relative bundle path is taken from the state file's folder (a state handed over with its
// bundle beside it opens wherever both are copied). Throws BundleError naming the file.
[[nodiscard]] WorkbenchState readState(const std::string& path);
// Writes the file (a trailing newline); false with `error` naming the file.
[[nodiscard]] bool writeState(const WorkbenchState& s, const std::string& path, std::string& error);

// "faultline:?bundle=/data/job1&tab=compare&select=ev-00022&window=2026-03-14T10:00:39Z..2026-03-14T10:00:44Z&mode=review",
// "faultline:?bundle=/data/job1&tab=teach&step=3&at=2026-03-14T10:00:41Z" (a Teach step, only what was known then),
// or "faultline:?service=http://host:8080&session=3f2a&run=2&tab=verdict": the same state as one line for a
// ticket or a chat (values percent-encoded).
[[nodiscard]] std::string stateToLink(const WorkbenchState& s);
// Throws BundleError naming the link ("link") on anything it cannot read.
[[nodiscard]] WorkbenchState stateFromLink(const std::string& link);

std::string_view toString(StateMode);

} // namespace fl::store
