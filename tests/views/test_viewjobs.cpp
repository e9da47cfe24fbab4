// SPDX-License-Identifier: MIT
// The staged workbench: the verdict at once, the other views from background
// jobs, a newer analysis never overwritten by an older one's late job.
#include "viewfixture.h"
#include "views/common/viewjobs.h"
#include "views/workbench/workbenchview.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>

using namespace fl;

class TestViewJobs : public QObject
{
    Q_OBJECT
private slots:
    void resultLandsOnTheGuiThread()
    {
        ViewJobs jobs;
        jobs.restart(ViewJobs::Mode::Background);
        QSignalSpy all(&jobs, &ViewJobs::allFinished);
        QThread* workerThread = nullptr;
        QThread* applyThread = nullptr;
        int got = 0;
        jobs.run(QStringLiteral("answer"), [&](const std::atomic<bool>&) { workerThread = QThread::currentThread(); return 42; },
                 [&](int v) { applyThread = QThread::currentThread(); got = v; });
        QCOMPARE(jobs.pending(), 1);
        QVERIFY(all.wait(5000));
        QCOMPARE(got, 42);
        QVERIFY(workerThread && workerThread != QThread::currentThread());
        QCOMPARE(applyThread, QThread::currentThread());
        QCOMPARE(jobs.pending(), 0);
        QCOMPARE(jobs.timings().size(), size_t(1));
        QCOMPARE(jobs.timings().front().name, QStringLiteral("answer"));
    }

    // A job of an ended generation sees the flag, and its result is dropped.
    void restartDropsTheOlderGeneration()
    {
        ViewJobs jobs;
        jobs.restart(ViewJobs::Mode::Background);
        std::atomic<bool> started{false}, sawCancel{false};
        bool oldApplied = false;
        jobs.run(QStringLiteral("slow"), [&](const std::atomic<bool>& cancelled) {
            started = true;
            for (int i = 0; i < 500 && !cancelled.load(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            sawCancel = cancelled.load();
            return 1;
        }, [&](int) { oldApplied = true; });
        QTRY_VERIFY(started.load());
        jobs.restart(ViewJobs::Mode::Background);
        QSignalSpy all(&jobs, &ViewJobs::allFinished);
        int got = 0;
        jobs.run(QStringLiteral("fast"), [](const std::atomic<bool>&) { return 2; }, [&](int v) { got = v; });
        QVERIFY(all.wait(5000));
        QCOMPARE(got, 2);
        QTRY_VERIFY(sawCancel.load());
        QTest::qWait(50);  // the old watcher's finished() has been delivered by now
        QVERIFY(!oldApplied);
        QCOMPARE(all.count(), 1);
    }

    void inlineRunsAtOnce()
    {
        ViewJobs jobs;
        jobs.restart(ViewJobs::Mode::Inline);
        int got = 0;
        jobs.run(QStringLiteral("now"), [](const std::atomic<bool>&) { return 7; }, [&](int v) { got = v; });
        QCOMPARE(got, 7);
        QCOMPARE(jobs.pending(), 0);
    }

    // The verdict is shown before any other view is built; the views land;
    // the focus then goes to the root cause's evidence, as an inline build does.
    void workbenchShowsTheVerdictFirst()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto a = test::makeIncident(dir.path());
        WorkbenchView w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy verdict(&w, &WorkbenchView::verdictShown);
        QSignalSpy ready(&w, &WorkbenchView::viewsReady);
        w.setAnalysis(a, ViewJobs::Mode::Background);
        QCOMPARE(verdict.count(), 1);
        QVERIFY(w.verdict()->statusText().startsWith(QStringLiteral("ATTRIBUTED")));
        QCOMPARE(ready.count(), 0);
        QCOMPARE(w.chain()->nodeItemCount(), 0);
        QCOMPARE(w.timeline()->view()->lanes().laneCount(), 0);
        QVERIFY(w.viewsPending());
        QVERIFY(ready.wait(10000));
        QCOMPARE(w.chain()->nodeItemCount(), 17);
        QCOMPARE(w.timeline()->view()->lanes().laneCount() > 0, true);
        QCOMPARE(w.verdict()->coverageModel()->rowCount(), int(a->result.connectors.size()));
        QCOMPARE(w.focus()->current().event, std::optional<EventId>(EventId(test::kRootEvent)));
        QVERIFY(w.focus()->current().evidence.has_value());
        QVERIFY(w.focus()->current().startNs != kNoTime);
        QCOMPARE(w.focus()->backDepth(), 0);  // no history step for the initial focus

        // Same views, built inline: the same result on screen.
        WorkbenchView inlineView;
        inlineView.setAnalysis(a);
        // The same focus, each under its own analysis id (two views, two analyses shown).
        FocusSnapshot inlineFocus = inlineView.focus()->current();
        QVERIFY(inlineFocus.analysis != w.focus()->analysis());
        inlineFocus.analysis = w.focus()->analysis();
        QCOMPARE(inlineFocus, w.focus()->current());
        QCOMPARE(inlineView.chain()->nodeItemCount(), w.chain()->nodeItemCount());
        QCOMPARE(inlineView.timeline()->view()->lanes().laneCount(), w.timeline()->view()->lanes().laneCount());
    }

    // A second analysis opened while the first's views are still built: only
    // the second's views land.
    void newerAnalysisWins()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto first = test::makeIncident(dir.path());
        const auto second = test::makeIncident(dir.path(), true);
        WorkbenchView w;
        QSignalSpy ready(&w, &WorkbenchView::viewsReady);
        w.setAnalysis(first, ViewJobs::Mode::Background);
        w.setAnalysis(second, ViewJobs::Mode::Background);
        QVERIFY(ready.wait(10000));
        QTest::qWait(100);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(w.analysis(), std::shared_ptr<const Analysis>(second));
        QVERIFY(w.verdict()->statusText().startsWith(QStringLiteral("AMBIGUOUS")));
        QVERIFY(w.explanation()->sideBySideCount() >= 2);  // the ambiguous result's contenders
    }
};

QTEST_MAIN(TestViewJobs)
#include "test_viewjobs.moc"
