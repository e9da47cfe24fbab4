// collect: scope parsers on recorded scheduler answers, converters on recorded
// journal/Prometheus/Loki answers, and collect() itself on files, a fake remote
// shell (the quoting ssh relies on), a slow HTTP server (timeouts stay per
// source) and a server answering the recorded Loki response.
#include "bundle/iso_time.h"
#include "collect/collect.h"
#include "collect/process.h"
#include "collect/scope.h"
#include "collect/upload.h"
#include "engine/result_json.h"
#include "present/hostlist.h"
#include "testutil.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <sqlite3.h>
#include <QtTest>

#include <atomic>
#include <sys/stat.h>
#include <sys/time.h>
#include <thread>

using namespace fl;
using namespace fl::collect;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(FAULTLINE_COLLECT_DATA) + "/data/";

int64_t iso(const char* t)
{
    return *parseIso8601Ns(t);
}

const SourceReport* find(const CollectResult& r, const std::string& source, const std::string& node)
{
    for (const auto& rep : r.reports)
        if (rep.source == source && rep.node == node)
            return &rep;
    return nullptr;
}

// A loopback HTTP server on a free port, for the duration of one test.
struct TestServer {
    httplib::Server server;
    std::thread thread;
    int port = 0;
    std::atomic<bool> stopping{false};
    void start()
    {
        port = server.bind_to_any_port("127.0.0.1");
        thread = std::thread([this] { server.listen_after_bind(); });
        for (int i = 0; i < 200 && !server.is_running(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ~TestServer()
    {
        stopping = true;
        server.stop();
        if (thread.joinable())
            thread.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
};

} // namespace

class CollectTest : public QObject {
    Q_OBJECT
private slots:
    void hostlists();
    void sacctRequeued();
    void scontrolRecorded();
    void kubectlJob();
    void journalJson();
    void lokiRecorded();
    void prometheusSplit();
    void prometheusByScrapeAddress();
    void processTimeoutAndQuoting();
    void filesLocalRotatedAndRanks();
    void filesOverRemoteShell();
    void slowSourceDoesNotBlockOthers();
    void lokiServerRecorded();
    void outDirRules();
    void reportsIntoResult();
    void archiveAndHistory();
    void historyRowIsTheDocument();
    void podLogs();
    void scopeEndedWell();
    void drainOnlyFromNodeRecords();
};

void CollectTest::hostlists()
{
    std::string error;
    auto l = present::expandHostList("node[01-03,07],gpu-a1", error);
    QVERIFY(l);
    QCOMPARE(*l, (std::vector<std::string>{"node01", "node02", "node03", "node07", "gpu-a1"}));
    l = present::expandHostList("r[1-2]n[8-9]", error);
    QVERIFY(l);
    QCOMPARE(*l, (std::vector<std::string>{"r1n8", "r1n9", "r2n8", "r2n9"}));
    l = present::expandHostList("jean-zay-iam[17-19]", error);
    QCOMPARE(l->size(), size_t(3));
    QVERIFY(!present::expandHostList("node[1-", error));
    QVERIFY(error.find("unbalanced") != std::string::npos);
    QVERIFY(!present::expandHostList("node[5-3]", error));
    QVERIFY(!present::expandHostList("n[0-999999]", error));
    QVERIFY(!present::expandHostList("n[a-b]", error));
    QVERIFY(safeNodeName("gpu-node-01.cluster_a"));
    QVERIFY(!safeNodeName("-oProxyCommand=x"));
    QVERIFY(!safeNodeName("a'b"));
    QVERIFY(!safeNodeName("a/b"));
    QVERIFY(!safeNodeName(""));
}

void CollectTest::sacctRequeued()
{
    std::string error;
    auto s = scopeFromSacctJson(fltest::readFile(kData + "sacct-requeued.json"), "4242", error);
    QVERIFY2(s, error.c_str());
    QCOMPARE(s->scheduler, std::string("slurm"));
    QCOMPARE(s->attempt, 1); // the second run of a requeued job
    QCOMPARE(s->nodes, (std::vector<std::string>{"gpu-node02", "gpu-node03"}));
    QCOMPARE(s->state, std::string("FAILED"));
    QCOMPARE(s->reason, std::string("NonZeroExitCode"));
    QCOMPARE(s->startNs, int64_t(1773482100) * 1'000'000'000);
    QCOMPARE(s->endNs, int64_t(1773482451) * 1'000'000'000);
    QCOMPARE(s->steps.size(), size_t(2));
    QCOMPARE(s->steps[1].id, std::string("4242.0"));
    QCOMPARE(s->tasks, 16);
    QCOMPARE(s->exitCodes.at("gpu-node02"), 1); // the batch step ran there
    QVERIFY(!scopeFromSacctJson(fltest::readFile(kData + "sacct-requeued.json"), "99", error));
    QVERIFY(error.find("99") != std::string::npos);
    QVERIFY(!scopeFromSacctJson("{\"jobs\": 3}", "1", error));
    QVERIFY(!scopeFromSacctJson("not json", "1", error));
    // Slurm 23.x shapes: lists and {"set", "number"} objects.
    auto s23 = scopeFromSacctJson(R"({"jobs":[{"job_id":7,"nodes":"a[1-2]","state":{"current":["NODE_FAIL"]},
        "exit_code":{"status":["SIGNALED"],"return_code":{"set":true,"number":0}},
        "time":{"start":{"set":true,"number":100},"end":{"set":true,"number":200}}}]})",
                                  "7", error);
    QVERIFY2(s23, error.c_str());
    QCOMPARE(s23->state, std::string("NODE_FAIL"));
    QCOMPARE(s23->startNs, int64_t(100) * 1'000'000'000);
    QCOMPARE(s23->nodes.size(), size_t(2));
}

void CollectTest::scontrolRecorded()
{
    // Recorded from Debian 12's slurm-wlm 22.05.8 (tests/collect/slurm_e2e.sh).
    std::string text = fltest::readFile(kData + "scontrol-show-job-22.05.txt");
    std::string error;
    auto s = scopeFromScontrol(text, 0, error);
    QVERIFY2(s, error.c_str());
    QCOMPARE(s->workloadId, std::string("1"));
    QCOMPARE(s->state, std::string("FAILED"));
    QCOMPARE(s->reason, std::string("NonZeroExitCode"));
    QCOMPARE(s->nodes, std::vector<std::string>{"vm"});
    QCOMPARE(s->attempt, 0);
    QCOMPARE(s->tasks, 2);
    QCOMPARE(s->startNs, iso("2026-12-03T08:06:00Z"));
    QCOMPARE(s->endNs, iso("2026-12-03T08:06:02Z"));
    QCOMPARE(s->exitCodes.at("vm"), 3);
    QCOMPARE(s->outputFiles, std::vector<std::string>{"/shared/runs/e2e/job/slurm-1.out"});
    // Times carry no zone: the printing host's offset applies.
    auto east = scopeFromScontrol(text, 3600, error);
    QCOMPARE(east->startNs, iso("2026-12-03T07:06:00Z"));
    // A multi-node allocation (not available on one host) from the same record.
    std::string multi = text;
    multi.replace(multi.find("NodeList=vm"), 11, "NodeList=gpu-node[01-02],login3");
    multi.replace(multi.find("Restarts=0"), 10, "Restarts=2");
    auto m = scopeFromScontrol(multi, 0, error);
    QCOMPARE(m->nodes, (std::vector<std::string>{"gpu-node01", "gpu-node02", "login3"}));
    QCOMPARE(m->attempt, 2);
    QVERIFY(!scopeFromScontrol("slurm_load_jobs error: Invalid job id specified\n", 0, error));
}

void CollectTest::kubectlJob()
{
    std::string error;
    auto s = scopeFromKubectl(fltest::readFile(kData + "kubectl-job.json"), fltest::readFile(kData + "kubectl-pods.json"),
                              error);
    QVERIFY2(s, error.c_str());
    QCOMPARE(s->scheduler, std::string("kubernetes"));
    QCOMPARE(s->workloadId, std::string("research/llama-ft"));
    QCOMPARE(s->nodes, (std::vector<std::string>{"gpu-node-01", "gpu-node-02"}));
    QCOMPARE(s->state, std::string("Failed"));
    QCOMPARE(s->reason, std::string("BackoffLimitExceeded"));
    QCOMPARE(s->startNs, iso("2026-03-14T09:55:02Z"));
    QCOMPARE(s->endNs, iso("2026-03-14T10:11:05Z"));
    QCOMPARE(s->exitCodes.at("gpu-node-02"), 137);
    QCOMPARE(s->exitCodes.at("gpu-node-01"), 1);
    QCOMPARE(s->attempt, 1);
    QCOMPARE(s->steps.size(), size_t(2));
    bool pendingNoted = false;
    for (const auto& n : s->notes)
        pendingNoted |= n.find("llama-ft-1-zz001 was never scheduled") != std::string::npos;
    QVERIFY(pendingNoted);
    QVERIFY(!scopeFromKubectl(R"({"kind":"Pod"})", R"({"items":[]})", error));
    QVERIFY(!scopeFromKubectl(fltest::readFile(kData + "kubectl-job.json"), "[]", error));
}

void CollectTest::journalJson()
{
    // Field shapes of `journalctl --output=json` (systemd's JSON export format):
    // strings, byte arrays for non-UTF-8 text, realtime in microseconds.
    const std::string data =
        R"({"__REALTIME_TIMESTAMP":"1773482441338871","_TRANSPORT":"kernel","SYSLOG_IDENTIFIER":"kernel","MESSAGE":"NVRM: Xid (PCI:0000:41:00): 79, pid=2281, name=python, GPU has fallen off the bus.","_HOSTNAME":"gpu-node-02.cluster"})"
        "\n"
        R"({"__REALTIME_TIMESTAMP":"1773482442000000","_TRANSPORT":"syslog","SYSLOG_IDENTIFIER":"nvidia-persistenced","_PID":"1234","MESSAGE":[76,105,110,101,10,116,119,111]})"
        "\n"
        "not json\n"
        R"({"MESSAGE":"no time"})"
        "\n\n";
    uint64_t entries = 0, bad = 0;
    const std::string out = journalJsonToSyslog(data, "gpu-node-02", entries, bad);
    QCOMPARE(entries, uint64_t(2));
    QCOMPARE(bad, uint64_t(2));
    QCOMPARE(out, std::string("2026-03-14T10:00:41.338871Z gpu-node-02 kernel: NVRM: Xid (PCI:0000:41:00): 79, pid=2281, "
                              "name=python, GPU has fallen off the bus.\n"
                              "2026-03-14T10:00:42Z gpu-node-02 nvidia-persistenced[1234]: Line\n"
                              "2026-03-14T10:00:42Z gpu-node-02 nvidia-persistenced[1234]: two\n"));
}

void CollectTest::lokiRecorded()
{
    uint64_t entries = 0;
    int64_t last = 0;
    std::string error;
    const std::string out = lokiStreamsToLines(fltest::readFile(kData + "loki-query_range.json"), entries, last, error);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(entries, uint64_t(3));
    QCOMPARE(last, int64_t(1773482442000000000));
    // In time order across streams; a line break inside an entry is flattened.
    QVERIFY(out.find("IBMNPU: link down\n") < out.find("Xid (PCI:0000:41:00): 79"));
    QVERIFY(out.find("Main process exited status=1/FAILURE\n") != std::string::npos);
    lokiStreamsToLines(R"({"status":"success","data":{"resultType":"matrix","result":[]}})", entries, last, error);
    QVERIFY(error.find("matrix") != std::string::npos);
    error.clear();
    lokiStreamsToLines(R"({"status":"error","error":"parse error"})", entries, last, error);
    QVERIFY(!error.empty());
}

void CollectTest::prometheusSplit()
{
    const std::string body = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"node_load1","instance":"gpu-node-01:9100"},"values":[[1773482400,"1.5"]]},
        {"metric":{"__name__":"DCGM_FI_DEV_XID_ERRORS","Hostname":"gpu-node-02.cluster.local","gpu":"1"},"values":[[1773482400,"79"]]},
        {"metric":{"__name__":"node_load1","instance":"elsewhere:9100"},"values":[[1773482400,"9"]]},
        {"metric":"broken"}]}})";
    std::string error;
    auto split = splitPrometheusMatrix(body, {"gpu-node-01", "gpu-node-02", "gpu-node-03"}, {"Hostname", "instance"}, error);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(split.size(), size_t(2));
    auto one = nlohmann::json::parse(split.at("gpu-node-01"));
    QCOMPARE(one["data"]["result"].size(), size_t(1));
    QCOMPARE(one["data"]["result"][0]["metric"]["node"].get<std::string>(), std::string("gpu-node-01"));
    QVERIFY(split.at("gpu-node-02").find("\"79\"") != std::string::npos);
    splitPrometheusMatrix(R"({"status":"error","error":"bad query"})", {"a1"}, {"Hostname"}, error);
    QVERIFY(error.find("bad query") != std::string::npos);
}

