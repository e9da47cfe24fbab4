#include "rules/matcher.h"

#include "rules/lazy_gap.h"
#include "rules/ruleset.h"
#include "text_find.h"

#include <re2/re2.h>
#ifdef FAULTLINE_HAVE_HYPERSCAN
#include <hs.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>

namespace fl {

namespace {

constexpr size_t kMaxMatchedLineBytes = 64 * 1024; // longer lines are matched on their head
constexpr size_t kChunk = 256ull << 20;             // keep RE2 searches well inside int range
constexpr int kKinds = static_cast<int>(SourceKind::Unknown) + 1;

RE2::Options patternOptions(bool ignoreCase)
{
    RE2::Options o;
    o.set_log_errors(false);
    o.set_case_sensitive(!ignoreCase);
    o.set_max_mem(64 << 20);
    return o;
}

bool containsIgnoreCase(std::string_view hay, std::string_view needle)
{
    if (needle.empty())
        return true;
    auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != hay.end();
}

#ifdef FAULTLINE_HAVE_HYPERSCAN
// The literal pre-filter runs over every byte of a bundle. Hyperscan's SIMD
// multi-literal matcher finds the same candidate lines as the RE2 alternation
// about 5x faster (bench/prefilter.sh, docs/performance.md); RE2 stays the
// fallback where Hyperscan is not built in, the CPU lacks SSSE3, or a literal
// is not plain ASCII (RE2 folds Unicode case, Hyperscan only ASCII).
struct HsDatabaseFree {
    void operator()(hs_database_t* db) const { hs_free_database(db); }
};
struct HsScratchFree {
    void operator()(hs_scratch_t* s) const { hs_free_scratch(s); }
};
using HsDatabase = std::unique_ptr<hs_database_t, HsDatabaseFree>;
using HsScratch = std::unique_ptr<hs_scratch_t, HsScratchFree>;

std::atomic<uint64_t> g_hsGeneration{0};

// Scratch space is per thread; each thread clones the rule set's prototype
// the first time it scans with that rule set.
struct ThreadScratch {
    HsScratch scratch;
    uint64_t generation = 0;
};
thread_local ThreadScratch t_scratch;

struct FirstMatch {
    bool found = false;
    unsigned long long to = 0;
};

int markLiteral(unsigned id, unsigned long long, unsigned long long, unsigned, void* ctx)
{
    (*static_cast<std::vector<char>*>(ctx))[id] = 1;
    return 0; // go on: every literal of the line is wanted
}

int stopAtFirst(unsigned, unsigned long long, unsigned long long to, unsigned, void* ctx)
{
    auto& m = *static_cast<FirstMatch*>(ctx);
    m.found = true;
    m.to = to;
    return 1; // halt: the scan answers one candidate at a time
}

constexpr size_t kHsChunk = 1ull << 30; // hs_scan takes an unsigned length

// The databases only answer "where is the first line holding any literal", so a
// literal that holds another one of the same set is redundant: wherever it
// occurs, the shorter one occurs on the same line (literals hold no newline),
// and the first candidate line stays the same. Dropping them matters beyond
// their number: Vectorscan's literal matcher has cliffs — three NCCL WARN
// literals added to the ~100 of applog doubled the deep bundle's CPU (1.3 ->
// 2.9 s, docs/performance.md). A caseless literal covers any literal that
// holds it in any case; a case-sensitive one only case-sensitive literals.
std::map<std::string, unsigned> withoutRedundantLiterals(const std::map<std::string, unsigned>& lits)
{
    std::map<std::string, unsigned> kept;
    for (const auto& [a, flagsA] : lits) {
        const bool covered = std::any_of(lits.begin(), lits.end(), [&, &a = a, flagsA = flagsA](const auto& other) {
            const auto& [b, flagsB] = other;
            // Same length and covering: the same literal in other case; the smaller one stays.
            if (b == a || b.size() > a.size() || (b.size() == a.size() && b > a))
                return false;
            if (flagsB & HS_FLAG_CASELESS)
                return containsIgnoreCase(a, b);
            return !(flagsA & HS_FLAG_CASELESS) && a.find(b) != std::string::npos;
        });
        if (!covered)
            kept.emplace(a, flagsA);
    }
    return kept;
}
#endif

} // namespace

struct CompiledRule {
    const Rule* rule = nullptr;
    std::unique_ptr<RE2> re;
    std::unique_ptr<RE2> exclude;
    std::vector<std::string> literals;
    std::vector<std::pair<int, std::string>> groups; // capture index -> name
    std::vector<std::string> leads; // every match of `re` starts with one of them (leadingLiterals); {}: unknown
    std::unique_ptr<LazyGap> gap; // `re` in two pieces, when it has leads and a top-level ".*?"
    std::unique_ptr<RE2> atStart; // "^(?:re)", when it has leads and no gap (rules/lazy_gap.h: matchAnchoredAt)
    std::unique_ptr<RE2> continued; // Rule::continued's pattern
};

// Every match of `re` starts with one of `leads`: RE2 run anchored at each place one occurs, in order, finds the
// match an unanchored run finds (the leftmost one, with the same groups) for ~40 % less than the unanchored
// run, which must also find where the match starts before it can fill the groups (Megatron step lines:
// 1.1 -> 0.7 us and 2.4 -> 1.6 us). After a few misses the rest of the line goes to one unanchored run, so a
// hostile line full of leads costs no more than that. A pattern with a top-level ".*?" is tried in its two
// pieces first (rules/lazy_gap.h).
bool matchFromLead(const CompiledRule& c, std::string_view line, re2::StringPiece* subs, int n)
{
    const RE2& re = *c.re;
    const re2::StringPiece text(line.data(), line.size());
    const auto matchesAt = [&](size_t at) {
        if (c.atStart)
            return matchAnchoredAt(*c.atStart, line, at, subs, n);
        const GapAnswer quick = c.gap ? matchLazyGap(*c.gap, line, at, subs, n) : GapAnswer::Unsure;
        return quick == GapAnswer::Match ||
               (quick == GapAnswer::Unsure && re.Match(text, at, line.size(), RE2::ANCHOR_START, subs, n));
    };
    return matchAtLead(c.leads, line, 0, matchesAt,
                       [&](size_t at) { return re.Match(text, at, line.size(), RE2::UNANCHORED, subs, n); });
}

namespace {
// What a rule's compiled patterns are made from: two rules equal in it compile to the same.
std::string compileKey(const Rule& rule)
{
    std::string key = rule.pattern;
    key += '\0';
    key += rule.exclude;
    key += rule.ignoreCase ? "\0i\0" : "\0c\0";
    if (rule.continued)
        key += rule.continued->pattern;
    else
        key += '\1';
    return key;
}
} // namespace

struct CompiledRules::Impl {
    std::vector<CompiledRule> rules;
    std::unordered_map<std::string, CompiledRule> absorbed; // compileKey -> patterns a later build may take
    std::unordered_map<const Rule*, size_t> byRule;    // rules with a `continued` -> their index
    std::array<std::vector<size_t>, kKinds> byKind;    // indices into rules
    std::array<std::unique_ptr<RE2>, kKinds> prefilter;
    std::array<bool, kKinds> everyLine{};              // some rule has no literal
    std::array<std::vector<std::string>, kKinds> literalList;
    // Rules whose lines are only points of a series (a `series`, no `emit`):
    // not in byKind; their lines are judged by the scan's tail pass.
    std::array<std::vector<size_t>, kKinds> seriesByKind;
    std::array<std::unique_ptr<RE2>, kKinds> otherPrefilter; // literals of byKind's rules only
    std::array<bool, kKinds> otherEveryLine{};
    mutable std::mutex fieldMutex;
    mutable std::unordered_map<std::string, std::unique_ptr<RE2>> fieldPatterns;
#ifdef FAULTLINE_HAVE_HYPERSCAN
    std::array<HsDatabase, kKinds> literalDb;          // unset: that kind uses `prefilter`
    // Which literals a candidate line holds, all of them in one pass: a
    // candidate line was otherwise searched once per literal of each of the
    // kind's ~100 rules (4 % of the wide bundle's CPU). ruleLiterals[k][j]: the
    // literal ids of byKind[k][j]; unset database: each rule looks for its own.
    std::array<HsDatabase, kKinds> ruleLiteralDb;
    std::array<std::vector<std::vector<unsigned>>, kKinds> ruleLiterals;
    std::array<size_t, kKinds> ruleLiteralCount{};
    HsScratch scratchPrototype;                        // large enough for every literalDb
    uint64_t hsGeneration = 0;

