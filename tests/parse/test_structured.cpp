// Slurm accounting, Kubernetes events and metrics: canonical text, raw locations, bad rows.
#include "test_parse.h"

#include "bundle/sniff.h"
#include "bundle/text_lines.h"

#include "parse/lineparse.h"
#include "parse/structured.h"

#include <QTest>

#include <charconv>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

using namespace fl;

namespace {

constexpr int64_t kSec = 1000000000LL;

std::string_view slice(const std::string& s, const StructuredRecord& r) { return std::string_view(s).substr(r.offset, r.length); }

// sacct --json of Slurm 23.x (numbers as {"set","infinite","number"}, state lists), one job
// of 21.08 shape (plain numbers, string state, step id "123.0"), one broken entry.
const std::string kSacctJson = R"({
  "meta": {"plugin": {"type": "openapi/v0.0.39"}},
  "jobs": [
    {
      "job_id": 1943824,
      "name": "tr11-176B",
      "state": {"current": ["NODE_FAIL"], "reason": "None"},
      "exit_code": {"status": ["SIGNALED"], "return_code": {"set": true, "infinite": false, "number": 0},
                    "signal": {"id": {"set": true, "infinite": false, "number": 9}, "name": "KILL"}},
      "nodes": "jean-zay-iam[17-37]",
      "time": {"start": 1678000000, "end": 1678072671},
      "steps": [
        {"step": {"id": {"job_id": 1943824, "step_id": "batch"}, "name": "batch"},
         "state": ["CANCELLED"], "exit_code": {"return_code": {"set": true, "number": 0}, "signal": {"id": {"set": true, "number": 15}}},
         "nodes": {"range": "jean-zay-iam17", "count": 1},
         "time": {"start": {"set": true, "number": 1678000001}, "end": {"set": true, "number": 1678072671}}},
        {"step": {"id": {"job_id": 1943824, "step_id": {"set": true, "infinite": false, "number": 0}}, "name": "python"},
         "state": ["NODE_FAIL"], "exit_code": {"return_code": {"set": true, "number": 0}, "signal": {"id": {"set": true, "number": 9}}},
         "nodes": {"range": "jean-zay-iam[17-37]"},
         "time": {"start": 1678000002, "end": 1678072671}}
      ]
    },
    {"job_id": 48, "name": "old", "state": {"current": "FAILED", "reason": "NonZeroExitCode"},
     "exit_code": {"status": "FAILED", "return_code": 1}, "nodes": "node03",
     "time": {"start": 1600000000, "end": 1600000100},
     "steps": [{"step": {"id": "48.0", "name": "srun"}, "state": "FAILED", "exit_code": {"return_code": 1}, "nodes": {"range": "node03"},
                "time": {"start": 1600000001, "end": 1600000100}}]},
    {"name": "no id here"},
    "not an object"
  ]
})";

} // namespace

void StructuredTest::sacctJson()
{
    std::vector<StructuredRecord> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseSacctJson(kSacctJson, out, issues));
    QCOMPARE(out.size(), size_t(5));
    QCOMPARE(out[0].text, std::string("sacct job=1943824 state=NODE_FAIL exit=0:9 nodes=jean-zay-iam[17-37]"));
    QCOMPARE(nameOf(out[0].severity), nameOf(Severity::Error));
    QCOMPARE(out[0].timeNs, 1678072671LL * kSec);
    QCOMPARE(nameOf(out[0].basis), nameOf(TimeBasis::Absolute));
    QVERIFY(out[0].node.empty()); // a range names no single node
    QVERIFY(slice(kSacctJson, out[0]).starts_with("{\n      \"job_id\": 1943824"));
    QVERIFY(slice(kSacctJson, out[0]).ends_with("}"));
    QCOMPARE(out[0].line, 4u);
    QVERIFY(out[0].lineCount > 10);

    QCOMPARE(out[1].text, std::string("sacct job=1943824 step=batch state=CANCELLED exit=0:15 nodes=jean-zay-iam17"));
    QCOMPARE(out[1].node, std::string("jean-zay-iam17"));
    QCOMPARE(nameOf(out[1].severity), nameOf(Severity::Warning));
    QVERIFY(slice(kSacctJson, out[1]).starts_with("{\"step\": {\"id\": {\"job_id\": 1943824, \"step_id\": \"batch\"}"));
    QCOMPARE(out[1].line, 13u);
    QCOMPARE(out[2].text, std::string("sacct job=1943824 step=0 state=NODE_FAIL exit=0:9 nodes=jean-zay-iam[17-37]"));
    QCOMPARE(out[2].line, 17u);

    QCOMPARE(out[3].text, std::string("sacct job=48 state=FAILED exit=1:0 nodes=node03 reason=NonZeroExitCode"));
    QCOMPARE(out[3].node, std::string("node03"));
    QCOMPARE(out[3].timeNs, 1600000100LL * kSec);
    QCOMPARE(out[4].text, std::string("sacct job=48 step=0 state=FAILED exit=1:0 nodes=node03"));
    QVERIFY(slice(kSacctJson, out[4]).starts_with("{\"step\": {\"id\": \"48.0\""));

    QCOMPARE(issues.size(), size_t(2));
    QCOMPARE(issues[0].line, 28u);
    QVERIFY(issues[0].message.find("job_id") != std::string::npos);
    QCOMPARE(issues[1].line, 29u);
}

