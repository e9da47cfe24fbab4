// Readers of cluster tools' text (issue #41 item 6). Fixtures are built from the upstream
// printers: kubectl describe.go (two-space levels through a tabwriter), printers.go's pod
// table, Slurm's info_job.c / node_info.c, DCGM's Diag.cpp stencil, nvidia-smi's -q layout.
#include "parse/lineparse.h"
#include "parse/structured.h"
#include "test_parse.h"

#include <string>

using namespace fl;

namespace {

std::vector<std::string> texts(const std::vector<StructuredRecord>& recs, std::string_view prefix)
{
    std::vector<std::string> out;
    for (const auto& r : recs)
        if (std::string_view(r.text).substr(0, prefix.size()) == prefix)
            out.push_back(r.text);
    return out;
}

const StructuredRecord* find(const std::vector<StructuredRecord>& recs, std::string_view needle)
{
    for (const auto& r : recs)
        if (r.text.find(needle) != std::string::npos)
            return &r;
    return nullptr;
}

const char* kPodsWide =
    "NAME               READY   STATUS             RESTARTS      AGE   IP            NODE      NOMINATED NODE   READINESS GATES\n"
    "trainer-worker-0   1/1     Running            0             41m   10.244.1.12   gpu-b04   <none>           <none>\n"
    "trainer-worker-1   0/1     OOMKilled          2 (3m ago)    41m   10.244.2.7    gpu-a17   <none>           <none>\n"
    "trainer-worker-2   0/1     CrashLoopBackOff   5 (40s ago)   41m   10.244.3.9    gpu-c02   <none>           <none>\n"
    "trainer-worker-3   0/1     Evicted            0             41m   <none>        gpu-d01   <none>           <none>\n";

const char* kDescribePod =
    "Name:             trainer-worker-1\n"
    "Namespace:        ml\n"
    "Priority:         0\n"
    "Service Account:  default\n"
    "Node:             gpu-a17/10.0.0.17\n"
    "Start Time:       Mon, 30 Nov 2026 11:33:02 +0000\n"
    "Labels:           job-name=trainer\n"
    "Annotations:      <none>\n"
    "Status:           Running\n"
    "IP:               10.244.2.7\n"
    "Containers:\n"
    "  trainer:\n"
    "    Container ID:  containerd://4f1c\n"
    "    Image:         nvcr.io/nvidia/pytorch:24.05-py3\n"
    "    State:          Running\n"
    "      Started:      Mon, 30 Nov 2026 12:15:40 +0000\n"
    "    Last State:     Terminated\n"
    "      Reason:       OOMKilled\n"
    "      Exit Code:    137\n"
    "      Started:      Mon, 30 Nov 2026 11:33:05 +0000\n"
    "      Finished:     Mon, 30 Nov 2026 12:14:55 +0000\n"
    "    Ready:          True\n"
    "    Restart Count:  2\n"
    "Conditions:\n"
    "  Type              Status\n"
    "  Initialized       True \n"
    "  Ready             True \n"
    "QoS Class:                   Burstable\n"
    "Events:\n"
    "  Type     Reason     Age                From     Message\n"
    "  ----     ------     ----               ----     -------\n"
    "  Warning  BackOff    2m (x4 over 3m)    kubelet  Back-off restarting failed container trainer in pod trainer-worker-1_ml(6f1a22c4)\n";

const char* kDescribeEvicted =
    "Name:           trainer-worker-3\n"
    "Namespace:      ml\n"
    "Node:           gpu-d01/10.0.0.31\n"
    "Status:         Failed\n"
    "Reason:         Evicted\n"
    "Message:        The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 2Gi. \n"
    "IP:             \n"
    "Containers:\n"
    "  trainer:\n"
    "    Image:      nvcr.io/nvidia/pytorch:24.05-py3\n"
    "    State:      Terminated\n"
    "      Reason:   Error\n"
    "      Exit Code:  1\n"
    "      Started:  Mon, 30 Nov 2026 11:33:05 +0000\n"
    "      Finished: Mon, 30 Nov 2026 12:14:55 +0000\n";

const char* kDescribeNode =
    "Name:               gpu-a17\n"
    "Roles:              <none>\n"
    "Labels:             nvidia.com/gpu.present=true\n"
    "CreationTimestamp:  Tue, 01 Sep 2026 08:00:00 +0000\n"
    "Taints:             node.kubernetes.io/unreachable:NoExecute\n"
    "Unschedulable:      false\n"
    "Conditions:\n"
    "  Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n"
    "  ----             ------    -----------------                 ------------------                ------                       -------\n"
    "  MemoryPressure   Unknown   Mon, 30 Nov 2026 12:13:02 +0000   Mon, 30 Nov 2026 12:14:10 +0000   NodeStatusUnknown            Kubelet stopped posting node status.\n"
    "  DiskPressure     False     Mon, 30 Nov 2026 12:13:02 +0000   Tue, 01 Sep 2026 08:00:00 +0000   KubeletHasNoDiskPressure     kubelet has no disk pressure\n"
    "  Ready            Unknown   Mon, 30 Nov 2026 12:13:02 +0000   Mon, 30 Nov 2026 12:14:10 +0000   NodeStatusUnknown            Kubelet stopped posting node status.\n"
    "Addresses:\n"
    "  InternalIP:  10.0.0.17\n";

const char* kScontrolJob =
    "JobId=4412871 JobName=train\n"
    "   UserId=alice(1000) GroupId=alice(1000) MCS_label=N/A\n"
    "   Priority=4294901759 Nice=0 Account=ml QOS=normal\n"
    "   JobState=NODE_FAIL Reason=NodeDown FailedNode=gpu-a17 Dependency=(null)\n"
    "   Requeue=0 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n"
    "   RunTime=01:14:03 TimeLimit=04:00:00 TimeMin=N/A\n"
    "   StartTime=2026-11-30T11:01:00 EndTime=2026-11-30T12:15:03 Deadline=N/A\n"
    "   NodeList=gpu-[a17,b04]\n"
    "   BatchHost=gpu-b04\n"
    "\n"
    "NodeName=gpu-a17 Arch=x86_64 CoresPerSocket=48\n"
    "   CPUAlloc=0 CPUEfctv=192 CPUTot=192 CPULoad=0.00\n"
    "   OS=Linux 5.15.0-1045-nvidia #45-Ubuntu SMP\n"
    "   State=DOWN+DRAIN+NOT_RESPONDING ThreadsPerCore=2 TmpDisk=0 Weight=1\n"
    "   Reason=Not responding [slurm@2026-11-30T12:15:40]\n";

const char* kSmiQ =
    "\n==============NVSMI LOG==============\n\n"
    "Timestamp                                 : Mon Nov 30 12:20:41 2026\n"
    "Driver Version                            : 550.127.05\n"
    "Attached GPUs                             : 2\n"
    "GPU 00000000:18:00.0\n"
    "    Product Name                          : NVIDIA H100 80GB HBM3\n"
    "    Minor Number                          : 0\n"
    "    ECC Errors\n"
    "        Volatile\n"
    "            SRAM Uncorrectable            : 0\n"
    "            DRAM Uncorrectable            : 0\n"
    "    Remapped Rows\n"
    "        Pending                           : No\n"
    "        Remapping Failure Occurred        : No\n"
    "GPU 00000000:91:00.0\n"
    "    Product Name                          : NVIDIA H100 80GB HBM3\n"
    "    Minor Number                          : 3\n"
    "    ECC Errors\n"
    "        Volatile\n"
    "            SRAM Uncorrectable            : 0\n"
    "            DRAM Uncorrectable            : 2\n"
    "        Aggregate\n"
    "            DRAM Uncorrectable            : 6\n"
    "    Retired Pages\n"
    "        Single Bit ECC                    : N/A\n"
    "        Double Bit ECC                    : N/A\n"
    "        Pending Page Blacklist            : N/A\n"
    "    Remapped Rows\n"
    "        Correctable Error                 : 0\n"
    "        Uncorrectable Error               : 2\n"
    "        Pending                           : Yes\n"
    "        Remapping Failure Occurred        : No\n"
    "        Bank Remap Availability Histogram\n"
    "            Max                           : 639 bank(s)\n"
    "    GPU Recovery Action                   : None\n";

// DCGM 4's layout (Diag.cpp DIAG_HEADER, DIAG_DATA, entity rows, "Warning: GPU0" rows of 45 characters)
const char* kDcgmi =
    "Successfully ran diagnostic for group.\n"
    "+---------------------------+------------------------------------------------+\n"
    "| Diagnostic                | Result                                         |\n"
    "+===========================+================================================+\n"
    "|-----  Metadata  ----------+------------------------------------------------|\n"
    "| DCGM Version              | 4.1.1                                          |\n"
    "| Driver Version Detected   | 550.127.05                                     |\n"
    "|-----  Deployment  --------+------------------------------------------------|\n"
    "| software                  | Pass                                           |\n"
    "|                           | GPU0: Pass                                     |\n"
    "+-----  Hardware  ----------+------------------------------------------------+\n"
    "| memory                    | Fail                                           |\n"
    "|                           | GPU0: Pass                                     |\n"
    "|                           | GPU3: Fail                                     |\n"
    "| Warning: GPU3             | A DBE has occurred since the last time the GP  |\n"
    "|                           | U was reset. Reset the GPU.                    |\n"
    "+-----  Integration  -------+------------------------------------------------+\n"
    "| pcie                      | Pass                                           |\n"
    "+---------------------------+------------------------------------------------+\n";

} // namespace