    hs_scratch_t* threadScratch() const
    {
        if (t_scratch.generation != hsGeneration || !t_scratch.scratch) {
            hs_scratch_t* s = nullptr;
            if (hs_clone_scratch(scratchPrototype.get(), &s) != HS_SUCCESS)
                return nullptr;
            t_scratch.scratch.reset(s);
            t_scratch.generation = hsGeneration;
        }
        return t_scratch.scratch.get();
    }
#endif
};

CompiledRules::CompiledRules() : d(std::make_unique<Impl>()) {}
CompiledRules::~CompiledRules() = default;
CompiledRules::CompiledRules(CompiledRules&&) noexcept = default;
CompiledRules& CompiledRules::operator=(CompiledRules&&) noexcept = default;

void CompiledRules::absorb(CompiledRules&& other)
{
    for (CompiledRule& c : other.d->rules) {
        const std::string key = compileKey(*c.rule);
        c.rule = nullptr;
        d->absorbed.try_emplace(key, std::move(c));
    }
    other.d = std::make_unique<Impl>();
}

void CompiledRules::build(const std::vector<Rule>& rules, Purpose purpose, CompiledRules* reuse)
{
    auto fresh = std::make_unique<Impl>();
    for (const Rule& rule : rules) {
        if (rule.phase != Phase::Extract || rule.metric) // a metric rule reads series (engine/metric_rules.cpp)
            continue;
        if (reuse && !reuse->d->absorbed.empty()) {
            if (auto it = reuse->d->absorbed.find(compileKey(rule)); it != reuse->d->absorbed.end()) {
                CompiledRule c = std::move(it->second);
                reuse->d->absorbed.erase(it);
                c.rule = &rule;
                c.literals = prefilterLiterals(rule);
                if (rule.continued)
                    fresh->byRule[&rule] = fresh->rules.size();
                fresh->rules.push_back(std::move(c));
                continue;
            }
        }
        CompiledRule c;
        c.rule = &rule;
        c.re = std::make_unique<RE2>(rule.pattern, patternOptions(rule.ignoreCase));
        if (!c.re->ok())
            throw RuleError(rule.file, rule.line, 0, rule.id, "pattern does not compile: " + c.re->error());
        if (!rule.exclude.empty()) {
            c.exclude = std::make_unique<RE2>(rule.exclude, patternOptions(rule.ignoreCase));
            if (!c.exclude->ok())
                throw RuleError(rule.file, rule.line, 0, rule.id, "exclude does not compile: " + c.exclude->error());
        }
        c.literals = prefilterLiterals(rule);
        if (!rule.ignoreCase)
            c.leads = leadingLiterals(rule.pattern);
        if (!c.leads.empty())
            c.gap = compileLazyGap(rule.pattern, *c.re, patternOptions(rule.ignoreCase));
        if (!c.leads.empty() && !c.gap)
            c.atStart = compileAnchoredAt(rule.pattern, *c.re, patternOptions(rule.ignoreCase));
        for (const auto& [name, index] : c.re->NamedCapturingGroups())
            c.groups.emplace_back(index, name);
        std::sort(c.groups.begin(), c.groups.end());
        if (rule.continued) {
            c.continued = std::make_unique<RE2>(rule.continued->pattern, patternOptions(rule.ignoreCase));
            if (!c.continued->ok())
                throw RuleError(rule.file, rule.line, 0, rule.id,
                                "'continued' pattern does not compile: " + c.continued->error());
            fresh->byRule[&rule] = fresh->rules.size();
        }
        fresh->rules.push_back(std::move(c));
    }
#ifdef FAULTLINE_HAVE_HYPERSCAN
    std::array<std::map<std::string, unsigned>, kKinds> hsLiterals; // literal -> flags (caseless wins)
    std::array<std::map<std::string, unsigned>, kKinds> hsOthers;   // the same, non-series rules only
#endif
    std::array<std::vector<std::string>, kKinds> others;
    for (size_t i = 0; i < fresh->rules.size(); ++i) {
        const CompiledRule& c = fresh->rules[i];
        for (int k = 0; k < kKinds; ++k) {
            auto kind = static_cast<SourceKind>(k);
            const auto& src = c.rule->sources;
            if (!src.empty() && std::find(src.begin(), src.end(), kind) == src.end())
                continue;
            const bool seriesOnly = c.rule->series && c.rule->emitSymptom.empty();
            (seriesOnly ? fresh->seriesByKind[k] : fresh->byKind[k]).push_back(i);
            if (c.literals.empty()) {
                fresh->everyLine[k] = true;
                fresh->otherEveryLine[k] = fresh->otherEveryLine[k] || !seriesOnly;
            }
            for (const auto& lit : c.literals) {
#ifdef FAULTLINE_HAVE_HYPERSCAN
                hsLiterals[k][lit] |= c.rule->ignoreCase ? HS_FLAG_CASELESS : 0u;
                if (!seriesOnly)
                    hsOthers[k][lit] |= c.rule->ignoreCase ? HS_FLAG_CASELESS : 0u;
#endif
                std::string quoted = RE2::QuoteMeta(lit);
                fresh->literalList[k].push_back(c.rule->ignoreCase ? "(?i:" + quoted + ")" : quoted);
                if (!seriesOnly)
                    others[k].push_back(fresh->literalList[k].back());
            }
        }
    }
    auto alternationOf = [](std::vector<std::string>& lits) -> std::unique_ptr<RE2> {
        std::sort(lits.begin(), lits.end());
        lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
        std::string alternation;
        for (const auto& l : lits) {
            if (!alternation.empty())
                alternation += '|';
            alternation += l;
        }
        auto re = std::make_unique<RE2>(alternation, patternOptions(false));
        if (!re->ok())
            throw RuleError("", 0, 0, "", "literal pre-filter does not compile: " + re->error());
        return re;
    };
    // A sample check needs no pre-filters: each of the 17 rule files built them at load, 2.5 % of a
    // 2,000-rank analysis' instructions (callgrind).
    if (purpose == Purpose::SampleCheck) {
        d = std::move(fresh);
        return;
    }
    for (int k = 0; k < kKinds; ++k) {
        if (!others[k].empty() && !fresh->otherEveryLine[k])
            fresh->otherPrefilter[k] = alternationOf(others[k]);
        if (fresh->literalList[k].empty() || fresh->everyLine[k])
            continue;
        fresh->prefilter[k] = alternationOf(fresh->literalList[k]);
    }
#ifdef FAULTLINE_HAVE_HYPERSCAN
    if (hs_valid_platform() == HS_SUCCESS) {
        hs_scratch_t* proto = nullptr;
        // One literal database; the scratch prototype grows to fit each one.
        auto compile = [&proto](const std::map<std::string, unsigned>& lits) -> hs_database_t* {
            const bool plain = !lits.empty() && std::all_of(lits.begin(), lits.end(), [](const auto& l) {
                return !l.first.empty() && std::all_of(l.first.begin(), l.first.end(), [](char ch) {
                    return static_cast<unsigned char>(ch) < 0x80 && ch != '\n';
                });
            });
            if (!plain)
                return nullptr;
            std::vector<const char*> exprs;
            std::vector<size_t> lens;
            std::vector<unsigned> flags, ids;
            for (const auto& [lit, f] : lits) {
                exprs.push_back(lit.data());
                lens.push_back(lit.size());
                flags.push_back(f);
                ids.push_back(static_cast<unsigned>(ids.size()));
            }
            hs_database_t* db = nullptr;
            hs_compile_error_t* error = nullptr;
            if (hs_compile_lit_multi(exprs.data(), flags.data(), ids.data(), lens.data(),
                                     static_cast<unsigned>(exprs.size()), HS_MODE_BLOCK, nullptr, &db,
                                     &error) != HS_SUCCESS) {
                hs_free_compile_error(error); // RE2 serves this kind
                return nullptr;
            }
            if (hs_alloc_scratch(db, &proto) != HS_SUCCESS) {
                hs_free_database(db);
                return nullptr;
            }
            return db;
        };
        for (int k = 0; k < kKinds; ++k) {
            // Every literal of the kind's event rules, none dropped: the ids say which rule may match.
            if (!fresh->byKind[k].empty() && !hsOthers[k].empty()) {
                std::map<std::string, unsigned> ids, once;
                for (const auto& [lit, flags] : hsOthers[k]) {
                    ids.emplace(lit, static_cast<unsigned>(ids.size()));
                    once.emplace(lit, flags | HS_FLAG_SINGLEMATCH);
                }
                fresh->ruleLiteralDb[k].reset(compile(once));
                for (size_t index : fresh->byKind[k]) {
                    std::vector<unsigned> mine;
                    for (const auto& lit : fresh->rules[index].literals)
                        mine.push_back(ids.at(lit));
                    fresh->ruleLiterals[k].push_back(std::move(mine));
                }
                fresh->ruleLiteralCount[k] = ids.size();
            }
            if (fresh->prefilter[k])
                fresh->literalDb[k].reset(compile(withoutRedundantLiterals(hsLiterals[k])));
        }
        fresh->scratchPrototype.reset(proto);
        if (!proto) {
            for (auto& db : fresh->literalDb)
                db.reset();
            for (auto& db : fresh->ruleLiteralDb)
                db.reset();
        }
        fresh->hsGeneration = ++g_hsGeneration;
    }
#endif
    d = std::move(fresh);
}

size_t CompiledRules::nextCandidate(std::string_view data, size_t from, SourceKind kind) const
{
    const int k = static_cast<int>(kind);
    if (from >= data.size() || (d->byKind[k].empty() && d->seriesByKind[k].empty()))
        return std::string_view::npos;
    if (d->everyLine[k])
        return from;
#ifdef FAULTLINE_HAVE_HYPERSCAN
    if (d->literalDb[k])
        if (hs_scratch_t* scratch = d->threadScratch()) {
            size_t pos = from;
            while (pos < data.size()) {
                const size_t end = std::min(data.size(), pos + kHsChunk);
                FirstMatch m;
                const hs_error_t rc = hs_scan(d->literalDb[k].get(), data.data() + pos, static_cast<unsigned>(end - pos),
                                              0, scratch, stopAtFirst, &m);
                if (m.found) {
                    // Literals hold no newline: the match's last byte is on the candidate line.
                    const size_t last = pos + static_cast<size_t>(m.to) - 1;
                    const size_t nl = data.rfind('\n', last);
                    return std::max(nl == std::string_view::npos ? size_t(0) : nl + 1, from);
                }
                if (rc != HS_SUCCESS)
                    break; // RE2 answers below
                if (end == data.size())
                    return std::string_view::npos;
                pos = end - std::min<size_t>(end - pos, 4096);
                if (pos <= from)
                    pos = end;
            }
        }
#endif
    if (!d->prefilter[k]) // built for a sample check
        return from;
    const RE2& re = *d->prefilter[k];
    size_t pos = from;
    while (pos < data.size()) {
        size_t end = std::min(data.size(), pos + kChunk);
        re2::StringPiece text(data.data(), end);
        re2::StringPiece hit;
        if (re.Match(text, pos, end, RE2::UNANCHORED, &hit, 1)) {
            size_t at = static_cast<size_t>(hit.data() - data.data());
            size_t lineStart = data.rfind('\n', at == 0 ? 0 : at - 1);
            lineStart = (lineStart == std::string_view::npos || at == 0) ? 0 : lineStart + 1;
            return std::max(lineStart, from);
        }
        if (end == data.size())
            break;
        // Overlap so a literal straddling the chunk border is still found.
        pos = end - std::min<size_t>(end - pos, 4096);
        if (pos <= from)
            pos = end;
    }
    return std::string_view::npos;
}

void CompiledRules::match(std::string_view line, SourceKind kind, std::vector<ExtractMatch>& out) const
{
    const int k = static_cast<int>(kind);
#ifdef FAULTLINE_HAVE_HYPERSCAN
    if (d->ruleLiteralDb[k])
        if (hs_scratch_t* scratch = d->threadScratch()) {
            const std::string_view head = line.substr(0, std::min(line.size(), kMaxMatchedLineBytes));
            thread_local std::vector<char> hits;
            hits.assign(d->ruleLiteralCount[k], 0);
            if (hs_scan(d->ruleLiteralDb[k].get(), head.data(), static_cast<unsigned>(head.size()), 0, scratch,
                        markLiteral, &hits) == HS_SUCCESS) {
                matchAmong(d->byKind[k], line, out, &d->ruleLiterals[k], &hits);
                return;
            }
        }
#endif
    matchAmong(d->byKind[k], line, out);
}

void CompiledRules::matchSeries(std::string_view line, SourceKind kind, std::vector<ExtractMatch>& out) const
{
    matchAmong(d->seriesByKind[static_cast<int>(kind)], line, out);
}

int CompiledRules::seriesCandidate(std::string_view line, SourceKind kind) const
{
    for (size_t index : d->seriesByKind[static_cast<int>(kind)]) {
        const CompiledRule& c = d->rules[index];
        if (c.literals.empty())
            return int(index);
        for (const auto& lit : c.literals)
            if (c.rule->ignoreCase ? containsIgnoreCase(line, lit) : findLiteral(line, lit) != std::string_view::npos)
                return int(index);
    }
    return -1;
}

bool CompiledRules::hasSeries(SourceKind kind) const
{
    return !d->seriesByKind[static_cast<int>(kind)].empty();
}

bool CompiledRules::otherCandidate(std::string_view line, SourceKind kind) const
{
    const int k = static_cast<int>(kind);
    if (d->otherEveryLine[k])
        return true;
#ifdef FAULTLINE_HAVE_HYPERSCAN
    // A series line (one per training step) asks this of every line it is; RE2 over those lines was half of
    // the deep bundle's scan. The kind's rule-literal database holds exactly the literals asked about here, so
    // its first match answers (a database of its own for this cost 1/3 of the rules' compile time).
    if (d->ruleLiteralDb[k] && line.size() < kHsChunk)
        if (hs_scratch_t* scratch = d->threadScratch()) {
            FirstMatch m;
            const hs_error_t rc = hs_scan(d->ruleLiteralDb[k].get(), line.data(), static_cast<unsigned>(line.size()), 0,
                                          scratch, stopAtFirst, &m);
            if (m.found)
                return true;
            if (rc == HS_SUCCESS)
                return false;
            // any other error: RE2 answers below
        }
#endif
    return d->otherPrefilter[k] && RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), *d->otherPrefilter[k]);
}