void StructuredTest::sacctJsonBad()
{
    std::vector<StructuredRecord> out;
    std::vector<ParseIssue> issues;
    // truncated sacct output: not parsed, but said so
    QVERIFY(!parseSacctJson(kSacctJson.substr(0, 300), out, issues));
    QCOMPARE(issues.size(), size_t(1));
    QVERIFY(out.empty());
    issues.clear();
    QVERIFY(!parseSacctJson(R"({"items": []})", out, issues));
    QVERIFY(!parseSacctJson("JobID|State\n1|FAILED\n", out, issues));
    QVERIFY(issues.empty());
    // deep nesting and garbage do not crash
    std::string deep(100000, '[');
    deep = "{\"jobs\": " + deep;
    QVERIFY(!parseSacctJson(deep, out, issues));
}

// sacct without --parsable (issue #41 item 6): columns padded to the widths of the dash line under the header,
// a value too wide cut with '+' (src/common/print_fields.c). Read as the same records as --parsable2, whatever
// the file is called, so a row names its node (NodeList) and time (End); a cut state is the state it begins.
void StructuredTest::sacctTable()
{
    const std::string data =
        "       JobID    JobName      State ExitCode        NodeList                 End \n"
        "------------ ---------- ---------- -------- --------------- ------------------- \n"
        "     4412871      train  NODE_FAIL      0:0          gpu-07 2026-11-30T12:16:03 \n"
        "4412871.bat+      batch CANCELLED+     0:15          gpu-07 2026-11-30T12:16:03 \n"
        "   4412871.0    python3     FAILED      1:0 gpu-[07-08,11]             Unknown \n"
        "   4412871.1    python3 OUT_OF_ME+    0:125      gpu-a1701+ 2026-11-30T12:16:03 \n"
        "   4412871.2    python3        RE+    0:125          gpu-07 2026-11-30T12:16:03 \n";
    std::vector<StructuredRecord> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseSacctPipe(data, out, issues));
    QCOMPARE(issues.size(), size_t(0));
    QCOMPARE(out.size(), size_t(5));
    QCOMPARE(out[0].text, std::string("sacct job=4412871 state=NODE_FAIL exit=0:0 nodes=gpu-07"));
    QCOMPARE(out[0].node, std::string("gpu-07"));
    QCOMPARE(out[0].timeNs, civilToNs(2026, 11, 30, 12, 16, 3, 0));
    QCOMPARE(out[0].line, 3u);
    QCOMPARE(out[1].text, std::string("sacct job=4412871 step=bat+ state=CANCELLED exit=0:15 nodes=gpu-07"));
    QCOMPARE(out[2].text, std::string("sacct job=4412871 step=0 state=FAILED exit=1:0 nodes=gpu-[07-08,11]"));
    QCOMPARE(out[2].node, std::string());
    QCOMPARE(nameOf(out[2].severity), nameOf(Severity::Error));
    // "OUT_OF_ME+" begins one state only; a node name cut by its column names no node.
    QCOMPARE(out[3].text, std::string("sacct job=4412871 step=1 state=OUT_OF_MEMORY exit=0:125 nodes=gpu-a1701+"));
    QCOMPARE(out[3].node, std::string());
    // "RE+" begins REQUEUED, RESIZING and REVOKED: kept as printed.
    QCOMPARE(out[4].text, std::string("sacct job=4412871 step=2 state=RE+ exit=0:125 nodes=gpu-07"));
    // A row pasted one column off its dash line keeps its values whole (the signature corpus has one).
    out.clear();
    QVERIFY(parseSacctPipe("JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n"
                           "------------ ---------- ---------- ---------- ---------- ---------- -------- \n"
                           "4412871.0        python                ml-team        512 OUT_OF_ME+    0:125 \n",
                           out, issues));
    QCOMPARE(out.size(), size_t(1));
    QCOMPARE(out[0].text, std::string("sacct job=4412871 step=0 state=OUT_OF_MEMORY exit=0:125"));
    // A neutral name: the header says what the file is.
    QVERIFY2(sniffContent(data).kind == SourceKind::Scheduler, sniffContent(data).reason.c_str());
    QVERIFY(sniffContent("JobID is 4412871, State unknown\n").kind != SourceKind::Scheduler);
    // Not a table: a header without the dash line.
    out.clear();
    QVERIFY(!parseSacctPipe("JobID State\n4412871 FAILED\n", out, issues));
}

void StructuredTest::sacctPipe()
{
    const std::string data = "JobID|JobName|State|ExitCode|NodeList|Start|End|Reason\n"
                             "1943824|tr11|NODE_FAIL|0:9|jean-zay-iam[17-37]|2023-03-05T07:06:40|2023-03-06T03:17:51|None\n"
                             "1943824.batch|batch|CANCELLED by 0|0:15|jean-zay-iam17|2023-03-05T07:06:41|2023-03-06T03:17:51|\n"
                             "1943824.0|python|NODE_FAIL|0:9|jean-zay-iam[17-37]|2023-03-05T07:06:42|Unknown|\n"
                             "broken|row\n"
                             "\n"
                             "48|old|OUT_OF_MEMORY|0:125|node03|2020-09-13T12:26:40|2020-09-13T12:28:20|\n";
    std::vector<StructuredRecord> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseSacctPipe(data, out, issues));
    QCOMPARE(out.size(), size_t(4));
    QCOMPARE(out[0].text, std::string("sacct job=1943824 state=NODE_FAIL exit=0:9 nodes=jean-zay-iam[17-37]"));
    QCOMPARE(out[0].timeNs, civilToNs(2023, 3, 6, 3, 17, 51, 0));
    QCOMPARE(nameOf(out[0].basis), nameOf(TimeBasis::AssumedUtc));
    QCOMPARE(out[0].line, 2u);
    QCOMPARE(slice(data, out[0]), std::string_view("1943824|tr11|NODE_FAIL|0:9|jean-zay-iam[17-37]|2023-03-05T07:06:40|2023-03-06T03:17:51|None"));
    QCOMPARE(out[1].text, std::string("sacct job=1943824 step=batch state=CANCELLED exit=0:15 nodes=jean-zay-iam17"));
    QCOMPARE(out[1].node, std::string("jean-zay-iam17"));
    QCOMPARE(out[2].timeNs, civilToNs(2023, 3, 5, 7, 6, 42, 0)); // End "Unknown": the start time
    QCOMPARE(out[3].text, std::string("sacct job=48 state=OUT_OF_MEMORY exit=0:125 nodes=node03"));
    QCOMPARE(out[3].line, 7u);
    QCOMPARE(nameOf(out[3].severity), nameOf(Severity::Error));
    QCOMPARE(issues.size(), size_t(1));
    QCOMPARE(issues[0].line, 5u);

    // "sacct -p" trailing separator
    out.clear();
    issues.clear();
    QVERIFY(parseSacctPipe("JobID|State|ExitCode|\n7|COMPLETED|0:0|\n", out, issues));
    QCOMPARE(out.size(), size_t(1));
    QCOMPARE(out[0].text, std::string("sacct job=7 state=COMPLETED exit=0:0"));
    QVERIFY(issues.empty());
    QVERIFY(!parseSacctPipe("just some log\n", out, issues));
}

