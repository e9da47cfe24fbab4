// The literal pre-filter (CompiledRules::nextCandidate: Hyperscan where built
// in, else RE2) must hand the scan exactly the lines that contain one of the
// rules' literals for that source kind: a line it skips is evidence lost. The
// reference here is a plain substring search, case-folded for ignore_case rules.
#include "bundle/bundle.h"
#include "bundle/sniff.h"
#include "rules/matcher.h"
#include "rules/rule.h"
#include "rules/ruleset.h"

#include "synth/synth.h"

#include <QtTest>

#include <re2/re2.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <cctype>
#include <string>
#include <vector>

namespace {

// Bounds for healthyLinesAreRarelyCandidates: the shipped rules stay far below both (the figures are printed).
constexpr double kHealthyCandidateShare = 0.10; // of a kind's healthy lines, for all rules together
constexpr double kHealthyRuleShare = 0.05;      // of a kind's healthy lines, for one rule's literals

struct Literal {
    std::string text;
    bool ignoreCase = false;
};

bool containsLiteral(std::string_view line, const Literal& lit)
{
    if (!lit.ignoreCase)
        return line.find(lit.text) != std::string_view::npos;
    return std::search(line.begin(), line.end(), lit.text.begin(), lit.text.end(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           }) != line.end();
}

std::vector<size_t> lineStarts(std::string_view data)
{
    std::vector<size_t> starts;
    for (size_t pos = 0; pos < data.size();) {
        starts.push_back(pos);
        const size_t eol = data.find('\n', pos);
        if (eol == std::string_view::npos)
            break;
        pos = eol + 1;
    }
    return starts;
}

// Flips the case of every other letter, so case-folding is exercised.
std::string mixCase(std::string s)
{
    for (size_t i = 0; i < s.size(); i += 2)
        s[i] = std::isupper(static_cast<unsigned char>(s[i])) ? char(std::tolower(static_cast<unsigned char>(s[i])))
                                                              : char(std::toupper(static_cast<unsigned char>(s[i])));
    return s;
}

// Every shipped extract rule's sample lines, as written and with their case mixed, and its benign lines.
std::vector<std::string> sampleLines(const fl::RuleSet& rules)
{
    std::vector<std::string> lines;
    for (const fl::Rule& r : rules.rules())
        if (r.phase == fl::Phase::Extract) {
            for (const auto& s : r.samples) {
                lines.push_back(s.line);
                lines.push_back(mixCase(s.line));
            }
            for (const auto& b : r.benign)
                lines.push_back(b);
        }
    return lines;
}

// The extract rules of `kind` compiled on their own, as a reference for the matcher's answers; series-only
// rules (a `series`, no `emit`) only when `withSeries`.
struct Compiled {
    const fl::Rule* rule;
    std::unique_ptr<RE2> pattern, exclude;
};
std::vector<Compiled> extractRulesOf(const fl::RuleSet& rules, fl::SourceKind kind, bool withSeries)
{
    std::vector<Compiled> all;
    for (const fl::Rule& r : rules.rules()) {
        if (r.phase != fl::Phase::Extract || (!withSeries && r.series && r.emitSymptom.empty()))
            continue;
        if (!r.sources.empty() && std::find(r.sources.begin(), r.sources.end(), kind) == r.sources.end())
            continue;
        RE2::Options o;
        o.set_case_sensitive(!r.ignoreCase);
        o.set_log_errors(false);
        auto exclude = r.exclude.empty() ? nullptr : std::make_unique<RE2>(r.exclude, o);
        all.push_back({&r, std::make_unique<RE2>(r.pattern, o), std::move(exclude)});
    }
    return all;
}

} // namespace

class TestPrefilter : public QObject {
    Q_OBJECT
private slots:
    void candidatesAreExactlyTheLinesWithALiteral();
    void otherCandidateIsExactlyANonSeriesLiteral();
    void literalsHoldingOthersStillFindTheirLines();
    void matchFindsExactlyTheRulesWhosePatternMatches();
    void leadingLiteralIsWhatEveryMatchStartsWith();
    void leadingLiteralsAreWhatEveryMatchStartsWithOneOf();
    void matchGivesTheGroupsOfAnUnanchoredRun();
    void sampleCheckBuildMatchesAsTheScanBuild();
    void everyExtractRuleHasALiteralOrSaysWhyNot();
    void healthyLinesAreRarelyCandidates();
};

