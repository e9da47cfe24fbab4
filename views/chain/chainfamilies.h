// SPDX-License-Identifier: MIT
// The chain graph's boxes: the engine's symptom families (Result::families,
// core/engine/families.h) that take part in the chain, so that 10,000 ranks
// timing out on the same collective is one box "watchdog timeout · 1,249 nodes
// · 9,992 ranks", not 10,000. The root cause and tied candidates are always
// families of their own. Nothing is regrouped here: the view and the result
// document show the same families. Plain data: no widgets, tested on its own.
#pragma once

#include "model.h"
#include "views/common/viewstyle.h"

#include <QString>

#include <string>
#include <unordered_map>
#include <vector>

namespace fl {

struct ChainFamily {
    FamilyId index;                 // in Result::families
    const SymptomFamily* family = nullptr;
    style::Level level = style::Symptom;
    // The members this result holds: every one after a local analysis, the
    // representatives only in a compact result document (family->count says how many there are).
    std::vector<EventId> events;    // ascending id
    EventId representative;         // the event a click selects: the earliest

    bool complete() const { return events.size() == family->count; }
};

struct ChainFamilyEdge {
    size_t from = 0, to = 0;        // ChainFamilies::families indexes
    std::string rule;
    uint32_t count = 0;             // event edges folded into it
};

struct ChainFamilies {
    std::vector<ChainFamily> families;      // in Result::families order: root first, then by role, first time, symptom
    std::vector<ChainFamilyEdge> edges;     // Result::familyEdges between them
    std::unordered_map<EventId, size_t> familyOf;  // event id -> index in families

    int familyOfEvent(EventId event) const;  // -1: in no family of the chain
};

// The families that take part in the chain: the root families and every family
// on a family edge; without edges, the candidates' families.
ChainFamilies chainFamilies(const Result& result);

// "nccl.watchdog_timeout · 1,249 nodes · 9,992 ranks · 9,992 events"; a
// one-event family is its symptom alone (its box names the place).
QString familyTitle(const SymptomFamily& f);

// A family's place as core/present writes it ("node-[0001-0978,0980-1250] ranks
// 0-7822,7824-9999"), each list capped at `maxGroups` runs for a box.
QString familyPlace(const SymptomFamily& f, int maxGroups);

} // namespace fl
