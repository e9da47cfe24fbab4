// EXTRACT: every file of a bundle is memory-mapped and searched for the rules'
// literals; only candidate lines are parsed (prefixes, time, multi-line
// extent) and matched. Files are scanned on worker threads and merged in file
// order, so ids do not depend on scheduling.
#include "bundle/mapped_file.h"
#include "bundle/text_lines.h"
#include "calendar.h"
#include "engine/clock_offsets.h"
#include "engine/failure_summary.h"
#include "engine/address_hosts.h"
#include "engine/metric_nodes.h"
#include "engine/metric_rules.h"
#include "engine/internal.h"
#include "parse/extent.h"
#include "parse/lineparse.h"
#include "parse/structured.h"
#include "rules/matcher.h"
#include "bundle/sniff.h"
#include "bundle/wrappers.h"
#include "workers.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cstring>
#include <deque>
#include <mutex>
#include <set>

#include <sys/stat.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace fl::detail {

namespace {

constexpr size_t kHeadBytes = 64 * 1024;
constexpr size_t kMaxTextBytes = 1024;           // observation text cap (the raw ref has the rest)
constexpr size_t kMaxObservationsPerFile = 1'000'000;

struct FileOutput {
    SourceFile file;
    std::vector<Observation> observations;       // ids are local indices
    std::vector<SymptomEvent> events;            // observations[] are local indices
    std::vector<MetricSeries> metrics;
    std::vector<MetricTrackData> acrossTracks;   // series peers / all_below rules judge once every file is read
    std::vector<std::string> warnings;
    std::vector<std::pair<const SeriesCapture*, SeriesPoint>> points; // observation: local index
    std::shared_ptr<const AppLogFacts> appLog;   // what an app log says to placement, read in the same pass
};

// Line numbers need every newline counted, so this runs over every byte of
// the bundle: 16 bytes per step with SSE2 (always present on x86-64). Each
// match subtracts -1 from a byte counter; the counters are summed with SAD
// before they can wrap. (A popcount of the movemask compiled to a libgcc call
// per 16 bytes on baseline x86-64: 4 % of a deep bundle's profile.)
uint64_t countNewlines(std::string_view data, size_t from, size_t to)
{
    uint64_t n = 0;
    const char* p = data.data() + from;
    const char* end = data.data() + to;
#ifdef __SSE2__
    const __m128i nl = _mm_set1_epi8('\n');
    const __m128i zero = _mm_setzero_si128();
    while (end - p >= 16) {
        __m128i acc = zero;
        const size_t blocks = std::min<size_t>(static_cast<size_t>(end - p) / 16, 255);
        for (size_t b = 0; b < blocks; ++b, p += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), nl));
        const __m128i sums = _mm_sad_epu8(acc, zero);
        n += static_cast<uint64_t>(_mm_cvtsi128_si64(sums)) +
             static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(sums, sums)));
    }
#endif
    for (; p < end; ++p)
        n += (*p == '\n');
    return n;
}

int toInt(std::string_view s, int fallback = -1)
{
    int v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return (ec == std::errc() && ptr == s.data() + s.size()) ? v : fallback;
}

std::string capText(std::string_view s)
{
    if (s.size() > kMaxTextBytes)
        s = s.substr(0, kMaxTextBytes);
    while (!s.empty() && (s.back() == '\r' || s.back() == ' '))
        s.remove_suffix(1);
    return std::string(s);
}

constexpr int64_t kSecNs = 1'000'000'000;
constexpr int kMaxLinesAhead = 256;   // how far an untimed line looks for the stamped line after it

// A stamp says "some time within this second (ms, us ...)": [t, t + resolution).
// A boot offset also carries the error of the wall clock it was anchored to
// (syslog's second), so it is one second wider.
TimeInterval stampInterval(int64_t t, TimeBasis basis, int64_t resolutionNs)
{
    if (t == kNoTime || basis == TimeBasis::None)
        return {};
    int64_t width = resolutionNs > 0 ? resolutionNs : kSecNs;
    if (basis == TimeBasis::BootOffset)
        width += kSecNs;
    return {t, t + width - 1};
}

bool wallClock(TimeBasis b) { return b != TimeBasis::None && b != TimeBasis::BootRelative; }

// Upper bounds for untimed lines: the first stamped line after them. A file's
// candidate lines come in order, so what was read ahead once is remembered.
struct LookAhead {
    size_t searchedFrom = std::string_view::npos; // the line start the last search began at
    size_t foundAt = std::string_view::npos;      // start of the stamped line it found (npos: none)
    size_t searchedTo = 0;                        // where that search stopped
    bool reachedEnd = false;
    TimeInterval stamp;
    TimeBasis basis = TimeBasis::None;
};

// Observation::text is read by placement only, from kernel and syslog lines.
bool keepsText(SourceKind kind) { return kind == SourceKind::SysLog; }

