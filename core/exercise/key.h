// An exercise's answer key: which lines of its bundle show the initiating
// event, on which node, and why every other line the engine matched is not the
// cause. Made from the engine's own result on the bundle and the bundle's label
// (synth's truth, a sample's expected verdict, a real incident's expected.json);
// kept outside the bundle so a learner does not read it. Qt-free: the CLI writes
// and scores it, the workbench's quiz reveals with it.
#pragma once

#include "bundle/truth.h"
#include "engine/engine.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fl::exercise {

inline constexpr const char* kKeyFormat = "faultline-exercise-key/1";

// One line (or multi-line record) of the bundle that the key speaks about.
struct KeyLine {
    std::string file;         // path inside the bundle
    uint32_t line = 0;        // 1-based first line
    uint32_t lineCount = 1;
    std::string node;         // the event's node (a peer's report may sit in another node's file)
    int rank = -1;
    int gpu = -1;
    std::string symptom;
    std::string title;
    std::optional<EvidenceId> evidenceId; // when the result lists it as evidence (written "ev-00019", else "")
    std::string why;          // why it is the cause (root lines) or why it is not (the others)
    friend bool operator==(const KeyLine&, const KeyLine&) = default;
};

struct KeyFile {
    std::string path;
    std::string node;         // empty when nothing names it
    uint64_t lines = 0;
    friend bool operator==(const KeyFile&, const KeyFile&) = default;
};

enum class LabelSource : uint8_t {
    Synth,     // synth's truth: what was injected
    Expected,  // a sample's expected.json: the verdict a maintainer checked
    Incident,  // a real incident's expected.json: the cause its authors established (free text)
};
std::string_view toString(LabelSource);

// What the answer rests on besides the engine.
struct Label {
    LabelSource source = LabelSource::Synth;
    std::optional<Truth> truth;        // Synth and Expected
    std::optional<std::string> culprit; // Incident: culprit_node_or_rank, none when the label says null
    nlohmann::ordered_json document;   // the label as written (synth adds its generator options)
    friend bool operator==(const Label&, const Label&) = default;
};

struct ExerciseKey {
    std::string bundle;                 // the bundle folder, as given
    Label label;
    ResultStatus engineStatus = ResultStatus::Unattributed;
    Domain engineDomain = Domain::Unknown;
    std::string engineSubDomain;
    std::vector<std::string> rootNodes; // a mark on one of their files earns half
    std::vector<KeyLine> root;          // a mark on one of these earns 1 (several: a tie, or repeated lines)
    std::string noLine;                 // why `root` is empty
    std::vector<KeyLine> redHerrings;   // one per symptom that is neither the cause nor downstream of it
    std::vector<KeyLine> lines;         // every other line the engine matched: where it is and why it is no cause
    std::vector<KeyFile> files;
    friend bool operator==(const ExerciseKey&, const ExerciseKey&) = default;
};

// Reads a label file: a synth truth.json, a sample's expected.json (status / domain / root_cause) or a real
// incident's expected.json (culprit_node_or_rank ...). Throws BundleError naming the file.
[[nodiscard]] Label readLabel(const std::string& path);
// The same from a parsed document (a key keeps its label's as written); `path` names it in errors.
[[nodiscard]] Label labelFromJson(const nlohmann::json& doc, const std::string& path);

// The key of `analysis` (which must come from analyze(): it needs the rules) under `label`.
[[nodiscard]] ExerciseKey buildKey(const Analysis& analysis, const Label& label, const std::string& bundle);

[[nodiscard]] nlohmann::ordered_json keyToJson(const ExerciseKey& key);
// Throws BundleError naming `path` on a document that is not a key.
[[nodiscard]] ExerciseKey keyFromJson(const nlohmann::json& doc, const std::string& path);
[[nodiscard]] ExerciseKey readKey(const std::string& path);
// Writes the key (a trailing newline); false with *error naming the file.
bool writeKey(const ExerciseKey& key, const std::string& path, std::string* error);

} // namespace fl::exercise
