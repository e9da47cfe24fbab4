// The words of an exercise: why its key names no line, and why a learner's
// mark scored what it did. The scorer (core/exercise) decides; it says it here.
#pragma once

#include "model.h"

#include <string>
#include <vector>

namespace fl::present {

// A line as a score names it: "syslog-node-02.log:4 (Fatal NVLink5 error ... on node-02 GPU 0 rank 2)".
struct LineText {
    std::string file;
    unsigned line = 0;
    std::string title;   // empty for a line the engine matched nothing on
    std::string place;   // present::place() of its event
};
std::string lineText(const LineText& l);

// Why the key has no root line.
std::string noLineUnattributed(const std::string& notes);
std::string noLineNoCulprit();
std::string noLineCulpritNotInBundle(const std::string& culprit);
std::string noLineEngineDisagrees(const std::string& engineSaid, const std::vector<std::string>& labelNodes);
// "attributed nvlink/nvlink_error on node-02", "unattributed"
std::string verdictBrief(ResultStatus status, Domain domain, const std::string& subDomain,
                         const std::vector<std::string>& nodes);

// The reason of one mark's score. `roots` are the key's root lines (may be empty); `why` is what the key says
// of the marked line (empty when the engine matched nothing on it).
std::string markOnRoot(const LineText& root, const std::string& whyRoot);
std::string markOnRightNode(const std::string& node, const std::string& why, const std::vector<LineText>& roots,
                            const std::string& noLine);
std::string markElsewhere(const std::string& why, const std::vector<LineText>& roots, const std::string& noLine);

// One learner's scored attempt as the exercise library lists it.
struct PastScore {
    std::string learner;
    double score = 0;
    std::string when;
};
// An exercise of the library: "xid149-nccl — <lesson>", its folder (or why it cannot be opened: `root` not
// given, the folder missing), then one line per learner with their scores, oldest first.
std::string libraryEntryText(const std::string& id, const std::string& lesson, const std::string& root,
                             const std::string& folder, bool found, const std::vector<PastScore>& scores);
// "1", "0.5", "0": a score as the learner sees it.
std::string scoreText(double score);

// The Teach replay as the decision panels say it: "Teach replay, step 3 of 10 (filter): not decided yet — the
// engine chooses at outcome (…)." (`decided` false), or "... (post_outcome): the verdict as known after this step."
// With a replay time (`at`, an ISO time; empty for none), "only what was known at <at>".
std::string replayNote(int step, int steps, const std::string& phase, bool decided, const std::string& at);
// The banner of a verdict not decided yet at a replay step.
std::string replayUndecidedBanner();

} // namespace fl::present
