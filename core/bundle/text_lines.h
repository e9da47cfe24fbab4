// The one line scanner of core/: every reader of lines (parsers, placement,
// rules' samples, the collector) goes through it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string_view>

namespace fl {

// memchr over the bytes, as ripgrep's line buffer does. A line is the bytes
// before a '\n', without one '\r' at its end; a last line without '\n' is a
// line; a '\n' that ends the text starts no further line (an empty text has
// none); NUL and other bytes are ordinary.
struct TextLine {
    std::string_view text; // without its "\n" or "\r\n"
    size_t offset = 0;     // where its first byte is in the text
    uint32_t number = 0;   // 1-based, counted from where the reader started
};

class LineReader {
public:
    explicit LineReader(std::string_view data, size_t from = 0) : m_data(data), m_pos(std::min(from, data.size())) {}

    // The next line; false at the end of the text.
    [[nodiscard]] bool next(TextLine& line)
    {
        if (m_pos >= m_data.size())
            return false;
        const char* begin = m_data.data() + m_pos;
        const size_t left = m_data.size() - m_pos;
        const void* nl = std::memchr(begin, '\n', left);
        const size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - begin) : left;
        line.text = std::string_view(begin, len);
        if (!line.text.empty() && line.text.back() == '\r')
            line.text.remove_suffix(1);
        line.offset = m_pos;
        line.number = ++m_number;
        m_pos += nl ? len + 1 : len;
        return true;
    }

    // Where the next line starts (the text's size at the end).
    [[nodiscard]] size_t position() const { return m_pos; }

private:
    std::string_view m_data;
    size_t m_pos = 0;
    uint32_t m_number = 0;
};

// for (const TextLine& line : linesOf(data)) ...
class TextLines {
public:
    class iterator {
    public:
        explicit iterator(std::string_view data) : m_reader(data) { ++*this; }
        const TextLine& operator*() const { return m_line; }
        const TextLine* operator->() const { return &m_line; }
        iterator& operator++()
        {
            m_done = !m_reader.next(m_line);
            return *this;
        }
        bool operator==(std::default_sentinel_t) const { return m_done; }

    private:
        LineReader m_reader;
        TextLine m_line;
        bool m_done = false;
    };

    explicit TextLines(std::string_view data) : m_data(data) {}
    [[nodiscard]] iterator begin() const { return iterator(m_data); }
    [[nodiscard]] std::default_sentinel_t end() const { return {}; }

private:
    std::string_view m_data;
};

inline TextLines linesOf(std::string_view data) { return TextLines(data); }

// Walking back: where the line ending at `end` (the position of its newline) starts, if it starts at or
// after `floor`; nullopt when it starts before. memrchr, not a byte loop: the extent walk and the time
// inheritance step back over many lines from every candidate line of a rank log.
inline std::optional<size_t> lineStartFrom(std::string_view data, size_t floor, size_t end)
{
    if (end < floor || end > data.size())
        return std::nullopt;
    const size_t lo = floor > 0 ? floor - 1 : 0; // a newline just before `floor` still starts the line at it
    if (const void* nl = ::memrchr(data.data() + lo, '\n', end - lo))
        return static_cast<size_t>(static_cast<const char*>(nl) - data.data()) + 1;
    if (floor == 0)
        return size_t(0);
    return std::nullopt;
}

} // namespace fl
