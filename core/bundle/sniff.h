// Content sniffing over the first bytes of a file: is it text, what shape are
// its lines, which host wrote them. Bounded: callers pass at most kHeadBytes.
#pragma once

#include "bundle/wrappers.h"
#include "model.h"

#include <string>
#include <string_view>

namespace fl {

inline constexpr size_t kHeadBytes = 64 * 1024;
inline constexpr size_t kSampleLines = 400;
// What classify samples of every file for its kind and host: each text file is sniffed now, whatever its
// name, and the first lines settle both (a mixed console's later lines are the scan's: mixedShapes).
inline constexpr size_t kClassifyLines = 128;

// NUL bytes, or more than 30% control bytes / invalid UTF-8 sequences.
bool looksBinary(std::string_view head);

// Only spaces, tabs, CR, LF, FF, VT (or nothing).
bool isBlank(std::string_view data);

// First line is comma-separated with a time column (timestamp, time, ts, date, datetime).
bool looksLikeMetricsCsvHeader(std::string_view head);

// Both read each sampled line from where `wrapper` (found by detectWrapper on the same head) lets it start.
struct ContentShape {
    SourceKind kind = SourceKind::Unknown;
    std::string reason; // "NVRM lines (3 of 12 sampled lines)"
    // Kernel lines beside application lines (a pasted console, a journal holding a job's output): each
    // line is matched as the kind lineKindByShape gives it.
    bool mixed = false;
};
ContentShape sniffContent(std::string_view head, LineWrapper wrapper = LineWrapper::None,
                          size_t maxLines = kSampleLines);

struct ContentHost {
    std::string host;   // empty unless every host-bearing sampled line agrees
    std::string reason;
};
ContentHost hostFromContent(std::string_view head, LineWrapper wrapper = LineWrapper::None,
                            size_t maxLines = kSampleLines);

// sniffContent(head, wrapper).mixed, with a quick no when the head holds no kernel word or no application
// word at all (nearly every file: two memchr-speed searches instead of a sampled sniff).
bool mixedShapes(std::string_view head, LineWrapper wrapper);

// The host a bundle path's file name (else nearest folder) names, "" when none; `reason` says which part.
// The lines' host wins over it (classify); placement still reconciles the two ("rack7-e02" / "gpu-rack7-e02").
std::string hostFromPath(std::string_view path, std::string& reason);

// The kind of one (unwrapped) line of a mixed file whose kind is `fileKind`: a kernel line (NVRM, "kernel:",
// a dmesg stamp) is a system log line wherever it stands; an application line (NCCL, torch, a traceback)
// inside a system log is an application line; the rest keep the file's kind.
SourceKind lineKindByShape(std::string_view line, SourceKind fileKind);
// The other kind lineKindByShape can give a line of a mixed file of `fileKind`.
SourceKind otherShapeKind(SourceKind fileKind);

// The kind of one (unwrapped) line of a file with no kind of its own (SourceFile::linesByShape): a kernel
// line is a system log's, a Slurm daemon's or client's line (slurmstepd, slurmd, slurmctld, srun, sbatch,
// salloc) and a kubelet's are a scheduler's, the rest an application's.
SourceKind lineKindOfText(std::string_view line);
// The kinds lineKindOfText gives, for the scan's candidate search.
inline constexpr SourceKind kTextLineKinds[] = {SourceKind::AppLog, SourceKind::SysLog, SourceKind::Scheduler};

} // namespace fl
