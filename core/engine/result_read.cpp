// A result document read back into a Result (resultFromJson): what the
// workbench shows for a result it did not analyse itself, e.g. one kept by
// faultline-service. Tolerant as the report is: a field of the wrong type
// reads as absent; ids that point nowhere are dropped, never followed.
#include "baseline/comparison.h"
#include "bundle/iso_time.h"
#include "engine/result_json.h"
#include "present/baseline_text.h"
#include "present/hostlist.h"

#include <algorithm>
#include <cmath>
#include <climits>
#include <map>
#include <stdexcept>

namespace fl {

using nlohmann::json;

namespace {

// The one reader of a result document: a field of the wrong type reads as absent, never throws.
const json& member(const json& j, const char* key)
{
    static const json none;
    if (!j.is_object())
        return none;
    auto it = j.find(key);
    return it == j.end() ? none : *it;
}

const json& array(const json& j, const char* key)
{
    static const json empty = json::array();
    const json& v = member(j, key);
    return v.is_array() ? v : empty;
}

std::string str(const json& j, const char* key)
{
    const json& v = member(j, key);
    return v.is_string() ? v.get<std::string>() : std::string();
}

// -1 when absent, null or not an integer (ranks, GPUs, lines use -1 for "unknown").
int64_t integer(const json& j, const char* key)
{
    const json& v = member(j, key);
    if (v.is_number_integer())
        return v.get<int64_t>();
    if (v.is_number_unsigned())
        return v.get<uint64_t>() > uint64_t(INT64_MAX) ? -1 : static_cast<int64_t>(v.get<uint64_t>());
    return -1;
}

bool boolean(const json& j, const char* key)
{
    const json& v = member(j, key);
    return v.is_boolean() && v.get<bool>();
}

constexpr size_t kMaxExpandedHosts = 1'000'000;

int small(const json& j, const char* key)
{
    return static_cast<int>(std::clamp<int64_t>(integer(j, key), -1, INT32_MAX));
}

uint32_t count(const json& j, const char* key)
{
    return static_cast<uint32_t>(std::clamp<int64_t>(integer(j, key), 0, UINT32_MAX));
}

template <typename Enum>
Enum enumOf(const std::string& text, Enum last, Enum fallback)
{
    for (int i = 0; i <= static_cast<int>(last); ++i)
        if (toString(static_cast<Enum>(i)) == text)
            return static_cast<Enum>(i);
    return fallback;
}

TimeBasis basisOf(const json& j, const char* key)
{
    return enumOf(str(j, key), TimeBasis::Inherited, TimeBasis::None);
}

// "2026-03-14T10:00:41Z", or "boot+6781741.548779s" (seconds since the node booted).
int64_t timeOf(const std::string& text)
{
    if (text.rfind("boot+", 0) == 0 && text.size() > 6 && text.back() == 's') {
        // Seconds and microseconds read as integers: through a double, about one
        // time in 35 came back a microsecond early (formatTime truncates).
        const std::string body = text.substr(5, text.size() - 6);
        const size_t dot = body.find('.');
        const std::string whole = body.substr(0, dot), frac = dot == std::string::npos ? "" : body.substr(dot + 1);
        auto digits = [](const std::string& s) { return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }); };
        if (whole.empty() || whole.size() > 10 || frac.size() > 9 || !digits(whole) || !digits(frac))
            return kNoTime;
        return std::stoll(whole) * 1'000'000'000 + (frac.empty() ? 0 : std::stoll(frac + std::string(9 - frac.size(), '0')));
    }
    return parseIso8601Ns(text).value_or(kNoTime);
}

// A family's first or last time: the document gives its text only, "boot+…s"
// for a boot-relative one.
Timestamp writtenTime(const std::string& text)
{
    const int64_t ns = timeOf(text);
    if (ns == kNoTime)
        return {};
    return {ns, text.rfind("boot+", 0) == 0 ? TimeBasis::BootRelative : TimeBasis::Absolute, {}};
}

TimeInterval intervalOf(const json& j)
{
    return {timeOf(str(j, "earliest")), timeOf(str(j, "latest"))};
}

std::optional<Inference> inferenceOf(const json& j)
{
    if (!j.is_object())
        return std::nullopt;
    return Inference{str(j, "from_symptom"), str(j, "rule")};
}