// `kubectl get events` printed as a table, plain and with -A: the JSON list's records (issue #41 item 6).
void StructuredTest::k8sEventTable()
{
    const std::string plain = "LAST SEEN   TYPE      REASON      OBJECT              MESSAGE\n"
                              "2m          Warning   Evicted     pod/trainer-0       The node was low on resource: memory.\n"
                              "2m          Normal    Killing     pod/trainer-0       Stopping container main\n";
    std::vector<StructuredRecord> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseK8sEvents(plain, out, issues));
    QCOMPARE(out.size(), size_t(3)); // the header stays a line of its own, as every line no row covers
    QCOMPARE(out[1].text, std::string("k8s event type=Warning reason=Evicted object=pod/trainer-0 message=The node was low on resource: memory."));
    QCOMPARE(out[1].line, 2u);
    QCOMPARE(nameOf(out[1].severity), nameOf(Severity::Warning));
    QVERIFY(sniffContent(plain).kind == SourceKind::Scheduler);

    const std::string all = "NAMESPACE   LAST SEEN   TYPE      REASON       OBJECT         MESSAGE\n"
                            "default     3m          Warning   NodeNotReady node/gpu-07    Node gpu-07 status is now: NodeNotReady\n";
    out.clear();
    QVERIFY(parseK8sEvents(all, out, issues));
    QCOMPARE(out.size(), size_t(2));
    QCOMPARE(out[1].node, std::string("gpu-07"));
    QCOMPARE(out[1].text, std::string("k8s event type=Warning reason=NodeNotReady object=node/gpu-07 node=gpu-07 message=Node gpu-07 status is now: NodeNotReady"));
    // Not an event table: a pod table, a log line.
    out.clear();
    QVERIFY(!parseK8sEvents("NAME   READY   STATUS    RESTARTS   AGE\ntrainer-0   1/1   Running   0   4m\n", out, issues));
    QVERIFY(!parseK8sEvents("Warning: something\n", out, issues));
}

void StructuredTest::k8sEvents()
{
    const std::string data = R"({
  "apiVersion": "v1",
  "kind": "EventList",
  "items": [
    {
      "apiVersion": "v1", "kind": "Event",
      "metadata": {"name": "x.17", "namespace": "default", "creationTimestamp": "2024-05-01T10:00:05Z"},
      "involvedObject": {"kind": "Pod", "name": "minecraftg-fdf76df5c-r4nkh", "namespace": "default"},
      "reason": "Evicted",
      "message": "The node was low on resource: memory. Container minecraft was using 1924152Ki, which exceeds its request of 0.",
      "source": {"component": "kubelet", "host": "gpu-node-7"},
      "firstTimestamp": "2024-05-01T10:00:00Z",
      "lastTimestamp": "2024-05-01T10:00:04Z",
      "type": "Warning"
    },
    {
      "kind": "Event",
      "involvedObject": {"kind": "Node", "name": "gpu-node-9"},
      "reason": "NodeNotReady", "message": "Node gpu-node-9 status is now: NodeNotReady\nsecond line",
      "eventTime": "2024-05-01T10:01:00.500000Z", "type": "Normal"
    },
    {"kind": "Event", "message": "no object"}
  ]
})";
    std::vector<StructuredRecord> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseK8sEvents(data, out, issues));
    QCOMPARE(out.size(), size_t(2));
    QCOMPARE(out[0].text, std::string("k8s event type=Warning reason=Evicted object=pod/minecraftg-fdf76df5c-r4nkh node=gpu-node-7 "
                                      "message=The node was low on resource: memory. Container minecraft was using 1924152Ki, which exceeds its request of 0."));
    QCOMPARE(out[0].node, std::string("gpu-node-7"));
    QCOMPARE(nameOf(out[0].severity), nameOf(Severity::Warning));
    QCOMPARE(out[0].timeNs, civilToNs(2024, 5, 1, 10, 0, 4, 0));
    QCOMPARE(nameOf(out[0].basis), nameOf(TimeBasis::Absolute));
    QCOMPARE(out[0].line, 5u);
    QVERIFY(slice(data, out[0]).starts_with("{\n      \"apiVersion\": \"v1\", \"kind\": \"Event\""));
    QCOMPARE(out[1].text, std::string("k8s event type=Normal reason=NodeNotReady object=node/gpu-node-9 node=gpu-node-9 "
                                      "message=Node gpu-node-9 status is now: NodeNotReady second line"));
    QCOMPARE(out[1].timeNs, civilToNs(2024, 5, 1, 10, 1, 0, 500000000));
    QCOMPARE(nameOf(out[1].severity), nameOf(Severity::Info));
    QCOMPARE(issues.size(), size_t(1));
    QCOMPARE(issues[0].line, 22u);

    // a bare array of events
    out.clear();
    issues.clear();
    QVERIFY(parseK8sEvents(R"([{"involvedObject": {"kind": "Pod", "name": "p"}, "reason": "OOMKilling", "type": "Warning"}])", out, issues));
    QCOMPARE(out.size(), size_t(1));
    QCOMPARE(nameOf(out[0].basis), nameOf(TimeBasis::None));
    QVERIFY(!parseK8sEvents(R"({"kind": "PodList", "items": [{"metadata": {}}]})", out, issues));
    QVERIFY(!parseK8sEvents("not json", out, issues));
}

