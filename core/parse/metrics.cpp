#include "bundle/text_lines.h"
#include "parse/cursor.h"
#include "parse/prom_json_scan.h"
#include "parse/structured.h"
#include "parse/structured_util.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <array>
#include <deque>

namespace fl {

using namespace structured;
using nlohmann::json;

namespace {

// "[-]digits[.digits]" with at most 15 digits, what exporters print: the digits as an integer (exact below
// 2^53) divided by an exact power of ten is the correctly rounded value, the same double from_chars gives
// (Clinger's fast path), at a fraction of its cost (from_chars was a quarter of parsing a metrics row).
bool simpleDecimal(std::string_view s, double& v)
{
    static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = s.data();
    const char* const end = p + s.size();
    const bool negative = p != end && *p == '-';
    p += negative;
    uint64_t mantissa = 0; // wraps past 19 digits: such a text is refused below
    auto digits = [&] {
        const char* const from = p;
        for (; p != end && static_cast<unsigned char>(*p - '0') < 10; ++p)
            mantissa = mantissa * 10 + uint64_t(*p - '0');
        return p - from;
    };
    const auto whole = digits();
    ptrdiff_t fraction = 0;
    if (p != end && *p == '.') {
        ++p;
        fraction = digits();
        if (fraction == 0)
            return false;
    }
    if (p != end || whole + fraction == 0 || whole + fraction > 15)
        return false;
    const double x = double(mantissa) / kPow10[fraction];
    v = negative ? -x : x;
    return true;
}

bool parseValue(std::string_view s, double& v)
{
    s = cursor::trim(s);
    if (!s.empty() && s[0] == '+')
        s.remove_prefix(1);
    if (s.empty())
        return false;
    if (simpleDecimal(s, v))
        return true;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size();
}

// Seconds (possibly fractional) -> ns; false outside 1990..2200.
bool secondsToNs(double secs, int64_t& ns)
{
    if (!(secs >= 631152000.0 && secs <= 7258118400.0))
        return false;
    const double whole = std::floor(secs);
    ns = int64_t(whole) * 1000000000LL + int64_t(std::llround((secs - whole) * 1e6)) * 1000;
    return true;
}

// What a parse keeps of a series, by its name: everything (MetricsKeep::Samples), else the series (SeriesOnly)
// or nothing of it (Nothing), except that the series metric rules read keep their samples.
struct Wanted {
    MetricsKeep keep = MetricsKeep::Samples;
    const MetricNames* judged = nullptr;
    bool judgedName(std::string_view name) const { return judged && judged->find(name) != judged->end(); }
    bool samplesOf(std::string_view name) const { return keep == MetricsKeep::Samples || judgedName(name); }
    bool seriesOf(std::string_view name) const { return keep != MetricsKeep::Nothing || judgedName(name); }
};

// Series parsed whole (OpenMetrics text, Prometheus JSON the library read): counted, then cut to what is wanted.
void tallyAndKeep(std::vector<MetricSeries>& out, size_t before, const Wanted& want, MetricsTally& tally)
{
    size_t kept = before;
    for (size_t i = before; i < out.size(); ++i) {
        for (const MetricSample& s : out[i].samples)
            tally.add(s.timeNs);
        if (!want.seriesOf(out[i].name))
            continue;
        if (!want.samplesOf(out[i].name))
            out[i].samples = {};
        if (kept != i)
            out[kept] = std::move(out[i]);
        ++kept;
    }
    out.resize(kept);
}

// Groups samples by (name, labels) and fills node/gpu from the usual exporter labels.
class SeriesSet {
public:
    explicit SeriesSet(FileId file) : file_(file) {}

