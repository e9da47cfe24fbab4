#include "collect/scope.h"

#include "bundle/iso_time.h"
#include "bundle/text_lines.h"
#include "collect/process.h"
#include "parse/structured_util.h"
#include "present/hostlist.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <set>
#include <stdexcept>

namespace fl::collect {

using nlohmann::json;
using structured::member;
using structured::number;
using structured::stringList;

namespace {


// A string, a list of strings, or an object with "current": Slurm changed the
// shape of state fields between 22.05 and 23.x.
std::string stateText(const json& j)
{
    if (j.is_object())
        return stringList(member(j, "current"));
    return stringList(j);
}

std::string exitText(const json& ec)
{
    if (ec.is_string())
        return ec.get<std::string>();
    if (!ec.is_object())
        return {};
    const auto rc = number(member(ec, "return_code"));
    const json& sig = member(ec, "signal");
    auto sn = number(member(sig, "id"));
    if (!sn)
        sn = number(member(sig, "signal_id"));
    if (!rc && !sn)
        return {};
    return std::to_string(rc.value_or(0)) + ":" + std::to_string(sn.value_or(0));
}

int exitCodeOf(std::string_view text)
{
    const size_t colon = text.find(':');
    const std::string_view code = text.substr(0, colon);
    if (code.empty() || code.size() > 6 || code.find_first_not_of("0123456789") != std::string_view::npos)
        return -1;
    return std::stoi(std::string(code));
}

// "0:0", or no exit code given: nothing in it says the job failed.
bool cleanExit(std::string_view text)
{
    return text.empty() || text == "0:0";
}

// "the scheduler says it succeeded", in the scope notes.
std::string succeededNote(const Scope& s)
{
    return "job " + s.workloadId + " ended well by the scheduler's account (" + s.state
        + ", exit 0): collected and analysed as asked, but not recorded as a failure";
}

int64_t secondsToNs(std::optional<int64_t> s)
{
    // Slurm writes 0 for "not yet"/"unknown".
    if (!s || *s <= 0 || *s > 32503680000) // year 3000
        return kNoTime;
    return *s * 1'000'000'000;
}

std::vector<std::string> stepNodes(const json& step, std::string& error)
{
    const json& n = member(step, "nodes");
    std::string text;
    if (n.is_string())
        text = n.get<std::string>();
    else if (n.is_object()) {
        const json& list = member(n, "list");
        if (list.is_array()) {
            std::vector<std::string> out;
            for (const auto& e : list)
                if (e.is_string())
                    out.push_back(e.get<std::string>());
            return out;
        }
        text = stringList(member(n, "range"));
    }
    if (text.empty() || text == "None assigned")
        return {};
    return present::expandHostList(text, error).value_or(std::vector<std::string>{});
}

std::string stepIdText(const json& step, std::string_view jobId)
{
    const json& id = member(member(step, "step"), "id");
    if (id.is_string())
        return id.get<std::string>();
    const json& sid = member(id, "step_id");
    if (sid.is_string())
        return std::string(jobId) + "." + sid.get<std::string>();
    if (auto n = number(sid))
        return std::string(jobId) + "." + std::to_string(*n);
    return std::string(jobId);
}

void addDetection(Scope& s)
{
    if (s.endNs == kNoTime)
        s.notes.push_back("the workload has no end time yet: the window ends now");
}

void uniqueSorted(std::vector<std::string>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

} // namespace

bool safeNodeName(std::string_view node)
{
    if (node.empty() || node.size() > 253 || node[0] == '-' || node[0] == '.')
        return false;
    return std::all_of(node.begin(), node.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-'
            || c == '_';
    });
}

std::optional<Scope> scopeFromSacctJson(std::string_view text, std::string_view jobId, std::string& error)
{
    json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        error = "sacct --json: not a JSON object";
        return std::nullopt;
    }
    const json& jobs = member(doc, "jobs");
    if (!jobs.is_array()) {
        error = "sacct --json: no \"jobs\" array";
        return std::nullopt;
    }
    // Records of this job id (sacct -D lists each requeued run); array tasks
    // and heterogeneous components have their own ids and are not attempts.
    std::vector<const json*> runs;
    for (const auto& job : jobs) {
        const auto id = number(member(job, "job_id"));
        if (id && std::to_string(*id) == jobId)
            runs.push_back(&job);
    }
    if (runs.empty()) {
        error = "sacct --json: job " + std::string(jobId) + " is not in the answer";
        return std::nullopt;
    }
    std::stable_sort(runs.begin(), runs.end(), [](const json* a, const json* b) {
        return number(member(member(*a, "time"), "start")).value_or(0)
            < number(member(member(*b, "time"), "start")).value_or(0);
    });
    const json& job = *runs.back();
    Scope s;
    s.scheduler = "slurm";
    s.workloadId = std::string(jobId);
    s.name = stringList(member(job, "name"));
    const int restarts = static_cast<int>(number(member(job, "restart_cnt")).value_or(0));
    s.attempt = std::max(restarts, static_cast<int>(runs.size()) - 1);
    const json& st = member(job, "state");
    s.state = stateText(st);
    s.reason = stringList(member(st, "reason"));
    if (s.reason == "None")
        s.reason.clear();
    const std::string nodes = stringList(member(job, "nodes"));
    if (!nodes.empty() && nodes != "None assigned") {
        auto list = present::expandHostList(nodes, error);
        if (!list)
            return std::nullopt;
        s.nodes = std::move(*list);
    }
    const json& t = member(job, "time");
    s.startNs = secondsToNs(number(member(t, "start")));
    s.endNs = secondsToNs(number(member(t, "end")));
    const std::string exit = exitText(member(job, "exit_code"));
    if (const json& steps = member(job, "steps"); steps.is_array()) {
        for (const auto& step : steps) {
            ScopeStep ss;
            ss.id = stepIdText(step, jobId);
            ss.name = stringList(member(member(step, "step"), "name"));
            ss.state = stateText(member(step, "state"));
            ss.exitCode = exitText(member(step, "exit_code"));
            std::string stepError;
            ss.nodes = stepNodes(step, stepError);
            ss.tasks = static_cast<int>(number(member(member(step, "tasks"), "count")).value_or(-1));
            if (ss.tasks > s.tasks)
                s.tasks = ss.tasks;
            if (ss.nodes.size() == 1 && exitCodeOf(ss.exitCode) > 0 && !s.exitCodes.count(ss.nodes[0]))
                s.exitCodes[ss.nodes[0]] = exitCodeOf(ss.exitCode);
            s.steps.push_back(std::move(ss));
        }
    }
    if (s.nodes.size() == 1 && exitCodeOf(exit) > 0)
        s.exitCodes[s.nodes[0]] = exitCodeOf(exit);
    // COMPLETED is Slurm's word for a batch script that exited 0 (job_mgr.c job_complete); a step that failed
    // under it still shows in the derived exit code and the steps.
    s.succeeded = s.state == "COMPLETED" && cleanExit(exit) && cleanExit(exitText(member(job, "derived_exit_code")))
        && std::all_of(s.steps.begin(), s.steps.end(), [](const ScopeStep& step) { return cleanExit(step.exitCode); });
    s.notes.push_back("scope from sacct --json: job " + s.workloadId + " " + (s.state.empty() ? "?" : s.state)
                      + (exit.empty() ? "" : " exit " + exit) + ", " + std::to_string(s.nodes.size()) + " nodes"
                      + (runs.size() > 1 ? ", " + std::to_string(runs.size()) + " runs (requeued)" : ""));
    if (s.succeeded)
        s.notes.push_back(succeededNote(s));
    addDetection(s);
    return s;
}

