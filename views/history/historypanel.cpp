// SPDX-License-Identifier: MIT
#include "views/history/historypanel.h"

#include "engine/engine.h"
#include "engine/result_json.h"
#include "history/past_results.h"

#include "views/common/headedtable.h"
#include "views/common/storedresult.h"
#include "views/service/serviceclient.h"

#include <QFileInfo>
#include <QLayout>

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
    , m_openNote(new QLabel(this))
    , m_table(new QTableView(this))
    , m_model(new HistoryModel(this))
{
    layOutHeadedTable(this, m_headline, m_table, m_model, QStringLiteral("historyTable"));
    m_openNote->setWordWrap(true);
    m_openNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout()->addWidget(m_openNote);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& i) { openRow(i.row()); });
    clear();
}

HistoryPanel::PastOpen HistoryPanel::pastResult(const QString& database, const history::Offender& place,
                                                const std::string& ownWorkload)
{
    PastOpen o;
    const QString where = tr("%1 at %2").arg(QString::fromStdString(place.fingerprint), HistoryModel::placeText(place));
    std::vector<history::PastResult> rows;
    std::string error;
    if (!history::pastResultsInHistoryDb(database.toStdString(), place, ownWorkload, 1, rows, error)) {
        o.why = QString::fromStdString(error);
        return o;
    }
    if (rows.empty()) {
        o.why = tr("No other job's result is stored for %1 (the open job's own is left out).").arg(where);
        return o;
    }
    const history::PastResult& r = rows.front();
    o.title = tr("history result %1: %2, %3").arg(QString::fromStdString(r.id), QString::fromStdString(r.workloadId),
                                                  QString::fromStdString(r.collectedAt));
    const QString bundle = QString::fromStdString(r.bundle);
    if (!bundle.isEmpty() && QFileInfo::exists(bundle)) {
        o.bundle = bundle;
        return o;
    }
    try {
        Result result = resultFromJson(nlohmann::json::parse(r.resultJson));
        o.analysis = analysisOfStoredResult(std::move(result), database.toStdString() + " result " + r.id);
    } catch (const std::exception& e) {
        o.why = tr("Result %1 (%2, %3, %4) cannot be opened: its stored document is not a result (%5) and %6.")
                    .arg(QString::fromStdString(r.id), QString::fromStdString(r.workloadId),
                         QString::fromStdString(r.collectedAt), where, QString::fromUtf8(e.what()),
                         bundle.isEmpty() ? tr("collect named no bundle")
                                          : tr("its bundle %1 is not on this machine").arg(bundle));
    }
    return o;
}

void HistoryPanel::openRow(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    if (m_client) {
        openServiceRow(m_model->row(row));
        return;
    }
    const PastOpen o = pastResult(m_readFrom, m_model->row(row).place, m_workload);
    if (!o.why.isEmpty()) {
        m_openNote->setText(o.why);
        return;
    }
    m_openNote->setText(o.bundle.isEmpty() ? tr("Opened %1 (the stored result document).").arg(o.title)
                                           : tr("Opening %1 from its bundle %2.").arg(o.title, o.bundle));
    if (!o.bundle.isEmpty())
        emit openBundle(o.bundle);
    else
        emit openResult(o.analysis, o.title);
}

HistoryPanel::Prepared HistoryPanel::prepare(const Analysis* a, const QString& database)
{
    Prepared p;
    p.analysis = a;
    if (database.isEmpty()) {
        p.headline = tr("No history database is open: start the workbench with --history DB (a database "
                        "faultline-cli collect --history writes) to see whether these GPUs and nodes failed before.");
        return p;
    }
    if (!a)
        return p;
    const std::string db = database.toStdString();
    const history::CausePlace root = history::causePlace(a->result);
    std::string error;
    std::vector<history::SeenAt> seen;
    if (!root.fingerprint.empty() && !history::seenInHistoryDb(db, root, "", 1000, seen, error)) {
        p.headline = QString::fromStdString(error);
        return p;
    }
    // The job's nodes: every placed rank's, every family's and the root cause's.
    std::set<std::string> nodes;
    for (const auto& e : a->placement.entries)
        nodes.insert(e.node);
    for (const auto& f : a->result.families)
        nodes.insert(f.nodes.begin(), f.nodes.end());
    if (!root.node.empty())
        nodes.insert(root.node);
    std::vector<history::Offender> places;
    if (!history::placesInHistoryDb(db, {nodes.begin(), nodes.end()}, places, error)) {
        p.headline = QString::fromStdString(error);
        return p;
    }
    Prepared shown = assemble(a, seen, std::move(places), nodes.size());
    shown.database = database;
    return shown;
}

HistoryPanel::Prepared HistoryPanel::assemble(const Analysis* a, const std::vector<history::SeenAt>& seen,
                                              std::vector<history::Offender> places, size_t nodes)
{
    Prepared p;
    p.analysis = a;
    const Result& result = a->result;
    const history::CausePlace root = history::causePlace(result);
    p.headline = root.fingerprint.empty() ? tr("The verdict names no root-cause place; the history of the job's nodes:")
                                          : rootSentence(root, seen, result.workloadId);
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
        p.headline += QLatin1Char('\n') + tr("The history holds no failure at this job's %1 nodes.").arg(nodes);
    else
        p.headline += QLatin1Char('\n') + tr("Double-click a row to open the newest result another job stored there.");
    p.workload = result.workloadId;
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
    if (!prepared.fromService && m_client) {
        // A database's rows for the service session's result arrive after the service was asked: not shown.
        const auto shown = m_serviceFor.lock();
        if (shown && shown.get() == prepared.analysis)
            return;
        m_client = nullptr;  // another result is open now
        m_serviceFor.reset();
    }
    m_workload = std::move(prepared.workload);
    m_readFrom = prepared.database;
    m_servicePast = std::move(prepared.servicePast);
    m_openNote->clear();
    m_headline->setText(prepared.headline);
    m_model->setRows(std::move(prepared.rows));
    m_table->resizeColumnsToContents();
}

void HistoryPanel::clear()
{
    m_headline->clear();
    m_openNote->clear();
    m_model->setRows({});
}

} // namespace fl
