#include "commands.h"

#include "history/offenders.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

namespace fl::cli {

namespace {

struct HistoryArgs {
    std::string db;
    std::string level = "gpu";
    history::OffenderQuery query;
    bool json = false;
};

int offendersCommand(const HistoryArgs& a)
{
    history::OffenderQuery q = a.query;
    q.level = a.level == "node" ? history::OffenderLevel::Node : history::OffenderLevel::Gpu;
    std::vector<history::Offender> offenders;
    std::string error;
    if (!history::offendersInHistoryDb(a.db, q, offenders, error)) {
        std::fprintf(stderr, "faultline-cli history: %s\n", error.c_str());
        return 2;
    }
    if (a.json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& o : offenders) {
            nlohmann::json rows = nlohmann::json::array();
            for (const auto& r : o.rows)
                rows.push_back({{"id", r.id}, {"workload_id", r.workloadId}, {"at", r.at}});
            out.push_back({{"fingerprint", o.fingerprint},
                           {"node", o.node},
                           {"pci_bus", o.pciBus.empty() ? nlohmann::json() : nlohmann::json(o.pciBus)},
                           {"gpu", o.gpu < 0 ? nlohmann::json() : nlohmann::json(o.gpu)},
                           {"jobs", o.jobs},
                           {"results", o.results},
                           {"first", o.first},
                           {"last", o.last},
                           {"rows", rows}});
        }
        const std::string text = nlohmann::json{{"offenders", out}}.dump(2) + "\n";
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    if (offenders.empty())
        std::printf("no cause seen in %d or more jobs at one place\n", q.minJobs);
    for (const auto& o : offenders) {
        std::string place = o.node;
        if (!o.pciBus.empty())
            place += " PCI " + o.pciBus;
        if (o.gpu >= 0)
            place += " GPU " + std::to_string(o.gpu);
        std::printf("%s  %s: %u jobs, %u results, %s .. %s\n", place.c_str(), o.fingerprint.c_str(), o.jobs, o.results,
                    o.first.c_str(), o.last.c_str());
        for (const auto& r : o.rows)
            std::printf("    result %s  %s  %s\n", r.id.c_str(), r.workloadId.c_str(), r.at.c_str());
    }
    return 0;
}

} // namespace

Command addHistoryCommand(CLI::App& cli)
{
    auto a = std::make_shared<HistoryArgs>();
    CLI::App* cmd = cli.add_subcommand("history", "query the history database of collect --history");
    cmd->add_option("--db", a->db, "the SQLite database collect --history writes")->required()->type_name("FILE");
    cmd->require_subcommand(1);
    CLI::App* off = cmd->add_subcommand("offenders", "repeat offenders: the same cause (domain/sub_domain/symptom) "
                                                     "on the same node, GPU or PCI address in several jobs");
    off->add_option("--level", a->level, "group by GPU (node + PCI address / index) or by node")
        ->check(CLI::IsMember({"gpu", "node"}))->capture_default_str();
    off->add_option("--min-jobs", a->query.minJobs, "least distinct jobs")->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    off->add_option("--limit", a->query.limit, "offenders listed at most")->check(CLI::Range(1, 100000))
        ->capture_default_str();
    off->add_flag("--json", a->json, "as JSON");
    return {cmd, [a] { return offendersCommand(*a); }};
}

} // namespace fl::cli
