// SPDX-License-Identifier: MIT
#include "views/models/evidencemodel.h"

#include "views/common/viewstyle.h"

#include <QBrush>
#include <QFont>

namespace fl {

EvidenceModel::EvidenceModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void EvidenceModel::setAnalysis(std::shared_ptr<const Analysis> analysis)
{
    beginResetModel();
    m_analysis = std::move(analysis);
    m_rowOfId.clear();
    m_rowsOfEvent.clear();
    m_anyWallClock = m_anyBootRelative = false;
    if (m_analysis) {
        const auto& ev = m_analysis->result.evidence;
        m_rowOfId.reserve(ev.size());
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev[i].time.known())
                (ev[i].time.basis == TimeBasis::BootRelative ? m_anyBootRelative : m_anyWallClock) = true;
            m_rowOfId.emplace(ev[i].id, static_cast<int>(i));
            m_rowsOfEvent[ev[i].event].append(static_cast<int>(i));
        }
    }
    endResetModel();
}

void EvidenceModel::setNotes(Notes notes, QSet<QString> bookmarkedLines)
{
    m_notes = std::move(notes);
    m_bookmarks = std::move(bookmarkedLines);
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, NUM_COLUMNS - 1));
}

const EvidenceItem* EvidenceModel::item(int row) const
{
    if (!m_analysis || row < 0 || row >= static_cast<int>(m_analysis->result.evidence.size()))
        return nullptr;
    return &m_analysis->result.evidence[static_cast<size_t>(row)];
}

int EvidenceModel::rowOfId(EvidenceId id) const
{
    const auto it = m_rowOfId.find(id);
    return it == m_rowOfId.end() ? -1 : it->second;
}

QString EvidenceModel::noteOf(EvidenceId id) const
{
    const auto it = m_notes.find(id);
    return it == m_notes.end() ? QString() : it->second;
}

int EvidenceModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_analysis ? 0 : static_cast<int>(m_analysis->result.evidence.size());
}

int EvidenceModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant EvidenceModel::data(const QModelIndex& index, int role) const
{
    const EvidenceItem* it = item(index.row());
    if (!it)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn: return style::timeText(it->time, false);
        case RoleColumn: return style::q(toString(it->role));
        case NodeColumn: return style::q(it->node);
        case RankColumn: return it->rank < 0 ? QVariant() : QVariant(it->rank);
        case SourceColumn: return style::q(toString(it->source));
        case LocationColumn: return QStringLiteral("%1:%2").arg(style::q(it->file)).arg(it->ref.line);
        case NoteColumn: {
            // ★ marks a bookmarked line; the note text follows, on one line.
            const bool mark = m_bookmarks.contains(lineKey(style::q(it->file), it->ref.line));
            const QString note = noteOf(it->id).simplified();
            return (mark ? QStringLiteral("★ ") : QString()) + note;
        }
        case ExcerptColumn: return style::q(it->excerpt).left(400);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == NoteColumn && m_notes.contains(it->id))
            return noteOf(it->id);
        return QStringLiteral("%1 · %2\n%3\n%4:%5 (%6)")
            .arg(style::q(toString(it->id)), style::q(it->symptom), style::timeText(it->time), style::q(it->file))
            .arg(it->ref.line)
            .arg(style::q(toString(it->time.basis)));
    case Qt::BackgroundRole:
        if (index.column() == NoteColumn && m_notes.contains(it->id))
            return QBrush(QColor(0xff, 0xf3, 0xc4));
        return {};
    case Qt::ForegroundRole:
        if (index.column() == RoleColumn)
            return QBrush(style::roleColor(it->role));
        return {};
    case Qt::FontRole:
        if (it->role == EvidenceRole::Root) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case IdRole: return style::q(toString(it->id));
    case EventRole: return static_cast<qint64>(it->event.value);
    case RoleRole: return static_cast<int>(it->role);
    case NodeRole: return style::q(it->node);
    case SourceRole: return static_cast<int>(it->source);
    case TimeRole: return static_cast<qint64>(it->time.ns);
    case BootRelativeRole: return it->time.basis == TimeBasis::BootRelative;
    case SearchTextRole:
        // Notes are searchable: "find the lines I marked 'driver bug'".
        return style::q(it->excerpt) + QLatin1Char(' ') + style::q(it->symptom) + QLatin1Char(' ') + style::q(it->file)
            + QLatin1Char(' ') + noteOf(it->id);
    case NoteRole: return noteOf(it->id);
    case BookmarkedRole: return m_bookmarks.contains(lineKey(style::q(it->file), it->ref.line));
    }
    return {};
}

QVariant EvidenceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return style::timeColumnTitle(m_anyWallClock, m_anyBootRelative);
    case RoleColumn: return tr("Role");
    case NodeColumn: return tr("Node");
    case RankColumn: return tr("Rank");
    case SourceColumn: return tr("Source");
    case LocationColumn: return tr("File:line");
    case NoteColumn: return tr("Note");
    case ExcerptColumn: return tr("Excerpt");
    }
    return {};
}

EvidenceFilterProxy::EvidenceFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
}

void EvidenceFilterProxy::setRole(int role)
{
    m_role = role;
    invalidateFilter();
}

void EvidenceFilterProxy::setNode(const QString& node)
{
    m_node = node;
    invalidateFilter();
}

void EvidenceFilterProxy::setSource(int source)
{
    m_source = source;
    invalidateFilter();
}

void EvidenceFilterProxy::setText(const QString& text)
{
    m_text = text;
    invalidateFilter();
}

bool EvidenceFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    const QModelIndex idx = sourceModel()->index(row, 0, parent);
    if (m_role >= 0 && idx.data(EvidenceModel::RoleRole).toInt() != m_role)
        return false;
    if (m_source >= 0 && idx.data(EvidenceModel::SourceRole).toInt() != m_source)
        return false;
    if (!m_node.isEmpty() && idx.data(EvidenceModel::NodeRole).toString() != m_node)
        return false;
    return m_text.isEmpty() || idx.data(EvidenceModel::SearchTextRole).toString().contains(m_text, Qt::CaseInsensitive);
}

bool EvidenceFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    // Time sorts by the number, not by the text (which drops the date).
    // Boot-relative times are ordered only within their node: after every
    // wall-clock time, node by node, never interleaved with 1970.
    if (left.column() == EvidenceModel::TimeColumn) {
        const bool lb = left.data(EvidenceModel::BootRelativeRole).toBool(), rb = right.data(EvidenceModel::BootRelativeRole).toBool();
        if (lb != rb)
            return rb;
        if (lb) {
            const QString ln = left.data(EvidenceModel::NodeRole).toString(), rn = right.data(EvidenceModel::NodeRole).toString();
            if (ln != rn)
                return ln < rn;
        }
        return left.data(EvidenceModel::TimeRole).toLongLong() < right.data(EvidenceModel::TimeRole).toLongLong();
    }
    if (left.column() == EvidenceModel::RoleColumn)
        return left.data(EvidenceModel::RoleRole).toInt() < right.data(EvidenceModel::RoleRole).toInt();
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace fl
