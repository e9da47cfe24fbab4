// Cluster tools' output as evidence (issue #41 item 6): a `kubectl get pods -o wide` table places a
// pod's OOMKilled on its node, `kubectl describe node` dates a NotReady by its LastTransitionTime,
// `nvidia-smi -q` names the GPU whose repair is pending. The files carry neutral names: their kind
// comes from what they hold.
#include "engine/engine.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::statusOf;
using fltest::writeFile;

class TestClusterTextEvidence : public QObject {
    Q_OBJECT
private slots:
    void podTablePlacesTheOomOnItsNode();
    void describeNodeNotReady();
    void smiQueryNamesTheGpu();
    void eventTableWithEveryColumn();
};

void TestClusterTextEvidence::podTablePlacesTheOomOnItsNode()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "pods.txt",
              "NAME               READY   STATUS      RESTARTS     AGE   IP            NODE      NOMINATED NODE   READINESS GATES\n"
              "trainer-worker-0   1/1     Running     0            41m   10.244.1.12   gpu-b04   <none>           <none>\n"
              "trainer-worker-1   0/1     OOMKilled   2 (3m ago)   41m   10.244.2.7    gpu-a17   <none>           <none>\n");
    const Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("scheduler.k8s_oomkilled"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-a17"));
}

void TestClusterTextEvidence::describeNodeNotReady()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "node-state.txt",
              "Name:               gpu-a17\n"
              "Roles:              <none>\n"
              "Unschedulable:      false\n"
              "Conditions:\n"
              "  Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n"
              "  ----             ------    -----------------                 ------------------                ------                       -------\n"
              "  MemoryPressure   False     Mon, 30 Nov 2026 12:13:02 +0000   Tue, 01 Sep 2026 08:00:00 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available\n"
              "  Ready            Unknown   Mon, 30 Nov 2026 12:13:02 +0000   Mon, 30 Nov 2026 12:14:10 +0000   NodeStatusUnknown            Kubelet stopped posting node status.\n"
              "Addresses:\n"
              "  InternalIP:  10.0.0.17\n");
    const Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("scheduler.k8s.NodeNotReady"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-a17"));
}

void TestClusterTextEvidence::smiQueryNamesTheGpu()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "gpu-a17" / "gpu-state.txt",
              "\n==============NVSMI LOG==============\n\n"
              "Driver Version                            : 550.127.05\n"
              "Attached GPUs                             : 2\n"
              "GPU 00000000:18:00.0\n"
              "    Minor Number                          : 0\n"
              "    Remapped Rows\n"
              "        Pending                           : No\n"
              "GPU 00000000:91:00.0\n"
              "    Minor Number                          : 3\n"
              "    Remapped Rows\n"
              "        Uncorrectable Error               : 2\n"
              "        Pending                           : Yes\n"
              "        Remapping Failure Occurred        : No\n");
    const Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("gpu.smi_pending_repair"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->pciBus), QStringLiteral("0000:91:00"));
}

// `kubectl get events -A -o wide` (NAMESPACE first, SUBOBJECT and SOURCE before MESSAGE, FIRST SEEN COUNT NAME
// after it): the same event as the plain table or the JSON list, on the node its source names. The extra
// columns left the row unread before.
void TestClusterTextEvidence::eventTableWithEveryColumn()
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "file-03.log",
              "NAMESPACE   LAST SEEN   TYPE      REASON       OBJECT              SUBOBJECT   SOURCE                   MESSAGE                                                                     FIRST SEEN   COUNT   NAME\n"
              "ml          41m         Normal    Scheduled    pod/trainer-0                   default-scheduler        Successfully assigned ml/trainer-0 to gpu-a17                               41m          1       trainer-0.17f1a\n"
              "default     3m          Warning   OOMKilling   node/gpu-a17                    kernel-monitor, gpu-a17  Memory cgroup out of memory: Killed process 4242 (python3) total-vm:12kB   3m           1       gpu-a17.17f1b\n");
    const Analysis a = analyze(dir.string(), shippedOnly());
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("scheduler.k8s.OOMKilling"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->node), QStringLiteral("gpu-a17"));
}

QTEST_GUILESS_MAIN(TestClusterTextEvidence)
#include "test_cluster_text_evidence.moc"
