// SPDX-License-Identifier: MIT
#include "views/baseline/baselinemodel.h"

#include "present/baseline_text.h"
#include "present/family_label.h"

#include <algorithm>
#include <tuple>

#include <QFont>
#include <QGuiApplication>
#include <QPalette>

namespace fl {

std::vector<BaselineRow> BaselineModel::rowsOf(const Result& result, const BaselineComparison& comparison)
{
    const present::BaselineText text = present::baselineText(result, comparison);
    // The root cause's family leads the new ones (baselineText lists them in the comparison's family order).
    std::string rootFamily;
    if (result.rootCause)
        for (const auto& f : comparison.families)
            if (f.family.value < result.families.size()) {
                const auto& events = result.families[f.family.value].events;
                if (std::binary_search(events.begin(), events.end(), result.rootCause->event)) {
                    rootFamily = present::familyName(result.families[f.family.value]);
                    break;
                }
            }
    std::vector<BaselineRow> rows;
    auto add = [&](BaselineRow::Kind kind, std::vector<present::BaselineLine> lines, bool byTitle) {
        if (byTitle)
            std::stable_sort(lines.begin(), lines.end(), [&](const present::BaselineLine& x, const present::BaselineLine& y) {
                const bool xr = !rootFamily.empty() && x.label == rootFamily;
                const bool yr = !rootFamily.empty() && y.label == rootFamily;
                return std::tie(yr, x.label, x.place, x.suppressedBy, x.detail) <
                       std::tie(xr, y.label, y.place, y.suppressedBy, y.detail);
            });
        for (const auto& l : lines)
            // Two families of one title at one place: the second is a duplicate a rule suppressed, said in its place.
            rows.push_back({kind, QString::fromStdString(l.label), QString::fromStdString(l.detail),
                            QString::fromStdString(present::baselineWhere(l))});
    };
    add(BaselineRow::Kind::NewFamily, text.newFamilies, true);
    add(BaselineRow::Kind::NewLine, text.newLines, false);
    add(BaselineRow::Kind::AlsoFamily, text.alsoFamilies, true);
    add(BaselineRow::Kind::Gone, text.gone, true);
    return rows;
}

void BaselineModel::setRows(std::vector<BaselineRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int BaselineModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int BaselineModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString BaselineModel::statusText(BaselineRow::Kind kind)
{
    switch (kind) {
    case BaselineRow::Kind::NewFamily: return tr("new");
    case BaselineRow::Kind::NewLine: return tr("new line, no rule");
    case BaselineRow::Kind::AlsoFamily: return tr("also in baseline");
    case BaselineRow::Kind::Gone: return tr("only in baseline");
    }
    return {};
}

QVariant BaselineModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const BaselineRow& r = m_rows[static_cast<size_t>(index.row())];
    const bool isNew = r.kind == BaselineRow::Kind::NewFamily || r.kind == BaselineRow::Kind::NewLine;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case StatusColumn: return statusText(r.kind);
        case LabelColumn: return r.label;
        case PlaceColumn: return r.place;
        case DetailColumn: return r.detail;
        default: return {};
        }
    case Qt::ToolTipRole:
        return r.label + QStringLiteral("\n") + r.place + QStringLiteral("\n") + r.detail;
    case Qt::FontRole:
    case Qt::ForegroundRole:
        return rowStyle(isNew, role);
    default:
        return {};
    }
}

QVariant BaselineModel::rowStyle(bool isNew, int role)
{
    if (role == Qt::FontRole && isNew) {
        QFont f;
        f.setBold(true);
        return f;
    }
    // What both attempts have is what the job always prints: dimmed, not hidden.
    if (role == Qt::ForegroundRole && !isNew)
        return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
    return {};
}

QVariant BaselineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StatusColumn: return tr("Against the baseline");
    case LabelColumn: return tr("Symptom or line");
    case PlaceColumn: return tr("Where");
    case DetailColumn: return tr("Lines");
    default: return {};
    }
}

} // namespace fl