// node-exporter targets scraped by address (instance="10.1.0.4:9100") carry no host name: node_uname_info's
// nodename says which node an address is, and the series go to that node.
void CollectTest::prometheusByScrapeAddress()
{
    QCOMPARE(scrapeAddress("10.1.0.4:9100"), std::string("10.1.0.4"));
    QCOMPARE(scrapeAddress("gpu-b04:9100"), std::string("gpu-b04"));
    QCOMPARE(scrapeAddress("[fe80::1]:9100"), std::string("[fe80::1]"));
    QCOMPARE(scrapeAddress("fe80::1"), std::string("fe80::1"));
    QCOMPARE(scrapeAddress("10.1.0.4"), std::string("10.1.0.4"));
    // What GET /api/v1/series?match[]=node_uname_info{...} answers (Prometheus 2.42).
    const std::string series = R"({"status":"success","data":[
        {"__name__":"node_uname_info","instance":"10.1.0.4:9100","job":"node","nodename":"gpu-node-04.cluster.local","release":"6.1.0"},
        {"__name__":"node_uname_info","instance":"gpu-node-01:9100","job":"node","nodename":"gpu-node-01"},
        {"__name__":"node_uname_info","instance":"10.1.0.9:9100","job":"node","nodename":"gpu-node-05"},
        {"__name__":"node_uname_info","instance":"10.1.0.9:9100","job":"node","nodename":"gpu-node-06"},
        {"__name__":"node_uname_info","instance":"10.1.0.7:9100","job":"node","nodename":"elsewhere"}]})";
    std::string error;
    std::vector<std::string> conflicts;
    const auto hosts = unameAddresses(series, {"gpu-node-01", "gpu-node-04", "gpu-node-05", "gpu-node-06"}, conflicts, error);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(hosts.size(), size_t(1)); // gpu-node-01 is named by its host name; 10.1.0.9 is claimed twice
    QCOMPARE(hosts.at("10.1.0.4"), std::string("gpu-node-04"));
    QCOMPARE(conflicts.size(), size_t(1));
    QVERIFY(conflicts[0].find("10.1.0.9") == 0);
    const std::string body = R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"node_infiniband_link_downed_total","instance":"10.1.0.4:9100","device":"mlx5_0","port":"1"},"values":[[1773482400,"3"]]},
        {"metric":{"__name__":"node_infiniband_link_downed_total","instance":"10.1.0.44:9100","device":"mlx5_0","port":"1"},"values":[[1773482400,"0"]]}]}})";
    auto split = splitPrometheusMatrix(body, {"gpu-node-04"}, {"instance"}, error, hosts);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(split.size(), size_t(1));
    auto four = nlohmann::json::parse(split.at("gpu-node-04"));
    QCOMPARE(four["data"]["result"].size(), size_t(1));
    QCOMPARE(four["data"]["result"][0]["metric"]["node"].get<std::string>(), std::string("gpu-node-04"));
    QCOMPARE(four["data"]["result"][0]["metric"]["instance"].get<std::string>(), std::string("10.1.0.4:9100"));
    unameAddresses(R"({"status":"error","error":"bad match"})", {"a"}, conflicts, error);
    QVERIFY(error.find("bad match") != std::string::npos);
}

