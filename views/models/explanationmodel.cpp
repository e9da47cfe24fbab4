// SPDX-License-Identifier: MIT
#include "views/models/explanationmodel.h"

#include "present/verdict.h"
#include "views/common/viewstyle.h"

#include <QFont>

#include <map>

namespace fl {

// internalId: 0 for a top-level row, 1 + its parent's row for a child.
ExplanationModel::ExplanationModel(QStringList headers, QObject* parent)
    : QAbstractItemModel(parent)
    , m_headers(std::move(headers))
{
}

void ExplanationModel::setRows(std::vector<ExplanationRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_rowOfEvent.clear();
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].event && !m_rowOfEvent.contains(m_rows[i].event->value))
            m_rowOfEvent.insert(m_rows[i].event->value, static_cast<int>(i));
    endResetModel();
}

const ExplanationRow* ExplanationModel::row(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    const quintptr id = index.internalId();
    if (id == 0)
        return index.row() < static_cast<int>(m_rows.size()) ? &m_rows[static_cast<size_t>(index.row())] : nullptr;
    const size_t p = id - 1;
    if (p >= m_rows.size() || index.row() >= static_cast<int>(m_rows[p].children.size()))
        return nullptr;
    return &m_rows[p].children[static_cast<size_t>(index.row())];
}

std::optional<EventId> ExplanationModel::eventAt(const QModelIndex& index) const
{
    const ExplanationRow* r = row(index);
    return r ? r->event : std::nullopt;
}

QModelIndex ExplanationModel::indexOfEvent(EventId event) const
{
    const int row = m_rowOfEvent.value(event.value, -1);
    return row < 0 ? QModelIndex() : createIndex(row, 0, quintptr(0));
}

QModelIndex ExplanationModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    if (parent.internalId() != 0)
        return {};  // two levels only
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex ExplanationModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int ExplanationModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_rows.size());
    if (parent.column() != 0 || parent.internalId() != 0 || parent.row() >= static_cast<int>(m_rows.size()))
        return 0;
    return static_cast<int>(m_rows[static_cast<size_t>(parent.row())].children.size());
}

int ExplanationModel::columnCount(const QModelIndex&) const
{
    return static_cast<int>(m_headers.size());
}

QVariant ExplanationModel::data(const QModelIndex& index, int role) const
{
    const ExplanationRow* r = row(index);
    if (!r)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return index.column() < r->text.size() ? r->text[index.column()] : QString();
    case Qt::ToolTipRole:
        return index.column() == 0 && r->spanned && !r->text.isEmpty() ? r->text.front() : QVariant();
    case Qt::ForegroundRole:
        return r->colour.isValid() ? QVariant(r->colour) : QVariant();
    case Qt::FontRole:
        if (r->bold) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case EventRole:
        return r->event ? QVariant(static_cast<qulonglong>(r->event->value)) : QVariant();
    default:
        return {};
    }
}

void ExplanationModel::setHeader(int section, const QString& text)
{
    if (section < 0 || section >= m_headers.size() || m_headers[section] == text)
        return;
    m_headers[section] = text;
    emit headerDataChanged(Qt::Horizontal, section, section);
}

QVariant ExplanationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= m_headers.size())
        return {};
    return m_headers[section];
}

std::vector<ExplanationRow> candidateRows(const Result& r)
{
    std::vector<ExplanationRow> out;
    const present::CandidateIndex index(r);
    for (const Candidate& c : r.candidates) {
        ExplanationRow row;
        row.text = {style::q(c.title.empty() ? c.symptom : c.title),
                    style::q(present::nodeName(c.node)) + (c.rank >= 0 ? QStringLiteral(" r%1").arg(c.rank) : QString()),
                    style::timeText(c.time, false), QString::number(c.support)};
        row.event = c.event;
        if (c.chosen) {
            row.bold = true;
            row.colour = style::levelColor(style::Root);
        }
        // Why it won or lost, on its own full-width line: the panel is narrow
        // and this is the sentence the reader came for.
        ExplanationRow why;
        why.text = {QStringLiteral("→ ") + style::q(present::candidateVerdict(c, index)), {}, {}, {}};
        why.event = c.event;
        why.colour = QColor(0x55, 0x55, 0x55);
        why.spanned = true;
        row.children.push_back(std::move(why));
        out.push_back(std::move(row));
    }
    return out;
}

std::vector<ExplanationRow> traceRows(const Analysis& a)
{
    std::vector<ExplanationRow> out;
    std::map<std::string, size_t> phases;
    auto phaseRow = [&](const std::string& phase) -> ExplanationRow& {
        auto [it, added] = phases.emplace(phase, out.size());
        if (added) {
            ExplanationRow row;
            row.text = {style::q(phase), {}, {}, {}};
            row.bold = true;
            out.push_back(std::move(row));
        }
        return out[it->second];
    };
    for (const auto& f : a.result.rulesFired) {
        ExplanationRow row;
        row.text = {style::q(f.rule), style::q(f.effect), QString::number(f.count), {}};
        phaseRow(std::string(toString(f.phase))).children.push_back(std::move(row));
    }
    for (const auto& s : a.trace) {
        ExplanationRow row;
        row.text = {QStringLiteral("↳ %1").arg(style::q(s.rule)), style::q(present::traceAction(s)),
                    QString::number(s.events.size()), style::q(s.detail)};
        row.colour = QColor(0x55, 0x55, 0x55);
        if (!s.events.empty())
            row.event = s.events.front();
        phaseRow(std::string(toString(s.phase))).children.push_back(std::move(row));
    }
    return out;
}

} // namespace fl
