// An event's fields: a handful of name -> value pairs (xid, seq, peer ...)
// kept sorted by name in one vector. A std::map spent a 112-byte node and a
// pointer chase per field; a 10,000-rank job has 80,000 events with three or
// four fields each, looked up by every rule that joins or groups on a field.
// Iteration order is the map's (byte order of the names), so everything
// written from the fields reads the same.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fl {

class FieldMap {
public:
    using key_type = std::string;
    using mapped_type = std::string;
    using value_type = std::pair<std::string, std::string>;
    using iterator = std::vector<value_type>::iterator;
    using const_iterator = std::vector<value_type>::const_iterator;

    FieldMap() = default;
    FieldMap(std::initializer_list<value_type> init) { assign(init.begin(), init.end()); }
    // A name given twice keeps its first value, as a std::map built from the same range.
    template <typename It>
    FieldMap(It first, It last) { assign(first, last); }

    iterator begin() { return items_.begin(); }
    iterator end() { return items_.end(); }
    const_iterator begin() const { return items_.begin(); }
    const_iterator end() const { return items_.end(); }
    size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    void clear() { items_.clear(); }

    const_iterator find(std::string_view key) const
    {
        auto it = lowerBound(key);
        return it != items_.end() && it->first == key ? it : items_.end();
    }
    iterator find(std::string_view key) { return mutableAt(std::as_const(*this).find(key)); }
    bool contains(std::string_view key) const { return find(key) != end(); }
    size_t count(std::string_view key) const { return contains(key) ? 1 : 0; }

    // The value of `key`, inserted empty when missing. The reference is valid
    // until the next insertion (a vector, not a tree).
    std::string& operator[](std::string_view key) { return tryEmplace(key, std::string()).first->second; }

    const std::string& at(std::string_view key) const
    {
        auto it = find(key);
        if (it == end())
            throw std::out_of_range("no field '" + std::string(key) + "'");
        return it->second;
    }

    // Inserts when `key` is missing; an existing value is kept.
    std::pair<iterator, bool> tryEmplace(std::string_view key, std::string value)
    {
        auto it = lowerBound(key);
        if (it != items_.end() && it->first == key)
            return {it, false};
        return {items_.emplace(it, std::string(key), std::move(value)), true};
    }
    std::pair<iterator, bool> insert(const value_type& v) { return tryEmplace(v.first, v.second); }

    size_t erase(std::string_view key)
    {
        auto it = find(key);
        if (it == end())
            return 0;
        items_.erase(it);
        return 1;
    }

    friend bool operator==(const FieldMap&, const FieldMap&) = default;

private:
    template <typename It>
    void assign(It first, It last)
    {
        for (; first != last; ++first)
            tryEmplace(first->first, first->second);
    }
    const_iterator lowerBound(std::string_view key) const
    {
        return std::lower_bound(items_.begin(), items_.end(), key,
                                [](const value_type& v, std::string_view k) { return std::string_view(v.first) < k; });
    }
    iterator lowerBound(std::string_view key) { return mutableAt(std::as_const(*this).lowerBound(key)); }
    iterator mutableAt(const_iterator it) { return items_.begin() + (it - items_.cbegin()); }

    std::vector<value_type> items_;
};

} // namespace fl
