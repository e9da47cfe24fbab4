// The review record (core/store/review_store.h): decisions by several reviewers are appended and read back
// in order after the file is closed and reopened; an older notes file gains the review table and keeps its
// rows; a choice without a reason, or naming no candidate, is refused with the file named; nothing can
// rewrite the history.
#include "store/notes_store.h"
#include "store/review_store.h"

#include <sqlite3.h>

#include <QTemporaryDir>
#include <QtTest>

using namespace fl;

namespace {

int execRc(const std::string& path, const char* sql)
{
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return rc;
}

// An ambiguous result with two tied GPU candidates on two nodes.
Result twoCandidates()
{
    Result r;
    r.status = ResultStatus::Ambiguous;
    r.domain = Domain::Gpu;
    for (int i = 0; i < 2; ++i) {
        Candidate c;
        c.event = EventId(static_cast<uint32_t>(10 + i));
        c.symptom = "gpu.xid_fatal";
        c.domain = Domain::Gpu;
        c.subDomain = "xid";
        c.node = i == 0 ? "node-01" : "node-03";
        c.gpuIndex = 0;
        c.evidence = {i == 0 ? EvidenceId(3) : EvidenceId(8)};
        r.candidates.push_back(c);
    }
    return r;
}

} // namespace

class TestReviewStore : public QObject
{
    Q_OBJECT
private slots:
    void historySurvivesReopeningInOrder()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("n.sqlite").toStdString();
        const Result result = twoCandidates();
        std::string error;
        present::ReviewDecision first, second;
        QVERIFY2(store::makeDecision(result, present::ReviewChoice::Confirm, "", "", "bob", first, error), error.c_str());
        QVERIFY2(store::appendReview(path, first, error), error.c_str());
        QVERIFY2(store::makeDecision(result, present::ReviewChoice::Choose, "ev-00004", "Xid 79 first in dmesg", "alice",
                                     second, error),
                 error.c_str());
        QVERIFY2(store::appendReview(path, second, error), error.c_str());

        present::ReviewNotes notes;
        QVERIFY2(store::readNotes(path, notes, error), error.c_str());
        QCOMPARE(notes.reviews.size(), size_t(2));
        const present::ReviewDecision& a = notes.reviews[0];
        QCOMPARE(a.reviewer, std::string("bob"));
        QVERIFY(a.choice == present::ReviewChoice::Confirm);
        QCOMPARE(a.status, std::string("ambiguous"));
        QCOMPARE(a.engineStatus, std::string("ambiguous"));
        const present::ReviewDecision& b = notes.reviews[1];
        QCOMPARE(b.reviewer, std::string("alice"));
        QVERIFY(b.choice == present::ReviewChoice::Choose);
        QCOMPARE(b.status, std::string("attributed"));
        QCOMPARE(b.evidenceId, std::string("ev-00004"));
        QCOMPARE(b.event, int64_t(10));
        QCOMPARE(b.place, std::string("node-01 GPU 0"));
        QCOMPARE(b.reason, std::string("Xid 79 first in dmesg"));
        QCOMPARE(b.engineStatus, std::string("ambiguous"));
        QVERIFY2(b.when.size() >= 20 && b.when.back() == 'Z', b.when.c_str());  // UTC, ISO 8601
        QVERIFY(a.when <= b.when);
        QCOMPARE(present::reviewDecisionText(b), std::string("ATTRIBUTED gpu / xid: gpu.xid_fatal @ node-01 GPU 0 (ev-00004)"));

        // By event id too; the third decision is the current one.
        present::ReviewDecision third;
        QVERIFY2(store::makeDecision(result, present::ReviewChoice::Choose, "11", "node-03 lost its link first", "carol",
                                     third, error),
                 error.c_str());
        QVERIFY2(store::appendReview(path, third, error), error.c_str());
        present::ReviewNotes again;
        QVERIFY2(store::readNotes(path, again, error), error.c_str());
        QCOMPARE(again.reviews.size(), size_t(3));
        QCOMPARE(again.reviews.back().place, std::string("node-03 GPU 0"));
        QCOMPARE(again.reviews.back().evidenceId, std::string("ev-00009"));

