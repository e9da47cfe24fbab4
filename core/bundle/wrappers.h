// Line wrappers: what a collecting tool puts before every line it relays (pdsh's "host: ", docker compose's
// "name  | ", kubectl logs --prefix's "[pod/p/c] ", ...). A table of shapes, each with the lines it must
// read (checked once, at first use): a file's wrapper is found once from its first lines, then each line
// is stripped with that one shape's reader, a few compares. The wrapped line is read as if it stood alone;
// what the wrapper names (host, pod, rank, pid) is kept.
//
// kubectl logs --timestamps puts the time the runtime received each line before the line's own stamp: a
// wrapper, so that the line's own time decides and its own prefixes are read from its start; the receive
// time stands in for a line that has none. CRI files ("<time> stdout F ") and RFC 5424 syslog are no
// wrappers: parseLine reads them as prefixes and keeps their time.
#pragma once

#include "model.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

// What a collecting tool put before every line of a file: found once per file from its first lines
// (detectWrapper); each line is then read, matched and sniffed from where the wrapped line starts.
enum class LineWrapper : uint8_t {
    None,
    Pdsh,          // pdsh / clush -L: "node-02: <line>"
    Compose,       // docker compose: "trainer-1  | <line>"
    KubectlPrefix, // kubectl logs --prefix: "[pod/trainer-0/main] <line>"
    Metaflow,      // "[<run>/<step>/<task> (pid N)] <line>"
    Ray,           // "(raylet) ", "(raylet, ip=10.0.0.5) ", "(RayTrainWorker pid=12, ip=10.0.0.5) "
    MpiTag,        // mpirun --tag-output: "[1,0]<stderr>:<line>"
    AzureMl,       // "[worker-0, 10.0.0.4] <line>"
    KubectlTimestamps, // kubectl logs --timestamps: "2024-03-14T09:57:40.123456789Z <line>" (RFC 3339, nanoseconds)
};

struct Unwrapped {
    size_t inner = 0;          // where the wrapped line starts
    std::string_view host;     // pdsh / clush host name
    std::string_view address;  // Ray / Azure ML node address (an IP: a hostmap names it)
    std::string_view pod;      // kubectl pod, compose container, Azure ML process name, Metaflow task
    int rank = -1;             // MPI rank
    int pid = -1;              // Metaflow / Ray pid
    std::string_view stamp;    // kubectl logs --timestamps: the receive time (RFC 3339), for a line without its own
};

struct WrapperShape {
    LineWrapper wrapper;
    std::string_view name;     // "pdsh", shown in a file's kind reason
    std::span<const std::string_view> samples; // lines the reader must take (and no earlier shape)
    bool (*read)(std::string_view line, Unwrapped& out);
};

// Every shape, most specific first. The first call checks each shape's samples (the table is data: a
// shape added without lines it reads, or whose lines an earlier shape takes, is caught there).
std::span<const WrapperShape> wrapperShapes();

// "" when every shape reads its samples as they say; else what is wrong, one shape a line.
std::string checkWrapperShapes();

// The wrapper every line of `head` carries (at least 4 in 5 of its first non-blank lines, and two of
// them, or its only line), else None. Bounded: looks at the first 64 lines.
LineWrapper detectWrapper(std::string_view head);

// Strips `w` from `line`; false (out untouched) when this line does not carry it (a launcher's own
// message between relayed lines).
bool unwrapLine(LineWrapper w, std::string_view line, Unwrapped& out);

// The wrapped line, or `line` itself when it does not carry `w`.
inline std::string_view innerLine(LineWrapper w, std::string_view line)
{
    if (w == LineWrapper::None)
        return line;
    Unwrapped u;
    return unwrapLine(w, line, u) ? line.substr(u.inner) : line;
}

std::string_view toString(LineWrapper);

// Slurm built for several slurmd on one host names its daemons after the node they stand for
// (src/slurmd/slurmstepd/mgr.c "slurmstepd-%s", src/slurmd/slurmd/slurmd.c "slurmd-%s"), so a step's
// stderr reads "slurmstepd-gpu-07: error: ..." and syslog's program name is "slurmstepd-gpu-07": a
// program name that holds a node, not a pdsh host. The node it names ("gpu-07"), else "".
std::string_view slurmDaemonNode(std::string_view programName);

// Such a daemon's name starting a line, "slurmstepd-gpu-07: error: ...": the node it names, else "". `after`,
// when given and a node is found, receives where the text after ": " starts.
std::string_view slurmDaemonPrefixNode(std::string_view line, size_t* after = nullptr);

} // namespace fl
