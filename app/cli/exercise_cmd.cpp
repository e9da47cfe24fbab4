// `exercise`: answer keys for teaching (core/exercise): a fresh synthetic
// exercise, a key for an existing bundle, and the score of a learner's marks.
#include "commands.h"
#include "exercise_list.h"

#include "exercise/library.h"
#include "exercise/make.h"
#include "exercise/record.h"
#include "exercise/score.h"
#include "synth/synth.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace fl::cli {

namespace {

int fail(const char* sub, const std::string& message)
{
    std::fprintf(stderr, "faultline-cli exercise %s: %s\n", sub, message.c_str());
    return 2;
}

struct NewArgs {
    synth::Options o;
    std::string dir, key;
    std::vector<std::string> ruleDirs;
};

struct FromBundleArgs {
    std::string dir, label, key;
    std::vector<std::string> ruleDirs;
};

struct ScoreArgs {
    std::string key;
    std::vector<std::string> marks;
    std::string learner, notes, exercise;
};

std::string rootLines(const exercise::ExerciseKey& key)
{
    std::string s;
    for (const auto& l : key.root)
        s += (s.empty() ? "" : ", ") + l.file + ":" + std::to_string(l.line);
    return s.empty() ? "no line (" + key.noLine + ")" : s;
}

int newCommand(const NewArgs& a)
{
    const std::string keyPath = a.key.empty() ? exercise::defaultKeyPath(a.dir) : a.key;
    AnalyzeOptions options;
    options.ruleDirs = a.ruleDirs;
    std::string error;
    const auto key = exercise::makeSynthExercise(a.o, a.dir, keyPath, options, &error);
    if (!key)
        return fail("new", error.empty() ? "could not make the exercise" : error);
    std::printf("%s: exercise bundle (fault %s); key %s: %zu root line(s) %s, %zu red herring(s)\n", a.dir.c_str(),
                a.o.fault.c_str(), keyPath.c_str(), key->root.size(), rootLines(*key).c_str(), key->redHerrings.size());
    return 0;
}

int fromBundleCommand(const FromBundleArgs& a)
{
    AnalyzeOptions options;
    options.ruleDirs = a.ruleDirs;
    try {
        const auto key = exercise::makeBundleExercise(a.dir, a.label, a.key, options);
        std::printf("%s: key %s: %zu root line(s) %s, %zu red herring(s)\n", a.dir.c_str(), a.key.c_str(),
                    key.root.size(), rootLines(key).c_str(), key.redHerrings.size());
    } catch (const std::exception& e) {
        return fail("from-bundle", e.what());
    }
    return 0;
}

int scoreCommand(const ScoreArgs& a)
{
    std::vector<exercise::Mark> marks;
    for (const auto& text : a.marks) {
        std::string error;
        const auto m = exercise::parseMark(text, &error);
        if (!m)
            return fail("score", error);
        marks.push_back(*m);
    }
    try {
        const exercise::ExerciseKey key = exercise::readKey(a.key);
        const exercise::Score score = exercise::scoreMarks(key, marks, a.key);
        if (!a.learner.empty()) {
            const std::string notes = a.notes.empty() ? exercise::defaultScoresPath() : a.notes;
            const std::string id = a.exercise.empty() ? exercise::exerciseIdOf(key.bundle) : a.exercise;
            std::string error;
            if (notes.empty())
                return fail("score", "nowhere to record the score: give --notes FILE (no $XDG_DATA_HOME or $HOME)");
            if (!exercise::recordScore(notes, a.learner, id, score, error))
                return fail("score", error);
            std::fprintf(stderr, "%s: recorded %s's score on %s\n", notes.c_str(), a.learner.c_str(), id.c_str());
        }
        const std::string out = exercise::scoreToJson(score).dump(2) + "\n";
        std::fwrite(out.data(), 1, out.size(), stdout);
    } catch (const std::exception& e) {
        return fail("score", e.what());
    }
    return 0;
}

} // namespace

Command addExerciseCommand(CLI::App& cli)
{
    CLI::App* cmd = cli.add_subcommand("exercise", "teaching: make an exercise (a bundle and its answer key, kept "
                                                   "outside it) and score a learner's marks");
    cmd->require_subcommand(1, 1);

    auto n = std::make_shared<NewArgs>();
    CLI::App* make = cmd->add_subcommand("new", "write a synthetic bundle to OUT/ and its answer key to OUT.key.json "
                                                "(no truth.json in the bundle)");
    make->add_option("OUT", n->dir, "the bundle folder to write (new or empty)")->required();
    make->add_option("--key", n->key, "where the key goes (default OUT.key.json; never inside OUT)")
        ->type_name("FILE");
    addSynthOptions(make, n->o);
    addRulesOption(make, n->ruleDirs);

    auto f = std::make_shared<FromBundleArgs>();
    CLI::App* from = cmd->add_subcommand("from-bundle", "write the answer key of an existing bundle (a sample, a real "
                                                        "incident) from its label");
    from->add_option("DIR", f->dir, "the bundle folder")->required();
    from->add_option("KEY", f->key, "the key file to write (outside DIR)")->required();
    from->add_option("--key-from", f->label, "the label: a real incident's or a sample's expected.json, or a "
                                             "synth truth.json")
        ->type_name("FILE")->required();
    addRulesOption(from, f->ruleDirs);

    auto s = std::make_shared<ScoreArgs>();
    CLI::App* score = cmd->add_subcommand("score", "score marks against a key: JSON with 1 for a line of the "
                                                   "initiating event, 0.5 for another line of its node, 0 otherwise, "
                                                   "each with its reason");
    score->add_option("KEY", s->key, "the exercise's key file")->required();
    score->add_option("--mark", s->marks, "a line the learner takes for the initiating event (repeatable)")
        ->type_name("FILE:LINE")->required()->allow_extra_args(false);
    score->add_option("--learner", s->learner, "record the score under this learner's name (the library's past scores)");
    score->add_option("--notes", s->notes, "the notes file the score is recorded in (default "
                                           "$XDG_DATA_HOME/faultline/exercises.faultline-notes.sqlite)")
        ->type_name("FILE");
    score->add_option("--exercise", s->exercise, "the library id to record it under (default: the key's bundle "
                                                 "folder name)");

    auto l = std::make_shared<ListArgs>();
    CLI::App* list = cmd->add_subcommand("list", "the exercise library: each shipped sample and real incident with "
                                                 "its lesson, and the learners' past scores");
    list->add_option("--library", l->library, "the library file (default: the shipped exercises.json)")
        ->type_name("FILE");
    list->add_option("--samples", l->samples, "the samples folder (default: the source tree's samples/)")
        ->type_name("DIR");
    list->add_option("--incidents", l->incidents, "the real-incident folder (caseNN/ folders)")->type_name("DIR");
    list->add_option("--notes", l->notes, "the notes file holding the scores (default "
                                          "$XDG_DATA_HOME/faultline/exercises.faultline-notes.sqlite)")
        ->type_name("FILE");
    list->add_option("--learner", l->learner, "only this learner's scores");
    list->add_flag("--json", l->json, "as JSON");

    return {cmd, [make, from, score, list, n, f, s, l] {
                if (make->parsed())
                    return newCommand(*n);
                if (from->parsed())
                    return fromBundleCommand(*f);
                if (list->parsed())
                    return listExercises(*l);
                (void)score;
                return scoreCommand(*s);
            }};
}

} // namespace fl::cli
