// SPDX-License-Identifier: MIT
// Quiz mode (an exercise) on the engine's real result for samples/xid149-nccl:
// nothing on screen says the status, the domain or "root", no lane is tinted,
// nothing is selected; the timeline, evidence and raw views work; a mark on the
// initiating line scores 1 at Reveal, which then shows the verdict and Teach.
#include "views/workbench/workbenchview.h"

#include "exercise/quiz.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTextBrowser>
#include <QtTest>

using namespace fl;

namespace {

const std::string kSample = FAULTLINE_SOURCE_DIR "/samples/xid149-nccl";

// Every text a learner can read on `root`'s visible widgets: labels, buttons, tabs, text boxes, tool tips,
// item views' cells and headers.
QStringList visibleTexts(QWidget* root)
{
    QStringList out;
    QList<QWidget*> all = root->findChildren<QWidget*>();
    all.prepend(root);
    for (QWidget* w : all) {
        if (!w->isVisibleTo(root))
            continue;
        out << w->toolTip() << w->windowTitle() << w->statusTip() << w->whatsThis();
        if (auto* l = qobject_cast<QLabel*>(w))
            out << l->text();
        if (auto* b = qobject_cast<QAbstractButton*>(w))
            out << b->text();
        if (auto* g = qobject_cast<QGroupBox*>(w))
            out << g->title();
        if (auto* e = qobject_cast<QLineEdit*>(w))
            out << e->text() << e->placeholderText();
        if (auto* t = qobject_cast<QTextEdit*>(w))
            out << t->toPlainText();
        if (auto* t = qobject_cast<QPlainTextEdit*>(w))
            out << t->toPlainText();
        if (auto* c = qobject_cast<QComboBox*>(w)) // a filter's items can name a role
            for (int i = 0; i < c->count(); ++i)
                out << c->itemText(i);
        if (auto* t = qobject_cast<QTabWidget*>(w))
            for (int i = 0; i < t->count(); ++i)
                out << t->tabText(i) << t->tabToolTip(i);
        if (auto* v = qobject_cast<QAbstractItemView*>(w); v && v->model()) {
            const QAbstractItemModel* m = v->model();
            for (int c = 0; c < m->columnCount(); ++c)
                out << m->headerData(c, Qt::Horizontal).toString() << m->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
            for (int r = 0; r < m->rowCount(); ++r)
                for (int c = 0; c < m->columnCount(); ++c)
                    out << m->index(r, c).data(Qt::DisplayRole).toString() << m->index(r, c).data(Qt::ToolTipRole).toString();
        }
    }
    out.removeAll(QString());
    return out;
}

} // namespace

class TestQuiz : public QObject {
    Q_OBJECT
    std::shared_ptr<const Analysis> m_full;

private slots:
    void initTestCase()
    {
        AnalyzeOptions o;
        o.userConfigRules = false;
        m_full = std::make_shared<const Analysis>(analyze(kSample, o));
        QVERIFY(m_full->result.status == ResultStatus::Attributed);
        QVERIFY(m_full->result.domain == Domain::Nvlink);
    }

    void theQuizHidesTheVerdict()
    {
        WorkbenchView view;
        view.resize(1600, 1000);
        view.show();
        view.setQuiz(m_full, std::nullopt);
        QVERIFY(view.quizHidesVerdict());
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QStringList texts = visibleTexts(&view);
        QVERIFY(texts.size() > 20);  // the evidence table and the quiz panel are there to read
        // The words of the verdict: the status (which "unattributed" contains too), the domain, "root".
        for (const QString& t : texts)
            for (const char* word : {"attributed", "ambiguous", "nvlink", "root"})
                QVERIFY2(!t.contains(QLatin1String(word), Qt::CaseInsensitive),
                         qPrintable(QStringLiteral("'%1' in: %2").arg(word, t.left(300))));
        // Timeline: no lane tinted or pinned as the culprit's; nothing selected.
        const TimelineLanes& lanes = view.timeline()->view()->lanes();
        QVERIFY(lanes.laneCount() > 0);
        for (int i = 0; i < lanes.laneCount(); ++i) {
            QVERIFY(!lanes.lane(i).root);
            QVERIFY(!lanes.lane(i).pinned);
        }
        QCOMPARE(lanes.rootLane(), -1);
        QVERIFY(!view.focus()->current().evidence.has_value());
        QVERIFY(!view.focus()->current().event.has_value());
        // The evidence and raw views work: open a line from the evidence table.
        QVERIFY(view.evidence()->model()->rowCount() > 0);
        QVERIFY(view.openRawLine(QStringLiteral("syslog-node-04.log"), 1));
    }

    void revealScoresTheMarksThenTeaches()
    {
        WorkbenchView view;
        view.resize(1600, 1000);
        view.show();
        view.setQuiz(m_full, std::nullopt);
        view.quiz()->addMark(QStringLiteral("syslog-node-04.log"), 1);  // the Xid 63: a red herring
        view.quiz()->addMark(QStringLiteral("syslog-node-02.log"), 4);  // the Xid 149
        view.quiz()->revealButton()->click();
        QVERIFY(!view.quizHidesVerdict());
        const QString score = view.quiz()->result()->toPlainText();
        QVERIFY2(score.contains("Score 1"), qPrintable(score));
        QVERIFY2(score.contains("informational"), qPrintable(score));  // why the Xid 63 was dismissed
        QCOMPARE(view.sideTabs()->currentWidget(), static_cast<QWidget*>(view.stepper()));
        QVERIFY(view.stepper()->steps().count() > 0);
        // The verdict is back.
        QVERIFY(view.sideTabs()->indexOf(view.verdict()) >= 0);
        QVERIFY(view.centreTabs()->indexOf(view.chain()) >= 0);
    }

    void theQuizAnalysisKeepsNoDecision()
    {
        const Analysis q = exercise::quizAnalysis(*m_full);
        QVERIFY(!q.result.rootCause);
        QVERIFY(q.result.candidates.empty());
        QVERIFY(q.result.edges.empty());
        QVERIFY(q.trace.empty());
        for (const SymptomEvent& e : q.result.events) {
            QVERIFY(!e.suppressed);
            QVERIFY(!e.evidenceRole);
            QVERIFY(std::string(e.symptom).empty());  // a name is a classification: "nvlink.nvls_failure"
        }
        for (const EvidenceItem& ev : q.result.evidence)
            QVERIFY(ev.role == EvidenceRole::Interesting);
        QCOMPARE(q.result.events.size(), m_full->result.events.size());
    }
};

QTEST_MAIN(TestQuiz)
#include "test_quiz.moc"