void CollectTest::processTimeoutAndQuoting()
{
    ProcessOptions po;
    po.timeout = std::chrono::milliseconds(300);
    const auto t0 = std::chrono::steady_clock::now();
    ProcessResult r = runProcess({"sleep", "10"}, po);
    QVERIFY(r.timedOut);
    QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));
    QVERIFY(r.describe().find("timed out") == 0);
    r = runProcess({"no-such-command-faultline"});
    QVERIFY(!r.started);
    // What a remote shell makes of a quoted word is the word itself.
    const std::string nasty = "a b'c\"$(touch /tmp/x)`;*";
    r = runProcess({"sh", "-c", "printf %s " + shellQuote(nasty)});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.out, nasty);
    po.timeout = std::chrono::seconds(10);
    po.maxStdoutBytes = 1000;
    r = runProcess({"yes"}, po);
    QVERIFY(r.truncated);
    QCOMPARE(r.out.size(), size_t(1000));
}

void CollectTest::filesLocalRotatedAndRanks()
{
    QTemporaryDir tmp;
    const fs::path logs = fs::path(tmp.path().toStdString()) / "logs";
    fltest::writeFile(logs / "gpu-node-01/syslog", "Mar 14 10:00:41 gpu-node-01 kernel: NVRM: Xid (PCI:0000:41:00): 79\n");
    fltest::writeFile(logs / "gpu-node-01/syslog.1", "older\n");
    fltest::writeFile(logs / "gpu-node-01/syslog.2.gz", std::string("\x1f\x8b\x08\x00", 4));
    fltest::writeFile(logs / "gpu-node-01/syslog.9.gz", std::string("\x1f\x8b\x08\x00", 4));
    fltest::writeFile(logs / "gpu-node-01/train-rank0.log", "rank 0\n");
    fltest::writeFile(logs / "gpu-node-01/train-rank1.log", "rank 1\n");
    // syslog.9.gz was last written long before the window.
    const timeval old[2] = {{1000000000, 0}, {1000000000, 0}};
    ::utimes((logs / "gpu-node-01/syslog.9.gz").c_str(), old);

    Scope scope;
    scope.scheduler = "manual";
    scope.nodes = {"gpu-node-01", "gpu-node-02"};
    scope.tasks = 2;
    scope.workloadId = "w1";
    CollectOptions o;
    o.outDir = tmp.path().toStdString() + "/out";
    o.fromNs = iso("2026-03-14T09:55:00Z");
    o.toNs = iso("2026-03-14T10:15:00Z");
    o.journal = false;
    o.fileTemplates = {logs.string() + "/{node}/syslog", logs.string() + "/{node}/train-rank{rank}.log"};
    const CollectResult r = fl::collect::collect(scope, o);
    const SourceReport* one = find(r, "files", "gpu-node-01");
    QVERIFY(one);
    QCOMPARE(toString(one->status), std::string_view("ok"));
    QCOMPARE(one->files, (std::vector<std::string>{"gpu-node-01/syslog", "gpu-node-01/syslog.1",
                                                   "gpu-node-01/syslog.2.gz", "gpu-node-01/train-rank0.log",
                                                   "gpu-node-01/train-rank1.log"}));
    QVERIFY(one->reason.find("1 last written before the window") != std::string::npos);
    // Compressed copies are copied byte for byte.
    QCOMPARE(fltest::readFile(fs::path(o.outDir) / "gpu-node-01/syslog.2.gz"), std::string("\x1f\x8b\x08\x00", 4));
    const SourceReport* two = find(r, "files", "gpu-node-02");
    QCOMPARE(toString(two->status), std::string_view("empty"));
    QVERIFY(two->reason.find("no file matches") == 0);
    // The manifest names what answered, and the loader reads it.
    const auto manifest = nlohmann::json::parse(fltest::readFile(fs::path(o.outDir) / "workload.json"));
    QCOMPARE(manifest["workload_id"].get<std::string>(), std::string("w1"));
    QCOMPARE(manifest["nodes"].size(), size_t(2));
    QCOMPARE(manifest["collection"]["sources"].size(), size_t(2));
    const Bundle b = loadBundle(o.outDir);
    QVERIFY(b.manifest);
    QCOMPARE(b.manifest->windowStartNs, o.fromNs);

    // {rank} without a rank count is an error that says what to give.
    scope.tasks = -1;
    o.outDir = tmp.path().toStdString() + "/out2";
    o.fileTemplates = {logs.string() + "/{node}/train-rank{rank}.log"};
    const CollectResult r2 = fl::collect::collect(scope, o);
    QCOMPARE(toString(find(r2, "files", "gpu-node-01")->status), std::string_view("error"));
    QVERIFY(find(r2, "files", "gpu-node-01")->reason.find("--ranks") != std::string::npos);
}

