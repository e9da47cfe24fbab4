// SPDX-License-Identifier: MIT
#include "views/common/nameranges.h"

#include <QStringList>

#include <algorithm>
#include <map>

namespace fl {

namespace {

// Runs of consecutive numbers: "1-3,7". Each run is one group.
QStringList runs(const std::vector<std::pair<long long, std::string>>& sorted)
{
    QStringList out;
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i;
        while (j + 1 < sorted.size() && sorted[j + 1].first == sorted[j].first + 1)
            ++j;
        QString run = QString::fromStdString(sorted[i].second);
        if (j > i)
            run += QLatin1Char('-') + QString::fromStdString(sorted[j].second);
        out << run;
        i = j + 1;
    }
    return out;
}

QString capped(const QStringList& groups, int maxGroups, qsizetype total)
{
    if (maxGroups <= 0 || groups.size() <= maxGroups)
        return groups.join(QLatin1Char(','));
    return groups.mid(0, maxGroups).join(QLatin1Char(','))
        + QStringLiteral(" … and %1 more").arg(total);
}

} // namespace

QString nameRanges(std::vector<std::string> names, int maxGroups)
{
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    // prefix + digit width -> (number, digits); the rest stay as names.
    std::map<std::pair<std::string, size_t>, std::vector<std::pair<long long, std::string>>> numbered;
    std::vector<std::string> plain;
    for (const std::string& n : names) {
        size_t d = n.size();
        while (d > 0 && n[d - 1] >= '0' && n[d - 1] <= '9')
            --d;
        const size_t width = n.size() - d;
        if (width == 0 || width > 15) {
            plain.push_back(n);
            continue;
        }
        numbered[{n.substr(0, d), width}].emplace_back(std::stoll(n.substr(d)), n.substr(d));
    }
    // Sorted as text above, and equal-width numbers sort the same as text.
    QStringList groups;
    int more = 0;
    for (const auto& [key, nums] : numbered) {
        const QString prefix = QString::fromStdString(key.first);
        if (nums.size() == 1) {
            groups << prefix + QString::fromStdString(nums.front().second);
            continue;
        }
        const QStringList r = runs(nums);
        QString body;
        if (maxGroups > 0 && r.size() > maxGroups) {
            body = r.mid(0, maxGroups).join(QLatin1Char(','));
            more += static_cast<int>(r.size() - maxGroups);
            body += QStringLiteral(",…");
        } else {
            body = r.join(QLatin1Char(','));
        }
        groups << prefix + QLatin1Char('[') + body + QLatin1Char(']');
    }
    for (const std::string& n : plain)
        groups << QString::fromStdString(n);
    QString text = capped(groups, maxGroups, groups.size() - maxGroups);
    if (more > 0)
        text += QStringLiteral(" (%1 more runs)").arg(more);
    return text;
}

QString numberRanges(std::vector<int> numbers, int maxGroups)
{
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    std::vector<std::pair<long long, std::string>> items;
    for (int n : numbers)
        items.emplace_back(n, std::to_string(n));
    const QStringList r = runs(items);
    return capped(r, maxGroups, r.size() - maxGroups);
}

} // namespace fl
