// The notes file read by core's one reader (core/store/notes_store.h) at each schema version it knows,
// and refused, naming the file, when it is not a notes file or is newer than this build.
#include "store/notes_store.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace fl;

namespace {

void exec(const std::string& path, const char* sql)
{
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* msg = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &msg);
    const std::string why = msg ? msg : "";
    sqlite3_free(msg);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, why.c_str());
}

// What the workbench writes into a schema-1 file: a lane note, an evidence note and a bookmark.
const char* kRows =
    "INSERT INTO notes VALUES ('lane', 'node-03', 'rank 5 was slow', '', 0, '2026-03-14T10:00:00.000Z');"
    "INSERT INTO notes VALUES ('evidence', 'ev-0007', 'seen before', 'gpu-node-02/syslog', 41, '2026-03-14T10:01:00.000Z');"
    "INSERT INTO bookmarks VALUES ('gpu-node-02/syslog', 12, 'first Xid', '2026-03-14T10:02:00.000Z');";

} // namespace

class TestNotesStore : public QObject
{
    Q_OBJECT
private slots:
    void schemaOne()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("one.sqlite").toStdString();
        std::string error;
        QVERIFY2(store::createNotes(path, 1, error), error.c_str());
        exec(path, kRows);
        present::ReviewNotes notes;
        QVERIFY2(store::readNotes(path, notes, error), error.c_str());
        QCOMPARE(notes.notes.size(), size_t(2));
        const present::ReviewNote& ev = notes.notes[0]; // sorted by kind: evidence, then lane
        QCOMPARE(ev.kind, std::string("evidence"));
        QCOMPARE(ev.target, std::string("ev-0007"));
        QCOMPARE(ev.file, std::string("gpu-node-02/syslog"));
        QCOMPARE(ev.line, uint64_t(41));
        QCOMPARE(ev.text, std::string("seen before"));
        QCOMPARE(ev.when, std::string("2026-03-14T10:01:00.000Z"));
        QCOMPARE(notes.notes[1].target, std::string("node-03"));
        QCOMPARE(notes.notes[1].text, std::string("rank 5 was slow"));
        QCOMPARE(notes.bookmarks.size(), size_t(1));
        QCOMPARE(notes.bookmarks[0].file, std::string("gpu-node-02/syslog"));
        QCOMPARE(notes.bookmarks[0].line, uint64_t(12));
        QCOMPARE(notes.bookmarks[0].note, std::string("first Xid"));
        QCOMPARE(notes.bookmarks[0].when, std::string("2026-03-14T10:02:00.000Z"));
        QVERIFY(!notes.verdictOverride); // schema 1 has no override table
    }

    void schemaTwo()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("two.sqlite").toStdString();
        std::string error;
        // A schema-1 file upgraded in place keeps its rows and gains the override.
        QVERIFY2(store::createNotes(path, 1, error), error.c_str());
        exec(path, kRows);
        QVERIFY2(store::createNotes(path, 2, error), error.c_str());
        exec(path, "INSERT INTO verdict_override VALUES (1, 'attributed', 'network', 'ib', 'node-07', 'switch log',"
                   " '2026-03-14T11:00:00.000Z')");
        present::ReviewNotes notes;
        QVERIFY2(store::readNotes(path, notes, error), error.c_str());
        QCOMPARE(notes.notes.size(), size_t(2));
        QCOMPARE(notes.bookmarks.size(), size_t(1));
        QVERIFY(notes.verdictOverride);
        const present::ReviewOverride& o = *notes.verdictOverride;
        QCOMPARE(o.status, std::string("attributed"));
        QCOMPARE(o.domain, std::string("network"));
        QCOMPARE(o.subDomain, std::string("ib"));
        QCOMPARE(o.rootNode, std::string("node-07"));
        QCOMPARE(o.reason, std::string("switch log"));
        QCOMPARE(o.when, std::string("2026-03-14T11:00:00.000Z"));
    }

    void refused()
    {
        QTemporaryDir tmp;
        std::string error;
        present::ReviewNotes notes;
        const std::string foreign = tmp.filePath("foreign.sqlite").toStdString();
        exec(foreign, "CREATE TABLE meta (key TEXT, value TEXT); CREATE TABLE notes (x); CREATE TABLE bookmarks (y);");
        QVERIFY(!store::readNotes(foreign, notes, error));
        QCOMPARE(error, foreign + ": not a Faultline notes file");

        const std::string newer = tmp.filePath("newer.sqlite").toStdString();
        QVERIFY2(store::createNotes(newer, store::kNotesSchemaVersion, error), error.c_str());
        const std::string next = std::to_string(store::kNotesSchemaVersion + 1);
        exec(newer, ("UPDATE meta SET value = '" + next + "' WHERE key = 'schema_version'").c_str());
        QVERIFY(!store::readNotes(newer, notes, error));
        QVERIFY2(error.find(newer + ": notes schema version " + next + ", newer") == 0, error.c_str());
        QVERIFY(!store::createNotes(foreign, 1, error));

        const std::string missing = tmp.filePath("no/such.sqlite").toStdString();
        QVERIFY(!store::readNotes(missing, notes, error));
        QVERIFY2(error.find(missing + ": cannot open") == 0, error.c_str());
    }

    // The workbench writes through NotesDb, the CLI report reads with readNotes: an old file opened for writing
    // is upgraded in place, keeps its rows, and what is written lands where the reader looks.
    void writtenThroughNotesDbReadByTheReport()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("old.sqlite").toStdString();
        std::string error;
        QVERIFY2(store::createNotes(path, 1, error), error.c_str());
        exec(path, kRows);
        {
            store::NotesDb db;
            QVERIFY2(db.open(path, store::NotesDb::Mode::ReadWrite, "/bundles/it's here"), db.error().c_str());
            QCOMPARE(db.schemaVersion(), store::kNotesSchemaVersion);
            QVERIFY(db.addBookmark({"gpu-node-02/syslog", 12, "first Xid, confirmed", "2026-03-14T12:00:00.000Z"}));
            QVERIFY(db.setNote({"lane", "node-04", "", 0, "idle", "2026-03-14T12:01:00.000Z"}));
            QVERIFY(db.removeNote("lane", "node-03"));
            QVERIFY(db.setVerdictOverride({"attributed", "gpu", "gpu_lost", "node-02", "RMA", "2026-03-14T12:02:00.000Z"}));
            QCOMPARE(db.note("lane", "node-04").value_or(""), std::string("idle"));
            QVERIFY(!db.note("lane", "node-03"));
        }
        present::ReviewNotes notes;
        QVERIFY2(store::readNotes(path, notes, error), error.c_str());
        QCOMPARE(notes.notes.size(), size_t(2));
        QCOMPARE(notes.notes[1].target, std::string("node-04"));
        QCOMPARE(notes.bookmarks.size(), size_t(1));
        QCOMPARE(notes.bookmarks[0].note, std::string("first Xid, confirmed"));
        QCOMPARE(notes.bookmarks[0].when, std::string("2026-03-14T10:02:00.000Z"));  // a re-marked line keeps its date
        QVERIFY(notes.verdictOverride);
        QCOMPARE(notes.verdictOverride->reason, std::string("RMA"));

        // Save as: everything into a new file in one go.
        const std::string copy = tmp.filePath("copy.sqlite").toStdString();
        store::NotesDb out;
        QVERIFY2(out.open(copy, store::NotesDb::Mode::ReadWrite), out.error().c_str());
        QVERIFY(out.writeAll(notes));
        present::ReviewNotes again;
        QVERIFY(out.read(again));
        QCOMPARE(again.notes.size(), notes.notes.size());
        QCOMPARE(again.bookmarks.size(), notes.bookmarks.size());
        QCOMPARE(again.verdictOverride->rootNode, std::string("node-02"));
    }

    void readOnlyNeverWrites()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("one.sqlite").toStdString();
        std::string error;
        QVERIFY2(store::createNotes(path, 1, error), error.c_str());
        store::NotesDb db;
        QVERIFY2(db.open(path, store::NotesDb::Mode::ReadOnly), db.error().c_str());
        QCOMPARE(db.schemaVersion(), 1);  // not upgraded
        QVERIFY(!db.addBookmark({"f.log", 1, "", "2026-03-14T12:00:00.000Z"}));
        QVERIFY2(db.error().find(path + ": cannot write") == 0, db.error().c_str());
        const std::string garbage = tmp.filePath("garbage.sqlite").toStdString();
        exec(garbage, "CREATE TABLE t (x)");
        QFile f(QString::fromStdString(garbage));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QByteArray(64, 'x'));
        f.close();
        QVERIFY(!db.open(garbage, store::NotesDb::Mode::ReadWrite));
        QVERIFY2(db.error() == garbage + ": not a SQLite database (corrupt or not Faultline's)", db.error().c_str());
    }
};

QTEST_GUILESS_MAIN(TestNotesStore)
#include "test_notes_store.moc"