// How long the line says it waited: the first of the rule's `waited` fields that holds a plain decimal
// number. "600021" ms lies in [600021, 600022) ms, "27.5" s in [27.5, 27.6) s: the printed figure is cut,
// not rounded, at its last digit (PyTorch's duration_cast, the kernel's integer seconds).
std::optional<Wait> waitOf(const std::vector<WaitedField>& spec, const FieldMap& fields)
{
    for (const WaitedField& f : spec) {
        auto it = f.field.empty() ? fields.end() : fields.find(f.field);
        if (f.value.empty() && it == fields.end())
            continue;
        const std::string& v = f.value.empty() ? it->second : f.value;
        const size_t dot = v.find('.');
        const std::string whole = v.substr(0, dot), frac = dot == std::string::npos ? "" : v.substr(dot + 1);
        auto digits = [](const std::string& t) {
            return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
        };
        if (whole.empty() || whole.size() > 12 || frac.size() > 9 || !digits(whole) || !digits(frac))
            continue;
        int64_t scale = 1;
        for (size_t i = 0; i < frac.size(); ++i)
            scale *= 10;
        const int64_t step = f.unitNs / scale > 0 ? f.unitNs / scale : 1; // the last printed digit, in ns
        const int64_t minNs = std::stoll(whole) * f.unitNs + (frac.empty() ? 0 : std::stoll(frac) * step);
        return Wait{minNs, f.atLeast ? kNoTime : minNs + step - 1};
    }
    return std::nullopt;
}

struct Scanner {
    const State& state;
    const Progress& progress;
    YearHint years;
    MetricNames metricNames;             // series the metric rules read (engine/metric_rules.h)
    MetricNames acrossNames;             // of them, those of peers / all_below rules
    MetricNames counterNames;            // of them, those of increase rules (a fall is a reset)

    // A number of a step line: a point of its series (engine/trends.cpp). A
    // value that is not a number is counted as a parse error of the file.
    static void addPoint(FileOutput& out, uint32_t obsIndex, const SeriesCapture& c,
                         const FieldMap& vals)
    {
        SeriesPoint p;
        p.observation = obsIndex;
        if (!parseSeriesValue(expandTemplate(c.value, vals), expandTemplate(c.unit, vals), p.value, p.unit)) {
            ++out.file.parseErrors;
            return;
        }
        if (!c.step.empty()) {
            const std::string step = expandTemplate(c.step, vals);
            SeriesUnit none{};
            if (!parseSeriesValue(step, "", p.step, none))
                p.step = std::nan("");
        }
        if (!c.rank.empty())
            p.rank = toInt(expandTemplate(c.rank, vals), -1);
        out.points.emplace_back(&c, p);
    }

    void emit(FileOutput& out, uint32_t obsIndex, const std::vector<ExtractMatch>& matches) const
    {
        const Observation& o = out.observations[obsIndex];
        for (const auto& m : matches) {
            const FieldMap vals(m.groups.begin(), m.groups.end());
            if (m.rule->series) {
                addPoint(out, obsIndex, *m.rule->series, vals);
                if (m.rule->emitSymptom.empty())
                    continue;
            }
            SymptomEvent e;
            e.symptom = expandShared(m.rule->emitSymptom, vals);
            e.originalSymptom = e.symptom;
            e.kind = m.rule->emitKind;
            e.node = o.node;
            e.rank = o.rank;
            e.gpuIndex = o.gpuIndex;
            e.pciBus = o.pciBus;
            e.time = o.time;
            e.clockNode = o.node;
            e.observations.push_back(ObservationId(obsIndex)); // local: rebased when the file's output is merged
            e.extractedBy = sharedRuleId(*m.rule);
            e.fields = vals;
            for (const auto& [k, tmpl] : m.rule->emitFields) {
                std::string v = expandTemplate(tmpl, vals);
                if (k == "@node") {
                    if (!v.empty())
                        e.node = v;
                } else if (k == "@rank") {
                    e.rank = toInt(v, e.rank);
                } else if (k == "@gpu") {
                    e.gpuIndex = toInt(v, e.gpuIndex);
                } else if (k == "@pci") {
                    if (!v.empty())
                        e.pciBus = normalizePciAddress(v);
                } else {
                    e.fields[k] = v;
                }
            }
            if (e.pciBus.empty())
                if (auto it = vals.find("pci"); it != vals.end())
                    e.pciBus = normalizePciAddress(it->second);
            if (!m.rule->waited.empty())
                e.waited = waitOf(m.rule->waited, e.fields);
            e.file = out.file.index;
            out.events.push_back(std::move(e));
        }
    }

    TimeContext contextFor(const SourceFile& f, std::string_view data) const
    {
        YearHint hint = years;
        hint.fileLatestNs = f.modifiedNs;
        TimeContext ctx = inferTimeContext(data.substr(0, std::min(data.size(), kHeadBytes)), f.kind, hint);
        if (state.manifest) {
            ctx.tzOffsetSec = state.manifest->timezoneOffsetSec;
            if (auto it = state.manifest->bootTimesNs.find(f.node); it != state.manifest->bootTimesNs.end())
                ctx.bootTimeNs = it->second;
        }
        return ctx;
    }

    void fileTimeSpan(SourceFile& f, std::string_view data, const TimeContext& ctx) const
    {
        // First timed line within the head, last timed line within the tail.
        size_t pos = 0;
        for (int i = 0; i < 64 && pos < data.size() && pos < kHeadBytes; ++i) {
            size_t eol = data.find('\n', pos);
            if (eol == std::string_view::npos)
                eol = data.size();
            LineInfo li = parseLine(data.substr(pos, eol - pos), f.kind, ctx);
            if (li.timeNs != kNoTime) {
                f.firstTimeNs = li.timeNs;
                break;
            }
            pos = eol + 1;
        }
        size_t end = data.size();
        for (int i = 0; i < 64 && end > 0 && data.size() - end < kHeadBytes; ++i) {
            size_t stop = end;
            if (stop > 0 && data[stop - 1] == '\n')
                --stop;
            size_t begin = data.rfind('\n', stop == 0 ? 0 : stop - 1);
            begin = (begin == std::string_view::npos) ? 0 : begin + 1;
            LineInfo li = parseLine(data.substr(begin, stop - begin), f.kind, ctx);
            if (li.timeNs != kNoTime) {
                f.lastTimeNs = li.timeNs;
                break;
            }
            if (begin == 0)
                break;
            end = begin;
        }
    }