std::optional<Scope> scopeFromScontrol(std::string_view text, int utcOffsetSec, std::string& error)
{
    // Key=Value words; a word without '=' continues the previous value
    // (JobName and Command may hold spaces). Only the first record is read.
    std::map<std::string, std::string> kv;
    std::vector<std::string> allocated; // `-d`: one "  Nodes=... CPU_IDs=..." line per group of nodes
    std::string lastKey;
    bool sawRecord = false;
    for (const TextLine& l : linesOf(text)) {
        const std::string_view line = l.text;
        if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
            if (sawRecord)
                break;
            continue;
        }
        size_t p = 0;
        while (p < line.size()) {
            while (p < line.size() && (line[p] == ' ' || line[p] == '\t' || line[p] == '\r'))
                ++p;
            size_t q = p;
            while (q < line.size() && line[q] != ' ' && line[q] != '\t' && line[q] != '\r')
                ++q;
            if (q == p)
                break;
            const std::string_view word = line.substr(p, q - p);
            const size_t eq = word.find('=');
            if (eq != std::string_view::npos && eq > 0) {
                lastKey = std::string(word.substr(0, eq));
                kv.emplace(lastKey, std::string(word.substr(eq + 1)));
                if (lastKey == "Nodes")
                    allocated.emplace_back(word.substr(eq + 1));
                sawRecord = true;
            } else if (!lastKey.empty()) {
                kv[lastKey] += " " + std::string(word);
            }
            p = q;
        }
    }
    if (!kv.count("JobId")) {
        error = "scontrol show job: no JobId= in the answer";
        return std::nullopt;
    }
    Scope s;
    s.scheduler = "slurm";
    s.workloadId = kv["JobId"];
    s.name = kv["JobName"];
    s.state = kv["JobState"];
    s.reason = kv["Reason"] == "None" ? "" : kv["Reason"];
    if (auto it = kv.find("Restarts"); it != kv.end() && !it->second.empty()
        && it->second.find_first_not_of("0123456789") == std::string::npos && it->second.size() < 7)
        s.attempt = std::stoi(it->second);
    // A COMPLETING job's NodeList holds only the nodes still completing, often none by the time EpilogSlurmctld
    // asks; the allocation's detail lines (scontrol -d) still name them all.
    std::string nodes = kv["NodeList"];
    std::string allocationNote;
    if ((nodes.empty() || nodes == "(null)") && !allocated.empty()) {
        nodes.clear();
        for (const auto& a : allocated)
            nodes += (nodes.empty() ? "" : ",") + a;
        allocationNote = "NodeList is empty while the job is " + s.state + ": nodes from its allocation (" + nodes + ")";
    }
    if (!nodes.empty() && nodes != "(null)") {
        auto list = present::expandHostList(nodes, error);
        if (!list)
            return std::nullopt;
        s.nodes = std::move(*list);
        if (!allocationNote.empty())
            uniqueSorted(s.nodes);
    }
    auto time = [&](const char* key) {
        auto it = kv.find(key);
        if (it == kv.end())
            return kNoTime;
        return parseIso8601Ns(it->second, utcOffsetSec).value_or(kNoTime);
    };
    s.startNs = time("StartTime");
    s.endNs = time("EndTime");
    if (auto it = kv.find("NumTasks"); it != kv.end() && !it->second.empty() && it->second.size() < 7
        && it->second.find_first_not_of("0123456789") == std::string::npos)
        s.tasks = std::stoi(it->second);
    s.batchHost = kv["BatchHost"];
    for (const char* key : {"StdOut", "StdErr"}) {
        auto it = kv.find(key);
        if (it != kv.end() && !it->second.empty() && it->second[0] == '/')
            s.outputFiles.push_back(it->second);
    }
    uniqueSorted(s.outputFiles);
    const std::string exit = kv["ExitCode"];
    if (exitCodeOf(exit) > 0) {
        const std::string& where = !s.batchHost.empty() ? s.batchHost : (s.nodes.size() == 1 ? s.nodes[0] : "");
        if (!where.empty())
            s.exitCodes[where] = exitCodeOf(exit);
    }
    // While its epilog runs, scontrol prints every ending job as COMPLETING (job_state_string puts the flag before
    // the base state), so the exit codes and the reason decide: a failed exit, a signal, a time limit (TimeLimit)
    // or a lost node (NodeDown) each leave one of them set.
    const auto derived = kv.find("DerivedExitCode");
    s.succeeded = (s.state == "COMPLETED" || s.state == "COMPLETING") && exit == "0:0" && s.reason.empty()
        && (derived == kv.end() || derived->second == "0:0");
    s.notes.push_back("scope from scontrol show job: job " + s.workloadId + " " + s.state
                      + (s.reason.empty() ? "" : " (" + s.reason + ")") + " exit " + exit + ", "
                      + std::to_string(s.nodes.size()) + " nodes; times read in UTC"
                      + (utcOffsetSec >= 0 ? "+" : "-") + std::to_string(std::abs(utcOffsetSec) / 3600) + "h");
    if (!allocationNote.empty())
        s.notes.push_back(allocationNote);
    if (s.succeeded)
        s.notes.push_back(succeededNote(s));
    addDetection(s);
    return s;
}

