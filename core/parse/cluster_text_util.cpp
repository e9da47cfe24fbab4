#include "parse/cluster_text_util.h"

#include "parse/cursor.h"
#include "parse/lineparse.h"

#include <algorithm>

namespace fl::clustertext {

using namespace cursor;

bool rfc1123z(std::string_view s, int64_t& ns)
{
    s = trim(s);
    size_t p = 0;
    if (!isWeekday(s, p))
        return false;
    p += 3;
    if (!lit(s, p, ", "))
        return false;
    int day = 0, hour = 0, minute = 0, second = 0;
    if (!digitsN(s, p, 2, day) || !lit(s, p, ' '))
        return false;
    const int month = monthFromAbbrev(s, p);
    if (month < 1)
        return false;
    p += 3;
    int year = 0;
    if (!lit(s, p, ' ') || !digitsN(s, p, 4, year) || !lit(s, p, ' ') || !digitsN(s, p, 2, hour) || !lit(s, p, ':')
        || !digitsN(s, p, 2, minute) || !lit(s, p, ':') || !digitsN(s, p, 2, second) || !lit(s, p, ' '))
        return false;
    if (p + 5 != s.size() || (s[p] != '+' && s[p] != '-'))
        return false;
    const int sign = s[p] == '-' ? -1 : 1;
    ++p;
    int oh = 0, om = 0;
    if (!digitsN(s, p, 2, oh) || !digitsN(s, p, 2, om))
        return false;
    const int64_t local = civilToNs(year, month, day, hour, minute, second, 0);
    if (local == kNoTime)
        return false;
    ns = local - sign * (int64_t(oh) * 3600 + int64_t(om) * 60) * 1000000000LL;
    return true;
}

bool headerColumns(std::string_view header, Columns& out)
{
    out = {};
    size_t p = 0;
    while (p < header.size()) {
        while (p < header.size() && header[p] == ' ')
            ++p;
        if (p >= header.size())
            break;
        size_t e = p;
        // one space inside a name ("LAST SEEN", "NOMINATED NODE"), two end it
        while (e < header.size() && !(header[e] == ' ' && (e + 1 >= header.size() || header[e + 1] == ' ')))
            ++e;
        out.names.emplace_back(header.substr(p, e - p));
        out.starts.push_back(p);
        p = e;
    }
    return out.names.size() >= 2;
}

std::vector<std::string_view> cells(std::string_view row, const Columns& cols)
{
    std::vector<std::string_view> out;
    for (size_t i = 0; i < cols.starts.size(); ++i) {
        const size_t b = cols.starts[i];
        const size_t e = i + 1 < cols.starts.size() ? cols.starts[i + 1] : row.size();
        out.push_back(b < row.size() ? trim(row.substr(b, std::min(e, row.size()) - b)) : std::string_view());
    }
    return out;
}

StructuredRecord lineRecord(size_t offset, std::string_view line, uint32_t lineNo)
{
    StructuredRecord r;
    r.offset = offset;
    r.length = uint32_t(std::min<size_t>(line.size(), UINT32_MAX));
    r.line = lineNo;
    return r;
}

void extendTo(StructuredRecord& r, size_t offset, size_t length, uint32_t lineNo)
{
    if (offset + length <= r.offset)
        return;
    r.length = uint32_t(std::min<size_t>(offset + length - r.offset, UINT32_MAX));
    r.lineCount = lineNo >= r.line ? lineNo - r.line + 1 : r.lineCount;
}

} // namespace fl::clustertext

#include "bundle/text_lines.h"
#include "parse/structured_util.h"

namespace fl::clustertext {

void deliver(std::string_view data, std::vector<StructuredRecord>& recs, std::vector<StructuredRecord>& out)
{
    std::vector<std::pair<uint64_t, uint64_t>> covered;
    for (const auto& r : recs)
        covered.emplace_back(r.offset, r.offset + std::max<uint64_t>(r.length, 1));
    std::sort(covered.begin(), covered.end());
    size_t k = 0;
    std::vector<StructuredRecord> raw;
    for (const TextLine& l : linesOf(data)) {
        while (k < covered.size() && covered[k].second <= l.offset)
            ++k;
        if (k < covered.size() && covered[k].first <= l.offset)
            continue;
        if (cursor::trim(l.text).empty())
            continue;
        StructuredRecord r = lineRecord(l.offset, l.text, l.number);
        r.text = structured::oneLine(l.text);
        raw.push_back(std::move(r));
    }
    recs.insert(recs.end(), std::make_move_iterator(raw.begin()), std::make_move_iterator(raw.end()));
    std::stable_sort(recs.begin(), recs.end(), [](const StructuredRecord& a, const StructuredRecord& b) { return a.offset < b.offset; });
    out.insert(out.end(), std::make_move_iterator(recs.begin()), std::make_move_iterator(recs.end()));
}

void field(std::string& text, std::string_view key, std::string_view value, size_t cap)
{
    if (value.empty())
        return;
    if (!text.empty())
        text += ' ';
    text += key;
    text += '=';
    text += structured::oneLine(value, cap);
}

} // namespace fl::clustertext