std::vector<std::string> strings(const json& j, const char* key)
{
    std::vector<std::string> out;
    for (const json& s : array(j, key))
        if (s.is_string())
            out.push_back(s.get<std::string>());
    return out;
}

// Evidence ids ("ev-00001"); one that is not an evidence id points nowhere and is dropped.
std::vector<EvidenceId> evidenceIds(const json& j, const char* key)
{
    std::vector<EvidenceId> out;
    for (const std::string& s : strings(j, key))
        if (const std::optional<EvidenceId> id = evidenceIdFromString(s))
            out.push_back(*id);
    return out;
}

int64_t nsOfSeconds(const json& j)
{
    return j.is_number() ? static_cast<int64_t>(std::llround(j.get<double>() * 1e9)) : kNoTime;
}

WouldDecide wouldDecideOf(const json& j)
{
    WouldDecide w;
    const json& pair = member(j, "candidates");
    auto idAt = [&](size_t i) {
        return pair.is_array() && pair.size() > i && pair[i].is_number_unsigned() && pair[i].get<uint64_t>() <= UINT32_MAX
                   ? EventId(static_cast<uint32_t>(pair[i].get<uint64_t>()))
                   : EventId();
    };
    w.first = idAt(0);
    w.second = idAt(1);
    w.nodes = strings(j, "nodes");
    for (const std::string& k : strings(j, "sources"))
        if (auto kind = sourceKindFromString(k))
            w.sources.push_back(*kind);
    w.files = strings(j, "files");
    w.window = intervalOf(member(j, "window"));
    w.resolutionNs = std::max<int64_t>(0, nsOfSeconds(member(j, "resolution_s")));
    w.clockNs = std::max<int64_t>(0, nsOfSeconds(member(j, "clock_s")));
    w.clockNeededNs = nsOfSeconds(member(j, "clock_needed_s"));
    return w;
}

std::vector<EventId> ids(const json& j, const char* key)
{
    std::vector<EventId> out;
    for (const json& v : array(j, key))
        if (v.is_number_unsigned() && v.get<uint64_t>() <= UINT32_MAX)
            out.push_back(EventId(static_cast<uint32_t>(v.get<uint64_t>())));
    return out;
}

// "0-31,40-9999" -> runs; malformed parts are skipped.
std::vector<IndexRange> rangesOf(const std::string& text)
{
    std::vector<IndexRange> out;
    size_t at = 0;
    while (at < text.size()) {
        const size_t end = std::min(text.find(',', at), text.size());
        const std::string part = text.substr(at, end - at);
        at = end + 1;
        try {
            const size_t dash = part.find('-');
            const int first = std::stoi(part.substr(0, dash));
            const int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
            if (first >= 0 && last >= first)
                out.push_back({first, last});
        } catch (const std::exception&) {
        }
    }
    return out;
}

// What a root cause and a candidate both say: which event, what, where, when, on which lines.
template <typename Cause>
void readCause(const json& j, Cause& out)
{
    out.event = EventId(count(j, "event"));
    out.symptom = str(j, "symptom");
    out.title = str(j, "title");
    out.node = str(j, "node");
    out.gpuIndex = small(j, "gpu");
    out.pciBus = str(j, "pci_bus");
    out.rank = small(j, "rank");
    out.time = {timeOf(str(j, "time")), basisOf(j, "time_basis"), intervalOf(member(j, "time_interval"))};
    out.evidence = evidenceIds(j, "evidence");
    out.inferred = inferenceOf(member(j, "inferred"));
}

Candidate candidateOf(const json& c)
{
    Candidate out;
    readCause(c, out);
    out.domain = domainFromString(str(c, "domain")).value_or(Domain::Unknown);
    out.subDomain = str(c, "sub_domain");
    out.support = count(c, "support");
    out.chosen = boolean(c, "chosen");
    if (const json& o = member(c, "outcome"); o.is_object()) {
        out.outcome.reason = enumOf(str(o, "reason"), CandidateReason::AfterOnset, CandidateReason::None);
        if (const json& other = member(o, "other"); other.is_number_unsigned() && other.get<uint64_t>() <= UINT32_MAX)
            out.outcome.other = EventId(static_cast<uint32_t>(other.get<uint64_t>()));
        const json& delta = member(o, "delta_ns");
        const json& limit = member(o, "limit_ns");
        out.outcome.deltaNs = delta.is_number_integer() ? delta.get<int64_t>() : 0;
        out.outcome.limitNs = limit.is_number_integer() ? limit.get<int64_t>() : 0;
    }
    return out;
}