void TestPrefilter::candidatesAreExactlyTheLinesWithALiteral()
{
    fl::RuleSet rules;
    rules.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    rules.compile();

    // Every shipped sample and benign line, as written and with its case mixed,
    // between lines no rule looks for; the last line has no newline.
    std::string data = "plain start line\n";
    for (const fl::Rule& r : rules.rules())
        if (r.phase == fl::Phase::Extract) {
            for (const auto& s : r.samples)
                data += s.line + "\n" + mixCase(s.line) + "\nfiller 0123456789\n";
            for (const auto& b : r.benign)
                data += b + "\n";
        }
    data += "no newline at the end";

    int kindsChecked = 0;
    for (fl::SourceKind kind : {fl::SourceKind::AppLog, fl::SourceKind::SysLog, fl::SourceKind::FabricManager,
                                fl::SourceKind::Scheduler, fl::SourceKind::GpuSnapshot, fl::SourceKind::HostMap}) {
        std::vector<Literal> literals;
        bool everyLine = false;
        for (const fl::Rule& r : rules.rules()) {
            if (r.phase != fl::Phase::Extract)
                continue;
            if (!r.sources.empty() && std::find(r.sources.begin(), r.sources.end(), kind) == r.sources.end())
                continue;
            const auto lits = fl::prefilterLiterals(r);
            everyLine = everyLine || lits.empty();
            for (const auto& l : lits)
                literals.push_back({l, r.ignoreCase});
        }
        if (everyLine || literals.empty())
            continue;
        ++kindsChecked;
        std::vector<size_t> expected;
        for (size_t start : lineStarts(data)) {
            const size_t eol = std::min(data.find('\n', start), data.size());
            const std::string_view line(data.data() + start, eol - start);
            if (std::any_of(literals.begin(), literals.end(), [&](const Literal& l) { return containsLiteral(line, l); }))
                expected.push_back(start);
        }
        std::vector<size_t> found;
        for (size_t pos = 0;;) {
            const size_t c = rules.compiled().nextCandidate(data, pos, kind);
            if (c == std::string_view::npos)
                break;
            found.push_back(c);
            const size_t eol = data.find('\n', c);
            if (eol == std::string::npos)
                break;
            pos = eol + 1;
        }
        QVERIFY2(!expected.empty(), qPrintable(QString("kind %1 has literals but no line holds one").arg(int(kind))));
        QCOMPARE(found, expected);
    }
    QVERIFY(kindsChecked >= 3);
}

// A series line (one per training step) goes on to the event rules only when
// it also holds a literal of a rule that is not series-only
// (CompiledRules::otherCandidate, Hyperscan where built in, else RE2).
void TestPrefilter::otherCandidateIsExactlyANonSeriesLiteral()
{
    fl::RuleSet rules;
    rules.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    rules.compile();
    std::vector<std::string> lines = sampleLines(rules);
    lines.push_back("filler 0123456789");
    int kindsChecked = 0;
    for (fl::SourceKind kind : {fl::SourceKind::AppLog, fl::SourceKind::SysLog, fl::SourceKind::FabricManager,
                                fl::SourceKind::Scheduler, fl::SourceKind::GpuSnapshot, fl::SourceKind::HostMap}) {
        std::vector<Literal> literals;
        bool everyLine = false, hasSeries = false;
        for (const fl::Rule& r : rules.rules()) {
            if (r.phase != fl::Phase::Extract)
                continue;
            if (!r.sources.empty() && std::find(r.sources.begin(), r.sources.end(), kind) == r.sources.end())
                continue;
            if (r.series && r.emitSymptom.empty()) {
                hasSeries = true;
                continue;
            }
            const auto lits = fl::prefilterLiterals(r);
            everyLine = everyLine || lits.empty();
            for (const auto& l : lits)
                literals.push_back({l, r.ignoreCase});
        }
        if (!hasSeries || everyLine || literals.empty())
            continue;
        ++kindsChecked;
        int yes = 0, no = 0;
        for (const std::string& line : lines) {
            const bool expected =
                std::any_of(literals.begin(), literals.end(), [&](const Literal& l) { return containsLiteral(line, l); });
            QCOMPARE(rules.compiled().otherCandidate(line, kind), expected);
            ++(expected ? yes : no);
        }
        QVERIFY(yes > 0 && no > 0);
    }
    QVERIFY(kindsChecked >= 1);
}

