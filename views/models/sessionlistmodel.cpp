// SPDX-License-Identifier: MIT
#include "views/models/sessionlistmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace fl {

namespace {
QString text(const nlohmann::json& j, const char* key)
{
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString();
}
int number(const nlohmann::json& j, const char* key, int fallback)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer())
        return fallback;
    const int64_t v = it->get<int64_t>();
    return v < INT32_MIN || v > INT32_MAX ? fallback : static_cast<int>(v);
}
} // namespace

void SessionListModel::setSessions(const nlohmann::json& body)
{
    beginResetModel();
    m_sessions.clear();
    m_rowOf.clear();
    const auto list = body.is_object() ? body.find("sessions") : body.end();
    if (body.is_object() && list != body.end() && list->is_array())
        for (const auto& s : *list) {
            if (!s.is_object() || text(s, "session_id").isEmpty())
                continue;
            ServiceSession row{text(s, "session_id"), text(s, "workload_id"), text(s, "status"), text(s, "domain"),
                               text(s, "created_at"), {}, number(s, "attempt", -1), number(s, "latest_run", 0)};
            if (auto n = s.find("nodes"); n != s.end() && n->is_array()) {
                QStringList nodes;
                for (const auto& node : *n)
                    if (node.is_string())
                        nodes << QString::fromStdString(node.get<std::string>());
                row.nodes = nodes.join(QStringLiteral(", "));
            }
            if (!m_rowOf.contains(row.id))
                m_rowOf.insert(row.id, static_cast<int>(m_sessions.size()));
            m_sessions.push_back(std::move(row));
        }
    endResetModel();
}

void SessionListModel::setOpenSession(const QString& id)
{
    const int before = rowOfSession(m_open);
    m_open = id;
    for (const int row : {before, rowOfSession(id)})
        if (row >= 0)
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1), {Qt::FontRole});
}

const ServiceSession* SessionListModel::session(int row) const
{
    return row >= 0 && row < static_cast<int>(m_sessions.size()) ? &m_sessions[static_cast<size_t>(row)] : nullptr;
}

int SessionListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_sessions.size());
}

int SessionListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionListModel::data(const QModelIndex& index, int role) const
{
    const ServiceSession* s = index.isValid() ? session(index.row()) : nullptr;
    if (!s)
        return {};
    if (role == SessionIdRole)
        return s->id;
    if (role == Qt::FontRole) {
        if (m_open.isEmpty() || s->id != m_open)
            return {};
        QFont f;
        f.setBold(true);
        return f;
    }
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        if (s->status == QLatin1String("attributed"))
            return QBrush(QColor(0xb3, 0x26, 0x1e));
        if (s->status == QLatin1String("ambiguous"))
            return QBrush(QColor(0xb2, 0x6a, 0x00));
        return {};
    }
    if (role == Qt::TextAlignmentRole && (index.column() == AttemptColumn || index.column() == RunsColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case SessionColumn: return s->id;
    case WorkloadColumn: return s->workloadId;
    case AttemptColumn: return s->attempt >= 0 ? QVariant(s->attempt) : QVariant(QString());
    case StatusColumn: return s->status;
    case DomainColumn: return s->domain;
    case NodesColumn: return s->nodes;
    case RunsColumn: return s->latestRun;
    case CreatedColumn: return s->createdAt;
    default: return {};
    }
}

QVariant SessionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SessionColumn: return tr("Session");
    case WorkloadColumn: return tr("Workload");
    case AttemptColumn: return tr("Attempt");
    case StatusColumn: return tr("Status");
    case DomainColumn: return tr("Domain");
    case NodesColumn: return tr("Nodes");
    case RunsColumn: return tr("Runs");
    case CreatedColumn: return tr("Created");
    default: return {};
    }
}

} // namespace fl