    MetricSeries& get(const std::string& name, std::map<std::string, std::string> labels)
    {
        // By a hash of its name and labels, checked field by field on a hit: a key text built, hashed and copied
        // per series (and per OpenMetrics line) was most of what this cost.
        const uint64_t h = identityHash(name, labels);
        const auto it = index_.find(h);
        if (it != index_.end())
            for (uint32_t i = it->second; i != kNone; i = nextSameHash_[i])
                if (series_[i].name == name && series_[i].labels == labels)
                    return series_[i];
        MetricSeries s;
        s.file = file_;
        s.name = name;
        // The node and GPU from the first of these labels given (a GPU: given as a number), in one pass.
        static constexpr std::string_view kNodeLabels[] = {"hostname", "Hostname", "node", "instance", "host"};
        static constexpr std::string_view kGpuLabels[] = {"gpu", "GPU", "minor_number", "gpu_index"};
        size_t nodeRank = std::size(kNodeLabels), gpuRank = std::size(kGpuLabels);
        const std::string* nodeValue = nullptr;
        for (const auto& [k, v] : labels) {
            for (size_t r = 0; r < nodeRank; ++r)
                if (k == kNodeLabels[r]) {
                    if (!v.empty()) {
                        nodeRank = r;
                        nodeValue = &v;
                    }
                    break;
                }
            for (size_t r = 0; r < gpuRank; ++r)
                if (k == kGpuLabels[r]) {
                    int g = -1;
                    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), g);
                    if (ec == std::errc() && p == v.data() + v.size() && g >= 0) {
                        gpuRank = r;
                        s.gpu = g;
                    }
                    break;
                }
        }
        if (nodeValue) {
            std::string n = *nodeValue;
            // "10.0.0.1:9400" / "host:9400": the exporter port is not part of the node name
            const size_t colon = n.rfind(':');
            if (colon != std::string::npos && colon + 1 < n.size()
                && std::all_of(n.begin() + long(colon) + 1, n.end(), [](char c) { return cursor::isDigit(c); })
                && n.find(':') == colon)
                n.resize(colon);
            s.node = std::move(n);
        }
        s.labels = std::move(labels);
        const auto i = static_cast<uint32_t>(series_.size());
        if (it != index_.end()) {
            nextSameHash_.push_back(it->second);
            it->second = i;
        } else {
            nextSameHash_.push_back(kNone);
            index_.emplace(h, i);
        }
        series_.push_back(std::move(s));
        return series_.back();
    }

    void emit(std::vector<MetricSeries>& out)
    {
        const auto earlier = [](const MetricSample& a, const MetricSample& b) {
            return a.timeNs != b.timeNs ? a.timeNs < b.timeNs : a.offset < b.offset;
        };
        // Exporters write in time order: checking costs a compare a sample, the sort ~15 (callgrind).
        for (auto& s : series_)
            if (!std::is_sorted(s.samples.begin(), s.samples.end(), earlier))
                std::stable_sort(s.samples.begin(), s.samples.end(), earlier);
        // Ordered by index: sorting the series themselves moved their strings, label maps and samples at
        // every swap. No two series have the same name and labels, so the order is total.
        std::vector<uint32_t> order(series_.size());
        for (uint32_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](uint32_t i, uint32_t j) {
            const MetricSeries& a = series_[i];
            const MetricSeries& b = series_[j];
            if (const int c = a.name.compare(b.name); c != 0)
                return c < 0;
            if (const int c = a.node.compare(b.node); c != 0)
                return c < 0;
            if (a.gpu != b.gpu)
                return a.gpu < b.gpu;
            return a.labels < b.labels;
        });
        out.reserve(out.size() + series_.size());
        for (uint32_t i : order)
            out.push_back(std::move(series_[i]));
        series_.clear();
        index_.clear();
        nextSameHash_.clear();
    }

private:
    static constexpr uint32_t kNone = UINT32_MAX;
    static uint64_t identityHash(const std::string& name, const std::map<std::string, std::string>& labels)
    {
        const std::hash<std::string_view> h;
        uint64_t v = h(name);
        for (const auto& [k, val] : labels) {
            v ^= h(k) + 0x9e3779b97f4a7c15ULL + (v << 6) + (v >> 2);
            v ^= h(val) + 0x9e3779b97f4a7c15ULL + (v << 6) + (v >> 2);
        }
        return v;
    }

    FileId file_;
    std::deque<MetricSeries> series_; // deque: get() hands out references that must survive growth
    std::unordered_map<uint64_t, uint32_t> index_; // hash -> its newest series; only looked up: emit() orders them
    std::vector<uint32_t> nextSameHash_;            // per series: the one before it of the same hash
};

