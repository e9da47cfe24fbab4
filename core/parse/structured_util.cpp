#include "parse/structured_util.h"

#include "parse/lineparse.h"
#include "parse/cursor.h"

#include <charconv>

namespace fl::structured {

std::optional<int64_t> number(const nlohmann::json& j)
{
    if (j.is_number_integer())
        return j.get<int64_t>();
    if (j.is_number_float()) {
        const double d = j.get<double>();
        if (d > -9.2e18 && d < 9.2e18)
            return int64_t(d);
        return std::nullopt;
    }
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        int64_t v = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc() && p == s.data() + s.size())
            return v;
        return std::nullopt;
    }
    if (j.is_object()) {
        const auto& set = member(j, "set");
        if (set.is_boolean() && !set.get<bool>())
            return std::nullopt;
        const auto& inf = member(j, "infinite");
        if (inf.is_boolean() && inf.get<bool>())
            return std::nullopt;
        return number(member(j, "number"));
    }
    return std::nullopt;
}

std::string stringList(const nlohmann::json& j)
{
    if (j.is_string())
        return j.get<std::string>();
    std::string out;
    if (j.is_array()) {
        for (const auto& e : j) {
            if (!e.is_string())
                continue;
            if (!out.empty())
                out += ',';
            out += e.get<std::string>();
        }
    }
    return out;
}

const nlohmann::json& member(const nlohmann::json& j, std::string_view key)
{
    static const nlohmann::json kNull;
    if (!j.is_object())
        return kNull;
    auto it = j.find(key);
    return it == j.end() ? kNull : *it;
}

bool timeText(std::string_view text, int64_t& ns, TimeBasis& basis)
{
    text = cursor::trim(text);
    if (text.empty())
        return false;
    bool allDigits = true;
    for (char c : text)
        if (!cursor::isDigit(c) && c != '.')
            allDigits = false;
    if (allDigits) {
        // epoch seconds, possibly fractional
        size_t p = 0;
        int64_t secs = 0, frac = 0;
        if (!cursor::digitsUpTo(text, p, 11, secs))
            return false;
        if (p < text.size() && text[p] == '.') {
            ++p;
            if (p < text.size() && !cursor::fractionNs(text, p, frac))
                return false;
        }
        if (p != text.size() || secs < 631152000LL || secs > 7258118400LL) // 1990 .. 2200
            return false;
        ns = secs * 1000000000LL + frac;
        basis = TimeBasis::Absolute;
        return true;
    }
    const LineInfo li = parseLine(text, SourceKind::Unknown, TimeContext{});
    if (li.basis != TimeBasis::Absolute && li.basis != TimeBasis::AssumedUtc)
        return false;
    if (li.messageStart != text.size())
        return false;
    ns = li.timeNs;
    basis = li.basis;
    return true;
}

std::string oneLine(std::string_view s, size_t cap)
{
    std::string out;
    out.reserve(std::min(s.size(), cap));
    for (char c : s.substr(0, cap))
        out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
    return out;
}

void setRaw(StructuredRecord& r, const jsonpos::LineIndex& lines, std::string_view data, size_t b, size_t e)
{
    (void)data;
    r.offset = b;
    r.length = uint32_t(std::min<size_t>(e - b, UINT32_MAX));
    r.line = lines.lineOf(b);
    const uint32_t lastLine = lines.lineOf(e > b ? e - 1 : b);
    r.lineCount = lastLine - r.line + 1;
}

std::vector<std::string_view> splitFields(std::string_view line, char sep)
{
    std::vector<std::string_view> out;
    size_t p = 0;
    while (true) {
        const size_t q = line.find(sep, p);
        if (q == std::string_view::npos) {
            out.push_back(line.substr(p));
            break;
        }
        out.push_back(line.substr(p, q - p));
        p = q + 1;
    }
    return out;
}

} // namespace fl::structured
