#include "engine/result_json.h"
#include "baseline/comparison.h"
#include "engine/baseline_json.h"

#include "present/timefmt.h"
#include "present/verdict.h"
#include "present/would_decide.h"
#include "engine/families.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

namespace fl {

using nlohmann::json;

namespace {

json timeJson(const Timestamp& t)
{
    return t.known() ? json(formatTime(t)) : json();
}

// An interval's end: a wall-clock instant (null when unbounded).
json instantJson(int64_t ns)
{
    return ns == kNoTime ? json() : json(formatTimeUtc(ns));
}

json optInt(int v)
{
    return v < 0 ? json() : json(v);
}

json optStr(const std::string& s)
{
    return s.empty() ? json() : json(s);
}

json rawRef(const RawRef& r, const std::string& file)
{
    return {{"file", file}, {"offset", r.offset}, {"length", r.length}, {"line", r.line}, {"line_count", r.lineCount}};
}

} // namespace

namespace {

// Where the true moment lies, on the consensus clock; null on an unbounded side.
json intervalJson(const TimeInterval& iv)
{
    if (iv.earliestNs == kNoTime && iv.latestNs == kNoTime)
        return nullptr;
    return {{"earliest", instantJson(iv.earliestNs)}, {"latest", instantJson(iv.latestNs)}};
}

// null for a cause seen on a line; {from, rule} for one only named by symptoms.
json inferenceJson(const std::optional<Inference>& inf)
{
    if (!inf)
        return nullptr;
    return {{"from_symptom", inf->fromSymptom.str()}, {"rule", inf->rule.str()}};
}

// Why it won or lost as data (the verdict above is its words), so a reader of
// the document (resultFromJson, the workbench) tells it as a fresh analysis does.
json outcomeJson(const CandidateOutcome& o)
{
    return {{"reason", std::string(toString(o.reason))},
            {"other", o.other ? json(o.other->value) : json()},
            {"delta_ns", o.deltaNs},
            {"limit_ns", o.limitNs}};
}

json candidateJson(const Candidate& c, const present::CandidateIndex& candidates)
{
    return {{"event", c.event},
            {"symptom", c.symptom},
            {"title", c.title},
            {"domain", std::string(toString(c.domain))},
            {"sub_domain", optStr(c.subDomain)},
            {"node", optStr(c.node)},
            {"rank", optInt(c.rank)},
            {"gpu", optInt(c.gpuIndex)},
            {"time", timeJson(c.time)},
            {"time_basis", std::string(toString(c.time.basis))},
            {"time_interval", intervalJson(c.time.interval)},
            {"support", c.support},
            {"chosen", c.chosen},
            {"verdict", present::candidateVerdict(c, candidates)},
            {"outcome", outcomeJson(c.outcome)},
            {"evidence", c.evidence},
            {"inferred", inferenceJson(c.inferred)}};
}

// The hang's onset as the waiting symptoms date it (null when none waited).
json onsetJson(const std::optional<HangOnset>& o)
{
    if (!o)
        return nullptr;
    return {{"estimate", instantJson(o->estimateNs)},
            {"began", intervalJson(o->began)},
            {"all_waiting", intervalJson(o->allWaiting)},
            {"waits", o->waits},
            {"nodes", o->nodes},
            {"symptoms", o->symptoms},
            {"events", o->events}};
}

// What would order a tied pair (model.h, WouldDecide), with its sentence.
json wouldDecideJson(const WouldDecide& w)
{
    json kinds = json::array();
    for (SourceKind k : w.sources)
        kinds.push_back(std::string(toString(k)));
    return {{"candidates", {w.first, w.second}},
            {"nodes", w.nodes},
            {"sources", kinds},
            {"files", w.files},
            {"window", intervalJson(w.window)},
            {"resolution_s", double(w.resolutionNs) / 1e9},
            {"clock_s", double(w.clockNs) / 1e9},
            {"clock_needed_s", w.clockNeededNs == kNoTime ? json() : json(double(w.clockNeededNs) / 1e9)},
            {"text", present::wouldDecideText(w)}};
}

// A wait's bounds in seconds; max null when the line gives only a lower bound.
json waitedJson(const Wait& w)
{
    return {{"min_s", double(w.minNs) / 1e9}, {"max_s", w.maxNs == kNoTime ? json() : json(double(w.maxNs) / 1e9)}};
}

json eventJson(const SymptomEvent& e)
{
    json fields = json::object();
    for (const auto& [k, v] : e.fields)
        if (!k.empty() && k[0] != '_')
            fields[k] = v;
    json n = {{"id", e.id},
              {"symptom", e.symptom},
              {"original_symptom", e.originalSymptom != e.symptom ? json(e.originalSymptom) : json()},
              {"kind", e.kind == EventKind::BadNode ? "bad_node" : "interesting_node"},
              {"node", optStr(e.node)},
              {"rank", optInt(e.rank)},
              {"gpu", optInt(e.gpuIndex)},
              {"pci_bus", optStr(e.pciBus)},
              {"time", timeJson(e.time)},
              {"time_basis", std::string(toString(e.time.basis))},
              {"observations", e.observations},
              {"fields", fields},
              {"extracted_by", e.extractedBy.str()},
              {"count", e.count},
              {"suppressed", e.suppressed}};
    if (e.inferred)
        n["inferred"] = inferenceJson(e.inferred);
    if (e.waited)
        n["waited"] = waitedJson(*e.waited);
    if (e.suppressed)
        n["suppressed_by"] = {{"rule", e.suppressedBy.str()}, {"reason", e.suppressReason.str()}};
    if (e.roleOverride)
        n["role_override"] = {{"role", std::string(toString(*e.roleOverride))}, {"rule", e.roleOverrideBy.str()}};
    return n;
}

json familyJson(const SymptomFamily& f, bool detail)
{
    json causes = json::array();
    for (FamilyId c : f.causes)
        causes.push_back(familyId(c));
    json collective = json::object();
    for (const auto& [k, v] : f.collective)
        collective[k] = v;
    json j = {{"symptom", f.symptom},
              {"title", f.title},
              {"role", std::string(toString(f.role))},
              {"kind", f.kind == EventKind::BadNode ? "bad_node" : "interesting_node"},
              {"suppressed_by", optStr(f.suppressedBy)},
              {"causes", causes},
              {"collective", collective},
              {"nodes", optStr(f.nodeRanges)},
              {"node_count", f.nodes.size()},
              {"ranks", optStr(present::formatRanges(f.ranks))},
              {"rank_count", f.rankCount},
              {"count", f.count},
              {"occurrences", f.occurrences},
              {"first", timeJson(f.first)},
              {"last", timeJson(f.last)},
              {"time_interval", intervalJson(f.span)},
              {"representatives", f.representatives},
              {"evidence", f.evidence}};
    if (detail)
        j["events"] = f.events;
    return j;
}

json familyEdgeJson(const FamilyEdge& e)
{
    return {{"from", familyId(e.from)}, {"to", familyId(e.to)}, {"rule", e.rule}, {"count", e.count}};
}

json edgeJson(const ChainEdge& e)
{
    return {{"from", e.from}, {"to", e.to}, {"rule", e.rule}, {"label", optStr(e.label)}};
}

json evidenceJson(const EvidenceItem& e)
{
    return {{"id", toString(e.id)},
            {"kind", std::string(toString(e.kind))},
            {"source", std::string(toString(e.source))},
            {"node", optStr(e.node)},
            {"rank", optInt(e.rank)},
            {"gpu", optInt(e.gpuIndex)},
            {"time", timeJson(e.time)},
            {"time_basis", std::string(toString(e.time.basis))},
            {"raw", e.series.empty() ? rawRef(e.ref, e.file) : [&] {
                 json r = rawRef(e.ref, e.file);
                 r["series"] = e.series;
                 return r;
             }()},
            {"excerpt", e.excerpt},
            {"role", std::string(toString(e.role))},
            {"symptom", e.symptom},
            {"event", e.event},
            {"family", e.family ? json(familyId(*e.family)) : json()}};
}

json connectorJson(const ConnectorReport& c)
{
    return {{"file", c.file},
            {"kind", std::string(toString(c.kind))},
            {"kind_reason", optStr(c.kindReason)},
            {"node", optStr(c.node)},
            {"rank", optInt(c.rank)},
            {"status", std::string(toString(c.status))},
            {"reason", optStr(c.reason)},
            {"bytes", c.bytes},
            {"lines", c.lines},
            {"observations", c.observations},
            {"parse_errors", c.parseErrors}};
}

// Everything but the three arrays that grow with the bundle (chain nodes and
// edges, evidence, connector reports), which are written element by element.
// `withCandidates` false: "candidates" is null, for a caller that writes them itself.
json resultHead(const Result& r, bool withCandidates = true)
{
    json j;
    j["schema_version"] = Result::kSchemaVersion;
    j["status"] = std::string(toString(r.status));
    j["outcome"] = std::string(toString(r.outcome));
    j["domain"] = std::string(toString(r.domain));
    j["sub_domain"] = optStr(r.subDomain);
    j["summary"] = r.summary;
    j["workload"] = {{"id", optStr(r.workloadId)}, {"attempt", optInt(r.attempt)},
                     {"window_start", instantJson(r.windowStartNs)}, {"window_end", instantJson(r.windowEndNs)}};
    if (r.rootCause) {
        const RootCause& rc = *r.rootCause;
        j["root_cause"] = {{"event", rc.event},         {"symptom", rc.symptom}, {"title", rc.title},
                           {"node", optStr(rc.node)},   {"gpu", optInt(rc.gpuIndex)}, {"pci_bus", optStr(rc.pciBus)},
                           {"rank", optInt(rc.rank)},   {"time", timeJson(rc.time)},
                           {"time_basis", std::string(toString(rc.time.basis))},
                           {"time_interval", intervalJson(rc.time.interval)}, {"evidence", rc.evidence},
                           {"advice", optStr(rc.advice)}, {"inferred", inferenceJson(rc.inferred)}};
    } else {
        j["root_cause"] = nullptr;
    }
    j["missing"] = r.missing;
    j["onset"] = onsetJson(r.onset);
    j["would_decide"] = json::array();
    for (const WouldDecide& w : r.wouldDecide)
        j["would_decide"].push_back(wouldDecideJson(w));
    if (withCandidates) {
        json cands = json::array();
        const present::CandidateIndex index(r);
        for (const auto& c : r.candidates)
            cands.push_back(candidateJson(c, index));
        j["candidates"] = cands;
    } else {
        j["candidates"] = nullptr;
    }
    j["affected_nodes"] = r.affectedNodes;
    json clocks = json::array();
    for (const auto& c : r.clockOffsets) {
        json moments = json::array();
        for (const auto& m : c.moments)
            moments.push_back({{"key", m.key}, {"deviation_s", double(m.deviationNs) / 1e9}, {"nodes", m.nodes}});
        clocks.push_back({{"node", c.node}, {"offset_s", double(c.offsetNs) / 1e9},
                          {"residual_s", double(c.residualNs) / 1e9}, {"anchors", c.anchors}, {"basis", c.basis},
                          {"moments", moments}});
    }
    j["clock_offsets"] = clocks;

    j["evidence_omitted"] = r.evidenceOmitted;

    json fired = json::array();
    for (const auto& f : r.rulesFired)
        fired.push_back({{"rule", f.rule}, {"phase", std::string(toString(f.phase))}, {"effect", f.effect}, {"count", f.count}});
    j["rules_fired"] = fired;
    j["warnings"] = r.warnings;
    j["engine"] = {{"name", "faultline"}, {"version", r.engineVersion}, {"rules_digest", r.rulesDigest}};
    return j;
}

} // namespace

std::string familyId(FamilyId family)
{
    char id[32];
    std::snprintf(id, sizeof id, "fam-%04u", family.value + 1);
    return id;
}

json resultToJson(const Result& r, const ResultJsonOptions& options)
{
    json j = resultHead(r);
    if (r.baseline)
        j["baseline"] = baselineJson(*r.baseline, options.detail);
    json families = json::array();
    for (size_t i = 0; i < r.families.size(); ++i) {
        json f = familyJson(r.families[i], options.detail);
        f["id"] = familyId(FamilyId(static_cast<uint32_t>(i)));
        families.push_back(std::move(f));
    }
    json familyEdges = json::array();
    for (const auto& e : r.familyEdges)
        familyEdges.push_back(familyEdgeJson(e));
    j["symptom_chain"] = {{"families", families}, {"family_edges", familyEdges}};
    if (options.detail) {
        json nodes = json::array();
        for (const auto& e : r.events)
            nodes.push_back(eventJson(e));
        json edges = json::array();
        for (const auto& e : r.edges)
            edges.push_back(edgeJson(e));
        j["symptom_chain"]["nodes"] = nodes;
        j["symptom_chain"]["edges"] = edges;
    }
    json ev = json::array();
    for (const auto& e : r.evidence)
        ev.push_back(evidenceJson(e));
    j["evidence"] = ev;
    json conns = json::array();
    for (const auto& c : r.connectors)
        conns.push_back(connectorJson(c));
    j["connector_reports"] = conns;
    return j;
}

namespace {

constexpr auto kReplace = json::error_handler_t::replace;

void indent(std::string& out, int depth)
{
    out.append(static_cast<size_t>(depth) * 2, ' ');
}

// Appends `v` as dump(2) would print it at nesting `depth`. json::dump prints from depth 0 into a string of
// its own, which then had to be copied a byte at a time to indent it; its serializer (what dump runs) takes the
// depth and writes to `out` directly.
void writeValue(std::string& out, const json& v, int depth)
{
    nlohmann::detail::serializer<json> s(nlohmann::detail::output_adapter<char, std::string>(out), ' ', kReplace);
    s.dump(v, true, false, 2, static_cast<unsigned>(depth) * 2);
}

// `write(out, item, depth)` appends one item as dump(2) prints it at `depth`.
template <typename T, typename W>
void writeArrayWith(std::string& out, const std::vector<T>& items, int depth, W write)
{
    if (items.empty()) {
        out += "[]";
        return;
    }
    out += "[\n";
    for (size_t i = 0; i < items.size(); ++i) {
        indent(out, depth + 1);
        write(out, items[i], depth + 1);
        out += i + 1 < items.size() ? ",\n" : "\n";
    }
    indent(out, depth);
    out += ']';
}

template <typename T, typename F>
void writeArray(std::string& out, const std::vector<T>& items, int depth, F toJson)
{
    writeArrayWith(out, items, depth, [&](std::string& o, const T& item, int d) { writeValue(o, toJson(item), d); });
}

// An object of strings, numbers and nulls, printed as dump(2) prints it at `depth`. The caller names the keys in
// sorted order, the order of the DOM's std::map. There is one connector report per file: building each as a DOM
// only to print it was ~3 % of analysing a 64-node bundle in the service (callgrind), and evidence
// items are printed the same way.
class FlatObject {
public:
    FlatObject(std::string& out, int depth) : out_(out), depth_(depth) {}
    FlatObject& str(std::string_view key, std::string_view v)
    {
        name(key);
        quoted(v);
        return *this;
    }
    FlatObject& optStr(std::string_view key, std::string_view v) // null when empty, as optStr() above
    {
        return v.empty() ? null(key) : str(key, v);
    }
    FlatObject& num(std::string_view key, uint64_t v)
    {
        name(key);
        out_ += std::to_string(v);
        return *this;
    }
    FlatObject& optInt(std::string_view key, int v) // null when negative, as optInt() above
    {
        return v < 0 ? null(key) : num(key, static_cast<uint64_t>(v));
    }
    FlatObject& null(std::string_view key)
    {
        name(key);
        out_ += "null";
        return *this;
    }
    FlatObject& time(std::string_view key, const Timestamp& t) // as timeJson() above
    {
        return t.known() ? str(key, formatTime(t)) : null(key);
    }
    // An object as the value of `key`; close it before naming the next key of this one.
    FlatObject nested(std::string_view key)
    {
        name(key);
        return FlatObject(out_, depth_ + 1);
    }
    void close()
    {
        if (first_) {
            out_ += "{}";
            return;
        }
        out_ += '\n';
        indent(out_, depth_);
        out_ += '}';
    }

private:
    void name(std::string_view key)
    {
        assert(first_ || lastKey_ < key);
        lastKey_ = key;
        out_ += first_ ? "{\n" : ",\n";
        first_ = false;
        indent(out_, depth_ + 1);
        out_ += '"';
        out_ += key;
        out_ += "\": ";
    }
    void quoted(std::string_view v)
    {
        // What the serializer would escape or check as UTF-8 goes to it; printable ASCII is printed as it is.
        const bool plain = std::all_of(v.begin(), v.end(), [](char c) {
            const auto u = static_cast<unsigned char>(c);
            return u >= 0x20 && u < 0x7F && c != '"' && c != '\\';
        });
        if (!plain) {
            writeValue(out_, json(std::string(v)), depth_ + 1);
            return;
        }
        out_ += '"';
        out_ += v;
        out_ += '"';
    }

