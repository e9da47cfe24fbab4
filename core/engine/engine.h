// The headless engine: bundle -> observations -> symptom events -> verdict.
// ingest() and attribute() may be called in any order and repeatedly: late
// evidence is added with ingest() and the verdict recomputed by attribute().
// Same inputs + same rules -> byte-identical result JSON.
#pragma once

#include "bundle/bundle.h"
#include "model.h"
#include "parse/structured.h"
#include "placement/placement.h"
#include "progress.h"
#include "rules/ruleset.h"

#include <memory>
#include <string>
#include <vector>

namespace fl {

struct Analysis {
    Bundle bundle;
    std::vector<Observation> observations;   // sorted by id; id == index
    std::vector<MetricSeries> metrics;
    Result result;
    std::vector<TraceStep> trace;
    Placement placement;                     // node <-> GPU <-> PCI <-> rank map with its evidence
    std::shared_ptr<const RuleSet> rules;    // what decided: the catalogue's roles say why an event is no cause
    bool cancelled = false;
    // Wall milliseconds of load (the rules compile beside it), rules (what is
    // left of their compile once the bundle is loaded), scan and attribute.
    std::vector<std::pair<std::string, double>> stageMs;
};

struct AnalyzeOptions {
    std::vector<std::string> ruleDirs;       // --rules DIR, in order, after the shipped rules
    bool userConfigRules = true;             // $XDG_CONFIG_HOME/faultline/rules
    std::string shippedRulesDir;             // empty: the compiled-in default
    LoadOptions load;
    // Metric samples: no rule reads them yet. Without them a multi-GB bundle
    // analyses in bounded memory (files are still parsed and checked, series
    // are kept, samples dropped); the workbench's plots read the samples of
    // the series they draw from the files (engine/metric_samples.h).
    bool keepMetricSamples = true;
    // The series themselves (name, node, GPU, labels) are for the views and
    // `inspect` too. A caller that only writes the result document drops them:
    // a 1,250-node bundle has ~75,000 series, ~40 MB with their label maps.
    // Files' times, line and sample counts are the same either way.
    bool keepMetricSeries = true;
    // The rules' steps (Analysis::trace) for `--explain` and the phase stepper.
    // A 10,000-rank job leaves ~2,400 steps with their event lists.
    bool keepTrace = true;
};

class Engine {
public:
    explicit Engine(std::shared_ptr<const RuleSet> rules);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void setKeepMetricSamples(bool keep);
    // false: metrics files are still parsed, checked and counted, but no series is kept (the service writes only results).
    void setKeepMetricSeries(bool keep);
    // At most this many threads scan files (0: one per core). The result does not depend on it.
    void setThreads(unsigned threads);
    // Adds a bundle's evidence. Can be called again with more bundles (late evidence).
    void ingest(const Bundle& bundle, const Progress& progress = {});
    // Runs filter/refine/outcome/report over everything ingested so far.
    Result attribute(std::vector<TraceStep>* trace = nullptr) const;
    // The same result for a caller that attributes once (the service): the extracted events are moved into it,
    // not copied, so the engine holds none afterwards and a later attribute() would not see them.
    Result attributeOnce(std::vector<TraceStep>* trace = nullptr);

    const std::vector<Observation>& observations() const;
    const std::vector<MetricSeries>& metrics() const;
    const std::vector<SourceFile>& files() const;
    const Placement& placement() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Loads the rules (shipped + user) and the bundle, ingests and attributes.
// Throws BundleError / RuleError for unusable input.
Analysis analyze(const std::string& bundlePath, const AnalyzeOptions& options, const Progress& progress = {});

// Loads shipped + user rules per options. Throws RuleError naming file:line:column.
std::shared_ptr<const RuleSet> loadRulesFor(const AnalyzeOptions& options);

} // namespace fl
