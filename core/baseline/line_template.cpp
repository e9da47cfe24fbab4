#include "baseline/line_template.h"

#include <algorithm>

namespace fl::baseline {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool isAlnum(char c) { return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isWordChar(char c) { return isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '-'; }
bool isBlank(char c) { return c == ' ' || c == '\t'; }

// "10.0.3.7" or "10.0.3.7:29500": four dot-separated numbers of 1..3 digits, optionally a port.
bool isIpv4(std::string_view w)
{
    int parts = 0;
    size_t i = 0;
    while (parts < 4) {
        size_t start = i;
        while (i < w.size() && isDigit(w[i]))
            ++i;
        if (i == start || i - start > 3)
            return false;
        ++parts;
        if (parts < 4) {
            if (i >= w.size() || w[i] != '.')
                return false;
            ++i;
        }
    }
    if (i == w.size())
        return true;
    if (w[i] != ':' || i + 1 == w.size())
        return false;
    return std::all_of(w.begin() + static_cast<std::ptrdiff_t>(i) + 1, w.end(), isDigit);
}

bool isAddress(std::string_view w)
{
    int separators = 0, hexDigits = 0;
    bool colon = false, digit = false;
    for (char c : w) {
        if (c == ':' || c == '-' || c == '.') {
            ++separators;
            colon = colon || c == ':';
        } else if (isHex(c)) {
            ++hexDigits;
            digit = digit || isDigit(c);
        } else {
            return false;
        }
    }
    return digit && hexDigits >= 2 && (colon || separators >= 2) && w.front() != ':' && w.back() != ':';
}

bool isHexId(std::string_view w)
{
    if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'))
        return std::all_of(w.begin() + 2, w.end(), isHex);
    return w.size() >= 8 && std::all_of(w.begin(), w.end(), isHex) && std::any_of(w.begin(), w.end(), isDigit);
}

void maskWord(std::string_view w, std::string& out)
{
    // Trailing punctuation that ends a sentence or a field is not part of the value.
    size_t end = w.size();
    while (end > 0 && (w[end - 1] == '.' || w[end - 1] == ':' || w[end - 1] == '-'))
        --end;
    const std::string_view core = w.substr(0, end), tail = w.substr(end);
    if (std::none_of(core.begin(), core.end(), isDigit)) {
        out += w;
        return;
    }
    const auto dashes = std::count(core.begin(), core.end(), '-');
    if (dashes >= 3 && !isAddress(core)) {
        // "GPU-5d3b2a1c-7e8f-4a9b-b1c2-d3e4f5a6b7c8", "MIG-...": an id of hex groups behind a name.
        size_t from = 0;
        while (from <= core.size()) {
            const size_t to = std::min(core.find('-', from), core.size());
            const std::string_view part = core.substr(from, to - from);
            const bool hex = !part.empty() && std::all_of(part.begin(), part.end(), isHex) &&
                             std::any_of(part.begin(), part.end(), isDigit);
            if (hex)
                out += "<hex>";
            else
                maskWord(part, out);
            if (to == core.size())
                break;
            out += '-';
            from = to + 1;
        }
        out += tail;
        return;
    }
    if (isIpv4(core))
        out += "<ip>";
    else if (isHexId(core))
        out += "<hex>";
    else if (isAddress(core))
        out += "<addr>";
    else {
        for (size_t i = 0; i < core.size();) {
            if (isDigit(core[i])) {
                while (i < core.size() && isDigit(core[i]))
                    ++i;
                out += "<n>";
            } else {
                out += core[i++];
            }
        }
    }
    out += tail;
}

} // namespace

std::string maskLine(std::string_view message, const std::vector<std::string>& nodes)
{
    std::vector<std::string_view> names;
    for (const auto& n : nodes)
        if (n.size() >= 2)
            names.push_back(n);
    std::sort(names.begin(), names.end(),
              [](std::string_view a, std::string_view b) { return a.size() != b.size() ? a.size() > b.size() : a < b; });

    std::string out;
    out.reserve(message.size());
    size_t i = 0;
    while (i < message.size() && isBlank(message[i]))
        ++i;
    while (i < message.size()) {
        const char c = message[i];
        if (isBlank(c)) {
            while (i < message.size() && isBlank(message[i]))
                ++i;
            if (i < message.size())
                out += ' ';
            continue;
        }
        const bool wordStart = i == 0 || !isWordChar(message[i - 1]);
        if (wordStart) {
            bool named = false;
            for (std::string_view n : names) {
                if (message.compare(i, n.size(), n) == 0 &&
                    (i + n.size() == message.size() || !isAlnum(message[i + n.size()]))) {
                    out += "<node>";
                    i += n.size();
                    named = true;
                    break;
                }
            }
            if (named)
                continue;
        }
        if (c == '/' && wordStart) {
            while (i < message.size() && !isBlank(message[i]) && message[i] != '\'' && message[i] != '"' &&
                   message[i] != ')' && message[i] != ']' && message[i] != ',')
                ++i;
            out += "<path>";
            continue;
        }
        if (isWordChar(c)) {
            size_t j = i;
            while (j < message.size() && isWordChar(message[j]))
                ++j;
            maskWord(message.substr(i, j - i), out);
            i = j;
            continue;
        }
        out += c;
        ++i;
    }
    return out;
}

} // namespace fl::baseline
