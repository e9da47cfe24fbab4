#include "exercise/record.h"

#include "store/notes_store.h"

#include <filesystem>

namespace fl::exercise {

bool recordScore(const std::string& notes, const std::string& learner, const std::string& exerciseId,
                 const Score& score, std::string& error)
{
    std::error_code ec;
    if (const std::filesystem::path dir = std::filesystem::path(notes).parent_path(); !dir.empty())
        std::filesystem::create_directories(dir, ec);
    store::NotesDb db;
    store::ExerciseAttempt attempt{learner, exerciseId, score.best, score.mean, {}, {}};
    for (const auto& m : score.marks)
        attempt.marks += (attempt.marks.empty() ? "" : ", ") + m.mark.file + ":" + std::to_string(m.mark.line);
    if (!db.open(notes, store::NotesDb::Mode::ReadWrite) || !db.addAttempt(attempt)) {
        error = db.error();
        return false;
    }
    return true;
}

} // namespace fl::exercise