void CompiledRules::matchAmong(const std::vector<size_t>& indices, std::string_view line, std::vector<ExtractMatch>& out,
                               const std::vector<std::vector<unsigned>>* ruleLiterals,
                               const std::vector<char>* hits) const
{
    if (line.size() > kMaxMatchedLineBytes)
        line = line.substr(0, kMaxMatchedLineBytes);
    std::vector<re2::StringPiece> subs;
    for (size_t j = 0; j < indices.size(); ++j) {
        const CompiledRule& c = d->rules[indices[j]];
        if (hits && !c.literals.empty()) {
            const auto& mine = (*ruleLiterals)[j];
            if (std::none_of(mine.begin(), mine.end(), [hits](unsigned id) { return (*hits)[id] != 0; }))
                continue;
        } else if (!c.literals.empty()) {
            bool any = false;
            for (const auto& lit : c.literals) {
                if (c.rule->ignoreCase ? containsIgnoreCase(line, lit) : findLiteral(line, lit) != std::string_view::npos) {
                    any = true;
                    break;
                }
            }
            if (!any)
                continue;
        }
        const int n = c.re->NumberOfCapturingGroups() + 1;
        subs.assign(static_cast<size_t>(n), re2::StringPiece());
        const bool hit = c.leads.empty()
                             ? c.re->Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED,
                                           subs.data(), n)
                             : matchFromLead(c, line, subs.data(), n);
        if (!hit)
            continue;
        if (c.exclude && RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), *c.exclude))
            continue;
        ExtractMatch m;
        m.rule = c.rule;
        for (const auto& [idx, name] : c.groups) {
            const auto& sp = subs[static_cast<size_t>(idx)];
            if (sp.data())
                m.groups.emplace_back(name, std::string(sp.data(), sp.size()));
        }
        out.push_back(std::move(m));
    }
}

