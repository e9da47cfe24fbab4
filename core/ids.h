// Strong index types for the things the engine numbers: an EventId cannot be
// passed where an ObservationId or a FileId is expected, and none of them
// converts to or from an integer without saying so. Modelled on heaptrack's
// src/util/indices.h (KDE/heaptrack), without its implicit bool and with
// std::hash so they key unordered containers.
//
// Each id is the position of its item in the vector that owns it
// (Analysis::observations, Result::events, Bundle::files, Result::families):
// `.value` is that position. EvidenceId is the exception noted below.
#pragma once

#ifndef Q_MOC_RUN // Qt 6.4's moc cannot parse <compare> (it stops in <concepts>)
#include <compare>
#endif
#include <cstddef>
#include <cstdint>
#include <functional> // std::hash
#include <ostream>

namespace fl {

template <typename Tag>
struct Id {
    uint32_t value = 0;

    constexpr Id() = default;
    constexpr explicit Id(uint32_t v) : value(v) {}

    friend constexpr bool operator==(Id, Id) = default;
#ifndef Q_MOC_RUN
    friend constexpr auto operator<=>(Id, Id) = default;
#endif
    friend std::ostream& operator<<(std::ostream& os, Id id) { return os << id.value; }
};

using EventId = Id<struct EventTag>;             // SymptomEvent::id: index into the event list
using ObservationId = Id<struct ObservationTag>; // Observation::id: index into the observations
using FileId = Id<struct FileTag>;               // SourceFile::index: index into Bundle::files
using FamilyId = Id<struct FamilyTag>;           // index into Result::families ("fam-0001" is FamilyId(0))
using EvidenceId = Id<struct EvidenceTag>;       // EvidenceItem::id: its number in time order ("ev-00001" is
                                                 // EvidenceId(0)); a document read back may leave gaps, so
                                                 // look items up by id, never index Result::evidence with it

} // namespace fl

template <typename Tag>
struct std::hash<fl::Id<Tag>> {
    size_t operator()(fl::Id<Tag> id) const noexcept { return std::hash<uint32_t>()(id.value); }
};
