// One table of ISO 8601 date-times run through every reader of them: the
// manifest's whole-string parser (parseIso8601Ns), the log line parser (a stamp
// at the start of a line, parseLine) and synth's --start (parseIsoUtc). All three
// read with bundle/iso_time.h's scanIso8601; where a row's columns differ, the
// difference is policy the caller states (a log line needs seconds and a
// plausible year and may go on after its stamp; synth wants a time after 1970 and
// reads a stamp without a zone as UTC), never a second grammar.
#include "bundle/iso_time.h"
#include "calendar.h"
#include "parse/lineparse.h"
#include "synth/clock.h"

#include <QtTest>

#include <optional>
#include <string>

using namespace fl;

namespace {

constexpr int64_t kS = 1'000'000'000;
constexpr int kDefaultOffset = 3600; // the zone assumed for a stamp that names none: one hour east of UTC

using Want = std::optional<int64_t>; // ns since the epoch, or nullopt: refused
const Want kNo = std::nullopt;
constexpr int64_t kBeyondNs = INT64_MAX; // accepted, but past what int64 nanoseconds hold

int64_t utc(int y, unsigned mo, unsigned d, int h, int mi, int s, int64_t ns = 0)
{
    return *civilToNsChecked(y, mo, d, h, mi, s, ns, 0);
}

// 2024-02-29T12:00:00Z, the leap day most rows use.
const int64_t kT = utc(2024, 2, 29, 12, 0, 0);
const int64_t kLocal = kT - kDefaultOffset * kS; // the same clock read in the default zone

struct Row {
    const char* text;
    Want manifest;  // parseIso8601Ns(text, kDefaultOffset): the whole text
    Want line;      // parseLine(text + " msg"): a stamp that starts a log line
    Want synth;     // parseIsoUtc(text), microseconds scaled to ns
};

// clang-format off
const Row kRows[] = {
    // zones
    {"2024-02-29T12:00:00Z",          kT,                kT,                kT},
    {"2024-02-29T12:00:00+05:30",     kT - 19800 * kS,   kT - 19800 * kS,   kT - 19800 * kS},
    {"2024-02-29T12:00:00-0800",      kT + 8 * 3600 * kS, kT + 8 * 3600 * kS, kT + 8 * 3600 * kS},
    {"2024-02-29T12:00:00+05",        kT - 5 * 3600 * kS, kT - 5 * 3600 * kS, kT - 5 * 3600 * kS},
    {"2024-02-29T12:00:00",           kLocal,            kLocal,            kT /* synth: UTC */},
    {"2024-02-29T12:00:00z",          kT,                kT,                kT},
    {"2024-02-29 12:00:00 UTC",       kT,                kT,                kT},
    {"2024-02-29T12:00:00+25:00",     kNo,               kLocal,            kNo},
    // separators
    {"2024-02-29 12:00:00Z",          kT,                kT,                kT},
    {"2024-02-29t12:00:00Z",          kT,                kT,                kT},
    {"2024-02-29_12:00:00Z",          kT,                kT,                kT},
    {"2024-02-29/12:00:00Z",          kNo,               kNo,               kNo},
    // fractions of 1 to 9 digits, more, none, and a comma (synth keeps microseconds)
    {"2024-02-29T12:00:00.1Z",        kT + 100000000,    kT + 100000000,    kT + 100000000},
    {"2024-02-29T12:00:00.12Z",       kT + 120000000,    kT + 120000000,    kT + 120000000},
    {"2024-02-29T12:00:00.123Z",      kT + 123000000,    kT + 123000000,    kT + 123000000},
    {"2024-02-29T12:00:00.1234Z",     kT + 123400000,    kT + 123400000,    kT + 123400000},
    {"2024-02-29T12:00:00.12345Z",    kT + 123450000,    kT + 123450000,    kT + 123450000},
    {"2024-02-29T12:00:00.123456Z",   kT + 123456000,    kT + 123456000,    kT + 123456000},
    {"2024-02-29T12:00:00.1234567Z",  kT + 123456700,    kT + 123456700,    kT + 123456000},
    {"2024-02-29T12:00:00.12345678Z", kT + 123456780,    kT + 123456780,    kT + 123456000},
    {"2024-02-29T12:00:00.123456789Z", kT + 123456789,   kT + 123456789,    kT + 123456000},
    {"2024-02-29T12:00:00.1234567891Z", kT + 123456789,  kT + 123456789,    kT + 123456000},
    {"2024-02-29T12:00:00,5Z",        kT + 500000000,    kT + 500000000,    kT + 500000000},
    {"2024-02-29T12:00:00.Z",         kNo,               kLocal,            kNo},
    // seconds left out: a log line's stamp needs them
    {"2024-02-29T12:00Z",             kT,                kNo,               kT},
    // calendar: leap days, month lengths, out-of-range fields
    {"2023-02-29T00:00:00Z",          kNo,               kNo,               kNo},
    {"2024-02-30T00:00:00Z",          kNo,               kNo,               kNo},
    {"2024-04-31T00:00:00Z",          kNo,               kNo,               kNo},
    {"2000-02-29T00:00:00Z",          utc(2000, 2, 29, 0, 0, 0), utc(2000, 2, 29, 0, 0, 0), utc(2000, 2, 29, 0, 0, 0)},
    {"2100-02-29T00:00:00Z",          kNo,               kNo,               kNo},
    {"2024-13-01T00:00:00Z",          kNo,               kNo,               kNo},
    {"2024-00-10T00:00:00Z",          kNo,               kNo,               kNo},
    {"2024-01-00T00:00:00Z",          kNo,               kNo,               kNo},
    {"2024-01-01T24:00:00Z",          kNo,               kNo,               kNo},
    {"2024-01-01T23:60:00Z",          kNo,               kNo,               kNo},
    {"2016-12-31T23:59:60Z",          utc(2017, 1, 1, 0, 0, 0), utc(2017, 1, 1, 0, 0, 0), utc(2017, 1, 1, 0, 0, 0)},
    {"2016-12-31T23:59:61Z",          kNo,               kNo,               kNo},
    // years: a log line's must be plausible (1990..2200), synth's after 1970, every one must fit int64 ns
    {"1985-06-01T00:00:00Z",          utc(1985, 6, 1, 0, 0, 0), kNo,       utc(1985, 6, 1, 0, 0, 0)},
    {"1969-12-31T23:59:59Z",          utc(1969, 12, 31, 23, 59, 59), kNo,  kNo},
    {"9999-12-31T23:59:59Z",          kNo,               kNo,               kNo},
    // garbage and trailing text: only a log line's stamp may be followed by more
    {"",                              kNo,               kNo,               kNo},
    {"hello",                         kNo,               kNo,               kNo},
    {"2024-1-01T00:00:00Z",           kNo,               kNo,               kNo},
    {"2024-01-01",                    kNo,               kNo,               kNo},
    {"2024-01-01T00:00:00 Z",         kNo,               utc(2024, 1, 1, 0, 0, 0) - kDefaultOffset * kS, kNo},
    {"2024-02-29T12:00:00Z trailing", kNo,               kT,                kNo},
    {"2024-02-29T12:00:00Zjunk",      kNo,               kT,                kNo},
};
// clang-format on

Want manifestNs(const char* text) { return parseIso8601Ns(text, kDefaultOffset); }

Want lineNs(const char* text)
{
    TimeContext ctx;
    ctx.tzOffsetSec = kDefaultOffset;
    const std::string line = std::string(text) + " msg";
    const LineInfo info = parseLine(line, SourceKind::AppLog, ctx);
    if (info.timeNs == kNoTime || (info.basis != TimeBasis::Absolute && info.basis != TimeBasis::AssumedUtc))
        return kNo;
    return info.timeNs;
}

Want synthNs(const char* text)
{
    int64_t us = 0;
    if (!synth::parseIsoUtc(text, &us))
        return kNo;
    int64_t ns = 0;
    return __builtin_mul_overflow(us, 1000, &ns) ? kBeyondNs : ns;
}

QString show(Want w) { return w ? QString::number(*w) : QStringLiteral("refused"); }

} // namespace