void StructuredTest::promQueryRange()
{
    const std::string data = R"({"status":"success","data":{"resultType":"matrix","result":[
{"metric":{"__name__":"DCGM_FI_DEV_GPU_TEMP","Hostname":"node02","gpu":"3","UUID":"GPU-x"},
 "values":[[1700000060,"85"],[1700000000,"80.5"],[1700000120,"NaN"]]},
{"metric":{"__name__":"DCGM_FI_DEV_GPU_TEMP","instance":"10.0.0.1:9400","gpu":"0"},
 "values":[[1700000000,"70"],["bad","1"],[1700000060,"oops"]]},
{"metric":{"__name__":"DCGM_FI_DEV_GPU_TEMP","Hostname":"node01","minor_number":"1"},
 "values":[[1700000000.5,"+Inf"]]},
{"nometric":true}
]}})";
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseMetrics(data, FileId(4), out, issues));
    QCOMPARE(out.size(), size_t(3));
    // sorted by (name, node, gpu)
    QCOMPARE(out[0].node, std::string("10.0.0.1"));
    QCOMPARE(out[0].gpu, 0);
    QCOMPARE(out[1].node, std::string("node01"));
    QCOMPARE(out[1].gpu, 1);
    QVERIFY(std::isinf(out[1].samples[0].value));
    QCOMPARE(out[1].samples[0].timeNs, 1700000000LL * kSec + 500000000LL);
    QCOMPARE(out[2].node, std::string("node02"));
    QCOMPARE(out[2].gpu, 3);
    QCOMPARE(out[2].file, FileId(4));
    QCOMPARE(out[2].labels.at("UUID"), std::string("GPU-x"));
    QCOMPARE(out[2].labels.count("__name__"), size_t(0));
    QCOMPARE(out[2].samples.size(), size_t(3));
    QCOMPARE(out[2].samples[0].value, 80.5); // sorted by time
    QCOMPARE(out[2].samples[0].timeNs, 1700000000LL * kSec);
    QCOMPARE(out[2].samples[1].value, 85.0);
    QVERIFY(std::isnan(out[2].samples[2].value));
    QCOMPARE(out[2].samples[0].line, 3u);
    QCOMPARE(std::string_view(data).substr(out[2].samples[0].offset, 18), std::string_view("[1700000000,\"80.5\"]").substr(0, 18));
    QCOMPARE(out[0].samples.size(), size_t(1));
    QCOMPARE(issues.size(), size_t(3)); // ["bad","1"], "oops", no metric
    QCOMPARE(issues[0].line, 5u);
    QCOMPARE(issues[2].line, 8u);
}

void StructuredTest::promQuery()
{
    const std::string data = R"({"status":"success","data":{"resultType":"vector","result":[
  {"metric":{"__name__":"up","node":"n1"},"value":[1700000000,"1"]},
  {"metric":{"__name__":"up","node":"n0"},"value":[1700000000,"zero"]}]}})";
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseMetrics(data, FileId(0), out, issues));
    QCOMPARE(out.size(), size_t(2));
    QCOMPARE(out[0].node, std::string("n0"));
    QVERIFY(out[0].samples.empty());
    QCOMPARE(out[1].node, std::string("n1"));
    QCOMPARE(out[1].samples.size(), size_t(1));
    QCOMPARE(out[1].samples[0].value, 1.0);
    QCOMPARE(out[1].samples[0].line, 2u);
    QCOMPARE(std::string_view(data).substr(out[1].samples[0].offset, 12), std::string_view("[1700000000,"));
    QCOMPARE(issues.size(), size_t(1));
    QCOMPARE(issues[0].line, 3u);
}

void StructuredTest::openMetricsText()
{
    const std::string data = "# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID error encountered.\n"
                             "# TYPE DCGM_FI_DEV_XID_ERRORS gauge\n"
                             "DCGM_FI_DEV_XID_ERRORS{gpu=\"1\",Hostname=\"node05\",UUID=\"GPU-a\"} 79 1700000060000\n"
                             "DCGM_FI_DEV_XID_ERRORS{gpu=\"1\",Hostname=\"node05\",UUID=\"GPU-a\"} 0 1700000000000\n"
                             "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",Hostname=\"node05\",msg=\"a \\\"quoted\\\" value\"} 66.5 1700000000.25\n"
                             "broken{gpu=\"0\" 1\n"
                             "nolabels 3\n"
                             "# EOF\n";
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseMetrics(data, FileId(2), out, issues));
    QCOMPARE(out.size(), size_t(3));
    QCOMPARE(out[0].name, std::string("DCGM_FI_DEV_GPU_TEMP"));
    QCOMPARE(out[0].labels.at("msg"), std::string("a \"quoted\" value"));
    QCOMPARE(out[0].samples[0].timeNs, 1700000000LL * kSec + 250000000LL);
    QCOMPARE(out[1].name, std::string("DCGM_FI_DEV_XID_ERRORS"));
    QCOMPARE(out[1].node, std::string("node05"));
    QCOMPARE(out[1].gpu, 1);
    QCOMPARE(out[1].samples.size(), size_t(2));
    QCOMPARE(out[1].samples[0].value, 0.0);
    QCOMPARE(out[1].samples[0].line, 4u);
    QCOMPARE(out[1].samples[1].value, 79.0);
    QCOMPARE(out[1].samples[1].timeNs, 1700000060LL * kSec);
    QCOMPARE(out[1].samples[1].offset, uint64_t(data.find("DCGM_FI_DEV_XID_ERRORS{")));
    QCOMPARE(out[2].name, std::string("nolabels"));
    QCOMPARE(out[2].samples[0].timeNs, kNoTime);
    QCOMPARE(issues.size(), size_t(1));
    QCOMPARE(issues[0].line, 6u);
}

