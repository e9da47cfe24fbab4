// SPDX-License-Identifier: MIT
// History tab: "has this GPU / node failed before?" for the open job, from a collect --history database
// (docs/collector.md): one sentence for the root cause's place, then every cause the history holds at the job's
// nodes (HistoryModel). The database is chosen with --history DB (or File > Open history database).
#pragma once

#include "views/history/historymodel.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QLabel;
class QTableView;

namespace fl {

struct Analysis;
class FocusState;
using AnalysisPtr = std::shared_ptr<const Analysis>;

class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(FocusState* focus, QWidget* parent = nullptr);

    // What the background job hands to the GUI thread.
    struct Prepared {
        QString headline;
        std::vector<PlaceHistoryRow> rows;
    };
    // Reads `database` for `analysis`'s places (on a pool thread). An empty `database`: a headline saying so.
    static Prepared prepare(const Analysis* analysis, const QString& database);

    void setDatabase(const QString& path);
    QString database() const { return m_database; }
    void setPrepared(Prepared prepared);
    void clear();

    QLabel* headline() const { return m_headline; }
    QTableView* table() const { return m_table; }
    HistoryModel* model() const { return m_model; }

signals:
    // The database changed: the workbench runs the panel's job again for the open analysis.
    void databaseChanged();

private:
    QString m_database;
    QLabel* m_headline;
    QTableView* m_table;
    HistoryModel* m_model;
};

} // namespace fl
