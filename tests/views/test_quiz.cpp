// SPDX-License-Identifier: MIT
// Quiz mode (an exercise) on the engine's real result for samples/xid149-nccl:
// nothing on screen says the status, the domain or "root", no lane is tinted,
// nothing is selected; the timeline, evidence and raw views work; a mark on the
// initiating line scores 1 at Reveal, which then shows the verdict and Teach.
#include "viewfixture.h"
#include "views/workbench/workbenchview.h"

#include "exercise/library.h"
#include "exercise/quiz.h"
#include "store/notes_store.h"
#include "views/teach/exercisesdialog.h"

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
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QAbstractItemModelTester>
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
    QTemporaryDir m_data;  // $XDG_DATA_HOME: where Reveal keeps scores (never the user's own)

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
        qputenv("LOGNAME", "learner-a");  // the learner field's default; a login name of "root" would read as the answer
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

    // Reveal keeps the learner's score with the notes, under their name (issue #44 item 4), where File →
    // Exercises… finds it as a past score of this library entry.
    void revealKeepsTheLearnersScore()
    {
        const QString scores = QString::fromStdString(exercise::defaultScoresPath());
        QVERIFY2(scores.startsWith(m_data.path()), qPrintable(scores));
        WorkbenchView view;
        QCOMPARE(view.scoresPath(), scores);
        QCOMPARE(view.quiz()->learner(), QStringLiteral("learner-a"));
        view.setQuiz(m_full, std::nullopt);
        view.quiz()->learnerEdit()->setText(QStringLiteral("alice"));
        view.quiz()->addMark(QStringLiteral("syslog-node-02.log"), 4);
        view.quiz()->revealButton()->click();
        QVERIFY2(view.quiz()->result()->toPlainText().contains(QStringLiteral("Score kept for alice on xid149-nccl")),
                 qPrintable(view.quiz()->result()->toPlainText()));

        store::NotesDb db;
        QVERIFY2(db.open(scores.toStdString(), store::NotesDb::Mode::ReadOnly), db.error().c_str());
        const auto alice = db.attempts("alice");
        QCOMPARE(alice.size(), size_t(1));
        QCOMPARE(alice[0].exercise, std::string("xid149-nccl"));
        QCOMPARE(alice[0].score, 1.0);
        QCOMPARE(alice[0].marks, std::string("syslog-node-02.log:4"));
        db.close();

        ExercisesDialog library(exercise::readLibrary(exercise::defaultLibraryPath()), {});
        QAbstractItemModelTester tester(library.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QString past;
        for (int r = 0; r < library.model()->rowCount(); ++r)
            if (library.model()->index(r, ExerciseLibraryModel::ExerciseColumn).data().toString() == QStringLiteral("xid149-nccl"))
                past = library.model()->index(r, ExerciseLibraryModel::ScoresColumn).data().toString();
        QVERIFY2(past.contains(QStringLiteral("alice 1")), qPrintable(past));

        // No name: nothing kept, and the panel says so.
        QVERIFY2(db.open(scores.toStdString(), store::NotesDb::Mode::ReadOnly), db.error().c_str());
        const size_t before = db.attempts().size();  // the other tests' reveals are kept too (as learner-a)
        db.close();
        WorkbenchView anonymous;
        anonymous.setQuiz(m_full, std::nullopt);
        anonymous.quiz()->learnerEdit()->clear();
        anonymous.quiz()->revealButton()->click();
        QVERIFY(anonymous.quiz()->result()->toPlainText().contains(QStringLiteral("no learner name")));
        QVERIFY2(db.open(scores.toStdString(), store::NotesDb::Mode::ReadOnly), db.error().c_str());
        QCOMPARE(db.attempts().size(), before);
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

    // An ambiguous exercise: what would decide names the tied nodes, so it is part of the hidden answer, and no
    // widget says it (the Explanation, the Verdict and Compare show it after Reveal).
    void theQuizHidesWhatWouldDecide()
    {
        const auto full = test::ambiguousSample();
        QVERIFY(!full->result.wouldDecide.empty());
        QVERIFY(exercise::quizAnalysis(*full).result.wouldDecide.empty());
        WorkbenchView view;
        view.resize(1600, 1000);
        view.show();
        view.setQuiz(full, std::nullopt);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        for (const QString& t : visibleTexts(&view))
            for (const char* words : {"would decide", "sub-second", "clock offset"})
                QVERIFY2(!t.contains(QLatin1String(words), Qt::CaseInsensitive), qPrintable(t.left(300)));
        view.quiz()->revealButton()->click();
        view.stepper()->last();  // Reveal starts the Teach replay at step 1, where nothing is decided yet
        const auto* decide = view.explanation()->findChild<QLabel*>(QStringLiteral("wouldDecide"));
        QVERIFY(decide);
        QVERIFY2(decide->text().contains(QStringLiteral("node-01")), qPrintable(decide->text()));
    }
};

QTEST_MAIN(TestQuiz)
#include "test_quiz.moc"
