// The shared calendar arithmetic: round trips over four centuries, leap days,
// and years of times before 1970 (floor, not truncation).
#include "calendar.h"

#include <QtTest>

class TestCalendar : public QObject {
    Q_OBJECT
private slots:
    void knownDays()
    {
        QCOMPARE(fl::daysFromCivil(1970, 1, 1), int64_t(0));
        QCOMPARE(fl::daysFromCivil(2000, 3, 1), int64_t(11017));
        QCOMPARE(fl::daysFromCivil(1969, 12, 31), int64_t(-1));
    }
    void roundTrip()
    {
        for (int64_t day = -146097; day <= 146097 * 2; day += 1) {
            int y;
            unsigned m, d;
            fl::civilFromDays(day, y, m, d);
            QCOMPARE(fl::daysFromCivil(y, m, d), day);
        }
        int y;
        unsigned m, d;
        fl::civilFromDays(fl::daysFromCivil(2024, 2, 29), y, m, d);
        QCOMPARE(y, 2024);
        QCOMPARE(m, 2u);
        QCOMPARE(d, 29u);
    }
    void yearOfNs()
    {
        const int64_t ns = 1'000'000'000;
        QCOMPARE(fl::yearOfNs(0), 1970);
        QCOMPARE(fl::yearOfNs(-1), 1969);                                   // one ns before the epoch
        QCOMPARE(fl::yearOfNs(fl::daysFromCivil(2026, 1, 1) * 86400 * ns), 2026);
        QCOMPARE(fl::yearOfNs(fl::daysFromCivil(2026, 1, 1) * 86400 * ns - 1), 2025);
        QCOMPARE(fl::yearOfNs(fl::daysFromCivil(1900, 2, 28) * 86400 * ns), 1900);
    }
};

QTEST_GUILESS_MAIN(TestCalendar)
#include "test_calendar.moc"
