// Threaded notes per evidence item (notes schema 4, core/store/notes_store.h).
#include "store/notes_store.h"
#include "store/sqlite_stmt.h"

namespace fl::store {

namespace {

bool blank(const std::string& s)
{
    return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

} // namespace

bool NotesDb::addComment(present::ThreadComment& c)
{
    if (!m_db)
        return fail("no notes file open");
    if (schemaVersion() < 4)
        return fail("notes schema " + std::to_string(schemaVersion()) + " keeps no threads: open it for writing");
    if (blank(c.author))
        return fail("a comment needs an author");
    if (blank(c.text))
        return fail("a comment needs text");
    if (blank(c.target))
        return fail("a comment needs the evidence item it is about");
    if (c.when.empty())
        c.when = utcNow();
    const bool ok = transaction([&] {
        Stmt s(m_db, c.parent > 0 ? "INSERT INTO thread (target, file, line, parent, author, text, created)"
                                    " VALUES (?, ?, ?, ?, ?, ?, ?)"
                                  : "INSERT INTO thread (target, file, line, author, text, created)"
                                    " VALUES (?, ?, ?, ?, ?, ?)");
        s.bind(c.target).bind(c.file).bind(c.line);
        if (c.parent > 0)
            s.bind(static_cast<uint64_t>(c.parent));
        return s.bind(c.author).bind(c.text).bind(c.when).run();
    });
    if (ok)
        c.id = sqlite3_last_insert_rowid(m_db);
    return ok;
}

std::vector<present::ThreadComment> NotesDb::threads(const std::string& target) const
{
    std::vector<present::ThreadComment> out;
    if (!m_db || schemaVersion() < 4)
        return out;
    Stmt s(m_db, target.empty() ? "SELECT id, coalesce(parent, 0), target, file, line, author, text, created FROM thread"
                                  " ORDER BY target, id"
                                : "SELECT id, coalesce(parent, 0), target, file, line, author, text, created FROM thread"
                                  " WHERE target = ? ORDER BY id");
    if (!target.empty())
        s.bind(target);
    const bool ok = s.each([&](Stmt& r) {
        out.push_back({r.integer64(0), r.integer64(1), r.text(2), r.text(3), r.line(4), r.text(5), r.text(6), r.text(7)});
    });
    if (!ok)
        fail(std::string("cannot read the threads: ") + sqlite3_errmsg(m_db));
    return out;
}

} // namespace fl::store
