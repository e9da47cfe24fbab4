// SPDX-License-Identifier: MIT
// Newline index of a mapped file, built in slices so that a multi-GB file
// opens at once: the viewer shows what is indexed and asks for more. (Not
// jsonpos::LineIndex in core/parse, which numbers the lines of a whole JSON
// document at once.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace fl {

class RawLineIndex {
public:
    void reset(std::string_view data);
    // Indexes up to `bytes` more; returns true when the whole file is indexed.
    bool indexMore(uint64_t bytes);
    // Indexes at least up to `offset` (used to jump straight to evidence).
    void indexTo(uint64_t offset);
    bool complete() const { return m_scanned >= m_data.size(); }
    uint64_t scanned() const { return m_scanned; }

    // Lines known around `offset` before the prefix index reaches it, so a
    // jump to evidence deep in a multi-GB file shows at once. `line0` is the
    // 0-based number of the line holding `offset` as the engine counted it
    // (RawRef::line - 1); `radius` lines are found on each side. The window
    // is dropped when the prefix index catches up with it.
    void setWindow(uint64_t offset, uint64_t line0, uint64_t radius);
    bool known(uint64_t line) const
    {
        return line < m_starts.size() || (line >= m_winFirst && line - m_winFirst < m_win.size());
    }

    // Lines known so far (a last line without newline counts once complete);
    // with a window, up to its end (lines in between are not known yet).
    uint64_t lineCount() const
    {
        return m_win.empty() ? m_starts.size() : std::max<uint64_t>(m_starts.size(), m_winFirst + m_win.size());
    }
    // 0-based line -> [begin, end) excluding the newline (and a '\r' before it).
    std::string_view line(uint64_t line) const;
    uint64_t lineStart(uint64_t line) const;
    // 0-based line holding `offset` (indexes up to it first).
    uint64_t lineOf(uint64_t offset);

private:
    std::string_view m_data;
    std::vector<uint64_t> m_starts;  // start offset of each line found so far
    uint64_t m_scanned = 0;
    uint64_t m_winFirst = 0;         // line number of m_win[0]
    std::vector<uint64_t> m_win;     // start offsets of the window's lines
};

} // namespace fl
