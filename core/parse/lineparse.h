// Pure functions that read one log line's prefixes: timestamp, host, rank,
// device, severity. Every input is hostile: no allocation per line, no throws,
// bounded work per byte.
#pragma once

#include "bundle/wrappers.h"
#include "model.h"

#include <optional>
#include <string_view>

namespace fl {

struct TimeContext {
    int defaultYear = 0;             // for syslog "Mon DD HH:MM:SS"; 0 = unknown -> AssumedYear with year 1970
    // When set, clocks printed without a year take their year from this time
    // instead of defaultYear: the latest year that does not put them after it
    // (yearRefIsLatest: a file's modification time, the manifest's window end),
    // else the year that puts them nearest to it (a dated line). Either way a
    // syslog that runs over New Year gets December and January right.
    int64_t yearRefNs = kNoTime;
    bool yearRefIsLatest = false;
    int64_t bootTimeNs = kNoTime;    // for dmesg "[secs]" on this file's node
    int tzOffsetSec = 0;             // zone for timestamps printed without one
    // What every line of the file is wrapped in (bundle/wrappers.h): parseLine reads the wrapped line, and
    // takes the host, pod and rank the wrapper names when the wrapped line does not name its own.
    LineWrapper wrapper = LineWrapper::None;
};

struct LineInfo {
    int64_t timeNs = kNoTime;
    TimeBasis basis = TimeBasis::None;
    int64_t resolutionNs = 0;        // what the stamp cannot tell apart: 1 s for syslog, 1 us for glog
    double bootSeconds = -1;         // dmesg "[12345.678901]" when present (also inside syslog lines)
    std::string_view host;           // syslog host field or NCCL "host:pid:tid" host, else the wrapper's host
    // `host` is only an address a wrapper printed (Ray's "ip=", Azure ML's): the same machine a file's name
    // may already call by its name, so it stands in for a node only where nothing else names one.
    bool hostIsAddress = false;
    std::string_view pod;            // what a wrapper names besides a host: kubectl pod, compose container
    int rank = -1;                   // "[rank3]:", "[default3]:", srun "3: ", "[Rank 3]"
    bool rankIsLocal = false;        // only torchrun's "[default3]:" (a local rank) was seen
    int localRank = -1;              // torchrun "[default3]:" / "[trainer3]:": the rank on its node
    int task = -1;                   // srun --label "3: ": the Slurm task id
    int pid = -1;                    // NCCL "host:pid:tid", Ray "(pid=N, ip=...)"
    bool rankFromLabel = false;      // `rank` is a prefix label (mpirun, srun, "[rank3]:"), not "[Rank 3]" in the message
    int device = -1;                 // NCCL "[dev]"
    std::optional<Severity> severity;// glog letter, NCCL WARN/INFO, "ERROR"/"WARNING" level words
    size_t messageStart = 0;         // where the message starts after all recognised prefixes
};

LineInfo parseLine(std::string_view line, SourceKind kind, const TimeContext& ctx);

// False when parseLine cannot find a dmesg uptime ("[  12.345678]") in the line: it has no "[" followed by
// spaces, digits, "." and a digit. A cheap test before a parse that is only wanted for the uptime.
bool mayHoldUptime(std::string_view line);

// Learns a file's TimeContext from a sample of its lines (head of the file):
// boot time from lines that print both wall clock and "[uptime]", year from
// full dates. `fallbackYear` is used when nothing in the sample says.
TimeContext inferTimeContext(std::string_view sample, SourceKind kind, int fallbackYear);

// Where the year of year-less clocks comes from when the file's own head has
// no full date: the first that is set wins.
struct YearHint {
    int64_t latestNs = kNoTime;      // nothing in the bundle is after it: manifest window end / detected_at
    int64_t nearNs = kNoTime;        // the bundle is near it: manifest window start, a dated line in another file
    int64_t fileLatestNs = kNoTime;  // the file was last written then: its modification time / archive member time
};
// Time of the first line with a full date (ISO 8601, dmesg -T, ...) in the sample, else kNoTime.
int64_t firstFullDateNs(std::string_view sample, SourceKind kind);

// As above, with the year taken from `hint` when the sample has no full date.
// yearRefNs stays kNoTime when nothing gives a year.
TimeContext inferTimeContext(std::string_view sample, SourceKind kind, const YearHint& hint);

// For a line without its own time: the time of the nearest earlier line in
// `buffer` that has one (looking back at most `maxLines` lines), else kNoTime.
// `basis`, when given, receives that line's time basis.
int64_t inheritedTime(std::string_view buffer, size_t lineBegin, SourceKind kind,
                      const TimeContext& ctx, int maxLines = 256, TimeBasis* basis = nullptr);

// The last inheritedTime search over one buffer, kept by a caller that asks for lines in ascending order with
// the same kind and context: a later search that walks back to where this one began takes its
// answer instead of walking on. An NCCL log's untimed lines come in runs, and each walked back over the run.
struct LookBehind {
    size_t from = std::string_view::npos;    // lineBegin of that search
    size_t foundAt = std::string_view::npos; // start of the stamped line it found; npos: none
    int lines = 0;             // lines it walked, the stamped one included; with none found: lines known untimed
    bool reachedStart = false; // none found, and every line back to the buffer's start is untimed
    int64_t timeNs = kNoTime;
    TimeBasis basis = TimeBasis::None;
};
// The same answer as the overload above; `memo` is read and then describes this search.
int64_t inheritedTime(std::string_view buffer, size_t lineBegin, SourceKind kind, const TimeContext& ctx,
                      int maxLines, TimeBasis* basis, LookBehind& memo);

// UTC civil time -> ns since epoch; kNoTime when it does not fit. Exposed for tests and other parsers.
int64_t civilToNs(int year, int month, int day, int hour, int minute, int second, int64_t nanos);

} // namespace fl