// CompiledRules::match asks each rule's RE2 only when the line holds one of
// that rule's literals, learnt for all rules at once (one Hyperscan pass where
// built in, else a search per literal). The rules it reports must be exactly
// those whose pattern matches the line and whose exclude does not, found here
// by running every pattern on every line.
void TestPrefilter::matchFindsExactlyTheRulesWhosePatternMatches()
{
    fl::RuleSet rules;
    rules.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    rules.compile();
    std::vector<std::string> lines = sampleLines(rules);
    int matched = 0;
    for (fl::SourceKind kind : {fl::SourceKind::AppLog, fl::SourceKind::SysLog, fl::SourceKind::FabricManager,
                                fl::SourceKind::Scheduler, fl::SourceKind::GpuSnapshot, fl::SourceKind::HostMap}) {
        const std::vector<Compiled> all = extractRulesOf(rules, kind, false);
        for (const std::string& line : lines) {
            std::vector<std::string> expected, got;
            for (const Compiled& c : all)
                if (RE2::PartialMatch(line, *c.pattern) && !(c.exclude && RE2::PartialMatch(line, *c.exclude)))
                    expected.push_back(c.rule->id);
            std::vector<fl::ExtractMatch> out;
            rules.compiled().match(line, kind, out);
            for (const auto& m : out)
                got.push_back(m.rule->id);
            std::sort(expected.begin(), expected.end());
            std::sort(got.begin(), got.end());
            if (got != expected)
                QFAIL(qPrintable(QString::fromStdString(line + " [" + std::string(fl::toString(kind)) + "]")));
            matched += int(got.size());
        }
    }
    QVERIFY2(matched > 400, qPrintable(QString::number(matched)));
}

void TestPrefilter::leadingLiteralIsWhatEveryMatchStartsWith()
{
    using Leads = std::vector<std::string>;
    const std::vector<std::pair<std::string, Leads>> cases = {
        {R"(NCCL WARN Cuda failure)", {"NCCL WARN Cuda failure"}},
        {R"(\[Rank (?P<rank>\d+)\] \(after)", {"[Rank "}},
        {R"(abc?d)", {"ab"}},         // c is optional
        {R"(ab*c)", {"a"}},
        {R"(ab{2}c)", {"a"}},
        {R"(ab+c)", {"ab"}},          // at least one b, then maybe more
        {R"([ab]cd)", {}},
        {R"(\bword)", {}},
        {R"(a\.b)", {"a.b"}},
        {R"(a\.?b)", {"a"}},
        {R"(.*abc)", {}},
        {R"(x[|]y)", {"x"}},          // a '|' in a class is no alternative
        {R"(x\|y)", {"x|y"}},
        {"caf\xc3\xa9 ok", {"caf"}},  // bytes above 0x7f end the run
        {R"(:+(?i)?x)", {}},          // RE2 lets the '?' after a flag group repeat ":+"
        {R"(ab[cd)", {}},             // malformed: a class never closed
        {"ab\\", {}},                // malformed: a lone backslash at the end
    };
    for (const auto& [pattern, lead] : cases)
        QVERIFY2(fl::leadingLiterals(pattern) == lead, qPrintable(QString::fromStdString(pattern)));
    // The shipped rules: most extract patterns open with plain text (docs/performance.md cites the count).
    fl::RuleSet rules;
    rules.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    int extract = 0, led = 0;
    for (const fl::Rule& r : rules.rules())
        if (r.phase == fl::Phase::Extract) {
            ++extract;
            led += !r.ignoreCase && !fl::leadingLiterals(r.pattern).empty();
        }
    qInfo("%d of %d extract patterns have leading literals", led, extract);
    QVERIFY2(led > extract / 2, qPrintable(QStringLiteral("%1 of %2").arg(led).arg(extract)));
}

