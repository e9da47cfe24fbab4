// Plain, copyable data that flows one way through the engine:
// bundle files -> observations -> symptom events -> verdict (Result).
// Nothing here knows about Qt widgets; views consume these structs read-only.
#pragma once

#include "field_map.h"
#include "held_bytes.h"
#include "ids.h"
#include "shared_text.h"

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

inline constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

enum class SourceKind : uint8_t {
    AppLog,        // application stdout/stderr, one per rank or per job
    SysLog,        // syslog, dmesg, kern.log, journal
    FabricManager, // nvidia-fabricmanager log
    Scheduler,     // Slurm / Kubernetes records
    Metrics,       // Prometheus JSON, OpenMetrics text, CSV
    GpuSnapshot,   // nvidia-smi output
    Manifest,      // workload.json
    HostMap,       // address -> host name: nslookup output, /etc/hosts
    Unknown,
};
std::string_view toString(SourceKind);
[[nodiscard]] std::optional<SourceKind> sourceKindFromString(std::string_view);

enum class Severity : uint8_t { Debug, Info, Warning, Error, Fatal };
std::string_view toString(Severity);
[[nodiscard]] std::optional<Severity> severityFromString(std::string_view);

// How an observation's timestamp was obtained. Reviewers need this: a time
// inherited from a neighbouring line or guessed from a boot offset is weaker
// than one printed on the line itself.
enum class TimeBasis : uint8_t {
    None,          // no usable time
    Absolute,      // full date and zone on the line (ISO 8601 with offset, epoch)
    AssumedUtc,    // full date, no zone on the line: taken as UTC (or manifest zone)
    AssumedYear,   // syslog "Mon DD HH:MM:SS": year from manifest/bundle/mtime
    BootOffset,    // dmesg "[secs]" + a known boot time
    BootRelative,  // dmesg "[secs]" without boot time: only ordered within its node
    Inherited,     // no time on the line: the nearest timed line before it (interval: up to the one after)
};
std::string_view toString(TimeBasis);

// Where the true moment of a line lies: [earliestNs, latestNs], both inclusive.
// A stamp is its printed second (or ms, us ...) plus its resolution; a line
// without a stamp lies between the stamped lines around it. kNoTime on a side
// means "not bounded there". Observations and events hold it on their node's
// own clock; candidates and the root cause hold it after the node's clock
// offset is removed (and widened by what that offset does not know).
struct TimeInterval {
    int64_t earliestNs = kNoTime;
    int64_t latestNs = kNoTime;
    bool bounded() const { return earliestNs != kNoTime && latestNs != kNoTime; }
    friend bool operator==(const TimeInterval&, const TimeInterval&) = default;
};

// A moment as the evidence gives it: the time, how it was obtained and where
// the true moment lies. One value, so that no time travels (or is printed,
// core/present/timefmt.h) without its basis: a boot-relative time is not a date.
struct Timestamp {
    int64_t ns = kNoTime;
    TimeBasis basis = TimeBasis::None;
    TimeInterval interval;     // unbounded where the holder does not keep one (EvidenceItem)
    bool known() const { return ns != kNoTime; }
    friend bool operator==(const Timestamp&, const Timestamp&) = default;
};

// One shared moment a node's offset rests on: what it was and how far this node's clock put it from the
// nodes' median time of it.
struct ClockMoment {
    std::string key;           // "SeqNum 5210 ALLREDUCE" (a watchdog's collective), an NCCL commId, a launch
    int64_t deviationNs = 0;   // this node's time of the moment minus the median of the nodes that recorded it
    uint32_t nodes = 0;        // how many nodes recorded it
    friend bool operator==(const ClockMoment&, const ClockMoment&) = default;
};

// A node's clock against the consensus of the nodes, estimated from moments
// every node records together (the same collective's watchdog timeout ...).
struct ClockOffset {
    std::string node;
    int64_t offsetNs = 0;      // node clock minus consensus clock
    int64_t residualNs = 0;    // how far the anchors stray from the estimate (widens this node's times)
    uint32_t anchors = 0;      // shared moments the estimate rests on
    std::string basis;         // what the anchors were ("nccl.watchdog_timeout SeqNum")
    std::vector<ClockMoment> moments; // the anchors, by key: the offset is their deviations' median
};

