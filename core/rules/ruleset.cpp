#include "rules/ruleset.h"

#include "rules/matcher.h"
#include "rules/rule.h"
#include "rules/samples.h"
#include "rules/sha256.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace fl {

using nlohmann::json;

namespace {

// Every rule's line is found this way at load: a byte loop over the file up to each rule was 40 % of loading
// the shipped rules (callgrind); counting newlines is vectorised.
void lineColumn(std::string_view text, size_t byte, int& line, int& column)
{
    const std::string_view before = text.substr(0, std::min(byte, text.size()));
    line = 1 + static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    const size_t lastNewline = before.rfind('\n');
    column = 1 + static_cast<int>(lastNewline == std::string_view::npos ? before.size() : before.size() - lastNewline - 1);
}

// Where a rule (or symptom) with this id is written, for error messages.
void locateId(std::string_view text, const std::string& id, int& line, int& column)
{
    line = 0;
    column = 0;
    if (id.empty())
        return;
    std::string needle = "\"" + id + "\"";
    size_t pos = 0;
    while ((pos = text.find(needle, pos)) != std::string_view::npos) {
        size_t back = text.rfind("\"id\"", pos);
        if (back != std::string_view::npos && pos - back < 16) {
            lineColumn(text, back, line, column);
            return;
        }
        pos += needle.size();
    }
}

struct Ctx {
    std::string_view text;
    const std::string& file;
    std::string id;
    [[noreturn]] void fail(const std::string& message) const
    {
        int line = 0, column = 0;
        locateId(text, id, line, column);
        throw RuleError(file, line, column, id, message);
    }
};

void checkKeys(const Ctx& ctx, const json& obj, std::initializer_list<std::string_view> allowed, std::string_view what)
{
    for (const auto& [key, value] : obj.items()) {
        (void)value;
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            ctx.fail("unknown key '" + key + "' in " + std::string(what));
    }
}

// Names a rule may not give to an event's fields. '_' names are the engine's
// (it once kept notes there: a rule setting "_max_evidence" to a word made the
// report throw, one setting "_file" regrouped node-less events). node, rank,
// gpu and pci are the event's place, typed members that a field of the same
// name would only shadow in templates; `placeNames` allows them where a field
// is only read or captured (a "pci" capture places a kernel line).
void checkFieldName(const Ctx& ctx, const std::string& name, std::string_view where, bool placeNames = false)
{
    if (name.empty())
        ctx.fail("an empty field name in " + std::string(where));
    if (name[0] == '_')
        ctx.fail("field '" + name + "' in " + std::string(where) + ": names starting with '_' are reserved for the engine");
    if (!placeNames && (name == "node" || name == "rank" || name == "gpu" || name == "pci"))
        ctx.fail("field '" + name + "' in " + std::string(where) +
                 ": node, rank, gpu and pci are the event's place, not fields (use move_to, or emit's own node/rank/gpu/pci)");
}

void checkFieldNames(const Ctx& ctx, const std::map<std::string, std::string>& fields, std::string_view where,
                     bool placeNames = false)
{
    for (const auto& [name, value] : fields) {
        (void)value;
        checkFieldName(ctx, name, where, placeNames);
    }
}

// The event key `text` names: node, gpu, rank, pci or field:<name>. A field
// key naming a reserved ('_') field is refused, not just unknown: it would
// read nothing on every event, so a group_by or join on it would silently
// lump all events together.
std::optional<EventKey> eventKey(const Ctx& ctx, const std::string& text, std::string_view where)
{
    std::optional<EventKey> k = eventKeyFromString(text);
    if (k && k->part == EventKey::Part::Field && k->field[0] == '_')
        ctx.fail("'" + text + "' in " + std::string(where) + ": names starting with '_' are reserved for the engine");
    return k;
}

std::string str(const Ctx& ctx, const json& obj, const char* key, bool required = false)
{
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (required)
            ctx.fail(std::string("missing '") + key + "'");
        return {};
    }
    if (!it->is_string())
        ctx.fail(std::string("'") + key + "' must be a string");
    return it->get<std::string>();
}

