// A line wrapper that names only an address (Ray's "(raylet, ip=A)", "(pid=N, ip=A)") in a file that names no
// node: the bundle itself may say which host has that address (an /etc/hosts-shaped file, NCCL's "NET/IB : Using
// ...; OOB eth0:A<0>" line in that host's own log). Then the line is the host's; without such a word it stays on
// the address, and an address two sources give different hosts stays too, said in the warnings. Never a guess.
#include "engine/engine.h"
#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

using namespace fl;
namespace fs = std::filesystem;
using fltest::shippedOnly;
using fltest::statusOf;
using fltest::writeFile;

namespace {

// gpu-a17's own NCCL start-up line: its out-of-band address is 10.0.0.5.
const char* const kNcclAddressLine =
    "gpu-a17:88412:88412 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB eth0:10.0.0.5<0>\n";

// Ray's driver output (a file that names no node): the raylet of 10.0.0.5 reports workers its memory monitor
// killed; 10.0.0.6 is healthy. Analysed beside `others` (path -> content).
Analysis analyzeDriverLogWith(const std::vector<std::pair<std::string, std::string>>& others)
{
    QTemporaryDir tmp;
    const fs::path dir = tmp.path().toStdString();
    writeFile(dir / "driver.log",
              "(RayTrainWorker pid=4201, ip=10.0.0.6) [2026-11-30 12:14:40,100] step 1200 | loss 2.0941\n"
              "(RayTrainWorker pid=4202, ip=10.0.0.5) [2026-11-30 12:14:40,101] step 1200 | loss 2.0937\n"
              "(raylet, ip=10.0.0.5) [2026-11-30 12:14:55,311 E 4242 4300] (raylet) node_manager.cc:3069: 3 Workers "
              "(tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node "
              "(ID: 5ad7fa5d, IP: 10.0.0.5) over the last time period.\n");
    for (const auto& [path, content] : others)
        writeFile(dir / path, content);
    return analyze(dir.string(), shippedOnly());
}

QString rootNode(const Analysis& a)
{
    return a.result.rootCause ? QString::fromStdString(a.result.rootCause->node) : QString();
}

bool warns(const Analysis& a, const std::string& text)
{
    return std::any_of(a.result.warnings.begin(), a.result.warnings.end(),
                       [&](const std::string& w) { return w.find(text) != std::string::npos; });
}

} // namespace

class TestAddressHosts : public QObject {
    Q_OBJECT
private slots:
    void withoutAMapTheAddressStays();
    void aHostsFileNamesTheHost();
    void ncclAddressLineOfTheHostsOwnLogNamesIt();
    void twoHostsForOneAddressIsNoAnswer();
};

void TestAddressHosts::withoutAMapTheAddressStays()
{
    const Analysis a = analyzeDriverLogWith({});
    QCOMPARE(QString::fromStdString(statusOf(a.result)), QStringLiteral("attributed"));
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("host.ray_oom"));
    QCOMPARE(rootNode(a), QStringLiteral("10.0.0.5"));
}

void TestAddressHosts::aHostsFileNamesTheHost()
{
    const Analysis a = analyzeDriverLogWith(
        {{"hosts", "127.0.0.1 localhost\n10.0.0.5   gpu-b04.cluster.local gpu-b04\n10.0.0.6   gpu-b05\n"}});
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("host.ray_oom"));
    QCOMPARE(rootNode(a), QStringLiteral("gpu-b04"));
}

void TestAddressHosts::ncclAddressLineOfTheHostsOwnLogNamesIt()
{
    const Analysis a = analyzeDriverLogWith({{"gpu-a17/train.log", kNcclAddressLine}});
    QCOMPARE(QString::fromStdString(a.result.rootCause->symptom), QStringLiteral("host.ray_oom"));
    QCOMPARE(rootNode(a), QStringLiteral("gpu-a17"));
}

void TestAddressHosts::twoHostsForOneAddressIsNoAnswer()
{
    const Analysis a = analyzeDriverLogWith({{"hosts", "10.0.0.5   gpu-b04\n"}, {"gpu-a17/train.log", kNcclAddressLine}});
    QCOMPARE(rootNode(a), QStringLiteral("10.0.0.5"));
    QVERIFY(warns(a, "address 10.0.0.5 is "));
}

QTEST_GUILESS_MAIN(TestAddressHosts)
#include "test_address_hosts.moc"
