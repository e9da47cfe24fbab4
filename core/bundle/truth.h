// truth.json: the known answer a bundle can carry, written by `synth` (or by a
// person for a real incident) and read by `faultline-cli eval` and the
// accuracy test. One struct and one reader/writer pair for the one file format.
#pragma once

#include "model.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace fl {

struct Truth {
    ResultStatus status = ResultStatus::Unattributed; // written as attributed | ambiguous | unattributed
    std::optional<Domain> domain;                     // none: the truth names no domain (written as "")
    std::string subDomain, fault;
    std::string culpritNode;
    int culpritRank = -1;
    int culpritGpu = -1;
    std::vector<std::string> alsoAcceptableNodes; // another node that is also a right answer
    std::string notes;                           // what happened, when the bundle cannot show it
    friend bool operator==(const Truth&, const Truth&) = default;
};

// The document's fields in their written order; a writer may append its own
// (synth adds "generator").
nlohmann::ordered_json truthToJson(const Truth& t);

// Reads truth.json; throws BundleError naming the file on a bad document, a
// status that is not one of the three or a domain not in the closed list.
[[nodiscard]] Truth readTruth(const std::string& path);
// A label's domain: none for "", else one of the closed list; throws BundleError naming `path` on other text.
[[nodiscard]] std::optional<Domain> labelDomain(const std::string& text, const std::string& path);
// The same from a parsed document; `path` names it in errors.
[[nodiscard]] Truth truthFromJson(const nlohmann::json& doc, const std::string& path);

} // namespace fl
