// A learner's scored attempt written where the exercise library reads past scores (a notes file, per learner
// name): by `faultline-cli exercise score --learner` and by the workbench's Reveal alike.
#pragma once

#include "exercise/score.h"

#include <string>

namespace fl::exercise {

// Appends `score` of `learner` on the exercise `exerciseId` to the notes file `notes` (created, with its folder,
// when missing). False with `error` naming the file.
[[nodiscard]] bool recordScore(const std::string& notes, const std::string& learner, const std::string& exerciseId,
                               const Score& score, std::string& error);

} // namespace fl::exercise