    // An untimed line (NCCL INFO/WARN, traceback, continuation) happened after
    // the stamped line before it and before the stamped line after it; with
    // none after, before the file was last written.
    TimeInterval untimedInterval(const SourceFile& f, std::string_view data, size_t lineEnd, int64_t earliest,
                                 TimeBasis earlierBasis, const TimeContext& ctx, LookAhead& ahead) const
    {
        size_t from = lineEnd < data.size() ? lineEnd + 1 : data.size();
        const bool reuse = ahead.searchedFrom != std::string_view::npos && from >= ahead.searchedFrom &&
                           (ahead.foundAt != std::string_view::npos ? from <= ahead.foundAt
                                                                    : (ahead.reachedEnd && from <= data.size()));
        if (!reuse) {
            // The last search stopped at its line limit within no stamp: the lines from here to where it
            // stopped need no second parse (NCCL WARN runs of thousands of lines, each looking ahead).
            const bool resume = ahead.searchedFrom != std::string_view::npos && from >= ahead.searchedFrom &&
                                from <= ahead.searchedTo && ahead.foundAt == std::string_view::npos && !ahead.reachedEnd;
            const size_t resumeAt = ahead.searchedTo;
            ahead = LookAhead{};
            ahead.searchedFrom = from;
            size_t pos = from;
            int n = 0;
            if (resume) {
                n = static_cast<int>(countNewlines(data, from, resumeAt));
                pos = resumeAt;
            }
            while (pos < data.size() && n < kMaxLinesAhead) {
                size_t eol = data.find('\n', pos);
                if (eol == std::string_view::npos)
                    eol = data.size();
                const LineInfo li = parseLine(data.substr(pos, eol - pos), f.kind, ctx);
                if (li.basis != TimeBasis::None) {
                    ahead.foundAt = pos;
                    ahead.stamp = stampInterval(li.timeNs, li.basis, li.resolutionNs);
                    ahead.basis = li.basis;
                    break;
                }
                pos = eol + 1;
                ++n;
            }
            ahead.reachedEnd = ahead.foundAt == std::string_view::npos && pos >= data.size();
            ahead.searchedTo = pos;
        }
        TimeInterval iv;
        iv.earliestNs = earliest;
        if (ahead.foundAt != std::string_view::npos) {
            // Boot-relative and wall-clock stamps do not bound each other.
            if (earliest == kNoTime || wallClock(ahead.basis) == wallClock(earlierBasis))
                iv.latestNs = ahead.stamp.latestNs;
        } else if (ahead.reachedEnd && wallClock(earlierBasis)) {
            const int64_t m = f.modifiedNs;
            if (m != kNoTime && (earliest == kNoTime || m >= earliest))
                iv.latestNs = m;
        }
        return iv;
    }

    // The observation of a matched line (`line`: its 1-based number) whose record is `ex`.
    // `kind`: the line's, which is the file's unless the file mixes kernel and application lines.
    Observation observe(const SourceFile& f, std::string_view data, std::string_view text, const Extent& ex,
                        uint64_t line, const TimeContext& ctx, LookAhead& ahead, LookBehind& behind, bool keepText,
                        SourceKind kind) const
    {
        LineInfo li = parseLine(text, f.kind, ctx);
        Observation o;
        o.ref.offset = ex.begin;
        o.ref.length = static_cast<uint32_t>(std::min<size_t>(ex.end - ex.begin, UINT32_MAX));
        o.ref.line = static_cast<uint32_t>(line - std::min<uint64_t>(line - 1, ex.linesBefore));
        o.ref.lineCount = 1 + ex.linesBefore + ex.linesAfter;
        o.source = kind;
        o.time.ns = li.timeNs;
        o.time.basis = li.basis;
        o.time.interval = stampInterval(li.timeNs, li.basis, li.resolutionNs);
        if (!o.time.known()) {
            TimeBasis before = TimeBasis::None;
            int64_t t = inheritedTime(data, ex.begin, f.kind, ctx, 256, &before, behind);
            if (t != kNoTime) {
                o.time.ns = t;
                o.time.basis = TimeBasis::Inherited;
            }
            o.time.interval = untimedInterval(f, data, std::min(ex.end, data.size()), t, before, ctx, ahead);
        }
        // A wrapper's address is the file's node under another name where the file has one.
        const bool ownHost = !li.host.empty() && !(li.hostIsAddress && !f.node.empty());
        o.node = ownHost && kind != SourceKind::AppLog ? std::string(li.host) : f.node;
        if (o.node.empty())
            o.node = std::string(li.host);
        // A per-rank file knows its global rank; "[default3]:" is only the local
        // one, resolved to a global rank by the placement stage.
        o.rank = (li.rank >= 0 && !li.rankIsLocal) ? li.rank : f.rank;
        o.localRank = li.localRank;
        o.task = li.task;
        o.pid = li.pid;
        o.gpuIndex = li.device;
        o.severity = li.severity.value_or(Severity::Info);
        if (keepText) // series points and most others keep none: the report reads excerpts from the file
            o.text = capText(text.substr(std::min(li.messageStart, text.size())));
        return o;
    }