std::vector<std::string> CompiledRules::literals(SourceKind kind) const
{
    std::vector<std::string> out;
    for (size_t index : d->byKind[static_cast<int>(kind)])
        for (const auto& l : d->rules[index].literals)
            out.push_back(l);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<std::string> CompiledRules::patterns(SourceKind kind) const
{
    std::vector<std::string> out;
    for (size_t index : d->byKind[static_cast<int>(kind)])
        out.push_back(d->rules[index].rule->pattern);
    return out;
}

bool CompiledRules::readContinuation(const Rule& rule, std::string_view line,
                                     std::vector<std::pair<std::string, std::string>>& groups) const
{
    auto it = d->byRule.find(&rule);
    if (it == d->byRule.end())
        return false;
    const RE2& re = *d->rules[it->second].continued;
    line = line.substr(0, std::min(line.size(), kMaxMatchedLineBytes));
    const int n = re.NumberOfCapturingGroups() + 1;
    std::vector<re2::StringPiece> subs(static_cast<size_t>(n));
    if (!re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED, subs.data(), n))
        return false;
    for (const auto& [name, index] : re.NamedCapturingGroups()) {
        const auto& sp = subs[static_cast<size_t>(index)];
        const bool have = std::any_of(groups.begin(), groups.end(), [&](const auto& g) { return g.first == name; });
        if (sp.data() && !have)
            groups.emplace_back(name, std::string(sp.data(), sp.size()));
    }
    return true;
}