void CollectTest::filesOverRemoteShell()
{
    QTemporaryDir tmp;
    const fs::path logs = fs::path(tmp.path().toStdString()) / "remote logs";
    fltest::writeFile(logs / "gpu-node-07/kern.log", "Mar 14 10:00:41 gpu-node-07 kernel: NVRM: Xid 79\n");
    fltest::writeFile(logs / "gpu-node-07/kern.log.1", "rotated\n");
    fltest::writeFile(logs / "gpu-node-07/it's here.log", "quoted\n");
    Scope scope;
    scope.scheduler = "manual";
    scope.nodes = {"gpu-node-07"};
    CollectOptions o;
    o.outDir = tmp.path().toStdString() + "/out";
    o.fromNs = iso("2026-03-14T09:55:00Z");
    o.toNs = iso("2026-03-14T10:15:00Z");
    o.ssh = true;
    o.sshCommand = {std::string(FAULTLINE_COLLECT_DATA) + "/loopback-ssh.sh"};
    o.localHost = "not-this-one";
    o.journal = false;
    o.fileTemplates = {logs.string() + "/{node}/kern.log", logs.string() + "/{node}/it's*"};
    const CollectResult r = fl::collect::collect(scope, o);
    const SourceReport* rep = find(r, "files", "gpu-node-07");
    QVERIFY(rep);
    QVERIFY2(rep->status == SourceStatus::Ok, rep->reason.c_str());
    QCOMPARE(rep->files, (std::vector<std::string>{"gpu-node-07/it_s_here.log", "gpu-node-07/kern.log",
                                                   "gpu-node-07/kern.log.1"}));
    QCOMPARE(fltest::readFile(fs::path(o.outDir) / "gpu-node-07/it_s_here.log"), std::string("quoted\n"));
    QCOMPARE(fltest::readFile(fs::path(o.outDir) / "gpu-node-07/kern.log.1"), std::string("rotated\n"));
}