void ClusterTextTest::kubectlPodsWide()
{
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    QVERIFY(parseKubectlText(kPodsWide, recs, issues));
    const auto pods = texts(recs, "k8s pod");
    QCOMPARE(int(pods.size()), 4);
    const StructuredRecord* oom = find(recs, "pod=trainer-worker-1");
    QVERIFY(oom);
    QCOMPARE(QString::fromStdString(oom->text), QStringLiteral("k8s pod pod=trainer-worker-1 status=OOMKilled restarts=2 node=gpu-a17"));
    QCOMPARE(QString::fromStdString(oom->node), QStringLiteral("gpu-a17"));
    QCOMPARE(int(oom->line), 3);
    QVERIFY(find(recs, "status=CrashLoopBackOff restarts=5 node=gpu-c02"));
}

// Rows pasted without the header line: read when every cell has its column's shape (printPod's NAME
// READY STATUS RESTARTS AGE, -A's NAMESPACE first, -o wide's four cells after AGE); a line that only
// looks like a table is not a row.
void ClusterTextTest::kubectlPodRowsWithoutHeader()
{
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    QVERIFY(parseKubectlText("trainer-0   0/1   OOMKilled   3   5m\n", recs, issues));
    QCOMPARE(int(texts(recs, "k8s pod").size()), 1);
    QCOMPARE(QString::fromStdString(recs[0].text), QStringLiteral("k8s pod pod=trainer-0 status=OOMKilled restarts=3"));
    recs.clear();
    QVERIFY(parseKubectlText("trainer-worker-1   0/1     Error     2 (47s ago)   1h10m   10.244.1.7   gpu-a17   <none>   <none>\n"
                             "ml   trainer-worker-2   0/1   CrashLoopBackOff   7   20m\n",
                             recs, issues));
    const StructuredRecord* wide = find(recs, "pod=trainer-worker-1");
    QVERIFY(wide);
    QCOMPARE(QString::fromStdString(wide->text), QStringLiteral("k8s pod pod=trainer-worker-1 status=Error restarts=2 node=gpu-a17"));
    QCOMPARE(QString::fromStdString(wide->node), QStringLiteral("gpu-a17"));
    QVERIFY(find(recs, "k8s pod pod=trainer-worker-2 status=CrashLoopBackOff restarts=7"));
    // relayed by pdsh: the same row
    recs.clear();
    QVERIFY(parseKubectlText("node-a: trainer-0   0/1   OOMKilled   3   5m\n", recs, issues));
    QVERIFY(find(recs, "k8s pod pod=trainer-0 status=OOMKilled restarts=3"));
    for (const char* notRow : {"Loaded 1/1 shards in 3 steps 5m\n", "trainer-0 0/1 OOMKilled 3 five-minutes\n",
                               "Trainer-0   0/1   OOMKilled   3   5m\n", "trainer-0   0/1   OOMKilled   3   5m   extra\n",
                               "[rank0]: trainer-0   0/1   OOMKilled   3   5m\n"}) {
        recs.clear();
        QVERIFY2(!parseKubectlText(notRow, recs, issues), notRow);
    }
}