bool CompiledRules::startsRecord(const Rule& rule, std::string_view line) const
{
    auto it = d->byRule.find(&rule);
    if (it == d->byRule.end())
        return false;
    line = line.substr(0, std::min(line.size(), kMaxMatchedLineBytes));
    return RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), *d->rules[it->second].re);
}

bool CompiledRules::fieldMatches(const std::string& pattern, std::string_view value) const
{
    RE2* re = nullptr;
    {
        std::lock_guard lock(d->fieldMutex);
        auto& slot = d->fieldPatterns[pattern];
        if (!slot)
            slot = std::make_unique<RE2>(pattern, patternOptions(false));
        re = slot.get();
    }
    return re->ok() && RE2::FullMatch(re2::StringPiece(value.data(), value.size()), *re);
}

std::vector<std::string> prefilterLiterals(const Rule& rule)
{
    if (!rule.literals.empty())
        return rule.literals;
    std::string lit = requiredLiteral(rule.pattern);
    if (lit.size() >= 3)
        return {lit};
    return {};
}

namespace {
// The index of the ']' that closes the class opened at `open` (p.size() if none): a ']' right
// after "[" or "[^" is a member, and escaped characters are skipped.
size_t classEnd(std::string_view p, size_t open)
{
    size_t i = open + 1;
    if (i < p.size() && p[i] == '^')
        ++i;
    if (i < p.size() && p[i] == ']')
        ++i;
    while (i < p.size() && p[i] != ']') {
        if (p[i] == '\\')
            ++i;
        ++i;
    }
    return std::min(i, p.size());
}

// leadingLiterals' walk: the texts a match can have begun with so far; an open one still grows.
struct LeadPrefix {
    std::string text;
    bool open = true;
};
using LeadPrefixes = std::vector<LeadPrefix>;
constexpr size_t kMaxLeads = 8;
constexpr size_t kCommonLead = 4;

// The index of the ')' that closes the group opened at `open`, p.size() if none.
size_t groupEnd(std::string_view p, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < p.size(); ++i) {
        if (p[i] == '\\')
            ++i;
        else if (p[i] == '[')
            i = classEnd(p, i);
        else if (p[i] == '(')
            ++depth;
        else if (p[i] == ')' && --depth == 0)
            return i;
    }
    return p.size();
}