void CollectTest::slowSourceDoesNotBlockOthers()
{
    TestServer slow;
    slow.server.Get("/loki/api/v1/query_range", [&](const httplib::Request&, httplib::Response& res) {
        for (int i = 0; i < 100 && !slow.stopping; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        res.set_content(R"({"status":"success","data":{"resultType":"streams","result":[]}})", "application/json");
    });
    slow.start();
    QTemporaryDir tmp;
    const fs::path logs = fs::path(tmp.path().toStdString()) / "logs";
    fltest::writeFile(logs / "gpu-node-01/syslog", "x\n");
    Scope scope;
    scope.scheduler = "manual";
    scope.nodes = {"gpu-node-01"};
    CollectOptions o;
    o.outDir = tmp.path().toStdString() + "/out";
    o.fromNs = iso("2026-03-14T09:55:00Z");
    o.toNs = iso("2026-03-14T10:15:00Z");
    o.journal = false;
    o.fileTemplates = {logs.string() + "/{node}/syslog"};
    o.lokiUrl = slow.url();
    o.timeouts["loki"] = std::chrono::milliseconds(800);
    const auto t0 = std::chrono::steady_clock::now();
    const CollectResult r = fl::collect::collect(scope, o);
    const auto elapsed = std::chrono::steady_clock::now() - t0;
    QVERIFY2(elapsed < std::chrono::milliseconds(3000), "the Loki timeout bounds the whole collection");
    QCOMPARE(toString(find(r, "files", "gpu-node-01")->status), std::string_view("ok"));
    const SourceReport* loki = find(r, "loki", "gpu-node-01");
    QCOMPARE(toString(loki->status), std::string_view("error"));
    QVERIFY2(loki->reason.find("timed out") != std::string::npos, loki->reason.c_str());
}

void CollectTest::lokiServerRecorded()
{
    TestServer loki;
    std::string query, org;
    loki.server.Get("/loki/api/v1/query_range", [&](const httplib::Request& req, httplib::Response& res) {
        query = req.get_param_value("query");
        org = req.get_header_value("X-Scope-OrgID");
        if (req.get_param_value("query").find("gpu-node-02") != std::string::npos)
            res.set_content(fltest::readFile(kData + "loki-query_range.json"), "application/json");
        else
            res.set_content(R"({"status":"success","data":{"resultType":"streams","result":[]}})", "application/json");
    });
    loki.start();
    QTemporaryDir tmp;
    Scope scope;
    scope.scheduler = "manual";
    scope.nodes = {"gpu-node-02"};
    CollectOptions o;
    o.outDir = tmp.path().toStdString() + "/out";
    o.fromNs = iso("2026-03-14T09:55:00Z");
    o.toNs = iso("2026-03-14T10:15:00Z");
    o.journal = false;
    o.lokiUrl = loki.url();
    o.lokiSelector = "{host=\"{node}\", job=\"varlogs\"}";
    o.lokiOrg = "tenant-a";
    const CollectResult r = fl::collect::collect(scope, o);
    QCOMPARE(query, std::string("{host=\"gpu-node-02\", job=\"varlogs\"}"));
    QCOMPARE(org, std::string("tenant-a"));
    const SourceReport* rep = find(r, "loki", "gpu-node-02");
    QVERIFY2(rep->status == SourceStatus::Ok, rep->reason.c_str());
    QCOMPARE(rep->files, std::vector<std::string>{"gpu-node-02/loki.log"});
    // The bundle analyses: the kernel line is read as syslog on its node.
    const Analysis a = analyze(o.outDir, fltest::shippedOnly());
    bool seen = false;
    for (const auto& f : a.bundle.files)
        if (f.path == "gpu-node-02/loki.log") {
            seen = true;
            QCOMPARE(f.node, std::string("gpu-node-02"));
            QCOMPARE(toString(f.kind), std::string_view("syslog"));
        }
    QVERIFY(seen);
}

void CollectTest::outDirRules()
{
    QTemporaryDir tmp;
    const std::string full = tmp.path().toStdString() + "/full";
    fltest::writeFile(full + "/keep.txt", "mine");
    Scope scope;
    scope.nodes = {"n1x"};
    CollectOptions o;
    o.outDir = full;
    o.journal = false;
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, fl::collect::collect(scope, o));
    // A node name that could become an option or a path is refused, and reported.
    o.outDir = tmp.path().toStdString() + "/new";
    scope.nodes = {"-oProxyCommand=touch", "../x", "ok-node1"};
    o.fileTemplates = {tmp.path().toStdString() + "/{node}"};
    const CollectResult r = fl::collect::collect(scope, o);
    QCOMPARE(toString(find(r, "scope", "../x")->status), std::string_view("error"));
    QVERIFY(find(r, "files", "ok-node1"));
    QVERIFY(!find(r, "files", "../x"));
    // Only the bundle was written.
    std::vector<std::string> top;
    for (const auto& e : fs::directory_iterator(tmp.path().toStdString()))
        top.push_back(e.path().filename().string());
    std::sort(top.begin(), top.end());
    QCOMPARE(top, (std::vector<std::string>{"full", "new"}));
}

