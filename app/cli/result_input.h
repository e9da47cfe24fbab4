// What `report` and `review` take as INPUT: a bundle (analysed here) or a result document read back by
// the one reader (resultFromJson), and the notes file kept beside a bundle.
#pragma once

#include "model.h"

#include <string>
#include <vector>

namespace fl::cli {

struct ResultInput {
    std::string input;
    std::vector<std::string> ruleDirs;
    bool noUserRules = false;
};

// The Result of `in.input`; false with `error` naming the file when it cannot be read or analysed.
// `fromBundle` tells which the input was.
[[nodiscard]] bool loadResult(const ResultInput& in, Result& result, bool& fromBundle, std::string& error);

// `<bundle>.faultline-notes.sqlite` beside the bundle, as the workbench keeps it (NotesStore::besidePath).
std::string notesBeside(const std::string& bundle);

} // namespace fl::cli
