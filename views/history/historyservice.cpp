// SPDX-License-Identifier: MIT
// The History tab for a service session: the service's history (GET /v2/sessions/{id}/history?places=true, the
// same summary and queries as a collect database, docs/service.md) instead of a database on this machine.
#include "views/history/historypanel.h"

#include "engine/engine.h"
#include "engine/result_json.h"
#include "views/common/storedresult.h"
#include "views/service/serviceclient.h"

#include <QLabel>

#include <nlohmann/json.hpp>

namespace fl {

namespace {

std::string text(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

uint32_t count(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number_unsigned() ? static_cast<uint32_t>(it->get<uint64_t>()) : 0;
}

// A place as history_json.cpp writes it: null pci_bus and gpu when none was named.
history::Offender placeOf(const nlohmann::json& j)
{
    history::Offender o;
    o.fingerprint = text(j, "fingerprint");
    o.node = text(j, "node");
    o.pciBus = text(j, "pci_bus");
    const auto gpu = j.find("gpu");
    o.gpu = gpu != j.end() && gpu->is_number_integer() ? gpu->get<int>() : -1;
    o.jobs = count(j, "jobs");
    o.results = count(j, "results");
    o.first = text(j, "first");
    o.last = text(j, "last");
    return o;
}

} // namespace

HistoryPanel::Prepared HistoryPanel::fromServiceAnswer(const Analysis* a, const nlohmann::json& body, const QString& source)
{
    if (!a || !body.is_object() || !body.contains("seen") || !body["seen"].is_array() || !body.contains("places") ||
        !body["places"].is_array()) {
        Prepared p;
        p.analysis = a;
        p.fromService = true;
        p.headline = tr("%1 answered without the history's \"seen\" and \"places\" (an older service?).").arg(source);
        return p;
    }
    std::vector<history::SeenAt> seen;
    std::vector<Prepared::ServicePast> past;
    for (const auto& s : body["seen"]) {
        history::SeenAt at;
        at.level = text(s, "level") == "node" ? history::OffenderLevel::Node : history::OffenderLevel::Gpu;
        at.jobs = count(s, "jobs");
        at.results = count(s, "results");
        at.first = text(s, "first");
        at.last = text(s, "last");
        if (const auto rows = s.find("rows"); rows != s.end() && rows->is_array())
            for (const auto& r : *rows) {
                at.rows.push_back({text(r, "id"), text(r, "workload_id"), text(r, "at")});
                const auto run = r.find("run");
                if (!text(r, "session_id").empty() && run != r.end() && run->is_number_integer())
                    past.push_back({at.level, QString::fromStdString(text(r, "session_id")), run->get<int>(),
                                    text(r, "workload_id"), text(r, "at")});
            }
        seen.push_back(std::move(at));
    }
    std::vector<history::Offender> places;
    for (const auto& o : body["places"])
        places.push_back(placeOf(o));
    Prepared p = assemble(a, seen, std::move(places), count(body, "nodes"));
    p.headline = tr("From %1's history:").arg(source) + QLatin1Char('\n') + p.headline;
    p.fromService = true;
    p.servicePast = std::move(past);
    return p;
}

void HistoryPanel::setService(ServiceClient* client, const QString& session, int run, std::shared_ptr<const Analysis> analysis)
{
    m_client = client;
    m_session = session;
    m_run = run;
    m_serviceFor = analysis;
    m_headline->setText(tr("Asking %1 for the history of session %2…").arg(client->baseUrl().toString(), session));
    m_model->setRows({});
    const std::weak_ptr<const Analysis> forAnalysis = analysis;
    const QString source = tr("the service %1").arg(client->baseUrl().toString());
    client->history(session, run, this, [this, forAnalysis, session, source](const ServiceReply& r) {
        const auto a = forAnalysis.lock();
        if (!a || a != m_serviceFor.lock() || session != m_session)
            return;  // another result is open now
        if (!r.ok()) {
            Prepared p;
            p.analysis = a.get();
            p.fromService = true;
            p.headline = tr("No history from %1: %2").arg(source, r.error);
            setPrepared(std::move(p));
            return;
        }
        setPrepared(fromServiceAnswer(a.get(), r.body, source));
    });
}

void HistoryPanel::openServiceRow(const PlaceHistoryRow& row)
{
    // The service lists results (session and run) only for the root cause's own place; the other places' jobs
    // are counted in its summary.
    if (!row.rootCause) {
        m_openNote->setText(tr("The service lists past results only at the root cause's place (GET "
                               "/v2/sessions/{id}/history); this place's %1 are counted, not listed: GET "
                               "/v2/history/offenders names them with their result_url.")
                                .arg(tr("%n result(s)", nullptr, static_cast<int>(row.place.results))));
        return;
    }
    const bool gpuPlace = row.place.gpu >= 0 || !row.place.pciBus.empty();
    const Prepared::ServicePast* pick = nullptr;
    for (const auto& p : m_servicePast) {  // newest first, at the row's level
        // Another job: another workload; a bundle without a manifest is a job of its own (its session).
        const bool otherJob = p.workload.empty() || m_workload.empty() ? p.session != m_session : p.workload != m_workload;
        if (otherJob && (p.level == history::OffenderLevel::Gpu) == gpuPlace) {
            pick = &p;
            break;
        }
    }
    if (!pick) {
        m_openNote->setText(tr("The service lists no result of another job at %1.").arg(HistoryModel::placeText(row.place)));
        return;
    }
    const QString session = pick->session;
    const int run = pick->run;
    const QString title = tr("service session %1 run %2: %3, %4")
                              .arg(session).arg(run)
                              .arg(QString::fromStdString(pick->workload), QString::fromStdString(pick->at));
    m_openNote->setText(tr("Asking the service for %1…").arg(title));
    const QString source = QStringLiteral("%1 session %2 run %3").arg(m_client->baseUrl().toString(), session).arg(run);
    m_client->result(session, run, this, [this, title, source](const ServiceReply& r) {
        if (!r.ok()) {
            m_openNote->setText(tr("%1 cannot be opened: %2").arg(title, r.error));
            return;
        }
        try {
            auto a = analysisOfStoredResult(resultFromJson(r.body), source.toStdString());
            m_openNote->setText(tr("Opened %1 (the service's stored result).").arg(title));
            emit openResult(std::move(a), title);
        } catch (const std::exception& e) {
            m_openNote->setText(tr("%1 is not a result: %2").arg(title, QString::fromUtf8(e.what())));
        }
    });
}

} // namespace fl
