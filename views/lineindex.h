// SPDX-License-Identifier: MIT
// Newline index of a mapped file, built in slices so that a multi-GB file
// opens at once: the viewer shows what is indexed and asks for more.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace fl {

class LineIndex {
public:
    void reset(std::string_view data);
    // Indexes up to `bytes` more; returns true when the whole file is indexed.
    bool indexMore(uint64_t bytes);
    // Indexes at least up to `offset` (used to jump straight to evidence).
    void indexTo(uint64_t offset);
    bool complete() const { return m_scanned >= m_data.size(); }
    uint64_t scanned() const { return m_scanned; }

    // Lines known so far (a last line without newline counts once complete).
    uint64_t lineCount() const { return m_starts.size(); }
    // 0-based line -> [begin, end) excluding the newline (and a '\r' before it).
    std::string_view line(uint64_t line) const;
    uint64_t lineStart(uint64_t line) const { return line < m_starts.size() ? m_starts[line] : m_data.size(); }
    // 0-based line holding `offset` (indexes up to it first).
    uint64_t lineOf(uint64_t offset);

private:
    std::string_view m_data;
    std::vector<uint64_t> m_starts;  // start offset of each line found so far
    uint64_t m_scanned = 0;
};

} // namespace fl
