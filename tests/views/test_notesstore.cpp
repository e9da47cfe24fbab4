// SPDX-License-Identifier: MIT
// The reviewer notes store and the investigation history, headless: where
// the file goes, what survives a reopen, migrations, and bad files.
#include "qtplugins.h"
#include "views/store/historystore.h"
#include "views/store/notesstore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace fl;

namespace {
QByteArray hashOf(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256) : QByteArray();
}

// Runs statements on a raw SQLite file, to build old or foreign files.
void rawSql(const QString& path, const QStringList& statements)
{
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const QString& s : statements)
            QVERIFY2(q.exec(s), qPrintable(s));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("raw"));
}
} // namespace

class TestNotesStore : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_tmp;

    QString makeBundle(const QString& name)
    {
        const QString dir = m_tmp.filePath(name);
        QDir().mkpath(dir);
        QFile f(dir + QStringLiteral("/syslog-node-01.log"));
        f.open(QIODevice::WriteOnly);
        f.write("Mar 14 10:00:41 node-01 kernel: NVRM: Xid (PCI:0000:41:00): 79, GPU has fallen off the bus.\n");
        return dir;
    }

private slots:
    void initTestCase()
    {
        FL_REQUIRE_SQLITE_DRIVER();
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_tmp.isValid());
    }

    void createdBesideOnFirstWriteAndRestored()
    {
        const QString bundle = makeBundle(QStringLiteral("b1"));
        const QByteArray before = hashOf(bundle + QStringLiteral("/syslog-node-01.log"));
        const QString beside = NotesStore::besidePath(bundle);
        QCOMPARE(beside, QFileInfo(bundle).absoluteFilePath() + QStringLiteral(".faultline-notes.sqlite"));
        {
            NotesStore s;
            QVERIFY(s.openFor(bundle));
            QCOMPARE(s.path(), beside);
            QVERIFY(!QFileInfo::exists(beside));  // looking leaves nothing behind
            QVERIFY(s.bookmarks().empty());
            QVERIFY(!s.hasNotes());
            QVERIFY(s.addBookmark(QStringLiteral("syslog-node-01.log"), 1, QStringLiteral("the Xid")));
            QVERIFY(QFileInfo::exists(beside));
            QVERIFY2(s.addBookmark(QStringLiteral("applog-rank0.log"), 12), qPrintable(s.error()));
            QVERIFY(s.setNote(NotesStore::kEvidence, QStringLiteral("ev-0003"), QStringLiteral("driver 535 known bug"),
                              QStringLiteral("syslog-node-01.log"), 1));
            QVERIFY(s.setNote(NotesStore::kLane, QStringLiteral("node-01/3"), QStringLiteral("rank 3 hung first")));
            QVERIFY(s.setVerdictOverride({QStringLiteral("attributed"), QStringLiteral("gpu"), QStringLiteral("gpu_lost"),
                                          QStringLiteral("node-01"), QStringLiteral("seen on the console"), {}}));
            QCOMPARE(s.schemaVersion(), NotesStore::kSchemaVersion);
        }
        NotesStore s;
        QVERIFY(s.openFor(bundle));
        QVERIFY(s.isOpen());
        const auto marks = s.bookmarks();
        QCOMPARE(marks.size(), size_t(2));
        QCOMPARE(marks[0].file, QStringLiteral("applog-rank0.log"));  // sorted by file
        QCOMPARE(marks[1].note, QStringLiteral("the Xid"));
        QCOMPARE(s.bookmarks(QStringLiteral("syslog-node-01.log")).size(), size_t(1));
        QCOMPARE(s.note(NotesStore::kEvidence, QStringLiteral("ev-0003")), QStringLiteral("driver 535 known bug"));
        QCOMPARE(s.notes(NotesStore::kEvidence).front().line, quint64(1));
        QCOMPARE(s.note(NotesStore::kLane, QStringLiteral("node-01/3")), QStringLiteral("rank 3 hung first"));
        const auto o = s.verdictOverride();
        QVERIFY(o);
        QCOMPARE(o->rootNode, QStringLiteral("node-01"));
        QCOMPARE(o->reason, QStringLiteral("seen on the console"));
        QVERIFY(o->created.isValid());
        QVERIFY(s.hasNotes());
        // Edits and removals persist too; the evidence is untouched.
        QVERIFY(s.setNote(NotesStore::kLane, QStringLiteral("node-01/3"), QString()));
        QVERIFY(s.removeBookmark(QStringLiteral("applog-rank0.log"), 12));
        QVERIFY(s.clearVerdictOverride());
        QVERIFY(!s.verdictOverride());
        QCOMPARE(s.notes().size(), size_t(1));
        QCOMPARE(hashOf(bundle + QStringLiteral("/syslog-node-01.log")), before);
        QCOMPARE(QDir(bundle).entryList(QDir::Files).size(), 1);
    }

    void overrideNeedsReason()
    {
        NotesStore s;
        QVERIFY(s.openFor(makeBundle(QStringLiteral("b2"))));
        QVERIFY(!s.setVerdictOverride({QStringLiteral("ambiguous"), {}, {}, {}, QStringLiteral("   "), {}}));
        QVERIFY(!s.verdictOverride());
        QVERIFY(!s.addBookmark(QString(), 3));
        QVERIFY(!s.addBookmark(QStringLiteral("f.log"), 0));
    }

    void fallsBackToDataFolderWhenBesideIsNotWritable()
    {
        // A bundle whose parent is not a folder we can write in: a plain file stands in.
        QFile blocker(m_tmp.filePath(QStringLiteral("not-a-dir")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const QString bundle = blocker.fileName() + QStringLiteral("/bundle.tar.gz");
        NotesStore s;
        QVERIFY(s.openFor(bundle));
        QCOMPARE(s.path(), NotesStore::fallbackPath(bundle));
        QVERIFY(s.path().startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
        QVERIFY(s.addBookmark(QStringLiteral("x.log"), 5));
        QVERIFY(QFileInfo::exists(s.path()));
        // Keyed by the absolute path: another bundle gets another file.
        QVERIFY(NotesStore::fallbackPath(bundle) != NotesStore::fallbackPath(bundle + QStringLiteral("x")));
        NotesStore again;
        QVERIFY(again.openFor(bundle));
        QCOMPARE(again.bookmarks().size(), size_t(1));
    }

    void migratesOldSchemaIdempotently()
    {
        const QString bundle = makeBundle(QStringLiteral("b3"));
        const QString db = NotesStore::besidePath(bundle);
        rawSql(db, {QStringLiteral("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
                    QStringLiteral("INSERT INTO meta VALUES ('application', 'faultline-notes'), ('schema_version', '1')"),
                    QStringLiteral("CREATE TABLE bookmarks (file TEXT NOT NULL, line INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '',"
                                   " created TEXT NOT NULL, PRIMARY KEY (file, line))"),
                    QStringLiteral("CREATE TABLE notes (kind TEXT NOT NULL, target TEXT NOT NULL, text TEXT NOT NULL,"
                                   " file TEXT NOT NULL DEFAULT '', line INTEGER NOT NULL DEFAULT 0, updated TEXT NOT NULL,"
                                   " PRIMARY KEY (kind, target))"),
                    QStringLiteral("INSERT INTO bookmarks VALUES ('a.log', 7, 'old note', '2025-01-01T00:00:00.000Z')")});
        for (int pass = 0; pass < 2; ++pass) {
            NotesStore s;
            QVERIFY2(s.openFor(bundle), qPrintable(s.error()));
            QCOMPARE(s.schemaVersion(), store::kNotesSchemaVersion);
            QCOMPARE(s.bookmarks().size(), size_t(1));
            QCOMPARE(s.bookmarks().front().note, QStringLiteral("old note"));
            QVERIFY(s.setVerdictOverride({QStringLiteral("unattributed"), {}, {}, {}, QStringLiteral("pass %1").arg(pass), {}}));
        }
        NotesStore s;
        QVERIFY(s.openFor(bundle));
        QCOMPARE(s.verdictOverride()->reason, QStringLiteral("pass 1"));
    }

    void badFilesGiveAMessageAndNoNotes_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expect");
        QTest::newRow("garbage") << "garbage" << "not a SQLite database";
        QTest::newRow("truncated") << "truncated" << "";
        QTest::newRow("foreign") << "foreign" << "not a Faultline notes file";
        QTest::newRow("newer") << "newer" << "newer than";
    }

    void badFilesGiveAMessageAndNoNotes()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expect);
        const QString bundle = makeBundle(QStringLiteral("bad-") + kind);
        const QString db = NotesStore::besidePath(bundle);
        if (kind == QLatin1String("garbage")) {
            QFile f(db);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, '\x7f'));
        } else if (kind == QLatin1String("truncated")) {
            // A real notes file cut in the middle: the header is right, the pages are not.
            {
                NotesStore s;
                QVERIFY(s.openFile(db));
                for (int i = 1; i <= 300; ++i)
                    QVERIFY(s.addBookmark(QStringLiteral("f.log"), quint64(i), QString(200, QLatin1Char('x'))));
            }
            QFile f(db);
            QVERIFY(f.open(QIODevice::ReadWrite));
            const QByteArray head = f.read(100);
            f.resize(0);
            f.write(head + QByteArray(8192, '\xff'));
        } else if (kind == QLatin1String("foreign")) {
            rawSql(db, {QStringLiteral("CREATE TABLE users (name TEXT)"), QStringLiteral("INSERT INTO users VALUES ('x')")});
        } else {
            rawSql(db, {QStringLiteral("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
                        QStringLiteral("INSERT INTO meta VALUES ('application', 'faultline-notes'), ('schema_version', '99')")});
        }
        const QByteArray before = hashOf(db);
        NotesStore s;
        QVERIFY(!s.openFor(bundle));
        QVERIFY(!s.isUsable());
        QVERIFY2(s.error().contains(db), qPrintable(s.error()));
        QVERIFY2(expect.isEmpty() || s.error().contains(expect), qPrintable(s.error()));
        // Goes on without notes: reads are empty, writes refuse, the file is left alone.
        QVERIFY(s.bookmarks().empty());
        QVERIFY(s.notes().empty());
        QVERIFY(!s.verdictOverride());
        QVERIFY(!s.addBookmark(QStringLiteral("f.log"), 1));
        QVERIFY(!s.setNote(NotesStore::kLane, QStringLiteral("n"), QStringLiteral("t")));
        QCOMPARE(hashOf(db), before);
        // Save as… starts a clean file elsewhere.
        const QString elsewhere = m_tmp.filePath(QStringLiteral("rescue-") + kind + QStringLiteral(".sqlite"));
        QVERIFY2(s.saveAs(elsewhere), qPrintable(s.error()));
        QVERIFY(s.addBookmark(QStringLiteral("f.log"), 1));
        QCOMPARE(s.path(), elsewhere);
    }

    void saveAsCopiesEverything()
    {
        const QString bundle = makeBundle(QStringLiteral("b4"));
        NotesStore s;
        QVERIFY(s.openFor(bundle));
        QVERIFY(s.addBookmark(QStringLiteral("a.log"), 3, QStringLiteral("n1")));
        QVERIFY(s.setNote(NotesStore::kLane, QStringLiteral("node-02"), QStringLiteral("n2")));
        QVERIFY(s.setVerdictOverride({QStringLiteral("ambiguous"), QStringLiteral("network"), {}, {}, QStringLiteral("n3"), {}}));
        const QString copy = m_tmp.filePath(QStringLiteral("chosen/notes-copy.sqlite"));
        QVERIFY2(s.saveAs(copy), qPrintable(s.error()));
        QCOMPARE(s.path(), copy);
        NotesStore t;
        QVERIFY(t.openFile(copy));
        QCOMPARE(t.bookmarks().size(), size_t(1));
        QCOMPARE(t.note(NotesStore::kLane, QStringLiteral("node-02")), QStringLiteral("n2"));
        QCOMPARE(t.verdictOverride()->domain, QStringLiteral("network"));
        // The original is still there, unchanged by later writes to the copy.
        QVERIFY(t.addBookmark(QStringLiteral("b.log"), 9));
        NotesStore orig;
        QVERIFY(orig.openFor(bundle));
        QCOMPARE(orig.bookmarks().size(), size_t(1));
    }

    void historyKeepsInvestigations()
    {
        const QString db = m_tmp.filePath(QStringLiteral("history/history.sqlite"));
        {
            HistoryStore h(db);
            QVERIFY2(h.isUsable(), qPrintable(h.error()));
            QVERIFY(h.record(m_tmp.filePath(QStringLiteral("one")), QStringLiteral("attributed · gpu / gpu_lost"), false));
            QTest::qWait(5);
            QVERIFY(h.record(m_tmp.filePath(QStringLiteral("two")) + QStringLiteral("/"), QStringLiteral("ambiguous"), true));
            QTest::qWait(5);
            QVERIFY(h.record(m_tmp.filePath(QStringLiteral("one")), QStringLiteral("attributed · gpu / gpu_lost"), true));
        }
        HistoryStore h(db);
        const auto r = h.recent();
        QCOMPARE(r.size(), size_t(2));  // one entry per bundle, most recent first
        QCOMPARE(r[0].path, m_tmp.filePath(QStringLiteral("one")));
        QVERIFY(r[0].hasNotes);
        QCOMPARE(r[1].path, m_tmp.filePath(QStringLiteral("two")));  // trailing slash folded
        QCOMPARE(r[1].verdict, QStringLiteral("ambiguous"));
        QVERIFY(r[0].opened >= r[1].opened);
        QCOMPARE(h.recent(1).size(), size_t(1));
        QVERIFY(h.remove(m_tmp.filePath(QStringLiteral("one"))));
        QCOMPARE(h.recent().size(), size_t(1));
    }

    void corruptHistoryIsReported()
    {
        const QString db = m_tmp.filePath(QStringLiteral("history-bad.sqlite"));
        QFile f(db);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("this is not sqlite at all, just text that happens to be here\n");
        f.close();
        HistoryStore h(db);
        QVERIFY(!h.isUsable());
        QVERIFY(h.error().contains(db));
        QVERIFY(!h.record(QStringLiteral("/x"), QStringLiteral("y"), false));
        QVERIFY(h.recent().empty());
    }
};

QTEST_GUILESS_MAIN(TestNotesStore)
#include "test_notesstore.moc"