// Exact location of raw evidence. `file` indexes Bundle::files. (The offset
// comes first so that the four 32-bit members pack without padding: 24 bytes,
// held by each of a 10,000-rank job's 200,000 observations.)
struct RawRef {
    uint64_t offset = 0;     // byte offset of the first byte of the first line
    FileId file;
    uint32_t length = 0;     // bytes, up to (not including) the final newline
    uint32_t line = 0;       // 1-based line number of the first line
    uint32_t lineCount = 1;  // multi-line records span several lines
    friend bool operator==(const RawRef&, const RawRef&) = default;
};

enum class FileStatus : uint8_t {
    Ok,            // parsed, produced observations or at least readable lines
    Empty,         // zero bytes or only whitespace
    Error,         // unreadable, truncated, too large, escaped the bundle
    Unrecognized,  // readable but not a kind we parse (kept in coverage)
    Skipped,       // deliberately not parsed (binary, manifest, notes)
};
std::string_view toString(FileStatus);

struct SourceFile {
    FileId index;
    std::string path;          // path inside the bundle, '/'-separated, for display and refs
    std::string diskPath;      // where the bytes are on disk (may be an extraction folder); empty when in memory
    // An archive member the loader kept in memory instead (LoadOptions::memoryBytes); open either with
    // openSource (bundle.h). Shared by the copies of the bundle, so it lives as long as the last of them.
    HeldBytes memory;
    uint64_t size = 0;
    SourceKind kind = SourceKind::Unknown;
    std::string kindReason;    // why it was taken for that kind ("name token 'syslog'", "content: NVRM lines")
    // Text whose name and content settle no kind (a pasted console of a few lines): each line is matched as
    // the kind its own shape gives it (lineKindOfText), so no line of evidence goes unread.
    bool linesByShape = false;
    std::string node;          // empty if unknown
    std::string nodeReason;
    int rank = -1;
    std::string rankReason;
    FileStatus status = FileStatus::Ok;
    std::string statusReason;  // why empty/error/unrecognized/skipped
    uint64_t lines = 0;        // counted while scanning
    uint64_t observations = 0; // observations produced from this file
    uint64_t parseErrors = 0;  // lines that looked like a known shape but did not parse
    int64_t firstTimeNs = kNoTime;
    int64_t lastTimeNs = kNoTime;
    int64_t modifiedNs = kNoTime; // file mtime / archive member time: the year of clocks printed without one
};

// One piece of raw evidence that passed the literal pre-filter and parsed.
// Members are ordered so that none is padded (184 bytes, not 208): a
// 10,000-rank job holds 200,000 of them.
struct Observation {
    ObservationId id;
    SourceKind source = SourceKind::Unknown;
    Severity severity = Severity::Info;
    int rank = -1;             // global rank, -1 when the line and its file do not say
    int localRank = -1;        // launcher's local rank label (torchrun "[default3]:"): resolved by placement
    int task = -1;             // srun --label task id
    int pid = -1;              // process id the line names (NCCL "host:pid:tid", Ray "(pid=N)")
    int gpuIndex = -1;         // CUDA device / NCCL [dev] / nvidia-smi index
    RawRef ref;
    Timestamp time;            // interval on the node's clock
    std::string node;
    std::string pciBus;        // normalised "0000:91:00"
    // The message without timestamp/host/rank prefixes (capped), kept for
    // kernel and syslog lines only: placement reads their PCI bus and pid. A metric
    // sample's observation (engine/metric_rules.cpp) keeps its series here: name{labels}.
    // Other lines are read at `ref` (report excerpts, the views' raw line):
    // a 10,000-rank job's 72,000 app-log lines held 14 MB of copies here.
    std::string text;
};
static_assert(sizeof(RawRef) == 24 && sizeof(Observation) <= 184, "padding came back into RawRef or Observation");

// How long a symptom had been waiting when it fired ("ran for 600021 milliseconds", "blocked for more than
// 120 seconds"), read from the field its extract rule's `waited` names: the true wait lies in [minNs, maxNs]
// (the printed figure plus its last digit's resolution); maxNs is kNoTime when the line gives only a lower
// bound ("more than", a timeout that fired). What it waited for began that long before the line: its onset
// (engine/clock_offsets.h, onsetInterval).
struct Wait {
    int64_t minNs = 0;
    int64_t maxNs = kNoTime;
    friend bool operator==(const Wait&, const Wait&) = default;
};

