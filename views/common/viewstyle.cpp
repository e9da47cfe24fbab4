// SPDX-License-Identifier: MIT
#include "views/common/viewstyle.h"

#include "present/timefmt.h"

#include <QDateTime>

#include <algorithm>

namespace fl::style {

QColor levelColor(Level l)
{
    switch (l) {
    case Root: return QColor(0xd0, 0x1c, 0x1c);
    case Symptom: return QColor(0xf0, 0x8a, 0x00);
    case Interesting: return QColor(0x2a, 0x6f, 0xdb);
    case Suppressed:
    case LevelCount: break;
    }
    return QColor(0xa0, 0xa0, 0xa0);
}

Level EventLevels::operator()(const SymptomEvent& e) const
{
    switch (m_roles(e)) {
    case EvidenceRole::Root: return Root;
    case EvidenceRole::Symptom: return Symptom;
    case EvidenceRole::Interesting: return Interesting;
    case EvidenceRole::Context: break;
    }
    return Suppressed;
}

QColor roleColor(EvidenceRole r)
{
    switch (r) {
    case EvidenceRole::Root: return levelColor(Root);
    case EvidenceRole::Symptom: return levelColor(Symptom);
    case EvidenceRole::Interesting: return levelColor(Interesting);
    case EvidenceRole::Context: break;
    }
    return levelColor(Suppressed);
}

QString levelName(Level l)
{
    switch (l) {
    case Root: return QStringLiteral("root cause");
    case Symptom: return QStringLiteral("symptom");
    case Interesting: return QStringLiteral("interesting");
    case Suppressed:
    case LevelCount: break;
    }
    return QStringLiteral("suppressed");
}

namespace {
QDateTime toDateTime(int64_t ns)
{
    // Floor division so that times before the epoch keep a positive remainder.
    int64_t ms = ns / 1'000'000;
    if (ns % 1'000'000 < 0)
        --ms;
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}
} // namespace

QString utc(int64_t ns, bool withDate)
{
    if (ns == kNoTime)
        return QStringLiteral("—");
    const QDateTime dt = toDateTime(ns);
    return dt.toString(withDate ? QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz") : QStringLiteral("HH:mm:ss.zzz"))
        + (withDate ? QStringLiteral(" UTC") : QString());
}

QString timeText(const Timestamp& t, bool withDate)
{
    if (t.known() && t.basis == TimeBasis::BootRelative)
        return q(formatTime(t));
    return utc(t.ns, withDate);
}

QString intervalText(const Timestamp& t)
{
    const TimeInterval& iv = t.interval;
    if (!iv.bounded() || iv.latestNs <= iv.earliestNs)
        return {};
    const double halfS = static_cast<double>(iv.latestNs - iv.earliestNs) / 2e9;
    return QStringLiteral("%1 … %2 (±%3 s)")
        .arg(timeText({iv.earliestNs, t.basis, {}}, false), timeText({iv.latestNs, t.basis, {}}, false))
        .arg(halfS, 0, 'g', 3);
}

QString timeColumnTitle(bool anyWallClock, bool anyBootRelative)
{
    if (!anyBootRelative)
        return QStringLiteral("Time (UTC)");
    return anyWallClock ? QStringLiteral("Time (UTC, or boot+ s since boot)") : QStringLiteral("Time (s since boot)");
}

QString tickLabel(int64_t ns, int64_t stepNs)
{
    const QDateTime dt = toDateTime(ns);
    if (stepNs >= 86'400'000'000'000)
        return dt.toString(QStringLiteral("yyyy-MM-dd"));
    if (stepNs >= 60'000'000'000)
        return dt.toString(QStringLiteral("HH:mm"));
    if (stepNs >= 1'000'000'000)
        return dt.toString(QStringLiteral("HH:mm:ss"));
    if (stepNs >= 1'000'000)
        return dt.toString(QStringLiteral("HH:mm:ss.zzz"));
    // Below a millisecond the wall clock is the same for every tick: show the fraction.
    const int64_t sub = ((ns % 1'000'000'000) + 1'000'000'000) % 1'000'000'000;
    return dt.toString(QStringLiteral("ss")) + QStringLiteral(".%1").arg(sub, 9, 10, QLatin1Char('0'));
}

QString bootTickLabel(int64_t ns, int64_t stepNs)
{
    const int decimals = stepNs >= 1'000'000'000 ? 0 : stepNs >= 100'000'000 ? 1 : stepNs >= 10'000'000 ? 2 : 3;
    return QStringLiteral("boot+%1s").arg(static_cast<double>(ns) / 1e9, 0, 'f', decimals);
}

} // namespace fl::style
