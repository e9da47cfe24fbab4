// Symptom families: the compact chain. Events that share a symptom, a role in
// the verdict, a cause and a collective become one node carrying their node and
// rank sets as ranges, first and last time, and a few representatives.
#pragma once

#include "model.h"

#include <string>
#include <string_view>
#include <vector>

namespace fl {


} // namespace fl

namespace fl::detail {

// Per event (indexed by event id): its evidence role, and the root events it
// is linked downstream of (ascending).
struct FamilyInputs {
    std::vector<EvidenceRole> roles;
    std::vector<std::vector<EventId>> rootsOf;
    std::vector<std::string_view> titles; // per event: its symptom's title template ("Xid {xid}"), in the rule set
};

// Builds result.families (sorted: root first, then by role, first time, symptom)
// and result.familyEdges from the events and their edges. Representatives are
// chosen, their evidence ids are filled in later by the report.
void buildFamilies(const std::vector<SymptomEvent>& events, const std::vector<ChainEdge>& edges,
                   const FamilyInputs& in, Result& result);

} // namespace fl::detail
