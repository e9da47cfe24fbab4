// One rule, as read from a rule file. The language is documented in
// docs/rules.md; this struct is its parsed form, kept plain so the engine,
// the CLI's --explain and the workbench's phase stepper can all read it.
#pragma once

#include "model.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fl {

// Phases run in this order. FILTER and REFINE have ordered sub-phases so a
// decode (filter.early) is visible to suppressions (filter.main) and culprit
// refinement (refine.final) sees every causal link drawn before it.
// Phase (which rules run when) is in model.h: the trace and the result say it too.

// Which events a rule talks about. Empty members match anything.
struct Selector {
    std::vector<std::string> symptoms;     // globs: "gpu.xid.*", "nccl.timeout"
    std::vector<std::string> notSymptoms;
    std::optional<SymptomRole> role;       // effective role (after overrides)
    std::optional<Domain> domain;
    std::optional<EventKind> kind;
    std::map<std::string, std::string> fields; // field -> RE2 pattern (full match)
    bool includeSuppressed = false;
};

// A value of an event that relations compare and absent_ranks groups by: its
// place (node, gpu, rank, pci) or one of its fields ("field:peer"). Read once
// when the rule loads, so the phases do not dispatch on the text per event.
struct EventKey {
    enum class Part : uint8_t { Node, Gpu, Rank, Pci, Field };
    Part part = Part::Node;
    std::string field;                     // Part::Field: the field's name
    bool operator==(const EventKey&) const = default;
};
std::string toString(const EventKey&);     // as rules write it: "node", "field:peer"
[[nodiscard]] std::optional<EventKey> eventKeyFromString(std::string_view);

// How the other event's interval lies against this one's, after each node's
// clock offset (engine/clock_offsets.cpp): Before (the other ends before this
// begins), After, Overlaps (neither), NotAfter, NotBefore, Within (every time
// the other's interval allows minus every time this one's allows lies in
// within_s: certainly, not just as printed). Any: no condition.
enum class IntervalOrder : uint8_t { Any, Before, After, Overlaps, NotAfter, NotBefore, Within };
std::string_view toString(IntervalOrder);  // as rules write it: "before", "not_after"; "" for Any
[[nodiscard]] std::optional<IntervalOrder> intervalOrderFromString(std::string_view);

// "there is (not) another event like this, related to the matched one".
struct Relation {
    Selector other;
    std::vector<EventKey> same;
    std::vector<EventKey> different;
    // this event's key == the other's key, e.g. {"field:peer", "field:addr"}:
    // "the event whose own address is the peer this one names"
    std::vector<std::pair<EventKey, EventKey>> join;
    double withinLo = -1e18;               // other.time - this.time, seconds
    double withinHi = 1e18;
    bool timed = false;                    // a window was given: both events need times
    // Interval order of the other event against this one. Events whose times
    // cannot be compared never relate under an order.
    IntervalOrder order = IntervalOrder::Any;
    int atLeast = 1;                       // how many such events are needed
    std::optional<EventKey> countDistinct; // count distinct values of this key instead of events
    // Numeric comparisons (decimal or 0x-hex on both sides, else no relation):
    // the other's value of each key is greater / less than this event's.
    // "a rank whose last enqueued work id is below the others'".
    std::vector<EventKey> greater;
    std::vector<EventKey> less;
};

// Absence as evidence: over the matched events (every rank's report of one
// collective), grouped by `groupBy`, the ranks the manifest lists that did not
// report are emitted as one synthetic event per node. Only when at least
// `minShare` of the listed ranks reported, and only for ranks that left some
// log in the bundle (a rank without any log may just not have been collected).
struct AbsentRanks {
    std::vector<EventKey> groupBy;
    double minShare = 0.75;
    std::string symptom;                   // emitted symptom id (template over the group's first event)
    std::map<std::string, std::string> fields; // extra field templates
    bool requireLogs = true;
};

// Copy values from the related event nearest in time into this one's fields.
struct CopyFields {
    Relation from;
    std::map<std::string, std::string> fields; // field -> template over the related event's fields
};

// "this event is about somewhere else": a line printed on one host that names
// another (a peer address, a failed node, a divergent rank). The event is moved
// there; where it was printed is kept in the fields reported_by_node/_rank.
struct MoveTo {
    std::string node;                      // template, e.g. "{failed}"
    std::string rank;                      // template; the node comes from the manifest
    std::optional<Relation> related;       // the place of the earliest related event
};

// "this symptom names its cause": the event becomes that cause, marked
// inferred (SymptomEvent::inferred), its interval reaching `beforeS` earlier
// (the cause came before the line that names it). Docs: docs/rules.md.
struct Infer {
    std::string symptom;                   // template, e.g. "gpu.xid.{caused_by}" or "{symptom}"
    double beforeS = 0;
};

