// SPDX-License-Identifier: MIT
// The Teach tab walks the engine's trace of a real sample phase by phase;
// at every step the panel, the highlight and the chain graph must show
// what the trace says that phase did.
#include "viewfixture.h"
#include "present/verdict.h"
#include "views/teach/phasestepperpanel.h"
#include "views/workbench/workbenchview.h"

#include <QDir>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QAbstractItemModelTester>
#include <QTest>
#include <QTreeView>

#include <set>

using namespace fl;

class TestPhaseStepper : public QObject
{
    Q_OBJECT
    // What the stepper should write for an event: found by id, not by position.
    static QString expectedEventText(const Result& r, EventId id)
    {
        for (const SymptomEvent& e : r.events)
            if (e.id == id)
                return QString::fromStdString(e.symptom.str() + " @ " + present::place(e.node, e.gpuIndex, e.pciBus, e.rank));
        return QStringLiteral("#%1").arg(id.value);
    }

private slots:
    void classify()
    {
        QCOMPARE(PhaseSteps::classify(TraceAction::Extracted), PhaseSteps::Appeared);
        QCOMPARE(PhaseSteps::classify(TraceAction::Rewrote), PhaseSteps::Rewritten);
        QCOMPARE(PhaseSteps::classify(TraceAction::Decoded), PhaseSteps::Rewritten);
        QCOMPARE(PhaseSteps::classify(TraceAction::Suppressed), PhaseSteps::Suppressed);
        QCOMPARE(PhaseSteps::classify(TraceAction::Merged), PhaseSteps::Suppressed);
        QCOMPARE(PhaseSteps::classify(TraceAction::Linked), PhaseSteps::Linked);
        QCOMPARE(PhaseSteps::classify(TraceAction::Role), PhaseSteps::Ranked);
        QCOMPARE(PhaseSteps::classify(TraceAction::Chose), PhaseSteps::Ranked);
        QCOMPARE(PhaseSteps::classify(TraceAction::Emitted), PhaseSteps::Other);
    }

