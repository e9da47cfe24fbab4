// torch.distributed.elastic's failure summary (ChildFailedError) as fields.
//
// torchrun prints, per host, one block naming the first failed worker:
//
//   Root Cause (first observed failure):
//   [0]:
//     time      : 2025-11-30_12:14:55
//     host      : node-3.cluster
//     rank      : 11 (local_rank: 3)
//     exitcode  : -6 (pid: 88412)
//     error_file: <N/A>
//     traceback : Signal 6 (SIGABRT) received by PID 88412
//
// (pytorch/pytorch@v2.5.1:torch/distributed/elastic/multiprocessing/errors/__init__.py,
// _MSG_FORMAT_TEMPLATE / _FAILURE_FORMAT_TEMPLATE, ChildFailedError.format_msg and
// _format_failure). The host, rank and exit code sit on separate lines, so no one-line
// rule pattern can hold them together. An extract rule with emit.read =
// "torchrun_root_cause" (RecordReader::TorchrunRootCause, checked by the rule
// loader) emits an event on the "Root Cause" line; this reads that event's
// record (the whole block, core/parse/extent.cpp) and sets the root entry's
// fields on it, and dates the event by the entry's `time`. What the event then means is decided by rules
// (rules/workload.jsonc: move_to the rank/host, infer the cause).
#pragma once

#include "model.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fl::detail {

struct State;

// The Root Cause entry of one summary block (`block`: its lines as printed,
// launcher labels and all). Fields (absent when the entry does not print them):
//   root_time, root_host (as printed), root_node (first label of the host name,
//   the whole name for an address), root_rank, root_local_rank, root_exitcode,
//   root_pid, root_error_file, root_message (the traceback line), root_signal
//   (SIGABRT ... from the traceback, else from a negative exit code),
//   root_how (root_signal, or "exit" for a positive exit code),
//   other_failures (entries under "Failures:").
// Empty when the block has no Root Cause entry.
std::map<std::string, std::string> readRootCause(std::string_view block);

// Fills the fields of every event from `firstEvent` on that a rule with
// emit.read = torchrun_root_cause extracted, reading its first observation's
// record from its file, and dates it by root_time when that fits the line's
// place in its log (else a warning). A file that cannot be read leaves the
// event as extracted, with a warning.
void readFailureSummaries(State& state, size_t firstEvent);

} // namespace fl::detail
