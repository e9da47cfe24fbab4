// A pattern "A.*?B" matched in pieces (core/rules/lazy_gap.h) must answer
// exactly what RE2 answers for the whole pattern, groups included, or say it
// is unsure. The reference is RE2 itself, anchored at every start of many
// generated lines that mix the pieces' characters, newlines and non-ASCII bytes.
#include "rules/lazy_gap.h"
#include "rules/matcher.h"

#include <QtTest>

#include <array>
#include <random>
#include <string>
#include <vector>

using namespace fl;

namespace {

RE2::Options options()
{
    RE2::Options o;
    o.set_log_errors(false);
    return o;
}

struct Tally {
    int match = 0, noMatch = 0, unsure = 0;
};

// Compares the pieces with the whole pattern at every start of `text`.
void compareAt(const std::string& pattern, const std::string& text, Tally& tally)
{
    const RE2 whole(pattern, options());
    QVERIFY2(whole.ok(), pattern.c_str());
    const auto gap = compileLazyGap(pattern, whole, options());
    QVERIFY2(gap != nullptr, pattern.c_str());
    const int n = whole.NumberOfCapturingGroups() + 1;
    const re2::StringPiece t(text.data(), text.size());
    for (size_t at = 0; at <= text.size(); ++at) {
        std::vector<re2::StringPiece> expect(static_cast<size_t>(n)), got(static_cast<size_t>(n));
        const bool hit = whole.Match(t, at, text.size(), RE2::ANCHOR_START, expect.data(), n);
        const GapAnswer answer = matchLazyGap(*gap, text, at, got.data(), n);
        if (answer == GapAnswer::Unsure) {
            ++tally.unsure;
            continue;
        }
        const std::string where = pattern + " at " + std::to_string(at) + " of '" + text + "'";
        QVERIFY2(hit == (answer == GapAnswer::Match), where.c_str());
        if (!hit) {
            ++tally.noMatch;
            continue;
        }
        ++tally.match;
        for (int k = 0; k < n; ++k) {
            const std::string group = where + ", group " + std::to_string(k);
            QVERIFY2(expect[size_t(k)].data() == got[size_t(k)].data(), group.c_str());
            QVERIFY2(expect[size_t(k)].size() == got[size_t(k)].size(), group.c_str());
        }
    }
}

} // namespace