SymptomFamily familyOf(const json& f, const std::map<std::string, FamilyId>& index)
{
    SymptomFamily out;
    out.symptom = str(f, "symptom");
    out.title = str(f, "title");
    out.role = enumOf(str(f, "role"), EvidenceRole::Context, EvidenceRole::Interesting);
    out.kind = str(f, "kind") == "interesting_node" ? EventKind::InterestingNode : EventKind::BadNode;
    out.suppressedBy = str(f, "suppressed_by");
    for (const std::string& c : strings(f, "causes"))
        if (auto it = index.find(c); it != index.end())
            out.causes.push_back(it->second);
    if (const json& coll = member(f, "collective"); coll.is_object())
        for (const auto& [k, v] : coll.items())
            if (v.is_string())
                out.collective[k] = v.get<std::string>();
    out.nodeRanges = str(f, "nodes");
    std::string error; // a list that does not read is absent, as any field of the wrong shape
    out.nodes = present::expandHostList(out.nodeRanges, error, kMaxExpandedHosts).value_or(std::vector<std::string>{});
    std::sort(out.nodes.begin(), out.nodes.end());
    out.nodes.erase(std::unique(out.nodes.begin(), out.nodes.end()), out.nodes.end());
    out.ranks = rangesOf(str(f, "ranks"));
    out.rankCount = count(f, "rank_count");
    out.count = count(f, "count");
    out.occurrences = count(f, "occurrences");
    const std::string first = str(f, "first"), last = str(f, "last");
    out.first = writtenTime(first);
    out.last = writtenTime(last);
    out.span = intervalOf(member(f, "time_interval"));
    out.events = ids(f, "events");
    out.representatives = ids(f, "representatives");
    out.evidence = evidenceIds(f, "evidence");
    return out;
}

// "waited": {min_s, max_s}; max_s null for a lower bound.
std::optional<Wait> waitOf(const json& w)
{
    if (!w.is_object() || !member(w, "min_s").is_number())
        return std::nullopt;
    const json& max = member(w, "max_s");
    return Wait{std::llround(member(w, "min_s").get<double>() * 1e9),
                max.is_number() ? std::llround(max.get<double>() * 1e9) : kNoTime};
}

SymptomEvent eventOf(const json& n)
{
    SymptomEvent e;
    e.id = EventId(count(n, "id"));
    e.symptom = str(n, "symptom");
    e.originalSymptom = str(n, "original_symptom").empty() ? e.symptom.str() : str(n, "original_symptom");
    e.kind = str(n, "kind") == "interesting_node" ? EventKind::InterestingNode : EventKind::BadNode;
    e.node = str(n, "node");
    e.rank = small(n, "rank");
    e.gpuIndex = small(n, "gpu");
    e.pciBus = str(n, "pci_bus");
    e.time = {timeOf(str(n, "time")), basisOf(n, "time_basis"), {}};
    e.extractedBy = str(n, "extracted_by");
    e.count = std::max<uint32_t>(1, count(n, "count"));
    e.suppressed = boolean(n, "suppressed");
    e.suppressedBy = str(member(n, "suppressed_by"), "rule");
    e.suppressReason = str(member(n, "suppressed_by"), "reason");
    if (const json& fields = member(n, "fields"); fields.is_object())
        for (const auto& [k, v] : fields.items())
            if (v.is_string())
                e.fields[k] = v.get<std::string>();
    e.inferred = inferenceOf(member(n, "inferred"));
    e.waited = waitOf(member(n, "waited"));
    return e;
}

// The symptom chain: families (ids as the document names them → FamilyId), their edges, events and edges.
std::map<std::string, FamilyId> readChain(const json& chain, Result& r)
{
    std::map<std::string, FamilyId> familyIndex;
    for (const json& f : array(chain, "families"))
        familyIndex.emplace(str(f, "id"), FamilyId(static_cast<uint32_t>(familyIndex.size())));
    for (const json& f : array(chain, "families"))
        r.families.push_back(familyOf(f, familyIndex));
    for (const json& e : array(chain, "family_edges")) {
        auto from = familyIndex.find(str(e, "from")), to = familyIndex.find(str(e, "to"));
        if (from != familyIndex.end() && to != familyIndex.end())
            r.familyEdges.push_back({from->second, to->second, str(e, "rule"), count(e, "count")});
    }
    for (const json& n : array(chain, "nodes"))
        r.events.push_back(eventOf(n));
    for (const json& e : array(chain, "edges"))
        r.edges.push_back({EventId(count(e, "from")), EventId(count(e, "to")), str(e, "rule"), str(e, "label")});
    return familyIndex;
}

