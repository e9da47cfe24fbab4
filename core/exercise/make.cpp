#include "exercise/make.h"

#include "bundle/bundle.h"

#include <filesystem>

namespace fl::exercise {

namespace fs = std::filesystem;

std::string defaultKeyPath(const std::string& dir)
{
    fs::path p(dir);
    if (!p.has_filename())
        p = p.parent_path(); // "OUT/"
    return p.string() + ".key.json";
}

bool insideFolder(const std::string& path, const std::string& dir)
{
    const fs::path f = fs::absolute(path).lexically_normal();
    const fs::path d = fs::absolute(dir).lexically_normal();
    auto fi = f.begin();
    for (auto di = d.begin(); di != d.end(); ++di, ++fi) {
        if (di->empty()) // the trailing "" of "OUT/"
            continue;
        if (fi == f.end() || *fi != *di)
            return false;
    }
    return true;
}

namespace {

void refuseKeyInside(const std::string& keyPath, const std::string& dir)
{
    if (insideFolder(keyPath, dir))
        throw BundleError(keyPath, "the key would lie inside the bundle folder " + dir +
                                       ", where the learner reads it; write it outside");
}

} // namespace

std::optional<ExerciseKey> makeSynthExercise(synth::Options options, const std::string& dir, const std::string& keyPath,
                                             const AnalyzeOptions& analyzeOptions, std::string* error)
{
    try {
        refuseKeyInside(keyPath, dir);
        std::error_code ec;
        if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec)))
            throw BundleError(dir, "exists and is not an empty folder: an exercise is written to a new one");
        options.writeTruthFile = false;
        const std::optional<Truth> truth = synth::generate(options, dir, error);
        if (!truth)
            return std::nullopt;
        Label label;
        label.source = LabelSource::Synth;
        label.truth = *truth;
        label.document = synth::truthDocument(options, *truth);
        const Analysis analysis = analyze(dir, analyzeOptions);
        ExerciseKey key = buildKey(analysis, label, dir);
        if (!writeKey(key, keyPath, error))
            return std::nullopt;
        return key;
    } catch (const std::exception& e) {
        if (error)
            *error = e.what();
        return std::nullopt;
    }
}

ExerciseKey makeBundleExercise(const std::string& dir, const std::string& labelPath, const std::string& keyPath,
                               const AnalyzeOptions& analyzeOptions)
{
    refuseKeyInside(keyPath, dir);
    const Label label = readLabel(labelPath);
    const Analysis analysis = analyze(dir, analyzeOptions);
    ExerciseKey key = buildKey(analysis, label, dir);
    std::string error;
    if (!writeKey(key, keyPath, &error))
        throw BundleError(keyPath, "cannot write the key");
    return key;
}

} // namespace fl::exercise
