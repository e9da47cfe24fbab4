// The versioned result document (docs/result-schema.md, resources/result.schema.json).
#pragma once

#include "model.h"

#include <nlohmann/json.hpp>
#include <string>

namespace fl {

// Typed ids are written as their number (found by nlohmann's ADL lookup)...
template <typename Tag>
void to_json(nlohmann::json& j, Id<Tag> id)
{
    j = id.value;
}
// ...but for an evidence id, which documents write as text ("ev-00001").
inline void to_json(nlohmann::json& j, EvidenceId id)
{
    j = toString(id);
}

struct ResultJsonOptions {
    // Also write every symptom event and event edge (symptom_chain.nodes / .edges)
    // and each family's member ids. Off: the chain is its families only, which
    // stays small at 10,000 ranks.
    bool detail = false;
};

nlohmann::json resultToJson(const Result& result, const ResultJsonOptions& options = {});
// Stable text: sorted keys, two-space indent, invalid UTF-8 replaced, trailing newline.
std::string resultToString(const Result& result, const ResultJsonOptions& options = {});
// A result document read back (core/engine/result_read.cpp), e.g. one kept by
// faultline-service. Per-event chain nodes and edges only when the document has
// them (--detail); otherwise Result::events holds one event per evidence line's
// event, enough for the views. A candidate's outcome (why it won or lost) is
// read from its `outcome`; a document older than that field tells it only for
// the chosen root cause. Evidence RawRef::file indexes
// Result::connectors. Throws std::invalid_argument when `doc` is not a result document.
Result resultFromJson(const nlohmann::json& doc);
// "fam-0001" for FamilyId(0).
std::string familyId(FamilyId family);

} // namespace fl