void closeAll(LeadPrefixes& s)
{
    for (auto& x : s)
        x.open = false;
}

bool allClosed(const LeadPrefixes& s)
{
    return std::none_of(s.begin(), s.end(), [](const LeadPrefix& x) { return x.open; });
}

std::optional<LeadPrefixes> leadsOfAlternation(std::string_view p);

// The open prefixes of `s`, each continued by each of `g`'s; the closed ones as they were.
std::optional<LeadPrefixes> followedBy(const LeadPrefixes& s, const LeadPrefixes& g)
{
    LeadPrefixes out;
    for (const auto& x : s) {
        if (!x.open) {
            out.push_back(x);
            continue;
        }
        for (const auto& y : g)
            out.push_back({x.text + y.text, y.open});
    }
    if (out.size() > kMaxLeads)
        return std::nullopt;
    return out;
}

// One alternative, item by item, until no prefix is open: literal characters extend the open prefixes, a
// group continues them with its own (and, when optional, also leaves them as they were), anything else
// (a class, ".", an assertion, a repeated item) ends them. nullopt: not a shape this walk knows.
std::optional<LeadPrefixes> leadsOfSequence(std::string_view p)
{
    auto plain = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr(" _-:/=,'\"<>@!%&~#;`", c) != nullptr;
    };
    LeadPrefixes s{{"", true}};
    size_t i = 0;
    while (i < p.size() && !allClosed(s)) {
        const char c = p[i];
        if (c == '(') {
            const size_t close = groupEnd(p, i);
            if (close >= p.size())
                return std::nullopt;
            size_t body = i + 1;
            if (p.substr(body, 2) == "?:")
                body += 2;
            else if (p.substr(body, 3) == "?P<" && p.find('>', body) < close)
                body = p.find('>', body) + 1;
            else if (body < p.size() && p[body] == '?')
                return std::nullopt; // inline flags change what the literals mean
            const auto g = leadsOfAlternation(p.substr(body, close - body));
            if (!g)
                return std::nullopt;
            const char q = close + 1 < p.size() ? p[close + 1] : '\0';
            if (q == '*' || q == '{') {
                closeAll(s);
            } else if (q == '?') {
                auto taken = followedBy(s, *g);
                if (!taken)
                    return std::nullopt;
                for (const auto& x : s) // the group left out: the prefixes go on as they were
                    taken->push_back(x);
                if (taken->size() > kMaxLeads)
                    return std::nullopt;
                s = std::move(*taken);
                i = close + 2 + (close + 2 < p.size() && p[close + 2] == '?'); // "??": lazy, the same texts
                continue;
            } else {
                auto taken = followedBy(s, *g);
                if (!taken)
                    return std::nullopt;
                s = std::move(*taken);
                if (q == '+')
                    closeAll(s);
            }
            i = close + 1;
            continue;
        }
        char literal = c;
        size_t next = i + 1;
        if (c == '\\' && i + 1 < p.size() && std::ispunct(static_cast<unsigned char>(p[i + 1]))) {
            literal = p[i + 1];
            next = i + 2;
        } else if (c == '\\' && i + 1 < p.size() && p[i + 1] == 'Q') {
            return std::nullopt; // quoted text: its characters are not what they look like
        } else if (c == '\0' || !plain(c)) {
            closeAll(s);
            break;
        }
        const char q = next < p.size() ? p[next] : '\0';
        if (q == '?' || q == '*' || q == '{') {
            closeAll(s);
            break;
        }
        for (auto& x : s)
            if (x.open)
                x.text += literal;
        if (q == '+')
            closeAll(s);
        i = next;
    }
    return s;
}

