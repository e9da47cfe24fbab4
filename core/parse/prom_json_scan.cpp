#include "parse/prom_json_scan.h"

#include <charconv>

namespace fl::promjson {

namespace {

// Gives up (returns false up the calls) on anything the JSON library might read differently.
class Reader {
public:
    explicit Reader(std::string_view s) : s_(s) {}

    size_t pos() const { return p_; }
    uint32_t line() const { return line_; }
    void rewind(size_t p, uint32_t line)
    {
        p_ = p;
        line_ = line;
    }
    bool atEnd()
    {
        ws();
        return p_ == s_.size();
    }
    char peek()
    {
        ws();
        return p_ < s_.size() ? s_[p_] : '\0';
    }
    bool take(char c)
    {
        if (peek() != c)
            return false;
        ++p_;
        return true;
    }
    // A string without escapes, control or non-ASCII bytes (those the library would decode or check).
    bool string(std::string_view& out)
    {
        if (!take('"'))
            return false;
        const size_t from = p_;
        for (; p_ < s_.size(); ++p_) {
            const auto c = static_cast<unsigned char>(s_[p_]);
            if (c == '"') {
                out = s_.substr(from, p_ - from);
                ++p_;
                return true;
            }
            if (c == '\\' || c < 0x20 || c >= 0x80)
                return false;
        }
        return false;
    }
    // A number as JSON spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    bool number(std::string_view& text)
    {
        ws();
        const size_t from = p_;
        auto digits = [&] {
            const size_t d = p_;
            while (p_ < s_.size() && static_cast<unsigned char>(s_[p_] - '0') < 10)
                ++p_;
            return p_ - d;
        };
        if (p_ < s_.size() && s_[p_] == '-')
            ++p_;
        if (p_ < s_.size() && s_[p_] == '0')
            ++p_;
        else if (digits() == 0)
            return false;
        if (p_ < s_.size() && s_[p_] == '.') {
            ++p_;
            if (digits() == 0)
                return false;
        }
        if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
            ++p_;
            if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-'))
                ++p_;
            if (digits() == 0)
                return false;
        }
        text = s_.substr(from, p_ - from);
        return true;
    }
    // Any value, checked as the library would, its content not kept.
    bool skipValue(int depth = 0)
    {
        if (depth > 256)
            return false;
        const char c = peek();
        std::string_view ignored;
        if (c == '"')
            return string(ignored);
        if (c == '-' || (c >= '0' && c <= '9'))
            return number(ignored);
        if (c == '{') {
            ++p_;
            if (take('}'))
                return true;
            do {
                if (!string(ignored) || !take(':') || !skipValue(depth + 1))
                    return false;
            } while (take(','));
            return take('}');
        }
        if (c == '[') {
            ++p_;
            if (take(']'))
                return true;
            do {
                if (!skipValue(depth + 1))
                    return false;
            } while (take(','));
            return take(']');
        }
        for (std::string_view word : {"true", "false", "null"})
            if (s_.substr(p_, word.size()) == word) {
                p_ += word.size();
                return true;
            }
        return false;
    }
    // The members of an object, each key handed to `member`, which reads its value.
    template <typename F>
    bool object(F&& member)
    {
        if (!take('{'))
            return false;
        if (take('}'))
            return true;
        do {
            std::string_view key;
            if (!string(key) || !take(':') || !member(key))
                return false;
        } while (take(','));
        return take('}');
    }
    // The elements of an array, each read by `element`.
    template <typename F>
    bool array(F&& element)
    {
        if (!take('['))
            return false;
        if (take(']'))
            return true;
        do {
            if (!element())
                return false;
        } while (take(','));
        return take(']');
    }

private:
    void ws()
    {
        for (; p_ < s_.size(); ++p_) {
            const char c = s_[p_];
            if (c == '\n')
                ++line_;
            else if (c != ' ' && c != '\t' && c != '\r')
                return;
        }
    }

    std::string_view s_;
    size_t p_ = 0;
    uint32_t line_ = 1;
};

bool isNumberStart(char c) { return c == '-' || (c >= '0' && c <= '9'); }

// [time, "value"] (or [time, value]): handed to the sink; any other value there: handed as a bad pair
// (no time), which the sink reports as the library's reading would.
bool pair(Reader& r, Sink& sink)
{
    const char first = r.peek();
    const size_t at = r.pos();
    const uint32_t line = r.line();
    if (first == '[') {
        r.take('[');
        std::string_view time, value;
        bool shaped = isNumberStart(r.peek()) && r.number(time) && r.take(',');
        if (shaped) {
            const char c = r.peek();
            shaped = (c == '"' && r.string(value)) || (isNumberStart(c) && r.number(value));
            shaped = shaped && r.take(']');
        }
        double seconds = 0;
        if (shaped && std::from_chars(time.data(), time.data() + time.size(), seconds).ec == std::errc()) {
            sink.sample(seconds, value, at, line, r.line() == line ? static_cast<uint32_t>(r.pos() - at) : 0);
            return true;
        }
        r.rewind(at, line);
    }
    if (!r.skipValue())
        return false;
    sink.sample(0, {}, at, line, 0); // no plausible time: reported as a bad sample
    return true;
}

bool result(Reader& r, Sink& sink)
{
    bool named = false, sampled = false;
    return r.object([&](std::string_view key) {
        if (key == "metric") {
            if (named || sampled || r.peek() != '{')
                return false;
            named = true;
            std::string name;
            std::map<std::string, std::string> labels;
            const bool ok = r.object([&](std::string_view label) {
                if (r.peek() != '"')
                    return r.skipValue(); // the library's reading skips labels that are not strings
                std::string_view value;
                if (!r.string(value))
                    return false;
                if (label == "__name__") {
                    if (!name.empty())
                        return false;
                    name.assign(value);
                    return true;
                }
                return labels.emplace(std::string(label), std::string(value)).second;
            });
            if (ok)
                sink.series(std::move(name), std::move(labels));
            return ok;
        }
        if (key == "values") {
            if (!named || sampled || r.peek() != '[')
                return false;
            sampled = true;
            return r.array([&] { return pair(r, sink); });
        }
        if (key == "value") {
            if (!named || sampled || r.peek() == 'n') // null: the library's "neither values nor value"
                return false;
            sampled = true;
            return pair(r, sink);
        }
        return r.skipValue();
    }) && named && sampled;
}

} // namespace

bool scan(std::string_view data, Sink& sink)
{
    Reader r(data);
    bool sawData = false, sawResult = false;
    const bool ok = r.object([&](std::string_view key) {
        if (key != "data")
            return r.skipValue();
        if (sawData)
            return false;
        sawData = true;
        return r.object([&](std::string_view inner) {
            if (inner != "result")
                return r.skipValue();
            if (sawResult || r.peek() != '[')
                return false;
            sawResult = true;
            return r.array([&] { return result(r, sink); });
        });
    });
    return ok && sawResult && r.atEnd();
}

} // namespace fl::promjson
