// SPDX-License-Identifier: MIT
// Which analysis a focus belongs to, so that two analyses open side by side
// (a compare view, the service's result next to the bundle's) each keep their
// own focus and an id of one is never taken for the other's: "ev-00004"
// (core's EvidenceId) exists in both.
#pragma once

#include "ids.h"

#include <QMetaType>

#include <compare>
#include <cstdint>

namespace fl {

// One per analysis shown, from a process-wide counter; 0 is none (nothing shown yet).
struct AnalysisId {
    uint64_t value = 0;
    static AnalysisId next();
    explicit operator bool() const { return value != 0; }
    friend auto operator<=>(const AnalysisId&, const AnalysisId&) = default;
};

} // namespace fl

Q_DECLARE_METATYPE(fl::AnalysisId)
Q_DECLARE_METATYPE(fl::EvidenceId)