void CollectTest::reportsIntoResult()
{
    Result result;
    addSourceReports(result, {{"journal", "n1", SourceStatus::Error, "not this host", {}, 0, 5},
                              {"prometheus", "n1", SourceStatus::Ok, "3 series", {"metrics/prometheus-n1.json"}, 10, 3}});
    QCOMPARE(result.connectors.size(), size_t(2));
    QCOMPARE(result.connectors[0].file, std::string("collect:journal/n1"));
    QCOMPARE(toString(result.connectors[0].status), std::string_view("error"));
    QVERIFY(result.connectors[1].kind == SourceKind::Metrics);
    QCOMPARE(result.missing.size(), size_t(1));
    QVERIFY(result.missing[0].find("journal of n1") == 0);
}

void CollectTest::archiveAndHistory()
{
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString()) / "bundle";
    fltest::writeFile(dir / "gpu-node-02/syslog", "Mar 14 10:00:41 gpu-node-02 kernel: NVRM: Xid (PCI:0000:41:00): 79, GPU has fallen off the bus.\n");
    fltest::writeFile(dir / "workload.json", R"({"workload_id": "4242", "attempt": 1})");
    std::string error;
    const std::string tgz = tarGzFolder(dir.string(), error);
    QVERIFY2(error.empty(), error.c_str());
    fltest::writeFile(fs::path(tmp.path().toStdString()) / "b.tar.gz", tgz);
    // The service reads what the loader reads: same files from the archive as from the folder.
    const Bundle fromArchive = loadBundle(tmp.path().toStdString() + "/b.tar.gz");
    QCOMPARE(fromArchive.files.size(), size_t(2));
    QCOMPARE(fromArchive.files[0].path, std::string("gpu-node-02/syslog"));
    QCOMPARE(fromArchive.manifest->workloadId, std::string("4242"));

    const Analysis a = analyze(dir.string(), fltest::shippedOnly());
    const std::string db = tmp.path().toStdString() + "/history.db";
    QVERIFY2(appendHistory(db, resultToJson(a.result), "slurm", dir.string(), error), error.c_str());
    QVERIFY2(appendHistory(db, resultToJson(a.result), "slurm", dir.string(), error), error.c_str());
    sqlite3* h = nullptr;
    QCOMPARE(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    QCOMPARE(sqlite3_prepare_v2(h, "SELECT count(*), workload_id, attempt, status, root_node, fingerprint FROM results", -1, &st, nullptr), SQLITE_OK);
    QCOMPARE(sqlite3_step(st), SQLITE_ROW);
    QCOMPARE(sqlite3_column_int(st, 0), 2);
    QCOMPARE(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 1))), std::string("4242"));
    QCOMPARE(sqlite3_column_int(st, 2), 1);
    QCOMPARE(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 3))), std::string(toString(a.result.status)));
    if (a.result.rootCause) {
        QCOMPARE(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 4))), std::string("gpu-node-02"));
        QVERIFY(sqlite3_column_text(st, 5) != nullptr);
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    QVERIFY(!appendHistory(tmp.path().toStdString() + "/no/such/dir/h.db", resultToJson(a.result), "", "", error));
}

