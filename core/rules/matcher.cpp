#include "rules/matcher.h"

#include "rules/ruleset.h"

#include <re2/re2.h>

#include <algorithm>
#include <array>
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

} // namespace

struct CompiledRule {
    const Rule* rule = nullptr;
    std::unique_ptr<RE2> re;
    std::unique_ptr<RE2> exclude;
    std::vector<std::string> literals;
    std::vector<std::pair<int, std::string>> groups; // capture index -> name
};

struct CompiledRules::Impl {
    std::vector<CompiledRule> rules;
    std::array<std::vector<size_t>, kKinds> byKind;    // indices into rules
    std::array<std::unique_ptr<RE2>, kKinds> prefilter;
    std::array<bool, kKinds> everyLine{};              // some rule has no literal
    std::array<std::vector<std::string>, kKinds> literalList;
    mutable std::mutex fieldMutex;
    mutable std::unordered_map<std::string, std::unique_ptr<RE2>> fieldPatterns;
};

CompiledRules::CompiledRules() : d(std::make_unique<Impl>()) {}
CompiledRules::~CompiledRules() = default;
CompiledRules::CompiledRules(CompiledRules&&) noexcept = default;
CompiledRules& CompiledRules::operator=(CompiledRules&&) noexcept = default;

void CompiledRules::build(const std::vector<Rule>& rules)
{
    auto fresh = std::make_unique<Impl>();
    for (const Rule& rule : rules) {
        if (rule.phase != Phase::Extract)
            continue;
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
        for (const auto& [name, index] : c.re->NamedCapturingGroups())
            c.groups.emplace_back(index, name);
        std::sort(c.groups.begin(), c.groups.end());
        fresh->rules.push_back(std::move(c));
    }
    for (size_t i = 0; i < fresh->rules.size(); ++i) {
        const CompiledRule& c = fresh->rules[i];
        for (int k = 0; k < kKinds; ++k) {
            auto kind = static_cast<SourceKind>(k);
            const auto& src = c.rule->sources;
            if (!src.empty() && std::find(src.begin(), src.end(), kind) == src.end())
                continue;
            fresh->byKind[k].push_back(i);
            if (c.literals.empty())
                fresh->everyLine[k] = true;
            for (const auto& lit : c.literals) {
                std::string quoted = RE2::QuoteMeta(lit);
                fresh->literalList[k].push_back(c.rule->ignoreCase ? "(?i:" + quoted + ")" : quoted);
            }
        }
    }
    for (int k = 0; k < kKinds; ++k) {
        auto& lits = fresh->literalList[k];
        std::sort(lits.begin(), lits.end());
        lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
        if (lits.empty() || fresh->everyLine[k])
            continue;
        std::string alternation;
        for (const auto& l : lits) {
            if (!alternation.empty())
                alternation += '|';
            alternation += l;
        }
        fresh->prefilter[k] = std::make_unique<RE2>(alternation, patternOptions(false));
        if (!fresh->prefilter[k]->ok())
            throw RuleError("", 0, 0, "", "literal pre-filter does not compile: " + fresh->prefilter[k]->error());
    }
    d = std::move(fresh);
}

size_t CompiledRules::nextCandidate(std::string_view data, size_t from, SourceKind kind) const
{
    const int k = static_cast<int>(kind);
    if (from >= data.size() || d->byKind[k].empty())
        return std::string_view::npos;
    if (d->everyLine[k])
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
    if (line.size() > kMaxMatchedLineBytes)
        line = line.substr(0, kMaxMatchedLineBytes);
    const int k = static_cast<int>(kind);
    std::vector<re2::StringPiece> subs;
    for (size_t index : d->byKind[k]) {
        const CompiledRule& c = d->rules[index];
        if (!c.literals.empty()) {
            bool any = false;
            for (const auto& lit : c.literals) {
                if (c.rule->ignoreCase ? containsIgnoreCase(line, lit) : line.find(lit) != std::string_view::npos) {
                    any = true;
                    break;
                }
            }
            if (!any)
                continue;
        }
        const int n = c.re->NumberOfCapturingGroups() + 1;
        subs.assign(static_cast<size_t>(n), re2::StringPiece());
        if (!c.re->Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED, subs.data(), n))
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
            // skip the class
            ++i;
            if (i < p.size() && p[i] == '^')
                ++i;
            if (i < p.size() && p[i] == ']')
                ++i;
            while (i < p.size() && p[i] != ']') {
                if (p[i] == '\\')
                    ++i;
                ++i;
            }
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