    std::string& out_;
    int depth_;
    bool first_ = true;
    std::string_view lastKey_;
};

void writeEvidence(std::string& out, const EvidenceItem& e, int depth)
{
    FlatObject o(out, depth);
    o.num("event", e.event.value).str("excerpt", e.excerpt);
    if (e.family)
        o.str("family", familyId(*e.family));
    else
        o.null("family");
    o.optInt("gpu", e.gpuIndex).str("id", toString(e.id)).str("kind", toString(e.kind)).optStr("node", e.node).optInt("rank", e.rank);
    FlatObject raw = o.nested("raw");
    raw.str("file", e.file)
        .num("length", e.ref.length)
        .num("line", e.ref.line)
        .num("line_count", e.ref.lineCount)
        .num("offset", e.ref.offset);
    if (!e.series.empty()) // metric items only: other results keep their bytes
        raw.str("series", e.series);
    raw.close();
    o.str("role", toString(e.role))
        .str("source", toString(e.source))
        .str("symptom", e.symptom)
        .time("time", e.time)
        .str("time_basis", toString(e.time.basis))
        .close();
}

void writeConnector(std::string& out, const ConnectorReport& c, int depth)
{
    FlatObject(out, depth)
        .num("bytes", c.bytes)
        .str("file", c.file)
        .str("kind", toString(c.kind))
        .optStr("kind_reason", c.kindReason)
        .num("lines", c.lines)
        .optStr("node", c.node)
        .num("observations", c.observations)
        .num("parse_errors", c.parseErrors)
        .optInt("rank", c.rank)
        .optStr("reason", c.reason)
        .str("status", toString(c.status))
        .close();
}

} // namespace

std::string resultToString(const Result& result, const ResultJsonOptions& options)
{
    // Streams the document instead of building it whole: for a 10,000-rank
    // bundle the DOM of the chain alone took hundreds of MB. The bytes are the
    // same as resultToJson(result).dump(2) (a test holds them equal).
    json head = resultHead(result, false); // candidates, chain and evidence are written one item at a time
    if (result.baseline)
        head["baseline"] = baselineJson(*result.baseline, options.detail);
    head["symptom_chain"] = nullptr;
    head["evidence"] = nullptr;
    head["connector_reports"] = nullptr;
    std::string out = "{\n";
    size_t i = 0;
    for (auto it = head.begin(); it != head.end(); ++it, ++i) {
        indent(out, 1);
        out += json(it.key()).dump() + ": ";
        if (it.key() == "symptom_chain") {
            // Keys in sorted order, as the DOM prints them.
            out += "{\n";
            if (options.detail) {
                indent(out, 2);
                out += "\"edges\": ";
                writeArray(out, result.edges, 2, edgeJson);
                out += ",\n";
            }
            indent(out, 2);
            out += "\"families\": ";
            uint32_t index = 0;
            writeArray(out, result.families, 2, [&](const SymptomFamily& f) {
                json j = familyJson(f, options.detail);
                j["id"] = familyId(FamilyId(index++));
                return j;
            });
            out += ",\n";
            indent(out, 2);
            out += "\"family_edges\": ";
            writeArray(out, result.familyEdges, 2, familyEdgeJson);
            if (options.detail) {
                out += ",\n";
                indent(out, 2);
                out += "\"nodes\": ";
                writeArray(out, result.events, 2, eventJson);
            }
            out += "\n";
            indent(out, 1);
            out += "}";
        } else if (it.key() == "candidates") {
            const present::CandidateIndex index(result);
            writeArray(out, result.candidates, 1, [&](const Candidate& c) { return candidateJson(c, index); });
        } else if (it.key() == "evidence") {
            writeArrayWith(out, result.evidence, 1, writeEvidence);
        } else if (it.key() == "connector_reports") {
            writeArrayWith(out, result.connectors, 1, writeConnector);
        } else {
            writeValue(out, it.value(), 1);
        }
        out += i + 1 < head.size() ? ",\n" : "\n";
    }
    out += "}\n";
    return out;
}

} // namespace fl
