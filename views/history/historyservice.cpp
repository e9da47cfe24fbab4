// SPDX-License-Identifier: MIT
// The History tab for a service session: the service's history (GET /v2/sessions/{id}/history?places=true, the
// same summary and queries as a collect database, docs/service.md) instead of a database on this machine.
#include "views/history/historypanel.h"

#include "engine/engine.h"
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
    for (const auto& s : body["seen"]) {
        history::SeenAt at;
        at.level = text(s, "level") == "node" ? history::OffenderLevel::Node : history::OffenderLevel::Gpu;
        at.jobs = count(s, "jobs");
        at.results = count(s, "results");
        at.first = text(s, "first");
        at.last = text(s, "last");
        if (const auto rows = s.find("rows"); rows != s.end() && rows->is_array())
            for (const auto& r : *rows)
                at.rows.push_back({text(r, "id"), text(r, "workload_id"), text(r, "at")});
        seen.push_back(std::move(at));
    }
    std::vector<history::Offender> places;
    for (const auto& o : body["places"])
        places.push_back(placeOf(o));
    Prepared p = assemble(a, seen, std::move(places), count(body, "nodes"));
    p.headline = tr("From %1's history:").arg(source) + QLatin1Char('\n') + p.headline;
    p.fromService = true;
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

} // namespace fl
