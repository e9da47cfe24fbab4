// Runs never change once stored, so their result documents can be kept in memory
// and served without a copy: a byte-bounded LRU map from "session#run" to the document.
#pragma once

#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace fl::service {

class ResultCache {
public:
    explicit ResultCache(size_t maxBytes) : max_(maxBytes) {}

    std::shared_ptr<const std::string> get(const std::string& key)
    {
        std::lock_guard lock(mutex_);
        auto it = index_.find(key);
        if (it == index_.end())
            return nullptr;
        lru_.splice(lru_.begin(), lru_, it->second);
        return it->second->second;
    }

    void put(const std::string& key, std::shared_ptr<const std::string> doc)
    {
        if (!doc || doc->size() > max_ / 4) // one huge document must not flush everything else
            return;
        std::lock_guard lock(mutex_);
        if (index_.count(key))
            return;
        bytes_ += doc->size();
        lru_.emplace_front(key, std::move(doc));
        index_[key] = lru_.begin();
        while (bytes_ > max_ && !lru_.empty()) {
            bytes_ -= lru_.back().second->size();
            index_.erase(lru_.back().first);
            lru_.pop_back();
        }
    }

    // A deleted session: none of its runs ("session#…" keys) may be served from memory.
    void forgetPrefix(const std::string& prefix)
    {
        std::lock_guard lock(mutex_);
        for (auto it = lru_.begin(); it != lru_.end();) {
            if (it->first.compare(0, prefix.size(), prefix) == 0) {
                bytes_ -= it->second->size();
                index_.erase(it->first);
                it = lru_.erase(it);
            } else {
                ++it;
            }
        }
    }

    // After retention pruned sessions: none of their runs may be served from memory.
    void clear()
    {
        std::lock_guard lock(mutex_);
        lru_.clear();
        index_.clear();
        bytes_ = 0;
    }

private:
    using Entry = std::pair<std::string, std::shared_ptr<const std::string>>;
    const size_t max_;
    std::mutex mutex_;
    std::list<Entry> lru_;
    std::unordered_map<std::string, std::list<Entry>::iterator> index_;
    size_t bytes_ = 0;
};

} // namespace fl::service
