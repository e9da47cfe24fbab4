// Scores a learner's marks against an exercise key: 1 for a line that shows
// the initiating event (any tied candidate's line when the answer is a tie),
// 0.5 for another line of the culprit node, 0 otherwise; each with its reason.
#pragma once

#include "exercise/key.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fl::exercise {

// A learner's "this line started it": a file of the bundle and a 1-based line.
struct Mark {
    std::string file;
    uint32_t line = 0;
    friend bool operator==(const Mark&, const Mark&) = default;
};

// "syslog-node-02.log:4" (the last ':' splits, so a path may hold one). Empty and *error set when it is not.
[[nodiscard]] std::optional<Mark> parseMark(std::string_view text, std::string* error);

struct MarkScore {
    Mark mark;                 // as resolved against the key's files (a bare file name is completed)
    double score = 0;
    std::string node;          // the marked file's node, empty when nothing names it
    std::string reason;
};

struct Score {
    std::vector<MarkScore> marks;
    double best = 0;           // the score: the best mark
    double mean = 0;           // marking many lines to find the one lowers it: a teacher sees guessing
};

// Throws BundleError naming `keyPath` and the marked file when a mark names a file the bundle does not have, or
// a line past its end.
[[nodiscard]] Score scoreMarks(const ExerciseKey& key, const std::vector<Mark>& marks, const std::string& keyPath);

[[nodiscard]] nlohmann::ordered_json scoreToJson(const Score& score);

} // namespace fl::exercise