// The set of texts a match starts with one of: what the single leading literal gives and more, checked
// by hand on shapes and then against RE2 at every place of generated texts.
void TestPrefilter::leadingLiteralsAreWhatEveryMatchStartsWithOneOf()
{
    using Leads = std::vector<std::string>;
    const std::vector<std::pair<std::string, Leads>> cases = {
        {R"(iteration\s+(?P<step>\d+)/)", {"iteration"}},
        {R"(abc|xyz)", {"abc", "xyz"}},
        {R"(a(b|c)d)", {"abd", "acd"}},
        {R"(elapsed \((ms|s)\): )", {"elapsed ("}}, // a common start of 4 bytes or more is the one lead
        {R"(a(b|c)|d)", {"ab", "ac", "d"}},
        {R"((?:x )?abc)", {"abc", "x abc"}},
        {R"((?:x )??abc)", {"abc", "x abc"}},
        {R"(\| (?:lm )?loss: (?P<v>\d))", {"| lm loss: ", "| loss: "}},
        {R"((?:\[PG (?:ID )?(?P<pg>\d+)[^\]]*\].*?)?(?:work sequence id|NCCL work|watchdog at work): (?P<s>\d+))",
         {"NCCL work: ", "[PG ", "watchdog at work: ", "work sequence id: "}},
        {R"(ab(?:cd)+e)", {"abcd"}},
        {R"(ab(?:cd)*e)", {"ab"}},
        {R"(ab|abc)", {"ab"}},           // "abc" is found wherever "ab" is
        {R"((?:x)?\d)", {}},              // a match may start with a digit
        {R"(a?b)", {}},
        {R"((?i)abc)", {}},
        {R"((?i:a)bc)", {}},
        {R"(^abc)", {}},
        {R"(\Qa|b\E)", {}},
        {R"(a(b)", {}},                  // unbalanced: not a shape this walk knows
        {R"((?:a|b|c|d|e|f|g|h|i)x)", {}}, // more than 8
    };
    for (const auto& [pattern, leads] : cases)
        QVERIFY2(fl::leadingLiterals(pattern) == leads, qPrintable(QString::fromStdString(pattern)));
    // Against RE2: wherever a pattern matches, the text there starts with one of its leads.
    const std::vector<std::string> patterns = {R"((?:x )?a(b|c)d)", R"(\| (?:lm )?l: (\d))", R"((?:ab|a)(?:c|d)?e)",
                                               R"((?:\[P (\d)\].*?)?(?:w x|n w): (\d))"};
    const std::vector<std::string> tokens = {"a", "b", "c", "d", "e", "x ", "| ", "lm ", "l: ", "1", "[P 1]",
                                             "w x", "n w", ": ", " ", "abd", "x acd", "| lm l: 3", "| l: 4", "ae",
                                             "abe", "ace", "[P 1] n w: 2", "w x: 5"};
    uint32_t seed = 5;
    int matched = 0;
    for (const auto& pattern : patterns) {
        const RE2 re(pattern);
        const auto leads = fl::leadingLiterals(pattern);
        QVERIFY2(!leads.empty(), pattern.c_str());
        for (int i = 0; i < 3000; ++i) {
            std::string text;
            seed = seed * 1103515245u + 12345u;
            for (uint32_t k = (seed >> 16) % 10; k > 0; --k) {
                seed = seed * 1103515245u + 12345u;
                text += tokens[(seed >> 16) % tokens.size()];
            }
            for (size_t at = 0; at < text.size(); ++at) {
                if (!re.Match(text, at, text.size(), RE2::ANCHOR_START, nullptr, 0))
                    continue;
                ++matched;
                const bool led = std::any_of(leads.begin(), leads.end(),
                                             [&](const std::string& l) { return text.compare(at, l.size(), l) == 0; });
                QVERIFY2(led, qPrintable(QString::fromStdString(pattern + " at " + std::to_string(at) + " of " + text)));
            }
        }
    }
    QVERIFY2(matched > 300, qPrintable(QString::number(matched)));
}