std::optional<LeadPrefixes> leadsOfAlternation(std::string_view p)
{
    LeadPrefixes all;
    int depth = 0;
    size_t from = 0;
    for (size_t i = 0; i <= p.size(); ++i) {
        if (i < p.size() && p[i] == '\\') {
            if (++i >= p.size())
                return std::nullopt; // a pattern ending in a lone backslash
            continue;
        }
        if (i < p.size() && p[i] == '[') {
            i = classEnd(p, i);
            if (i >= p.size())
                return std::nullopt; // a class never closed
            continue;
        }
        if (i < p.size() && p[i] == '(')
            ++depth;
        else if (i < p.size() && p[i] == ')')
            --depth;
        if (i == p.size() || (p[i] == '|' && depth == 0)) {
            const auto one = leadsOfSequence(p.substr(from, i - from));
            if (!one)
                return std::nullopt;
            all.insert(all.end(), one->begin(), one->end());
            if (all.size() > kMaxLeads)
                return std::nullopt;
            from = i + 1;
        }
    }
    return all;
}

// Inline flags anywhere ("(?i)", "(?s:"), or quoted text: what the walk reads is then not what RE2 reads (RE2
// even lets a repetition after "(?i)" apply to the item before it: ":+(?i)?" matches "").
bool flagsOrQuotes(std::string_view p)
{
    for (size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '\\') {
            if (i + 1 < p.size() && p[i + 1] == 'Q')
                return true;
            ++i;
        } else if (p[i] == '[') {
            i = classEnd(p, i);
        } else if (p[i] == '(' && i + 1 < p.size() && p[i + 1] == '?' && p.substr(i + 2, 1) != ":" &&
                   p.substr(i + 2, 2) != "P<") {
            return true;
        }
    }
    return false;
}

} // namespace

