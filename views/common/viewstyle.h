// SPDX-License-Identifier: MIT
// Colours and text formatting shared by every view, so that "root" is the
// same red everywhere and times are always shown in UTC.
#pragma once

#include "model.h"
#include "present/role.h"

#include <QColor>
#include <QString>

#include <string>
#include <string_view>
#include <vector>

namespace fl::style {

// Mark levels, ordered so that a larger value is worse: per-pixel
// aggregation keeps the maximum.
enum Level : uint8_t { Suppressed = 0, Interesting = 1, Symptom = 2, Root = 3, LevelCount = 4 };

QColor levelColor(Level);
// How an event is drawn everywhere: the engine's own role rule
// (core/present/role.h, the one the evidence list's roles come from), so the
// timeline, the chain and the evidence list cannot disagree about an event.
class EventLevels {
public:
    explicit EventLevels(const Result& r) : m_roles(r) {}
    Level operator()(const SymptomEvent& e) const;

private:
    present::EventRoles m_roles;
};
inline Level eventLevel(const SymptomEvent& e, const Result& r) { return EventLevels(r)(e); }
QColor roleColor(EvidenceRole);
QString levelName(Level);

// "2024-05-01 12:34:56.789 UTC"; "—" for kNoTime.
QString utc(int64_t ns, bool withDate = true);
// A time in its basis: a boot-relative one (dmesg seconds, boot time unknown)
// is not a date and is written as core/present writes it, "boot+6781741.548779s";
// every other basis as utc().
QString timeText(const Timestamp& t, bool withDate = true);
// "12:00:01.000 … 12:00:02.000 (±0.5 s)" when t's interval is wider than the
// time itself says (its ends in t's basis); empty for a point or an unbounded interval.
QString intervalText(const Timestamp& t);
// The heading of a column of times: "Time (UTC)", or, when some are dmesg seconds
// since an unknown boot (timeText's "boot+…s"), a heading that says so.
QString timeColumnTitle(bool anyWallClock, bool anyBootRelative);
// Label for a tick of the given step: drops the date and sub-second digits it does not need.
QString tickLabel(int64_t ns, int64_t stepNs);
// The same on a boot-relative axis: "boot+120s", "boot+120.5s".
QString bootTickLabel(int64_t ns, int64_t stepNs);

inline QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
inline QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace fl::style