// Event and series rules alike: every group match() and matchSeries() report is the one an unanchored RE2
// run gives, on the shipped sample and benign lines, and on them behind many copies of a rule's lead (the
// anchored tries run out and the rest of the line is searched unanchored).
void TestPrefilter::matchGivesTheGroupsOfAnUnanchoredRun()
{
    fl::RuleSet rules;
    rules.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    rules.compile();
    std::vector<std::string> lines = sampleLines(rules);
    const size_t shipped = lines.size();
    for (size_t i = 0; i < shipped; ++i)
        for (const fl::Rule& r : rules.rules()) {
            const auto leads = r.phase == fl::Phase::Extract && !r.ignoreCase ? fl::leadingLiterals(r.pattern)
                                                                               : std::vector<std::string>();
            for (const std::string& lead : leads)
                if (lines[i].find(lead) != std::string::npos) {
                    std::string repeated;
                    for (int k = 0; k < 9; ++k)
                        repeated += lead + " ";
                    lines.push_back(repeated + lines[i]);
                    lines.push_back(lines[i] + " " + repeated);
                }
        }
    QVERIFY2(lines.size() > shipped + 50, qPrintable(QString::number(lines.size() - shipped)));
    using Found = std::pair<std::string, std::vector<std::pair<std::string, std::string>>>; // rule id, groups
    int compared = 0, withLead = 0;
    for (fl::SourceKind kind : {fl::SourceKind::AppLog, fl::SourceKind::SysLog, fl::SourceKind::FabricManager,
                                fl::SourceKind::Scheduler, fl::SourceKind::GpuSnapshot, fl::SourceKind::HostMap}) {
        const std::vector<Compiled> all = extractRulesOf(rules, kind, true);  // event and series rules alike
        for (const std::string& line : lines) {  // all far below the 64 KiB a line is matched on
            std::vector<Found> expected, got;
            for (const Compiled& c : all) {
                // A rule's literals gate it (a declared `literal` may be more than the pattern needs).
                const auto lits = fl::prefilterLiterals(*c.rule);
                if (!lits.empty() && std::none_of(lits.begin(), lits.end(), [&](const std::string& l) {
                        return containsLiteral(line, Literal{l, c.rule->ignoreCase});
                    }))
                    continue;
                const int n = c.pattern->NumberOfCapturingGroups() + 1;
                std::vector<re2::StringPiece> subs(static_cast<size_t>(n));
                if (!c.pattern->Match(line, 0, line.size(), RE2::UNANCHORED, subs.data(), n)
                    || (c.exclude && RE2::PartialMatch(line, *c.exclude)))
                    continue;
                Found f{c.rule->id, {}};
                for (const auto& [name, index] : c.pattern->NamedCapturingGroups())
                    if (subs[static_cast<size_t>(index)].data())
                        f.second.emplace_back(name, std::string(subs[static_cast<size_t>(index)]));
                std::sort(f.second.begin(), f.second.end());
                expected.push_back(std::move(f));
                withLead += !c.rule->ignoreCase && !fl::leadingLiterals(c.rule->pattern).empty();
            }
            std::vector<fl::ExtractMatch> out;
            rules.compiled().match(line, kind, out);
            rules.compiled().matchSeries(line, kind, out);
            for (const fl::ExtractMatch& m : out) {
                Found f{m.rule->id, m.groups};
                std::sort(f.second.begin(), f.second.end());
                got.push_back(std::move(f));
            }
            std::sort(expected.begin(), expected.end());
            std::sort(got.begin(), got.end());
            if (got != expected)
                QFAIL(qPrintable(QString::fromStdString("matches or groups differ [" + std::string(fl::toString(kind)) + "]: " + line)));
            compared += int(got.size());
        }
    }
    QVERIFY2(compared > 400 && withLead > 100, qPrintable(QStringLiteral("%1 / %2").arg(compared).arg(withLead)));
}