void StructuredTest::csvMetrics()
{
    const std::string data = "time,node,gpu,metric,value\n"
                             "2024-07-23T07:53:55Z,node01,0,gpu_temp,81\n"
                             "1721721200,node01,0,gpu_temp,79.5\n"
                             "2024-07-23T07:54:55Z,node01,,power,300\n"
                             "yesterday,node01,0,gpu_temp,1\n"
                             "2024-07-23T07:55:55Z,node01,0,gpu_temp,hot\n"
                             "2024-07-23T07:55:55Z,node01,0\n";
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseMetrics(data, FileId(1), out, issues));
    QCOMPARE(out.size(), size_t(2));
    QCOMPARE(out[0].name, std::string("gpu_temp"));
    QCOMPARE(out[0].node, std::string("node01"));
    QCOMPARE(out[0].gpu, 0);
    QCOMPARE(out[0].samples.size(), size_t(2));
    QCOMPARE(out[0].samples[0].timeNs, 1721721200LL * kSec);
    QCOMPARE(out[0].samples[0].line, 3u);
    QCOMPARE(out[0].samples[1].timeNs, 1721721235LL * kSec);
    QCOMPARE(out[1].name, std::string("power"));
    QCOMPARE(out[1].gpu, -1);
    QCOMPARE(issues.size(), size_t(3));
    QCOMPARE(issues[0].line, 5u);
    QCOMPARE(issues[1].line, 6u);
    QCOMPARE(issues[2].line, 7u);
}

// Values take a short path for plain decimals ("[-]digits[.digits]", at most 15 digits); every value must be the
// double std::from_chars reads, bit for bit, and what from_chars refuses stays refused.
void StructuredTest::csvValuesAsFromChars()
{
    std::vector<std::string> values = {"0", "-0", "0.0", "-0.000", "81", "79.5", ".5", "-.5", "5.", "007.25",
                                       "123456789012345", "1234567890123456", "0.000000000000001", "9.99999999999999",
                                       "1e3", "-2.5E-3", "inf", "nan", "0x10", "1..2", "-", ".", "--1", "1-", "+7.5",
                                       " 42 ", "3.14159265358979", "0.1", "0.2", "0.3", "1.7976931348623157"};
    std::mt19937_64 rng(12345);
    for (int i = 0; i < 3000; ++i) { // random plain decimals of 1..17 digits with the point anywhere
        const int n = 1 + int(rng() % 17);
        std::string v = rng() % 4 == 0 ? "-" : "";
        const int point = int(rng() % size_t(n + 1));
        for (int d = 0; d < n; ++d) {
            if (d == point && d > 0)
                v += '.';
            v += char('0' + rng() % 10);
        }
        values.push_back(v);
    }
    std::string data = "time,metric,value\n";
    for (const auto& v : values)
        data += "1721721200,m," + v + "\n";
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseMetrics(data, FileId(1), out, issues));
    size_t sample = 0, issue = 0;
    for (size_t i = 0; i < values.size(); ++i) {
        std::string_view t = values[i];
        while (!t.empty() && t.front() == ' ')
            t.remove_prefix(1);
        while (!t.empty() && t.back() == ' ')
            t.remove_suffix(1);
        if (!t.empty() && t.front() == '+')
            t.remove_prefix(1);
        double expected = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), expected);
        const uint32_t line = uint32_t(i + 2);
        if (t.empty() || ec != std::errc() || end != t.data() + t.size()) {
            QVERIFY2(issue < issues.size() && issues[issue].line == line, values[i].c_str());
            ++issue;
            continue;
        }
        QVERIFY2(sample < out.at(0).samples.size(), values[i].c_str());
        const MetricSample& s = out[0].samples[sample++];
        QCOMPARE(s.line, line);
        QVERIFY2(std::memcmp(&s.value, &expected, sizeof expected) == 0 || (std::isnan(s.value) && std::isnan(expected)),
                 values[i].c_str());
    }
    QCOMPARE(sample, out[0].samples.size());
    QCOMPARE(issue, issues.size());
}