uint64_t unsignedOf(const json& j, const char* key)
{
    return static_cast<uint64_t>(std::max<int64_t>(0, integer(j, key)));
}

// Files are named by the evidence and the coverage; RawRef::file indexes the connector reports.
std::map<std::string, uint32_t> readConnectors(const json& doc, Result& r)
{
    std::map<std::string, uint32_t> fileIndex;
    for (const json& c : array(doc, "connector_reports")) {
        ConnectorReport out;
        out.file = str(c, "file");
        out.kind = sourceKindFromString(str(c, "kind")).value_or(SourceKind::Unknown);
        out.kindReason = str(c, "kind_reason");
        out.node = str(c, "node");
        out.rank = small(c, "rank");
        out.status = enumOf(str(c, "status"), FileStatus::Skipped, FileStatus::Error);
        out.reason = str(c, "reason");
        out.bytes = unsignedOf(c, "bytes");
        out.lines = unsignedOf(c, "lines");
        out.observations = unsignedOf(c, "observations");
        out.parseErrors = unsignedOf(c, "parse_errors");
        fileIndex.emplace(out.file, static_cast<uint32_t>(r.connectors.size()));
        r.connectors.push_back(std::move(out));
    }
    return fileIndex;
}

// `position`: its place in the document's list, the id the engine gives it, taken when its own does not read.
EvidenceItem evidenceOf(const json& e, size_t position, const std::map<std::string, uint32_t>& fileIndex,
                        const std::map<std::string, FamilyId>& familyIndex)
{
    EvidenceItem out;
    out.id = evidenceIdFromString(str(e, "id")).value_or(EvidenceId(static_cast<uint32_t>(position)));
    out.kind = evidenceKindFromString(str(e, "kind")).value_or(EvidenceKind::Log);
    out.source = sourceKindFromString(str(e, "source")).value_or(SourceKind::Unknown);
    const json& raw = member(e, "raw");
    out.file = str(raw, "file");
    auto fi = fileIndex.find(out.file);
    out.ref.file = FileId(fi == fileIndex.end() ? UINT32_MAX : fi->second);
    out.ref.offset = unsignedOf(raw, "offset");
    out.ref.length = count(raw, "length");
    out.ref.line = count(raw, "line");
    out.ref.lineCount = std::max<uint32_t>(1, count(raw, "line_count"));
    out.series = str(raw, "series");
    out.node = str(e, "node");
    out.rank = small(e, "rank");
    out.gpuIndex = small(e, "gpu");
    out.time = {timeOf(str(e, "time")), basisOf(e, "time_basis"), {}};
    out.excerpt = str(e, "excerpt");
    out.role = enumOf(str(e, "role"), EvidenceRole::Context, EvidenceRole::Context);
    out.symptom = str(e, "symptom");
    out.event = EventId(count(e, "event"));
    if (auto f = familyIndex.find(str(e, "family")); f != familyIndex.end())
        out.family = f->second;
    return out;
}

// A compact document lists no events: the ones its evidence lines back
// (every family's representatives among them), for the views.
void eventsFromEvidence(Result& r)
{
    std::map<EventId, SymptomEvent> byId;
    for (const EvidenceItem& item : r.evidence) {
        auto [it, fresh] = byId.try_emplace(item.event);
        if (!fresh)
            continue;
        SymptomEvent& e = it->second;
        e.id = item.event;
        e.symptom = e.originalSymptom = item.symptom;
        e.node = item.node;
        e.rank = item.rank;
        e.gpuIndex = item.gpuIndex;
        e.time = item.time;
        e.evidenceRole = item.role;
        e.suppressed = item.role == EvidenceRole::Context;
        if (item.family && item.family->value < r.families.size())
            e.kind = r.families[item.family->value].kind;
    }
    for (auto& [id, e] : byId)
        r.events.push_back(std::move(e));
}