// A record an extract rule's events need read beyond the matched line, whose
// fields sit on several lines of it (emit.read). The loader refuses any other
// value, naming file and line. Docs: docs/rules.md.
enum class RecordReader : uint8_t {
    None,
    TorchrunRootCause, // "torchrun_root_cause": the Root Cause entry of torchrun's
                       // ChildFailedError summary -> root_* fields (engine/failure_summary.h)
};
std::string_view toString(RecordReader);

// Which field of an extract rule's event says how long it had waited when it fired, and in what unit
// (emit.waited; docs/rules.md, "Waiting symptoms"). The first of a rule's alternatives whose field holds a
// number is read: the watchdog's "ran for" (exact to its unit), else its Timeout(ms) (a lower bound).
struct WaitedField {
    std::string field;                     // a captured or emitted field: "ran_for_ms", "seconds"; "" = `value`
    std::string value;                     // a constant figure instead of a field ("0": at least 0 s)
    std::string unit;                      // as written: ns, us, ms, s, min
    int64_t unitNs = 0;                    // the unit in nanoseconds
    bool atLeast = false;                  // the figure is a lower bound ("more than 120 seconds")
};

// A number an extract line carries (step time, loss, memory), appended to a
// series of its rank instead of becoming an event: a trend is judged over
// many lines, not one (engine/trends.cpp). Docs: docs/rules.md, "Series and trends".
struct SeriesCapture {
    std::string name;                      // series name: "step_time", "loss", "mem"
    std::string value;                     // template -> a number ("nan", "inf" are points too)
    std::string unit;                      // template -> ms/s/us (-> seconds), B/KB/MB/GB/KiB/MiB/GiB (-> bytes); "" = as printed
    std::string step;                      // template -> the step/iteration number; "" = none printed
    std::string rank;                      // template -> the rank the line is about ("[Rank 3] ... memory"); "" = where printed
};

// A trend rule: derived events over one series (engine/trends.cpp).
enum class TrendKind : uint8_t {
    Straggler, // a rank (or node) consistently >= factor x its peers' median at the same steps
    Spike,     // a point >= factor x the median of the points before it
    Growth,    // monotone growth over the last points
};

struct Trend {
    std::string series;                    // SeriesCapture::name
    TrendKind kind = TrendKind::Straggler;
    std::string by = "rank";               // straggler: rank | node; spike, growth: rank | job (one event, no place)
    int last = 10;                         // points judged: the last N of each series
    int minPoints = 5;                     // fewer points compared (spike: in the baseline): nothing
    double factor = 1.5;                   // straggler, spike
    double share = 0.8;                    // straggler: share of its points that are slow; growth: share that rise
    double minGrowth = 0.1;                // growth: last / first - 1 over the window
    double recovery = 0.1;                 // spike: back within this of the baseline = recovered
    std::string symptom;                   // template over the emitted fields
    std::map<std::string, std::string> fields; // extra field templates
};

// A metric rule: an extract rule that reads a metric series (DCGM, node-exporter, InfiniBand counters) instead
// of lines and emits an ordinary event per finding (engine/metric_rules.cpp). Docs: docs/rules.md, "Metric rules".
enum class MetricKind : uint8_t {
    Increase, // a counter went up by >= threshold between two samples (a reset counts from zero)
    Above,    // a gauge crossed to >= threshold
    Below,    // a gauge crossed to <= threshold
    Change,   // the value changed (to a non-zero value when `nonzero`): "the last Xid" fields
    Bits,     // a bit of `mask` became set in a bitmask field (clock-throttle reasons)
    Peers,    // a series departs from the same series of its peers over a window (robust z-score)
    AllBelow, // every series of the name fell to <= threshold and stayed there: one event for the job
    AllFall,  // every series fell to <= fraction of its own level before and stayed there: one event for the job
    WindowCount, // occurrences in a sliding window (dcgm-exporter's DCGM_EXP_XID_ERRORS_COUNT, one series per
                 // Xid): a rise, or the series appearing at a scrape of its GPU, is new ones; a fall is old ones
                 // leaving the window, not a reset
};
std::string_view toString(MetricKind);

// One sample check of a metric rule: series values 15 s apart (null: a missing scrape); `peers`
// kinds give several series, the first the one that must fire.
struct MetricRuleSample {
    std::vector<std::vector<double>> series;
    std::map<std::string, std::string> labels; // of the first series (the others: Hostname node-<i>)
    std::string symptom;                   // expected symptom ("" = not checked)
    std::map<std::string, std::string> fields;
};

