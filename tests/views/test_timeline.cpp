// SPDX-License-Identifier: MIT
#include "viewfixture.h"
#include "views/timeline/timelineview.h"
#include "views/timeline/onsetlabel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace fl;

class TestTimeline : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::shared_ptr<Analysis> m_analysis;

    static int rowOf(const TimelineLanes& l, const char* key) { return l.rowOfKey(QString::fromLatin1(key)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_analysis = test::makeIncident(m_dir.path());
    }

    void lanesFromResult()
    {
        TimelineLanes l;
        l.build(m_analysis->result);
        QCOMPARE(l.rowCount(), test::kNodes);  // collapsed: nodes only
        const int root = l.rootLane();
        QVERIFY(root >= 0);
        QCOMPARE(l.lane(root).key, QStringLiteral("node02"));
        QVERIFY(l.lane(l.laneOfKey(QStringLiteral("node02/7"))).root);
        QVERIFY(!l.lane(l.laneOfKey(QStringLiteral("node02/6"))).root);
        QCOMPARE(l.lane(root).children.size(), size_t(4));
        // Node lanes hold their ranks' events plus node-level ones.
        size_t total = 0;
        for (int i = 0; i < l.laneCount(); ++i)
            if (l.lane(i).parent < 0)
                total += l.lane(i).eventCount();
        QCOMPARE(total, m_analysis->result.events.size());
    }

    void sortByFirstAnomaly()
    {
        TimelineLanes l;
        l.build(m_analysis->result, {"node05-quiet"});
        // The root's node is pinned on top, then node03 that holds the losing
        // candidate (its Xid 63); then node01's first timeout precedes
        // node04's; the quiet node comes last.
        QCOMPARE(rowOf(l, "node02"), 0);
        QCOMPARE(rowOf(l, "node03"), 1);
        QCOMPARE(rowOf(l, "node01"), 2);
        QCOMPARE(rowOf(l, "node04"), 3);
        QCOMPARE(rowOf(l, "node05-quiet"), 4);
        l.setSortByFirstAnomaly(false);
        QCOMPARE(rowOf(l, "node02"), 0);  // pinned whatever the sort
        QCOMPARE(rowOf(l, "node03"), 1);
        QCOMPARE(rowOf(l, "node01"), 2);
        QCOMPARE(rowOf(l, "node05-quiet"), 4);
    }

    // 2,000 nodes that all log an early informational mark, the culprit's
    // only mark its root cause late in the list: it must still be row 0, and
    // a candidate's node row 1.
    void wideJobPinsCulprit()
    {
        Result r;
        auto ev = [&r](uint32_t id, std::string node, int rank, int64_t t, EventKind kind, bool suppressed = false) {
            SymptomEvent e;
            e.id = EventId(id);
            e.symptom = "x";
            e.node = std::move(node);
            e.rank = rank;
            e.time.ns = t;
            e.kind = kind;
            e.suppressed = suppressed;
            r.events.push_back(e);
        };
        uint32_t id = 0;
        for (int n = 0; n < 2000; ++n) {
            char name[32];
            std::snprintf(name, sizeof name, "n%04d", n);
            ev(id++, name, n * 8, test::kRootTimeNs - 3600'000'000'000, EventKind::InterestingNode);
            ev(id++, name, n * 8 + 1, test::kRootTimeNs + 5'000'000'000 + n, EventKind::BadNode);
        }
        ev(id, "n1979", 1979 * 8 + 3, test::kRootTimeNs, EventKind::BadNode);
        // The later marks are the root's downstream symptoms (one role rule, core/present/role.cpp):
        // without chain edges they would only be "interesting", like the informational ones.
        for (uint32_t n = 0; n < 2000; ++n) {
            ChainEdge e;
            e.from = EventId(id);
            e.to = EventId(2 * n + 1);
            r.edges.push_back(e);
        }
        r.rootCause = RootCause{};
        r.rootCause->event = EventId(id);
        r.rootCause->node = "n1979";
        r.rootCause->rank = 1979 * 8 + 3;
        Candidate c;
        c.event = EventId(3);
        c.node = "n0001";
        c.rank = 9;
        r.candidates.push_back(c);
        TimelineLanes l;
        l.build(r);
        QCOMPARE(rowOf(l, "n1979"), 0);
        QCOMPARE(rowOf(l, "n0001"), 1);
        QCOMPARE(rowOf(l, "n0000"), 2);  // then by first symptom, not by the informational marks
        QCOMPARE(l.lane(l.laneOfKey(QStringLiteral("n0000"))).firstAnomaly, test::kRootTimeNs + 5'000'000'000);
        l.setExpanded(l.laneOfKey(QStringLiteral("n1979")), true);
        QCOMPARE(l.lane(l.laneAtRow(1)).key, QStringLiteral("n1979/15835"));  // the root's rank first
    }

    void filterAndExpand()
    {
        TimelineLanes l;
        l.build(m_analysis->result);
        l.setFilter(QStringLiteral("node04"));
        QCOMPARE(l.rowCount(), 1);
        l.setExpanded(l.laneOfKey(QStringLiteral("node04")), true);
        QCOMPARE(l.rowCount(), 5);
        // A rank key matches only that rank, with its node as context.
        l.setFilter(QStringLiteral("node02/7"));
        l.setExpanded(l.laneOfKey(QStringLiteral("node02")), true);
        QCOMPARE(l.rowCount(), 2);
        QCOMPARE(l.lane(l.laneAtRow(1)).key, QStringLiteral("node02/7"));
        l.setFilter(QStringLiteral("no-such-node"));
        QCOMPARE(l.rowCount(), 0);
    }

    // dmesg seconds with no known boot time: not dates. Beside wall-clock
    // events they stay off the axis (counted on their lane); alone, the axis
    // is "since each boot".
    void bootRelativeOffTheWallClock()
    {
        Result r;
        auto ev = [&r](uint32_t id, std::string node, int64_t t, TimeBasis b) {
            SymptomEvent e;
            e.id = EventId(id);
            e.symptom = "x";
            e.node = std::move(node);
            e.time.ns = t;
            e.time.basis = b;
            r.events.push_back(e);
        };
        ev(0, "a", test::kRootTimeNs, TimeBasis::Absolute);
        ev(1, "a", 6781741'548779000, TimeBasis::BootRelative);
        ev(2, "b", 12'000'000'000, TimeBasis::BootRelative);
        TimelineLanes l;
        l.build(r);
        QVERIFY(!l.bootAxis());
        QCOMPARE(l.minTime(), test::kRootTimeNs);  // not 1970: "show all" stays on the incident
        QCOMPARE(l.maxTime(), test::kRootTimeNs);
        QCOMPARE(l.lane(l.laneOfKey(QStringLiteral("a"))).bootRelative, 1u);
        QCOMPARE(l.lane(l.laneOfKey(QStringLiteral("b"))).bootRelative, 1u);
        QCOMPARE(l.eventTime(EventId(2)), kNoTime);
        QCOMPARE(style::timeText({6781741'548779000, TimeBasis::BootRelative, {}}), QStringLiteral("boot+6781741.548779s"));
        QCOMPARE(style::timeText({test::kRootTimeNs, TimeBasis::AssumedYear, {}}), QStringLiteral("2024-05-01 12:34:56.000 UTC"));

        r.events.erase(r.events.begin());
        l.build(r);
        QVERIFY(l.bootAxis());
        QCOMPARE(l.minTime(), int64_t(12'000'000'000));
        QCOMPARE(l.lane(l.laneOfKey(QStringLiteral("b"))).bootRelative, 0u);
        QCOMPARE(style::bootTickLabel(120'000'000'000, 10'000'000'000), QStringLiteral("boot+120s"));
    }

    // A bundle whose lines carry no time at all: lanes with their counts, no
    // 1970-01-01 axis (the epoch is not when anything happened), and an empty
    // window is not headed "1970-01-01 UTC" either.
    void noTimestampsNoEpochAxis()
    {
        FocusState focus;
        TimelineView empty(&focus);
        empty.resize(900, 300);
        empty.show();
        (void)empty.grab();
        QVERIFY2(!empty.axisTitle().contains(QStringLiteral("1970")), qPrintable(empty.axisTitle()));
        QVERIFY(empty.axisTitle().isEmpty());

        Result r;
        for (uint32_t i = 0; i < 5; ++i) {
            SymptomEvent e;
            e.id = EventId(i);
            e.symptom = "nccl.watchdog_timeout";
            e.node = i < 3 ? "node-a" : "node-b";
            e.rank = static_cast<int>(i);
            r.events.push_back(e);  // time.ns stays kNoTime
        }
        TimelineLanes l;
        l.build(r);
        QCOMPARE(l.minTime(), kNoTime);
        QCOMPARE(l.lane(l.laneOfKey(QStringLiteral("node-a"))).untimed, 3u);
        QCOMPARE(l.lane(l.laneOfKey(QStringLiteral("node-b/4"))).untimed, 1u);
        TimelineView v(&focus);
        v.resize(900, 300);
        v.setLanes(std::move(l));
        v.show();
        const QImage img = v.grab().toImage();
        QCOMPARE(v.axisTitle(), QStringLiteral("no timestamps"));
        QVERIFY(v.untimedMessage().contains(QStringLiteral("5 events")));
        // No tick labels: the axis strip right of the label column is one colour.
        const QRgb axisBg = img.pixel(TimelineView::kLabelWidth + 2, 3);
        int ticks = 0;
        for (int x = TimelineView::kLabelWidth + 2; x < img.width() - 20; ++x)
            for (int y = 2; y < TimelineView::kAxisHeight - 2; ++y)
                ticks += img.pixel(x, y) != axisBg;
        QCOMPARE(ticks, 0);
        // The mouse over the plot names no time (the metrics plots would show a 1970 cursor).
        QTest::mouseMove(&v, QPoint(TimelineView::kLabelWidth + 100, TimelineView::kAxisHeight + 10));
        QCOMPARE(focus.cursorNs(), kNoTime);
    }

    // A few lanes fill the panel instead of leaving most of it empty; many keep the minimum height and scroll.
    void fewLanesFillThePanel()
    {
        FocusState focus;
        TimelineView v(&focus);
        v.resize(1000, 400);
        v.setAnalysis(m_analysis);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const int rows = v.lanes().rowCount();
        QVERIFY(rows > 0 && rows < 10);
        const int used = TimelineView::kAxisHeight + rows * v.rowHeight();
        QVERIFY2(used * 100 >= v.height() * 70 || v.rowHeight() == TimelineView::kMaxRowHeight,
                 qPrintable(QStringLiteral("%1 rows of %2 px use %3 of %4 px").arg(rows).arg(v.rowHeight()).arg(used).arg(v.height())));
        QVERIFY(v.rowHeight() > TimelineView::kMinRowHeight);
        v.setAllExpanded(true);
        v.resize(1000, 200);
        QCOMPARE(v.rowHeight(), int(TimelineView::kMinRowHeight));  // 20 lanes in 200 px: minimum, and a scroll bar
    }

    // An untimed NCCL line lies between the stamped lines around it: its
    // interval is a faint whisker from the mark, at most kSpanCapPx either
    // side, with a tick only where the interval really ends. Without the cap,
    // an interval over the whole window paints every lane of a wide job solid.
    void uncertainTimeIsACappedWhisker()
    {
        const int cap = TimelineLanes::kSpanCapPx;
        TimelineLanes l;
        l.add("n", -1, {300, TimeBasis::Absolute, {290, 310}}, style::Symptom, EventId(0));       // narrow: drawn whole
        l.add("n", -1, {500, TimeBasis::Absolute, {500, 900}}, style::Interesting, EventId(1));   // wide: capped on the right
        l.add("n", -1, {800, TimeBasis::Absolute, {800, 800}}, style::Root, EventId(2));          // a point: no whisker
        l.add("n", -1, {100, TimeBasis::Absolute, {99, 101}}, style::Symptom, EventId(3));        // under kMinSpanPx: the mark covers it
        l.finish();
        auto level = [](uint8_t v) { return int(v & TimelineLanes::kSpanLevel); };
        auto tick = [](uint8_t v) { return (v & TimelineLanes::kSpanEnd) != 0; };
        std::vector<uint8_t> bars;
        l.spanMarks(0, 0, 1000, 1000, bars);  // 1 ns per pixel
        QCOMPARE(bars.size(), size_t(1000));
        for (int x = 290; x <= 310; ++x)
            QCOMPARE(level(bars[size_t(x)]), style::Symptom + 1);
        QVERIFY(tick(bars[290]) && tick(bars[310]) && !tick(bars[300]));
        QCOMPARE(level(bars[289]), 0);
        QCOMPARE(level(bars[311]), 0);
        QVERIFY(tick(bars[500]));
        QCOMPARE(level(bars[size_t(500 + cap)]), style::Interesting + 1);
        QVERIFY(!tick(bars[size_t(500 + cap)]));  // capped: no end drawn
        for (int x = 500 + cap + 1; x < 1000; ++x)
            QCOMPARE(level(bars[size_t(x)]), 0);
        for (int x = 98; x <= 102; ++x)
            QCOMPARE(level(bars[size_t(x)]), 0);
        QCOMPARE(level(bars[800]), 0);
        // Zoomed in: the same whisker, measured in pixels of the new window.
        l.spanMarks(0, 400, 600, 400, bars);  // 0.5 ns per pixel: the mark at x = 200
        QVERIFY(tick(bars[200]));
        QCOMPARE(level(bars[size_t(200 + cap)]), style::Interesting + 1);
        QCOMPARE(level(bars[size_t(201 + cap)]), 0);
        // An end outside the window is not drawn as an end.
        l.spanMarks(0, 295, 305, 10, bars);
        QVERIFY(!tick(bars[0]) && !tick(bars[9]));
        QCOMPARE(level(bars[0]), style::Symptom + 1);
        // The selected event's whole interval stays reachable.
        QCOMPARE(l.eventInterval(EventId(1)), (TimeInterval{500, 900}));
        QVERIFY(!l.eventInterval(EventId(2)).bounded());
        QVERIFY(!l.eventInterval(EventId(99)).bounded());
    }

    // As a person sees it: four lanes whose every event is only known to lie
    // somewhere in the whole window. Each lane shows its mark and a short
    // whisker, not a bar across the window; selecting one event shows its
    // whole interval as a band over every lane.
    void uncertainTimesDoNotFillLanes()
    {
        constexpr int64_t s = 1'000'000'000;
        TimelineLanes l;
        for (uint32_t n = 0; n < 4; ++n)
            l.add("node-" + std::to_string(n), -1, {1500 * s + n * 20 * s, TimeBasis::Absolute, {1000 * s, 2000 * s}}, style::Symptom, EventId(static_cast<uint32_t>(n)));
        l.finish();
        FocusState focus;
        TimelineView v(&focus);
        v.resize(1000, 200);
        v.setLanes(std::move(l));
        v.show();
        focus.setTimeWindow(1000 * s, 2000 * s);
        const QImage before = v.grab().toImage();
        const int x0 = TimelineView::kLabelWidth + 2, x1 = TimelineView::kLabelWidth + v.plotWidth() - 2;
        auto painted = [&](const QImage& img, int row) {
            const int y = TimelineView::kAxisHeight + row * v.rowHeight() + v.rowHeight() / 2;
            const QRgb bg = img.pixel(x0, y);  // the window's edge: far from every mark
            int n = 0;
            for (int x = x0; x < x1; ++x)
                n += img.pixel(x, y) != bg;
            return n;
        };
        for (int row = 0; row < 4; ++row) {
            const int n = painted(before, row);
            QVERIFY2(n > 0, "the lane shows its event");
            QVERIFY2(n <= 2 * TimelineLanes::kSpanCapPx + 8, qPrintable(QStringLiteral("row %1 paints %2 px").arg(row).arg(n)));
        }
        focus.selectEvent(EventId(2));
        const QImage after = v.grab().toImage();
        const int y = TimelineView::kAxisHeight + v.rowHeight() / 2;
        const int far = TimelineView::kLabelWidth + v.plotWidth() / 10;  // inside the interval, far from every mark
        QVERIFY2(after.pixel(far, y) != before.pixel(far, y), "the selected event's interval is a band over the lanes");
        if (qEnvironmentVariableIsSet("FAULTLINE_SCREENSHOTS")) {
            QVERIFY(QDir().mkpath(QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots")));
            QVERIFY(after.save(QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots/timeline-uncertain.png")));
        }
    }

    void perPixelKeepsWorst()
    {
        TimelineLanes l;
        // Three events in pixel 2 (of 10 over [0, 1000)): the root must win.
        l.add("n", -1, {200, TimeBasis::Absolute, {}}, style::Interesting, EventId(0));
        l.add("n", -1, {250, TimeBasis::Absolute, {}}, style::Root, EventId(1));
        l.add("n", -1, {299, TimeBasis::Absolute, {}}, style::Suppressed, EventId(2));
        l.add("n", -1, {700, TimeBasis::Absolute, {}}, style::Suppressed, EventId(3));
        l.add("n", -1, {1000, TimeBasis::Absolute, {}}, style::Root, EventId(4));  // end is exclusive
        l.finish();
        std::vector<uint8_t> m;
        l.marks(0, 0, 1000, 10, m);
        QCOMPARE(m.size(), size_t(10));
        QCOMPARE(int(m[2]), style::Root + 1);
        QCOMPARE(int(m[7]), style::Suppressed + 1);
        QCOMPARE(int(m[9]), 0);
        QCOMPARE(int(m[0]), 0);
        QCOMPARE(l.eventNear(0, 190, 260), std::optional<EventId>(EventId(1)));  // worst level first
        QCOMPARE(l.eventNear(0, 600, 800), std::optional<EventId>(EventId(3)));
        QVERIFY(!l.eventNear(0, 400, 500));
    }

    // One role rule for every view: core/present's, the one the engine gives
    // evidence items. An unlinked bad-node event is "interesting" there, so it
    // must not be drawn as a symptom here (it was, by event kind).
    void levelFollowsTheEnginesRoleRule()
    {
        Result r;
        SymptomEvent e;
        e.id = EventId(3);
        e.kind = EventKind::BadNode;
        QCOMPARE(style::eventLevel(e, r), style::Interesting);
        r.rootCause = RootCause{};
        r.rootCause->event = EventId(9);
        r.edges.push_back({EventId(9), EventId(3), "rule", ""});       // downstream of the root
        QCOMPARE(style::eventLevel(e, r), style::Symptom);
        e.suppressed = true;
        QCOMPARE(style::eventLevel(e, r), style::Suppressed);  // suppressed is context, downstream or not
        e.evidenceRole = EvidenceRole::Interesting;  // report rules demoted it
        QCOMPARE(style::eventLevel(e, r), style::Interesting);
        e.evidenceRole = EvidenceRole::Context;
        QCOMPARE(style::eventLevel(e, r), style::Suppressed);
        e.evidenceRole.reset();
        r.rootCause->event = EventId(3);
        QCOMPARE(style::eventLevel(e, r), style::Root);
        const present::EventRoles roles(r);
        QVERIFY(roles(e) == EvidenceRole::Root);
    }

    void hostileTimesStayOffTheAxis()
    {
        TimelineLanes l;
        l.add("a", -1, {INT64_MAX, TimeBasis::Absolute, {}}, style::Symptom, EventId(0));
        l.add("a", -1, {INT64_MIN + 1, TimeBasis::Absolute, {}}, style::Symptom, EventId(1));
        l.add("a", -1, {1'700'000'000'000'000'000, TimeBasis::Absolute, {}}, style::Root, EventId(2));
        l.finish();
        QCOMPARE(l.eventTime(EventId(0)), kNoTime);
        QCOMPARE(l.minTime(), l.maxTime());
        FocusState focus;
        TimelineView v(&focus);
        v.resize(800, 300);
        v.setLanes(std::move(l));
        v.fitAll();
        v.zoomBy(1e9);
        QTest::keyClick(&v, Qt::Key_Right);
        (void)v.grab();
        QVERIFY(v.range().end > v.range().start);
    }

    void incidentIgnoresFarContext()
    {
        constexpr int64_t s = 1'000'000'000;
        TimelineLanes l;
        l.add("a", -1, {0, TimeBasis::Absolute, {}}, style::Interesting, EventId(0));  // an hour before: context, not incident
        l.add("b", -1, {3600 * s, TimeBasis::Absolute, {}}, style::Root, EventId(1));
        l.add("c", -1, {3700 * s, TimeBasis::Absolute, {}}, style::Symptom, EventId(2));
        l.add("c", -1, {3800 * s, TimeBasis::Absolute, {}}, style::Suppressed, EventId(3));
        l.finish();
        QVERIFY(l.incidentStart() > 3500 * s && l.incidentStart() < 3600 * s);
        QVERIFY(l.incidentEnd() > 3700 * s && l.incidentEnd() < 3800 * s);
        // Without a root cause every non-suppressed event is the incident.
        TimelineLanes u;
        u.add("a", -1, {0, TimeBasis::Absolute, {}}, style::Interesting, EventId(0));
        u.add("c", -1, {3700 * s, TimeBasis::Absolute, {}}, style::Symptom, EventId(1));
        u.finish();
        QVERIFY(u.incidentStart() < 0 && u.incidentEnd() > 3700 * s);
    }

    void widgetHighlightsRootLane()
    {
        FocusState focus;
        TimelineView v(&focus);
        v.resize(1000, 400);
        v.setAnalysis(m_analysis);
        const TimelineLanes& l = v.lanes();
        // The root node opens on its ranks, and the root rank lane is marked.
        QVERIFY(l.isExpanded(l.rootLane()));
        const int rootRow = rowOf(l, "node02");
        QVERIFY(rootRow >= 0);
        QVERIFY(l.lane(l.laneAtRow(rootRow)).root);
        QVERIFY(l.lane(l.laneAtRow(rowOf(l, "node02/7"))).root);
        int rootRows = 0;
        for (int r = 0; r < l.rowCount(); ++r)
            rootRows += l.lane(l.laneAtRow(r)).root ? 1 : 0;
        QCOMPARE(rootRows, 2);
        // The initial window (fit to incident) contains the root cause.
        QVERIFY(v.range().start < test::kRootTimeNs && v.range().end > test::kRootTimeNs);
    }

    // Each visible lane is painted by the delegate from the view's lane model (Hotspot's TimeLineDelegate),
    // and the model keeps its contract while the view rebuilds, sorts and expands.
    void lanesArePaintedByTheDelegateFromTheModel()
    {
        FocusState focus;
        TimelineView v(&focus);
        QAbstractItemModelTester tester(v.laneModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        v.resize(1000, 400);
        v.setAnalysis(m_analysis);
        QCOMPARE(v.laneModel()->lanes(), &v.lanes());
        QCOMPARE(v.laneModel()->rowCount(), test::kNodes);
        v.grab();
        QVERIFY(v.lastPaintedLanes() > 0);
        QCOMPARE(v.laneDelegate()->cachedLanes(), v.lastPaintedLanes());  // one geometry per painted lane
        v.setSortByFirstAnomaly(false);
        v.setAllExpanded(true);
        v.setLaneNotes({{QStringLiteral("node02"), QStringLiteral("slow NIC")}});
        QCOMPARE(v.laneModel()->indexOfKey(QStringLiteral("node02")).data(TimelineLaneModel::NoteRole).toString(),
                 QStringLiteral("slow NIC"));
        v.setAnalysis(m_analysis);  // a new analysis: one reset, the notes stay with their lanes
        QCOMPARE(v.laneNotes().value(QStringLiteral("node02")), QStringLiteral("slow NIC"));
        v.setAnalysis(nullptr);
        QCOMPARE(v.laneModel()->rowCount(), 0);
    }

    void ambiguousMarksEachContender()
    {
        QTemporaryDir dir;
        auto a = test::makeIncident(dir.path(), true);
        TimelineLanes l;
        l.build(a->result);
        QVERIFY(l.lane(l.laneOfKey(QStringLiteral("node02"))).root);
        QVERIFY(l.lane(l.laneOfKey(QStringLiteral("node03"))).root);
        QVERIFY(!l.lane(l.laneOfKey(QStringLiteral("node01"))).root);
        // The earlier contender's node is the one opened first.
        QCOMPARE(l.lane(l.rootLane()).key, QStringLiteral("node03"));
        QCOMPARE(l.levelOfEvent(EventId(16)), style::Root);
    }

    void clickSelectsEvent()
    {
        FocusState focus;
        TimelineView v(&focus);
        v.resize(1000, 400);
        v.setAnalysis(m_analysis);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        const auto& l = v.lanes();
        const int row = rowOf(l, "node02/7");
        const int x = TimelineView::kLabelWidth
            + int(timecoords::timeToPixel(test::kRootTimeNs, v.range().start, v.range().end, v.plotWidth()));
        const int y = TimelineView::kAxisHeight + (row - v.firstVisibleRow()) * v.rowHeight() + 10;
        QTest::mouseClick(&v, Qt::LeftButton, {}, QPoint(x + 1, y));
        QCOMPARE(focus.current().event, std::optional<EventId>(EventId(test::kRootEvent)));
        QCOMPARE(focus.current().lane, QStringLiteral("node02/7"));
        // Clicking an empty spot of a lane selects the lane only.
        QTest::mouseClick(&v, Qt::LeftButton, {}, QPoint(TimelineView::kLabelWidth + 3, y));
        QCOMPARE(focus.current().lane, QStringLiteral("node02/7"));
    }

    void toolTipNamesThePlace()
    {
        FocusState focus;
        TimelineView v(&focus);
        v.setAnalysis(m_analysis);
        const QString tip = v.toolTipOf(EventId(test::kRootEvent));
        // The place as core/present writes it everywhere: node, GPU, rank.
        QVERIFY2(tip.contains(QStringLiteral("node02 GPU 3 rank 7")), qPrintable(tip));
        QVERIFY(v.toolTipOf(EventId(static_cast<uint32_t>(m_analysis->result.events.size() + 3))).isEmpty());
    }

    void wheelZoomsAroundCursor()
    {
        FocusState focus;
        TimelineView v(&focus);
        v.resize(1000, 400);
        v.setAnalysis(m_analysis);
        focus.setTimeWindow(v.range().start, v.range().end);
        const auto before = v.range();
        const QPointF pos(TimelineView::kLabelWidth + v.plotWidth() / 4.0, 100);
        const int64_t anchor = timecoords::pixelToTime(pos.x() - TimelineView::kLabelWidth, before.start, before.end, v.plotWidth());
        QWheelEvent e(pos, v.mapToGlobal(pos), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&v, &e);
        const auto after = v.range();
        QVERIFY(after.end - after.start < before.end - before.start);
        const int64_t anchorAfter = timecoords::pixelToTime(pos.x() - TimelineView::kLabelWidth, after.start, after.end, v.plotWidth());
        QVERIFY(std::abs(anchorAfter - anchor) < (before.end - before.start) / 1000);
        // Keys zoom and pan too; back returns to the window before the zoom.
        QTest::keyClick(&v, Qt::Key_Minus);
        QTest::keyClick(&v, Qt::Key_Right);
        QVERIFY(focus.canGoBack());
        focus.back();
        QCOMPARE(v.range(), before);
    }

    void focusFilterDrivesLanes()
    {
        FocusState focus;
        TimelineView v(&focus);
        v.setAnalysis(m_analysis);
        focus.setLaneFilter(QStringLiteral("node04"));
        QCOMPARE(v.lanes().rowCount(), 1);
        focus.back();
        QVERIFY(v.lanes().rowCount() > 1);
    }

    void manyLanesStayFluid()
    {
        // 10,000 lanes x 100 events = 1,000,000 events; paint must touch only visible lanes.
        TimelineLanes l;
        uint32_t id = 0;
        for (int n = 0; n < 10'000; ++n) {
            const std::string node = "n" + std::to_string(n);
            for (int i = 0; i < 100; ++i)
                l.add(node, -1, {int64_t(i) * 1'000'000'000 + n, TimeBasis::Absolute, {}}, i % 50 == 0 ? style::Symptom : style::Suppressed, EventId(static_cast<uint32_t>(id++)));
        }
        l.finish();
        FocusState focus;
        TimelineView v(&focus);
        v.resize(1200, 800);
        v.setLanes(std::move(l));
        QCOMPARE(v.lanes().rowCount(), 10'000);
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 5; ++i) {
            focus.setTimeWindow(int64_t(i) * 1'000'000'000, 100'000'000'000, fl::FocusState::History::Coalesce);
            (void)v.grab();
        }
        const qint64 ms = timer.elapsed();
        QVERIFY2(v.lastPaintedLanes() <= v.visibleRowCount() + 1, qPrintable(QString::number(v.lastPaintedLanes())));
        QVERIFY2(ms < 2500, qPrintable(QStringLiteral("5 paints took %1 ms").arg(ms)));
        // Dense lane: 1,000,000 events in one lane, aggregated per pixel.
        TimelineLanes dense;
        for (uint32_t i = 0; i < 1'000'000; ++i)
            dense.add("dense", -1, {int64_t(i) * 1000, TimeBasis::Absolute, {}}, i == 777'777 ? style::Root : style::Symptom, EventId(static_cast<uint32_t>(i)));
        dense.finish();
        std::vector<uint8_t> m;
        timer.restart();
        dense.marks(0, 0, 1'000'000'000, 1000, m);
        QVERIFY(timer.elapsed() < 200);
        QCOMPARE(int(m[777]), style::Root + 1);
        QCOMPARE(int(m[0]), style::Symptom + 1);
    }

    // "hang began" is written in the first row that is not a pinned root's or candidate's: on the ambiguous
    // sample the first rows hold the A and B candidates, over whose diamonds and labels it was written.
    void onsetLabelLeavesThePinnedLanes()
    {
        const auto a = test::ambiguousSample();
        QVERIFY(a->result.onset);
        TimelineLanes lanes;
        lanes.build(a->result);
        QVERIFY(lanes.rowCount() > 2);
        QVERIFY(lanes.lane(lanes.laneAtRow(0)).pinned);  // where the label used to sit
        const int top = TimelineView::kAxisHeight, h = TimelineView::kMinRowHeight;
        const QRectF r = onsetLabelRect(lanes, 0, lanes.rowCount(), top, h, 500, QSizeF(70, 14));
        const int row = static_cast<int>((r.center().y() - top) / h);
        QVERIFY2(!lanes.lane(lanes.laneAtRow(row)).pinned, qPrintable(QString::number(row)));
        QVERIFY(r.top() >= top + row * h && r.bottom() <= top + (row + 1) * h);
        QCOMPARE(r.left(), 504.0);
        // Nothing but pinned rows on show: the first row, as before.
        int pinned = 0;
        while (pinned < lanes.rowCount() && lanes.lane(lanes.laneAtRow(pinned)).pinned)
            ++pinned;
        QCOMPARE(onsetLabelRect(lanes, 0, pinned, top, h, 500, QSizeF(70, 14)).top(), top + (h - 14) / 2.0);
    }
};

QTEST_MAIN(TestTimeline)
#include "test_timeline.moc"