int64_t secondsToNs(const json& v)
{
    return v.is_number() ? static_cast<int64_t>(v.get<double>() * 1e9) : 0;
}

// Status, workload, root cause and candidates: the verdict part of the document.
void readVerdict(const json& doc, Result& r)
{
    r.status = resultStatusFromString(str(doc, "status")).value_or(ResultStatus::Unattributed);
    r.outcome = workloadOutcomeFromString(str(doc, "outcome")).value_or(WorkloadOutcome::Unknown);
    r.domain = domainFromString(str(doc, "domain")).value_or(Domain::Unknown);
    r.subDomain = str(doc, "sub_domain");
    r.summary = str(doc, "summary");
    const json& workload = member(doc, "workload");
    r.workloadId = str(workload, "id");
    r.attempt = small(workload, "attempt");
    r.windowStartNs = timeOf(str(workload, "window_start"));
    r.windowEndNs = timeOf(str(workload, "window_end"));
    if (const json& rc = member(doc, "root_cause"); rc.is_object()) {
        RootCause out;
        readCause(rc, out);
        out.advice = str(rc, "advice");
        r.rootCause = std::move(out);
    }
    r.missing = strings(doc, "missing");
    if (const json& o = member(doc, "onset"); o.is_object()) {
        HangOnset h;
        h.estimateNs = timeOf(str(o, "estimate"));
        h.began = intervalOf(member(o, "began"));
        h.allWaiting = intervalOf(member(o, "all_waiting"));
        h.waits = count(o, "waits");
        h.nodes = strings(o, "nodes");
        h.symptoms = strings(o, "symptoms");
        for (const json& id : array(o, "events"))
            if (id.is_number_unsigned() && id.get<uint64_t>() <= UINT32_MAX)
                h.events.push_back(EventId(static_cast<uint32_t>(id.get<uint64_t>())));
        r.onset = std::move(h);
    }
    for (const json& w : array(doc, "would_decide"))
        r.wouldDecide.push_back(wouldDecideOf(w));
    for (const json& c : array(doc, "candidates"))
        r.candidates.push_back(candidateOf(c));
    // A document from before candidates carried their outcome says why in words
    // only: what the typed fields tell (chosen, the status) is kept.
    for (Candidate& c : r.candidates)
        if (c.outcome.reason == CandidateReason::None && c.chosen && r.status == ResultStatus::Attributed)
            c.outcome.reason = CandidateReason::RootCause;
    r.affectedNodes = strings(doc, "affected_nodes");
}

// The words present::toString gives these enums, back.
template <typename Enum>
Enum presentEnumOf(const std::string& text, Enum last, Enum fallback)
{
    for (int i = 0; i <= static_cast<int>(last); ++i)
        if (present::toString(static_cast<Enum>(i)) == text)
            return static_cast<Enum>(i);
    return fallback;
}

BaselineMark markOf(const json& j)
{
    return {presentEnumOf(str(j, "status"), BaselineMatch::Gone, BaselineMatch::New), count(j, "baseline_count"),
            presentEnumOf(str(j, "matched_by"), PlaceMatch::Elsewhere, PlaceMatch::None)};
}

BaselineSymptomMark symptomMarkOf(const json& j)
{
    return {str(j, "symptom"), markOf(j), count(j, "count"), boolean(j, "same_rate")};
}