QTEST_GUILESS_MAIN(TestPrefilter)
// The Hyperscan database drops a literal that holds another one of the set
// (matcher.cpp, withoutRedundantLiterals): the lines are still found, in
// either case where a caseless literal covers them, and two caseless literals
// that differ only in case do not drop each other.
void TestPrefilter::literalsHoldingOthersStillFindTheirLines()
{
    fl::RuleSet rules;
    rules.loadText(R"({"symptoms": [{"id": "t.x", "title": "x", "domain": "workload", "role": "symptom", "weight": 0}],
      "rules": [
        {"id": "t.short", "phase": "extract", "sources": ["applog"], "literal": "NCCL WARN", "pattern": "NCCL WARN", "emit": {"symptom": "t.x"}},
        {"id": "t.long", "phase": "extract", "sources": ["applog"], "literal": "NCCL WARN Cuda failure", "pattern": "NCCL WARN Cuda failure", "emit": {"symptom": "t.x"}},
        {"id": "t.caseless", "phase": "extract", "sources": ["applog"], "literal": "stuck rank", "ignore_case": true, "pattern": "stuck rank", "emit": {"symptom": "t.x"}},
        {"id": "t.holds-caseless", "phase": "extract", "sources": ["applog"], "literal": "a Stuck Rank 7", "pattern": "Stuck Rank 7", "emit": {"symptom": "t.x"}},
        {"id": "t.upper", "phase": "extract", "sources": ["applog"], "literal": "TIMEOUT", "ignore_case": true, "pattern": "TIMEOUT", "emit": {"symptom": "t.x"}},
        {"id": "t.lower", "phase": "extract", "sources": ["applog"], "literal": "timeout", "ignore_case": true, "pattern": "timeout", "emit": {"symptom": "t.x"}}
      ]})", "test.jsonc");
    rules.compile();
    const std::string data = "nothing here\n"
                             "x NCCL WARN Cuda failure 'out of memory'\n"
                             "filler\n"
                             "A STUCK RANK 7 and more\n"
                             "filler\n"
                             "a Timeout\n"
                             "ncclwarn, no space\n"
                             "last NCCL WARN";
    std::vector<size_t> found;
    for (size_t pos = 0;;) {
        const size_t c = rules.compiled().nextCandidate(data, pos, fl::SourceKind::AppLog);
        if (c == std::string_view::npos)
            break;
        found.push_back(c);
        const size_t eol = data.find('\n', c);
        if (eol == std::string::npos)
            break;
        pos = eol + 1;
    }
    const std::vector<size_t> expected{data.find("x NCCL"), data.find("A STUCK"), data.find("a Timeout"), data.find("last NCCL")};
    QCOMPARE(found, expected);
}

// A build for checking rule files' samples has no line pre-filters, and must match exactly as the scan's.
void TestPrefilter::sampleCheckBuildMatchesAsTheScanBuild()
{
    fl::RuleSet rules;
    rules.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    rules.compile();
    fl::CompiledRules probe;
    probe.build(rules.rules(), fl::CompiledRules::Purpose::SampleCheck);
    std::vector<std::string> lines = sampleLines(rules);
    lines.push_back("filler 0123456789");
    auto ids = [](const std::vector<fl::ExtractMatch>& ms) {
        std::vector<std::string> out;
        for (const auto& m : ms) {
            out.push_back(m.rule->id);
            for (const auto& [k, v] : m.groups)
                out.push_back(k + "=" + v);
        }
        return out;
    };
    int matched = 0;
    for (fl::SourceKind kind : {fl::SourceKind::AppLog, fl::SourceKind::SysLog, fl::SourceKind::FabricManager,
                                fl::SourceKind::Scheduler, fl::SourceKind::GpuSnapshot, fl::SourceKind::HostMap}) {
        for (const std::string& line : lines) {
            std::vector<fl::ExtractMatch> a, b;
            rules.compiled().match(line, kind, a);
            probe.match(line, kind, b);
            QCOMPARE(ids(b), ids(a));
            matched += a.empty() ? 0 : 1;
            a.clear();
            b.clear();
            rules.compiled().matchSeries(line, kind, a);
            probe.matchSeries(line, kind, b);
            QCOMPARE(ids(b), ids(a));
            matched += a.empty() ? 0 : 1;
        }
        // without a pre-filter every line is a candidate
        QCOMPARE(probe.nextCandidate("no literal here\nnor here\n", 3, kind), size_t(3));
    }
    QVERIFY(matched > 0);
}

