// SPDX-License-Identifier: MIT
#include "views/models/reviewmodels.h"

#include "views/common/viewstyle.h"

namespace fl {

namespace {
// "2026-12-07 15:36" of "2026-12-07T15:36:36.667Z": what a narrow column has room for (the tooltip has all).
QString shortTime(const std::string& iso)
{
    QString t = style::q(iso).left(16);
    if (t.size() > 10 && t[10] == QLatin1Char('T'))
        t[10] = QLatin1Char(' ');
    return t;
}
} // namespace

ReviewHistoryModel::ReviewHistoryModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ReviewHistoryModel::setDecisions(std::vector<present::ReviewDecision> decisions)
{
    beginResetModel();
    m_rows = std::move(decisions);
    endResetModel();
}

int ReviewHistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ReviewHistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ReviewHistoryModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const auto& d = m_rows[static_cast<size_t>(index.row())];
    switch (index.column()) {
    case WhenColumn: return role == Qt::DisplayRole ? shortTime(d.when) : style::q(d.when);
    case ReviewerColumn: return style::q(d.reviewer);
    case DecisionColumn:
        return d.choice == present::ReviewChoice::Confirm ? tr("confirmed %1").arg(style::q(d.status))
                                                          : tr("chose %1").arg(style::q(d.evidenceId));
    case NamesColumn: {
        QStringList parts;
        for (const std::string* s : {&d.domain, &d.symptom, &d.place})
            if (!s->empty())
                parts << style::q(*s);
        return parts.join(QStringLiteral(" · ")) + tr(" (engine: %1)").arg(style::q(d.engineStatus));
    }
    case ReasonColumn: return style::q(d.reason);
    default: return {};
    }
}

QVariant ReviewHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= NUM_COLUMNS)
        return {};
    static const char* const names[] = {QT_TR_NOOP("When (UTC)"), QT_TR_NOOP("Reviewer"), QT_TR_NOOP("Decision"),
                                        QT_TR_NOOP("Names"), QT_TR_NOOP("Reason")};
    return tr(names[section]);
}

ThreadModel::ThreadModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void ThreadModel::setComments(std::vector<present::ThreadComment> comments)
{
    beginResetModel();
    m_comments = std::move(comments);
    std::unordered_map<int64_t, size_t> at;  // comment id -> position
    for (size_t i = 0; i < m_comments.size(); ++i)
        at.emplace(m_comments[i].id, i);
    m_children.assign(m_comments.size() + 1, {});
    m_parent.assign(m_comments.size(), 0);
    m_row.assign(m_comments.size(), 0);
    for (size_t i = 0; i < m_comments.size(); ++i) {
        const auto p = at.find(m_comments[i].parent);
        // Only an earlier comment can be answered: a cycle in a damaged file cannot hang the tree.
        const size_t node = m_comments[i].parent != 0 && p != at.end() && p->second < i ? p->second + 1 : 0;
        m_parent[i] = node;
        m_row[i] = static_cast<int>(m_children[node].size());
        m_children[node].push_back(i);
    }
    endResetModel();
}

QModelIndex ThreadModel::indexOfComment(int64_t id) const
{
    for (size_t i = 0; i < m_comments.size(); ++i)
        if (m_comments[i].id == id)
            return createIndex(m_row[i], 0, static_cast<quintptr>(i + 1));
    return {};
}

QModelIndex ThreadModel::index(int row, int column, const QModelIndex& parent) const
{
    if (row < 0 || column < 0 || column >= NUM_COLUMNS || (parent.isValid() && parent.column() != 0))
        return {};
    const size_t node = parent.isValid() ? static_cast<size_t>(parent.internalId()) : 0;
    if (node >= m_children.size() || static_cast<size_t>(row) >= m_children[node].size())
        return {};
    return createIndex(row, column, static_cast<quintptr>(m_children[node][static_cast<size_t>(row)] + 1));
}

QModelIndex ThreadModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    const size_t node = m_parent[static_cast<size_t>(child.internalId()) - 1];
    if (node == 0)
        return {};
    return createIndex(m_row[node - 1], 0, static_cast<quintptr>(node));
}

int ThreadModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const size_t node = parent.isValid() ? static_cast<size_t>(parent.internalId()) : 0;
    return node < m_children.size() ? static_cast<int>(m_children[node].size()) : 0;
}

int ThreadModel::columnCount(const QModelIndex&) const
{
    return NUM_COLUMNS;
}

QVariant ThreadModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto& c = m_comments[static_cast<size_t>(index.internalId()) - 1];
    if (role == CommentIdRole)
        return static_cast<qlonglong>(c.id);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case TextColumn: return style::q(c.text);
    case AuthorColumn: return style::q(c.author);
    case WhenColumn: return role == Qt::DisplayRole ? shortTime(c.when) : style::q(c.when);
    default: return {};
    }
}

QVariant ThreadModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= NUM_COLUMNS)
        return {};
    static const char* const names[] = {QT_TR_NOOP("Comment"), QT_TR_NOOP("Author"), QT_TR_NOOP("When (UTC)")};
    return tr(names[section]);
}

} // namespace fl
