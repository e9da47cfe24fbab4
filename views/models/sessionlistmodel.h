// SPDX-License-Identifier: MIT
// The sessions faultline-service lists (GET /v2/sessions), as a table: one row a
// session, newest first as the service sends them. The JSON is the service's and
// read tolerantly: a field of the wrong type shows as empty. A session's row is
// found by its id in O(1) (Wireshark's number_to_row_): the browser keeps the
// selection across a refresh and marks the session it shows.
#pragma once

#include <nlohmann/json.hpp>

#include <QAbstractTableModel>
#include <QHash>

#include <vector>

namespace fl {

struct ServiceSession {
    QString id, workloadId, status, domain, createdAt, nodes;
    int attempt = -1;
    int latestRun = 0;
};

class SessionListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { SessionColumn, WorkloadColumn, AttemptColumn, StatusColumn, DomainColumn, NodesColumn,
                  RunsColumn, CreatedColumn, ColumnCount };
    static constexpr int SessionIdRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;

    // The body of GET /v2/sessions ({"sessions": [...]}); anything else empties the list.
    void setSessions(const nlohmann::json& body);
    const ServiceSession* session(int row) const;
    int rowOfSession(const QString& id) const { return m_rowOf.value(id, -1); }
    // The session whose result the workbench shows: its row in bold. Empty: none.
    void setOpenSession(const QString& id);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<ServiceSession> m_sessions;
    QHash<QString, int> m_rowOf;  // session id -> row (the first, should the service list one twice)
    QString m_open;
};

} // namespace fl