bool jsonSample(const json& pair, int64_t& ns, double& v)
{
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number())
        return false;
    if (!secondsToNs(pair[0].get<double>(), ns))
        return false;
    if (pair[1].is_string())
        return parseValue(pair[1].get_ref<const std::string&>(), v);
    if (pair[1].is_number()) {
        v = pair[1].get<double>();
        return true;
    }
    return false;
}

constexpr const char* kBadPromSample = "Prometheus sample is not [time, \"value\"] with a plausible time";

// The plain shape read straight from the text (parse/prom_json_scan.h): samples of series nobody wants are
// checked and counted, never stored.
class SeriesSink final : public promjson::Sink {
public:
    SeriesSink(SeriesSet& set, const Wanted& want) : set_(set), want_(want) {}
    void series(std::string&& name, std::map<std::string, std::string>&& labels) override
    {
        if (keepSamples_ && current_) // the series of a query share its steps: room for as many as the last one
            lastCount_ = current_->samples.size();
        // A query's results come grouped by name: what is kept of a name is looked up when the name changes.
        if (!decided_ || name != lastName_) {
            decided_ = true;
            lastName_ = name;
            nameSamples_ = want_.samplesOf(name);
            nameSeries_ = want_.seriesOf(name);
        }
        keepSamples_ = nameSamples_;
        current_ = nameSeries_ ? &set_.get(name, std::move(labels)) : nullptr;
        if (keepSamples_ && current_)
            current_->samples.reserve(current_->samples.size() + lastCount_);
    }
    void sample(double seconds, std::string_view value, size_t offset, uint32_t line, uint32_t length) override
    {
        int64_t ns = 0;
        double v = 0;
        if (!secondsToNs(seconds, ns) || !parseValue(value, v)) {
            issues.push_back({line, kBadPromSample});
            return;
        }
        tally.add(ns);
        // Its length as a cited sample's excerpt measures it (engine/metric_rules.cpp, sampleLength: to the first
        // ']'), known here unless a string value holds a ']'.
        if (keepSamples_ && current_)
            current_->samples.push_back({ns, v, offset, line, length <= 4096 && value.find(']') == std::string_view::npos ? length : 0});
    }
    MetricsTally tally;
    std::vector<ParseIssue> issues;

private:
    SeriesSet& set_;
    const Wanted& want_;
    MetricSeries* current_ = nullptr;
    bool keepSamples_ = false;
    size_t lastCount_ = 0;
    std::string lastName_;
    bool decided_ = false, nameSamples_ = false, nameSeries_ = false;
};

bool parsePromJsonDocument(std::string_view data, FileId file, std::vector<MetricSeries>& out, std::vector<ParseIssue>& issues);

bool parsePromJson(std::string_view data, FileId file, const Wanted& want, std::vector<MetricSeries>& out,
                   MetricsTally& tally, std::vector<ParseIssue>& issues)
{
    {
        SeriesSet set(file);
        SeriesSink sink(set, want);
        if (promjson::scan(data, sink)) {
            set.emit(out);
            tally.add(sink.tally);
            issues.insert(issues.end(), sink.issues.begin(), sink.issues.end());
            return true;
        }
    }
    const size_t before = out.size();
    const bool ok = parsePromJsonDocument(data, file, out, issues);
    tallyAndKeep(out, before, want, tally);
    return ok;
}