// The history row is what the one reader (resultFromJson) makes of the document: every column as the
// document writes it, a boot-relative time to the microsecond, and a document that is not one refused.
void CollectTest::historyRowIsTheDocument()
{
    QTemporaryDir tmp;
    Result r;
    r.status = ResultStatus::Attributed;
    r.outcome = WorkloadOutcome::Failed;
    r.domain = Domain::Gpu;
    r.subDomain = "xid";
    r.summary = "GPU 3 on n1 fell off the bus";
    r.workloadId = "77";
    r.attempt = 2;
    RootCause rc;
    rc.symptom = "gpu_xid_79";
    rc.node = "n1";
    rc.gpuIndex = 3;
    rc.pciBus = "0000:3b:00.0";
    rc.rank = 5;
    // Through a double this reads back as ...472744999 ns and is written one microsecond early.
    rc.time = {8767101472745000, TimeBasis::BootRelative, {}};
    r.rootCause = rc;
    const nlohmann::json doc = resultToJson(r);
    Result none;
    none.summary = "nothing found";
    const std::string db = tmp.path().toStdString() + "/history.db";
    std::string error;
    QVERIFY2(appendHistory(db, doc, "slurm", "/b", error), error.c_str());
    QVERIFY2(appendHistory(db, resultToJson(none), "", "", error), error.c_str());
    QVERIFY(!appendHistory(db, nlohmann::json{{"status", "attributed"}}, "", "", error));
    QVERIFY2(error.find(db) == 0, error.c_str());

    sqlite3* h = nullptr;
    QCOMPARE(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    QCOMPARE(sqlite3_prepare_v2(h, "SELECT scheduler, workload_id, attempt, status, outcome, domain, sub_domain, root_symptom,"
                                   " root_node, root_gpu, root_pci, root_rank, root_time, fingerprint, summary, bundle,"
                                   " result_json FROM results ORDER BY id", -1, &st, nullptr), SQLITE_OK);
    auto col = [&](int i) {
        const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(st, i));
        return t ? std::string(t) : std::string("NULL");
    };
    QCOMPARE(sqlite3_step(st), SQLITE_ROW);
    const std::vector<std::string> want{"slurm", "77", "2", "attributed", "failed", "gpu", "xid", "gpu_xid_79", "n1", "3",
                                        "0000:3b:00.0", "5", "boot+8767101.472745s", "gpu/xid/gpu_xid_79",
                                        "GPU 3 on n1 fell off the bus", "/b", doc.dump()};
    for (int i = 0; i < int(want.size()); ++i)
        QCOMPARE(col(i), want[i]);
    QCOMPARE(sqlite3_step(st), SQLITE_ROW);
    const std::vector<std::string> unattributed{"NULL", "NULL", "NULL", "unattributed", "unknown", "unknown", "NULL", "NULL",
                                                "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "nothing found", "NULL"};
    for (int i = 0; i < int(unattributed.size()); ++i)
        QCOMPARE(col(i), unattributed[i]);
    QCOMPARE(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(h);
}

void CollectTest::podLogs()
{
    std::string error;
    Scope scope = *scopeFromKubectl(fltest::readFile(kData + "kubectl-job.json"),
                                    fltest::readFile(kData + "kubectl-pods.json"), error);
    QTemporaryDir tmp;
    CollectOptions o;
    o.outDir = tmp.path().toStdString() + "/out";
    o.journal = false;
    // Stands in for kubectl: prints a --timestamps log for pod 0, fails for pod 1
    // the way kubectl does when a pod's node is gone.
    o.kubectlCommand = {"sh", "-c",
                        "case \"$6\" in llama-ft-0-*) printf '2026-03-14T10:10:50.000000001Z [rank0]: NCCL watchdog\\n';; "
                        "*) echo 'Error from server: node gpu-node-02 not found' >&2; exit 1;; esac",
                        "kubectl"};
    const CollectResult r = fl::collect::collect(scope, o);
    const SourceReport* ok = find(r, "pod-logs", "gpu-node-01");
    QVERIFY(ok);
    QVERIFY2(ok->status == SourceStatus::Ok, ok->reason.c_str());
    QCOMPARE(ok->files, std::vector<std::string>{"gpu-node-01/applog.log"});
    QVERIFY(ok->reason.find("llama-ft-0-x7k2p") != std::string::npos);
    const SourceReport* bad = find(r, "pod-logs", "gpu-node-02");
    QCOMPARE(toString(bad->status), std::string_view("error"));
    QVERIFY2(bad->reason.find("node gpu-node-02 not found") != std::string::npos, bad->reason.c_str());
    // The scheduler's answers are in the bundle too.
    QVERIFY(fs::exists(fs::path(o.outDir) / "workload.json"));
}

QTEST_GUILESS_MAIN(CollectTest)
void CollectTest::scopeEndedWell()
{
    // Recorded inside EpilogSlurmctld (tests/collect/slurm_e2e.sh, Slurm 22.05.8, scontrol -d show job): every
    // ending job is COMPLETING there, and its NodeList is empty once the nodes finished their part.
    CollectResult none;
    none.fromNs = iso("2026-12-07T05:00:00Z");
    none.toNs = iso("2026-12-07T05:20:00Z");
    auto manifest = [&](const Scope& s) { return nlohmann::json::parse(manifestJson(s, none)); };
    auto parse = [](const std::string& text) {
        std::string error;
        auto s = scopeFromScontrol(text, 0, error);
        if (!s)
            qFatal("%s", error.c_str());
        return *s;
    };
    const std::string okText = fltest::readFile(kData + "scontrol-show-job-completing-ok-22.05.txt");
    const Scope ok = parse(okText);
    QCOMPARE(ok.state, std::string("COMPLETING"));
    QVERIFY(ok.succeeded);
    QVERIFY(!manifest(ok).contains("failure"));
    QVERIFY(std::any_of(ok.notes.begin(), ok.notes.end(),
                        [](const std::string& n) { return n.find("ended well") != std::string::npos; }));
    QCOMPARE(ok.nodes, std::vector<std::string>{"vm"}); // from the allocation's "Nodes=vm CPU_IDs=..." line

    const Scope failed = parse(fltest::readFile(kData + "scontrol-show-job-completing-22.05.txt"));
    QVERIFY(!failed.succeeded);
    QCOMPARE(failed.nodes, std::vector<std::string>{"vm"});
    QCOMPARE(failed.exitCodes.at("vm"), 3);
    QCOMPARE(manifest(failed)["failure"]["detection_signal"].get<std::string>(),
             std::string("slurm job state COMPLETING (NonZeroExitCode)"));

    // The good record with what other endings change in it: a time limit or a lost node with exit 0, a
    // signal, a step that failed under a script that exited 0. Each keeps its failure.
    auto variant = [&](const std::string& from, const std::string& to) {
        std::string t = okText;
        t.replace(t.find(from), from.size(), to);
        return parse(t);
    };
    QVERIFY(variant("JobState=COMPLETING", "JobState=COMPLETED").succeeded);
    for (const Scope& bad : {variant("Reason=None", "Reason=TimeLimit"), variant("Reason=None", "Reason=NodeDown"),
                             variant("ExitCode=0:0", "ExitCode=0:15"), variant("DerivedExitCode=0:0", "DerivedExitCode=1:0"),
                             parse(fltest::readFile(kData + "scontrol-show-job-22.05.txt"))}) {
        QVERIFY2(!bad.succeeded, (bad.state + " " + bad.reason).c_str());
        QVERIFY(manifest(bad).contains("failure"));
    }

    std::string error;
    QVERIFY(!scopeFromSacctJson(fltest::readFile(kData + "sacct-requeued.json"), "4242", error)->succeeded);
    auto done = [&](const char* derived) {
        return scopeFromSacctJson(std::string(R"({"jobs":[{"job_id":9,"nodes":"a1","state":{"current":["COMPLETED"]},
            "exit_code":{"status":["SUCCESS"],"return_code":{"set":true,"number":0}},
            "derived_exit_code":{"status":["SUCCESS"],"return_code":{"set":true,"number":)") + derived + R"(}},
            "time":{"start":{"set":true,"number":100},"end":{"set":true,"number":200}}}]})",
                                  "9", error);
    };
    QVERIFY2(done("0"), error.c_str());
    QVERIFY(done("0")->succeeded);
    QVERIFY(!done("2")->succeeded); // a step failed under a batch script that exited 0
    QVERIFY(!scopeFromKubectl(fltest::readFile(kData + "kubectl-job.json"), fltest::readFile(kData + "kubectl-pods.json"),
                              error)->succeeded);
}

