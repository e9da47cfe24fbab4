// Text that many values carry and none changes. Every chain edge names the
// rule that drew it: a 10,000-rank job has 195,000 edges from a handful of
// rules, and a std::string each was 32 bytes plus a 48-byte heap copy of the
// same id; its 80,000 events name the rules that extracted, suppressed or
// re-roled them (Rule::sharedId). Reads as a const std::string&; compares by
// content.
#pragma once

#include <compare>
#include <memory>
#include <string>
#include <string_view>

namespace fl {

class SharedText {
public:
    SharedText() = default;
    SharedText(std::string s) : text_(s.empty() ? nullptr : std::make_shared<const std::string>(std::move(s))) {}
    SharedText(const char* s) : SharedText(std::string(s)) {}
    SharedText(std::string_view s) : SharedText(std::string(s)) {}

    const std::string& str() const { return text_ ? *text_ : none(); }
    operator const std::string&() const { return str(); }
    bool empty() const { return str().empty(); }
    const char* c_str() const { return str().c_str(); }

    friend bool operator==(const SharedText& a, const SharedText& b) { return a.text_ == b.text_ || a.str() == b.str(); }
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
    static const std::string& none()
    {
        static const std::string empty;
        return empty;
    }
    std::shared_ptr<const std::string> text_;
};

} // namespace fl