// A cause that no line states but a symptom names: "Xid 45 ... caused by
// previous Xid 149" on a GPU whose Xid 149 line was rotated away, a peer's
// "Got completion from peer <ip>" that puts a link fault on the node owning
// <ip>. The event stands for that cause; its evidence is the naming lines. It
// weighs less than a directly observed cause (setting inferred_weight_penalty).
struct Inference {
    SharedText fromSymptom;    // what the cited lines themselves are ("gpu.xid.45")
    SharedText rule;           // the rule that drew the inference (its one copy)
    friend bool operator==(const Inference&, const Inference&) = default;
};

// Where a cause lies: the closed list a symptom's domain, a verdict's domain and a truth's domain come from.
enum class Domain : uint8_t { Gpu, Nvlink, Network, Host, Storage, Scheduler, Workload, Unknown };
std::string_view toString(Domain);   // "gpu" | "nvlink" | "network" | "host" | "storage" | "scheduler" | "workload" | "unknown"
[[nodiscard]] std::optional<Domain> domainFromString(std::string_view);
// Where a document may name no domain (a truth for an unattributed bundle, a selector): empty for none.
inline std::string_view toString(std::optional<Domain> d) { return d ? toString(*d) : std::string_view(); }

// Static description of a symptom id, from the rule files.
enum class SymptomRole : uint8_t {
    Initiator,     // can start a failure (hardware fault, OOM kill, node failure ...)
    Symptom,       // downstream effect (NCCL timeout, Xid 45, torchrun summary)
    Informational, // benign or context (Xid 63, advice lines)
    Unknown,       // recognised family, unknown member (e.g. an Xid not in the catalogue)
};
std::string_view toString(SymptomRole);
[[nodiscard]] std::optional<SymptomRole> symptomRoleFromString(std::string_view);

struct SymptomDef {
    std::string id;            // "gpu.xid.79"
    std::string title;         // "GPU fell off the bus (Xid 79)"
    Domain domain = Domain::Unknown;
    std::string subDomain;     // closed list per domain
    SymptomRole role = SymptomRole::Symptom;
    int weight = 0;            // tie-break among initiators at the same time: higher wins
    std::string advice;        // what an operator should do
};

enum class EvidenceRole : uint8_t { Root, Symptom, Interesting, Context };
std::string_view toString(EvidenceRole);

enum class EventKind : uint8_t { BadNode, InterestingNode };

// A symptom found in the evidence: the unit the rules reason about.
struct SymptomEvent {
    EventId id;
    SharedText symptom;        // symptom id, may be rewritten by filter rules; shares its rule's copy
    SharedText originalSymptom;
    EventKind kind = EventKind::BadNode;
    std::string node;
    int rank = -1;
    int gpuIndex = -1;
    std::string pciBus;
    Timestamp time;                            // interval on clockNode's clock (from the primary observation)
    std::string clockNode;                     // the node whose clock printed the time: differs from `node`
                                               // when a rule moved the event (a peer's report) or inferred it
    std::vector<ObservationId> observations;   // evidence (observation ids), first one is primary
    FieldMap fields;           // captures from the extractor (xid, seq, peer ...)
    SharedText extractedBy;    // rule id (the rule's own copy: Rule::sharedId)
    bool suppressed = false;
    SharedText suppressedBy;   // rule id
    SharedText suppressReason; // the rule's own copy when a rule suppressed it
    uint32_t count = 1;        // >1 after merging repeats
    std::optional<SymptomRole> roleOverride; // set by refine rules ("this OOM is a symptom here")
    SharedText roleOverrideBy;               // rule id
    std::optional<EvidenceRole> evidenceRole;// set by report rules
    // Engine notes, never in `fields` (which rules and users read and write):
    std::optional<FileId> file;              // the file it was extracted from (unset for emitted events);
                                             // node-less events of one file share a machine
    std::optional<FileId> absentFile;        // absent_ranks with no observation: the file that shows the absence
    std::optional<int> maxEvidence;          // report rules' max_evidence: evidence items kept for its symptom
    std::optional<Inference> inferred;       // set by an `infer` rule: the cause is named, not observed
    std::optional<Wait> waited;              // set by an extract rule's `waited`: it says how long it waited
};