void ClusterTextTest::kubectlDescribePod()
{
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    QVERIFY(parseKubectlText(kDescribePod, recs, issues));
    const StructuredRecord* last = find(recs, "container=trainer");
    QVERIFY(last);
    QCOMPARE(QString::fromStdString(last->text),
             QStringLiteral("k8s pod pod=trainer-worker-1 container=trainer state=Terminated reason=OOMKilled exit=137 last=yes node=gpu-a17"));
    QCOMPARE(QString::fromStdString(last->node), QStringLiteral("gpu-a17"));
    QCOMPARE(int(last->line), 17);     // "Last State:"
    QCOMPARE(int(last->lineCount), 5); // through "Finished:"
    QCOMPARE(nameOf(last->basis), QStringLiteral("absolute"));
    // the Events table is passed on as text, for the line rules
    QVERIFY(find(recs, "  Warning  BackOff    2m (x4 over 3m)"));

    recs.clear();
    QVERIFY(parseKubectlText(kDescribeEvicted, recs, issues));
    const StructuredRecord* ev = find(recs, "reason=Evicted");
    QVERIFY(ev);
    QCOMPARE(QString::fromStdString(ev->text),
             QStringLiteral("k8s pod pod=trainer-worker-3 phase=Failed reason=Evicted node=gpu-d01 message=The node was low on "
                            "resource: ephemeral-storage. Threshold quantity: 10Gi, available: 2Gi."));
    QCOMPARE(int(ev->lineCount), 2);
    QVERIFY(find(recs, "container=trainer state=Terminated reason=Error exit=1 last=no node=gpu-d01"));
}