// Rows are split 16 bytes at a time: commas on and beside block edges, empty fields, padding columns, and rows
// of 33 and 40 fields (more than are kept) must split as a comma-by-comma search would.
// Rows are found in the same pass as their commas: every row must be the line TextLines reads, its trailing
// blanks and '\r' removed, blank ones counted and skipped, a last one without its newline kept. The reference
// here is linesOf plus a comma split, over generated texts of rows, blank lines, "\r\n" and stray blanks.
void StructuredTest::csvRowsAreTheTextLines()
{
    const std::vector<std::string> rows = {"1721721200,m,1", "1721721201,m,2.5", "1721721202,m, 3 ", "1721721203,m,x",
                                           "1721721204,,4", "1721721205,m,5,extra", "1721721206,m", "   ", "",
                                           "1721721207,m,7\t", "1721721208,m\r,8", "1721721209,averyveryverylongmetricname,9"};
    std::mt19937 rng(99);
    for (int round = 0; round < 400; ++round) {
        std::string data = "time,metric,value\n";
        const int count = int(rng() % 12);
        for (int r = 0; r < count; ++r) {
            data += rows[rng() % rows.size()];
            data += (rng() % 3 == 0) ? "\r\n" : "\n";
        }
        if (rng() % 2)
            data += rows[rng() % 3]; // a last row without its newline
        // The reference: each line as TextLines reads it, trimmed at its end, split at commas.
        std::vector<std::pair<uint32_t, double>> expected; // line, value
        std::vector<uint32_t> expectedIssues;
        bool header = false;
        for (const TextLine& line : linesOf(data)) {
            std::string_view t = line.text;
            while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r'))
                t.remove_suffix(1);
            if (t.empty())
                continue;
            if (!header) {
                header = true;
                continue;
            }
            std::vector<std::string_view> fields;
            for (size_t from = 0;;) {
                const size_t comma = t.find(',', from);
                fields.push_back(t.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from));
                if (comma == std::string_view::npos)
                    break;
                from = comma + 1;
            }
            std::string_view value = fields.size() == 3 ? fields[2] : std::string_view();
            while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
                value.remove_prefix(1);
            while (!value.empty() && (value.back() == ' ' || value.back() == '\t' || value.back() == '\r'))
                value.remove_suffix(1);
            double v = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
            std::string_view metric = fields.size() == 3 ? fields[1] : std::string_view();
            while (!metric.empty() && (metric.back() == ' ' || metric.back() == '\t' || metric.back() == '\r'))
                metric.remove_suffix(1);
            if (fields.size() != 3 || value.empty() || ec != std::errc() || end != value.data() + value.size() ||
                metric.empty())
                expectedIssues.push_back(line.number);
            else
                expected.emplace_back(line.number, v);
        }
        std::vector<MetricSeries> out;
        std::vector<ParseIssue> issues;
        QVERIFY(parseMetrics(data, FileId(1), out, issues));
        std::vector<std::pair<uint32_t, double>> got;
        for (const auto& m : out)
            for (const auto& smp : m.samples) {
                got.emplace_back(smp.line, smp.value);
                // the offset is where the row's line starts
                QVERIFY(smp.offset == 0 || data[smp.offset - 1] == '\n');
            }
        std::sort(got.begin(), got.end());
        std::vector<uint32_t> gotIssues;
        for (const auto& i : issues)
            gotIssues.push_back(i.line);
        const QByteArray where = QByteArray::fromStdString(data).toPercentEncoding(" ,.:");
        QVERIFY2(got == expected, where.constData());
        QVERIFY2(gotIssues == expectedIssues, where.constData());
    }
}

void StructuredTest::csvFieldsAcrossBlocks()
{
    std::string data = "time,pad_a,node,gpu,metric,value,pad_b\n";
    std::vector<std::string> pads;
    for (size_t len = 0; len < 40; ++len)
        pads.push_back(std::string(len, 'x'));
    // pad_a moves every later comma through all 16 positions of a block
    for (size_t i = 0; i < pads.size(); ++i)
        data += "1721721" + std::to_string(200 + i) + "," + pads[i] + ",node01," + std::to_string(i % 3) + ",m" +
                std::to_string(i % 2) + "," + std::to_string(i) + "," + pads[39 - i] + "\n";
    data += "1721721300,,node01,,m0,7,\n"; // empty fields, the last one at the end of the line
    std::string wide33 = "1721721301", wide40 = "1721721302";
    for (int i = 1; i < 33; ++i)
        wide33 += ",f";
    for (int i = 1; i < 40; ++i)
        wide40 += ",ff";
    data += wide33 + "\n" + wide40 + "\n";
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseMetrics(data, FileId(1), out, issues));
    size_t samples = 0;
    for (const auto& m : out) {
        QVERIFY(m.name == "m0" || m.name == "m1");
        QCOMPARE(m.node, std::string("node01"));
        for (const auto& smp : m.samples) {
            ++samples;
            const size_t row = smp.line - 2; // the row's index: its value and gpu say which it was
            if (row < pads.size()) {
                QCOMPARE(smp.value, double(row));
                QCOMPARE(m.gpu, int(row % 3));
                QCOMPARE(m.name, "m" + std::to_string(row % 2));
            } else {
                QCOMPARE(smp.value, 7.0);
                QCOMPARE(m.gpu, -1);
            }
        }
    }
    QCOMPARE(samples, pads.size() + 1);
    QCOMPARE(issues.size(), size_t(2));
    QCOMPARE(issues[0].message, std::string("CSV row has 33 fields, header has 7"));
    QCOMPARE(issues[1].message, std::string("CSV row has 40 fields, header has 7"));
}

// Rows usually cycle through the same series, and the parser guesses the next row's series from that; rows
// out of the cycle (a series skipped, repeated, new, or the order changed) must still land in their own series.
void StructuredTest::csvSeriesInAnyOrder()
{
    const char* order[] = {"a", "b", "c", "a", "b", "c", "a", "c", "b", "b", "d", "a", "a", "c", "d", "b", "a", "b"};
    std::string data = "time,node,gpu,metric,value\n";
    std::map<std::string, std::vector<double>> expected;
    int i = 0;
    for (const char* m : order) {
        const std::string gpu = std::string(m) == "c" ? "1" : "0";
        data += std::to_string(1721721200 + i) + ",node01," + gpu + ",m_" + m + "," + std::to_string(i) + "\n";
        expected[std::string("m_") + m].push_back(i);
        ++i;
    }
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseMetrics(data, FileId(1), out, issues));
    QVERIFY(issues.empty());
    QCOMPARE(out.size(), expected.size());
    for (const auto& m : out) {
        std::vector<double> got;
        for (const auto& smp : m.samples)
            got.push_back(smp.value);
        QCOMPARE(got, expected[m.name]);
        QCOMPARE(m.gpu, m.name == "m_c" ? 1 : 0);
    }
}

