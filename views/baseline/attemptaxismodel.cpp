// SPDX-License-Identifier: MIT
#include "views/baseline/attemptaxismodel.h"

#include "present/family_label.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace fl {

namespace {

constexpr size_t kPlaceGroups = 4;  // as the Baseline table's Where

void widen(AttemptSpan& s, int64_t first, int64_t last, uint32_t lines)
{
    s.lines += lines;
    if (first == kNoTime)
        return;
    if (last == kNoTime)
        last = first;
    s.firstNs = s.timed() ? std::min(s.firstNs, first) : first;
    s.lastNs = s.lastNs == kNoTime ? last : std::max(s.lastNs, last);
}

QVariant offset(int64_t ns, int64_t origin)
{
    return ns == kNoTime || origin == kNoTime ? QVariant() : QVariant(static_cast<qlonglong>(ns - origin));
}

} // namespace

std::vector<AttemptAxisRow> AttemptAxisModel::rowsOf(const Result& failed, const BaselineComparison& c, const Result& healthy)
{
    // The healthy attempt's times by symptom: the comparison matched symptoms, at any place for "also in".
    std::map<std::string, AttemptSpan> there;
    for (const auto& f : healthy.families)
        widen(there[f.symptom], f.first.ns, f.last.ns, f.occurrences);
    std::vector<AttemptAxisRow> rows;
    for (const auto& m : c.families) {
        if (m.family.value >= failed.families.size())
            continue;
        const SymptomFamily& f = failed.families[m.family.value];
        AttemptAxisRow r;
        r.kind = m.symptom.mark.match == BaselineMatch::New ? BaselineRow::Kind::NewFamily : BaselineRow::Kind::AlsoFamily;
        r.label = QString::fromStdString(present::familyName(f));
        r.place = QString::fromStdString(present::familyGpuPlace(f, failed.events, kPlaceGroups));
        r.symptom = f.symptom;
        widen(r.here, f.first.ns, f.last.ns, f.occurrences);
        if (r.kind == BaselineRow::Kind::AlsoFamily)
            if (const auto it = there.find(f.symptom); it != there.end())
                r.there = it->second;
        rows.push_back(std::move(r));
    }
    for (const auto& g : c.gone) {
        AttemptAxisRow r;
        r.kind = BaselineRow::Kind::Gone;
        r.label = QString::fromStdString(g.symptom);
        r.symptom = g.symptom;
        if (const auto it = there.find(g.symptom); it != there.end())
            r.there = it->second;
        rows.push_back(std::move(r));
    }
    // What is new leads; within a group, in the order the attempt printed it (the failed one's time, else the
    // baseline's), then by name for one order per result.
    auto key = [](const AttemptAxisRow& r) {
        const int64_t t = r.here.timed() ? r.here.firstNs : r.there.timed() ? r.there.firstNs : INT64_MAX;
        return std::make_tuple(r.kind != BaselineRow::Kind::NewFamily, r.here.timed() ? 0 : 1, t, r.label, r.place);
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const AttemptAxisRow& x, const AttemptAxisRow& y) { return key(x) < key(y); });
    return rows;
}

void AttemptAxisModel::setAttempts(std::vector<AttemptAxisRow> rows, int64_t failedStartNs, int64_t healthyStartNs)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_failedStart = failedStartNs;
    m_healthyStart = healthyStartNs;
    m_failedOrigin = failedStartNs;
    m_healthyOrigin = healthyStartNs;
    m_alignedRow.reset();
    recomputeAxis();
    endResetModel();
}

void AttemptAxisModel::alignAtStart()
{
    m_failedOrigin = m_failedStart;
    m_healthyOrigin = m_healthyStart;
    m_alignedRow.reset();
    recomputeAxis();
    if (!m_rows.empty())
        emit dataChanged(index(0, AxisColumn), index(rowCount() - 1, AxisColumn));
    emit headerDataChanged(Qt::Horizontal, AxisColumn, AxisColumn);
}

