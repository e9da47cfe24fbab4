// Helpers the readers of cluster tools' text (kubectl, scontrol, nvidia-smi -q,
// dcgmi diag) share. Internal to core/parse.
#pragma once

#include "parse/structured.h"

#include <string>
#include <string_view>
#include <vector>

namespace fl::clustertext {

// "Mon, 30 Nov 2026 12:14:55 +0000" (Go's time.RFC1123Z, as kubectl describe prints times) -> ns.
[[nodiscard]] bool rfc1123z(std::string_view text, int64_t& ns);

// The fields of a table row printed in columns (kubectl get): cells are separated by two
// or more spaces, the column starts taken from the header.
struct Columns {
    std::vector<std::string> names;
    std::vector<size_t> starts;
};
[[nodiscard]] bool headerColumns(std::string_view header, Columns& out);
std::vector<std::string_view> cells(std::string_view row, const Columns& cols);

// A record of one line [offset, offset + length) of `data`.
StructuredRecord lineRecord(size_t offset, std::string_view line, uint32_t lineNo);
// Stretches `r` to end with the line [offset, offset + length).
void extendTo(StructuredRecord& r, size_t offset, size_t length, uint32_t lineNo);

} // namespace fl::clustertext

namespace fl::clustertext {

// Appends to `out` the reader's records `recs` and, each as a record whose text is the line
// itself, the lines of `data` that none of them covers: the shipped line rules read those as in
// any text file ("kubectl describe"'s Events table, a warning printed above a table). What is
// appended is in file order.
void deliver(std::string_view data, std::vector<StructuredRecord>& recs, std::vector<StructuredRecord>& out);

// "key=value" canonical text parts; the value made one line and capped.
void field(std::string& text, std::string_view key, std::string_view value, size_t cap = 256);

} // namespace fl::clustertext