class TestIsoTime : public QObject {
    Q_OBJECT
private slots:
    void table_data()
    {
        QTest::addColumn<int>("row");
        for (size_t i = 0; i < std::size(kRows); ++i)
            QTest::newRow(kRows[i].text[0] ? kRows[i].text : "(empty)") << int(i);
    }

    void table()
    {
        QFETCH(int, row);
        const Row& r = kRows[row];
        QCOMPARE(show(manifestNs(r.text)), show(r.manifest));
        QCOMPARE(show(lineNs(r.text)), show(r.line));
        QCOMPARE(show(synthNs(r.text)), show(r.synth));
    }

    // The line parser's stamp ends where the zone ends: the message starts after it.
    void lineMessageStartsAfterTheStamp()
    {
        for (const char* stamp : {"2024-02-29T12:00:00Z", "2024-02-29T12:00:00.123+05:30", "2024-02-29 12:00:00-0800",
                                  "2024-02-29_12:00:00", "2024-02-29T12:00:00+05"}) {
            const std::string line = std::string(stamp) + " msg";
            const LineInfo info = parseLine(line, SourceKind::AppLog, {});
            QCOMPARE(QString::fromStdString(std::string(line.substr(info.messageStart))), QStringLiteral("msg"));
        }
    }
};

QTEST_APPLESS_MAIN(TestIsoTime)
#include "test_iso_time.moc"
