#include "rule_coverage.h"

#include "rules/matcher.h"
#include "rules/rule.h"
#include "rules/ruleset.h"
#include "rules/samples.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace fl::cli {

namespace {

struct Count {
    size_t rules = 0, samples = 0, benign = 0;
    std::set<std::string> symptoms;
};

std::string row(const std::string& name, const Count& c)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-34s %4zu rules %5zu samples %5zu benign %4zu symptoms\n", name.c_str(), c.rules,
                  c.samples, c.benign, c.symptoms.size());
    return buf;
}

// The domain of the symptom a sample yields: the emit template expanded over the
// sample's captures, looked up in the catalogue (fallbacks "x.*" included).
std::string domainOf(const RuleSet& rules, const Rule& r)
{
    std::vector<ExtractMatch> matches;
    for (const auto& s : r.samples) {
        matches.clear();
        rules.compiled().match(s.line, r.sources.empty() ? SourceKind::AppLog : r.sources.front(), matches);
        for (const auto& m : matches) {
            if (m.rule != &r)
                continue;
            std::string sym = s.symptom.empty() ? r.emitSymptom.str() : s.symptom;
            for (const auto& [k, v] : m.groups) {
                std::string key = "{" + k + "}";
                for (size_t at; (at = sym.find(key)) != std::string::npos;)
                    sym.replace(at, key.size(), v);
            }
            if (const SymptomDef* d = rules.symptom(sym))
                return std::string(toString(d->domain));
            // Raw extract symptoms ("cuda.unknown error") are renamed by a filter rule.
            for (const auto& f : rules.rules())
                if (f.setSymptom && std::find(f.match.symptoms.begin(), f.match.symptoms.end(), sym) != f.match.symptoms.end())
                    if (const SymptomDef* d = rules.symptom(f.setSymptom->str()))
                        return std::string(toString(d->domain));
        }
    }
    if (const SymptomDef* d = rules.symptom(r.emitSymptom.str()))
        return std::string(toString(d->domain));
    return "(unresolved)";
}

} // namespace

std::string ruleSampleWarnings(const RuleSet& rules)
{
    std::string out;
    for (const auto& r : rules.rules()) {
        if (r.phase != Phase::Extract)
            continue;
        std::vector<std::string> missing;
        if (r.samples.empty() && !(r.metric && !r.metric->samples.empty()))
            missing.push_back("\"samples\"");
        if (r.benign.empty() && !(r.metric && !r.metric->benign.empty()))
            missing.push_back("\"benign\"");
        if (r.sourceRefs.empty())
            missing.push_back("\"source\"");
        if (missing.empty())
            continue;
        std::string list;
        for (const auto& m : missing)
            list += (list.empty() ? "" : ", ") + m;
        out += r.file + ":" + std::to_string(r.line) + ": rule '" + r.id + "': warning: no " + list +
               " (every extract rule should show lines it matches, lines it must not, and where the message comes from)\n";
    }
    return out;
}

std::string ruleCoverage(const RuleSet& rules)
{
    std::map<std::string, Count> families, domains;
    Count total;
    for (const auto& r : rules.rules()) {
        if (r.phase != Phase::Extract)
            continue;
        std::set<std::string> origins;
        for (const auto& ref : r.sourceRefs)
            origins.insert(sourceOrigin(ref));
        if (origins.empty())
            origins.insert("(no source)");
        auto add = [&](Count& c) {
            ++c.rules;
            c.samples += r.samples.size() + (r.metric ? r.metric->samples.size() : 0);
            c.benign += r.benign.size() + (r.metric ? r.metric->benign.size() : 0);
            c.symptoms.insert(r.emitSymptom);
        };
        for (const auto& o : origins)
            add(families[o]);
        add(domains[domainOf(rules, r)]);
        add(total);
    }
    std::string out = "families (origin of the messages):\n";
    for (const auto& [name, c] : families)
        out += row(name, c);
    out += "domains (of the symptoms the samples yield):\n";
    for (const auto& [name, c] : domains)
        out += row(name, c);
    out += "total:\n" + row(std::to_string(families.size()) + " families", total);
    return out;
}

} // namespace fl::cli