// What the CLI and the service keep (nothing) and the workbench keeps (samples)
// must count the same samples, times and issues: the result document takes the
// file's times and sample count from the tally.
void StructuredTest::metricsKeepModesAgree()
{
    const std::string csv = "time,node,gpu,metric,value\n"
                            "2024-07-23T07:53:55Z,node01,0,gpu_temp,81\n"
                            "1721721200,node01,0,gpu_temp,79.5\n"
                            "2024-07-23T07:54:55Z,node01,,power,300\n"
                            "yesterday,node01,0,gpu_temp,1\n"
                            "2024-07-23T07:55:55Z,node01,0,gpu_temp,hot\n";
    const std::string text = "DCGM_FI_DEV_XID_ERRORS{gpu=\"1\",Hostname=\"node05\"} 79 1700000060000\n"
                             "DCGM_FI_DEV_XID_ERRORS{gpu=\"1\",Hostname=\"node05\"} 0 1700000000000\n"
                             "untimed 3\n"
                             "broken{gpu=\"0\" 1\n";
    struct Expect {
        std::string data;
        int64_t first, last;
        uint64_t samples;
        size_t series, issues;
    };
    const Expect cases[] = {{csv, 1721721200LL * kSec, 1721721295LL * kSec, 3, 2, 2},
                            {text, 1700000000LL * kSec, 1700000060LL * kSec, 3, 2, 1}};
    for (const Expect& e : cases) {
        for (const MetricsKeep keep : {MetricsKeep::Samples, MetricsKeep::SeriesOnly, MetricsKeep::Nothing}) {
            std::vector<MetricSeries> out;
            std::vector<ParseIssue> issues;
            MetricsTally tally;
            QVERIFY(parseMetrics(e.data, FileId(1), keep, out, tally, issues));
            QCOMPARE(tally.samples, e.samples);
            QCOMPARE(tally.firstNs, e.first);
            QCOMPARE(tally.lastNs, e.last);
            QCOMPARE(issues.size(), e.issues);
            QCOMPARE(out.size(), keep == MetricsKeep::Nothing ? size_t(0) : e.series);
            size_t kept = 0;
            for (const auto& s : out)
                kept += s.samples.size();
            QCOMPARE(kept, keep == MetricsKeep::Samples ? size_t(e.samples) : size_t(0));
        }
    }
}

// Prometheus JSON of the plain shape is read straight from its text (parse/prom_json_scan.cpp); the same
// document with a member that text reader gives up on (an escaped string, placed after everything else so no
// offset or line moves) is read by the JSON library. Both readings must be the same, bad samples included.
void StructuredTest::promJsonReadStraightAsTheLibraryReadsIt()
{
    const std::string body = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[\n"
                             " {\"metric\":{\"__name__\":\"DCGM_FI_DEV_XID_ERRORS\",\"gpu\":\"1\",\"Hostname\":\"n1\",\"n\":5},\n"
                             "  \"values\":[[1700000000,\"0\"],\n   [1700000015.5, \"79\"] , [1700000030,13],[1,\"2\"],[1700000045,\"x\"],\n"
                             "   [1700000060,\"1\",3],\"no\",[1700000075,\"NaN\"],[1700000090,\"+Inf\"],[1700000105,true]]},\n"
                             " {\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"gpu\":\"0\",\"instance\":\"10.0.0.1:9400\"},\"value\":[1700000000,\"97.5\"]},\n"
                             " {\"metric\":{\"__name__\":\"DCGM_FI_DEV_GPU_UTIL\",\"gpu\":\"0\",\"instance\":\"10.0.0.1:9400\"},\"values\":[[1700000015,\"1e2\"]]},\n"
                             " {\"metric\":{},\"values\":[]},\n"
                             " {\"metric\":{\"__name__\":\"up\"},\"value\":[1700000000,-0.25e1]}\n"
                             "]}";
    const std::string plain = body + "}\n";
    const std::string forced = body + ",\"warnings\":[\"\\u0041\"]}\n";
    auto read = [](const std::string& data, std::vector<MetricSeries>& out, std::vector<ParseIssue>& issues, MetricsTally& tally) {
        return parseMetrics(data, FileId(3), MetricsKeep::Samples, out, tally, issues);
    };
    std::vector<MetricSeries> a, b;
    std::vector<ParseIssue> ia, ib;
    MetricsTally ta, tb;
    QVERIFY(read(plain, a, ia, ta));
    QVERIFY(read(forced, b, ib, tb));
    QCOMPARE(a.size(), size_t(4));
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(QString::fromStdString(a[i].name), QString::fromStdString(b[i].name));
        QCOMPARE(QString::fromStdString(a[i].node), QString::fromStdString(b[i].node));
        QCOMPARE(a[i].gpu, b[i].gpu);
        QVERIFY(a[i].labels == b[i].labels);
        QCOMPARE(a[i].samples.size(), b[i].samples.size());
        for (size_t k = 0; k < a[i].samples.size(); ++k) {
            const MetricSample &x = a[i].samples[k], &y = b[i].samples[k];
            QCOMPARE(x.timeNs, y.timeNs);
            QVERIFY((x.value == y.value) || (std::isnan(x.value) && std::isnan(y.value)));
            QCOMPARE(x.offset, y.offset);
            QCOMPARE(x.line, y.line);
        }
    }
    QCOMPARE(ia.size(), size_t(5)); // time 1, "x", three values, "no", true
    QCOMPARE(ia.size(), ib.size());
    for (size_t i = 0; i < ia.size(); ++i) {
        QCOMPARE(ia[i].line, ib[i].line);
        QCOMPARE(QString::fromStdString(ia[i].message), QString::fromStdString(ib[i].message));
    }
    QCOMPARE(ta.samples, tb.samples);
    QCOMPARE(ta.firstNs, tb.firstNs);
    QCOMPARE(ta.lastNs, tb.lastNs);
    // The GPU_UTIL pair at 15 s: its series' one sample from "value", one from "values", merged.
    const auto util = std::find_if(a.begin(), a.end(), [](const MetricSeries& s) { return s.name == "DCGM_FI_DEV_GPU_UTIL"; });
    QVERIFY(util != a.end());
    QCOMPARE(util->samples.size(), size_t(2));
    QCOMPARE(util->samples[1].value, 100.0);
    QCOMPARE(QString::fromStdString(util->node), QStringLiteral("10.0.0.1"));
}

