#include "exercise_list.h"

#include "exercise/library.h"
#include "present/exercise_text.h"
#include "store/notes_store.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

namespace fl::cli {

namespace fs = std::filesystem;

namespace {

int fail(const std::string& message)
{
    std::fprintf(stderr, "faultline-cli exercise list: %s\n", message.c_str());
    return 2;
}

} // namespace

int listExercises(const ListArgs& a)
{
    std::vector<exercise::LibraryEntry> library;
    try {
        library = exercise::readLibrary(a.library.empty() ? exercise::defaultLibraryPath() : a.library);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    const std::string samples = a.samples.empty() ? exercise::defaultSamplesDir() : a.samples;
    const std::string notes = a.notes.empty() ? exercise::defaultScoresPath() : a.notes;
    std::vector<store::ExerciseAttempt> attempts;
    std::error_code ec;
    if (!notes.empty() && fs::exists(notes, ec)) {
        store::NotesDb db;
        if (!db.open(notes, store::NotesDb::Mode::ReadOnly))
            return fail(db.error());
        attempts = db.attempts(a.learner);
        if (!db.error().empty())
            return fail(db.error());
    } else if (!a.notes.empty()) {
        return fail(a.notes + ": no such notes file");
    }
    nlohmann::ordered_json doc = nlohmann::ordered_json::array();
    std::string text;
    for (const auto& e : library) {
        const std::string folder = exercise::entryFolder(e, samples, a.incidents);
        const bool found = !folder.empty() && fs::is_directory(folder, ec);
        std::vector<present::PastScore> past;
        nlohmann::ordered_json scores = nlohmann::ordered_json::array();
        for (const auto& t : attempts)
            if (t.exercise == e.id) {
                past.push_back({t.learner, t.score, t.when});
                scores.push_back({{"learner", t.learner}, {"score", t.score}, {"mean", t.mean}, {"marks", t.marks},
                                  {"when", t.when}});
            }
        text += present::libraryEntryText(e.id, e.lesson, e.root, folder, found, past);
        doc.push_back({{"id", e.id}, {"root", e.root}, {"folder", folder.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(folder)},
                       {"found", found}, {"label", e.label}, {"lesson", e.lesson}, {"scores", scores}});
    }
    const std::string out = a.json ? doc.dump(2) + "\n" : text;
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

} // namespace fl::cli