    // Series lines (engine/trends.cpp): a training log prints one per step,
    // and a trend is judged on the last ones. The main pass only remembers
    // where the last kSeriesTail lines of each series rule and launcher label
    // ("[default3]:", "3: ") are; this pass matches and observes those.
    struct SeriesLine {
        size_t begin = 0, end = 0;
        uint64_t line = 0;
    };
    static constexpr size_t kSeriesTail = 12;
    using SeriesTails = std::map<std::pair<int, std::string>, std::deque<SeriesLine>>;

    static std::string launcherLabel(std::string_view text)
    {
        if (!text.empty() && text[0] == '[') {
            size_t close = text.find("]:");
            if (close != std::string_view::npos && close < 40)
                return std::string(text.substr(0, close + 2));
        }
        size_t d = 0;
        while (d < text.size() && d < 8 && std::isdigit(static_cast<unsigned char>(text[d])))
            ++d;
        if (d > 0 && d + 1 < text.size() && text[d] == ':' && text[d + 1] == ' ')
            return std::string(text.substr(0, d + 2));
        return {};
    }

    void scanSeriesTails(FileOutput& out, std::string_view data, const TimeContext& ctx, const SeriesTails& tails) const
    {
        std::vector<SeriesLine> lines;
        for (const auto& [key, q] : tails)
            lines.insert(lines.end(), q.begin(), q.end());
        std::sort(lines.begin(), lines.end(), [](const SeriesLine& a, const SeriesLine& b) { return a.begin < b.begin; });
        lines.erase(std::unique(lines.begin(), lines.end(), [](const SeriesLine& a, const SeriesLine& b) {
                        return a.begin == b.begin;
                    }), lines.end());
        const CompiledRules& rules = state.rules->compiled();
        std::vector<ExtractMatch> matches;
        LookAhead ahead;
        LookBehind behind;
        for (const SeriesLine& sl : lines) {
            const std::string_view text = data.substr(sl.begin, sl.end - sl.begin);
            matches.clear();
            rules.matchSeries(innerLine(ctx.wrapper, text), out.file.kind, matches);
            if (matches.empty() || out.observations.size() >= kMaxObservationsPerFile)
                continue;
            const Extent ex{sl.begin, sl.end, 0, 0};
            out.observations.push_back(observe(out.file, data, text, ex, sl.line, ctx, ahead, behind, false, out.file.kind));
            const auto obs = static_cast<uint32_t>(out.observations.size() - 1);
            for (const auto& m : matches) {
                const FieldMap vals(m.groups.begin(), m.groups.end());
                addPoint(out, obs, *m.rule->series, vals);
            }
        }
    }

    // A Python traceback is one unit (issue #41): of its exception statements (chained ones
    // printed cause first), the deepest one a rule recognises decides, and the others are
    // context inside the unit's raw range, not events of their own. True for a line of such
    // another statement. `decided` remembers each unit's deciding statement by the unit's start.
    bool outerStatement(std::string_view data, size_t lineBegin, size_t lineEnd, SourceKind kind, LineWrapper wrapper,
                        std::map<size_t, size_t>& decided) const
    {
        const std::vector<ExceptionStatement> statements = tracebackStatements(data, lineBegin, lineEnd);
        if (statements.size() < 2)
            return false;
        auto [it, fresh] = decided.try_emplace(statements.front().begin, statements.front().begin);
        if (fresh) {
            std::vector<ExtractMatch> probe;
            const auto recognised = [&](const ExceptionStatement& st) {
                for (const TextLine& l : linesOf(data.substr(st.begin, st.end - st.begin))) {
                    probe.clear();
                    state.rules->compiled().match(innerLine(wrapper, l.text), kind, probe);
                    if (!probe.empty())
                        return true;
                }
                return false;
            };
            const auto deepest = std::find_if(statements.begin(), statements.end(), recognised);
            if (deepest != statements.end())
                it->second = deepest->begin;
        }
        const auto mine = std::find_if(statements.begin(), statements.end(), [&](const ExceptionStatement& st) {
            return st.begin <= lineBegin && lineBegin < std::max(st.end, st.begin + 1);
        });
        return mine != statements.end() && mine->begin != it->second;
    }

    // A matched rule's `continued` (rules/rule.h, Continuation) read into its groups: from the matched line,
    // else from up to `lines` following lines printed by the same host, up to the rule's next report. Returns
    // the end of the furthest line read from (the report's record then reaches it), or `lineEnd`.
    size_t readContinued(std::string_view data, size_t lineEnd, std::string_view text, const SourceFile& f,
                         const TimeContext& ctx, std::vector<ExtractMatch>& matches) const
    {
        const CompiledRules& rules = state.rules->compiled();
        size_t reached = lineEnd;
        std::string host;
        bool hostRead = false;
        for (ExtractMatch& m : matches) {
            if (!m.rule->continued || rules.readContinuation(*m.rule, innerLine(ctx.wrapper, text), m.groups))
                continue;
            if (!hostRead) {
                host = std::string(parseLine(text, f.kind, ctx).host);
                hostRead = true;
            }
            size_t pos = lineEnd + 1;
            for (int n = 0; n < m.rule->continued->lines && pos < data.size(); ++n) {
                size_t eol = data.find('\n', pos);
                if (eol == std::string_view::npos)
                    eol = data.size();
                std::string_view l = data.substr(pos, eol - pos);
                if (!l.empty() && l.back() == '\r')
                    l.remove_suffix(1);
                const std::string_view inner = innerLine(ctx.wrapper, l);
                const std::string_view by = host.empty() ? std::string_view() : parseLine(l, f.kind, ctx).host;
                if (by.empty() || by == host) {
                    if (rules.startsRecord(*m.rule, inner))
                        break;
                    if (rules.readContinuation(*m.rule, inner, m.groups)) {
                        reached = std::max(reached, pos + l.size());
                        break;
                    }
                }
                pos = eol + 1;
            }
        }
        return reached;
    }