// The series metric rules read keep their samples whatever the caller keeps; the others are counted only.
void StructuredTest::metricsJudgedNamesKeepTheirSamples()
{
    const std::string json = "{\"data\":{\"result\":[{\"metric\":{\"__name__\":\"a\"},\"values\":[[1700000000,\"1\"],[1700000015,\"2\"]]},"
                             "{\"metric\":{\"__name__\":\"b\"},\"values\":[[1700000000,\"3\"]]}]}}";
    const std::string text = "a 1 1700000000000\na 2 1700000015000\nb 3 1700000000000\n";
    const std::string csv = "time,node,gpu,metric,value\n1700000000,n,0,a,1\n1700000015,n,0,a,2\n1700000000,n,0,b,3\n";
    const MetricNames judged{"a"};
    for (const std::string* data : {&json, &text, &csv})
        for (const MetricsKeep keep : {MetricsKeep::Samples, MetricsKeep::SeriesOnly, MetricsKeep::Nothing}) {
            std::vector<MetricSeries> out;
            std::vector<ParseIssue> issues;
            MetricsTally tally;
            QVERIFY(parseMetrics(*data, FileId(1), keep, out, tally, issues, &judged));
            QVERIFY(issues.empty());
            QCOMPARE(tally.samples, uint64_t(3));
            QCOMPARE(out.size(), keep == MetricsKeep::Nothing ? size_t(1) : size_t(2));
            for (const auto& s : out)
                QCOMPARE(s.samples.size(), s.name == "a" ? size_t(2) : keep == MetricsKeep::Samples ? size_t(1) : size_t(0));
        }
}

// A metrics CSV of more rows than the parser holds before handing samples to
// their series (a block of 2^20): every sample still lands in its series, in
// time order, with its own line.
void StructuredTest::csvMetricsLargerThanABlock()
{
    const int rows = 1200000;
    std::string data = "time,node,gpu,metric,value\n";
    data.reserve(size_t(rows) * 24);
    for (int i = 0; i < rows; ++i)
        data += std::to_string(1700000000 + i / 2) + ",n1," + std::to_string(i % 2) + ",t," + std::to_string(i % 7) + "\n";
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(parseMetrics(data, FileId(0), out, issues));
    QVERIFY(issues.empty());
    QCOMPARE(out.size(), size_t(2));
    for (int g = 0; g < 2; ++g) {
        const auto& samples = out[size_t(g)].samples;
        QCOMPARE(out[size_t(g)].gpu, g);
        QCOMPARE(samples.size(), size_t(rows / 2));
        QCOMPARE(samples.front().line, uint32_t(2 + g));
        QCOMPARE(samples.back().line, uint32_t(rows + g));
        QCOMPARE(samples.back().timeNs, int64_t(1700000000 + rows / 2 - 1) * kSec);
        for (size_t k = 1; k < samples.size(); ++k)
            if (samples[k].line != samples[k - 1].line + 2)
                QFAIL(qPrintable(QString("gpu %1: sample %2 out of order").arg(g).arg(k)));
    }
}

void StructuredTest::notThisFormat()
{
    std::vector<MetricSeries> out;
    std::vector<ParseIssue> issues;
    QVERIFY(!parseMetrics("", FileId(0), out, issues));
    QVERIFY(!parseMetrics("[default3]:Traceback (most recent call last):\n", FileId(0), out, issues));
    QVERIFY(!parseMetrics(R"({"jobs": []})", FileId(0), out, issues));
    std::vector<StructuredRecord> recs;
    QVERIFY(!parseK8sEvents(R"({"jobs": []})", recs, issues));
    QVERIFY(out.empty() && recs.empty());
    // hostile JSON: truncated, deeply nested, NUL bytes
    const std::string hostile[] = {std::string("{\"data\":{\"result\":[{\"metric\":{}, \"values\":[[1,"),
                                   std::string(200000, '{'), std::string("{\"data\"\0:1}", 11),
                                   std::string("{\"items\":[") + std::string(50000, '[')};
    for (const auto& h : hostile) { // no crash, no hang: whether they read anything does not matter here
        (void)parseMetrics(h, FileId(0), out, issues);
        (void)parseK8sEvents(h, recs, issues);
        (void)parseSacctJson(h, recs, issues);
        (void)parseSacctPipe(h, recs, issues);
    }
}