// Any JSON: the library reads it, and says what is wrong.
bool parsePromJsonDocument(std::string_view data, FileId file, std::vector<MetricSeries>& out, std::vector<ParseIssue>& issues)
{
    const json doc = json::parse(data.begin(), data.end(), nullptr, false);
    if (doc.is_discarded())
        return false;
    const json& result = member(member(doc, "data"), "result");
    if (!result.is_array())
        return false;
    const size_t root = jsonpos::skipWs(data, 0);
    const auto spans = jsonpos::elements(data, jsonpos::memberValue(data, jsonpos::memberValue(data, root, "data"), "result"));
    const jsonpos::LineIndex lines(data);
    SeriesSet set(file);
    for (size_t i = 0; i < result.size(); ++i) {
        const json& r = result[i];
        const size_t sb = i < spans.size() ? spans[i].first : root;
        const uint32_t line = lines.lineOf(sb);
        const json& metric = member(r, "metric");
        if (!metric.is_object()) {
            issues.push_back({line, "Prometheus result " + std::to_string(i) + " has no metric labels"});
            continue;
        }
        std::map<std::string, std::string> labels;
        std::string name;
        for (auto it = metric.begin(); it != metric.end(); ++it) {
            if (!it.value().is_string())
                continue;
            if (it.key() == "__name__")
                name = it.value().get<std::string>();
            else
                labels[it.key()] = it.value().get<std::string>();
        }
        MetricSeries& s = set.get(name, std::move(labels));
        auto add = [&](const json& pair, size_t off) {
            int64_t ns = 0;
            double v = 0;
            if (!jsonSample(pair, ns, v)) {
                issues.push_back({lines.lineOf(off), kBadPromSample});
                return;
            }
            s.samples.push_back({ns, v, off, lines.lineOf(off)});
        };
        if (const json& values = member(r, "values"); values.is_array()) {
            const auto vspans = jsonpos::elements(data, jsonpos::memberValue(data, sb, "values"));
            for (size_t k = 0; k < values.size(); ++k)
                add(values[k], k < vspans.size() ? vspans[k].first : sb);
        } else if (const json& value = member(r, "value"); !value.is_null()) {
            const size_t vb = jsonpos::memberValue(data, sb, "value");
            add(value, vb == jsonpos::npos ? sb : vb);
        } else {
            issues.push_back({line, "Prometheus result " + std::to_string(i) + " has neither values nor value"});
        }
    }
    set.emit(out);
    return true;
}

// name{a="b",c="d"} value [timestamp]
bool textSample(std::string_view line, std::string& name, std::map<std::string, std::string>& labels, double& v,
                int64_t& ns, std::string& why)
{
    size_t p = 0;
    auto nameChar = [](char c, bool first) {
        return cursor::isAlpha(c) || c == '_' || c == ':' || (!first && cursor::isDigit(c));
    };
    while (p < line.size() && nameChar(line[p], p == 0))
        ++p;
    if (p == 0) {
        why = "metric name expected";
        return false;
    }
    name.assign(line.substr(0, p));
    if (p < line.size() && line[p] == '{') {
        ++p;
        while (true) {
            p = cursor::skipSpaces(line, p);
            if (p < line.size() && line[p] == '}') {
                ++p;
                break;
            }
            const size_t kb = p;
            while (p < line.size() && nameChar(line[p], p == kb))
                ++p;
            if (p == kb || p >= line.size() || line[p] != '=' || p + 1 >= line.size() || line[p + 1] != '"') {
                why = "label name=\"value\" expected";
                return false;
            }
            const std::string key(line.substr(kb, p - kb));
            p += 2;
            std::string val;
            bool closed = false;
            while (p < line.size()) {
                const char c = line[p++];
                if (c == '\\' && p < line.size()) {
                    const char e = line[p++];
                    val += e == 'n' ? '\n' : e;
                } else if (c == '"') {
                    closed = true;
                    break;
                } else {
                    val += c;
                }
            }
            if (!closed) {
                why = "unterminated label value";
                return false;
            }
            labels[key] = std::move(val);
            p = cursor::skipSpaces(line, p);
            if (p < line.size() && line[p] == ',')
                ++p;
        }
    }
    if (p >= line.size() || !cursor::isSpace(line[p])) {
        why = "value expected after the metric";
        return false;
    }
    p = cursor::skipSpaces(line, p);
    const size_t ve = line.find_first_of(" \t", p);
    if (!parseValue(line.substr(p, ve == std::string_view::npos ? std::string_view::npos : ve - p), v)) {
        why = "value is not a number";
        return false;
    }
    ns = kNoTime;
    if (ve != std::string_view::npos) {
        const std::string_view ts = cursor::trim(line.substr(ve));
        if (!ts.empty()) {
            double t = 0;
            if (!parseValue(ts, t)) {
                why = "timestamp is not a number";
                return false;
            }
            // Prometheus text prints milliseconds, OpenMetrics seconds
            if (ts.find('.') == std::string_view::npos && t > 1e11)
                t /= 1000.0;
            if (!secondsToNs(t, ns)) {
                why = "timestamp out of range";
                return false;
            }
        }
    }
    return true;
}

