// SPDX-License-Identifier: MIT
// Which analysis a focus belongs to, and a typed evidence id, so that two
// analyses open side by side (a compare view, the service's result next to the
// bundle's) each keep their own focus and an id of one is never taken for the
// other's: "ev-0004" exists in both.
#pragma once

#include <QMetaType>
#include <QString>

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

// EvidenceItem::id in a view. Defined here until core's typed evidence id lands (coretypes, issue #39 item 3);
// then this becomes that type.
struct ViewEvidenceId {
    QString value;  // empty: none
    bool isEmpty() const { return value.isEmpty(); }
    friend bool operator==(const ViewEvidenceId&, const ViewEvidenceId&) = default;
};

} // namespace fl

Q_DECLARE_METATYPE(fl::AnalysisId)
Q_DECLARE_METATYPE(fl::ViewEvidenceId)
