#include "bundle/bundle.h"
#include "bundle/iso_time.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>

namespace fl {

namespace {

using nlohmann::json;

// nlohmann reports the 1-based index of the last byte it read; people want line and column.
std::string locate(std::string_view text, size_t byte)
{
    const size_t at = std::min(byte == 0 ? 0 : byte - 1, text.size());
    const std::string_view before = text.substr(0, at);
    const size_t line = 1 + static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
    const size_t lastNl = before.rfind('\n');
    const size_t column = lastNl == std::string_view::npos ? at + 1 : at - lastNl;
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Drops nlohmann's "[json.exception...] parse error at line 1, column 2: " prefix:
// the location is recomputed from the byte offset so it is ours to format.
std::string bareMessage(const std::string& what)
{
    std::string_view w = what;
    if (const size_t col = w.find("column "); col != std::string_view::npos) {
        if (const size_t colon = w.find(": ", col); colon != std::string_view::npos)
            return std::string(w.substr(colon + 2));
    }
    if (const size_t br = w.find("] "); br != std::string_view::npos)
        return std::string(w.substr(br + 2));
    return what;
}

class Reader {
public:
    explicit Reader(const std::string& file) : m_file(file) {}

    [[noreturn]] void fail(const std::string& field, const std::string& expected) const
    {
        throw BundleError(m_file, "field '" + field + "': expected " + expected);
    }

    // Absent and null are the same: every manifest field is optional.
    const json* find(const json& obj, const char* key) const
    {
        const auto it = obj.find(key);
        return it == obj.end() || it->is_null() ? nullptr : &*it;
    }

    std::string string(const json& v, const std::string& field) const
    {
        if (!v.is_string())
            fail(field, "a string");
        return v.get<std::string>();
    }

    int integer(const json& v, const std::string& field) const
    {
        if (!v.is_number_integer())
            fail(field, "an integer");
        if (v.is_number_unsigned()) {
            const auto u = v.get<uint64_t>();
            if (u > static_cast<uint64_t>(std::numeric_limits<int>::max()))
                fail(field, "an integer in range");
            return static_cast<int>(u);
        }
        const auto i = v.get<int64_t>();
        if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max())
            fail(field, "an integer in range");
        return static_cast<int>(i);
    }

    int64_t time(const json& v, const std::string& field, int defaultOffset) const
    {
        if (!v.is_string())
            fail(field, "an ISO 8601 date-time string");
        const auto ns = parseIso8601Ns(v.get_ref<const std::string&>(), defaultOffset);
        if (!ns)
            fail(field, "an ISO 8601 date-time between 1678 and 2261 like 2024-05-01T12:00:00Z, got '"
                    + v.get<std::string>().substr(0, 64) + "'");
        return *ns;
    }

    void object(const json& v, const std::string& field) const
    {
        if (!v.is_object())
            fail(field, "an object");
    }

private:
    const std::string& m_file;
};

int rankKey(const Reader& r, const std::string& key, const std::string& field)
{
    int rank = -1;
    const auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), rank);
    if (ec != std::errc() || ptr != key.data() + key.size() || rank < 0)
        r.fail(field, "rank numbers as keys, got '" + key.substr(0, 32) + "'");
    return rank;
}

RankPlacement placement(const Reader& r, const json& v, const std::string& field)
{
    r.object(v, field);
    RankPlacement p;
    if (const json* node = r.find(v, "node"))
        p.node = r.string(*node, field + ".node");
    if (const json* gpu = r.find(v, "gpu"))
        p.gpu = r.integer(*gpu, field + ".gpu");
    if (const json* pci = r.find(v, "pci"))
        p.pci = r.string(*pci, field + ".pci");
    return p;
}

} // namespace

