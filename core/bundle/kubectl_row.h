// A `kubectl get pods` row pasted without its header line (issue #41 item 6).
#pragma once

#include <string_view>

namespace fl {

// The cells of one row. printPod (kubernetes/kubernetes pkg/printers/internalversion/printers.go)
// prints NAME READY STATUS RESTARTS AGE, `-o wide` adds IP NODE NOMINATED-NODE READINESS-GATES and
// `-A` puts NAMESPACE first; RESTARTS reads "3" or, since 1.22, "3 (2m ago)".
struct KubectlPodRow {
    std::string_view name, ready, status, restarts, age, node;
};

// True when `line` is such a row beyond doubt: a DNS-1123 pod name, READY "n/m", a STATUS word,
// RESTARTS a count and AGE a kubectl duration ("45s", "5m", "3h10m", "2d", "<invalid>"), and
// nothing after AGE but the four -o wide cells. Anything else (prose, a log line that happens to
// hold "1/1") is not.
[[nodiscard]] bool readKubectlPodRow(std::string_view line, KubectlPodRow& out);

} // namespace fl
