// SPDX-License-Identifier: MIT
// The symptom chain grouped into families: one box per (symptom, role,
// collective SeqNum / op, cause), so that 10,000 ranks timing out on the same
// collective is one box "watchdog timeout · 1,249 nodes · 9,992 ranks", not
// 10,000. The root cause and tied candidates are always families of their own.
// Grouped in the view until the engine's own families (issue #9 item 1) land.
// Plain data: no widgets, tested on its own.
#pragma once

#include "model.h"
#include "viewstyle.h"

#include <QString>

#include <string>
#include <unordered_map>
#include <vector>

namespace fl {

struct ChainFamily {
    std::string symptom;
    style::Level level = style::Symptom;
    std::vector<uint32_t> events;   // ascending id
    std::vector<std::string> nodes; // sorted, unique
    std::vector<int> ranks;         // sorted, unique
    // Over the wall-clock times; over the boot-relative ones only when the
    // family has nothing else (then `basis` says so): the two do not mix.
    int64_t firstNs = kNoTime, lastNs = kNoTime;
    TimeBasis basis = TimeBasis::None;
    uint32_t representative = 0;    // the event a click selects: the earliest (then lowest id)
};

struct ChainFamilyEdge {
    size_t from = 0, to = 0;        // family indexes
    std::string rule;
    uint32_t count = 0;             // event edges folded into it
};

struct ChainFamilies {
    std::vector<ChainFamily> families;      // root first, then by level (worst first), first time, symptom
    std::vector<ChainFamilyEdge> edges;     // sorted (from, to, rule)
    std::unordered_map<uint32_t, size_t> familyOf;  // event id -> family index
    bool truncated = false;                 // events left out by chainEvents' cap

    int familyOfEvent(uint32_t event) const;
};

ChainFamilies groupChain(const Result& result);

// "nccl.watchdog_timeout · 1,249 nodes · 9,992 ranks"; a one-event family
// names its place instead.
QString familyTitle(const ChainFamily& f);

} // namespace fl
