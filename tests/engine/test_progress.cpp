// core/progress.h: the scan threads report progress one call at a time, with
// `done` never going back, so a callback that keeps state (a timer, a rate)
// is not raced by the engine itself.
#include "engine/engine.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

using namespace fl;
namespace fs = std::filesystem;

class TestProgress : public QObject {
    Q_OBJECT
private slots:
    void scanReportsOneCallAtATimeInOrder()
    {
        QTemporaryDir dir;
        const fs::path b = fs::path(dir.path().toStdString()) / "bundle";
        for (int i = 0; i < 64; ++i)
            fltest::writeFile(b / ("applog-node-" + std::to_string(i) + "-rank" + std::to_string(i) + ".log"),
                              std::string(static_cast<size_t>(100 + i * 37), 'x') + "\n");
        std::atomic<int> inside{0};
        std::atomic<int> overlaps{0};
        std::atomic<int> scanCalls{0};
        uint64_t lastDone = 0; // touched only inside the callback: safe only if calls never overlap
        int backwards = 0;
        Progress progress;
        progress.report = [&](std::string_view stage, uint64_t done, uint64_t total) {
            if (stage != "scan")
                return;
            if (inside.fetch_add(1) != 0)
                ++overlaps;
            std::this_thread::sleep_for(std::chrono::milliseconds(2)); // widen any race
            if (done < lastDone)
                ++backwards;
            lastDone = done;
            QVERIFY(done <= total);
            ++scanCalls;
            inside.fetch_sub(1);
        };
        AnalyzeOptions o;
        o.userConfigRules = false;
        o.shippedRulesDir = fltest::kSource + "/rules";
        const Analysis a = analyze(b.string(), o, progress);
        QCOMPARE(scanCalls.load(), 64);
        QCOMPARE(overlaps.load(), 0);
        QCOMPARE(backwards, 0);
        QVERIFY(!a.cancelled);
    }
};

QTEST_GUILESS_MAIN(TestProgress)
#include "test_progress.moc"
