// SPDX-License-Identifier: MIT
// Table model over Result::evidence, plus the proxy that filters it by
// role, node, source and free text. Rows are evidence items in result order.
#pragma once

#include "engine/engine.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QSortFilterProxyModel>

#include <memory>
#include <unordered_map>

namespace fl {

class EvidenceModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { TimeColumn, RoleColumn, NodeColumn, RankColumn, SourceColumn, LocationColumn, NoteColumn, ExcerptColumn, NUM_COLUMNS };
    // IdRole: the evidence id as text ("ev-00001"), for display and search.
    enum Roles { IdRole = Qt::UserRole + 1, EventRole, RoleRole, NodeRole, SourceRole, TimeRole, SearchTextRole, NoteRole, BookmarkedRole, BootRelativeRole };

    explicit EvidenceModel(QObject* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Analysis> analysis);
    const EvidenceItem* item(int row) const;
    // O(1) through hashes built once per analysis (Wireshark's number_to_row_):
    // views look evidence up by id and event on every selection.
    int rowOfId(EvidenceId id) const;
    const EvidenceItem* itemById(EvidenceId id) const { return item(rowOfId(id)); }
    QList<int> rowsOfEvent(EventId event) const
    {
        auto it = m_rowsOfEvent.find(event);
        return it == m_rowsOfEvent.end() ? QList<int>() : it->second;
    }
    // Reviewer notes by evidence id, and bookmarked raw lines as "file:line".
    using Notes = std::unordered_map<EvidenceId, QString>;
    void setNotes(Notes notes, QSet<QString> bookmarkedLines);
    static QString lineKey(const QString& file, quint64 line) { return file + QLatin1Char(':') + QString::number(line); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Analysis> m_analysis;
    bool m_anyWallClock = false, m_anyBootRelative = false;  // which bases the time column holds: its heading says
    std::unordered_map<EvidenceId, int> m_rowOfId;
    std::unordered_map<EventId, QList<int>> m_rowsOfEvent;  // rows in result (time) order
    Notes m_notes;
    QString noteOf(EvidenceId id) const;
    QSet<QString> m_bookmarks;
};

class EvidenceFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit EvidenceFilterProxy(QObject* parent = nullptr);
    // -1 / empty: no constraint.
    void setRole(int role);
    void setNode(const QString& node);
    void setSource(int source);
    void setText(const QString& text);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    int m_role = -1;
    int m_source = -1;
    QString m_node;
    QString m_text;
};

} // namespace fl