    void scanText(FileOutput& out, std::string_view data) const
    {
        std::map<size_t, size_t> tracebacks; // unit start -> its deciding statement (outerStatement)
        SourceFile& f = out.file;
        const CompiledRules& rules = state.rules->compiled();
        TimeContext ctx = contextFor(f, data);
        fileTimeSpan(f, data, ctx);
        std::vector<ExtractMatch> matches;
        LookAhead ahead;
        LookBehind behind;
        const bool series = rules.hasSeries(f.kind);
        SeriesTails tails;
        size_t pos = 0;
        size_t counted = 0;
        uint64_t line = 1;
        size_t lastProgress = 0;
        // A mixed file (bundle/sniff.h) is searched for the candidates of both kinds its lines may have; the
        // later of the two searches is kept and only run again once passed.
        // A file of no kind of its own (linesByShape) is searched for the candidates of every kind a line
        // can have.
        const bool mixed = !f.linesByShape && (f.kind == SourceKind::AppLog || f.kind == SourceKind::SysLog) &&
                           mixedShapes(data.substr(0, std::min(data.size(), kHeadBytes)), ctx.wrapper);
        struct KindSearch {
            SourceKind kind;
            size_t cand;
        };
        std::vector<KindSearch> others;
        if (mixed)
            others.push_back({otherShapeKind(f.kind), 0});
        else if (f.linesByShape)
            for (SourceKind k : kTextLineKinds)
                if (k != f.kind)
                    others.push_back({k, 0});
        for (KindSearch& o : others)
            o.cand = rules.nextCandidate(data, 0, o.kind);
        while (true) {
            size_t cand = rules.nextCandidate(data, pos, f.kind);
            for (KindSearch& o : others) {
                if (o.cand != std::string_view::npos && o.cand < pos)
                    o.cand = rules.nextCandidate(data, pos, o.kind);
                cand = std::min(cand, o.cand);
            }
            if (cand == std::string_view::npos)
                break;
            if (cand - lastProgress > (8u << 20)) {
                if (progress.cancelled())
                    return;
                lastProgress = cand;
            }
            line += countNewlines(data, counted, cand);
            counted = cand;
            size_t eol = data.find('\n', cand);
            if (eol == std::string_view::npos)
                eol = data.size();
            std::string_view text = data.substr(cand, eol - cand);
            if (!text.empty() && text.back() == '\r')
                text.remove_suffix(1);
            // A relayed line is matched from where it starts: a wrapper must not decide whether it is known.
            const std::string_view inner = innerLine(ctx.wrapper, text);
            const SourceKind kind = f.linesByShape ? lineKindOfText(inner) : mixed ? lineKindByShape(inner, f.kind) : f.kind;
            if (series) {
                if (int rule = rules.seriesCandidate(inner, f.kind); rule >= 0) {
                    // Each relaying prefix ("node-02: ") and launcher label is a stream of its own.
                    auto& q = tails[{rule, std::string(text.substr(0, text.size() - inner.size())) + launcherLabel(inner)}];
                    q.push_back({cand, cand + text.size(), line});
                    if (q.size() > kSeriesTail)
                        q.pop_front();
                    if (!rules.otherCandidate(inner, f.kind) && kind == f.kind) {
                        pos = eol + 1;
                        if (pos >= data.size())
                            break;
                        continue;
                    }
                }
            }
            matches.clear();
            rules.match(inner, kind, matches);
            if (!matches.empty() && outerStatement(data, cand, cand + text.size(), kind, ctx.wrapper, tracebacks))
                matches.clear();
            if (!matches.empty()) {
                if (out.observations.size() >= kMaxObservationsPerFile) {
                    ++f.parseErrors;
                } else {
                    const size_t reached = readContinued(data, cand + text.size(), text, f, ctx, matches);
                    Extent ex = recordExtent(data, cand, cand + text.size());
                    if (reached > ex.end) {
                        ex.linesAfter += uint32_t(countNewlines(data, ex.end, reached));
                        ex.end = reached;
                    }
                    // A second matching line inside the same multi-line record
                    // (fallen-off-the-bus block, traceback) backs the same observation.
                    if (!out.observations.empty() && out.observations.back().ref.offset == ex.begin &&
                        out.observations.back().ref.length == std::min<size_t>(ex.end - ex.begin, UINT32_MAX)) {
                        emit(out, static_cast<uint32_t>(out.observations.size() - 1), matches);
                        pos = eol + 1;
                        if (pos >= data.size())
                            break;
                        continue;
                    }
                    out.observations.push_back(observe(f, data, text, ex, line, ctx, ahead, behind, keepsText(kind), kind));
                    emit(out, static_cast<uint32_t>(out.observations.size() - 1), matches);
                }
            }
            pos = eol + 1;
            if (pos >= data.size())
                break;
        }
        line += countNewlines(data, counted, data.size());
        f.lines = line - ((data.empty() || data.back() == '\n') ? 1 : 0);
        if (!tails.empty())
            scanSeriesTails(out, data, ctx, tails);
    }

