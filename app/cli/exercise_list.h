// `exercise list`: the exercise library with the learners' past scores (exercise/record.h writes them).
#pragma once

#include <string>

namespace fl::cli {

struct ListArgs {
    std::string library, samples, incidents, notes, learner;
    bool json = false;
};

int listExercises(const ListArgs& a);

} // namespace fl::cli
