// Text that many values carry and none changes. Every chain edge names the
// rule that drew it: a 10,000-rank job has 195,000 edges from a handful of
// rules, and a std::string each was 32 bytes plus a 48-byte heap copy of the
// same id; its 80,000 events name the rules that extracted, suppressed or
// re-roled them (Rule::sharedId). Reads as a const std::string&; compares by
// content.
#pragma once

#include <atomic>
#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace fl {

class SharedText {
public:
    SharedText() = default;
    SharedText(std::string s) : rep_(s.empty() ? nullptr : new Rep{{1}, std::move(s)}) {}
    SharedText(const char* s) : SharedText(std::string(s)) {}
    SharedText(std::string_view s) : SharedText(std::string(s)) {}
    SharedText(const SharedText& o) noexcept : rep_(o.rep_) { retain(); }
    SharedText(SharedText&& o) noexcept : rep_(std::exchange(o.rep_, nullptr)) {}
    SharedText& operator=(const SharedText& o) noexcept
    {
        if (rep_ != o.rep_) {
            release();
            rep_ = o.rep_;
            retain();
        }
        return *this;
    }
    SharedText& operator=(SharedText&& o) noexcept
    {
        if (this != &o) {
            release();
            rep_ = std::exchange(o.rep_, nullptr);
        }
        return *this;
    }
    ~SharedText() { release(); }

    const std::string& str() const { return rep_ ? rep_->text : none(); }
    operator const std::string&() const { return str(); }
    bool empty() const { return str().empty(); }
    const char* c_str() const { return str().c_str(); }

    friend bool operator==(const SharedText& a, const SharedText& b) { return a.rep_ == b.rep_ || a.str() == b.str(); }
    // Against plain text without making a SharedText of it (an allocation per compare).
    friend bool operator==(const SharedText& a, std::string_view b) { return a.str() == b; }
    friend bool operator==(const SharedText& a, const std::string& b) { return a.str() == b; }
    friend bool operator==(const SharedText& a, const char* b) { return a.str() == b; }
    friend std::strong_ordering operator<=>(const SharedText& a, const SharedText& b)
    {
        const int c = a.str().compare(b.str());
        return c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
    }

private:
    // One pointer, not std::shared_ptr's two: a SymptomEvent holds seven of
    // these and a ChainEdge two (8 bytes each instead of 16). Copies are made
    // on the scan threads, so the count is atomic.
    struct Rep {
        std::atomic<uint32_t> refs;
        std::string text;
    };
    void retain() const noexcept
    {
        if (rep_)
            rep_->refs.fetch_add(1, std::memory_order_relaxed);
    }
    void release() noexcept
    {
        if (rep_ && rep_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
            delete rep_;
        rep_ = nullptr;
    }
    static const std::string& none()
    {
        static const std::string empty;
        return empty;
    }
    Rep* rep_ = nullptr;
};

static_assert(sizeof(SharedText) == sizeof(void*));

} // namespace fl