template <typename F>
void forLines(std::string_view data, F&& f)
{
    for (const TextLine& line : linesOf(data))
        f(cursor::trimRight(line.text), line.offset, line.number);
}

bool parseText(std::string_view data, FileId file, std::vector<MetricSeries>& out, std::vector<ParseIssue>& issues)
{
    SeriesSet set(file);
    bool any = false;
    std::vector<ParseIssue> local;
    forLines(data, [&](std::string_view line, size_t off, uint32_t no) {
        const std::string_view t = cursor::trim(line);
        if (t.empty())
            return;
        if (t[0] == '#') {
            any = any || cursor::startsWith(t, "# TYPE ") || cursor::startsWith(t, "# HELP ");
            return;
        }
        std::string name, why;
        std::map<std::string, std::string> labels;
        double v = 0;
        int64_t ns = kNoTime;
        if (!textSample(t, name, labels, v, ns, why)) {
            local.push_back({no, why});
            return;
        }
        any = true;
        set.get(name, std::move(labels)).samples.push_back({ns, v, off, no});
    });
    if (!any)
        return false;
    issues.insert(issues.end(), local.begin(), local.end());
    set.emit(out);
    return true;
}

std::string lowerAscii(std::string_view s)
{
    std::string o(s);
    for (auto& c : o)
        c = cursor::lower(c);
    return o;
}

// A CSV row's series as the row spells it: views into the file's text, which
// outlives the parse, so finding a row's series builds no string.
struct CsvSeriesKey {
    std::string_view metric, node, gpu;
    bool operator==(const CsvSeriesKey&) const = default;
};

struct CsvSeriesKeyHash {
    size_t operator()(const CsvSeriesKey& k) const
    {
        const std::hash<std::string_view> h;
        size_t v = h(k.metric);
        v ^= h(k.node) + 0x9e3779b97f4a7c15ULL + (v << 6) + (v >> 2);
        v ^= h(k.gpu) + 0x9e3779b97f4a7c15ULL + (v << 6) + (v >> 2);
        return v;
    }
};

constexpr size_t kMaxCsvColumns = 32;

// A CSV row's fields, split at every comma (the exporters' CSVs quote nothing), the first kMaxCsvColumns
// kept; returns how many there are. Commas are found 16 bytes at a time where SSE2 is there: a search per
// field was ~40 % of parsing a metrics row (callgrind).
size_t splitCsvRow(std::string_view line, std::array<std::string_view, kMaxCsvColumns>& f)
{
    size_t n = 0, start = 0;
    auto field = [&](size_t end) {
        if (n < kMaxCsvColumns)
            f[n] = std::string_view(line.data() + start, end - start); // start <= end <= size: no substr check
        ++n;
        start = end + 1;
    };
    size_t i = 0;
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(',');
    for (; i + 16 <= line.size(); i += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(line.data() + i));
        for (auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, comma))); mask != 0;
             mask &= mask - 1)
            field(i + static_cast<size_t>(__builtin_ctz(mask)));
    }
    // The last partial block: the 16 bytes that end the row, the ones already looked at shifted out.
    if (i < line.size() && line.size() >= 16) {
        const size_t base = line.size() - 16;
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(line.data() + base));
        for (auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, comma))) >> (i - base);
             mask != 0; mask &= mask - 1)
            field(i + static_cast<size_t>(__builtin_ctz(mask)));
        i = line.size();
    }