void CollectTest::drainOnlyFromNodeRecords()
{
    // scontrol show job's Reason= is why the job waits or ended; scontrol show node's is a drain.
    auto drains = [](const std::map<std::string, std::string>& files) {
        QTemporaryDir tmp;
        const fs::path dir = tmp.path().toStdString();
        fltest::writeFile(dir / "workload.json", R"({"workload_id": "1", "scheduler": "slurm", "nodes": ["vm"]})");
        for (const auto& [path, text] : files)
            fltest::writeFile(dir / path, text);
        const Analysis a = analyze(dir.string(), fltest::shippedOnly());
        std::vector<std::string> reasons;
        for (const auto& e : a.result.events)
            if (e.symptom.str() == "scheduler.node_drain") {
                auto r = e.fields.find("reason");
                reasons.push_back(r == e.fields.end() ? "?" : std::string(r->second));
            }
        return reasons;
    };
    const std::string job = fltest::readFile(kData + "scontrol-show-job-22.05.txt");
    const std::string node = fltest::readFile(kData + "scontrol-show-node-22.05.txt");
    QCOMPARE(drains({{"scheduler/scontrol-job-1.txt", job}}), std::vector<std::string>{});
    const auto both = drains({{"scheduler/scontrol-job-1.txt", job}, {"scheduler/scontrol-node-vm.txt", node}});
    QCOMPARE(both.size(), size_t(1));
    QVERIFY2(both[0].find("faultline e2e drain") != std::string::npos, both[0].c_str()); // recorded by slurm_e2e.sh
}

#include "test_collect.moc"