    void stepsThroughASample()
    {
        const QString sample = QStringLiteral(FAULTLINE_SOURCE_DIR "/samples/xid149-nccl");
        if (!QDir(sample).exists())
            QSKIP("sample xid149-nccl not in this checkout");
        auto a = std::make_shared<Analysis>(analyze(sample.toStdString(), AnalyzeOptions{}));
        QVERIFY(!a->trace.empty());

        WorkbenchView w;
        w.resize(1600, 1000);
        w.setAnalysis(a);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        PhaseStepperPanel* s = w.stepper();
        // Highlights only while the tab is shown.
        QVERIFY(w.focus()->highlight().empty());
        w.sideTabs()->setCurrentWidget(s);
        w.centreTabs()->setCurrentWidget(w.chain());

        QCOMPARE(s->currentIndex(), 0);
        QVERIFY(!s->prevButton()->isEnabled());
        QVERIFY(!s->firstButton()->isEnabled());
        const int n = s->steps().count();
        QVERIFY(n >= 10);
        QCOMPARE(s->steps().step(0).phase, QStringLiteral("extract"));
        QCOMPARE(s->steps().step(n - 1).phase, QStringLiteral("report"));
        QVERIFY(s->steps().indexOf(QStringLiteral("outcome")) > s->steps().indexOf(QStringLiteral("refine.final")));

        int sawLinked = 0, sawChosen = 0, sawExtracted = 0;
        std::set<QString> visited;
        for (int i = 0; i < n; ++i) {
            QCOMPARE(s->currentIndex(), i);
            const QString phase = s->steps().step(i).phase;
            visited.insert(phase);
            QVERIFY2(s->phaseText().endsWith(phase), qPrintable(s->phaseText()));
            // Independently from the trace: which rows and events this phase has.
            std::vector<const TraceStep*> rows;
            std::set<EventId> events, linked;
            for (const TraceStep& t : a->trace) {
                if (QString::fromStdString(std::string(toString(t.phase))) != phase)
                    continue;
                rows.push_back(&t);
                for (EventId id : t.events) {
                    events.insert(id);
                    if (t.action == TraceAction::Linked)
                        linked.insert(id);
                }
                sawChosen += t.action == TraceAction::Chose;
                sawExtracted += t.action == TraceAction::Extracted ? int(t.events.size()) : 0;
            }
            sawLinked += int(linked.size());
            const QAbstractItemModel* m = s->items()->model();
            QCOMPARE(m->rowCount(), int(rows.size()));
            for (int r = 0; r < int(rows.size()); ++r) {
                QCOMPARE(m->index(r, TraceStepModel::RuleColumn).data().toString(),
                         QString::fromStdString(rows[size_t(r)]->rule));
                // Its events by symptom and place, the place as core/present writes it everywhere.
                if (!rows[size_t(r)]->events.empty())
                    QVERIFY(m->index(r, TraceStepModel::EventsColumn).data().toString().startsWith(
                        expectedEventText(a->result, rows[size_t(r)]->events.front())));
            }
            const auto& hl = w.focus()->highlight();
            QCOMPARE(std::set<EventId>(hl.begin(), hl.end()), events);
            QVERIFY(s->countsText().contains(QStringLiteral("linked %1").arg(linked.size())));
            // The chain graph rings exactly the highlighted events it draws.
            int inChain = 0;
            for (EventId e : events)
                inChain += w.chain()->itemForEvent(e) ? 1 : 0;
            QCOMPARE(w.chain()->highlightedItemCount(), inChain);
            QCOMPARE(s->nextButton()->isEnabled(), i + 1 < n);
            if (i + 1 < n)
                QTest::mouseClick(s->nextButton(), Qt::LeftButton);
        }
        QCOMPARE(int(visited.size()), n);
        QVERIFY(sawExtracted > 0);
        QVERIFY(sawLinked > 0);   // the sample's NCCL timeouts are linked to the Xid
        QCOMPARE(sawChosen, 1);   // attributed: the outcome chose once

        // The timeline rings the extract step's events when it shows them.
        QTest::mouseClick(s->firstButton(), Qt::LeftButton);
        QCOMPARE(s->currentIndex(), 0);
        w.centreTabs()->setCurrentWidget(w.timeline());
        w.timeline()->view()->fitAll();
        w.timeline()->view()->grab();
        QVERIFY(w.timeline()->view()->lastPaintedHighlights() > 0);
        QDir().mkpath(QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots"));
        s->setStep(s->steps().indexOf(QStringLiteral("refine")));
        w.grab().save(QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots/workbench-teach.png"));
        QTest::mouseClick(s->lastButton(), Qt::LeftButton);
        QCOMPARE(s->currentIndex(), n - 1);
        QVERIFY(!s->nextButton()->isEnabled());
        // Leaving the tab clears the highlight; the timeline draws no rings.
        w.sideTabs()->setCurrentWidget(w.verdict());
        QVERIFY(w.focus()->highlight().empty());
        w.timeline()->view()->grab();
        QCOMPARE(w.timeline()->view()->lastPaintedHighlights(), 0);
        QCOMPARE(w.chain()->highlightedItemCount(), 0);
    }

    // A result read back from a compact document (the service's) holds only
    // some events: ids are not positions in Result::events. The stepper must
    // name the event the trace names, never the one at that position.
    void sparseEventIdsNameTheRightEvent()
    {
        QTemporaryDir dir;
        auto a = test::makeIncident(dir.path());
        Result& r = a->result;
        QVERIFY(r.events.size() > 6);
        const EventId dropped = r.events[2].id, named = r.events[4].id, beyond(static_cast<uint32_t>(r.events.size() + 5));
        r.events.erase(r.events.begin() + 2); // position 3 now holds id 4, position 4 id 5
        a->trace = {{Phase::Filter, "rule.a", TraceAction::Suppressed, {named}, "", ""},
                    {Phase::Filter, "rule.b", TraceAction::Suppressed, {dropped}, "", ""},
                    {Phase::Filter, "rule.c", TraceAction::Suppressed, {beyond}, "", ""}};
        FocusState focus;
        PhaseStepperPanel s(&focus);
        s.setAnalysis(a);
        s.setStep(s.steps().indexOf(QStringLiteral("filter")));
        const TraceStepModel* m = s.rowModel();
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(m->index(0, TraceStepModel::EventsColumn).data().toString(), expectedEventText(r, named));
        QVERIFY(!expectedEventText(r, named).startsWith(QLatin1Char('#')));
        // not in this result
        QCOMPARE(m->index(1, TraceStepModel::EventsColumn).data().toString(), QStringLiteral("#%1").arg(dropped.value));
        QCOMPARE(m->index(2, TraceStepModel::EventsColumn).data().toString(), QStringLiteral("#%1").arg(beyond.value));
        // A click on a row selects its first event, named or not.
        s.items()->clicked(m->index(0, TraceStepModel::DetailColumn));
        QCOMPARE(focus.current().event, std::optional(named));
    }

    // The step rows are a view on TraceStepModel: a step of several events names the first six and counts the
    // rest, colours what it suppressed, and a new phase or analysis resets the rows under the model tester.
    void theStepRowsAreTheModelsView()
    {
        QTemporaryDir dir;
        auto a = test::makeIncident(dir.path());
        std::vector<EventId> many;
        for (const SymptomEvent& e : a->result.events)
            many.push_back(e.id);
        QVERIFY(many.size() > TraceStepModel::kMaxEventsShown);
        a->trace = {{Phase::Filter, "rule.many", TraceAction::Suppressed, many, "burst", ""},
                    {Phase::Filter, "engine", TraceAction::SetFields, {}, "", ""},
                    {Phase::Filter, "rule.role", TraceAction::Role, {many[2]}, "", "symptom"},
                    {Phase::Refine, "rule.link", TraceAction::Linked, {many[0], many[1]}, "", ""}};
        FocusState focus;
        PhaseStepperPanel s(&focus);
        QAbstractItemModelTester tester(s.rowModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        s.setAnalysis(a);
        QCOMPARE(s.items()->model(), static_cast<QAbstractItemModel*>(s.rowModel()));
        s.setStep(s.steps().indexOf(QStringLiteral("filter")));
        const TraceStepModel* m = s.rowModel();
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(m->columnCount(), int(TraceStepModel::NUM_COLUMNS));
        // A filter's role change is no root: not drawn in the root's red (only the outcome's choice is).
        QVERIFY(m->index(2, TraceStepModel::ChangeColumn).data(Qt::ForegroundRole).value<QBrush>().color() !=
                style::levelColor(style::Root));
        const QString events = m->index(0, TraceStepModel::EventsColumn).data().toString();
        QVERIFY2(events.endsWith(QStringLiteral("+%1 more").arg(many.size() - TraceStepModel::kMaxEventsShown)),
                 qPrintable(events));
        QCOMPARE(m->index(0, TraceStepModel::EventsColumn).data(Qt::ToolTipRole).toString().count(QLatin1Char('\n')),
                 int(TraceStepModel::kMaxEventsShown));
        QCOMPARE(m->index(0, TraceStepModel::ChangeColumn).data().toString(), PhaseSteps::changeName(PhaseSteps::Suppressed));
        QCOMPARE(m->index(0, TraceStepModel::ChangeColumn).data(TraceStepModel::ChangeRole).toInt(), int(PhaseSteps::Suppressed));
        QVERIFY(m->index(0, TraceStepModel::ChangeColumn).data(Qt::ForegroundRole).isValid());
        QCOMPARE(m->index(0, TraceStepModel::ChangeColumn).data(TraceStepModel::EventRole).toUInt(), many[0].value);
        QVERIFY(m->index(0, TraceStepModel::DetailColumn).data().toString().endsWith(QStringLiteral(" — burst")));
        QVERIFY(!m->index(1, TraceStepModel::ChangeColumn).data(TraceStepModel::EventRole).isValid());  // names no event
        QCOMPARE(m->index(1, TraceStepModel::RuleColumn).data(Qt::ToolTipRole).toString(), QStringLiteral("engine"));
        s.setStep(s.steps().indexOf(QStringLiteral("refine")));
        QCOMPARE(m->rowCount(), 1);
        QCOMPARE(m->index(0, TraceStepModel::RuleColumn).data().toString(), QStringLiteral("rule.link"));
        s.setAnalysis(nullptr);
        QCOMPARE(m->rowCount(), 0);
    }

    // The stepper is a view on PhaseStepModel: its list holds every phase, follows the buttons, and a click on
    // a phase goes there.
    void thePhaseListIsTheModelsView()
    {
        QTemporaryDir dir;
        auto a = test::makeIncident(dir.path());
        FocusState focus;
        PhaseStepperPanel s(&focus);
        QAbstractItemModelTester tester(s.stepModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        s.setAnalysis(a);
        QCOMPARE(s.phaseList()->model(), static_cast<QAbstractItemModel*>(s.stepModel()));
        QCOMPARE(s.stepModel()->rowCount(), s.steps().count());
        QVERIFY(s.steps().count() > 3);
        QCOMPARE(s.phaseList()->currentIndex().row(), 0);
        s.next();
        QCOMPARE(s.phaseList()->currentIndex().row(), 1);
        const int filter = s.stepModel()->rowOfPhase(QStringLiteral("filter"));
        QVERIFY(filter >= 0);
        s.phaseList()->setCurrentIndex(s.stepModel()->index(filter, 0));
        QCOMPARE(s.currentIndex(), filter);
        QVERIFY(s.phaseText().endsWith(QStringLiteral("filter")));
        s.setAnalysis(nullptr);
        QCOMPARE(s.stepModel()->rowCount(), 0);
    }
};

QTEST_MAIN(TestPhaseStepper)
#include "test_phasestepper.moc"