// `baseline` (engine/baseline_json.cpp writes it). Families named by an id the chain does not have are dropped,
// as everywhere here; event ids are kept as numbers (a compact document lists no chain nodes to check them by).
std::shared_ptr<const BaselineComparison> baselineOf(const json& b, const std::map<std::string, FamilyId>& families)
{
    if (!b.is_object())
        return nullptr;
    auto c = std::make_shared<BaselineComparison>();
    c->workloadId = str(member(b, "workload"), "id");
    c->attempt = small(member(b, "workload"), "attempt");
    c->failedSpanNs = secondsToNs(member(b, "failed_span_s"));
    c->baselineSpanNs = secondsToNs(member(b, "baseline_span_s"));
    c->nodesByName = count(member(b, "nodes_matched"), "by_name");
    c->nodesByPosition = count(member(b, "nodes_matched"), "by_position");
    auto event = [&](const json& j) -> std::optional<EventId> {
        const int64_t id = integer(j, "event");
        if (id < 0 || id > INT32_MAX)
            return std::nullopt;
        return EventId(static_cast<uint32_t>(id));
    };
    for (const json& e : array(b, "events"))
        if (auto id = event(e))
            c->events.push_back({*id, markOf(e)});
    for (const json& f : array(b, "families"))
        if (auto it = families.find(str(f, "family")); it != families.end())
            c->families.push_back({it->second, symptomMarkOf(f), count(f, "new_events"), count(f, "matched_events")});
    for (const json& m : array(b, "candidates"))
        if (auto id = event(m))
            c->candidates.push_back({*id, symptomMarkOf(m), boolean(m, "weighed_down")});
    for (const json& g : array(b, "gone"))
        c->gone.push_back({str(g, "symptom"), count(g, "baseline_count"), strings(g, "nodes")});
    for (const json& u : array(b, "new_unrecognized_lines")) {
        UnknownLineGroup g;
        g.text = str(u, "template");
        g.severity = enumOf(str(u, "severity"), Severity::Fatal, Severity::Warning);
        g.match = presentEnumOf(str(u, "status"), BaselineMatch::Gone, BaselineMatch::New);
        g.count = count(u, "count");
        g.nodes = strings(u, "nodes");
        g.nodeCount = count(u, "node_count");
        g.firstNs = timeOf(str(u, "first"));
        g.basis = g.firstNs == kNoTime ? TimeBasis::None : basisOf(u, "time_basis");
        g.file = str(u, "file");
        g.line = count(u, "line");
        c->unknownNew.push_back(std::move(g));
    }
    const json& t = member(b, "unrecognized_templates");
    c->unknownTemplates = count(t, "total");
    c->unknownAlso = count(t, "also_in_baseline");
    c->unknownNewTotal = count(t, "new");
    const std::string change = str(b, "verdict_change");
    c->change = change == "root_also_in_baseline"     ? BaselineVerdictChange::RootAlsoInBaseline
                : change == "root_only_new_candidate" ? BaselineVerdictChange::RootOnlyNewCandidate
                                                      : BaselineVerdictChange::None;
    c->verdict = str(b, "verdict");
    return c;
}

} // namespace

Result resultFromJson(const json& doc)
{
    if (!doc.is_object() || !doc.contains("status") || !doc.contains("schema_version"))
        throw std::invalid_argument("not a Faultline result document (no \"status\" or \"schema_version\")");
    Result r;
    readVerdict(doc, r);
    const std::map<std::string, FamilyId> familyIndex = readChain(member(doc, "symptom_chain"), r);
    const bool compact = r.events.empty();
    const std::map<std::string, uint32_t> fileIndex = readConnectors(doc, r);
    for (const json& e : array(doc, "evidence"))
        r.evidence.push_back(evidenceOf(e, r.evidence.size(), fileIndex, familyIndex));
    if (compact)
        eventsFromEvidence(r);
    if (const json& omitted = member(doc, "evidence_omitted"); omitted.is_object())
        for (const auto& [symptom, n] : omitted.items())
            if (n.is_number_unsigned())
                r.evidenceOmitted[symptom] = static_cast<uint32_t>(std::min<uint64_t>(n.get<uint64_t>(), UINT32_MAX));
    for (const json& c : array(doc, "clock_offsets")) {
        ClockOffset off{str(c, "node"), secondsToNs(member(c, "offset_s")), secondsToNs(member(c, "residual_s")),
                        count(c, "anchors"), str(c, "basis"), {}};
        for (const json& m : array(c, "moments"))
            off.moments.push_back({str(m, "key"), secondsToNs(member(m, "deviation_s")), count(m, "nodes")});
        r.clockOffsets.push_back(std::move(off));
    }
    for (const json& f : array(doc, "rules_fired"))
        if (const auto phase = phaseFromString(str(f, "phase")))
            r.rulesFired.push_back({str(f, "rule"), *phase, str(f, "effect"), count(f, "count")});
    r.warnings = strings(doc, "warnings");
    r.engineVersion = str(member(doc, "engine"), "version");
    r.rulesDigest = str(member(doc, "engine"), "rules_digest");
    r.baseline = baselineOf(member(doc, "baseline"), familyIndex);
    return r;
}

} // namespace fl