// ---------------------------------------------------------------- result

// The engine's phases in the order they run: a rule names one of them (every one but Outcome,
// which is the engine's own step: it picks the root cause); trace steps and rule firings say theirs.
enum class Phase : uint8_t {
    Extract,
    FilterEarly,
    Filter,
    FilterLate,
    RefineEarly,
    Refine,
    RefineFinal,
    Outcome,
    PostOutcome,
    Report,
};
std::string_view toString(Phase);   // "extract", "filter.early", ..., "outcome", "post_outcome", "report"
[[nodiscard]] std::optional<Phase> phaseFromString(std::string_view);

// How the workload ended, as far as the evidence says.
enum class WorkloadOutcome : uint8_t { Failed, TerminatedByScheduler, Unknown };
std::string_view toString(WorkloadOutcome);   // "failed" | "terminated_by_scheduler" | "unknown"
[[nodiscard]] std::optional<WorkloadOutcome> workloadOutcomeFromString(std::string_view);

// What an evidence item quotes: a log line, a metric sample or a scheduler record.
enum class EvidenceKind : uint8_t { Log, Metric, Scheduler };
std::string_view toString(EvidenceKind);      // "log" | "metric" | "scheduler"
[[nodiscard]] std::optional<EvidenceKind> evidenceKindFromString(std::string_view);

// Why a candidate won or lost, as data: the prose is written from it in one
// place (core/present/verdict.cpp). `other` is the event it was measured
// against (the winner), `deltaNs` how far apart they are, `limitNs` the
// setting that decided (clock-skew tolerance, episode window).
enum class CandidateReason : uint8_t {
    None,            // no winner to compare with
    RootCause,       // the earliest initiating event of the terminal episode
    TiedWinner,      // would have won, but others cannot be ordered against it
    TiedWith,        // within the clock-skew tolerance of `other`, on another node
    Untimed,         // its time cannot be compared with the others
    BeforeEpisode,   // more than `limitNs` (the episode window) before detection
    AfterDetection,  // after the failure was detected
    Consequence,     // a rule linked it as a consequence of `other`
    Later,           // `deltaNs` later than `other`
    Lighter,         // `other` is a heavier cause within the clock-skew tolerance
    AfterOnset,      // began `deltaNs` after the hang did (Result::onset), more than `limitNs` (onset_slack_s):
                     // the waiting symptoms it would explain had already begun; a consequence or an independent fault
};
std::string_view toString(CandidateReason);

struct CandidateOutcome {
    CandidateReason reason = CandidateReason::None;
    std::optional<EventId> other; // event id of the candidate it was measured against
    int64_t deltaNs = 0;
    int64_t limitNs = 0;
    bool tied() const { return reason == CandidateReason::TiedWinner || reason == CandidateReason::TiedWith; }
};

struct Candidate {
    EventId event;
    std::string symptom;
    std::string title;
    Domain domain = Domain::Unknown;
    std::string subDomain;
    std::string node;
    int rank = -1;
    int gpuIndex = -1;
    std::string pciBus;
    Timestamp time;            // ns as printed; interval after clock-offset correction
    uint32_t support = 0;      // downstream events linked to it
    bool chosen = false;
    CandidateOutcome outcome;  // why it won or lost; present::candidateVerdict() says it in words
    std::vector<EvidenceId> evidence;
    std::optional<Inference> inferred; // named by symptoms, not observed: weighs less
};

struct ChainEdge {
    EventId from;
    EventId to;
    SharedText rule;           // the rule that drew it: one copy per rule, not per edge
    SharedText label;
};

// A run of consecutive integers, both ends inclusive ("0-1249").
struct IndexRange {
    int first = 0;
    int last = 0;
    friend bool operator==(const IndexRange&, const IndexRange&) = default;
};