void ClusterTextTest::kubectlDescribeNode()
{
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    QVERIFY(parseKubectlText(kDescribeNode, recs, issues));
    const StructuredRecord* ready = find(recs, "condition=Ready");
    QVERIFY(ready);
    QCOMPARE(QString::fromStdString(ready->text),
             QStringLiteral("k8s node node=gpu-a17 condition=Ready status=Unknown reason=NodeStatusUnknown message=Kubelet stopped posting node status."));
    QCOMPARE(QString::fromStdString(ready->node), QStringLiteral("gpu-a17"));
    QCOMPARE(ready->timeNs, civilToNs(2026, 11, 30, 12, 14, 10, 0));
    QVERIFY(find(recs, "condition=DiskPressure status=False"));
}

void ClusterTextTest::k8sObjectsJson()
{
    const std::string pods = R"({"apiVersion": "v1", "kind": "List", "items": [
      {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer-worker-1", "namespace": "ml"},
       "spec": {"nodeName": "gpu-a17"},
       "status": {"phase": "Running", "containerStatuses": [{"name": "trainer", "restartCount": 2,
          "state": {"running": {"startedAt": "2026-11-30T12:15:40Z"}},
          "lastState": {"terminated": {"exitCode": 137, "reason": "OOMKilled", "startedAt": "2026-11-30T11:33:05Z", "finishedAt": "2026-11-30T12:14:55Z"}}}]}},
      {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "trainer-worker-3"}, "spec": {"nodeName": "gpu-d01"},
       "status": {"phase": "Failed", "reason": "Evicted", "message": "The node was low on resource: memory. "}}]})";
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    QVERIFY(parseK8sObjects(pods, recs, issues));
    QCOMPARE(int(recs.size()), 2);
    QCOMPARE(QString::fromStdString(recs[0].text),
             QStringLiteral("k8s pod pod=trainer-worker-1 container=trainer state=Terminated reason=OOMKilled exit=137 last=yes node=gpu-a17"));
    QCOMPARE(recs[0].timeNs, civilToNs(2026, 11, 30, 12, 14, 55, 0));
    QCOMPARE(QString::fromStdString(recs[1].node), QStringLiteral("gpu-d01"));
    QVERIFY(recs[1].text.find("phase=Failed reason=Evicted") != std::string::npos);
    QVERIFY(!parseK8sObjects(R"({"kind": "List", "items": [{"kind": "Deployment"}]})", recs, issues));
    QVERIFY(!parseK8sObjects(R"({"jobs": []})", recs, issues));
}

void ClusterTextTest::scontrolShow()
{
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    QVERIFY(parseScontrolShow(kScontrolJob, recs, issues));
    const auto all = texts(recs, "scontrol");
    QCOMPARE(int(all.size()), 2);
    QCOMPARE(QString::fromStdString(all[0]),
             QStringLiteral("scontrol job=4412871 state=NODE_FAIL reason=NodeDown exit=0:0 nodes=gpu-[a17,b04] failed_node=gpu-a17"));
    QCOMPARE(QString::fromStdString(recs[0].node), QStringLiteral("gpu-a17"));
    QCOMPARE(int(recs[0].lineCount), 9);
    QCOMPARE(QString::fromStdString(all[1]), QStringLiteral("scontrol node=gpu-a17 state=DOWN+DRAIN+NOT_RESPONDING reason=Not responding"));
    const StructuredRecord* node = find(recs, "scontrol node=");
    QCOMPARE(node->timeNs, civilToNs(2026, 11, 30, 12, 15, 40, 0));
    // one-liner (-o)
    recs.clear();
    QVERIFY(parseScontrolShow("NodeName=gpu-b04 Arch=x86_64 State=IDLE+DRAIN Reason=Kill task failed [root@2026-11-30T12:20:03] Comment=(null)\n", recs, issues));
    QCOMPARE(QString::fromStdString(recs.at(0).text), QStringLiteral("scontrol node=gpu-b04 state=IDLE+DRAIN reason=Kill task failed"));
    // slurmctld's log names JobId= inside its lines: not scontrol output
    recs.clear();
    QVERIFY(!parseScontrolShow("[2026-11-30T12:00:00.312] Time limit exhausted for JobId=4412871\n", recs, issues));
}