struct MetricRule {
    std::string series;                    // the metric name: "DCGM_FI_DEV_XID_ERRORS"
    std::map<std::string, std::string> labels; // only series with these label values (node_md_disks{state="failed"})
    MetricKind kind = MetricKind::Increase;
    double threshold = 1;                  // increase / window_count: minimum increase; above/below/all_below: the level
    bool nonzero = false;                  // change: only a change to a non-zero value
    uint64_t mask = 0;                     // bits: the bits that count
    std::map<uint64_t, std::string> bitNames; // bits: name of each bit ("hw_slowdown")
    double z = 3.5;                        // peers: robust z-score (median, 1.4826 x MAD) to depart
    std::string direction = "high";        // peers: high | low | both
    int minPeers = 4;                      // peers: other series compared at a scrape; all_below: series needed
    double minSpread = 0;                  // peers: a spread below this is taken as this (identical peers)
    int minPoints = 4;                     // peers: compared scrapes in a row it departs at
    double maxShare = 0.25;                // peers: more series departing than this share: the job, not one
    double fraction = 0.6;                 // all_fall: the share of its level before a series falls to
    std::vector<MetricRuleSample> samples; // checked at load like a log rule's sample lines
    std::vector<MetricRuleSample> benign;  // must yield no event
    bool acrossSeries() const { return kind == MetricKind::Peers || jobWide(); }
    // One finding for the job: every series went low and stayed low to its end (a wait that lasts).
    bool jobWide() const { return kind == MetricKind::AllBelow || kind == MetricKind::AllFall; }
};

struct Decode {
    std::string field;                     // hex or decimal text
    int shift = 0;
    uint64_t mask = ~0ull;
    std::string into;
    std::map<std::string, std::string> map; // decimal value -> label; "*" default
};

// A line an extract rule must turn into an event (lnav's format "sample"),
// optionally with the symptom and fields it must yield. See docs/rules.md.
struct RuleSample {
    std::string line;
    std::string symptom;                   // expected emitted symptom ("" = not checked)
    std::map<std::string, std::string> fields; // expected captured/emitted fields
};

// Fields an extract rule reads from a line that continues its report (rule key "continued"; docs/rules.md,
// "Continued reports"): the kernel prints an RCU stall's duration ("t=60002 jiffies") on a line after the
// "detected stalls" header, and older kernels on the header itself. The matched line is tried first, then up
// to `lines` following lines of the same host, stopping at the next line the rule's own pattern matches (the
// next report). Groups add to the event's fields; a field the matched line already has is kept.
struct Continuation {
    std::string pattern;                   // RE2 with named groups
    int lines = 0;                         // following lines searched
    std::vector<RuleSample> samples;       // lines it must match, with the fields they yield (checked at load)
};

struct Rule {
    std::string id;
    // The id as events hold it (extractedBy, suppressedBy ...): one copy for
    // all of them. Set by RuleSet::compile(); use sharedRuleId(), which makes
    // one for a rule built without it.
    SharedText sharedId;
    std::string description;
    Phase phase = Phase::Extract;
    std::string file;                      // where it was defined
    int line = 0;

    // extract
    std::vector<SourceKind> sources;       // empty: every text source
    std::string pattern;                   // RE2 with named groups
    std::vector<std::string> literals;     // pre-filter: a line must contain one; derived when absent
    std::string noLiteral;                 // why the rule has no pre-filter literal and runs on every line
    std::string exclude;                   // RE2: lines matching it are skipped
    bool ignoreCase = false;
    SharedText emitSymptom;                // template with {group}
    EventKind emitKind = EventKind::BadNode;
    std::map<std::string, std::string> emitFields; // field -> template; node/rank/gpu/pci are special
    RecordReader emitRead = RecordReader::None;    // emit.read: what else of the record the engine reads
    std::vector<WaitedField> waited;       // emit.waited: how long the symptom waited, first that parses
    std::optional<Continuation> continued; // fields read from a following line of the same report
    std::vector<RuleSample> samples;       // lines it must match (checked at load)
    std::vector<std::string> benign;       // lines of the same source it must not match
    std::vector<std::string> sourceRefs;   // where the message comes from: repo@tag:path or a doc page
    std::optional<SeriesCapture> series;   // the line is a point of a series (emit optional then)
    std::optional<MetricRule> metric;      // reads a metric series, not lines (no pattern then)

    // filter / refine / post_outcome / report
    Selector match;
    std::vector<Relation> ifExists;
    std::vector<Relation> ifNotExists;
    // actions (one or more)
    std::optional<SharedText> suppress;    // reason, shared by every event it suppresses
    std::optional<SharedText> setSymptom;  // template with {field}
    std::optional<Infer> infer;            // infer: the event stands for the cause it names
    std::optional<SymptomRole> setRole;
    std::optional<EventKind> setKind;
    std::map<std::string, std::string> setFields;
    std::optional<Decode> decode;
    std::optional<Relation> linkFrom;      // draw edges cause -> matched event
    std::string linkLabel;
    std::optional<Relation> mergeWith;     // merge matched event into an earlier matching one
    std::optional<MoveTo> moveTo;
    std::optional<CopyFields> copyFields;   // copy_fields
    std::optional<AbsentRanks> absentRanks; // absent_ranks (a producer: emits events, no other action)
    std::optional<Trend> trend;            // trend (a producer over a series: no match, no other action)
    std::optional<EvidenceRole> evidenceRole; // report
    int maxEvidence = -1;                  // report: cap per symptom id, rest counted not listed
};

inline SharedText sharedRuleId(const Rule& r) { return r.sharedId.empty() ? SharedText(r.id) : r.sharedId; }

} // namespace fl