// One node of the compact chain: the events that share a symptom, a role in the
// verdict, a cause and a collective (pg / SeqNum / op). At 10,000 ranks the
// chain is a dozen families, not 60,000 events; the members stay reachable.
struct SymptomFamily {
    std::string symptom;
    std::string title;
    EvidenceRole role = EvidenceRole::Interesting;
    EventKind kind = EventKind::BadNode;
    std::string suppressedBy;                      // rule id when the members were suppressed
    std::vector<FamilyId> causes;                  // families of the roots upstream, ascending
    std::map<std::string, std::string> collective; // pg / seq / op every member shares
    std::vector<std::string> nodes;                // distinct, sorted
    std::string nodeRanges;                        // the same, compressed: "node-[0001-0004,0006-1250]"
    std::vector<IndexRange> ranks;                 // distinct global ranks, merged runs
    uint32_t rankCount = 0;
    uint32_t count = 0;                            // member events
    uint32_t occurrences = 0;                      // lines behind them (merged repeats counted)
    Timestamp first;                               // earliest member time, on its node's clock
    Timestamp last;                                // latest member time (neither keeps an interval: `span` does)
    TimeInterval span;                             // earliest member's earliest .. latest member's latest
    std::vector<EventId> events;                   // every member event id, ascending: the per-rank detail
    std::vector<EventId> representatives;          // up to 3 member events: earliest, lowest rank, latest
    std::vector<EvidenceId> evidence;              // evidence ids of the representatives
};

struct FamilyEdge {
    FamilyId from;
    FamilyId to;
    std::string rule;
    uint32_t count = 0;        // event edges it stands for
};


// An evidence id as documents, links and stores write it: "ev-00001" for EvidenceId(0) (five digits or more).
std::string toString(EvidenceId);
// "ev-" and a number from 1: the id; anything else none.
[[nodiscard]] std::optional<EvidenceId> evidenceIdFromString(std::string_view);

struct EvidenceItem {
    EvidenceId id;             // "ev-00001", stable for the same bundle + rules
    EvidenceKind kind = EvidenceKind::Log;
    SourceKind source = SourceKind::Unknown;
    std::string file;          // bundle path
    RawRef ref;
    std::string series;        // a metric item's series as Prometheus writes it: name{label="value",...}
    std::string node;
    int rank = -1;
    int gpuIndex = -1;
    Timestamp time;            // its observation's (or event's) ns and basis; no interval
    std::string excerpt;
    EvidenceRole role = EvidenceRole::Context;
    std::string symptom;
    EventId event;
    std::optional<FamilyId> family; // the family of `event`
};

struct ConnectorReport {
    std::string file;
    SourceKind kind = SourceKind::Unknown;
    std::string kindReason;
    std::string node;
    int rank = -1;
    FileStatus status = FileStatus::Ok;
    std::string reason;
    uint64_t bytes = 0;
    uint64_t lines = 0;
    uint64_t observations = 0;
    uint64_t parseErrors = 0;
};

struct RuleFiring {
    std::string rule;
    Phase phase = Phase::Extract;
    std::string effect;
    uint32_t count = 0;
};

struct RootCause {
    EventId event;
    std::string symptom;
    std::string title;
    std::string node;
    int gpuIndex = -1;
    std::string pciBus;
    int rank = -1;
    Timestamp time;                    // ns as printed; interval after clock-offset correction
    std::vector<EvidenceId> evidence;
    std::string advice;
    std::optional<Inference> inferred; // named by symptoms (its evidence), not observed itself
};

// What would order two tied candidates of an ambiguous result (issue #45; engine/would_decide.cpp, text in
// present/would_decide.cpp, docs/result-schema.md "would_decide"): which sources, of which nodes, for which UTC
// window, at what stamp resolution or clock accuracy. Derived from the pair's intervals, their lines' printed
// resolution and the nodes' clock offsets; nothing is guessed about the true times.
struct WouldDecide {
    EventId first, second;              // the tied pair (Candidate::event), first < second
    std::vector<std::string> nodes;     // their nodes, sorted, distinct
    std::vector<SourceKind> sources;    // the kinds of file their lines are in, sorted, distinct
    std::vector<std::string> files;     // those files (bundle paths), sorted, distinct
    TimeInterval window;                // consensus clock (UTC): both corrected intervals, widened to whole seconds
    int64_t resolutionNs = 0;           // the coarser printed resolution of their stamps: finer stamps would order them
    int64_t clockNs = 0;                // how well the two nodes' clocks are known now (the larger residual, or the
                                        // bound for a node without an estimate), each side
    // With the stamps as printed, clocks known to better than ±this each would order them (their printed
    // intervals, offsets applied, are this far apart twice over); kNoTime: the printed stamps overlap, so no
    // clock accuracy alone can.
    int64_t clockNeededNs = kNoTime;
    friend bool operator==(const WouldDecide&, const WouldDecide&) = default;
};

