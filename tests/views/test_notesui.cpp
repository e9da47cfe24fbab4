// SPDX-License-Identifier: MIT
// Notes in the views: evidence note column, raw-line bookmarks in the
// gutter, lane note markers, the verdict override shown beside the
// engine's verdict, all restored when the bundle is opened again.
#include "qtplugins.h"
#include "viewfixture.h"
#include "views/workbench/workbenchview.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

class TestNotesUi : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    static QString noteCell(WorkbenchView& w, EvidenceId evidenceId)
    {
        auto* m = w.evidence()->model();
        return m->index(m->rowOfId(evidenceId), EvidenceModel::NoteColumn).data().toString();
    }

private slots:
    void initTestCase()
    {
        FL_REQUIRE_SQLITE_DRIVER();
        QStandardPaths::setTestModeEnabled(true);
    }

    void notesShowAndComeBack()
    {
        const QString bundle = m_dir.filePath(QStringLiteral("inc"));
        auto analysis = test::makeIncident(bundle);
        const EvidenceItem& ev = analysis->result.evidence.front();
        const EvidenceId evId = ev.id;
        const QString evFile = QString::fromStdString(ev.file);
        const QString lane = QStringLiteral("node02/7");
        {
            WorkbenchView w;
            w.resize(1600, 1000);
            w.setAnalysis(analysis);
            QVERIFY(w.openNotes(bundle).isEmpty());
            QSignalSpy changed(&w, &WorkbenchView::notesChanged);
            QVERIFY(noteCell(w, evId).isEmpty());
            QVERIFY(w.setEvidenceNote(evId, QStringLiteral("first sign of trouble")));
            QCOMPARE(noteCell(w, evId), QStringLiteral("first sign of trouble"));
            QVERIFY(w.toggleBookmark(evFile, ev.ref.line));
            QCOMPARE(noteCell(w, evId), QStringLiteral("★ first sign of trouble"));
            QVERIFY(w.setLaneNote(lane, QStringLiteral("this rank stopped first")));
            QCOMPARE(w.timeline()->view()->laneNotes().value(lane), QStringLiteral("this rank stopped first"));
            const QString engineBanner = w.verdict()->statusText();
            QVERIFY(w.verdict()->overrideText().isEmpty());
            QVERIFY(w.setVerdictOverride({QStringLiteral("ambiguous"), QStringLiteral("nvlink"), {}, QStringLiteral("node03"),
                                          QStringLiteral("NVLink errors on node03 seconds before"), {}}));
            QVERIFY(w.verdict()->overrideText().contains(QStringLiteral("NVLink errors on node03 seconds before")));
            QVERIFY(w.verdict()->overrideText().contains(QStringLiteral("AMBIGUOUS")));
            QCOMPARE(w.verdict()->statusText(), engineBanner);  // beside, never instead
            QCOMPARE(changed.count(), 4);
            // The raw viewer shows the bookmark of the file it has open.
            QVERIFY(w.openRawLine(evFile, ev.ref.line));
            QCOMPARE(w.raw()->view()->bookmarks().count(ev.ref.line), size_t(1));
            QVERIFY(w.setLineNote(evFile, ev.ref.line + 1, QStringLiteral("and this line")));
            QCOMPARE(w.raw()->view()->bookmarks().at(ev.ref.line + 1), QStringLiteral("and this line"));
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QDir().mkpath(QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots"));
            w.grab().save(QStringLiteral(FAULTLINE_BINARY_DIR "/screenshots/workbench-notes.png"));
        }
        QVERIFY(QFileInfo::exists(NotesStore::besidePath(bundle)));
        WorkbenchView w;
        w.setAnalysis(analysis);
        QVERIFY(w.openNotes(bundle).isEmpty());
        QCOMPARE(noteCell(w, evId), QStringLiteral("★ first sign of trouble"));
        QCOMPARE(w.timeline()->view()->laneNotes().value(lane), QStringLiteral("this rank stopped first"));
        QVERIFY(w.verdict()->overrideText().contains(QStringLiteral("node03")));
        // Toggling removes; clearing the override leaves only the engine's verdict.
        QVERIFY(w.toggleBookmark(evFile, ev.ref.line));
        QCOMPARE(noteCell(w, evId), QStringLiteral("first sign of trouble"));
        QVERIFY(w.clearVerdictOverride());
        QVERIFY(w.verdict()->overrideText().isEmpty());
        // Notes are searchable in the evidence filter.
        w.evidence()->proxy()->setText(QStringLiteral("sign of trouble"));
        QCOMPARE(w.evidence()->proxy()->rowCount(), 1);
    }

    void corruptNotesFileLeavesTheViewsWorking()
    {
        const QString bundle = m_dir.filePath(QStringLiteral("corrupt"));
        auto analysis = test::makeIncident(bundle);
        QFile f(NotesStore::besidePath(bundle));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(2000, 'Z'));
        f.close();
        WorkbenchView w;
        w.setAnalysis(analysis);
        const QString message = w.openNotes(bundle);
        QVERIFY2(message.contains(NotesStore::besidePath(bundle)), qPrintable(message));
        QSignalSpy errors(&w, &WorkbenchView::notesError);
        const EvidenceId evId = analysis->result.evidence.front().id;
        QVERIFY(!w.setEvidenceNote(evId, QStringLiteral("x")));
        QCOMPARE(errors.count(), 1);
        QVERIFY(noteCell(w, evId).isEmpty());
        QVERIFY(w.evidence()->model()->rowCount() > 0);  // the analysis is still all there
        // Save as… gives the notes a new home and they work from there.
        QVERIFY(w.saveNotesAs(m_dir.filePath(QStringLiteral("rescued.sqlite"))));
        QVERIFY(w.setEvidenceNote(evId, QStringLiteral("x")));
        QCOMPARE(noteCell(w, evId), QStringLiteral("x"));
    }
};

QTEST_MAIN(TestNotesUi)
#include "test_notesui.moc"