    bool scanStructured(FileOutput& out, std::string_view data) const
    {
        std::vector<StructuredRecord> records;
        std::vector<ParseIssue> issues;
        // The readers of each kind, most specific first; a file none of them claims is read as text.
        const bool ok = out.file.kind == SourceKind::GpuSnapshot
            ? parseNvidiaSmiQuery(data, records, issues) || parseDcgmiDiag(data, records, issues)
            : parseSacctJson(data, records, issues) || parseK8sEvents(data, records, issues)
                  || parseK8sObjects(data, records, issues) || parseSacctPipe(data, records, issues)
                  || parseScontrolShow(data, records, issues) || parseKubectlText(data, records, issues);
        if (!ok)
            return false;
        SourceFile& f = out.file;
        f.lines = countNewlines(data, 0, data.size()) + ((!data.empty() && data.back() != '\n') ? 1 : 0);
        f.parseErrors += issues.size();
        for (const auto& issue : issues)
            out.warnings.push_back(f.path + ":" + std::to_string(issue.line) + ": " + issue.message);
        const CompiledRules& rules = state.rules->compiled();
        std::vector<ExtractMatch> matches;
        for (const auto& r : records) {
            if (r.timeNs != kNoTime) {
                f.firstTimeNs = f.firstTimeNs == kNoTime ? r.timeNs : std::min(f.firstTimeNs, r.timeNs);
                f.lastTimeNs = f.lastTimeNs == kNoTime ? r.timeNs : std::max(f.lastTimeNs, r.timeNs);
            }
            matches.clear();
            rules.match(r.text, f.kind, matches);
            if (matches.empty())
                continue;
            Observation o;
            o.ref.offset = r.offset;
            o.ref.length = r.length;
            o.ref.line = r.line;
            o.ref.lineCount = r.lineCount;
            o.source = f.kind;
            o.time.ns = r.timeNs;
            o.time.basis = r.basis;
            o.time.interval = stampInterval(r.timeNs, r.basis, kSecNs); // scheduler records print whole seconds
            o.node = r.node.empty() ? f.node : r.node;
            o.rank = r.rank;
            o.severity = r.severity;
            if (keepsText(f.kind))
                o.text = capText(r.text);
            out.observations.push_back(std::move(o));
            emit(out, static_cast<uint32_t>(out.observations.size() - 1), matches);
        }
        return true;
    }

    void scanFile(FileOutput& out) const
    {
        SourceFile& f = out.file;
        if (f.status != FileStatus::Ok)
            return;
        MappedFile map;
        std::string error;
        if (!openSource(map, f, &error)) {
            f.status = FileStatus::Error;
            f.statusReason = error;
            return;
        }
        scanData(out, map.data());
        if (f.kind == SourceKind::AppLog && f.status == FileStatus::Ok)
            out.appLog = readAppLogFacts(f, map.data());
        // Truncated or replaced under us: what was read is not the file, so
        // nothing of it is kept (issue #13).
        if (map.changed()) {
            out.appLog.reset();
            f.status = FileStatus::Error;
            f.statusReason = map.changeReason();
            f.observations = 0;
            out.observations.clear();
            out.events.clear();
            out.metrics.clear();
        }
    }

    // The single-series metric rules over this file's series; the series of peers / all_below rules are
    // kept for when every file is read.
    void judgeMetrics(FileOutput& out, std::string_view data, SeriesAfter after) const
    {
        std::vector<MetricTrackData> tracks =
            metricTracks(out.metrics, after, metricNames, counterNames, out.file.index, out.file.path, out.warnings);
        std::vector<const MetricTrackData*> all;
        for (const auto& t : tracks)
            all.push_back(&t);
        runMetricRules(*state.rules, false, all, 0, out.observations, 0, out.events, data); // local ids: rebased by commit
        for (auto& e : out.events)
            e.file = out.file.index;
        for (auto& t : tracks)
            if (acrossNames.count(t.name)) {
                measureSampleLengths(t, data); // judged after the file is gone
                out.acrossTracks.push_back(std::move(t));
            }
    }