bool AttemptAxisModel::alignAt(int r)
{
    if (r < 0 || r >= rowCount() || !m_rows[static_cast<size_t>(r)].here.timed() || !m_rows[static_cast<size_t>(r)].there.timed())
        return false;
    m_failedOrigin = m_rows[static_cast<size_t>(r)].here.firstNs;
    m_healthyOrigin = m_rows[static_cast<size_t>(r)].there.firstNs;
    m_alignedRow = r;
    recomputeAxis();
    emit dataChanged(index(0, AxisColumn), index(rowCount() - 1, AxisColumn));
    emit headerDataChanged(Qt::Horizontal, AxisColumn, AxisColumn);
    return true;
}

void AttemptAxisModel::recomputeAxis()
{
    // From the earlier of the two alignment points (0) or the earliest bar, to the latest bar.
    int64_t first = 0, last = 0;
    auto take = [&](const AttemptSpan& s, int64_t origin) {
        if (!s.timed() || origin == kNoTime)
            return;
        first = std::min(first, s.firstNs - origin);
        last = std::max(last, s.lastNs - origin);
    };
    for (const auto& r : m_rows) {
        take(r.here, m_failedOrigin);
        take(r.there, m_healthyOrigin);
    }
    m_axisFirst = first;
    m_axisLast = std::max(last, first + 1);
}

int AttemptAxisModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AttemptAxisModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString AttemptAxisModel::offsetText(int64_t ns)
{
    const QString sign = ns < 0 ? QStringLiteral("−") : ns > 0 ? QStringLiteral("+") : QString();
    const int64_t s = (ns < 0 ? -ns : ns) / 1'000'000'000;
    if (s >= 3600)
        return sign + tr("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    if (s >= 60)
        return sign + tr("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return sign + tr("%1 s").arg(s);
}

QVariant AttemptAxisModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const AttemptAxisRow& r = m_rows[static_cast<size_t>(index.row())];
    const bool isNew = r.kind == BaselineRow::Kind::NewFamily;
    auto spanText = [](const AttemptSpan& s, int64_t origin) {
        if (!s.timed() || origin == kNoTime)
            return s.lines ? tr("%1 lines, untimed").arg(s.lines) : tr("none");
        return tr("%1 lines, %2 … %3").arg(s.lines).arg(offsetText(s.firstNs - origin), offsetText(s.lastNs - origin));
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StatusColumn: return BaselineModel::statusText(r.kind);
        case LabelColumn: return r.place.isEmpty() ? r.label : r.label + QStringLiteral(" · ") + r.place;
        default: return {};
        }
    case Qt::ToolTipRole:
        return tr("%1\n%2\nthis attempt: %3\nbaseline: %4")
            .arg(r.label, r.place, spanText(r.here, m_failedOrigin), spanText(r.there, m_healthyOrigin));
    case Qt::FontRole:
    case Qt::ForegroundRole:
        return BaselineModel::rowStyle(isNew, role);  // as in the table above
    case HereFirstRole: return offset(r.here.firstNs, m_failedOrigin);
    case HereLastRole: return offset(r.here.lastNs, m_failedOrigin);
    case ThereFirstRole: return offset(r.there.firstNs, m_healthyOrigin);
    case ThereLastRole: return offset(r.there.lastNs, m_healthyOrigin);
    case AxisFirstRole: return static_cast<qlonglong>(m_axisFirst);
    case AxisLastRole: return static_cast<qlonglong>(m_axisLast);
    case NewRole: return isNew;
    default: return {};
    }
}

QVariant AttemptAxisModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StatusColumn: return tr("Against the baseline");
    case LabelColumn: return tr("Symptom family");
    case AxisColumn:
        return tr("This attempt (upper bar) and the baseline (lower), %1 … %2 from %3")
            .arg(offsetText(m_axisFirst), offsetText(m_axisLast),
                 m_alignedRow ? tr("the first line of the aligned family") : tr("their starts"));
    default: return {};
    }
}

} // namespace fl
