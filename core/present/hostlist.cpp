#include "present/hostlist.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace fl::present {

namespace {

std::string padded(long long v, size_t width)
{
    std::string s = std::to_string(v);
    if (s.size() < width)
        s.insert(0, width - s.size(), '0');
    return s;
}

// One run: "a", or "a-b" when it spans more than one number.
std::string runText(long long first, long long last, size_t width)
{
    return padded(first, width) + (last != first ? "-" + padded(last, width) : std::string());
}

// Runs of consecutive numbers of a sorted list without duplicates.
std::vector<std::string> runsOf(const std::vector<long long>& sorted, size_t width)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i;
        while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
            ++j;
        out.push_back(runText(sorted[i], sorted[j], width));
        i = j + 1;
    }
    return out;
}

std::vector<std::string> runsOf(const std::vector<IndexRange>& ranges)
{
    std::vector<std::string> out;
    out.reserve(ranges.size());
    for (const auto& r : ranges)
        out.push_back(runText(r.first, r.last, 0));
    return out;
}

// The first `maxGroups` items (all when 0), comma-separated; `cut` says how many were left out.
std::string joined(const std::vector<std::string>& items, size_t maxGroups, size_t& cut)
{
    const size_t n = maxGroups > 0 ? std::min(items.size(), maxGroups) : items.size();
    cut = items.size() - n;
    std::string out;
    for (size_t i = 0; i < n; ++i)
        out += (i ? "," : "") + items[i];
    return out;
}

std::string withMore(std::string text, size_t cut)
{
    return cut > 0 ? text + " … and " + std::to_string(cut) + " more" : text;
}

} // namespace

std::string compressHostList(const std::vector<std::string>& hosts, size_t maxGroups)
{
    // (prefix, width) -> numbers; width 0 = printed without padding.
    std::map<std::pair<std::string, size_t>, std::vector<long long>> groups;
    std::vector<std::pair<std::string, std::string>> entries; // sort key, text
    auto digitsAt = [](const std::string& h) {
        size_t pos = h.size();
        while (pos > 0 && h[pos - 1] >= '0' && h[pos - 1] <= '9')
            --pos;
        return pos;
    };
    // Zero-padded widths in use per prefix: "node-1000" belongs with "node-0999".
    std::set<std::pair<std::string, size_t>> paddedWidths;
    for (const auto& h : hosts) {
        const size_t pos = digitsAt(h);
        if (h.size() - pos > 1 && h[pos] == '0')
            paddedWidths.insert({h.substr(0, pos), h.size() - pos});
    }
    for (const auto& h : hosts) {
        const size_t pos = digitsAt(h);
        const size_t digits = h.size() - pos;
        if (digits == 0 || digits > 18) {
            entries.push_back({h, h});
            continue;
        }
        std::string prefix = h.substr(0, pos);
        const size_t width = paddedWidths.count({prefix, digits}) ? digits : 0;
        groups[{std::move(prefix), width}].push_back(std::stoll(h.substr(pos)));
    }
    size_t moreRuns = 0;
    for (auto& [key, nums] : groups) {
        const auto& [prefix, width] = key;
        std::sort(nums.begin(), nums.end());
        nums.erase(std::unique(nums.begin(), nums.end()), nums.end());
        const std::string first = prefix + padded(nums.front(), width);
        if (nums.size() == 1) {
            entries.push_back({first, first});
            continue;
        }
        size_t cut = 0;
        const std::string runs = joined(runsOf(nums, width), maxGroups, cut);
        moreRuns += cut;
        entries.push_back({first, prefix + "[" + runs + (cut > 0 ? ",…" : "") + "]"});
    }
    std::sort(entries.begin(), entries.end());
    std::vector<std::string> items;
    items.reserve(entries.size());
    for (auto& [k, text] : entries)
        items.push_back(std::move(text));
    items.erase(std::unique(items.begin(), items.end()), items.end());
    size_t cut = 0;
    std::string out = joined(items, maxGroups, cut);
    out = withMore(std::move(out), cut);
    if (moreRuns > 0)
        out += " (" + std::to_string(moreRuns) + " more runs)";
    return out;
}