        // Append-only: the history cannot be rewritten behind the reviewers' backs.
        QVERIFY(execRc(path, "UPDATE review SET reviewer = 'mallory'") != SQLITE_OK);
        QVERIFY(execRc(path, "DELETE FROM review") != SQLITE_OK);
    }

    void olderFileMigrates()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("v2.sqlite").toStdString();
        std::string error;
        QVERIFY2(store::createNotes(path, 2, error), error.c_str());
        QCOMPARE(execRc(path, "INSERT INTO notes VALUES ('lane', 'node-03', 'slow', '', 0, '2026-03-14T10:00:00.000Z');"
                              "INSERT INTO verdict_override VALUES (1, 'attributed', 'gpu', 'xid', 'node-01', 'dmesg',"
                              " '2026-03-14T11:00:00.000Z')"),
                 SQLITE_OK);
        present::ReviewDecision d;
        QVERIFY2(store::makeDecision(twoCandidates(), present::ReviewChoice::Confirm, "", "", "bob", d, error), error.c_str());
        QVERIFY2(store::appendReview(path, d, error), error.c_str());
        present::ReviewNotes notes;
        QVERIFY2(store::readNotes(path, notes, error), error.c_str());
        QCOMPARE(notes.notes.size(), size_t(1));
        QVERIFY(notes.verdictOverride);
        QCOMPARE(notes.verdictOverride->rootNode, std::string("node-01"));
        QCOMPARE(notes.reviews.size(), size_t(1));
        QCOMPARE(notes.reviews[0].reviewer, std::string("bob"));
    }

    void refused()
    {
        QTemporaryDir tmp;
        const std::string path = tmp.filePath("n.sqlite").toStdString();
        const Result result = twoCandidates();
        std::string error;
        present::ReviewDecision d;
        QVERIFY2(store::makeDecision(result, present::ReviewChoice::Choose, "ev-00009", "  ", "alice", d, error),
                 error.c_str());
        QVERIFY(!store::appendReview(path, d, error));
        QVERIFY2(error.find(path + ": choosing a candidate needs a reason") == 0, error.c_str());

        d.reason = "ok";
        d.reviewer = "";
        QVERIFY(!store::appendReview(path, d, error));
        QVERIFY2(error.find(path + ": a review needs a reviewer") == 0, error.c_str());

        QVERIFY(!store::makeDecision(result, present::ReviewChoice::Choose, "ev-99999", "why", "alice", d, error));
        QVERIFY2(error.find("'ev-99999' names no candidate") == 0 && error.find("ev-00004, ev-00009") != std::string::npos,
                 error.c_str());

        // Even written around the store, the file itself refuses a choice without a reason.
        present::ReviewDecision ok;
        QVERIFY2(store::makeDecision(result, present::ReviewChoice::Confirm, "", "", "bob", ok, error), error.c_str());
        QVERIFY2(store::appendReview(path, ok, error), error.c_str());
        QVERIFY(execRc(path, "INSERT INTO review (reviewer, choice, status, domain, sub_domain, symptom, place, evidence_id,"
                             " event, engine_status, reason, created) VALUES ('x', 'choose', 'attributed', '', '', '', '',"
                             " '', 1, 'ambiguous', '', 't')") != SQLITE_OK);
        present::ReviewNotes notes;
        QVERIFY2(store::readNotes(path, notes, error), error.c_str());
        QCOMPARE(notes.reviews.size(), size_t(1));
    }

    void loginNameFromEnvironment()
    {
        qputenv("LOGNAME", "alice");
        QCOMPARE(store::loginName(), std::string("alice"));
        qunsetenv("LOGNAME");
        qputenv("USER", "bob");
        QCOMPARE(store::loginName(), std::string("bob"));
        qunsetenv("USER");
        QVERIFY(!store::loginName().empty());  // the password entry of whoever runs the test
    }
};

QTEST_GUILESS_MAIN(TestReviewStore)
#include "test_review_store.moc"