std::optional<Scope> scopeFromKubectl(std::string_view jobJson, std::string_view podsJson, std::string& error)
{
    json job = json::parse(jobJson, nullptr, false);
    json pods = json::parse(podsJson, nullptr, false);
    if (job.is_discarded() || !job.is_object() || stringList(member(job, "kind")) != "Job") {
        error = "kubectl get job -o json: not a Job object";
        return std::nullopt;
    }
    if (pods.is_discarded() || !pods.is_object() || !member(pods, "items").is_array()) {
        error = "kubectl get pods -o json: not a list with \"items\"";
        return std::nullopt;
    }
    auto timeOf = [](const json& j) {
        return j.is_string() ? parseIso8601Ns(j.get<std::string>()).value_or(kNoTime) : kNoTime;
    };
    Scope s;
    s.scheduler = "kubernetes";
    const json& meta = member(job, "metadata");
    s.name = stringList(member(meta, "name"));
    s.workloadId = stringList(member(meta, "namespace")) + "/" + s.name;
    const json& status = member(job, "status");
    s.startNs = timeOf(member(status, "startTime"));
    s.endNs = timeOf(member(status, "completionTime"));
    if (const json& conds = member(status, "conditions"); conds.is_array()) {
        for (const auto& c : conds) {
            const std::string type = stringList(member(c, "type"));
            if ((type == "Failed" || type == "Complete") && stringList(member(c, "status")) == "True") {
                s.state = type;
                s.reason = stringList(member(c, "reason"));
                if (s.endNs == kNoTime)
                    s.endNs = timeOf(member(c, "lastTransitionTime"));
            }
        }
    }
    const int failed = static_cast<int>(number(member(status, "failed")).value_or(0));
    std::map<std::string, std::string> podNode;
    for (const auto& pod : member(pods, "items")) {
        const std::string podName = stringList(member(member(pod, "metadata"), "name"));
        const std::string node = stringList(member(member(pod, "spec"), "nodeName"));
        if (node.empty()) {
            s.notes.push_back("pod " + podName + " was never scheduled on a node");
            continue;
        }
        podNode[podName] = node;
        s.nodes.push_back(node);
        const json& pst = member(pod, "status");
        const int64_t podStart = timeOf(member(pst, "startTime"));
        if (podStart != kNoTime && (s.startNs == kNoTime || podStart < s.startNs))
            s.startNs = podStart;
        if (const json& cs = member(pst, "containerStatuses"); cs.is_array()) {
            for (const auto& c : cs) {
                const json& term = member(member(c, "state"), "terminated");
                const auto code = number(member(term, "exitCode"));
                if (code && *code != 0 && !s.exitCodes.count(node))
                    s.exitCodes[node] = static_cast<int>(*code);
                const int64_t fin = timeOf(member(term, "finishedAt"));
                if (fin != kNoTime && s.state.empty() && (s.endNs == kNoTime || fin > s.endNs))
                    s.endNs = fin;
            }
        }
        ScopeStep step;
        step.id = podName;
        step.name = stringList(member(member(member(pod, "metadata"), "annotations"), "batch.kubernetes.io/job-completion-index"));
        step.state = stringList(member(pst, "phase"));
        step.nodes = {node};
        s.steps.push_back(std::move(step));
    }
    uniqueSorted(s.nodes);
    std::sort(s.steps.begin(), s.steps.end(), [](const ScopeStep& a, const ScopeStep& b) { return a.id < b.id; });
    s.attempt = failed > 0 ? failed - 1 : 0;
    s.succeeded = s.state == "Complete" && s.exitCodes.empty();
    s.notes.push_back("scope from kubectl: job " + s.workloadId + " " + (s.state.empty() ? "running" : s.state)
                      + (s.reason.empty() ? "" : " (" + s.reason + ")") + ", " + std::to_string(podNode.size())
                      + " pods on " + std::to_string(s.nodes.size()) + " nodes, " + std::to_string(failed)
                      + " failed pods");
    if (s.succeeded)
        s.notes.push_back(succeededNote(s));
    addDetection(s);
    return s;
}