    void scanData(FileOutput& out, std::string_view data) const
    {
        SourceFile& f = out.file;
        switch (f.kind) {
        case SourceKind::Metrics: {
            std::vector<ParseIssue> issues;
            MetricsTally tally;
            // A caller that only writes the result document has no use for the series
            // themselves: the file's times and sample count are taken either way.
            const MetricsKeep keep = state.keepMetricSamples ? MetricsKeep::Samples
                : state.keepMetricSeries                     ? MetricsKeep::SeriesOnly
                                                             : MetricsKeep::Nothing;
            // Metric rules read samples: those of the series they read are kept until the rules have run over
            // them; the others are checked and counted only (unless the caller keeps every sample).
            const bool judged = !metricNames.empty();
            if (!parseMetrics(data, f.index, keep, out.metrics, tally, issues, judged ? &metricNames : nullptr)) {
                f.status = FileStatus::Unrecognized;
                f.statusReason = "named like metrics, but not Prometheus JSON, OpenMetrics text or metrics CSV";
            } else if (judged) {
                uint64_t read = 0;
                for (const auto& m : out.metrics)
                    if (metricNames.count(m.name))
                        read += m.samples.size();
                if (read < tally.samples)
                    out.warnings.push_back(f.path + ": " + std::to_string(tally.samples - read) + " of " +
                                           std::to_string(tally.samples) +
                                           " metric samples are of metrics no metric rule reads: counted, not judged");
                judgeMetrics(out, data, keep == MetricsKeep::Nothing ? SeriesAfter::Dropped : SeriesAfter::Kept);
                if (keep != MetricsKeep::Samples)
                    for (auto& m : out.metrics)
                        m.samples = {};
                if (keep == MetricsKeep::Nothing)
                    out.metrics.clear();
            }
            f.lines = countNewlines(data, 0, data.size());
            f.parseErrors += issues.size();
            for (const auto& issue : issues)
                out.warnings.push_back(f.path + ":" + std::to_string(issue.line) + ": " + issue.message);
            if (tally.firstNs != kNoTime) {
                f.firstTimeNs = f.firstTimeNs == kNoTime ? tally.firstNs : std::min(f.firstTimeNs, tally.firstNs);
                f.lastTimeNs = f.lastTimeNs == kNoTime ? tally.lastNs : std::max(f.lastTimeNs, tally.lastNs);
            }
            f.observations += tally.samples;
            return;
        }
        case SourceKind::Scheduler:
            if (scanStructured(out, data))
                return;
            scanText(out, data);
            return;
        case SourceKind::GpuSnapshot:
            if (scanStructured(out, data))
                return;
            scanText(out, data);
            return;
        case SourceKind::AppLog:
        case SourceKind::SysLog:
        case SourceKind::FabricManager:
        case SourceKind::HostMap:
            scanText(out, data);
            return;
        case SourceKind::Manifest:
        case SourceKind::Unknown:
            return;
        }
    }
};

// Room for `more` items: by what the bytes still to scan project from the
// bytes done (at most 4x, at least 1.5x what is needed), instead of doubling.
// Each doubling moved every event or observation merged so far, under the
// commit lock (~4 % of a 10,000-rank scan's CPU).
template <typename T>
void growByProjection(std::vector<T>& v, size_t more, uint64_t doneBytes, uint64_t totalBytes)
{
    const size_t needed = v.size() + more;
    if (needed <= v.capacity())
        return;
    const double projected = doneBytes > 0 && totalBytes > doneBytes
        ? static_cast<double>(needed) * static_cast<double>(totalBytes) / static_cast<double>(doneBytes)
        : static_cast<double>(needed);
    v.reserve(static_cast<size_t>(std::clamp(projected, needed * 1.5, needed * 4.0)));
}

// What the bundle brings besides its files: its manifest, the extraction folder to keep, its warnings.
void adoptBundle(State& state, const Bundle& bundle)
{
    if (bundle.manifest && !state.manifest)
        state.manifest = bundle.manifest;
    if (bundle.extraction)
        state.keepAlive.push_back(bundle.extraction);
    for (const auto& w : bundle.warnings)
        state.warnings.push_back(w);
}

// Syslog lines carry no year: take it from the manifest, else from the first
// full date found in any file's head, else (per file) from its modification
// time; see inferTimeContext. Says so in a warning when the year is a guess.
YearHint yearHintOf(State& state, const Bundle& bundle)
{
    YearHint years;
    if (state.manifest) {
        years.latestNs = state.manifest->windowEndNs != kNoTime ? state.manifest->windowEndNs : state.manifest->detectedAtNs;
        years.nearNs = state.manifest->windowStartNs;
    }
    if (years.latestNs == kNoTime && years.nearNs == kNoTime) {
        for (const auto& f : bundle.files) {
            if (f.status != FileStatus::Ok || f.kind == SourceKind::Metrics)
                continue;
            MappedFile map;
            std::string err;
            if (!openSource(map, f, &err))
                continue;
            years.nearNs = firstFullDateNs(map.data().substr(0, std::min(map.data().size(), kHeadBytes)), f.kind);
            if (years.nearNs != kNoTime)
                break;
        }
    }
    if (years.latestNs == kNoTime && years.nearNs == kNoTime
        && std::any_of(bundle.files.begin(), bundle.files.end(), [](const SourceFile& f) {
               return f.status == FileStatus::Ok && f.modifiedNs == kNoTime;
           }))
        state.warnings.push_back("year unknown: no manifest window, no dated line and no file time give the year; times "
                                 "printed without one (syslog \"Mon DD HH:MM:SS\") are placed in 1970; add window.start "
                                 "to workload.json");
    else if (years.latestNs == kNoTime && years.nearNs == kNoTime)
        state.warnings.push_back("no manifest window and no dated line give the year: times printed without one "
                                 "(syslog \"Mon DD HH:MM:SS\") take it from their file's modification time");
    return years;
}

// One scanned file's output moved into `state`, its observation and event ids
// renumbered to their place there; `out` is emptied so its memory goes back.
void commitFile(State& state, FileOutput& out, uint64_t committedBytes, uint64_t totalBytes)
{
    growByProjection(state.observations, out.observations.size(), committedBytes, totalBytes);
    growByProjection(state.extracted, out.events.size(), committedBytes, totalBytes);
    const uint32_t obsBase = static_cast<uint32_t>(state.observations.size());
    for (auto& o : out.observations) {
        o.id = ObservationId(static_cast<uint32_t>(state.observations.size()));
        o.ref.file = out.file.index;
        state.observations.push_back(std::move(o));
    }
    for (auto& e : out.events) {
        for (auto& id : e.observations)
            id = ObservationId(id.value + obsBase);
        e.id = EventId(static_cast<uint32_t>(state.extracted.size()));
        state.extracted.push_back(std::move(e));
    }
    for (auto& [capture, p] : out.points) {
        p.observation += obsBase;
        state.series[capture->name].push_back(p);
    }
    for (auto& m : out.metrics) {
        m.file = out.file.index;
        state.metrics.push_back(std::move(m));
    }
    for (auto& t : out.acrossTracks)
        state.metricTracks.push_back(std::move(t));
    if (out.appLog) {
        if (state.appLogs.size() <= out.file.index.value)
            state.appLogs.resize(out.file.index.value + 1);
        state.appLogs[out.file.index.value] = std::move(out.appLog);
    }
    out.file.observations += out.observations.size();
    for (auto& w : out.warnings)
        state.warnings.push_back(std::move(w));
    state.files.push_back(std::move(out.file));
    out = FileOutput{};
}

