// SPDX-License-Identifier: MIT
// Both attempts on one time axis (the Baseline tab's lower table): one row per symptom family of the failed attempt
// and per symptom only the baseline has, each with when the failed attempt printed it and when the healthy attempt
// printed the same symptom, as offsets from an alignment point — their starts, or the first time each printed a
// chosen shared symptom. New families are drawn strong, shared ones dimmed (AttemptAxisDelegate).
#pragma once

#include "views/baseline/baselinemodel.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace fl {

struct BaselineAttempt;

// First and last time an attempt printed a symptom, on that attempt's own clock.
struct AttemptSpan {
    int64_t firstNs = kNoTime;
    int64_t lastNs = kNoTime;
    uint32_t lines = 0;
    bool timed() const { return firstNs != kNoTime; }
};

struct AttemptAxisRow {
    BaselineRow::Kind kind = BaselineRow::Kind::NewFamily;  // NewFamily, AlsoFamily or Gone
    QString label;
    QString place;
    std::string symptom;
    AttemptSpan here;   // the failed attempt's family
    AttemptSpan there;  // the healthy attempt's events of the same symptom (any place)
};

class AttemptAxisModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { StatusColumn, LabelColumn, AxisColumn, ColumnCount };
    // Offsets from the alignment point (qlonglong ns; invalid when that attempt has no timed line of it), and the
    // axis's ends, for the delegate that draws the bars.
    enum Role {
        HereFirstRole = Qt::UserRole + 1,
        HereLastRole,
        ThereFirstRole,
        ThereLastRole,
        AxisFirstRole,
        AxisLastRole,
        NewRole,  // bool: drawn strong
    };
    using QAbstractTableModel::QAbstractTableModel;

    // New families first (by first time), then the shared ones and what only the baseline has (by first time).
    static std::vector<AttemptAxisRow> rowsOf(const Result& failed, const BaselineComparison& comparison,
                                              const Result& healthy);
    // `failedStartNs`, `healthyStartNs`: where each attempt began (attemptStartNs); aligned there.
    void setAttempts(std::vector<AttemptAxisRow> rows, int64_t failedStartNs, int64_t healthyStartNs);
    const AttemptAxisRow& row(int r) const { return m_rows[static_cast<size_t>(r)]; }

    // Aligns both attempts at their starts.
    void alignAtStart();
    // Aligns both at the first time each printed row `r`'s symptom; false (nothing changes) when one of them
    // has no timed line of it (a new family, a symptom gone).
    [[nodiscard]] bool alignAt(int r);
    std::optional<int> alignedRow() const { return m_alignedRow; }
    // The alignment point on each attempt's own clock.
    int64_t failedOriginNs() const { return m_failedOrigin; }
    int64_t healthyOriginNs() const { return m_healthyOrigin; }
    int64_t axisFirstNs() const { return m_axisFirst; }
    int64_t axisLastNs() const { return m_axisLast; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "+1 h 02 min", "−12 s", "0 s": an offset from the alignment point.
    static QString offsetText(int64_t ns);

private:
    void recomputeAxis();
    std::vector<AttemptAxisRow> m_rows;
    int64_t m_failedStart = kNoTime, m_healthyStart = kNoTime;
    int64_t m_failedOrigin = kNoTime, m_healthyOrigin = kNoTime;
    int64_t m_axisFirst = 0, m_axisLast = 0;
    std::optional<int> m_alignedRow;
};

} // namespace fl