// When the hang began, from the symptoms that say how long they waited (Wait): on the consensus clock.
struct HangOnset {
    TimeInterval began;          // the waits' onsets: the first one's earliest .. the last one's latest
    TimeInterval allWaiting;     // the overlap of every wait: the last onset's latest .. the first fire's earliest
    int64_t estimateNs = kNoTime;// "the hang began at ~": the first wait's onset as printed (fire - waited)
    uint32_t waits = 0;          // waiting symptoms it rests on
    std::vector<std::string> nodes;    // their nodes, sorted
    std::vector<std::string> symptoms; // their symptom ids, sorted
    std::vector<EventId> events;       // the waiting events, ascending
};

enum class ResultStatus : uint8_t { Attributed, Ambiguous, Unattributed };
std::string_view toString(ResultStatus);   // "attributed" | "ambiguous" | "unattributed"
[[nodiscard]] std::optional<ResultStatus> resultStatusFromString(std::string_view);

struct BaselineComparison; // baseline/comparison.h

struct Result {
    static constexpr const char* kSchemaVersion = "2.0";
    ResultStatus status = ResultStatus::Unattributed;
    WorkloadOutcome outcome = WorkloadOutcome::Unknown;
    Domain domain = Domain::Unknown;
    std::string subDomain;
    std::optional<RootCause> rootCause;
    std::string summary;                   // one sentence for humans
    std::vector<std::string> missing;      // for unattributed: what evidence would help
    std::optional<HangOnset> onset;        // when the waiting symptoms say the hang began
    std::vector<Candidate> candidates;
    std::vector<WouldDecide> wouldDecide;  // ambiguous: per tied pair, the evidence that would order it
    std::vector<std::string> affectedNodes;
    std::vector<SymptomEvent> events;      // symptom_chain nodes
    std::vector<ChainEdge> edges;          // symptom_chain edges
    std::vector<SymptomFamily> families;   // symptom_chain families: the compact chain, sorted (root first)
    std::vector<FamilyEdge> familyEdges;   // symptom_chain family edges
    std::vector<EvidenceItem> evidence;
    std::map<std::string, uint32_t> evidenceOmitted; // symptom -> items left out by the per-symptom cap
    std::vector<ConnectorReport> connectors;
    std::vector<ClockOffset> clockOffsets;  // per node, sorted by node
    std::vector<RuleFiring> rulesFired;
    std::string workloadId;
    int attempt = -1;
    int64_t windowStartNs = kNoTime;
    int64_t windowEndNs = kNoTime;
    std::string engineVersion;
    std::string rulesDigest;
    std::vector<std::string> rulesSources;  // rule files, in load order
    std::vector<std::string> warnings;      // bundle-level problems (truncated archive ...)
    // analyze --baseline: what is new against a healthy attempt (core/baseline/compare.h); null without one.
    std::shared_ptr<const BaselineComparison> baseline;
};

// ---------------------------------------------------------------- trace

// What a rule or the engine did to events, for `--explain` and the workbench's
// phase stepper. Views classify steps by this, never by their wording.
enum class TraceAction : uint8_t {
    Extracted, Emitted, Moved, Decoded, SetFields, CopiedFields, Rewrote, Role, Kind, Linked, Merged, Suppressed,
    EvidenceCap, EvidenceRole, Chose, Ambiguous, Unattributed, Reported,
};

// One effect of one rule (or engine step): a rule with several effects on an
// event leaves one step per effect.
struct TraceStep {
    Phase phase = Phase::Extract;
    std::string rule;         // rule id, or "engine" for built-in steps
    TraceAction action = TraceAction::Extracted;
    std::vector<EventId> events;
    std::string detail;       // what it acted on ("gpu.xid @ node07", "2 Xid lines")
    std::string change;       // the action's argument: "gpu.xid -> gpu.xid.79", "initiator", the suppress reason
};

} // namespace fl
