// SPDX-License-Identifier: MIT
#include "views/common/focusstate.h"

#include <QSignalSpy>
#include <QTest>

using fl::EventId;
using fl::FocusState;

class TestFocusState : public QObject
{
    Q_OBJECT
private slots:
    void backAndForward()
    {
        FocusState f;
        f.setTimeWindow(0, 100);
        f.selectEvent(EventId(3), QStringLiteral("node02/7"));
        f.selectEvidence(fl::EvidenceId(3));
        QCOMPARE(f.backDepth(), 3);
        QSignalSpy ev(&f, &FocusState::eventSelected);
        QSignalSpy evid(&f, &FocusState::evidenceSelected);

        f.back();
        QCOMPARE(f.current().evidence, std::optional<fl::EvidenceId>());
        QCOMPARE(f.current().event, std::optional<EventId>(EventId(3)));
        QCOMPARE(evid.count(), 1);
        QCOMPARE(ev.count(), 0);  // unchanged fields do not signal
        f.back();
        QCOMPARE(f.current().event, std::optional<EventId>());
        QCOMPARE(f.current().lane, QString());
        QCOMPARE(ev.count(), 1);
        QCOMPARE(ev.front().front().value<std::optional<EventId>>(), std::optional<EventId>());  // none, not a magic -1
        QVERIFY(f.canGoForward());
        f.forward();
        f.forward();
        QCOMPARE(f.current().evidence, std::optional(fl::EvidenceId(3)));
        QVERIFY(!f.canGoForward());
        f.forward();  // no-op at the end
        QCOMPARE(f.current().evidence, std::optional(fl::EvidenceId(3)));
    }

    void newNavigationDropsForward()
    {
        FocusState f;
        f.selectEvent(EventId(1));
        f.selectEvent(EventId(2));
        f.back();
        QVERIFY(f.canGoForward());
        f.selectEvent(EventId(5));
        QVERIFY(!f.canGoForward());
        f.back();
        QCOMPARE(f.current().event, std::optional<EventId>(EventId(1)));
    }

    void coalescedZoomIsOneStep()
    {
        FocusState f;
        f.setTimeWindow(0, 1000);
        for (int i = 1; i < 10; ++i)
            f.setTimeWindow(i, 1000 - i, FocusState::History::Coalesce);
        QCOMPARE(f.current().startNs, 9);
        QCOMPARE(f.backDepth(), 2);
        f.back();
        QCOMPARE(f.current().startNs, 0);
        // A selection breaks the run: the next zoom is a new step.
        f.selectEvent(EventId(4));
        f.setTimeWindow(1, 2, FocusState::History::Coalesce);
        f.setTimeWindow(1, 3, FocusState::History::Coalesce);
        f.back();
        QCOMPARE(f.current().event, std::optional<EventId>(EventId(4)));
        QCOMPARE(f.current().endNs, 1000);
    }

    void sameStateIsNoStep()
    {
        FocusState f;
        f.selectLane(QStringLiteral("node01"));
        f.selectLane(QStringLiteral("node01"));
        QCOMPARE(f.backDepth(), 1);
    }

    void signalsSeeConsistentState()
    {
        FocusState f;
        fl::FocusSnapshot s;
        s.event = EventId(7);
        s.evidence = fl::EvidenceId(8);
        bool consistent = false;
        connect(&f, &FocusState::eventSelected, this,
                [&] { consistent = f.current().evidence == fl::EvidenceId(8); });
        f.navigate(s);
        QVERIFY(consistent);
    }

    void cursorIsNotHistory()
    {
        FocusState f;
        QSignalSpy spy(&f, &FocusState::cursorMoved);
        f.setCursor(42);
        f.setCursor(42);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(f.backDepth(), 0);
    }

    void historyIsBounded()
    {
        FocusState f;
        for (int i = 0; i < 2000; ++i)
            f.selectEvent(EventId(uint32_t(i)));
        QVERIFY(f.backDepth() <= 500);
        QVERIFY(f.backDepth() > 100);
    }

    // Two analyses open side by side: each has its own focus, the same evidence id names a different item in
    // each, and a snapshot of one is refused by the other (nothing changes, nothing is signalled).
    void twoAnalysesDoNotMix()
    {
        const fl::AnalysisId idA = fl::AnalysisId::next();
        const fl::AnalysisId idB = fl::AnalysisId::next();
        QVERIFY(idA && idB && idA != idB);
        FocusState a, b;
        a.reset(idA);
        b.reset(idB);
        a.setTimeWindow(0, 100);
        a.selectEvidence(fl::EvidenceId(3), EventId(3));
        b.selectEvidence(fl::EvidenceId(0));
        QCOMPARE(a.current().analysis, idA);
        QCOMPARE(b.current().analysis, idB);
        QCOMPARE(b.current().evidence, std::optional(fl::EvidenceId(0)));
        QCOMPARE(b.current().event, std::optional<EventId>());

        QSignalSpy bEvidence(&b, &FocusState::evidenceSelected);
        QSignalSpy bHistory(&b, &FocusState::historyChanged);
        const fl::FocusSnapshot fromA = a.current();
        QVERIFY(!b.navigate(fromA));
        QVERIFY(!b.reset(fromA));
        QCOMPARE(b.current().evidence, std::optional(fl::EvidenceId(0)));
        QCOMPARE(b.current().startNs, fl::kNoTime);
        QCOMPARE(b.backDepth(), 1);
        QCOMPARE(bEvidence.count(), 0);
        QCOMPARE(bHistory.count(), 0);

        // Going back in one leaves the other where it is.
        a.back();
        QCOMPARE(a.current().evidence, std::optional<fl::EvidenceId>());
        QCOMPARE(b.current().evidence, std::optional(fl::EvidenceId(0)));
        // A snapshot of its own analysis still goes through.
        fl::FocusSnapshot own = b.current();
        own.lane = QStringLiteral("node-02");
        QVERIFY(b.navigate(own));
        QCOMPARE(b.current().lane, QStringLiteral("node-02"));
        // A new analysis in the same state: the old one's snapshots no longer apply.
        const fl::FocusSnapshot old = b.current();
        b.reset(fl::AnalysisId::next());
        QVERIFY(!b.navigate(old));
        QVERIFY(!b.current().evidence.has_value());
    }

    void resetClears()
    {
        FocusState f;
        f.selectEvent(EventId(1));
        f.reset();
        QVERIFY(!f.canGoBack());
        QCOMPARE(f.current().event, std::optional<EventId>());
    }
};

QTEST_GUILESS_MAIN(TestFocusState)
#include "test_focusstate.moc"
