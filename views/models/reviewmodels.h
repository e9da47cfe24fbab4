// SPDX-License-Identifier: MIT
// The review record and the evidence threads (notes schema 3/4, present/report.h) as item models for the
// Review tab: ReviewHistoryModel lists every decision, oldest first (none is replaced); ThreadModel is the
// discussion of one evidence item as a tree, each reply under the comment it answers.
#pragma once

#include "present/report.h"

#include <QAbstractItemModel>
#include <QAbstractTableModel>

#include <unordered_map>
#include <vector>

namespace fl {

class ReviewHistoryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { WhenColumn, ReviewerColumn, DecisionColumn, NamesColumn, ReasonColumn, NUM_COLUMNS };

    explicit ReviewHistoryModel(QObject* parent = nullptr);
    void setDecisions(std::vector<present::ReviewDecision> decisions);
    const std::vector<present::ReviewDecision>& decisions() const { return m_rows; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<present::ReviewDecision> m_rows;
};

class ThreadModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Columns { TextColumn, AuthorColumn, WhenColumn, NUM_COLUMNS };
    enum Roles { CommentIdRole = Qt::UserRole + 1 };  // ThreadComment::id

    explicit ThreadModel(QObject* parent = nullptr);
    // The comments of one item, in the order written; a reply whose parent is not among them opens a thread.
    void setComments(std::vector<present::ThreadComment> comments);
    const std::vector<present::ThreadComment>& comments() const { return m_comments; }
    QModelIndex indexOfComment(int64_t id) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Position in m_comments + 1 as an index's internal id; 0 is the invisible root.
    std::vector<present::ThreadComment> m_comments;
    std::vector<std::vector<size_t>> m_children;  // per node (0: root, i + 1: comment i), comment positions
    std::vector<size_t> m_parent;                 // per comment: its node (0: opens a thread)
    std::vector<int> m_row;                       // per comment: its row under its parent
};

} // namespace fl
