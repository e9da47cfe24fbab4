// A Prometheus query result (`/api/v1/query_range` matrix, `/api/v1/query` vector) read
// straight from its text, without a JSON document: a DCGM scrape of 1,250 nodes is 6.6
// million [time, "value"] pairs, and building them as JSON values (two allocations a pair,
// freed again) was most of analyze's time on it. Only the plain shape Prometheus writes is
// read here; anything else (an escape or a non-ASCII byte in a string, keys repeated or in
// another order, a sample that is not [number, value], malformed JSON) makes it give up, and
// the caller reads the file with the JSON library, which knows every case. Internal to core/parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace fl::promjson {

class Sink {
public:
    virtual ~Sink() = default;
    // A result's labels, `__name__` taken out as its name; its samples follow.
    virtual void series(std::string&& name, std::map<std::string, std::string>&& labels) = 0;
    // One [time, value] pair of the last series: its time in seconds, its value as written (a
    // string's contents, or a number's text), where the pair starts, its 1-based line and its length
    // from '[' to ']' (0 when it spans lines or is not a pair).
    virtual void sample(double seconds, std::string_view value, size_t offset, uint32_t line, uint32_t length) = 0;
};

// False when the text is not of the plain shape (the sink may have been fed part of it: start again).
[[nodiscard]] bool scan(std::string_view data, Sink& sink);

} // namespace fl::promjson