std::vector<std::string> leadingLiterals(std::string_view p)
{
    if (flagsOrQuotes(p))
        return {};
    const auto prefixes = leadsOfAlternation(p);
    if (!prefixes || prefixes->empty())
        return {};
    std::vector<std::string> leads;
    for (const auto& x : *prefixes) {
        if (x.text.empty())
            return {}; // some match may start with anything
        leads.push_back(x.text);
    }
    // A lead another one starts with adds nothing: the shorter is found wherever the longer is.
    std::sort(leads.begin(), leads.end());
    leads.erase(std::unique(leads.begin(), leads.end()), leads.end());
    std::vector<std::string> kept;
    for (const auto& l : leads)
        if (kept.empty() || l.compare(0, kept.back().size(), kept.back()) != 0)
            kept.push_back(l);
    // Their common start, when long enough to be rare, is one text to look for instead of several.
    size_t common = kept.front().size();
    for (const auto& l : kept)
        common = std::min(common, size_t(std::mismatch(l.begin(), l.begin() + std::ptrdiff_t(std::min(common, l.size())),
                                                       kept.front().begin()).first - l.begin()));
    if (kept.size() > 1 && common >= kCommonLead)
        return {kept.front().substr(0, common)};
    return kept;
}

std::optional<std::pair<std::string, std::string>> splitAtLazyGap(std::string_view p)
{
    // Quoted text would make its ".*?" literal; flags ("(?i)", "(?s:...)") change what the pieces mean alone.
    if (flagsOrQuotes(p))
        return std::nullopt;
    int depth = 0;
    size_t gap = std::string_view::npos;
    for (size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\') {
            ++i;
        } else if (c == '[') {
            i = classEnd(p, i);
        } else if (c == '(') {
            ++depth;
        } else if (c == ')') {
            depth = std::max(0, depth - 1);
        } else if (c == '|' && depth == 0) {
            return std::nullopt; // "A.*?B|C" is not A then B
        } else if (c == '.' && depth == 0 && gap == std::string_view::npos && i > 0 && p.substr(i, 3) == ".*?" &&
                   (i + 3 == p.size() || std::string_view("?*+{").find(p[i + 3]) == std::string_view::npos)) {
            gap = i;
            i += 2;
        }
    }
    if (gap == std::string_view::npos)
        return std::nullopt;
    return std::make_pair(std::string(p.substr(0, gap)), std::string(p.substr(gap + 3)));
}

std::string requiredLiteral(std::string_view p)
{
    // Walk the pattern at nesting depth 0, collecting runs of characters that
    // must appear verbatim. Anything we do not understand ends the run; a
    // top-level '|' means no single literal is required.
    std::string best, cur;
    int depth = 0;
    auto flush = [&] {
        if (cur.size() > best.size())
            best = cur;
        cur.clear();
    };
    for (size_t i = 0; i < p.size(); ++i) {
        char c = p[i];
        auto optionalNext = [&] {
            return i + 1 < p.size() && (p[i + 1] == '?' || p[i + 1] == '*' || p[i + 1] == '{');
        };
        if (c == '\\' && i + 1 < p.size()) {
            char e = p[i + 1];
            bool literal = !std::isalnum(static_cast<unsigned char>(e));
            ++i;
            if (depth == 0 && literal && !optionalNext())
                cur += e;
            else
                flush();
            continue;
        }
        if (c == '(') {
            flush();
            ++depth;
            continue;
        }
        if (c == ')') {
            flush();
            depth = std::max(0, depth - 1);
            continue;
        }
        if (c == '[') {
            flush();
            i = classEnd(p, i);
            continue;
        }
        if (depth > 0)
            continue;
        if (c == '|')
            return "";
        if (c == '.' || c == '^' || c == '$' || c == '+') {
            flush();
            continue;
        }
        if (c == '?' || c == '*' || c == '{') {
            // the previous char was optional: drop it from the run
            if (!cur.empty())
                cur.pop_back();
            flush();
            if (c == '{')
                while (i < p.size() && p[i] != '}')
                    ++i;
            continue;
        }
        if (optionalNext()) {
            flush();
            continue;
        }
        cur += c;
    }
    flush();
    return best;
}

} // namespace fl
