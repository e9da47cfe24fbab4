// Notes schema 4 (issue #45 item 3, #44 item 4): threaded notes per evidence item and a learner's past
// exercise scores, in the same notes file; a schema-3 file is migrated in place and keeps what it held.
#include "store/notes_store.h"
#include "store/review_store.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace fl;

namespace {

bool execOk(const std::string& path, const char* sql)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return rc == SQLITE_OK;
}

present::ThreadComment comment(const std::string& target, int64_t parent, const std::string& author,
                               const std::string& text)
{
    present::ThreadComment c;
    c.target = target;
    c.file = "syslog-node-01.log";
    c.line = 4;
    c.parent = parent;
    c.author = author;
    c.text = text;
    return c;
}

} // namespace

class TestNotesThreads : public QObject
{
    Q_OBJECT
private slots:
    void schemaThreeMigratesAndKeepsItsRows()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("three.sqlite").toStdString();
        std::string error;
        QVERIFY2(store::createNotes(path, 3, error), error.c_str());
        QVERIFY(execOk(path, "INSERT INTO notes VALUES ('evidence', 'ev-00022', 'seen before', 'syslog-node-01.log', 4,"
                             " '2026-03-14T10:01:00.000Z');"
                             "INSERT INTO review (reviewer, choice, status, domain, sub_domain, symptom, place,"
                             " evidence_id, event, engine_status, reason, created) VALUES ('alice', 'confirm',"
                             " 'ambiguous', 'gpu', '', '', '', '', -1, 'ambiguous', '', '2026-03-14T11:00:00.000Z')"));
        {
            store::NotesDb ro;
            QVERIFY2(ro.open(path, store::NotesDb::Mode::ReadOnly), ro.error().c_str());
            QCOMPARE(ro.schemaVersion(), 3);
            QVERIFY(ro.threads().empty()); // a schema-3 file has none, and reading it is no error
            present::ThreadComment c = comment("ev-00022", 0, "bob", "x");
            QVERIFY(!ro.addComment(c));
        }
        store::NotesDb db;
        QVERIFY2(db.open(path, store::NotesDb::Mode::ReadWrite), db.error().c_str());
        QCOMPARE(db.schemaVersion(), 4);
        present::ReviewNotes all;
        QVERIFY2(db.read(all), db.error().c_str());
        QCOMPARE(all.notes.size(), size_t(1));
        QCOMPARE(all.reviews.size(), size_t(1));
        QCOMPARE(all.reviews[0].reviewer, std::string("alice"));
        QVERIFY(all.threads.empty());
    }

    void threadsPerEvidenceItemSurviveARestart()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("notes.sqlite").toStdString();
        int64_t opening = 0;
        {
            store::NotesDb db;
            QVERIFY2(db.open(path, store::NotesDb::Mode::ReadWrite), db.error().c_str());
            present::ThreadComment a = comment("ev-00022", 0, "alice", "Xid 79 a second before node-03's?");
            QVERIFY2(db.addComment(a), db.error().c_str());
            opening = a.id;
            QVERIFY(opening > 0);
            QVERIFY(!a.when.empty());
            present::ThreadComment other = comment("ev-00028", 0, "bob", "node-03 had Xid 48 last week too");
            QVERIFY2(db.addComment(other), db.error().c_str());
            present::ThreadComment reply = comment("ev-00022", opening, "bob", "Not with second stamps; ask for dmesg -T");
            QVERIFY2(db.addComment(reply), db.error().c_str());
            // A reply must answer a comment on the same item; nothing empty or anonymous is kept.
            present::ThreadComment stray = comment("ev-00028", opening, "bob", "wrong item");
            QVERIFY(!db.addComment(stray));
            QVERIFY2(db.error().find(path + ": ") == 0, db.error().c_str());
            present::ThreadComment anonymous = comment("ev-00022", 0, " ", "who?");
            QVERIFY(!db.addComment(anonymous));
            present::ThreadComment empty = comment("ev-00022", 0, "bob", "  ");
            QVERIFY(!db.addComment(empty));
        }
        present::ReviewNotes back;
        std::string error;
        QVERIFY2(store::readNotes(path, back, error), error.c_str());
        QCOMPARE(back.threads.size(), size_t(3));
        QCOMPARE(back.threads[0].target, std::string("ev-00022")); // by target, then id
        QCOMPARE(back.threads[0].parent, int64_t(0));
        QCOMPARE(back.threads[1].target, std::string("ev-00022"));
        QCOMPARE(back.threads[1].parent, opening);
        QCOMPARE(back.threads[1].author, std::string("bob"));
        QCOMPARE(back.threads[2].target, std::string("ev-00028"));
        // The report quotes each comment with its author and what it answers.
        const present::Report report = present::buildReport(Result{}, back, "bundle");
        const auto reply = std::find_if(report.notes.begin(), report.notes.end(), [](const present::ReportNoteLine& n) {
            return n.text == "Not with second stamps; ask for dmesg -T";
        });
        QVERIFY(reply != report.notes.end());
        QCOMPARE(reply->about, "evidence ev-00022 (syslog-node-01.log:4), #3 by bob replying to #" + std::to_string(opening));
        QVERIFY(!execOk(path, "DELETE FROM thread")); // kept as written
        QVERIFY(!execOk(path, "UPDATE thread SET text = 'rewritten'"));

        // Save as copies the threads with their replies' parents.
        const std::string copy = tmp.filePath("copy.sqlite").toStdString();
        store::NotesDb out;
        QVERIFY2(out.open(copy, store::NotesDb::Mode::ReadWrite), out.error().c_str());
        QVERIFY2(out.writeAll(back), out.error().c_str());
        const auto copied = out.threads("ev-00022");
        QCOMPARE(copied.size(), size_t(2));
        QCOMPARE(copied[1].parent, copied[0].id);
    }

    void scoresPerLearner()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("library.sqlite").toStdString();
        {
            store::NotesDb db;
            QVERIFY2(db.open(path, store::NotesDb::Mode::ReadWrite), db.error().c_str());
            store::ExerciseAttempt a{"carol", "xid149-nccl", 0.5, 0.25, "syslog-node-02.log:9, applog-node-01-rank0.log:3", ""};
            QVERIFY2(db.addAttempt(a), db.error().c_str());
            store::ExerciseAttempt b{"dave", "xid149-nccl", 1, 1, "syslog-node-02.log:4", ""};
            QVERIFY2(db.addAttempt(b), db.error().c_str());
            store::ExerciseAttempt c{"carol", "xid149-nccl", 1, 1, "syslog-node-02.log:4", ""};
            QVERIFY2(db.addAttempt(c), db.error().c_str());
            store::ExerciseAttempt nobody{"", "xid149-nccl", 1, 1, "", ""};
            QVERIFY(!db.addAttempt(nobody));
        }
        store::NotesDb db;
        QVERIFY2(db.open(path, store::NotesDb::Mode::ReadOnly), db.error().c_str());
        const auto carol = db.attempts("carol");
        QCOMPARE(carol.size(), size_t(2));
        QCOMPARE(carol[0].score, 0.5);
        QCOMPARE(carol[0].mean, 0.25);
        QCOMPARE(carol[1].score, 1.0);
        QVERIFY(!carol[1].when.empty());
        QCOMPARE(db.attempts().size(), size_t(3));
    }
};

QTEST_GUILESS_MAIN(TestNotesThreads)
#include "test_notes_threads.moc"