class TestLazyGap : public QObject {
    Q_OBJECT
private slots:
    void splitsOnlyAtTheTopLevel_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("head");
        QTest::addColumn<QString>("tail");
        QTest::newRow("plain") << "a(\\d+).*?b(c)" << "a(\\d+)" << "b(c)";
        QTest::newRow("first gap") << "a.*?b.*?c" << "a" << "b.*?c";
        QTest::newRow("empty tail") << "ab.*?" << "ab" << "";
        QTest::newRow("named group") << "(?P<x>a).*?b" << "(?P<x>a)" << "b";
        QTest::newRow("escaped dot") << "a\\.*?b" << "" << "";
        QTest::newRow("in a class") << "a[.*?]b" << "" << "";
        QTest::newRow("in a group") << "a(?:b.*?c)d" << "" << "";
        QTest::newRow("alternative") << "a.*?b|c" << "" << "";
        QTest::newRow("alternative in tail") << "a.*?(?:b)|c" << "" << "";
        QTest::newRow("inline flag") << "(?i)a.*?b" << "" << "";
        QTest::newRow("scoped flag") << "a(?s:.).*?b" << "" << "";
        QTest::newRow("quoted") << "\\Qa.*?b\\E" << "" << "";
        QTest::newRow("no head") << ".*?b" << "" << "";
        QTest::newRow("greedy") << "a.*b" << "" << "";
        QTest::newRow("lazy lazy") << "a.*??b" << "" << "";
    }
    void splitsOnlyAtTheTopLevel()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, head);
        QFETCH(QString, tail);
        const auto pieces = splitAtLazyGap(pattern.toStdString());
        const bool splits = !head.isEmpty();
        QCOMPARE(pieces.has_value(), splits);
        if (splits) {
            QCOMPARE(QString::fromStdString(pieces->first), head);
            QCOMPARE(QString::fromStdString(pieces->second), tail);
        }
    }

    // Megatron's step line: the case the pieces exist for must be answered by them.
    void answersTheStepLine()
    {
        const std::string line =
            "[rank183]: [2026-03-14 10:01:10] iteration        1/   10000 | consumed samples:         1024 | "
            "elapsed time per iteration (ms): 9347.4 | throughput per GPU (TFLOP/s/GPU): 160.4 | learning rate: "
            "7.500000E-08 | global batch size:  1024 | lm loss: 1.046569E+01 | loss scale: 1.0 | grad norm: 0.955 |";
        const std::string patterns[] = {
            "iteration\\s+(?P<step>\\d+)/\\s*\\d+ \\|.*?elapsed time per iteration \\((?P<unit>ms|s)\\): "
            "(?P<value>[0-9.]+)",
            "iteration\\s+(?P<step>\\d+)/\\s*\\d+ \\|.*?\\| (?:lm )?loss: "
            "(?P<value>[-+]?(?:[0-9.]+(?:[eE][-+]?\\d+)?|nan|NAN|NaN|inf|INF|Inf))"};
        for (const auto& p : patterns) {
            Tally tally;
            compareAt(p, line, tally);
            QCOMPARE(tally.match, 1);
            QCOMPARE(tally.unsure, 0);
        }
    }

    // The tail's leading literals are kept only when each is long enough to be rare and the pattern case-sensitive.
    void tailLeadsOnlyWhenRareAndCaseSensitive()
    {
        const auto lead = [](const std::string& pattern, bool caseSensitive) {
            RE2::Options o = options();
            o.set_case_sensitive(caseSensitive);
            const RE2 whole(pattern, o);
            const auto gap = compileLazyGap(pattern, whole, o);
            if (!gap)
                return QStringLiteral("(no gap)");
            QStringList leads;
            for (const auto& l : gap->tailLeads)
                leads << QString::fromStdString(l);
            return leads.join(QLatin1Char(','));
        };
        QCOMPARE(lead("x(\\d).*?abab(c|cd)", true), QStringLiteral("ababc")); // "ababc" starts both
        QCOMPARE(lead("i(\\d+).*?elapsed \\((ms|s)\\)", true), QStringLiteral("elapsed (")); // their common start
        // Megatron's loss: "| lm loss: " or "| loss: ", each long enough; "| " alone would not be
        QCOMPARE(lead("i(\\d+).*?\\| (?:lm )?l: (\\d+)", true), QStringLiteral("| l: ,| lm l: "));
        QCOMPARE(lead("i(\\d+).*?\\| (?:lm )?(\\d+)", true), QString()); // "| ": too short
        QCOMPARE(lead("x(\\d).*?abab(c|cd)", false), QString());
    }

    // Patterns where A can give back what B needs, B can start inside A's
    // match, or B must be the leftmost of several: the pieces are sure only
    // when the whole pattern agrees.
    void agreesWithTheWholePattern_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QStringList>("tokens");
        QTest::newRow("greedy head") << "(a+).*?(ab)" << QStringList{"a", "b"};
        QTest::newRow("digits") << "x(\\d+).*?(\\d)" << QStringList{"x", "1", "2", " "};
        QTest::newRow("alternatives") << "a(b|bc).*?(c+)d" << QStringList{"a", "b", "c", "d"};
        QTest::newRow("word boundary") << "(\\w+) .*?\\b(\\w+)$" << QStringList{"a", "b", " "};
        QTest::newRow("optional groups") << "a(b)?(c)?.*?(b)?c" << QStringList{"a", "b", "c"};
        QTest::newRow("empty tail match") << "ab.*?(x*)" << QStringList{"a", "b", "x"};
        QTest::newRow("bars") << "i(\\d+) \\|.*?\\| (?:lm )?l: (\\d+)"
                              << QStringList{"i1 |", "i12 |", " ", "| ", "lm ", "l: ", "3", "| l: 4"};
        // Tails with a leading literal (tried anchored where it occurs): overlapping occurrences, more of
        // them than the anchored tries, occurrences the rest of the tail does not follow.
        QTest::newRow("overlapping tail literal") << "x(\\d).*?abab(c|cd)(\\d*)"
                                                  << QStringList{"x1", "x", "ab", "abab", "ababc", "c", "d", "2", " "};
        QTest::newRow("step-time tail") << "i(\\d+).*?elapsed \\((ms|s)\\): ([0-9.]+)"
                                        << QStringList{"i1", "i2", "elapsed (", "elapsed (ms): ", "ms", "s", "): ",
                                                       "1", ".", " "};
    }
    void agreesWithTheWholePattern()
    {
        QFETCH(QString, pattern);
        QFETCH(QStringList, tokens);
        std::vector<std::string> pieces;
        for (const QString& t : tokens)
            pieces.push_back(t.toStdString());
        // A newline, a two-byte UTF-8 character and each of its bytes alone, a byte never valid.
        for (const char* odd : {"\n", "\xc3\xa9", "\xc3", "\xa9", "\xff"})
            pieces.emplace_back(odd);
        std::mt19937 random(7);
        std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1), length(0, 10);
        Tally tally;
        for (int i = 0; i < 3000; ++i) {
            std::string text;
            for (size_t n = length(random); n > 0; --n)
                text += pieces[pick(random)];
            compareAt(pattern.toStdString(), text, tally);
            if (QTest::currentTestFailed())
                return;
        }
        // The comparison means something only if the pieces answered both ways.
        QVERIFY(tally.match > 0);
        QVERIFY(tally.noMatch > 0);
    }

    // A newline or a byte >= 0x80 anywhere in a gap longer than 16 bytes (the gap is checked 16 bytes at a
    // time): "." does not cross it, so the pieces must leave the answer to the whole pattern.
    void oddByteAnywhereInALongGap()
    {
        const std::string pattern = "i(\\d+) \\|.*?elapsed \\((ms|s)\\): ([0-9.]+)";
        const std::string clean = "i7 | consumed samples: 1024 | consumed tokens: 4194304 | elapsed (ms): 9347.4 |";
        const RE2 whole(pattern, options());
        const auto gap = compileLazyGap(pattern, whole, options());
        QVERIFY(gap != nullptr);
        std::array<re2::StringPiece, 4> subs;
        QCOMPARE(int(matchLazyGap(*gap, clean, 0, subs.data(), 4)), int(GapAnswer::Match));
        const size_t from = clean.find('|') + 1, to = clean.find("elapsed");
        for (const char odd : {'\n', '\x80', '\xc3', '\xff'}) {
            for (size_t at = from; at < to; ++at) {
                std::string line = clean;
                line[at] = odd;
                const std::string where = "odd byte " + std::to_string(int(static_cast<unsigned char>(odd))) + " at " +
                                          std::to_string(at);
                QVERIFY2(matchLazyGap(*gap, line, 0, subs.data(), 4) == GapAnswer::Unsure, where.c_str());
            }
        }
    }

    // "^(?:pattern)" on the text from a place the leading literal occurs: the same answer and groups as the
    // pattern run anchored there on the whole text, assertions right after the literal included.
    void anchoredAtAgreesWithTheWholePattern()
    {
        const std::string patterns[] = {"ab\\b(c|cd)?", "ab\\B(\\w*)$", "x(\\d+)(?:y|$)", "ab(?P<n>\\d*)\\s*(c)?"};
        const std::vector<std::string> tokens = {"a", "b", "ab", "c", "d", "x", "1", "y", " ", "\n", "\xc3\xa9"};
        std::mt19937 random(11);
        std::uniform_int_distribution<size_t> pick(0, tokens.size() - 1), length(0, 12);
        int matched = 0, refused = 0;
        for (const auto& pattern : patterns) {
            const RE2 whole(pattern, options());
            const auto atStart = compileAnchoredAt(pattern, whole, options());
            QVERIFY2(atStart != nullptr, pattern.c_str());
            const int n = whole.NumberOfCapturingGroups() + 1;
            for (int i = 0; i < 2000; ++i) {
                std::string text;
                for (size_t k = length(random); k > 0; --k)
                    text += tokens[pick(random)];
                for (size_t at = 0; at < text.size(); ++at) {
                    if (text[at] != pattern[0])
                        continue;
                    std::vector<re2::StringPiece> expect(static_cast<size_t>(n)), got(static_cast<size_t>(n));
                    const bool hit = whole.Match(re2::StringPiece(text.data(), text.size()), at, text.size(),
                                                 RE2::ANCHOR_START, expect.data(), n);
                    const std::string where = pattern + " at " + std::to_string(at) + " of '" + text + "'";
                    QVERIFY2(hit == matchAnchoredAt(*atStart, text, at, got.data(), n), where.c_str());
                    (hit ? matched : refused) += 1;
                    for (int k = 0; hit && k < n; ++k) {
                        QVERIFY2(expect[size_t(k)].data() == got[size_t(k)].data(), where.c_str());
                        QVERIFY2(expect[size_t(k)].size() == got[size_t(k)].size(), where.c_str());
                    }
                }
            }
        }
        QVERIFY(matched > 0);
        QVERIFY(refused > 0);
    }
};

QTEST_GUILESS_MAIN(TestLazyGap)
#include "test_lazy_gap.moc"