std::vector<std::string> strList(const Ctx& ctx, const json& obj, const char* key)
{
    std::vector<std::string> out;
    auto it = obj.find(key);
    if (it == obj.end())
        return out;
    if (it->is_string()) {
        out.push_back(it->get<std::string>());
        return out;
    }
    if (!it->is_array())
        ctx.fail(std::string("'") + key + "' must be a string or a list of strings");
    for (const auto& v : *it) {
        if (!v.is_string())
            ctx.fail(std::string("'") + key + "' must contain strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

// The keys listed under `name` in `obj`.
std::vector<EventKey> eventKeys(const Ctx& ctx, const json& obj, const char* name)
{
    std::vector<EventKey> keys;
    for (const std::string& text : strList(ctx, obj, name)) {
        std::optional<EventKey> k = eventKey(ctx, text, name);
        if (!k)
            ctx.fail("'" + std::string(name) + "' accepts node, gpu, rank, pci or field:<name>, not '" + text + "'");
        keys.push_back(std::move(*k));
    }
    return keys;
}

std::map<std::string, std::string> strMap(const Ctx& ctx, const json& obj, const char* key)
{
    std::map<std::string, std::string> out;
    auto it = obj.find(key);
    if (it == obj.end())
        return out;
    if (!it->is_object())
        ctx.fail(std::string("'") + key + "' must be an object of strings");
    for (const auto& [k, v] : it->items()) {
        if (v.is_string())
            out[k] = v.get<std::string>();
        else if (v.is_number_integer())
            out[k] = std::to_string(v.get<long long>());
        else
            ctx.fail(std::string("'") + key + "." + k + "' must be a string");
    }
    return out;
}

EventKind parseKind(const Ctx& ctx, const std::string& s)
{
    if (s == "bad_node")
        return EventKind::BadNode;
    if (s == "interesting_node")
        return EventKind::InterestingNode;
    ctx.fail("kind must be 'bad_node' or 'interesting_node', not '" + s + "'");
}

Domain parseDomain(const Ctx& ctx, const std::string& s)
{
    if (std::optional<Domain> d = domainFromString(s))
        return *d;
    ctx.fail("unknown domain '" + s + "' (gpu, nvlink, network, host, storage, scheduler, workload, unknown)");
}

// "continued": {pattern, lines, samples}: fields read from a line after the matched one (rule.h, Continuation).
Continuation parseContinued(const Ctx& ctx, const json& c)
{
    if (!c.is_object())
        ctx.fail("'continued' must be an object {pattern, lines, samples}");
    checkKeys(ctx, c, {"pattern", "lines", "samples"}, "continued");
    Continuation out;
    out.pattern = str(ctx, c, "pattern", true);
    if (out.pattern.find("(?P<") == std::string::npos)
        ctx.fail("'continued' pattern reads no field: it needs a named group");
    auto lines = c.find("lines");
    if (lines == c.end() || !lines->is_number_unsigned() || lines->get<unsigned long long>() > 1000)
        ctx.fail("'continued' needs 'lines', a whole number up to 1000 (how many following lines may hold it)");
    out.lines = int(lines->get<unsigned long long>());
    Rule probe;
    try {
        parseRuleSamples(json{{"samples", c.value("samples", json::array())}}, probe);
    } catch (const std::invalid_argument& e) {
        ctx.fail(std::string("'continued' ") + e.what());
    }
    if (probe.samples.empty())
        ctx.fail("'continued' needs 'samples': the lines it must match, with their fields");
    out.samples = std::move(probe.samples);
    return out;
}

// emit.waited: one {field, unit, at_least} or a list of them, tried in order. The field must be one the rule
// gives its events (a named group of the pattern or an emit field): a misspelt one would never read a wait.
std::vector<WaitedField> parseWaited(const Ctx& ctx, const json& w, const Rule& r)
{
    // A jiffy lasts 1/HZ s, and the kernel's HZ is not in its log: Kconfig offers 100, 250, 300 and 1000, so a
    // count of jiffies is read as at least that many ms (HZ=1000, the shortest jiffy). docs/rules.md.
    static const std::pair<std::string_view, int64_t> kUnits[] = {
        {"ns", 1}, {"us", 1'000}, {"ms", 1'000'000}, {"s", 1'000'000'000}, {"min", 60'000'000'000},
        {"jiffies", 1'000'000}};
    std::vector<WaitedField> out;
    const json list = w.is_array() ? w : json::array({w});
    if (list.empty())
        ctx.fail("emit 'waited' needs at least one {field, unit}");
    for (const json& one : list) {
        if (!one.is_object())
            ctx.fail("emit 'waited' must be an object {field, unit, at_least} or a list of them");
        checkKeys(ctx, one, {"field", "value", "unit", "at_least"}, "emit 'waited'");
        WaitedField f;
        f.field = str(ctx, one, "field");
        if (auto v = one.find("value"); v != one.end()) {
            if (!v->is_number_unsigned())
                ctx.fail("emit 'waited' 'value' must be a whole number (0: waited at least 0 since the line)");
            f.value = std::to_string(v->get<unsigned long long>());
        }
        if (f.field.empty() == f.value.empty())
            ctx.fail("emit 'waited' needs either a 'field' or a constant 'value'");
        f.unit = str(ctx, one, "unit", true);
        for (const auto& [name, ns] : kUnits)
            if (f.unit == name)
                f.unitNs = ns;
        if (!f.unitNs)
            ctx.fail("emit 'waited' unit '" + f.unit + "' is none of ns, us, ms, s, min, jiffies");
        if (auto a = one.find("at_least"); a != one.end()) {
            if (!a->is_boolean())
                ctx.fail("emit 'waited' 'at_least' must be true or false");
            f.atLeast = a->get<bool>();
        }
        if (f.unit == "jiffies" && !f.atLeast)
            ctx.fail("emit 'waited' in jiffies needs \"at_least\": true (HZ is not in the log: a jiffy is at least 1 ms)");
        const auto named = [&](const std::string& pattern) {
            return pattern.find("(?P<" + f.field + ">") != std::string::npos;
        };
        if (!f.field.empty() && !named(r.pattern) && !r.emitFields.count(f.field) &&
            !(r.continued && named(r.continued->pattern)))
            ctx.fail("emit 'waited' field '" + f.field +
                     "' is neither a named group of the pattern or of 'continued' nor an emit field");
        out.push_back(std::move(f));
    }
    return out;
}

// "trend": a producer over a series (engine/trends.cpp); it matches no events
// and takes no other action.
void parseTrend(const Ctx& ctx, const json& rule, const json& t, Rule& r)
{
    for (const char* other : {"match", "if", "unless", "suppress", "set_symptom", "set_role", "set_kind", "set_fields",
                              "decode", "link_from", "merge_into", "move_to", "copy_fields", "absent_ranks", "infer",
                              "evidence_role", "max_evidence"})
        if (rule.contains(other))
            ctx.fail(std::string("'trend' emits events from a series and takes no '") + other + "'");
    if (r.phase < Phase::FilterEarly || r.phase > Phase::RefineFinal)
        ctx.fail("trend needs a filter or refine phase");
    if (!t.is_object())
        ctx.fail("'trend' must be an object {series, kind, by, last, min_points, factor, share, min_growth, recovery, symptom, fields}");
    checkKeys(ctx, t, {"series", "kind", "by", "last", "min_points", "factor", "share", "min_growth", "recovery", "symptom", "fields"},
              "trend");
    Trend tr;
    tr.series = str(ctx, t, "series", true);
    const std::string kind = str(ctx, t, "kind", true);
    if (kind == "straggler")
        tr.kind = TrendKind::Straggler;
    else if (kind == "spike")
        tr.kind = TrendKind::Spike;
    else if (kind == "growth")
        tr.kind = TrendKind::Growth;
    else
        ctx.fail("trend 'kind' must be straggler, spike or growth, not '" + kind + "'");
    if (auto by = str(ctx, t, "by"); !by.empty())
        tr.by = by;
    const bool byOk = tr.kind == TrendKind::Straggler ? (tr.by == "rank" || tr.by == "node") : (tr.by == "rank" || tr.by == "job");
    if (!byOk)
        ctx.fail(std::string("trend 'by' must be ") + (tr.kind == TrendKind::Straggler ? "rank or node" : "rank or job"));
    auto integer = [&](const char* key, int& out, int lo) {
        if (auto it = t.find(key); it != t.end()) {
            if (!it->is_number_integer() || it->get<int>() < lo || it->get<int>() > 100000)
                ctx.fail(std::string("trend '") + key + "' must be an integer >= " + std::to_string(lo));
            out = it->get<int>();
        }
    };
    auto number = [&](const char* key, double& out, double lo, double hi) {
        if (auto it = t.find(key); it != t.end()) {
            if (!it->is_number() || it->get<double>() < lo || it->get<double>() > hi)
                ctx.fail(std::string("trend '") + key + "' must be a number in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
            out = it->get<double>();
        }
    };
    integer("last", tr.last, 2);
    integer("min_points", tr.minPoints, 1);
    number("factor", tr.factor, 1.0, 1e6);
    number("share", tr.share, 0.0, 1.0);
    number("min_growth", tr.minGrowth, 0.0, 1e6);
    number("recovery", tr.recovery, 0.0, 1e6);
    tr.symptom = str(ctx, t, "symptom", true);
    tr.fields = strMap(ctx, t, "fields");
    checkFieldNames(ctx, tr.fields, "trend 'fields'");
    r.trend = tr;
}

// "metric": an extract rule over a metric series (engine/metric_rules.cpp). Its samples are series values,
// not lines: {"values": [..], "labels": {..}, "symptom", "fields"} or {"peers": [[..], ..]}.
MetricRuleSample parseMetricSample(const Ctx& ctx, const json& s, bool across)
{
    if (!s.is_object())
        ctx.fail("a metric rule's sample must be an object {\"values\": [...]} or {\"peers\": [[...], ...]}");
    checkKeys(ctx, s, {"values", "peers", "labels", "symptom", "fields"}, "metric sample");
    MetricRuleSample out;
    auto values = [&](const json& list) {
        if (!list.is_array() || list.empty())
            ctx.fail("metric sample values must be a non-empty list of numbers (null: a missing scrape)");
        std::vector<double> v;
        for (const json& x : list) {
            if (x.is_null())
                v.push_back(std::numeric_limits<double>::quiet_NaN());
            else if (x.is_number())
                v.push_back(x.get<double>());
            else
                ctx.fail("metric sample values must be numbers or null");
        }
        return v;
    };
    if (auto v = s.find("values"); v != s.end())
        out.series.push_back(values(*v));
    if (auto p = s.find("peers"); p != s.end()) {
        if (!p->is_array())
            ctx.fail("metric sample 'peers' must be a list of value lists");
        for (const json& one : *p)
            out.series.push_back(values(one));
    }
    if (out.series.empty() || (s.contains("values") && s.contains("peers")))
        ctx.fail("a metric sample gives either 'values' (one series) or 'peers' (several)");
    if (across != s.contains("peers"))
        ctx.fail(across ? "a peers / all_below / all_fall rule's samples give 'peers' (several series)"
                        : "this metric rule judges one series: its samples give 'values'");
    out.labels = strMap(ctx, s, "labels");
    out.symptom = str(ctx, s, "symptom");
    out.fields = strMap(ctx, s, "fields");
    return out;
}

void parseMetricRule(const Ctx& ctx, const json& j, const json& m, Rule& r)
{
    if (!m.is_object())
        ctx.fail("'metric' must be an object {series, kind, ...}");
    checkKeys(ctx, m, {"series", "labels", "kind", "threshold", "min_increase", "nonzero", "mask", "bits", "z", "direction",
                       "min_peers", "min_spread", "min_points", "max_share", "min_series", "fraction"},
              "metric");
    MetricRule mr;
    mr.series = str(ctx, m, "series", true);
    mr.labels = strMap(ctx, m, "labels");
    const std::string kind = str(ctx, m, "kind", true);
    static const std::pair<std::string_view, MetricKind> kKinds[] = {
        {"increase", MetricKind::Increase}, {"above", MetricKind::Above}, {"below", MetricKind::Below},
        {"change", MetricKind::Change},     {"bits", MetricKind::Bits},   {"peers", MetricKind::Peers},
        {"all_below", MetricKind::AllBelow}, {"all_fall", MetricKind::AllFall}, {"window_count", MetricKind::WindowCount}};
    bool known = false;
    for (const auto& [name, k] : kKinds)
        if (kind == name) {
            mr.kind = k;
            known = true;
        }
    if (!known)
        ctx.fail("metric 'kind' must be increase, above, below, change, bits, peers, all_below, all_fall or window_count, not '" +
                 kind + "'");
    auto number = [&](const char* key, double& out, double lo, double hi) {
        if (auto it = m.find(key); it != m.end()) {
            if (!it->is_number() || it->get<double>() < lo || it->get<double>() > hi)
                ctx.fail(std::string("metric '") + key + "' must be a number in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
            out = it->get<double>();
        }
    };
    auto integer = [&](const char* key, int& out, int lo) {
        if (auto it = m.find(key); it != m.end()) {
            if (!it->is_number_integer() || it->get<int>() < lo || it->get<int>() > 100000)
                ctx.fail(std::string("metric '") + key + "' must be an integer >= " + std::to_string(lo));
            out = it->get<int>();
        }
    };
    auto only = [&](std::initializer_list<const char*> keys, std::initializer_list<MetricKind> kinds) {
        for (const char* k : keys)
            if (m.contains(k) && std::find(kinds.begin(), kinds.end(), mr.kind) == kinds.end())
                ctx.fail(std::string("metric '") + k + "' does not apply to kind '" + kind + "'");
    };
    only({"threshold"}, {MetricKind::Above, MetricKind::Below, MetricKind::AllBelow});
    only({"min_increase"}, {MetricKind::Increase, MetricKind::WindowCount});
    only({"nonzero"}, {MetricKind::Change});
    only({"mask", "bits"}, {MetricKind::Bits});
    only({"z", "direction", "min_spread", "max_share", "min_peers"}, {MetricKind::Peers});
    only({"min_points"}, {MetricKind::Peers, MetricKind::AllFall});
    only({"min_series"}, {MetricKind::AllBelow, MetricKind::AllFall});
    only({"fraction"}, {MetricKind::AllFall});
    if (mr.kind == MetricKind::Above || mr.kind == MetricKind::Below || mr.kind == MetricKind::AllBelow) {
        if (!m.contains("threshold"))
            ctx.fail("metric kind '" + kind + "' needs a 'threshold'");
        number("threshold", mr.threshold, -1e300, 1e300);
    }
    number("min_increase", mr.threshold, 0, 1e300);
    if (auto it = m.find("nonzero"); it != m.end()) {
        if (!it->is_boolean())
            ctx.fail("metric 'nonzero' must be true or false");
        mr.nonzero = it->get<bool>();
    }
    auto hex = [&](const std::string& text, const char* what) {
        try {
            size_t used = 0;
            const uint64_t v = std::stoull(text, &used, 0);
            if (used == text.size())
                return v;
        } catch (const std::exception&) {
        }
        ctx.fail(std::string("metric ") + what + " '" + text + "' is not a number (0x.. or decimal)");
        return uint64_t(0);
    };
    if (mr.kind == MetricKind::Bits) {
        auto bits = m.find("bits");
        if (bits == m.end() || !bits->is_object() || bits->empty())
            ctx.fail("metric kind 'bits' needs 'bits': {\"0x8\": \"hw_slowdown\", ...}");
        for (auto it = bits->begin(); it != bits->end(); ++it) {
            const uint64_t bit = hex(it.key(), "bit");
            if (bit == 0 || (bit & (bit - 1)) != 0)
                ctx.fail("metric bit '" + it.key() + "' must be a single bit");
            if (!it.value().is_string())
                ctx.fail("metric bit '" + it.key() + "' must name the bit");
            mr.bitNames[bit] = it.value().get<std::string>();
            mr.mask |= bit;
        }
        if (auto mk = m.find("mask"); mk != m.end()) {
            if (!mk->is_string())
                ctx.fail("metric 'mask' must be a string (\"0x68\")");
            mr.mask = hex(mk->get<std::string>(), "mask");
        }
    }
    number("z", mr.z, 0.5, 1e6);
    if (auto d = str(ctx, m, "direction"); !d.empty()) {
        if (d != "high" && d != "low" && d != "both")
            ctx.fail("metric 'direction' must be high, low or both");
        mr.direction = d;
    }
    integer("min_peers", mr.minPeers, 2);
    integer("min_series", mr.minPeers, 2);
    if (mr.jobWide() && !m.contains("min_series"))
        mr.minPeers = 2;
    if (mr.kind == MetricKind::AllFall && !m.contains("fraction"))
        ctx.fail("metric kind 'all_fall' needs a 'fraction' (of the level before, in (0, 1))");
    number("fraction", mr.fraction, 0.01, 0.99);
    number("min_spread", mr.minSpread, 0, 1e300);
    integer("min_points", mr.minPoints, 1);
    number("max_share", mr.maxShare, 0, 1);

    for (const char* key : {"samples", "benign"}) {
        auto it = j.find(key);
        if (it == j.end())
            continue;
        if (!it->is_array())
            ctx.fail(std::string("'") + key + "' must be a list");
        for (const json& s : *it)
            (std::string_view(key) == "samples" ? mr.samples : mr.benign).push_back(parseMetricSample(ctx, s, mr.acrossSeries()));
    }
    r.metric = std::move(mr);
}

Selector parseSelector(const Ctx& ctx, const json& j)
{
    if (!j.is_object())
        ctx.fail("a selector must be an object");
    checkKeys(ctx, j, {"symptom", "not_symptom", "role", "domain", "kind", "fields", "include_suppressed"}, "selector");
    Selector s;
    s.symptoms = strList(ctx, j, "symptom");
    s.notSymptoms = strList(ctx, j, "not_symptom");
    if (auto r = str(ctx, j, "role"); !r.empty()) {
        s.role = symptomRoleFromString(r);
        if (!s.role)
            ctx.fail("role must be initiator, symptom, informational or unknown, not '" + r + "'");
    }
    if (auto d = str(ctx, j, "domain"); !d.empty())
        s.domain = parseDomain(ctx, d);
    if (auto k = str(ctx, j, "kind"); !k.empty())
        s.kind = parseKind(ctx, k);
    s.fields = strMap(ctx, j, "fields");
    checkFieldNames(ctx, s.fields, "selector 'fields'", true);
    if (auto it = j.find("include_suppressed"); it != j.end()) {
        if (!it->is_boolean())
            ctx.fail("'include_suppressed' must be true or false");
        s.includeSuppressed = it->get<bool>();
    }
    return s;
}

Relation parseRelation(const Ctx& ctx, const json& j)
{
    if (!j.is_object())
        ctx.fail("a relation must be an object");
    checkKeys(ctx, j,
              {"symptom", "not_symptom", "role", "domain", "kind", "fields", "include_suppressed", "same", "different",
               "join", "within_s", "order", "at_least", "count_distinct", "greater", "less"},
              "relation");
    Relation r;
    json sel = json::object();
    for (const char* k : {"symptom", "not_symptom", "role", "domain", "kind", "fields", "include_suppressed"})
        if (j.contains(k))
            sel[k] = j[k];
    r.other = parseSelector(ctx, sel);
    r.same = eventKeys(ctx, j, "same");
    r.different = eventKeys(ctx, j, "different");
    r.greater = eventKeys(ctx, j, "greater");
    r.less = eventKeys(ctx, j, "less");
    for (const auto& [mine, theirs] : strMap(ctx, j, "join")) {
        std::optional<EventKey> a = eventKey(ctx, mine, "join"), b = eventKey(ctx, theirs, "join");
        if (!a || !b)
            ctx.fail("'join' maps a key of this event to a key of the other (node, gpu, rank, pci, field:<name>), not '" +
                     mine + "': '" + theirs + "'");
        r.join.push_back({std::move(*a), std::move(*b)});
    }
    if (auto it = j.find("within_s"); it != j.end()) {
        if (it->is_number()) {
            double w = it->get<double>();
            r.withinLo = -w;
            r.withinHi = w;
        } else if (it->is_array() && it->size() == 2 && (*it)[0].is_number() && (*it)[1].is_number()) {
            r.withinLo = (*it)[0].get<double>();
            r.withinHi = (*it)[1].get<double>();
            if (r.withinLo > r.withinHi)
                ctx.fail("'within_s' [lo, hi] needs lo <= hi");
        } else {
            ctx.fail("'within_s' must be a number or [lo, hi] in seconds (other minus this)");
        }
        r.timed = true;
    }
    const std::string order = str(ctx, j, "order");
    if (!order.empty()) {
        const std::optional<IntervalOrder> o = intervalOrderFromString(order);
        if (!o)
            ctx.fail("'order' must be before, after, overlaps, not_after, not_before or within, not '" + order + "'");
        r.order = *o;
    }
    if (r.order == IntervalOrder::Within && !r.timed)
        ctx.fail("'order': 'within' needs 'within_s': the window the two intervals must certainly lie in");
    if (auto it = j.find("at_least"); it != j.end()) {
        if (!it->is_number_integer() || it->get<int>() < 1)
            ctx.fail("'at_least' must be a positive integer");
        r.atLeast = it->get<int>();
    }
    if (const std::string distinct = str(ctx, j, "count_distinct"); !distinct.empty()) {
        r.countDistinct = eventKey(ctx, distinct, "count_distinct");
        if (!r.countDistinct)
            ctx.fail("'count_distinct' accepts node, gpu, rank, pci or field:<name>, not '" + distinct + "'");
    }
    return r;
}

// The head every rule has: id, where it is, description and phase.
Rule parseRuleHead(Ctx& ctx, std::string_view text, const std::string& file, const json& j)
{
    if (!j.is_object())
        ctx.fail("each rule must be an object");
    if (auto it = j.find("id"); it != j.end() && it->is_string())
        ctx.id = it->get<std::string>();
    Rule r;
    r.id = str(ctx, j, "id", true);
    if (r.id.empty())
        ctx.fail("'id' must not be empty");
    r.file = file;
    int col = 0;
    locateId(text, r.id, r.line, col);
    r.description = str(ctx, j, "description");
    std::string phase = str(ctx, j, "phase", true);
    auto p = phaseFromString(phase);
    if (!p || *p == Phase::Outcome) // the engine's own step: no rule runs in it
        ctx.fail("unknown phase '" + phase +
                 "' (extract, filter.early, filter, filter.late, refine.early, refine, refine.final, post_outcome, report)");
    r.phase = *p;
    return r;
}

// What an extract rule reads: a metric series, or lines (sources, pattern, literals, exclude, case).
void parseExtractInput(const Ctx& ctx, const json& j, Rule& r)
{
    if (auto m = j.find("metric"); m != j.end()) {
        parseMetricRule(ctx, j, *m, r);
        json refs = j; // its samples are series values, read above; "source" as any rule's
        refs.erase("samples");
        refs.erase("benign");
        try {
            parseRuleSamples(refs, r);
        } catch (const std::invalid_argument& e) {
            ctx.fail(e.what());
        }
        for (const char* other : {"pattern", "literal", "exclude", "ignore_case", "series"})
            if (j.contains(other))
                ctx.fail(std::string("a metric rule reads a series, not lines: it takes no '") + other + "'");
    } else {
        try {
            parseRuleSamples(j, r);
        } catch (const std::invalid_argument& e) {
            ctx.fail(e.what());
        }
    }
    for (const auto& s : strList(ctx, j, "sources")) {
        auto k = sourceKindFromString(s);
        if (!k)
            ctx.fail("unknown source '" + s + "' (applog, syslog, fabricmanager, scheduler, metrics, gpu_snapshot, hostmap)");
        r.sources.push_back(*k);
    }
    if (r.metric) {
        if (r.sources.size() != 1 || r.sources[0] != SourceKind::Metrics)
            ctx.fail("a metric rule's 'sources' must be [\"metrics\"]");
    } else
        r.pattern = str(ctx, j, "pattern", true);
    if (r.pattern.find("(?i") != std::string::npos)
        ctx.fail("use \"ignore_case\": true instead of (?i) so the literal pre-filter ignores case too");
    r.literals = strList(ctx, j, "literal");
    for (const auto& l : r.literals)
        if (l.empty())
            ctx.fail("'literal' must not be empty");
    r.noLiteral = str(ctx, j, "no_literal");
    if (!r.noLiteral.empty() && !r.literals.empty())
        ctx.fail("a rule with a 'literal' has a pre-filter: drop 'no_literal'");
    for (const char* open : {"(?P<_", "(?<_"})
        if (r.pattern.find(open) != std::string::npos)
            ctx.fail("a capture name in 'pattern' starts with '_': names starting with '_' are reserved for the engine");
    r.exclude = str(ctx, j, "exclude");
    if (auto it = j.find("ignore_case"); it != j.end())
        r.ignoreCase = it->is_boolean() && it->get<bool>();
}

// "series": the rule captures a point of a series. True when that is all it does (no "emit").
bool parseSeriesCapture(const Ctx& ctx, const json& j, Rule& r)
{
    if (auto se = j.find("series"); se != j.end()) {
        if (!se->is_object())
            ctx.fail("'series' must be an object {name, value, unit, step, rank}");
        checkKeys(ctx, *se, {"name", "value", "unit", "step", "rank"}, "series");
        SeriesCapture c;
        c.name = str(ctx, *se, "name", true);
        c.value = str(ctx, *se, "value", true);
        c.unit = str(ctx, *se, "unit");
        c.step = str(ctx, *se, "step");
        c.rank = str(ctx, *se, "rank");
        r.series = c;
        if (j.find("emit") == j.end())
            return true; // a point of a series only: no event
    }
    return false;
}

// "continued" and "emit": the event an extract rule makes of its match.
void parseEmit(const Ctx& ctx, const json& j, Rule& r)
{
    if (auto c = j.find("continued"); c != j.end())
        r.continued = parseContinued(ctx, *c);
    auto emit = j.find("emit");
    if (emit == j.end() || !emit->is_object())
        ctx.fail("an extract rule needs an 'emit' object with at least a 'symptom' (or a 'series')");
    checkKeys(ctx, *emit, {"symptom", "kind", "node", "rank", "gpu", "pci", "fields", "read", "waited"}, "emit");
    r.emitSymptom = str(ctx, *emit, "symptom", true);
    if (auto k = str(ctx, *emit, "kind"); !k.empty())
        r.emitKind = parseKind(ctx, k);
    for (const char* special : {"node", "rank", "gpu", "pci"})
        if (auto v = str(ctx, *emit, special); !v.empty())
            r.emitFields[std::string("@") + special] = v;
    for (auto& [k, v] : strMap(ctx, *emit, "fields")) {
        checkFieldName(ctx, k, "emit 'fields'");
        if (k == "read")
            ctx.fail("a field 'read' in emit 'fields' no longer asks the engine to read a record: use emit's "
                     "\"read\": \"" + std::string(toString(RecordReader::TorchrunRootCause)) + "\"");
        r.emitFields[k] = v;
    }
    if (auto read = str(ctx, *emit, "read"); !read.empty()) {
        if (read != toString(RecordReader::TorchrunRootCause))
            ctx.fail("unknown 'read' in emit: '" + read + "' (" +
                     std::string(toString(RecordReader::TorchrunRootCause)) + ")");
        r.emitRead = RecordReader::TorchrunRootCause;
    }
    if (auto w = emit->find("waited"); w != emit->end())
        r.waited = parseWaited(ctx, *w, r);
}

Rule parseExtractRule(const Ctx& ctx, const json& j, Rule r)
{
    checkKeys(ctx, j,
              {"id", "description", "phase", "sources", "pattern", "literal", "no_literal", "exclude", "ignore_case",
               "emit", "samples", "benign", "source", "series", "continued", "metric"},
              "extract rule");
    parseExtractInput(ctx, j, r);
    if (parseSeriesCapture(ctx, j, r))
        return r;
    parseEmit(ctx, j, r);
    return r;
}

// Each parse*Action(s) below reads some of the actions a non-extract rule may take and returns how many it found.

// suppress, set_symptom, infer, set_role, set_kind, set_fields: the event itself edited.
int parseEditActions(const Ctx& ctx, const json& j, Rule& r)
{
    int actions = 0;
    if (j.contains("suppress")) {
        r.suppress = str(ctx, j, "suppress");
        ++actions;
    }
    if (j.contains("set_symptom")) {
        r.setSymptom = str(ctx, j, "set_symptom");
        ++actions;
    }
    if (auto it = j.find("infer"); it != j.end()) {
        if (!it->is_object())
            ctx.fail("'infer' must be an object {\"symptom\": template, \"before_s\": seconds}");
        checkKeys(ctx, *it, {"symptom", "before_s"}, "infer");
        Infer inf;
        inf.symptom = str(ctx, *it, "symptom", true);
        if (auto b = it->find("before_s"); b != it->end()) {
            if (!b->is_number() || b->get<double>() < 0 || b->get<double>() > 86400)
                ctx.fail("infer 'before_s' must be a number of seconds in [0, 86400]");
            inf.beforeS = b->get<double>();
        }
        if (r.setSymptom)
            ctx.fail("'infer' names the symptom itself: do not also give set_symptom");
        r.infer = inf;
        ++actions;
    }
    if (auto v = str(ctx, j, "set_role"); !v.empty()) {
        r.setRole = symptomRoleFromString(v);
        if (!r.setRole)
            ctx.fail("set_role must be initiator, symptom, informational or unknown");
        ++actions;
    }
    if (auto v = str(ctx, j, "set_kind"); !v.empty()) {
        r.setKind = parseKind(ctx, v);
        ++actions;
    }
    r.setFields = strMap(ctx, j, "set_fields");
    checkFieldNames(ctx, r.setFields, "set_fields");
    actions += r.setFields.empty() ? 0 : 1;
    return actions;
}

int parseDecodeAction(const Ctx& ctx, const json& j, Rule& r)
{
    int actions = 0;
    if (auto it = j.find("decode"); it != j.end()) {
        if (!it->is_object())
            ctx.fail("'decode' must be an object {field, shift, mask, into, map}");
        checkKeys(ctx, *it, {"field", "shift", "mask", "into", "map"}, "decode");
        Decode dcd;
        dcd.field = str(ctx, *it, "field", true);
        dcd.into = str(ctx, *it, "into", true);
        checkFieldName(ctx, dcd.into, "decode 'into'");
        if (auto s = it->find("shift"); s != it->end()) {
            if (!s->is_number_integer() || s->get<int>() < 0 || s->get<int>() > 63)
                ctx.fail("decode 'shift' must be an integer 0..63");
            dcd.shift = s->get<int>();
        }
        if (auto mk = it->find("mask"); mk != it->end()) {
            std::string ms = mk->is_string() ? mk->get<std::string>() : std::string();
            if (mk->is_number_unsigned())
                dcd.mask = mk->get<uint64_t>();
            else {
                try {
                    size_t used = 0;
                    dcd.mask = std::stoull(ms, &used, 0);
                    if (used != ms.size())
                        throw std::invalid_argument("trailing");
                } catch (const std::exception&) {
                    ctx.fail("decode 'mask' must be a number or a string like \"0x3f\"");
                }
            }
        }
        dcd.map = strMap(ctx, *it, "map");
        r.decode = dcd;
        ++actions;
    }
    return actions;
}

// link_from, merge_into, move_to, copy_fields: the event tied to others.
int parseRelationActions(const Ctx& ctx, const json& j, Rule& r)
{
    int actions = 0;
    if (auto it = j.find("link_from"); it != j.end()) {
        r.linkFrom = parseRelation(ctx, *it);
        r.linkLabel = str(ctx, j, "label");
        ++actions;
    }
    if (auto it = j.find("merge_into"); it != j.end()) {
        r.mergeWith = parseRelation(ctx, *it);
        ++actions;
    }
    if (auto it = j.find("move_to"); it != j.end()) {
        if (!it->is_object())
            ctx.fail("'move_to' must be an object: {\"node\": template}, {\"rank\": template} or {\"related\": relation}");
        checkKeys(ctx, *it, {"node", "rank", "related"}, "move_to");
        MoveTo mv;
        mv.node = str(ctx, *it, "node");
        mv.rank = str(ctx, *it, "rank");
        if (auto rel = it->find("related"); rel != it->end())
            mv.related = parseRelation(ctx, *rel);
        if ((mv.node.empty() ? 0 : 1) + (mv.rank.empty() ? 0 : 1) + (mv.related ? 1 : 0) != 1)
            ctx.fail("'move_to' needs exactly one of node, rank or related");
        r.moveTo = mv;
        ++actions;
    }
    if (auto it = j.find("copy_fields"); it != j.end()) {
        if (!it->is_object() || !it->contains("from") || !it->contains("fields"))
            ctx.fail("'copy_fields' must be an object {\"from\": relation, \"fields\": {field: template}}");
        checkKeys(ctx, *it, {"from", "fields"}, "copy_fields");
        CopyFields cf;
        cf.from = parseRelation(ctx, (*it)["from"]);
        cf.fields = strMap(ctx, *it, "fields");
        checkFieldNames(ctx, cf.fields, "copy_fields");
        if (cf.fields.empty())
            ctx.fail("'copy_fields' needs at least one field");
        r.copyFields = cf;
        ++actions;
    }
    return actions;
}

int parseAbsentRanksAction(const Ctx& ctx, const json& j, Rule& r)
{
    int actions = 0;
    if (auto it = j.find("absent_ranks"); it != j.end()) {
        if (!it->is_object())
            ctx.fail("'absent_ranks' must be an object {group_by, min_share, symptom, fields, require_logs}");
        checkKeys(ctx, *it, {"group_by", "min_share", "symptom", "fields", "require_logs"}, "absent_ranks");
        AbsentRanks ar;
        ar.groupBy = eventKeys(ctx, *it, "group_by");
        if (ar.groupBy.empty())
            ctx.fail("'absent_ranks' needs 'group_by' (what identifies one collective, e.g. field:seq)");
        ar.symptom = str(ctx, *it, "symptom", true);
        if (auto ms = it->find("min_share"); ms != it->end()) {
            if (!ms->is_number() || ms->get<double>() <= 0 || ms->get<double>() > 1)
                ctx.fail("'min_share' must be a number in (0, 1]");
            ar.minShare = ms->get<double>();
        }
        if (auto rl = it->find("require_logs"); rl != it->end()) {
            if (!rl->is_boolean())
                ctx.fail("'require_logs' must be true or false");
            ar.requireLogs = rl->get<bool>();
        }
        ar.fields = strMap(ctx, *it, "fields");
        checkFieldNames(ctx, ar.fields, "absent_ranks 'fields'");
        r.absentRanks = ar;
        ++actions;
    }
    return actions;
}

// evidence_role, max_evidence: what the report shows of the event.
int parseReportActions(const Ctx& ctx, const json& j, Rule& r)
{
    int actions = 0;
    if (auto v = str(ctx, j, "evidence_role"); !v.empty()) {
        static const std::map<std::string, EvidenceRole> roles{{"root", EvidenceRole::Root},
                                                               {"symptom", EvidenceRole::Symptom},
                                                               {"interesting", EvidenceRole::Interesting},
                                                               {"context", EvidenceRole::Context}};
        auto f = roles.find(v);
        if (f == roles.end())
            ctx.fail("evidence_role must be root, symptom, interesting or context");
        r.evidenceRole = f->second;
        ++actions;
    }
    if (auto it = j.find("max_evidence"); it != j.end()) {
        if (!it->is_number_integer() || it->get<int>() < 0)
            ctx.fail("'max_evidence' must be a non-negative integer");
        r.maxEvidence = it->get<int>();
        ++actions;
    }
    return actions;
}

// At least one action, and each in a phase that can take it.
void checkActions(const Ctx& ctx, const Rule& r, int actions)
{
    if (actions == 0)
        ctx.fail("the rule does nothing: give one of suppress, set_symptom, set_role, set_kind, set_fields, decode, "
                 "link_from, merge_into, move_to, copy_fields, absent_ranks, infer, evidence_role, max_evidence");
    if (r.absentRanks && actions > 1)
        ctx.fail("'absent_ranks' emits new events and takes no other action");
    if (r.infer && (r.phase < Phase::FilterEarly || r.phase > Phase::RefineFinal))
        ctx.fail("infer needs a filter or refine phase");
    if ((r.absentRanks || r.copyFields) && (r.phase < Phase::FilterEarly || r.phase > Phase::RefineFinal))
        ctx.fail("copy_fields / absent_ranks need a filter or refine phase");
    if ((r.linkFrom || r.mergeWith || r.moveTo) && (r.phase < Phase::FilterEarly || r.phase > Phase::RefineFinal))
        ctx.fail("link_from / merge_into / move_to need a filter or refine phase");
    if ((r.evidenceRole || r.maxEvidence >= 0) && r.phase != Phase::Report)
        ctx.fail("evidence_role and max_evidence belong to the report phase");
}

void parseRelations(const Ctx& ctx, const json& j, const char* key, std::vector<Relation>& out)
{
    auto it = j.find(key);
    if (it == j.end())
        return;
    if (it->is_object())
        out.push_back(parseRelation(ctx, *it));
    else if (it->is_array())
        for (const auto& x : *it)
            out.push_back(parseRelation(ctx, x));
    else
        ctx.fail(std::string("'") + key + "' must be a relation or a list of relations");
}

// A filter, refine, post_outcome or report rule: a trend, or a selector, its conditions and its actions.
Rule parseActionRule(const Ctx& ctx, const json& j, Rule r)
{
    checkKeys(ctx, j,
              {"id", "description", "phase", "match", "if", "unless", "suppress", "set_symptom", "set_role", "set_kind",
               "set_fields", "decode", "link_from", "label", "merge_into", "move_to", "copy_fields", "absent_ranks",
               "evidence_role", "max_evidence", "source", "infer", "trend"},
              "rule");
    try {
        parseRuleSamples(j, r);
    } catch (const std::invalid_argument& e) {
        ctx.fail(e.what());
    }
    if (auto t = j.find("trend"); t != j.end()) {
        parseTrend(ctx, j, *t, r);
        return r;
    }
    auto m = j.find("match");
    if (m == j.end())
        ctx.fail("missing 'match' (a selector of the events this rule acts on)");
    r.match = parseSelector(ctx, *m);
    parseRelations(ctx, j, "if", r.ifExists);
    parseRelations(ctx, j, "unless", r.ifNotExists);
    int actions = parseEditActions(ctx, j, r);
    actions += parseDecodeAction(ctx, j, r);
    actions += parseRelationActions(ctx, j, r);
    actions += parseAbsentRanksAction(ctx, j, r);
    actions += parseReportActions(ctx, j, r);
    checkActions(ctx, r, actions);
    return r;
}

// One rule, in named steps: the head, then an extract rule's input and emit, or another rule's selector and actions.
Rule parseRule(std::string_view text, const std::string& file, const json& j)
{
    Ctx ctx{text, file, {}};
    Rule r = parseRuleHead(ctx, text, file, j);
    if (r.phase == Phase::Extract)
        return parseExtractRule(ctx, j, std::move(r));
    return parseActionRule(ctx, j, std::move(r));
}

SymptomDef parseSymptom(std::string_view text, const std::string& file, const json& j)
{
    Ctx ctx{text, file, {}};
    if (!j.is_object())
        ctx.fail("each symptom must be an object");
    if (auto it = j.find("id"); it != j.end() && it->is_string())
        ctx.id = it->get<std::string>();
    checkKeys(ctx, j, {"id", "title", "domain", "sub_domain", "role", "weight", "advice", "outcome"}, "symptom");
    SymptomDef s;
    s.id = str(ctx, j, "id", true);
    s.title = str(ctx, j, "title", true);
    s.domain = parseDomain(ctx, str(ctx, j, "domain", true));
    s.subDomain = str(ctx, j, "sub_domain");
    std::string role = str(ctx, j, "role", true);
    auto r = symptomRoleFromString(role);
    if (!r)
        ctx.fail("role must be initiator, symptom, informational or unknown, not '" + role + "'");
    s.role = *r;
    if (auto it = j.find("weight"); it != j.end()) {
        if (!it->is_number_integer())
            ctx.fail("'weight' must be an integer");
        s.weight = it->get<int>();
    }
    s.advice = str(ctx, j, "advice");
    return s;
}

} // namespace


std::string_view toString(MetricKind k)
{
    switch (k) {
    case MetricKind::Increase: return "increase";
    case MetricKind::Above: return "above";
    case MetricKind::Below: return "below";
    case MetricKind::Change: return "change";
    case MetricKind::Bits: return "bits";
    case MetricKind::Peers: return "peers";
    case MetricKind::AllBelow: return "all_below";
    case MetricKind::AllFall: return "all_fall";
    case MetricKind::WindowCount: return "window_count";
    }
    return "?";
}

std::string_view toString(RecordReader r)
{
    switch (r) {
    case RecordReader::None: return "";
    case RecordReader::TorchrunRootCause: return "torchrun_root_cause";
    }
    return "?";
}

namespace {
constexpr std::pair<EventKey::Part, std::string_view> kPlaces[] = {
    {EventKey::Part::Node, "node"}, {EventKey::Part::Gpu, "gpu"}, {EventKey::Part::Rank, "rank"}, {EventKey::Part::Pci, "pci"}};
constexpr std::string_view kFieldPrefix = "field:";
} // namespace

std::string toString(const EventKey& k)
{
    if (k.part == EventKey::Part::Field)
        return std::string(kFieldPrefix) + k.field;
    for (const auto& [part, name] : kPlaces)
        if (part == k.part)
            return std::string(name);
    return "?";
}

std::optional<EventKey> eventKeyFromString(std::string_view s)
{
    for (const auto& [part, name] : kPlaces)
        if (s == name)
            return EventKey{part, {}};
    if (s.size() > kFieldPrefix.size() && s.substr(0, kFieldPrefix.size()) == kFieldPrefix)
        return EventKey{EventKey::Part::Field, std::string(s.substr(kFieldPrefix.size()))};
    return std::nullopt;
}

namespace {
constexpr std::pair<IntervalOrder, std::string_view> kOrders[] = {
    {IntervalOrder::Before, "before"},       {IntervalOrder::After, "after"},
    {IntervalOrder::Overlaps, "overlaps"},   {IntervalOrder::NotAfter, "not_after"},
    {IntervalOrder::NotBefore, "not_before"}, {IntervalOrder::Within, "within"},
};
} // namespace

std::string_view toString(IntervalOrder o)
{
    for (const auto& [v, n] : kOrders)
        if (v == o)
            return n;
    return "";
}

std::optional<IntervalOrder> intervalOrderFromString(std::string_view s)
{
    for (const auto& [v, n] : kOrders)
        if (n == s)
            return v;
    return std::nullopt;
}


RuleError::RuleError(std::string f, int l, int c, std::string id, const std::string& message)
    : std::runtime_error([&] {
          std::ostringstream os;
          os << (f.empty() ? std::string("<rules>") : f);
          if (l > 0)
              os << ':' << l << ':' << c;
          os << ": ";
          if (!id.empty())
              os << "rule '" << id << "': ";
          os << message;
          return os.str();
      }())
    , file(std::move(f))
    , line(l)
    , column(c)
    , ruleId(std::move(id))
{
}

struct Settings {
    double clockSkewToleranceS = 2.0;
    double episodeWindowS = 3600.0;
    int maxEvidencePerSymptom = 20;
    int ambiguityWeightMargin = 10;
};

struct RuleSet::Impl {
    std::vector<Rule> rules;                    // effective, in load order (replacements keep position)
    std::map<std::string, SymptomDef> symptoms;
    std::vector<std::string> sources;
    json settings = json::object();
    CompiledRules compiled;
    CompiledRules checked; // each file's patterns as compiled for its sample check, for compile() to take
    bool compiledOk = false;
    std::string digest; // of the rules as compiled: every result carries it, a 10,000-rank one too (25 ms)
};

RuleSet::RuleSet() : d(std::make_unique<Impl>()) {}
RuleSet::~RuleSet() = default;
RuleSet::RuleSet(RuleSet&&) noexcept = default;
RuleSet& RuleSet::operator=(RuleSet&&) noexcept = default;

void RuleSet::loadText(std::string_view text, const std::string& fileName)
{
    json doc;
    try {
        doc = json::parse(text.begin(), text.end(), nullptr, true, /*ignore_comments=*/true);
    } catch (const json::parse_error& e) {
        int line = 0, column = 0;
        lineColumn(text, e.byte > 0 ? e.byte - 1 : 0, line, column);
        std::string what = e.what();
        // nlohmann prefixes "[json.exception.parse_error.101] parse error at line L, column C: "
        if (auto p = what.find(": "); p != std::string::npos)
            what = what.substr(what.find(": ", p + 2) != std::string::npos ? what.find(": ", p + 2) + 2 : p + 2);
        throw RuleError(fileName, line, column, "", "not valid JSON: " + what);
    }
    Ctx ctx{text, fileName, {}};
    if (!doc.is_object())
        throw RuleError(fileName, 1, 1, "", "a rule file must be a JSON object with 'symptoms' and/or 'rules'");
    checkKeys(ctx, doc, {"symptoms", "rules", "settings", "description"}, "rule file");

    std::vector<Rule> newRules;
    std::vector<SymptomDef> newSymptoms;
    std::set<std::string> seen;
    if (auto it = doc.find("symptoms"); it != doc.end()) {
        if (!it->is_array())
            throw RuleError(fileName, 1, 1, "", "'symptoms' must be a list");
        for (const auto& s : *it)
            newSymptoms.push_back(parseSymptom(text, fileName, s));
    }
    if (auto it = doc.find("rules"); it != doc.end()) {
        if (!it->is_array())
            throw RuleError(fileName, 1, 1, "", "'rules' must be a list");
        for (const auto& r : *it) {
            Rule rule = parseRule(text, fileName, r);
            if (!seen.insert(rule.id).second)
                throw RuleError(fileName, rule.line, 0, rule.id, "the same id appears twice in this file");
            newRules.push_back(std::move(rule));
        }
    }
    // Validate patterns of this file now, so a bad file is refused whole.
    {
        CompiledRules probe;
        probe.build(newRules, CompiledRules::Purpose::SampleCheck);
        // Samples are cheap (a few RE2 matches per rule), so every load checks them.
        if (auto failed = checkRuleSamples(newRules, probe, text); !failed.empty())
            throw RuleError(fileName, failed.front().line, 0, failed.front().rule->id, failed.front().message);
        d->checked.absorb(std::move(probe));
    }
    if (auto it = doc.find("settings"); it != doc.end()) {
        if (!it->is_object())
            throw RuleError(fileName, 1, 1, "", "'settings' must be an object");
        static const std::set<std::string> known{"clock_skew_tolerance_s", "episode_window_s",
                                                 "max_evidence_per_symptom", "ambiguity_weight_margin",
                                                 "inferred_weight_penalty", "onset_slack_s"};
        for (const auto& [k, v] : it->items()) {
            if (!known.count(k))
                throw RuleError(fileName, 1, 1, "", "unknown setting '" + k + "'");
            if (!v.is_number())
                throw RuleError(fileName, 1, 1, "", "setting '" + k + "' must be a number");
            d->settings[k] = v;
        }
    }
    for (auto& s : newSymptoms)
        d->symptoms[s.id] = std::move(s);
    for (auto& r : newRules) {
        auto existing = std::find_if(d->rules.begin(), d->rules.end(), [&](const Rule& x) { return x.id == r.id; });
        if (existing != d->rules.end())
            *existing = std::move(r);
        else
            d->rules.push_back(std::move(r));
    }
    d->sources.push_back(fileName);
    d->compiledOk = false;
}

void RuleSet::loadDirectory(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw RuleError(dir, 0, 0, "", "not a folder of rule files");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        auto ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".jsonc" || ext == ".json"))
            files.push_back(e.path());
    }
    if (ec)
        throw RuleError(dir, 0, 0, "", "cannot list: " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in)
            throw RuleError(f.string(), 0, 0, "", "cannot read the file");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (text.size() > (16u << 20))
            throw RuleError(f.string(), 0, 0, "", "rule file larger than 16 MiB");
        loadText(text, f.string());
    }
}

void RuleSet::compile()
{
    for (Rule& r : d->rules)
        r.sharedId = r.id;
    d->compiled.build(d->rules, CompiledRules::Purpose::Scan, &d->checked);
    d->checked = CompiledRules(); // what no rule took (a rule a later file replaced)
    d->digest = computeDigest();
    d->compiledOk = true;
}

const std::vector<Rule>& RuleSet::rules() const { return d->rules; }
const std::map<std::string, SymptomDef>& RuleSet::symptoms() const { return d->symptoms; }
const CompiledRules& RuleSet::compiled() const { return d->compiled; }
std::vector<std::string> RuleSet::sources() const { return d->sources; }

const SymptomDef* RuleSet::symptom(std::string_view id) const
{
    if (auto it = d->symptoms.find(std::string(id)); it != d->symptoms.end())
        return &it->second;
    // "gpu.xid.999" -> "gpu.xid.*" -> "gpu.*"
    std::string prefix(id);
    while (true) {
        auto dot = prefix.rfind('.');
        if (dot == std::string::npos)
            return nullptr;
        prefix.resize(dot);
        if (auto it = d->symptoms.find(prefix + ".*"); it != d->symptoms.end())
            return &it->second;
    }
}

double RuleSet::setting(std::string_view name, double fallback) const
{
    auto it = d->settings.find(std::string(name));
    return it == d->settings.end() ? fallback : it->get<double>();
}

std::string RuleSet::digest() const
{
    return d->compiledOk ? d->digest : computeDigest();
}

namespace {
// What a relation's selector holds beyond symptoms, not_symptom and fields; null when none of it is set.
// Appended to the digest only when set, as later additions are, so rule sets that leave it unset keep theirs.
json selectorExtras(const Selector& s)
{
    if (!s.role && !s.domain && !s.kind && !s.includeSuppressed)
        return nullptr;
    return json{"selector", s.role ? std::string(toString(*s.role)) : std::string(), std::string(toString(s.domain)),
                s.kind ? static_cast<int>(*s.kind) : -1, s.includeSuppressed};
}
} // namespace

std::string RuleSet::computeDigest() const
{
    // Canonical form: symptoms by id, rules in effective order, settings; file
    // names are left out so the same rules from another folder digest the same.
    json canon = json::object();
    json syms = json::array();
    for (const auto& [id, s] : d->symptoms)
        syms.push_back({id, s.title, std::string(toString(s.domain)), s.subDomain, std::string(toString(s.role)), s.weight, s.advice});
    canon["symptoms"] = syms;
    json rules = json::array();
    for (const auto& r : d->rules) {
        json j = {r.id, std::string(toString(r.phase)), r.pattern, r.literals, r.exclude, r.ignoreCase, r.emitSymptom,
                  static_cast<int>(r.emitKind), r.emitFields};
        if (r.emitRead != RecordReader::None)
            j.push_back(std::string(toString(r.emitRead)));
        if (!r.waited.empty()) {
            json w = json::array();
            for (const WaitedField& f : r.waited)
                w.push_back(f.value.empty() ? json{f.field, f.unit, f.atLeast} : json{f.field, f.unit, f.atLeast, f.value});
            j.push_back(json{"waited", w});
        }
        if (r.continued)
            j.push_back(json{"continued", r.continued->pattern, r.continued->lines});
        j.push_back(r.match.symptoms);
        j.push_back(r.match.notSymptoms);
        j.push_back(r.match.role ? std::string(toString(*r.match.role)) : "");
        j.push_back(std::string(toString(r.match.domain)));
        j.push_back(r.match.fields);
        if (r.match.kind || r.match.includeSuppressed) // role and domain are above
            j.push_back(json{"match", r.match.kind ? static_cast<int>(*r.match.kind) : -1, r.match.includeSuppressed});
        if (!r.sources.empty()) {
            json kinds = json::array();
            for (SourceKind k : r.sources)
                kinds.push_back(std::string(toString(k)));
            j.push_back(json{"sources", kinds});
        }
        // Keys as rules spell them, so the digest of a rule set stays what it was when keys were text.
        auto keys = [](const std::vector<EventKey>& ks) {
            json a = json::array();
            for (const EventKey& k : ks)
                a.push_back(toString(k));
            return a;
        };
        auto rel = [&](const Relation& x) {
            json join = json::array();
            for (const auto& [mine, theirs] : x.join)
                join.push_back(json::array({toString(mine), toString(theirs)}));
            json v = json{x.other.symptoms, x.other.notSymptoms, x.other.fields, keys(x.same), keys(x.different),
                          x.withinLo,       x.withinHi,          x.atLeast,
                          x.countDistinct ? toString(*x.countDistinct) : std::string(), join,
                          keys(x.greater),  keys(x.less)};
            if (json extra = selectorExtras(x.other); !extra.is_null())
                v.push_back(std::move(extra));
            if (x.order != IntervalOrder::Any)
                v.push_back(json{"order", toString(x.order)});
            return v;
        };
        json ifs = json::array();
        for (const auto& x : r.ifExists)
            ifs.push_back(rel(x));
        json unl = json::array();
        for (const auto& x : r.ifNotExists)
            unl.push_back(rel(x));
        j.push_back(ifs);
        j.push_back(unl);
        j.push_back(r.suppress ? r.suppress->str() : std::string("\x01"));
        j.push_back(r.setSymptom.value_or("\x01"));
        j.push_back(r.setRole ? std::string(toString(*r.setRole)) : "");
        j.push_back(r.setKind ? static_cast<int>(*r.setKind) : -1);
        j.push_back(r.setFields);
        j.push_back(r.decode ? json{r.decode->field, r.decode->shift, r.decode->mask, r.decode->into, r.decode->map} : json());
        j.push_back(r.linkFrom ? rel(*r.linkFrom) : json());
        j.push_back(r.linkLabel);
        j.push_back(r.mergeWith ? rel(*r.mergeWith) : json());
        j.push_back(r.moveTo ? json{r.moveTo->node, r.moveTo->rank, r.moveTo->related ? rel(*r.moveTo->related) : json()}
                             : json());
        j.push_back(r.copyFields ? json{rel(r.copyFields->from), r.copyFields->fields} : json());
        j.push_back(r.absentRanks ? json{keys(r.absentRanks->groupBy), r.absentRanks->minShare, r.absentRanks->symptom,
                                         r.absentRanks->fields, r.absentRanks->requireLogs}
                                  : json());
        j.push_back(r.evidenceRole ? static_cast<int>(*r.evidenceRole) : -1);
        j.push_back(r.maxEvidence);
        if (r.infer) // appended only when used: digests of rule sets without it do not change
            j.push_back(json{"infer", r.infer->symptom, r.infer->beforeS});
        if (r.series) // likewise
            j.push_back(json{"series", r.series->name, r.series->value, r.series->unit, r.series->step, r.series->rank});
        if (r.metric) {
            auto samples = [](const std::vector<MetricRuleSample>& list) {
                json out = json::array();
                for (const auto& s : list)
                    out.push_back(json{s.series, s.labels, s.symptom, s.fields});
                return out;
            };
            const MetricRule& m = *r.metric;
            j.push_back(json{"metric", m.series, m.labels, static_cast<int>(m.kind), m.threshold, m.nonzero, m.mask, m.bitNames,
                             m.z, m.direction, m.minPeers, m.minSpread, m.minPoints, m.maxShare,
                             samples(m.samples), samples(m.benign)});
        }
        if (r.trend)
            j.push_back(json{"trend", r.trend->series, static_cast<int>(r.trend->kind), r.trend->by, r.trend->last,
                             r.trend->minPoints, r.trend->factor, r.trend->share, r.trend->minGrowth, r.trend->recovery,
                             r.trend->symptom, r.trend->fields});
        rules.push_back(j);
    }
    canon["rules"] = rules;
    canon["settings"] = d->settings;
    return "sha256:" + sha256Hex(canon.dump());
}

} // namespace fl