Manifest parseManifest(std::string_view text, const std::string& fileName)
{
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        throw BundleError(fileName, locate(text, e.byte) + ": " + bareMessage(e.what()));
    } catch (const json::exception& e) {
        // fuzz finding: a number too large for a double ("4444…e4444…") is
        // out_of_range 406, not a parse_error, and escaped as a crash
        throw BundleError(fileName, bareMessage(e.what()));
    }
    const Reader r(fileName);
    if (!doc.is_object())
        throw BundleError(fileName, "expected a JSON object at the top level");

    Manifest m;
    // The zone comes first: it is the default for every timestamp below that has none.
    if (const json* tz = r.find(doc, "timezone")) {
        const auto offset = parseUtcOffset(r.string(*tz, "timezone"));
        if (!offset)
            r.fail("timezone", "a UTC offset like +02:00");
        m.timezoneOffsetSec = *offset;
    }
    const int tz = m.timezoneOffsetSec;

    if (const json* v = r.find(doc, "workload_id"))
        m.workloadId = v->is_number_integer() ? v->dump() : r.string(*v, "workload_id");
    if (const json* v = r.find(doc, "attempt"))
        m.attempt = r.integer(*v, "attempt");
    if (const json* v = r.find(doc, "scheduler"))
        m.scheduler = r.string(*v, "scheduler");
    if (const json* v = r.find(doc, "nodes")) {
        if (!v->is_array())
            r.fail("nodes", "an array of node names");
        for (size_t i = 0; i < v->size(); ++i)
            m.nodes.push_back(r.string((*v)[i], "nodes[" + std::to_string(i) + "]"));
    }
    if (const json* v = r.find(doc, "ranks")) {
        if (v->is_object()) {
            for (const auto& [key, value] : v->items()) {
                const std::string field = "ranks." + key.substr(0, 32);
                m.ranks[rankKey(r, key, "ranks")] = placement(r, value, field);
            }
        } else if (v->is_array()) {
            for (size_t i = 0; i < v->size(); ++i) {
                const std::string field = "ranks[" + std::to_string(i) + "]";
                const json& item = (*v)[i];
                r.object(item, field);
                const json* rank = r.find(item, "rank");
                if (!rank)
                    r.fail(field + ".rank", "a rank number");
                const int n = r.integer(*rank, field + ".rank");
                if (n < 0)
                    r.fail(field + ".rank", "a rank number >= 0");
                m.ranks[n] = placement(r, item, field);
            }
        } else {
            r.fail("ranks", "an object {\"0\": {...}} or an array [{\"rank\": 0, ...}]");
        }
    }
    if (const json* v = r.find(doc, "window")) {
        r.object(*v, "window");
        if (const json* s = r.find(*v, "start"))
            m.windowStartNs = r.time(*s, "window.start", tz);
        if (const json* e = r.find(*v, "end"))
            m.windowEndNs = r.time(*e, "window.end", tz);
        if (m.windowStartNs != kNoTime && m.windowEndNs != kNoTime && m.windowEndNs < m.windowStartNs)
            throw BundleError(fileName, "field 'window': end is before start");
    }
    if (const json* v = r.find(doc, "failure")) {
        r.object(*v, "failure");
        if (const json* d = r.find(*v, "detected_at"))
            m.detectedAtNs = r.time(*d, "failure.detected_at", tz);
        if (const json* s = r.find(*v, "detection_signal"))
            m.detectionSignal = r.string(*s, "failure.detection_signal");
        if (const json* codes = r.find(*v, "exit_codes")) {
            r.object(*codes, "failure.exit_codes");
            for (const auto& [key, value] : codes->items())
                m.exitCodes[key] = r.integer(value, "failure.exit_codes." + key.substr(0, 32));
        }
    }
    if (const json* v = r.find(doc, "boot_times")) {
        r.object(*v, "boot_times");
        for (const auto& [node, value] : v->items())
            m.bootTimesNs[node] = r.time(value, "boot_times." + node.substr(0, 64), tz);
    }
    return m;
}

} // namespace fl
