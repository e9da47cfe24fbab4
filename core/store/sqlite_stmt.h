// A prepared SQLite statement for the notes file's readers and writers (notes_store.cpp, notes_threads.cpp,
// notes_scores.cpp): internal to core/store.
#pragma once

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace fl::store {

// One prepared statement; values bound in order with bind().
class Stmt final
{
public:
    Stmt(sqlite3* db, const char* sql) { m_ok = sqlite3_prepare_v2(db, sql, -1, &m_s, nullptr) == SQLITE_OK; }
    ~Stmt() { sqlite3_finalize(m_s); }
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& bind(const std::string& v)
    {
        m_ok = m_ok && sqlite3_bind_text(m_s, ++m_arg, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT) == SQLITE_OK;
        return *this;
    }
    Stmt& bind(uint64_t v)
    {
        m_ok = m_ok && sqlite3_bind_int64(m_s, ++m_arg, static_cast<sqlite3_int64>(v)) == SQLITE_OK;
        return *this;
    }
    Stmt& bind(double v)
    {
        m_ok = m_ok && sqlite3_bind_double(m_s, ++m_arg, v) == SQLITE_OK;
        return *this;
    }
    // Runs to the end, calling row(stmt) for each result row.
    template <typename F>
    bool each(F row)
    {
        if (!m_ok)
            return false;
        int rc;
        while ((rc = sqlite3_step(m_s)) == SQLITE_ROW)
            row(*this);
        return rc == SQLITE_DONE;
    }
    bool run()
    {
        return each([](Stmt&) {});
    }
    std::string text(int i) const
    {
        const unsigned char* t = sqlite3_column_text(m_s, i);
        return t ? reinterpret_cast<const char*>(t) : std::string();
    }
    uint64_t line(int i) const { return static_cast<uint64_t>(std::max<sqlite3_int64>(0, sqlite3_column_int64(m_s, i))); }
    int integer(int i) const { return sqlite3_column_int(m_s, i); }
    int64_t integer64(int i) const { return sqlite3_column_int64(m_s, i); }
    double real(int i) const { return sqlite3_column_double(m_s, i); }

private:
    sqlite3_stmt* m_s = nullptr;
    int m_arg = 0;
    bool m_ok = false;
};

} // namespace fl::store
