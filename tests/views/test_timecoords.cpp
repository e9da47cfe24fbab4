// SPDX-License-Identifier: MIT
#include "views/common/timecoords.h"

#include <QTest>

using namespace fl::timecoords;

class TestTimeCoords : public QObject
{
    Q_OBJECT
private slots:
    void timeToPixel_data()
    {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("x");
        QTest::newRow("start") << qint64(100) << qint64(100) << qint64(200) << 1000.0 << 0.0;
        QTest::newRow("middle") << qint64(150) << qint64(100) << qint64(200) << 1000.0 << 500.0;
        QTest::newRow("end") << qint64(200) << qint64(100) << qint64(200) << 1000.0 << 1000.0;
        QTest::newRow("before, not clamped") << qint64(50) << qint64(100) << qint64(200) << 1000.0 << -500.0;
        QTest::newRow("degenerate range") << qint64(150) << qint64(100) << qint64(100) << 1000.0 << 0.0;
        QTest::newRow("inverted range") << qint64(150) << qint64(200) << qint64(100) << 1000.0 << 0.0;
        QTest::newRow("zero width") << qint64(150) << qint64(100) << qint64(200) << 0.0 << 0.0;
        // Epoch-sized values: a naive (t - start) * width in int64 would overflow.
        const qint64 epoch = 1714566896'000'000'000;
        QTest::newRow("epoch ns") << epoch + 30'000'000'000 << epoch << epoch + 60'000'000'000 << 1920.0 << 960.0;
    }
    void timeToPixel()
    {
        QFETCH(qint64, t);
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(double, width);
        QFETCH(double, x);
        QCOMPARE(fl::timecoords::timeToPixel(t, start, end, width), x);
    }

    void roundTrip()
    {
        const int64_t start = 1714566896'123'456'789, end = start + 7'000'000'000;
        for (double x : {0.0, 1.0, 333.0, 999.0, 1000.0}) {
            const int64_t t = pixelToTime(x, start, end, 1000);
            QVERIFY(std::abs(fl::timecoords::timeToPixel(t, start, end, 1000) - x) < 1e-3);
        }
        QCOMPARE(pixelToTime(0, start, end, 1000), start);
        QCOMPARE(pixelToTime(1000, start, end, 1000), end);
    }

    void pixelToTimeEdges()
    {
        QCOMPARE(pixelToTime(10, 5, 5, 100), int64_t(5));       // degenerate range
        QCOMPARE(pixelToTime(10, 0, 100, 0), int64_t(0));        // no width
        QCOMPARE(pixelToTime(-50, 0, 100, 100), int64_t(-50));   // left of the range, not clamped
        // Saturates instead of wrapping.
        QCOMPARE(pixelToTime(1e30, 0, INT64_MAX, 1), INT64_MAX);
        QCOMPARE(pixelToTime(-1e30, 0, INT64_MAX, 1), INT64_MIN);
    }

    void rowAtEdges()
    {
        QCOMPARE(rowAt(0, 0, 20, 5), 0);
        QCOMPARE(rowAt(19.9, 0, 20, 5), 0);
        QCOMPARE(rowAt(20, 0, 20, 5), 1);
        QCOMPARE(rowAt(5, 40, 20, 5), 2);     // scrolled by two rows
        QCOMPARE(rowAt(-1, 0, 20, 5), -1);    // above
        QCOMPARE(rowAt(100, 0, 20, 5), -1);   // below the last row
        QCOMPARE(rowAt(10, 0, 0, 5), -1);     // no row height
        QCOMPARE(rowAt(10, 0, 20, 0), -1);    // no rows
    }

    void zoomKeepsAnchor()
    {
        const Range r{1'000'000, 2'000'000};
        const Range z = zoomAround(r, 1'250'000, 0.5, {0, 1'000'000'000});
        QCOMPARE(z.end - z.start, int64_t(500'000));
        // The anchor stays at the same fraction (a quarter) of the width.
        QCOMPARE(z.start, int64_t(1'125'000));
        QCOMPARE(z.end, int64_t(1'625'000));
    }

    void zoomLimits()
    {
        // Never below the minimum span.
        Range z = zoomAround({0, 2000}, 1000, 1e-9, {});
        QCOMPARE(z.end - z.start, kMinSpanNs);
        // Zooming out stops at the limit's span and stays inside it.
        z = zoomAround({400'000, 600'000}, 500'000, 1000, {0, 1'000'000});
        QCOMPARE(z, (Range{0, 1'000'000}));
        z = zoomAround({900'000, 1'000'000}, 950'000, 4, {0, 1'000'000});
        QVERIFY(z.end <= 1'000'000 && z.start >= 0);
        QCOMPARE(z.end - z.start, int64_t(400'000));
        // Nonsense factors leave the range alone.
        QCOMPARE(zoomAround({0, 100}, 50, 0, {}), (Range{0, 100}));
        QCOMPARE(zoomAround({0, 100}, 50, std::numeric_limits<double>::quiet_NaN(), {}), (Range{0, 100}));
    }

    void panClamps()
    {
        QCOMPARE(panBy({100, 200}, 50, {0, 1000}), (Range{150, 250}));
        QCOMPARE(panBy({100, 200}, -500, {0, 1000}), (Range{0, 100}));
        QCOMPARE(panBy({100, 200}, 5000, {0, 1000}), (Range{900, 1000}));
        // Overflowing pan is refused rather than wrapped.
        QCOMPARE(panBy({INT64_MAX - 10, INT64_MAX - 1}, INT64_MAX, {}), (Range{INT64_MAX - 10, INT64_MAX - 1}));
    }

    void ticks()
    {
        // 10 s over 1000 px with >= 100 px per tick: one second.
        QCOMPARE(tickStep(10'000'000'000, 1000, 100), int64_t(1'000'000'000));
        QCOMPARE(tickStep(1000, 1000, 100), int64_t(100));
        QCOMPARE(tickStep(3'600'000'000'000, 1000, 100), int64_t(600'000'000'000));  // 1 h -> 10 min
        QVERIFY(tickStep(0, 1000, 100) > 0);
        QVERIFY(tickStep(INT64_MAX, 1, 100) > 0);
        QCOMPARE(firstTick(1234, 1000), int64_t(2000));
        QCOMPARE(firstTick(2000, 1000), int64_t(2000));
        QCOMPARE(firstTick(-1234, 1000), int64_t(-1000));
    }
};

QTEST_GUILESS_MAIN(TestTimeCoords)
#include "test_timecoords.moc"