// A rule without a literal runs its pattern on every line of its sources: the deep bundle's scan stays
// within 1.5x of rg only because no shipped rule does. One may, when it says why (`no_literal`).
void TestPrefilter::everyExtractRuleHasALiteralOrSaysWhyNot()
{
    fl::RuleSet rules;
    rules.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    QStringList without;
    for (const fl::Rule& r : rules.rules())
        if (r.phase == fl::Phase::Extract && !r.metric && fl::prefilterLiterals(r).empty() && r.noLiteral.empty())
            without << QString::fromStdString(r.file + ":" + std::to_string(r.line) + ": " + r.id);
    QVERIFY2(without.isEmpty(), qPrintable("extract rules with no pre-filter literal and no 'no_literal' reason:\n" +
                                           without.join('\n')));
    // the reason is the only way out: a rule with neither is the warning validate-rules prints
    fl::Rule bare;
    bare.phase = fl::Phase::Extract;
    bare.pattern = "\\d+ x";
    QVERIFY(fl::prefilterLiterals(bare).empty());
}

// A literal that a healthy training run's lines hold (a step line's "loss", a timestamp's "T") makes those
// lines candidates: each is cut out and matched against the rules whose literal it holds. The deep bundle
// (1,700 steps x 512 ranks) is nearly all such application-log lines, so one common literal undoes the
// pre-filter. Measured on a healthy synthetic run's rank logs (realistic noise): the share of lines that hold
// a literal of a non-series rule, overall and per rule, naming the rule and literal that breaks the bound.
// (Kernel logs are left out: the synthetic ones are mostly benign look-alikes of evidence, candidates by design,
// and small beside the rank logs.)
void TestPrefilter::healthyLinesAreRarelyCandidates()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    fl::synth::Options o;
    o.fault = "none";
    o.nodes = 2;
    o.gpusPerNode = 4;
    o.iterations = 300;
    o.noiseLevel = 1;
    o.seed = 7;
    std::string error;
    QVERIFY2(fl::synth::generate(o, dir.path().toStdString(), &error), error.c_str());
    const fl::Bundle bundle = fl::loadBundle(dir.path().toStdString());

    fl::RuleSet rules;
    rules.loadDirectory(FAULTLINE_SOURCE_DIR "/rules");
    rules.compile();
    std::map<fl::SourceKind, std::vector<std::string>> linesOf;
    for (const fl::SourceFile& f : bundle.files) {
        if (f.kind != fl::SourceKind::AppLog)
            continue;
        std::ifstream in(f.diskPath, std::ios::binary);
        std::string line;
        while (std::getline(in, line))
            linesOf[f.kind].push_back(line);
    }
    QVERIFY(linesOf[fl::SourceKind::AppLog].size() > 1000);

    QStringList over;
    for (const auto& [kind, lines] : linesOf) {
        size_t candidates = 0;
        for (const std::string& l : lines)
            candidates += rules.compiled().otherCandidate(l, kind) ? 1 : 0;
        const double share = double(candidates) / double(lines.size());
        qInfo("%s: %zu of %zu healthy lines are candidates (%.2f %%)", std::string(fl::toString(kind)).c_str(),
              candidates, lines.size(), 100.0 * share);
        if (share > kHealthyCandidateShare)
            over << QString("%1: %2 % of healthy lines are pre-filter candidates (bound %3 %)")
                        .arg(QString::fromStdString(std::string(fl::toString(kind))))
                        .arg(100.0 * share, 0, 'f', 2)
                        .arg(100.0 * kHealthyCandidateShare);
        for (const fl::Rule& r : rules.rules()) {
            if (r.phase != fl::Phase::Extract || r.metric || (r.series && r.emitSymptom.empty()))
                continue;
            if (!r.sources.empty() && std::find(r.sources.begin(), r.sources.end(), kind) == r.sources.end())
                continue;
            for (const std::string& text : fl::prefilterLiterals(r)) {
                const Literal lit{text, r.ignoreCase};
                size_t holding = 0;
                for (const std::string& l : lines)
                    holding += containsLiteral(l, lit) ? 1 : 0;
                if (double(holding) / double(lines.size()) > kHealthyRuleShare)
                    over << QString::fromStdString(r.file + ":" + std::to_string(r.line) + ": rule '" + r.id +
                                                   "': literal '" + text + "' is in " + std::to_string(holding) + " of " +
                                                   std::to_string(lines.size()) + " healthy " +
                                                   std::string(fl::toString(kind)) + " lines");
            }
        }
    }
    QVERIFY2(over.isEmpty(), qPrintable(over.join('\n')));
}

#include "test_prefilter.moc"
