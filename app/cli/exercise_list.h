// `exercise list`: the exercise library with the learners' past scores, and the recording of a score.
#pragma once

#include "exercise/score.h"

#include <string>

namespace fl::cli {

struct ListArgs {
    std::string library, samples, incidents, notes, learner;
    bool json = false;
};

int listExercises(const ListArgs& a);

// Appends `score` of `learner` on the exercise `exerciseId` to the notes file `notes` (created when
// missing). False with `error` naming the file.
bool recordScore(const std::string& notes, const std::string& learner, const std::string& exerciseId,
                 const exercise::Score& score, std::string& error);

} // namespace fl::cli
