// The template of a log line no rule knows: its message with what varies between runs masked, so that the
// same line printed by two attempts (other node names, pids, addresses, times) compares equal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fl::baseline {

// Masks, in this order: the job's node names (`nodes`, longest first) -> "<node>"; a path (a word that starts
// with '/') -> "<path>"; an IPv4 address (with its port) -> "<ip>"; a PCI / MAC / UUID-like word (hex digits
// joined by ':' '-' '.', with a ':' or at least two separators) -> "<addr>"; "0x..." and hex words of 8 or more
// characters holding a digit -> "<hex>"; every other run of digits -> "<n>". Runs of blanks become one space.
// Deterministic: no locale, no regex.
[[nodiscard]] std::string maskLine(std::string_view message, const std::vector<std::string>& nodes = {});

} // namespace fl::baseline
