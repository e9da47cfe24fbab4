#include "bundle/kubectl_row.h"

#include <array>
#include <cctype>

namespace fl {

namespace {

constexpr size_t kMaxCells = 12;

bool lower(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

// A DNS-1123 subdomain (pod names) or label (namespaces): lower-case alphanumerics, '-' and '.',
// starting and ending alphanumeric.
bool dnsName(std::string_view s)
{
    if (s.empty() || s.size() > 253 || !lower(s.front()) || !lower(s.back()))
        return false;
    for (char c : s)
        if (!lower(c) && c != '-' && c != '.')
            return false;
    return true;
}

bool count(std::string_view s)
{
    if (s.empty() || s.size() > 9)
        return false;
    for (char c : s)
        if (!digit(c))
            return false;
    return true;
}

// READY: "0/1".
bool ready(std::string_view s)
{
    const size_t slash = s.find('/');
    return slash != std::string_view::npos && count(s.substr(0, slash)) && count(s.substr(slash + 1));
}

// STATUS: a reason or phase ("OOMKilled", "CrashLoopBackOff"), "Init:<reason>", "Init:0/1",
// "Signal:9", "ExitCode:137".
bool status(std::string_view s)
{
    if (s.empty() || !std::isalpha(static_cast<unsigned char>(s.front())))
        return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != ':' && c != '/')
            return false;
    return true;
}

// AGE: duration.HumanDuration as kubectl prints it ("45s", "5m", "3h10m", "2d3h", "4y"), or
// "<invalid>" / "<unknown>".
bool age(std::string_view s)
{
    if (s == "<invalid>" || s == "<unknown>")
        return true;
    if (s.empty() || s.size() > 8)
        return false;
    bool unitSeen = false;
    size_t i = 0;
    while (i < s.size()) {
        const size_t b = i;
        while (i < s.size() && digit(s[i]))
            ++i;
        if (i == b || i >= s.size())
            return false;
        const char u = s[i++];
        if (u != 's' && u != 'm' && u != 'h' && u != 'd' && u != 'y')
            return false;
        unitSeen = true;
    }
    return unitSeen;
}

bool ip(std::string_view s)
{
    if (s == "<none>")
        return true;
    if (s.empty())
        return false;
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c)) && c != '.' && c != ':')
            return false;
    return true;
}

} // namespace

bool readKubectlPodRow(std::string_view line, KubectlPodRow& out)
{
    std::array<std::string_view, kMaxCells> cell{};
    size_t n = 0;
    for (size_t i = 0; i < line.size();) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        if (i >= line.size())
            break;
        if (n == kMaxCells)
            return false;
        const size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        cell[n++] = line.substr(b, i - b);
    }
    // NAMESPACE comes first with -A: the READY cell says where NAME is.
    size_t at = 0;
    if (n > 2 && ready(cell[2]) && !ready(cell[1]))
        at = 1;
    if (n < at + 5 || (at == 1 && !dnsName(cell[0])))
        return false;
    const std::string_view name = cell[at], rd = cell[at + 1], st = cell[at + 2], rs = cell[at + 3];
    size_t next = at + 4;
    // "3 (2m ago)": the count, then "(2m" and "ago)".
    if (next + 1 < n && cell[next].size() > 1 && cell[next].front() == '(' && cell[next + 1] == "ago)")
        next += 2;
    if (next >= n)
        return false;
    const std::string_view ag = cell[next++];
    if (!dnsName(name) || !ready(rd) || !status(st) || !count(rs) || !age(ag))
        return false;
    std::string_view node;
    if (next < n) {
        // -o wide: IP NODE NOMINATED NODE READINESS GATES, nothing else
        if (n - next != 4 || !ip(cell[next]) || !(cell[next + 1] == "<none>" || dnsName(cell[next + 1])))
            return false;
        node = cell[next + 1] == "<none>" ? std::string_view() : cell[next + 1];
    }
    out = {name, rd, st, rs, ag, node};
    return true;
}

} // namespace fl
