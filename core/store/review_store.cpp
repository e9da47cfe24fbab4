#include "store/review_store.h"

#include "present/timefmt.h"
#include "present/verdict.h"
#include "store/notes_store.h"

#include <pwd.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace fl::store {

namespace {

bool blank(const std::string& s)
{
    return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

const char* choiceName(present::ReviewChoice c)
{
    return c == present::ReviewChoice::Choose ? "choose" : "confirm";
}

} // namespace

std::string utcNow()
{
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    return formatTimeUtc(static_cast<int64_t>(ms.count()) * 1'000'000);
}

std::string loginName()
{
    for (const char* var : {"LOGNAME", "USER"})
        if (const char* v = std::getenv(var); v && *v)
            return v;
    if (const passwd* pw = getpwuid(getuid()); pw && pw->pw_name)
        return pw->pw_name;
    return {};
}

bool makeDecision(const Result& result, present::ReviewChoice choice, const std::string& target,
                  const std::string& reason, const std::string& reviewer, present::ReviewDecision& out,
                  std::string& error)
{
    out = {};
    out.reviewer = reviewer;
    out.choice = choice;
    out.reason = reason;
    out.engineStatus = std::string(toString(result.status));
    if (choice == present::ReviewChoice::Confirm) {
        out.status = out.engineStatus;
        out.domain = toString(result.domain);
        out.subDomain = result.subDomain;
        if (const auto& rc = result.rootCause) {
            out.symptom = rc->symptom;
            out.place = present::place(rc->node, rc->gpuIndex, rc->pciBus, rc->rank);
            out.event = rc->event.value;
            if (!rc->evidence.empty())
                out.evidenceId = toString(rc->evidence.front());
        }
        return true;
    }
    const bool byEvent = !target.empty() && target.find_first_not_of("0123456789") == std::string::npos;
    const std::optional<EvidenceId> evidence = evidenceIdFromString(target);
    for (const Candidate& c : result.candidates) {
        const bool named = byEvent ? std::to_string(c.event.value) == target
                                   : evidence && std::find(c.evidence.begin(), c.evidence.end(), *evidence) != c.evidence.end();
        if (!named)
            continue;
        // A reviewer who picks one candidate attributes the failure to it.
        out.status = "attributed";
        out.domain = toString(c.domain);
        out.subDomain = c.subDomain;
        out.symptom = c.symptom;
        out.place = present::place(c.node, c.gpuIndex, c.pciBus, c.rank);
        out.event = c.event.value;
        out.evidenceId = byEvent ? (c.evidence.empty() ? std::string() : toString(c.evidence.front())) : toString(*evidence);
        return true;
    }
    std::string ids;
    for (const Candidate& c : result.candidates)
        for (const EvidenceId id : c.evidence)
            ids += (ids.empty() ? "" : ", ") + toString(id);
    error = "'" + target + "' names no candidate of this result" +
            (ids.empty() ? std::string(" (it has no candidate)") : " (candidates' evidence: " + ids + ")");
    return false;
}

bool appendReview(const std::string& path, present::ReviewDecision& d, std::string& error)
{
    if (blank(d.reviewer)) {
        error = path + ": a review needs a reviewer (none given, and no login name found)";
        return false;
    }
    if (d.choice == present::ReviewChoice::Choose && blank(d.reason)) {
        error = path + ": choosing a candidate needs a reason (--reason TEXT): the next reader must see why";
        return false;
    }
    if (!createNotes(path, kNotesSchemaVersion, error))
        return false;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        error = path + ": " + (db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        return false;
    }
    d.when = utcNow();
    sqlite3_stmt* s = nullptr;
    bool ok = sqlite3_prepare_v2(db,
                                 "INSERT INTO review (reviewer, choice, status, domain, sub_domain, symptom, place,"
                                 " evidence_id, event, engine_status, reason, created)"
                                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 -1, &s, nullptr) == SQLITE_OK;
    if (ok) {
        int i = 0;
        sqlite3_bind_text(s, ++i, d.reviewer.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(s, ++i, choiceName(d.choice), -1, SQLITE_STATIC);
        for (const std::string* text : {&d.status, &d.domain, &d.subDomain, &d.symptom, &d.place, &d.evidenceId})
            sqlite3_bind_text(s, ++i, text->c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(s, ++i, d.event);
        for (const std::string* text : {&d.engineStatus, &d.reason, &d.when})
            sqlite3_bind_text(s, ++i, text->c_str(), -1, SQLITE_TRANSIENT);
        ok = sqlite3_step(s) == SQLITE_DONE;
    }
    if (!ok)
        error = path + ": cannot record the review: " + sqlite3_errmsg(db);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return ok;
}

} // namespace fl::store
