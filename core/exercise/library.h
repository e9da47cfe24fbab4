// The exercise library (issue #44 item 4): the shipped samples and the real incidents a teacher can hand out,
// each with its one-line lesson, read from a data file (resources/exercises.json). The learners' past scores
// are kept in a notes file (core/store, ExerciseAttempt), by default one per user beside their other data.
#pragma once

#include <string>
#include <vector>

namespace fl::exercise {

inline constexpr const char* kLibraryFormat = "faultline-exercise-library/1";

struct LibraryEntry {
    std::string id;       // "xid149-nccl", "case09": what scores are recorded under
    std::string root;     // "samples" | "incidents": which folder `folder` is in
    std::string folder;   // the bundle folder, relative to its root
    std::string label;    // its label file inside the folder (expected.json)
    std::string lesson;   // one line: the skill it teaches, never the answer
};

// Throws BundleError naming `path` (and the entry) when the file is unreadable, not a library, or an entry
// lacks an id, a folder, a lesson, or names an unknown root; ids are unique.
[[nodiscard]] std::vector<LibraryEntry> readLibrary(const std::string& path);

// share/faultline/exercises.json of an installed program, else the source tree's resources/exercises.json.
std::string defaultLibraryPath();
// The source tree's samples/ when run from a build tree; empty for an installed program (give it).
std::string defaultSamplesDir();
// $XDG_DATA_HOME/faultline/exercises.faultline-notes.sqlite (~/.local/share when unset): where scores go
// when no notes file is named.
std::string defaultScoresPath();

// The entry's bundle folder under `samplesDir` or `incidentsDir`; empty when that root was not given.
std::string entryFolder(const LibraryEntry& e, const std::string& samplesDir, const std::string& incidentsDir);

// The library id a key's bundle is recorded under: its folder's name ("samples/xid149-nccl/" -> "xid149-nccl").
std::string exerciseIdOf(const std::string& bundlePath);

} // namespace fl::exercise