#endif
    for (; i < line.size(); ++i)
        if (line[i] == ',')
            field(i);
    field(line.size());
    return n;
}

bool parseCsv(std::string_view data, FileId file, const Wanted& want, std::vector<MetricSeries>& out, MetricsTally& tally,
              std::vector<ParseIssue>& issues)
{
    const MetricsKeep keep = want.keep;
    // Metrics CSVs run to millions of rows: rows are split into a fixed array,
    // the series of a row is found by its fields' text, and a time text equal
    // to the previous row's is not parsed again.
    SeriesSet set(file);
    int cTime = -1, cNode = -1, cGpu = -1, cMetric = -1, cValue = -1;
    size_t columns = 0;
    bool header = false;
    std::array<std::string_view, kMaxCsvColumns> f{};
    std::unordered_map<CsvSeriesKey, uint32_t, CsvSeriesKeyHash> cache; // -> index into `series`
    std::vector<MetricSeries*> series;
    // An exporter's rows cycle through the same series (metric x GPU of one node), so the series that
    // followed the previous row's series last time is tried first, by its three fields: hashing them for
    // the map was most of what keeping series adds to a row (6.5 M rows at 10,000 ranks, the workbench).
    constexpr uint32_t kNoSeries = ~uint32_t(0);
    std::vector<CsvSeriesKey> keys;       // by series index
    std::vector<uint32_t> followedBy;     // by series index: the next row's series, last time
    std::vector<char> samplesKept;        // by series index: its samples are wanted
    uint32_t prevSeries = kNoSeries;
    // Samples in file order, then handed to their series at sizes known in
    // advance: growing thousands of series' vectors one sample at a time was
    // most of a workbench open's metrics cost (reallocation, page faults).
    struct Pending {
        uint32_t series;
        MetricSample sample;
    };
    std::vector<Pending> pending;
    // A block at a time, so a metrics file of gigabytes is not held twice.
    constexpr size_t kPendingChunk = size_t(1) << 20;
    auto handOver = [&] {
        std::vector<size_t> counts(series.size(), 0);
        for (const Pending& p : pending)
            ++counts[p.series];
        for (size_t i = 0; i < series.size(); ++i) {
            auto& samples = series[i]->samples;
            if (samples.size() + counts[i] > samples.capacity())
                samples.reserve(std::max(samples.size() + counts[i], 2 * samples.capacity()));
        }
        for (const Pending& p : pending)
            series[p.series]->samples.push_back(p.sample);
        pending.clear();
    };
    std::string_view lastTime;
    int64_t lastNs = 0;
    forLines(data, [&](std::string_view line, size_t off, uint32_t no) {
        if (line.empty()) // forLines trimmed its end: a blank line is empty now
            return;
        const size_t n = splitCsvRow(line, f);
        if (!header) {
            header = true;
            columns = n;
            // Rows are about as long as the first one after the header.
            if (keep == MetricsKeep::Samples || want.judged) {
                const size_t end = data.find('\n', off);
                const size_t next = end == std::string_view::npos ? end : data.find('\n', end + 1);
                if (next != std::string_view::npos && next - end > 8)
                    pending.reserve(std::min(kPendingChunk, data.size() / (next - end) + 16));
            }
            for (size_t i = 0; i < std::min(n, kMaxCsvColumns); ++i) {
                const std::string h = lowerAscii(cursor::trim(f[i]));
                const int ix = int(i);
                if (h == "time" || h == "timestamp")
                    cTime = ix;
                else if (h == "node" || h == "host" || h == "hostname" || h == "instance")
                    cNode = ix;
                else if (h == "gpu" || h == "gpu_index")
                    cGpu = ix;
                else if (h == "metric" || h == "name")
                    cMetric = ix;
                else if (h == "value")
                    cValue = ix;
            }
            return;
        }
        if (cTime < 0 || cMetric < 0 || cValue < 0)
            return;
        if (n != columns || n > kMaxCsvColumns) {
            issues.push_back({no, "CSV row has " + std::to_string(n) + " fields, header has " + std::to_string(columns)});
            return;
        }
        int64_t ns = 0;
        const std::string_view timeField = f[size_t(cTime)];
        if (!lastTime.empty() && timeField == lastTime) {
            ns = lastNs;
        } else {
            TimeBasis basis = TimeBasis::None;
            if (!timeText(timeField, ns, basis)) {
                issues.push_back({no, "CSV time is neither ISO 8601 nor epoch seconds"});
                return;
            }
            lastTime = timeField;
            lastNs = ns;
        }
        double v = 0;
        if (!parseValue(f[size_t(cValue)], v)) {
            issues.push_back({no, "CSV value is not a number"});
            return;
        }
        const std::string_view metric = cursor::trim(f[size_t(cMetric)]);
        if (metric.empty()) {
            issues.push_back({no, "CSV row without a metric name"});
            return;
        }
        tally.add(ns);
        if (keep == MetricsKeep::Nothing && !want.judged)
            return;
        const std::string_view node = cNode >= 0 ? cursor::trim(f[size_t(cNode)]) : std::string_view();
        const std::string_view gpu = cGpu >= 0 ? cursor::trim(f[size_t(cGpu)]) : std::string_view();
        const CsvSeriesKey key{metric, node, gpu};
        uint32_t index = 0;
        if (prevSeries != kNoSeries && followedBy[prevSeries] != kNoSeries && keys[followedBy[prevSeries]] == key) {
            index = followedBy[prevSeries];
        } else {
            const auto [it, added] = cache.try_emplace(key, uint32_t(series.size()));
            if (added) {
                std::map<std::string, std::string> labels;
                if (!node.empty())
                    labels["node"] = std::string(node);
                if (!gpu.empty())
                    labels["gpu"] = std::string(gpu);
                series.push_back(&set.get(std::string(metric), std::move(labels)));
                keys.push_back(key);
                followedBy.push_back(kNoSeries);
                samplesKept.push_back(want.samplesOf(metric));
            }
            index = it->second;
        }
        if (prevSeries != kNoSeries)
            followedBy[prevSeries] = index;
        prevSeries = index;
        if (samplesKept[index]) {
            pending.push_back({index, {ns, v, off, no}});
            if (pending.size() >= kPendingChunk)
                handOver();
        }
    });
    handOver();
    if (cTime < 0 || cMetric < 0 || cValue < 0)
        return false;
    const size_t before = out.size();
    set.emit(out);
    if (keep == MetricsKeep::Nothing) // only series metric rules read were made: the rest were counted
        out.erase(std::remove_if(out.begin() + long(before), out.end(),
                                 [&](const MetricSeries& m) { return !want.seriesOf(m.name); }),
                  out.end());
    return true;
}

} // namespace