namespace {

int localUtcOffsetSec()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::localtime_r(&now, &tm);
    return static_cast<int>(tm.tm_gmtoff);
}

ProcessResult run(std::vector<std::string> argv, const std::vector<std::string>& extra,
                  const ScopeQueryOptions& options)
{
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessOptions po;
    po.timeout = options.timeout;
    po.maxStdoutBytes = 512ull << 20;
    return runProcess(argv, po);
}

} // namespace

Scope scopeFromSlurm(const std::string& jobId, const ScopeQueryOptions& options)
{
    if (jobId.empty() || jobId.size() > 32 || jobId.find_first_not_of("0123456789_+") != std::string::npos)
        throw std::runtime_error("--slurm-job: '" + jobId + "' is not a Slurm job id");
    std::vector<std::string> notes;
    const ProcessResult sacct = run(options.sacct, {"--json", "-D", "-j", jobId}, options);
    std::string error;
    if (sacct.started && sacct.exitCode == 0) {
        if (auto s = scopeFromSacctJson(sacct.out, jobId, error)) {
            s->records["scheduler/sacct-" + jobId + ".json"] = sacct.out;
            // scontrol still knows where the job's output went, while the job is recent.
            const ProcessResult sc = run(options.scontrol, {"-d", "show", "job", jobId}, options);
            std::string scError;
            if (sc.started && sc.exitCode == 0)
                if (auto extra = scopeFromScontrol(sc.out, localUtcOffsetSec(), scError)) {
                    s->outputFiles = extra->outputFiles;
                    s->batchHost = extra->batchHost;
                    s->records["scheduler/scontrol-job-" + jobId + ".txt"] = sc.out;
                }
            return *s;
        }
        notes.push_back("sacct answered but " + error);
    } else {
        notes.push_back("sacct unavailable (" + sacct.describe()
                        + "); it needs slurmdbd. Scope from scontrol show job instead");
    }
    const ProcessResult sc = run(options.scontrol, {"-d", "show", "job", jobId}, options);
    if (!sc.started || sc.exitCode != 0)
        throw std::runtime_error("Slurm job " + jobId + ": sacct: " + sacct.describe() + "; scontrol: " + sc.describe());
    auto s = scopeFromScontrol(sc.out, localUtcOffsetSec(), error);
    if (!s)
        throw std::runtime_error("Slurm job " + jobId + ": " + error);
    s->records["scheduler/scontrol-job-" + jobId + ".txt"] = sc.out;
    s->notes.insert(s->notes.begin(), notes.begin(), notes.end());
    return *s;
}

