// Making an exercise: a fresh synthetic bundle with its key beside it, or a
// key for a bundle that already exists (a sample, a real incident).
#pragma once

#include "exercise/key.h"
#include "synth/synth.h"

#include <optional>
#include <string>

namespace fl::exercise {

// Where the key of the bundle folder `dir` goes by default: "OUT.key.json" beside "OUT/".
[[nodiscard]] std::string defaultKeyPath(const std::string& dir);

// Whether `path` lies inside the folder `dir` (after making both absolute and normal), where a learner reading
// the bundle would find it.
[[nodiscard]] bool insideFolder(const std::string& path, const std::string& dir);

// Writes the synthetic bundle to `dir` (which must not exist or be empty), with no truth.json in it, analyses it
// and writes its key to `keyPath` (outside `dir`). Nothing and *error (naming the file) on failure.
[[nodiscard]] std::optional<ExerciseKey> makeSynthExercise(synth::Options options, const std::string& dir,
                                                           const std::string& keyPath,
                                                           const AnalyzeOptions& analyzeOptions, std::string* error);

// The key of an existing bundle under the label file `labelPath`, written to `keyPath` (outside `dir`).
// Throws BundleError / RuleError for unusable input, naming the file.
ExerciseKey makeBundleExercise(const std::string& dir, const std::string& labelPath, const std::string& keyPath,
                               const AnalyzeOptions& analyzeOptions);

} // namespace fl::exercise