bool parseMetrics(std::string_view data, FileId file, MetricsKeep keep, std::vector<MetricSeries>& out,
                  MetricsTally& tally, std::vector<ParseIssue>& issues, const MetricNames* judged)
{
    const Wanted want{keep, judged};
    const size_t first = jsonpos::skipWs(data, 0);
    if (first >= data.size())
        return false;
    const size_t nl = data.find('\n', first);
    const std::string head = lowerAscii(data.substr(first, nl == std::string_view::npos ? std::string_view::npos : nl - first));
    if (data[first] != '{' && head.find(',') != std::string::npos && head.find("value") != std::string::npos
        && (head.find("time") != std::string::npos))
        return parseCsv(data, file, want, out, tally, issues);
    if (data[first] == '{')
        return parsePromJson(data, file, want, out, tally, issues);
    // Text: series first, then what is kept of them.
    const size_t before = out.size();
    const bool ok = parseText(data, file, out, issues);
    tallyAndKeep(out, before, want, tally);
    return ok;
}

bool parseMetrics(std::string_view data, FileId file, std::vector<MetricSeries>& out, std::vector<ParseIssue>& issues)
{
    MetricsTally tally;
    return parseMetrics(data, file, MetricsKeep::Samples, out, tally, issues);
}

} // namespace fl