Scope scopeFromKubernetes(const std::string& nsName, const ScopeQueryOptions& options)
{
    const size_t slash = nsName.find('/');
    const std::string ns = slash == std::string::npos ? "default" : nsName.substr(0, slash);
    const std::string name = slash == std::string::npos ? nsName : nsName.substr(slash + 1);
    if (!safeNodeName(ns) || !safeNodeName(name))
        throw std::runtime_error("--k8s-job: '" + nsName + "' is not NAMESPACE/NAME");
    const ProcessResult job = run(options.kubectl, {"get", "job", name, "-n", ns, "-o", "json"}, options);
    if (!job.started || job.exitCode != 0)
        throw std::runtime_error("kubectl get job " + ns + "/" + name + ": " + job.describe());
    const ProcessResult pods
        = run(options.kubectl, {"get", "pods", "-n", ns, "-l", "job-name=" + name, "-o", "json"}, options);
    if (!pods.started || pods.exitCode != 0)
        throw std::runtime_error("kubectl get pods -l job-name=" + name + ": " + pods.describe());
    std::string error;
    auto s = scopeFromKubectl(job.out, pods.out, error);
    if (!s)
        throw std::runtime_error(error);
    s->records["scheduler/k8s-job-" + name + ".json"] = job.out;
    s->records["scheduler/k8s-pods-" + name + ".json"] = pods.out;
    const ProcessResult events = run(options.kubectl, {"get", "events", "-n", ns, "-o", "json"}, options);
    if (events.started && events.exitCode == 0)
        s->records["scheduler/k8s-events-" + ns + ".json"] = events.out;
    else
        s->notes.push_back("kubectl get events: " + events.describe());
    return *s;
}

} // namespace fl::collect