void ClusterTextTest::nvidiaSmiQuery()
{
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    QVERIFY(parseNvidiaSmiQuery(kSmiQ, recs, issues));
    QVERIFY(find(recs, "nvidia-smi -q pci=00000000:91:00.0 minor=3 ECC Errors/Volatile/DRAM Uncorrectable : 2"));
    QVERIFY(find(recs, "nvidia-smi -q pci=00000000:91:00.0 minor=3 Remapped Rows/Pending : Yes"));
    QVERIFY(find(recs, "nvidia-smi -q pci=00000000:18:00.0 minor=0 Remapped Rows/Remapping Failure Occurred : No"));
    QVERIFY(find(recs, "pci=00000000:91:00.0 minor=3 GPU Recovery Action : None"));
    for (const auto& t : texts(recs, "nvidia-smi -q"))
        QVERIFY(t.find("Histogram") == std::string::npos);
    QVERIFY(find(recs, "Product Name")); // passed on as text
    QVERIFY(!parseNvidiaSmiQuery("|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |\n", recs, issues));
}

void ClusterTextTest::dcgmiDiag()
{
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    QVERIFY(parseDcgmiDiag(kDcgmi, recs, issues));
    const auto diag = texts(recs, "dcgmi diag");
    QCOMPARE(int(diag.size()), 1);
    QCOMPARE(QString::fromStdString(diag[0]),
             QStringLiteral("dcgmi diag test=memory gpu=3 result=Fail message=A DBE has occurred since the last time the GPU was reset. Reset the GPU."));
    // DCGM 3's "Fail - GPU: 0, 1"
    recs.clear();
    QVERIFY(parseDcgmiDiag("| Diagnostic                | Result                                         |\n"
                           "| Memory                    | Fail - GPU: 0, 1                               |\n"
                           "| Warning                   | GPU 0 Memory bandwidth too low                 |\n"
                           "| PCIe                      | Pass - All                                     |\n", recs, issues));
    const auto v3 = texts(recs, "dcgmi diag");
    QCOMPARE(int(v3.size()), 2);
    QCOMPARE(QString::fromStdString(v3[1]), QStringLiteral("dcgmi diag test=Memory gpu=1 result=Fail message=GPU 0 Memory bandwidth too low"));
}

void ClusterTextTest::notThese()
{
    std::vector<StructuredRecord> recs;
    std::vector<ParseIssue> issues;
    const char* logs[] = {"[2026-11-30T12:15:40.118] error: Nodes gpu-a17 not responding, setting DOWN\n",
                          "LAST SEEN   TYPE      REASON    OBJECT             MESSAGE\n3m          Normal    NodeNotReady   node/gpu-a17   Node gpu-a17 status is now: NodeNotReady\n",
                          "Name: a value in a log line\nand more\n"};
    for (const char* l : logs) {
        QVERIFY(!parseKubectlText(l, recs, issues));
        QVERIFY(!parseScontrolShow(l, recs, issues));
        QVERIFY(!parseDcgmiDiag(l, recs, issues));
        QVERIFY(!parseNvidiaSmiQuery(l, recs, issues));
    }
    QVERIFY(recs.empty());
    // every prefix of every fixture (a file cut off anywhere) reads without a crash or a stray record
    for (const char* f : {kPodsWide, kDescribePod, kDescribeEvicted, kDescribeNode, kScontrolJob, kSmiQ, kDcgmi}) {
        const std::string_view all(f);
        for (size_t n = 0; n <= all.size(); n += 7) {
            std::vector<StructuredRecord> r;
            (void)parseKubectlText(all.substr(0, n), r, issues);
            (void)parseScontrolShow(all.substr(0, n), r, issues);
            (void)parseNvidiaSmiQuery(all.substr(0, n), r, issues);
            (void)parseDcgmiDiag(all.substr(0, n), r, issues);
            for (const auto& x : r)
                QVERIFY(x.offset + x.length <= n);
        }
    }
}
