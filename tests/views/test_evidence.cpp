// SPDX-License-Identifier: MIT
#include "viewfixture.h"
#include "views/workbench/workbenchview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

class TestEvidence : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::shared_ptr<Analysis> m_analysis;

    // Proxy row of the evidence with that id.
    static int proxyRow(EvidencePanel* p, const QString& id)
    {
        for (int r = 0; r < p->proxy()->rowCount(); ++r)
            if (p->proxy()->index(r, 0).data(EvidenceModel::IdRole).toString() == id)
                return r;
        return -1;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_analysis = test::makeIncident(m_dir.path());
    }

    void modelIsSound()
    {
        EvidenceModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnalysis(m_analysis);
        QCOMPARE(model.rowCount(), int(m_analysis->result.evidence.size()));
        EvidenceFilterProxy proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setRole(int(EvidenceRole::Root));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setRole(-1);
        proxy.setNode(QStringLiteral("node03"));
        // node03: ranks 8-11 timeouts + the Xid 63.
        QCOMPARE(proxy.rowCount(), 5);
        proxy.setText(QStringLiteral("row remapper"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setNode({});
        proxy.setText(QStringLiteral("WATCHDOG"));
        QCOMPARE(proxy.rowCount(), test::kRanks - 1);
        proxy.setText({});
        proxy.setSource(int(SourceKind::SysLog));
        QCOMPARE(proxy.rowCount(), 3);  // Xid 79, Xid 63, IB error
    }

    void clickOpensRawViewerAtLine()
    {
        WorkbenchView w;
        w.resize(1400, 900);
        w.setAnalysis(m_analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        EvidencePanel* ev = w.evidence();
        // Pick a symptom on rank 12: its own file, its own line.
        const EvidenceItem* target = nullptr;
        for (const auto& e : m_analysis->result.evidence)
            if (e.rank == 12)
                target = &e;
        QVERIFY(target);
        const int row = proxyRow(ev, QString::fromStdString(toString(target->id)));
        QVERIFY(row >= 0);
        QTableView* t = ev->table();
        t->scrollTo(t->model()->index(row, 0));
        const QRect cell = t->visualRect(t->model()->index(row, EvidenceModel::ExcerptColumn));
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, cell.center());

        RawFileView* raw = w.raw()->view();
        QCOMPARE(w.focus()->current().evidence, std::optional(target->id));
        QCOMPARE(raw->displayName(), QStringLiteral("logs/rank12.log"));
        QCOMPARE(raw->diskPath(), QString::fromStdString(m_analysis->bundle.files[target->ref.file.value].diskPath));
        QCOMPARE(raw->currentLine(), uint64_t(target->ref.line));
        QCOMPARE(raw->highlight().first, target->ref.offset);
        QVERIFY(raw->lineText(raw->currentLine()).contains(QStringLiteral("[Rank 12] Watchdog caught")));
        // The timeline follows: the event of that evidence is selected.
        QCOMPARE(w.focus()->current().event, std::optional<EventId>(target->event));
        QCOMPARE(w.focus()->current().lane, QStringLiteral("node04/12"));

        // F8-style stepping moves to another evidence and another file; back returns.
        ev->selectNext();
        QVERIFY(w.focus()->current().evidence != target->id);
        w.focus()->back();
        QCOMPARE(raw->displayName(), QStringLiteral("logs/rank12.log"));
        QCOMPARE(raw->currentLine(), uint64_t(target->ref.line));
    }

    void rootEvidenceOpensFirst()
    {
        WorkbenchView w;
        w.setAnalysis(m_analysis);
        QCOMPARE(w.focus()->current().evidence, std::optional(EvidenceId(0)));
        QCOMPARE(w.raw()->view()->displayName(), QStringLiteral("node02/syslog"));
        QVERIFY(w.raw()->view()->lineText(w.raw()->view()->currentLine()).contains(QStringLiteral("Xid")));
        QVERIFY(!w.focus()->canGoBack());  // opening is not a navigation step
    }

    // A timeline of a few lanes does not sit over an empty panel: the lanes
    // grow and the splitter gives the rest of the height to the evidence and
    // raw lines under it (before: ~60 % of the timeline empty below its lanes).
    void timelineLeavesLittleEmpty()
    {
        WorkbenchView w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const int rawBefore = w.raw()->height();
        w.setAnalysis(m_analysis);
        QTRY_VERIFY(w.jobs()->pending() == 0);
        QTest::qWait(20);
        const TimelineView* t = w.timeline()->view();
        const int used = TimelineView::kAxisHeight + t->lanes().rowCount() * t->rowHeight();
        const int empty = t->height() - used;
        QVERIFY2(empty * 100 < t->height() * 25,
                 qPrintable(QStringLiteral("%1 of %2 px empty under %3 lanes of %4 px")
                                .arg(empty).arg(t->height()).arg(t->lanes().rowCount()).arg(t->rowHeight())));
        QVERIFY2(w.raw()->height() > rawBefore, "the raw lines got the height the timeline did not need");
    }

    void filtersFromWidgets()
    {
        EvidencePanel p(new FocusState(this));
        p.setAnalysis(m_analysis);
        p.roleFilter()->setCurrentIndex(p.roleFilter()->findData(int(EvidenceRole::Symptom)));
        QCOMPARE(p.proxy()->rowCount(), test::kRanks - 1);
        p.textFilter()->setText(QStringLiteral("[Rank 3]"));
        QCOMPARE(p.proxy()->rowCount(), 1);
    }
};

QTEST_MAIN(TestEvidence)
#include "test_evidence.moc"