// Every file scanned on every core. Each file's output is moved into `state`
// as soon as it and every file before it are scanned, in file order (ids do
// not depend on scheduling), and freed: the per-file vectors are reused by the
// files still being scanned instead of all of them being held until a merge at
// the end.
void scanFiles(State& state, const Bundle& bundle, const YearHint& years, const Progress& progress)
{
    const uint32_t fileBase = static_cast<uint32_t>(state.files.size());
    std::vector<FileOutput> outputs(bundle.files.size());
    for (size_t i = 0; i < bundle.files.size(); ++i) {
        outputs[i].file = bundle.files[i];
        outputs[i].file.index = FileId(fileBase + static_cast<uint32_t>(i));
    }
    uint64_t totalBytes = 0;
    for (const auto& f : bundle.files)
        totalBytes += f.size;

    state.files.reserve(state.files.size() + outputs.size());
    size_t committed = 0;
    uint64_t committedBytes = 0;
    auto commit = [&](FileOutput& out) {
        committedBytes += out.file.size;
        commitFile(state, out, committedBytes, totalBytes);
    };

    Scanner scanner{state, progress, years, metricRuleSeries(*state.rules, false), metricRuleSeries(*state.rules, true), {}};
    for (const Rule& r : state.rules->rules())
        if (r.metric && r.metric->kind == MetricKind::Increase)
            scanner.counterNames.insert(r.metric->series);
    if (!scanner.metricNames.empty()) { // kept with the across series: it names hosts once every file is read
        scanner.metricNames.emplace(kHostNameSeries);
        scanner.acrossNames.emplace(kHostNameSeries);
    }
    std::atomic<size_t> next{0};
    std::vector<char> scanned(outputs.size(), 0);
    // Progress from the scan threads one call at a time, `done` only growing (core/progress.h).
    std::mutex commitMutex;
    uint64_t doneBytes = 0;
    auto worker = [&] {
        while (true) {
            size_t i = next.fetch_add(1);
            if (i >= outputs.size() || progress.cancelled())
                return;
            scanner.scanFile(outputs[i]);
            const std::lock_guard lock(commitMutex);
            doneBytes += outputs[i].file.size;
            scanned[i] = 1;
            while (committed < outputs.size() && scanned[committed])
                commit(outputs[committed++]);
            progress("scan", doneBytes, totalBytes);
        }
    };
    runOnEveryCore(outputs.size(), worker, state.threads);
    // After a cancel: the files not scanned are still listed, in order.
    while (committed < outputs.size())
        commit(outputs[committed++]);
    outputs = {};
}

} // namespace

void scanBundle(State& state, const Bundle& bundle, const Progress& progress)
{
    adoptBundle(state, bundle);
    const YearHint years = yearHintOf(state, bundle);
    // The peers / all_below events of the last ingest are judged again over every file so far (they are
    // the last events: nothing else appends between ingests).
    state.extracted.resize(state.extracted.size() - state.metricAcrossEvents);
    state.metricAcrossEvents = 0;
    const size_t firstEvent = state.extracted.size();
    scanFiles(state, bundle, years, progress);

    if (!state.metricTracks.empty()) {
        std::vector<const MetricTrackData*> tracks;
        for (const auto& t : state.metricTracks)
            tracks.push_back(&t);
        const size_t before = state.extracted.size();
        runMetricRules(*state.rules, true, tracks, 0, state.observations, 0, state.extracted);
        state.metricAcrossEvents = state.extracted.size() - before;
    }
    // Series named by the address Prometheus scraped go to the host it is (engine/metric_nodes.h).
    if (!metricRuleSeries(*state.rules, false).empty())
        nameMetricNodes(state.metricTracks, state.extracted, state.observations, state.metrics, state.warnings);
    // Lines a wrapper placed only on an address go to the host the bundle says has it (engine/address_hosts.h).
    nameAddressedNodes(state.extracted, state.observations, state.warnings);
    std::sort(state.metrics.begin(), state.metrics.end(), [](const MetricSeries& a, const MetricSeries& b) {
        return std::tie(a.name, a.node, a.gpu, a.file) < std::tie(b.name, b.node, b.gpu, b.file);
    });

    // Fields that sit on several lines of one record (engine/failure_summary.cpp).
    readFailureSummaries(state, firstEvent);

    // PLACEMENT: node <-> GPU <-> PCI <-> local/global rank from every source, then filled in
    // (before the clock estimate, which groups events by node).
    state.placement = buildPlacement(state.files, state.observations, state.manifest, state.appLogs);
    applyPlacement(state.placement, state.observations, state.extracted, state.files);
    state.clocks = estimateClockOffsets(state, state.extracted);
}

} // namespace fl::detail
