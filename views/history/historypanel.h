// SPDX-License-Identifier: MIT
// History tab: "has this GPU / node failed before?" for the open job, from a collect --history database
// (docs/collector.md): one sentence for the root cause's place, then every cause the history holds at the job's
// nodes (HistoryModel). The database is chosen with --history DB (or File > Open history database).
#pragma once

#include "views/history/historymodel.h"

#include <QPointer>
#include <QWidget>

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <memory>

class QLabel;
class QTableView;

namespace fl {

struct Analysis;
class FocusState;
class ServiceClient;
using AnalysisPtr = std::shared_ptr<const Analysis>;

class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit HistoryPanel(FocusState* focus, QWidget* parent = nullptr);

    // What the background job hands to the GUI thread.
    struct Prepared {
        QString headline;
        std::vector<PlaceHistoryRow> rows;
        std::string workload;  // the open job's: its own stored results are not "past"
        const Analysis* analysis = nullptr;  // what it was read for
        QString database;                    // what it was read from (rows open their results from it)
        bool fromService = false;            // read from a service's history (setService), not a database
        // A service's past results at the root cause's place ("seen", newest first): what its rows open.
        struct ServicePast {
            history::OffenderLevel level = history::OffenderLevel::Gpu;
            QString session;
            int run = 0;
            std::string workload;
            std::string at;
        };
        std::vector<ServicePast> servicePast;
    };
    // Reads `database` for `analysis`'s places (on a pool thread). An empty `database`: a headline saying so.
    static Prepared prepare(const Analysis* analysis, const QString& database);
    // The rows and sentences from what a history answered: "seen before?" for the root cause and the causes at
    // the job's `nodes` nodes (a database or a service alike).
    static Prepared assemble(const Analysis* analysis, const std::vector<history::SeenAt>& seen,
                             std::vector<history::Offender> places, size_t nodes);
    // From a service's GET /v2/sessions/{id}/history?places=true answer (historyservice.cpp); a malformed
    // answer is said in the headline, naming `source`.
    static Prepared fromServiceAnswer(const Analysis* analysis, const nlohmann::json& body, const QString& source);

    // The open result is a service session's: the tab asks the service's history instead of a database (until
    // another result is opened). The answer arrives on the GUI thread.
    void setService(ServiceClient* client, const QString& session, int run, std::shared_ptr<const Analysis> analysis);

    void setDatabase(const QString& path);
    QString database() const { return m_database; }
    void setPrepared(Prepared prepared);
    void clear();

    // What a row opens: the newest result stored at its place (cause, node, GPU) by another job. Its bundle when
    // that is still on this machine (analysed again), else the result document collect stored; else `why` not.
    struct PastOpen {
        QString bundle;
        std::shared_ptr<const Analysis> analysis;
        QString title;
        QString why;
    };
    static PastOpen pastResult(const QString& database, const history::Offender& place, const std::string& ownWorkload);
    // Activating row `row` (double-click, Enter): emits openBundle or openResult, or says why it cannot.
    void openRow(int row);
    QLabel* openNote() const { return m_openNote; }

    QLabel* headline() const { return m_headline; }
    QTableView* table() const { return m_table; }
    HistoryModel* model() const { return m_model; }

signals:
    // The database changed: the workbench runs the panel's job again for the open analysis.
    void databaseChanged();
    // A past result to show in the workbench (app/workbench/main.cpp opens it in the window).
    void openBundle(const QString& path);
    void openResult(std::shared_ptr<const fl::Analysis> analysis, const QString& title);

private:
    // openRow for a service session's result: the newest other job's result at the root cause's place, fetched.
    void openServiceRow(const PlaceHistoryRow& row);
    std::vector<Prepared::ServicePast> m_servicePast;
    QString m_database;
    std::string m_workload;
    QString m_readFrom;  // the database the rows shown came from
    QPointer<ServiceClient> m_client;           // set while a service session's result is shown
    QString m_session;
    int m_run = 0;
    std::weak_ptr<const Analysis> m_serviceFor;
    QLabel* m_headline;
    QLabel* m_openNote;  // what the last activated row opened, or why it could not
    QTableView* m_table;
    HistoryModel* m_model;
};

} // namespace fl
