// A learner's scored attempts at exercises (notes schema 4, core/store/notes_store.h).
#include "store/notes_store.h"
#include "store/sqlite_stmt.h"

namespace fl::store {

bool NotesDb::addAttempt(ExerciseAttempt& a)
{
    if (!m_db)
        return fail("no notes file open");
    if (schemaVersion() < 4)
        return fail("notes schema " + std::to_string(schemaVersion()) + " keeps no scores: open it for writing");
    if (a.learner.find_first_not_of(" \t\r\n") == std::string::npos)
        return fail("a score needs the learner's name");
    if (a.when.empty())
        a.when = utcNow();
    return transaction([&] {
        return Stmt(m_db, "INSERT INTO exercise_score (learner, exercise, score, mean, marks, created)"
                          " VALUES (?, ?, ?, ?, ?, ?)")
            .bind(a.learner).bind(a.exercise).bind(a.score).bind(a.mean).bind(a.marks).bind(a.when)
            .run();
    });
}

std::vector<ExerciseAttempt> NotesDb::attempts(const std::string& learner) const
{
    std::vector<ExerciseAttempt> out;
    if (!m_db || schemaVersion() < 4)
        return out;
    Stmt s(m_db, learner.empty() ? "SELECT learner, exercise, score, mean, marks, created FROM exercise_score ORDER BY seq"
                                 : "SELECT learner, exercise, score, mean, marks, created FROM exercise_score"
                                   " WHERE learner = ? ORDER BY seq");
    if (!learner.empty())
        s.bind(learner);
    const bool ok = s.each([&](Stmt& r) {
        out.push_back({r.text(0), r.text(1), r.real(2), r.real(3), r.text(4), r.text(5)});
    });
    if (!ok)
        fail(std::string("cannot read the scores: ") + sqlite3_errmsg(m_db));
    return out;
}

} // namespace fl::store
