// SPDX-License-Identifier: MIT
#include "views/history/historypanel.h"

#include "engine/engine.h"

#include "views/common/headedtable.h"

#include <QLabel>
#include <QTableView>

#include <algorithm>
#include <set>

namespace fl {

namespace {

// Jobs other than the open one among the rows "seen before?" listed (the open result may be in the history).
int otherJobs(const history::SeenAt& seen, const std::string& ownWorkload)
{
    std::set<std::string> jobs;
    for (const auto& r : seen.rows)
        if (!r.workloadId.empty() && r.workloadId != ownWorkload)
            jobs.insert(r.workloadId);
    return static_cast<int>(jobs.size());
}

QString rootSentence(const history::CausePlace& root, const std::vector<history::SeenAt>& seen, const std::string& workload)
{
    const QString cause = QString::fromStdString(root.fingerprint);
    QStringList parts;
    for (const history::SeenAt& s : seen) {
        const int n = otherJobs(s, workload);
        history::Offender at;
        at.node = root.node;
        if (s.level == history::OffenderLevel::Gpu) {
            at.pciBus = root.pciBus;
            at.gpu = root.gpu;
        }
        const QString where = HistoryModel::placeText(at);
        parts << (n == 0 ? QObject::tr("%1: %2 in no other job of the history.").arg(where, cause)
                         : QObject::tr("%1 also failed with %2 in %3 other %4 of the history (last %5).")
                               .arg(where, cause)
                               .arg(n)
                               .arg(n == 1 ? QObject::tr("job") : QObject::tr("jobs"), QString::fromStdString(s.last)));
    }
    return parts.join(QLatin1Char('\n'));
}

} // namespace

HistoryPanel::HistoryPanel(FocusState*, QWidget* parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_table(new QTableView(this))
    , m_model(new HistoryModel(this))
{
    layOutHeadedTable(this, m_headline, m_table, m_model, QStringLiteral("historyTable"));
    clear();
}

HistoryPanel::Prepared HistoryPanel::prepare(const Analysis* a, const QString& database)
{
    Prepared p;
    if (database.isEmpty()) {
        p.headline = tr("No history database is open: start the workbench with --history DB (a database "
                        "faultline-cli collect --history writes) to see whether these GPUs and nodes failed before.");
        return p;
    }
    if (!a)
        return p;
    const Result& result = a->result;
    const std::string db = database.toStdString();
    const history::CausePlace root = history::causePlace(result);
    std::string error;
    std::vector<history::SeenAt> seen;
    if (!root.fingerprint.empty() && !history::seenInHistoryDb(db, root, "", 1000, seen, error)) {
        p.headline = QString::fromStdString(error);
        return p;
    }
    p.headline = root.fingerprint.empty() ? tr("The verdict names no root-cause place; the history of the job's nodes:")
                                          : rootSentence(root, seen, result.workloadId);
    // The job's nodes: every placed rank's, every family's and the root cause's.
    std::set<std::string> nodes;
    for (const auto& e : a->placement.entries)
        nodes.insert(e.node);
    for (const auto& f : result.families)
        nodes.insert(f.nodes.begin(), f.nodes.end());
    if (!root.node.empty())
        nodes.insert(root.node);
    std::vector<history::Offender> places;
    if (!history::placesInHistoryDb(db, {nodes.begin(), nodes.end()}, places, error)) {
        p.headline = QString::fromStdString(error);
        return p;
    }
    for (auto& o : places) {
        PlaceHistoryRow r;
        r.rootPlace = !root.node.empty() && o.node == root.node && o.pciBus == root.pciBus && o.gpu == root.gpu;
        r.rootCause = r.rootPlace && o.fingerprint == root.fingerprint;
        r.place = std::move(o);
        p.rows.push_back(std::move(r));
    }
    std::stable_sort(p.rows.begin(), p.rows.end(), [](const PlaceHistoryRow& x, const PlaceHistoryRow& y) {
        if (x.rootCause != y.rootCause)
            return x.rootCause;
        if (x.rootPlace != y.rootPlace)
            return x.rootPlace;
        return x.place.jobs > y.place.jobs;
    });
    if (p.rows.empty())
        p.headline += QLatin1Char('\n') + tr("The history holds no failure at this job's %1 nodes.").arg(nodes.size());
    return p;
}

void HistoryPanel::setDatabase(const QString& path)
{
    if (path == m_database)
        return;
    m_database = path;
    emit databaseChanged();
}

void HistoryPanel::setPrepared(Prepared prepared)
{
    m_headline->setText(prepared.headline);
    m_model->setRows(std::move(prepared.rows));
    m_table->resizeColumnsToContents();
}

void HistoryPanel::clear()
{
    m_headline->clear();
    m_model->setRows({});
}

} // namespace fl
