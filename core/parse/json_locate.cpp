#include "parse/json_locate.h"

#include <algorithm>

namespace fl::jsonpos {

size_t skipWs(std::string_view s, size_t p)
{
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r'))
        ++p;
    return p;
}

namespace {
size_t stringEnd(std::string_view s, size_t p) // p at the opening quote
{
    for (size_t q = p + 1; q < s.size(); ++q) {
        if (s[q] == '\\')
            ++q;
        else if (s[q] == '"')
            return q + 1;
    }
    return npos;
}
} // namespace

size_t valueEnd(std::string_view s, size_t p)
{
    p = skipWs(s, p);
    if (p >= s.size())
        return npos;
    if (s[p] == '"')
        return stringEnd(s, p);
    if (s[p] == '{' || s[p] == '[') {
        // iterative: nesting depth is a counter, hostile input cannot exhaust the stack
        size_t depth = 0;
        for (size_t q = p; q < s.size(); ++q) {
            const char c = s[q];
            if (c == '"') {
                q = stringEnd(s, q);
                if (q == npos)
                    return npos;
                --q;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0)
                    return q + 1;
            }
        }
        return npos;
    }
    size_t q = p;
    while (q < s.size() && s[q] != ',' && s[q] != '}' && s[q] != ']' && s[q] != ' ' && s[q] != '\n' && s[q] != '\r'
           && s[q] != '\t')
        ++q;
    return q == p ? npos : q;
}

size_t memberValue(std::string_view s, size_t p, std::string_view key)
{
    p = skipWs(s, p);
    if (p >= s.size() || s[p] != '{')
        return npos;
    size_t q = skipWs(s, p + 1);
    while (q < s.size() && s[q] == '"') {
        const size_t ke = stringEnd(s, q);
        if (ke == npos)
            return npos;
        const std::string_view k = s.substr(q + 1, ke - q - 2);
        q = skipWs(s, ke);
        if (q >= s.size() || s[q] != ':')
            return npos;
        const size_t vb = skipWs(s, q + 1);
        if (k == key)
            return vb;
        const size_t ve = valueEnd(s, vb);
        if (ve == npos)
            return npos;
        q = skipWs(s, ve);
        if (q < s.size() && s[q] == ',')
            q = skipWs(s, q + 1);
        else
            break;
    }
    return npos;
}

std::vector<std::pair<size_t, size_t>> elements(std::string_view s, size_t p)
{
    std::vector<std::pair<size_t, size_t>> out;
    p = skipWs(s, p);
    if (p >= s.size() || s[p] != '[')
        return out;
    size_t q = skipWs(s, p + 1);
    if (q < s.size() && s[q] == ']')
        return out;
    while (q < s.size()) {
        const size_t e = valueEnd(s, q);
        if (e == npos)
            break;
        out.emplace_back(q, e);
        q = skipWs(s, e);
        if (q < s.size() && s[q] == ',')
            q = skipWs(s, q + 1);
        else
            break;
    }
    return out;
}

LineIndex::LineIndex(std::string_view s)
{
    for (size_t p = s.find('\n'); p != std::string_view::npos; p = s.find('\n', p + 1))
        newlines_.push_back(p);
}

uint32_t LineIndex::lineOf(size_t offset) const
{
    return uint32_t(std::lower_bound(newlines_.begin(), newlines_.end(), offset) - newlines_.begin()) + 1;
}

} // namespace fl::jsonpos
