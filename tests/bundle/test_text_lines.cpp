// The one line scanner of core/ (bundle/text_lines.h): "\r\n", a last line
// without '\n', a final '\n', empty lines, NUL bytes, and a start offset.
#include "bundle/text_lines.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace fl;

namespace {

struct Seen {
    std::string text;
    size_t offset;
    uint32_t number;
    bool operator==(const Seen&) const = default;
};

std::vector<Seen> read(std::string_view data, size_t from = 0)
{
    std::vector<Seen> out;
    LineReader reader(data, from);
    TextLine line;
    while (reader.next(line))
        out.push_back({std::string(line.text), line.offset, line.number});
    // The range form sees the same lines.
    if (from == 0) {
        size_t i = 0;
        for (const TextLine& l : linesOf(data)) {
            if (i >= out.size() || out[i] != Seen{std::string(l.text), l.offset, l.number})
                return {};
            ++i;
        }
        if (i != out.size())
            return {};
    }
    return out;
}

} // namespace

class TestTextLines : public QObject {
    Q_OBJECT
private slots:
    void lines()
    {
        QVERIFY(read("").empty());
        QCOMPARE(read("\n"), (std::vector<Seen>{{"", 0, 1}}));
        QCOMPARE(read("a"), (std::vector<Seen>{{"a", 0, 1}}));
        QCOMPARE(read("a\n"), (std::vector<Seen>{{"a", 0, 1}}));
        QCOMPARE(read("a\nbc"), (std::vector<Seen>{{"a", 0, 1}, {"bc", 2, 2}}));
        QCOMPARE(read("a\r\n\r\nb\r"), (std::vector<Seen>{{"a", 0, 1}, {"", 3, 2}, {"b", 5, 3}}));
        QCOMPARE(read("a\r\r\n"), (std::vector<Seen>{{"a\r", 0, 1}})); // one '\r' belongs to the line end
        QCOMPARE(read("\n\nx\n"), (std::vector<Seen>{{"", 0, 1}, {"", 1, 2}, {"x", 2, 3}}));
        const std::string nul("a\0b\nc\0", 6);
        QCOMPARE(read(nul), (std::vector<Seen>{{std::string("a\0b", 3), 0, 1}, {std::string("c\0", 2), 4, 2}}));
        // From an offset: numbers count from there; past the end there is nothing.
        QCOMPARE(read("a\nb\nc", 2), (std::vector<Seen>{{"b", 2, 1}, {"c", 4, 2}}));
        QVERIFY(read("abc", 9).empty());
    }

    void position()
    {
        LineReader reader("ab\ncd");
        TextLine line;
        QVERIFY(reader.next(line));
        QCOMPARE(reader.position(), size_t(3));
        QVERIFY(reader.next(line));
        QCOMPARE(reader.position(), size_t(5));
        QVERIFY(!reader.next(line));
    }

    // The line ending at `end` (its newline's position) and where it starts, if not before `floor`.
    void lineStartWalkingBack()
    {
        const std::string_view t = "ab\n\ncdef\ngh";
        // a b \n \n c d e f \n g h at 0 .. 10
        QCOMPARE(fl::lineStartFrom(t, 0, 2), std::optional<size_t>(0));  // "ab", the first line
        QCOMPARE(fl::lineStartFrom(t, 0, 3), std::optional<size_t>(3));  // the empty line
        QCOMPARE(fl::lineStartFrom(t, 0, 8), std::optional<size_t>(4));  // "cdef"
        QCOMPARE(fl::lineStartFrom(t, 4, 8), std::optional<size_t>(4));  // starts at the floor
        QCOMPARE(fl::lineStartFrom(t, 5, 8), std::optional<size_t>());   // starts before it
        QCOMPARE(fl::lineStartFrom(t, 1, 2), std::optional<size_t>());   // the first line, floor past its start
        QCOMPARE(fl::lineStartFrom(t, 9, 8), std::optional<size_t>());   // ends before the floor
        QCOMPARE(fl::lineStartFrom(t, 0, 11), std::optional<size_t>(9)); // the last line, without a newline
        QCOMPARE(fl::lineStartFrom(t, 0, 12), std::optional<size_t>());  // past the text
    }
};

QTEST_APPLESS_MAIN(TestTextLines)
#include "test_text_lines.moc"