std::vector<IndexRange> toRanges(std::vector<int> values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::vector<IndexRange> out;
    for (int v : values) {
        if (!out.empty() && out.back().last + 1 == v)
            out.back().last = v;
        else
            out.push_back({v, v});
    }
    return out;
}

std::string formatRanges(const std::vector<IndexRange>& ranges, size_t maxGroups)
{
    size_t cut = 0;
    const std::string text = joined(runsOf(ranges), maxGroups, cut);
    return withMore(text, cut);
}

std::string numberRanges(std::vector<int> numbers, size_t maxGroups)
{
    return formatRanges(toRanges(std::move(numbers)), maxGroups);
}

std::optional<std::vector<std::string>> expandHostList(std::string_view list, std::string& error, size_t maxHosts)
{
    const std::string tooMany = "host list expands to more than " + std::to_string(maxHosts) + " hosts";
    std::vector<std::string> out;
    size_t i = 0;
    while (i < list.size()) {
        // One item: prefix[ranges]suffix... up to a comma outside brackets.
        size_t end = i;
        int depth = 0;
        for (; end < list.size(); ++end) {
            if (list[end] == '[')
                ++depth;
            else if (list[end] == ']')
                --depth;
            else if (list[end] == ',' && depth == 0)
                break;
            if (depth < 0 || depth > 1) {
                error = "unbalanced '[' in host list '" + std::string(list.substr(0, 200)) + "'";
                return std::nullopt;
            }
        }
        if (depth != 0) {
            error = "unbalanced '[' in host list '" + std::string(list.substr(0, 200)) + "'";
            return std::nullopt;
        }
        std::vector<std::string> items{""};
        std::string_view item = list.substr(i, end - i);
        size_t p = 0;
        while (p < item.size()) {
            const size_t open = item.find('[', p);
            const std::string_view literal = item.substr(p, open == std::string_view::npos ? item.npos : open - p);
            for (auto& s : items)
                s += literal;
            if (open == std::string_view::npos)
                break;
            const size_t close = item.find(']', open);
            std::vector<std::string> parts;
            std::string_view ranges = item.substr(open + 1, close - open - 1);
            size_t q = 0;
            while (q <= ranges.size()) {
                size_t comma = ranges.find(',', q);
                if (comma == std::string_view::npos)
                    comma = ranges.size();
                const std::string_view r = ranges.substr(q, comma - q);
                const size_t dash = r.find('-');
                const std::string_view lo = r.substr(0, dash);
                const std::string_view hi = dash == std::string_view::npos ? lo : r.substr(dash + 1);
                auto digits = [](std::string_view d) {
                    return !d.empty() && d.size() <= 9 && d.find_first_not_of("0123456789") == std::string_view::npos;
                };
                if (!digits(lo) || !digits(hi)) {
                    error = "bad range '" + std::string(r) + "' in host list";
                    return std::nullopt;
                }
                const long a = std::stol(std::string(lo)), b = std::stol(std::string(hi));
                if (b < a || static_cast<size_t>(b - a) >= maxHosts) {
                    error = "bad range '" + std::string(r) + "' in host list";
                    return std::nullopt;
                }
                for (long n = a; n <= b; ++n) {
                    std::string num = std::to_string(n);
                    if (num.size() < lo.size()) // zero padding as written: [01-10]
                        num.insert(0, lo.size() - num.size(), '0');
                    parts.push_back(std::move(num));
                }
                q = comma + 1;
            }
            if (items.size() * parts.size() > maxHosts) {
                error = tooMany;
                return std::nullopt;
            }
            std::vector<std::string> next;
            for (const auto& s : items)
                for (const auto& part : parts)
                    next.push_back(s + part);
            items = std::move(next);
            p = close + 1;
        }
        for (auto& s : items)
            if (!s.empty())
                out.push_back(std::move(s));
        if (out.size() > maxHosts) {
            error = tooMany;
            return std::nullopt;
        }
        i = end + 1;
    }
    return out;
}

} // namespace fl::present
