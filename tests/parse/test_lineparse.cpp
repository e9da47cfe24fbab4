// Prefix recognition on real line shapes (domain-facts.md, incidents/), hostile bytes and time inference.
#include "test_parse.h"

#include "bundle/bundle.h"
#include "bundle/iso_time.h"
#include "bundle/sniff.h"
#include "bundle/wrappers.h"
#include "parse/lineparse.h"
#include "parse/prefix_shapes.h"
#include "text_find.h"

#include <QTest>

#include <cstdint>
#include <ctime>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace fl;

namespace {

constexpr int64_t kSec = 1000000000LL;

int64_t utc(int y, int mo, int d, int h, int mi, int s, int64_t ns = 0) { return civilToNs(y, mo, d, h, mi, s, ns); }

struct Expect {
    int64_t time = kNoTime;
    TimeBasis basis = TimeBasis::None;
    double boot = -1;
    const char* host = "";
    int rank = -1;
    int device = -1;
    int severity = -1; // -1: none
    const char* message = "";
};

void row(const char* name, const std::string& line, const TimeContext& ctx, const Expect& e)
{
    QTest::newRow(name) << QByteArray::fromStdString(line) << ctx.defaultYear << qint64(ctx.bootTimeNs)
                        << ctx.tzOffsetSec << qint64(e.time) << int(e.basis) << e.boot << QString::fromUtf8(e.host)
                        << e.rank << e.device << e.severity << QByteArray(e.message);
}

TimeContext year(int y, int64_t boot = kNoTime, int tz = 0)
{
    TimeContext c;
    c.defaultYear = y;
    c.bootTimeNs = boot;
    c.tzOffsetSec = tz;
    return c;
}

constexpr int kInfo = int(Severity::Info), kWarn = int(Severity::Warning), kErr = int(Severity::Error);

} // namespace

void LineParseTest::prefixes_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("defaultYear");
    QTest::addColumn<qint64>("bootTime");
    QTest::addColumn<int>("tz");
    QTest::addColumn<qint64>("time");
    QTest::addColumn<int>("basis");
    QTest::addColumn<double>("boot");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("rank");
    QTest::addColumn<int>("device");
    QTest::addColumn<int>("severity");
    QTest::addColumn<QByteArray>("message");

    const std::string xid63 = "NVRM: Xid (PCI:0000:10:1c): 63, pid=1850, Row Remapper: New row marked for remapping, reset gpu to activate";
    row("syslog+dmesg (case16)", "May 19 07:08:57 ip-26-0-146-100 kernel: [680111.646286] " + xid63, year(2023),
        {utc(2023, 5, 19, 7, 8, 57), TimeBasis::AssumedYear, 680111.646286, "ip-26-0-146-100", -1, -1, -1, "NVRM: Xid (PCI:0000:10:1c): 63"});
    row("xid alert wrapper (case16)",
        "Xid errors on instance: ip-26-0-146-100, Error: May 19 07:08:57 ip-26-0-146-100 kernel: [680111.646286] " + xid63,
        year(2023), {utc(2023, 5, 19, 7, 8, 57), TimeBasis::AssumedYear, 680111.646286, "ip-26-0-146-100", -1, -1, -1, "NVRM: Xid"});
    row("syslog padded day, dmesg inside", "Mar  2 15:59:56 node01 kernel: [123.4] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.",
        year(2023), {utc(2023, 3, 2, 15, 59, 56), TimeBasis::AssumedYear, 123.4, "node01", -1, -1, -1, "NVRM: Xid (PCI:0000:01:00): 79"});
    row("syslog unknown year", "Mar  2 15:59:56 node01 slurmd[1234]: error: x", year(0),
        {utc(1970, 3, 2, 15, 59, 56), TimeBasis::AssumedYear, -1, "node01", -1, -1, -1, "error: x"});
    row("syslog with zone offset", "Jul 23 07:53:55 gpu3 nvidia-fabricmanager[841]: detected NVSwitch fatal error 20034",
        year(2024, kNoTime, 7200), {utc(2024, 7, 23, 5, 53, 55), TimeBasis::AssumedYear, -1, "gpu3", -1, -1, -1, "detected NVSwitch"});
    row("dmesg no boot time (case27)", "[6781741.548779] NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.",
        year(2024), {6781741548779000LL, TimeBasis::BootRelative, 6781741.548779, "", -1, -1, -1, "NVRM: Xid (PCI:0000:91:00): 79"});
    row("dmesg with boot time", "[  100.250000] nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 20034, Fatal, Link 48 LTSSM Fault Up",
        year(2024, utc(2024, 1, 1, 0, 0, 0)), {utc(2024, 1, 1, 0, 1, 40, 250000000), TimeBasis::BootOffset, 100.25, "", -1, -1, -1, "nvidia-nvswitch1: SXid"});
    row("dmesg -T (case18)", "[Thu Mar  2 15:59:56 2023] INFO: task epilog.sh:76609 blocked for more than 120 seconds.", year(0),
        {utc(2023, 3, 2, 15, 59, 56), TimeBasis::AssumedUtc, -1, "", -1, -1, -1, "INFO: task epilog.sh:76609"});
    row("rfc3339 with zone", "2024-07-23T07:53:55.123456+00:00 node7 kernel: NVRM: Xid (PCI:0000:cb:00): 13, pid=1", year(0),
        {utc(2024, 7, 23, 7, 53, 55, 123456000), TimeBasis::Absolute, -1, "node7", -1, -1, -1, "NVRM: Xid (PCI:0000:cb:00): 13"});
    row("iso with +02:00", "2024-07-23T09:53:55+02:00 node7 kernel: x", year(0),
        {utc(2024, 7, 23, 7, 53, 55), TimeBasis::Absolute, -1, "node7", -1, -1, -1, "x"});
    row("journalctl short-iso", "2024-07-23T07:53:55+0000 gpu-node-3 nvidia-fabricmanager[841]: detected NVSwitch fatal error 20034", year(0),
        {utc(2024, 7, 23, 7, 53, 55), TimeBasis::Absolute, -1, "gpu-node-3", -1, -1, -1, "detected NVSwitch fatal"});
    row("iso no zone, tz applies", "2024-07-23T07:53:55 gpu1 kernel: y", year(0, kNoTime, 3600),
        {utc(2024, 7, 23, 6, 53, 55), TimeBasis::AssumedUtc, -1, "gpu1", -1, -1, -1, "y"});
    row("rfc5424", "<34>1 2003-10-11T22:14:15.003Z mymachine.example.com su - ID47 - 'su root' failed for lonvick on /dev/pts/8",
        year(0), {utc(2003, 10, 11, 22, 14, 15, 3000000), TimeBasis::Absolute, -1, "mymachine.example.com", -1, -1, -1, "'su root' failed"});
    row("fabric manager", "[Jul 23 2024 07:53:55] [ERROR] [tid 841] detected NVSwitch fatal error 20034 on fid 0 on NVSwitch pci bus id 00000000:86:00.0 physical id 3 port 33",
        year(0), {utc(2024, 7, 23, 7, 53, 55), TimeBasis::AssumedUtc, -1, "", -1, -1, kErr, "detected NVSwitch fatal error 20034"});
    row("fabric manager info", "[Feb 25 2025 14:01:18] [INFO] [tid 1808] multicast group 0 is allocated.", year(0),
        {utc(2025, 2, 25, 14, 1, 18), TimeBasis::AssumedUtc, -1, "", -1, -1, kInfo, "multicast group 0"});
    row("pytorch 2.2 watchdog", "[rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.",
        year(2025), {utc(2025, 3, 21, 2, 7, 8, 408271257), TimeBasis::AssumedYear, -1, "", 0, -1, kErr, "[Rank 0] Watchdog caught"});
    row("torchrun tee + rank + glog", "[default0]:[rank12]:[E817 10:11:12.000123 ProcessGroupNCCL.cpp:1537] [PG 0 (default_pg) Rank 12] Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered",
        year(2024), {utc(2024, 8, 17, 10, 11, 12, 123000), TimeBasis::AssumedYear, -1, "", 12, -1, kErr, "[PG 0 (default_pg) Rank 12] Process group"});
    row("srun label + rank + glog", "0: [rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout",
        year(2025), {utc(2025, 3, 21, 2, 7, 8, 408271257), TimeBasis::AssumedYear, -1, "", 0, -1, kErr, "[Rank 0] Watchdog"});
    row("srun label only", "3: RuntimeError: CUDA error: an illegal memory access was encountered", year(0),
        {kNoTime, TimeBasis::None, -1, "", 3, -1, -1, "RuntimeError: CUDA error"});
    row("default label is local rank (case05)", "[default3]:terminate called after throwing an instance of 'c10::CUDAError'", year(0),
        {kNoTime, TimeBasis::None, -1, "", 3, -1, -1, "terminate called after throwing"});
    row("default label + message rank", "[default3]:[E ProcessGroupNCCL.cpp:737] [Rank 11] Watchdog caught collective operation timeout", year(0),
        {kNoTime, TimeBasis::None, -1, "", 11, -1, kErr, "[Rank 11] Watchdog"});
    row("default label, spaced message (case06)", "[default7]: iteration   42780/ 115311 | consumed samples:    71455664", year(0),
        {kNoTime, TimeBasis::None, -1, "", 7, -1, -1, "iteration   42780"});
    row("old glog without time", "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000)", year(0),
        {kNoTime, TimeBasis::None, -1, "", 1, -1, kErr, "[Rank 1] Watchdog caught"});
    row("c10d warning", "[W socket.cpp:663] [c10d] The client socket has failed to connect to [::ffff:255.255.0.0]:29500 (errno: 110 - Connection timed out).", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, kWarn, "[c10d] The client socket"});
    row("PG rank in message only", "[PG ID 1 PG GUID 1 Rank 3]  failure detected by watchdog at work sequence id: 55485", year(0),
        {kNoTime, TimeBasis::None, -1, "", 3, -1, -1, "[PG ID 1 PG GUID 1 Rank 3]"});
    row("glog unbracketed", "E1021 10:00:00.123456 12345 socket.cc:12] connection reset", year(2023),
        {utc(2023, 10, 21, 10, 0, 0, 123456000), TimeBasis::AssumedYear, -1, "", -1, -1, kErr, "connection reset"});
    // Every glog severity letter opens the prefix, unbracketed and bracketed (parseLine only asks a reader
    // whose first byte can stand where the prefix starts).
    row("glog unbracketed fatal", "F1021 10:00:00.123456 12345 socket.cc:12] check failed", year(2023),
        {utc(2023, 10, 21, 10, 0, 0, 123456000), TimeBasis::AssumedYear, -1, "", -1, -1, int(Severity::Fatal), "check failed"});
    row("glog unbracketed info", "I1021 10:00:00.5 1 x.cc:1] hello", year(2023),
        {utc(2023, 10, 21, 10, 0, 0, 500000000), TimeBasis::AssumedYear, -1, "", -1, -1, kInfo, "hello"});
    row("glog unbracketed warning", "W1021 10:00:01 1 x.cc:1] careful", year(2023),
        {utc(2023, 10, 21, 10, 0, 1), TimeBasis::AssumedYear, -1, "", -1, -1, kWarn, "careful"});
    row("glog bracketed fatal", "[F1021 10:00:00.123456 12345 socket.cc:12] check failed", year(2023),
        {utc(2023, 10, 21, 10, 0, 0, 123456000), TimeBasis::AssumedYear, -1, "", -1, -1, int(Severity::Fatal), "check failed"});
    row("nccl warn (case08)", "node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 10.2.0.5<33092> with error 12, opcode 0, len", year(0),
        {kNoTime, TimeBasis::None, -1, "node-2", -1, 0, kWarn, "transport/net_ib.cc:1296 NCCL WARN"});
    row("nccl info chain (case08)", "node-2:5776:5902 [0] NCCL INFO proxy.cc:679 -> 6", year(0),
        {kNoTime, TimeBasis::None, -1, "node-2", -1, 0, kInfo, "NCCL INFO proxy.cc:679 -> 6"});
    row("nccl warn (case09)", "r11i6n2:486514:486651 [1] include/socket.h:403 NCCL WARN Connect to 10.148.3.247<56821> failed : Connection refused", year(0),
        {kNoTime, TimeBasis::None, -1, "r11i6n2", -1, 1, kWarn, "include/socket.h:403"});
    row("torchrun + nccl", "[default5]:gpu17:1234:1300 [5] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer", year(0),
        {kNoTime, TimeBasis::None, -1, "gpu17", 5, 5, kWarn, "misc/socket.cc:49"});
    row("python logging comma", "2023-03-06 03:17:51,123 - INFO - starting step 7", year(0),
        {utc(2023, 3, 6, 3, 17, 51, 123000000), TimeBasis::AssumedUtc, -1, "", -1, -1, kInfo, "starting step 7"});
    row("python logging dot", "2023-03-06 03:17:51.123 - ERROR - boom", year(0),
        {utc(2023, 3, 6, 3, 17, 51, 123000000), TimeBasis::AssumedUtc, -1, "", -1, -1, kErr, "boom"});
    row("python level after time", "2023-03-06 03:17:51,123 WARNING low disk", year(0),
        {utc(2023, 3, 6, 3, 17, 51, 123000000), TimeBasis::AssumedUtc, -1, "", -1, -1, kWarn, "low disk"});
    row("deepspeed (case04)", "[2021-08-12 08:19:28,225] [INFO] [checkpointing.py:226:model_parallel_cuda_manual_seed] > initializing model parallel cuda seeds on global rank 0",
        year(0), {utc(2021, 8, 12, 8, 19, 28, 225000000), TimeBasis::AssumedUtc, -1, "", -1, -1, kInfo, "[checkpointing.py:226"});
    row("slurm daemon", "[2023-03-06T03:17:51.123] error: Nodes node03 not responding, setting DOWN", year(0),
        {utc(2023, 3, 6, 3, 17, 51, 123000000), TimeBasis::AssumedUtc, -1, "", -1, -1, -1, "error: Nodes node03"});
    row("python basicConfig", "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 29066) of binary: /bin/python", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, kErr, "torch.distributed.elastic"});
    row("epoch column", "1700000000.123 node01 gpu_temp 81", year(0),
        {1700000000123000000LL, TimeBasis::Absolute, -1, "", -1, -1, -1, "node01 gpu_temp"});
    row("integer is not an epoch", "1700000000 things happened", year(0), {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "1700000000 things"});
    row("plain (case19)", "srun: error: Node failure on jean-zay-iam37", year(2023), {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "srun: error"});
    row("slurmstepd iso mid-line", "slurmstepd: error: *** STEP 1943824.0 ON jean-zay-iam17 CANCELLED AT 2023-03-06T03:17:51 DUE TO NODE FAILURE", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "slurmstepd:"});
    row("megatron (case15)", " iteration     7000/  159576 | consumed samples:       260912", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "iteration     7000"});
    row("logfmt level (case27)", "level=error msg=\"StartContainer for \\\"76866e1c\\\" failed\" error=\"failed to create containerd task\"", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, kErr, "level=error msg="});
    row("crlf", "2024-07-23T07:53:55Z node7 kernel: x\r", year(0),
        {utc(2024, 7, 23, 7, 53, 55), TimeBasis::Absolute, -1, "node7", -1, -1, -1, "x\r"});

    // ---- Wrappers and formats real bundles carry (issue #8 item 5), each from its upstream source.
    // kubectl logs --timestamps: RFC 3339 with nanoseconds before every line
    // (kubernetes/kubectl logs.go "--timestamps"; kubelet writes RFC3339Nano).
    const std::string watchdog3 = "[rank3]:[E314 10:00:41.338000 88412 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective operation timeout";
    row("kubectl --timestamps + c10 watchdog", "2026-03-14T10:00:41.338871123Z " + watchdog3, year(0),
        {utc(2026, 3, 14, 10, 0, 41, 338871123), TimeBasis::Absolute, -1, "", 3, -1, kErr, "[Rank 3] Watchdog"});
    row("kubectl --timestamps + NCCL", "2026-03-14T10:00:41.338871123Z gpu-a17:88412:88602 [3] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.10.3.14<36752> with status=12",
        year(0), {utc(2026, 3, 14, 10, 0, 41, 338871123), TimeBasis::Absolute, -1, "gpu-a17", -1, 3, kWarn, "transport/net_ib.cc:1909"});
    row("kubectl --timestamps + torchrun label", "2026-03-14T10:00:41.338871123Z [default3]:terminate called after throwing an instance of 'c10::Error'",
        year(0), {utc(2026, 3, 14, 10, 0, 41, 338871123), TimeBasis::Absolute, -1, "", 3, -1, -1, "terminate called"});
    // CRI log files (/var/log/pods/.../0.log, what `kubectl logs` reads): "<RFC3339Nano> <stream> <P|F> <text>"
    // (kubernetes/kubernetes pkg/kubelet/kuberuntime/logs/logs.go, parseCRILog).
    row("CRI log line, full", "2026-03-14T10:00:41.338871123Z stderr F [default3]:terminate called after throwing", year(0),
        {utc(2026, 3, 14, 10, 0, 41, 338871123), TimeBasis::Absolute, -1, "", 3, -1, -1, "terminate called"});
    row("CRI log line, partial + NCCL", "2026-03-14T10:00:41.338871123Z stdout P gpu-a17:88412:88602 [3] NCCL INFO Channel 00/32 :    0   1",
        year(0), {utc(2026, 3, 14, 10, 0, 41, 338871123), TimeBasis::Absolute, -1, "gpu-a17", -1, 3, kInfo, "NCCL INFO Channel"});
    // journalctl -o json: one object per line; __REALTIME_TIMESTAMP is usec since the epoch (UTC) as a
    // decimal string, MESSAGE the text, _HOSTNAME the host, PRIORITY the syslog level
    // (systemd.journal-fields(7); https://systemd.io/JOURNAL_EXPORT_FORMATS/).
    row("journald JSON export", R"({"__CURSOR":"s=6ad9f8c1;i=1a2b;b=1d2e;m=cfa2;t=64d7;x=9c1","__REALTIME_TIMESTAMP":"1773482441338871","__MONOTONIC_TIMESTAMP":"883201445102","_BOOT_ID":"1d2e","PRIORITY":"4","_TRANSPORT":"kernel","SYSLOG_IDENTIFIER":"kernel","MESSAGE":"NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.","_HOSTNAME":"gpu-a17"})",
        year(0), {utc(2026, 3, 14, 10, 0, 41, 338871000), TimeBasis::Absolute, -1, "gpu-a17", -1, -1, kWarn, "NVRM: Xid (PCI:0000:ab:00): 79"});
    row("journald JSON, hostname first, priority 3", R"({"_HOSTNAME":"gpu-b04","PRIORITY":"3","MESSAGE":"mlx5_core 0000:0c:00.0: mlx5_cmd_out_err:838: ACCESS_REG(0x805) op_mod(0x1) failed","__REALTIME_TIMESTAMP":"1773482441000000"})",
        year(0), {utc(2026, 3, 14, 10, 0, 41), TimeBasis::Absolute, -1, "gpu-b04", -1, -1, kErr, "mlx5_core 0000:0c:00.0"});
    // NCCL >= 2.26 prefixes WARN lines with NCCL_DEBUG_TIMESTAMP_FORMAT, default "[%F %T] " in local time
    // (NVIDIA/nccl docs/env: NCCL_DEBUG_TIMESTAMP_FORMAT, NCCL_DEBUG_TIMESTAMP_LEVELS).
    row("NCCL timestamp prefix", "[2025-11-30 12:02:58] gpu-a03:61722:61760 [4] transport/net_ib.cc:199 NCCL WARN NET/IB : mlx5_0:1 Got async error event: port error",
        year(0), {utc(2025, 11, 30, 12, 2, 58), TimeBasis::AssumedUtc, -1, "gpu-a03", -1, 4, kWarn, "transport/net_ib.cc:199"});
    row("NCCL timestamp prefix with fraction", "[2025-11-30 12:02:58.123456] gpu-a03:61722:61760 [4] NCCL INFO Init COMPLETE",
        year(0), {utc(2025, 11, 30, 12, 2, 58, 123456000), TimeBasis::AssumedUtc, -1, "gpu-a03", -1, 4, kInfo, "NCCL INFO Init"});
    // util-linux dmesg: -T "[%a %b %e %H:%M:%S %Y] ", --reltime/-H "[%b%e %H:%M] " at each new minute then
    // "[  %+8.06f] " deltas, -d "[%5ld.%06ld <%12.06f>] ", --time-format iso (sys-utils/dmesg.c print_record).
    row("dmesg -H minute line", "[Dec 3 10:01] NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.",
        year(2026), {utc(2026, 12, 3, 10, 1, 0), TimeBasis::AssumedYear, -1, "", -1, -1, -1, "NVRM: Xid"});
    row("dmesg -H minute line, two-digit day", "[Dec13 10:01] mlx5_core 0000:0c:00.0: Port module event: module 0, Cable unplugged",
        year(2026), {utc(2026, 12, 13, 10, 1, 0), TimeBasis::AssumedYear, -1, "", -1, -1, -1, "mlx5_core"});
    row("dmesg -H delta", "[  +0.000123] NVRM: GPU 0000:ab:00.0: GPU has fallen off the bus.", year(2026),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "NVRM: GPU"});
    row("dmesg -H delta >= 10 s", "[ +12.000123] nvidia-nvswitch1: SXid (PCI:0000:06:00.0): 20034, Fatal, Link 48 LTSSM Fault Up",
        year(2026), {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "nvidia-nvswitch1"});
    row("dmesg -d", "[  123.456789 <    0.000123>] NVRM: Xid (PCI:0000:ab:00): 48, pid=1, name=python3", year(2026),
        {123456789000LL, TimeBasis::BootRelative, 123.456789, "", -1, -1, -1, "NVRM: Xid"});
    row("dmesg -T -d", "[Thu Dec  3 10:01:02 2026 <    0.000123>] NVRM: Xid (PCI:0000:ab:00): 48, pid=1", year(0),
        {utc(2026, 12, 3, 10, 1, 2), TimeBasis::AssumedUtc, -1, "", -1, -1, -1, "NVRM: Xid"});
    // dmesg -x / --decode: "%-6s:%-6s: " facility and level before the time (sys-utils/dmesg.c print_record).
    row("dmesg --decode", "kern  :err   : [  123.456789] NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.",
        year(2026), {123456789000LL, TimeBasis::BootRelative, 123.456789, "", -1, -1, kErr, "NVRM: Xid"});
    row("dmesg --decode -T", "kern  :warn  : [Thu Dec  3 10:01:02 2026] mlx5_core 0000:0c:00.0: Port module event: module 0, Cable unplugged",
        year(0), {utc(2026, 12, 3, 10, 1, 2), TimeBasis::AssumedUtc, -1, "", -1, -1, kWarn, "mlx5_core"});
    row("dmesg --decode, eight-letter facility", "authpriv:notice: [    5.000000] audit: type=1100 audit(1701597662.123:5): pid=1",
        year(2026), {5000000000LL, TimeBasis::BootRelative, 5.0, "", -1, -1, kInfo, "audit: type"});
    row("a message that only looks like a decode prefix", "user: dbg: [  1.000000] x", year(2026),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "user: dbg:"});
    row("dmesg --time-format iso", "2026-12-03T10:01:02,123456+00:00 NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>'", year(0),
        {utc(2026, 12, 3, 10, 1, 2, 123456000), TimeBasis::Absolute, -1, "", -1, -1, -1, "NVRM: Xid"});
    // journalctl -o short-precise / short-iso-precise (journalctl(1) --output).
    row("journalctl short-precise", "Dec 03 10:01:02.123456 gpu-a17 kernel: NVRM: Xid (PCI:0000:ab:00): 79", year(2026),
        {utc(2026, 12, 3, 10, 1, 2, 123456000), TimeBasis::AssumedYear, -1, "gpu-a17", -1, -1, -1, "NVRM: Xid"});
    row("journalctl short-iso-precise", "2026-12-03T10:01:02.123456+0000 gpu-a17 kernel: NVRM: Xid (PCI:0000:ab:00): 79", year(0),
        {utc(2026, 12, 3, 10, 1, 2, 123456000), TimeBasis::Absolute, -1, "gpu-a17", -1, -1, -1, "NVRM: Xid"});
    // A kernel line that a forwarder wrote without the "kernel:" tag: host, then the uptime.
    row("kernel line without kernel: tag", "Dec  3 10:01:02 gpu-a17 [883201.445102] NVRM: Xid (PCI:0000:ab:00): 79, pid='<unknown>'", year(2026),
        {utc(2026, 12, 3, 10, 1, 2), TimeBasis::AssumedYear, 883201.445102, "gpu-a17", -1, -1, -1, "NVRM: Xid"});
    // Pasted logs with redactions: parse what remains, a redacted host is no host.
    row("redacted syslog host", "Dec  3 10:01:02 <hostname> kernel: [883201.445102] NVRM: Xid (PCI:...): 79, pid='<unknown>'", year(2026),
        {utc(2026, 12, 3, 10, 1, 2), TimeBasis::AssumedYear, 883201.445102, "", -1, -1, -1, "NVRM: Xid"});
    row("[REDACTED] syslog host", "Dec  3 10:01:02 [REDACTED] kernel: NVRM: Xid (PCI:0000:ab:00): 79", year(2026),
        {utc(2026, 12, 3, 10, 1, 2), TimeBasis::AssumedYear, -1, "", -1, -1, -1, "NVRM: Xid"});
    row("redacted NCCL host", "<hostname>:88412:88602 [3] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer <ip><36752> with status=12",
        year(0), {kNoTime, TimeBasis::None, -1, "", -1, 3, kWarn, "transport/net_ib.cc:1909"});
    row("[REDACTED] NCCL host", "[REDACTED]:88412:88602 [3] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer [REDACTED]<48192>",
        year(0), {kNoTime, TimeBasis::None, -1, "", -1, 3, kWarn, "misc/socket.cc:50"});
    // nvidia-smi prints no prefixes: the whole line is the message.
    row("nvidia-smi no handle", "Unable to determine the device handle for GPU0000:91:00.0: Unknown Error", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "Unable to determine"});
    // mpirun --tag-output: "[jobid,rank]<stdout>:" before each line
    // (open-mpi/ompi@v4.1.6:orte/mca/iof/base/iof_base_output.c, orte_iof_base_write_output).
    row("mpirun --tag-output + NCCL", "[1,3]<stdout>:gpu-a17:88412:88602 [3] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.10.3.14<36752> with status=12",
        year(0), {kNoTime, TimeBasis::None, -1, "gpu-a17", 3, 3, kWarn, "transport/net_ib.cc:1909"});
    row("mpirun --tag-output stderr", "[1,12]<stderr>:RuntimeError: CUDA error: an illegal memory access was encountered", year(0),
        {kNoTime, TimeBasis::None, -1, "", 12, -1, -1, "RuntimeError: CUDA error"});
    row("mpirun --tag-output + glog watchdog", "[1,3]<stderr>:" + watchdog3, year(2026),
        {utc(2026, 3, 14, 10, 0, 41, 338000000), TimeBasis::AssumedYear, -1, "", 3, -1, kErr, "[Rank 3] Watchdog"});
    // Ray worker output forwarded to the driver: "(<actor> pid=N, ip=A)" (ray-project/ray
    // python/ray/_private/log_monitor.py, worker.py print_worker_logs); the ip names the worker's node.
    row("Ray (pid, ip) + c10 watchdog", "(RayTrainWorker pid=4242, ip=10.0.0.5) " + watchdog3, year(2026),
        {utc(2026, 3, 14, 10, 0, 41, 338000000), TimeBasis::AssumedYear, -1, "10.0.0.5", 3, -1, kErr, "[Rank 3] Watchdog"});
    row("Ray (pid) only", "(pid=4242) RuntimeError: CUDA error: unspecified launch failure", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "RuntimeError: CUDA error"});
    row("Ray coloured prefix + NCCL", "\x1b[36m(RayTrainWorker pid=4242, ip=10.0.0.5)\x1b[0m gpu-a17:4242:4300 [3] misc/socket.cc:50 NCCL WARN socketProgress: Connection closed by remote peer",
        year(0), {kNoTime, TimeBasis::None, -1, "gpu-a17", -1, 3, kWarn, "misc/socket.cc:50"});
    // srun --label + NCCL line (the task label, then NCCL's own prefix).
    row("srun label + NCCL", "12: gpu-a17:88412:88602 [4] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:10.10.3.14<0>", year(0),
        {kNoTime, TimeBasis::None, -1, "gpu-a17", 12, 4, kInfo, "NCCL INFO NET/IB"});
    // torchrun --tee + NCCL's timestamp prefix inside the label.
    row("torchrun label + NCCL timestamp prefix", "[default3]:[2025-11-30 12:02:58] gpu-a03:61722:61760 [3] transport/net_ib.cc:199 NCCL WARN NET/IB : mlx5_0:1 Got async error event: port error",
        year(0), {utc(2025, 11, 30, 12, 2, 58), TimeBasis::AssumedUtc, -1, "gpu-a03", 3, 3, kWarn, "transport/net_ib.cc:199"});
    // nvidia-smi -q: indented "Field : value" lines, no time; the message is the line without its indent.
    row("nvidia-smi -q GPU header", "GPU 00000000:91:00.0", year(0), {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "GPU 00000000:91:00.0"});
    row("nvidia-smi -q field", "        Remapping Failure Occurred        : Yes", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "Remapping Failure Occurred        : Yes"});
    row("nvidia-smi -q timestamp field", "Timestamp                                 : Thu Dec  3 10:01:02 2026", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "Timestamp"});
    row("nvidia-smi no devices", "No devices were found", year(0), {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "No devices were found"});
    row("nvidia-smi ERR! row", "| N/A   ERR!  P0             ERR! / 700W |  81002MiB /  81559MiB |   ERR!      Default |", year(0),
        {kNoTime, TimeBasis::None, -1, "", -1, -1, -1, "| N/A   ERR!"});
}

void LineParseTest::prefixes()
{
    QFETCH(QByteArray, line);
    QFETCH(int, defaultYear);
    QFETCH(qint64, bootTime);
    QFETCH(int, tz);
    QFETCH(qint64, time);
    QFETCH(int, basis);
    QFETCH(double, boot);
    QFETCH(QString, host);
    QFETCH(int, rank);
    QFETCH(int, device);
    QFETCH(int, severity);
    QFETCH(QByteArray, message);

    TimeContext ctx;
    ctx.defaultYear = defaultYear;
    ctx.bootTimeNs = bootTime;
    ctx.tzOffsetSec = tz;
    const std::string_view sv(line.constData(), size_t(line.size()));
    const LineInfo li = parseLine(sv, SourceKind::Unknown, ctx);
    QCOMPARE(nameOf(li.basis), nameOf(TimeBasis(basis)));
    QCOMPARE(qint64(li.timeNs), time);
    if (boot < 0)
        QCOMPARE(li.bootSeconds, -1.0);
    else
        QVERIFY2(std::abs(li.bootSeconds - boot) < 1e-6, qPrintable(QString::number(li.bootSeconds, 'f', 6)));
    QCOMPARE(QString::fromUtf8(li.host.data(), qsizetype(li.host.size())), host);
    QCOMPARE(li.rank, rank);
    QCOMPARE(li.device, device);
    QCOMPARE(li.severity ? int(*li.severity) : -1, severity);
    QVERIFY(li.messageStart <= sv.size());
    const QByteArray rest = line.mid(qsizetype(li.messageStart));
    QVERIFY2(rest.startsWith(message), rest.left(80).constData());
}

// Every row of parseLine's prefix-shape table (core/parse/lineparse.cpp) reads its own sample lines and gives
// the instant and message start written beside each: the table's rows cannot drift from what they claim.
void LineParseTest::shapeSamples()
{
    const auto shapes = prefixShapes();
    QVERIFY(shapes.size() >= 19);
    TimeContext ctx;
    ctx.defaultYear = 2024;
    for (size_t i = 0; i < shapes.size(); ++i) {
        const auto& shape = shapes[i];
        const QByteArray name = QByteArray(shape.name.data(), qsizetype(shape.name.size()));
        QVERIFY2(!shape.samples.empty(), name + ": no sample line");
        for (const auto& sample : shape.samples) {
            const QByteArray where = name + ": '" + QByteArray(sample.line.data(), qsizetype(sample.line.size())) + "'";
            const LineInfo li = parseLine(sample.line, SourceKind::Unknown, ctx);
            QVERIFY2(shapesReading(sample.line, ctx) & (1u << i), where + " is not read by its shape");
            const std::optional<int64_t> want =
                sample.instant.empty() ? std::optional<int64_t>(kNoTime) : parseIso8601Ns(sample.instant);
            QVERIFY2(want, where + ": the sample's instant is not ISO 8601");
            QVERIFY2(li.timeNs == *want, where + ": instant " + QByteArray::number(qint64(li.timeNs)) + ", expected "
                                            + QByteArray(sample.instant.data(), qsizetype(sample.instant.size())));
            const std::string_view message = sample.line.substr(std::min(li.messageStart, sample.line.size()));
            QVERIFY2(message.starts_with(sample.message),
                     where + ": message starts '" + QByteArray(message.data(), qsizetype(message.size())) + "'");
        }
    }
}

void LineParseTest::impossibleDates_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("syslog day 32") << QByteArray("May 32 07:08:57 host kernel: x");
    QTest::newRow("syslog hour 25") << QByteArray("May 12 25:08:57 host kernel: x");
    QTest::newRow("iso month 13") << QByteArray("2024-13-01T00:00:00Z host kernel: x");
    QTest::newRow("iso Feb 30") << QByteArray("2024-02-30 10:00:00,000 - INFO - x");
    QTest::newRow("iso Feb 29 non-leap") << QByteArray("2023-02-29T10:00:00Z x");
    QTest::newRow("iso minute 61") << QByteArray("2024-01-01T10:61:00Z x");
    QTest::newRow("year 1985") << QByteArray("1985-01-01T00:00:00Z x");
    QTest::newRow("year 2201") << QByteArray("2201-01-01T00:00:00Z x");
    QTest::newRow("year 0000") << QByteArray("0000-01-01T00:00:00Z x");
    QTest::newRow("dmesg -T hour 25") << QByteArray("[Thu Mar  2 25:59:56 2023] x");
    QTest::newRow("dmesg -T year 1970") << QByteArray("[Thu Jan  1 00:00:00 1970] x");
    QTest::newRow("fm minute 61") << QByteArray("[Jul 23 2024 07:61:55] [ERROR] x");
    QTest::newRow("glog month 13") << QByteArray("[E1321 10:00:00.1 x.cc:1] y");
    QTest::newRow("glog day 0") << QByteArray("[E1000 10:00:00.1 x.cc:1] y");
    QTest::newRow("slurm day 32") << QByteArray("[2023-03-32T03:17:51.123] error: x");
    QTest::newRow("epoch before 2000") << QByteArray("0900000000.5 x");
    QTest::newRow("zone +25:00") << QByteArray("2024-01-01T10:00:00+25:00 x");
}

void LineParseTest::impossibleDates()
{
    QFETCH(QByteArray, line);
    const LineInfo li = parseLine(std::string_view(line.constData(), size_t(line.size())), SourceKind::SysLog, year(2024));
    // "+25:00" is not a zone: the line is then read as zone-less, which is still a time
    if (line.contains("+25:00")) {
        QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::AssumedUtc));
        return;
    }
    QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::None));
    QCOMPARE(li.timeNs, kNoTime);
}

void LineParseTest::hostileBytes()
{
    // NUL bytes, invalid UTF-8 and truncated prefixes: never a crash, never past the line.
    const std::string cases[] = {
        std::string("\0\0\0", 3),
        std::string("[rank\xff]:\xc3\x28 NCCL WARN"),
        std::string("[default3]:\0[E1021 10:00", 24),
        std::string("May 19 07:08:57 \xff\xfe kernel: x"),
        std::string("[6781741.548779"),
        std::string("["),
        std::string("[Thu Mar  2 15:59:56 202"),
        std::string("2024-07-23T07:53:55.1234567890123456789012345678901234567890Z host k: x"),
        std::string("node-2:5776:5902 [0"),
        std::string("<999999>1 "),
        std::string("<34>1 2003-10-11T22:14:15.003Z h a p m [sd x=\"\\\"]\"] msg"),
        std::string("99999999999999999999: x"),
        std::string("[rank99999999999999999]: x"),
        std::string(":::: [] ]]] [[[ \xe2\x82"),
    };
    for (const auto& c : cases) {
        for (size_t cut = 0; cut <= c.size(); ++cut) {
            const std::string_view sv(c.data(), cut);
            const LineInfo li = parseLine(sv, SourceKind::AppLog, year(2024));
            QVERIFY(li.messageStart <= sv.size());
            if (!li.host.empty())
                QVERIFY(li.host.data() >= sv.data() && li.host.data() + li.host.size() <= sv.data() + sv.size());
        }
    }
    // Deterministic pseudo-random bytes built from prefix fragments.
    const char* frags[] = {"[", "]", ":", " ", "rank", "default", "12", "E1021", "10:00:00", ".", "2024-07-23", "T",
                           "May", "Thu", "\xff", std::string_view("\0", 1).data(), "NCCL", "[0]", "-", "+02:00", "Z"};
    uint32_t seed = 12345;
    for (int i = 0; i < 20000; ++i) {
        std::string s;
        const int n = int(seed % 12);
        for (int k = 0; k < n; ++k) {
            seed = seed * 1664525u + 1013904223u;
            const char* f = frags[(seed >> 16) % (sizeof frags / sizeof *frags)];
            s += f[0] == '\0' ? std::string(1, '\0') : std::string(f);
        }
        seed = seed * 1664525u + 1013904223u;
        const LineInfo li = parseLine(s, SourceKind::Unknown, year(2024));
        QVERIFY(li.messageStart <= s.size());
        QVERIFY(li.basis == TimeBasis::None || li.timeNs != kNoTime);
    }
}

// findLiteral is string_view::find by another road: the same index for every needle, text and start. The texts
// are long enough for the 16-byte steps and short enough for the byte-by-byte end.
void LineParseTest::findLiteralIsFind()
{
    const std::string alphabet = " ->busId-  ab|:e";
    const std::vector<std::string> needles = {" -> ", " busId ", " ", "  ", "   ", " b", "-> ", "busId", "", "| e:",
                                              "e", "ab ab", " |", "| ", "b  -"};
    std::mt19937 rng(7);
    int found = 0, far = 0; // far: found past the first 16 starts, in the 16-byte steps
    for (int round = 0; round < 40000; ++round) {
        std::string text;
        const size_t len = rng() % 70;
        for (size_t i = 0; i < len; ++i)
            text += alphabet[rng() % alphabet.size()];
        const std::string& needle = needles[rng() % needles.size()];
        const size_t from = rng() % (len + 3);
        const size_t want = std::string_view(text).find(needle, from);
        found += want != std::string_view::npos;
        far += want != std::string_view::npos && want >= from + 16;
        QCOMPARE(fl::findLiteral(text, needle, from), want);
    }
    // The texts hold the needles often enough for the comparison to mean something (8,282 and 1,041 here).
    QVERIFY(found > 7000);
    QVERIFY(far > 800);
}

void LineParseTest::hugeLineIsBounded()
{
    // Bounded means parseLine reads a head of the line, never all of it: 2000
    // parses of a 100 MB line would take minutes if it did. Measured in this
    // process's CPU time around the parses only (not the 100 MB allocations),
    // so a loaded shared machine does not fail it and a full scan still does.
    std::string huge = "[rank3]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] ";
    huge.resize(100u << 20, '[');
    std::clock_t cpu = 0;
    std::clock_t c0 = std::clock();
    for (int i = 0; i < 2000; ++i) {
        const LineInfo li = parseLine(huge, SourceKind::AppLog, year(2025));
        QCOMPARE(li.rank, 3);
        QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::AssumedYear));
    }
    cpu += std::clock() - c0;
    huge.assign(100u << 20, 'x');
    c0 = std::clock();
    for (int i = 0; i < 2000; ++i)
        QCOMPARE(parseLine(huge, SourceKind::AppLog, year(2025)).messageStart, size_t(0));
    cpu += std::clock() - c0;
    // a previous line of 100 MB: the walk back gives up instead of scanning it all
    const std::string buf = huge + "\nnext";
    c0 = std::clock();
    QCOMPARE(fl::inheritedTime(buf, huge.size() + 1, SourceKind::AppLog, year(2025)), kNoTime);
    cpu += std::clock() - c0;
    const double ms = 1000.0 * double(cpu) / CLOCKS_PER_SEC;
    QVERIFY2(ms < 2000, qPrintable(QString::number(ms, 'f', 0) + " ms CPU"));
}

void LineParseTest::timeContext()
{
    const std::string sample = "Mar  2 15:59:55 node01 systemd[1]: Started x\n"
                               "Mar  2 15:59:56 node01 kernel: [100.500000] NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n";
    TimeContext c = inferTimeContext(sample, SourceKind::SysLog, 2023);
    QCOMPARE(c.defaultYear, 2023);
    QCOMPARE(c.bootTimeNs, utc(2023, 3, 2, 15, 59, 56) - 100 * kSec - 500000000LL);
    const LineInfo li = parseLine("[200.000000] NVRM: later", SourceKind::SysLog, c);
    QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::BootOffset));
    QCOMPARE(li.timeNs, c.bootTimeNs + 200 * kSec);

    // a full date in the sample names the year; the boot time follows from it
    const std::string withYear = "2022-12-30T10:00:00Z node01 kernel: [10.0] booted\nMar  2 00:00:00 node01 kernel: x\n";
    c = inferTimeContext(withYear, SourceKind::SysLog, 2030);
    QCOMPARE(c.defaultYear, 2022);
    QCOMPARE(c.bootTimeNs, utc(2022, 12, 30, 10, 0, 0) - 10 * kSec);

    // the boot time is looked for in the first 256 lines, whether they look like an uptime ("[ 12.5 ms]") or
    // not; an uptime with spaces after the bracket counts
    const std::string dmesg = "Mar  2 15:59:56 node01 kernel: [  100.500000] NVRM: Xid\n";
    for (const std::string filler : {"[rank0]: loss 1.5\n", "Mar  2 15:59:50 node01 kernel: [ 12.5 ms] no uptime\n"}) {
        std::string lines;
        for (int i = 0; i < 255; ++i)
            lines += filler;
        c = inferTimeContext(lines + dmesg, SourceKind::SysLog, 2023);
        QCOMPARE(c.bootTimeNs, utc(2023, 3, 2, 15, 59, 56) - 100 * kSec - 500000000LL);
        c = inferTimeContext(lines + filler + dmesg, SourceKind::SysLog, 2023);
        QCOMPARE(c.bootTimeNs, kNoTime);
    }

    // the shape test before the parse never turns away a line the parser reads an uptime from
    int uptimes = 0;
    for (const char* l : {"[  12.500000] x", "[12.5] x", "<6>[ 12.345678] x", "Mar  2 15:59:56 n kernel: [100.5] x",
                          "[ 1.000000 <    0.000123>] x", "[\t7.25] tab", "[rank0]: loss 1.5", "[12.] x", "[.5] x",
                          "[Wed Mar  1 17:38:27 2023] x", "[+0.000123] x", "no bracket 1.5", "[", "[1", "[1."}) {
        const bool uptime = parseLine(l, SourceKind::SysLog, year(2023)).bootSeconds >= 0;
        uptimes += uptime;
        QVERIFY2(!uptime || fl::mayHoldUptime(l), l);
    }
    QVERIFY(uptimes >= 5);

    // nothing in the sample: fallback year, unknown boot time
    c = inferTimeContext("plain\n[5.0] dmesg only\n", SourceKind::SysLog, 2021);
    QCOMPARE(c.defaultYear, 2021);
    QCOMPARE(c.bootTimeNs, kNoTime);

    // dmesg -T gives the year
    c = inferTimeContext("[Wed Mar  1 17:38:27 2023] Command line: x\n", SourceKind::SysLog, 2000);
    QCOMPARE(c.defaultYear, 2023);

    QCOMPARE(civilToNs(2024, 7, 23, 7, 53, 55, 0), 1721721235LL * kSec);
    QCOMPARE(civilToNs(1970, 1, 1, 0, 0, 0, 5), int64_t(5));
    QCOMPARE(civilToNs(2000, 3, 1, 0, 0, 0, 0), 951868800LL * kSec);
}

void LineParseTest::inheritedTime()
{
    const std::string buf = "2024-07-23T07:53:55Z node7 python[1]: Traceback (most recent call last):\n"
                            "  File \"x.py\", line 1, in <module>\n"
                            "RuntimeError: boom\n";
    const size_t third = buf.find("RuntimeError");
    QCOMPARE(fl::inheritedTime(buf, third, SourceKind::AppLog, year(0)), utc(2024, 7, 23, 7, 53, 55));
    QCOMPARE(fl::inheritedTime(buf, third, SourceKind::AppLog, year(0), 1), kNoTime); // only one line back allowed
    QCOMPARE(fl::inheritedTime(buf, 0, SourceKind::AppLog, year(0)), kNoTime);       // nothing before the first line
    const std::string none = "a\nb\nc\n";
    QCOMPARE(fl::inheritedTime(none, 4, SourceKind::AppLog, year(0)), kNoTime);
    // the nearest timed line wins
    const std::string two = "[1.0] a\n[2.0] b\nplain\n";
    QCOMPARE(fl::inheritedTime(two, two.find("plain"), SourceKind::SysLog, year(0)), 2 * kSec);
    // out-of-range begin is clamped, not read past
    QCOMPARE(fl::inheritedTime(two, 10000, SourceKind::SysLog, year(0)), 2 * kSec);
    // the walk back reads at most 4 MiB of lines (newlines not counted): a timed line just within is found
    const std::string timed = "2024-07-23T07:53:55Z a\n";
    for (const size_t over : {size_t(0), size_t(1)}) {
        const std::string far = timed + std::string((4u << 20) - (timed.size() - 1) + over, 'x') + "\nplain";
        QCOMPARE(fl::inheritedTime(far, far.find("plain"), SourceKind::AppLog, year(0)),
                 over ? kNoTime : utc(2024, 7, 23, 7, 53, 55));
        // one timed line of exactly 4 MiB is read whole
        const std::string longLine = "x\n" + timed.substr(0, timed.size() - 1) +
                                     std::string((4u << 20) - (timed.size() - 1) + over, 'x') + "\nplain";
        QCOMPARE(fl::inheritedTime(longLine, longLine.find("plain"), SourceKind::AppLog, year(0)),
                 over ? kNoTime : utc(2024, 7, 23, 7, 53, 55));
    }

    // With a LookBehind kept over ascending lines, every answer (time and basis) is the plain walk's: runs of
    // untimed lines of several lengths, limits that cut through them, a start with no timed line at all.
    std::string mixed = "untimed start\nstill untimed\n";
    for (int run = 0; run < 12; ++run) {
        mixed += "2024-07-23T07:53:" + std::to_string(10 + run) + "Z stamped\n";
        for (int k = 0; k < (run * 7) % 19; ++k)
            mixed += "node1:1:2 [0] NCCL INFO untimed " + std::to_string(k) + "\n";
    }
    std::vector<size_t> starts{0};
    for (size_t nl = mixed.find('\n'); nl + 1 < mixed.size(); nl = mixed.find('\n', nl + 1))
        starts.push_back(nl + 1);
    int compared = 0;
    for (const int maxLines : {1, 3, 8, 256}) {
        for (const size_t step : {size_t(1), size_t(2), size_t(5)}) {
            fl::LookBehind memo;
            for (size_t i = 0; i < starts.size(); i += step) {
                TimeBasis plainBasis = TimeBasis::None, memoBasis = TimeBasis::None;
                const int64_t plain = fl::inheritedTime(mixed, starts[i], SourceKind::AppLog, year(0), maxLines, &plainBasis);
                const int64_t viaMemo =
                    fl::inheritedTime(mixed, starts[i], SourceKind::AppLog, year(0), maxLines, &memoBasis, memo);
                QVERIFY2(plain == viaMemo && plainBasis == memoBasis,
                         qPrintable(QString("line %1, maxLines %2, step %3").arg(i + 1).arg(maxLines).arg(step)));
                ++compared;
            }
        }
    }
    QVERIFY(compared > 300);
    // A memo from a later line, or from another limit, is not taken on trust.
    fl::LookBehind memo;
    fl::inheritedTime(mixed, starts.back(), SourceKind::AppLog, year(0), 256, nullptr, memo);
    QCOMPARE(fl::inheritedTime(mixed, starts[1], SourceKind::AppLog, year(0), 256, nullptr, memo), kNoTime);
    fl::inheritedTime(mixed, starts[40], SourceKind::AppLog, year(0), 256, nullptr, memo);
    QCOMPARE(fl::inheritedTime(mixed, starts[41], SourceKind::AppLog, year(0), 1, nullptr, memo),
             fl::inheritedTime(mixed, starts[41], SourceKind::AppLog, year(0), 1));
}

// Times that do not fit int64 nanoseconds (1677-09-21 .. 2262-04-11) leave the
// line without a time instead of overflowing (issue #13: a fuzzed kernel time
// "[9999999999.0]" was signed overflow). Run under the asan preset, UB fails here.
void LineParseTest::outOfRangeTimes()
{
    // 9999999999 s * 1e9 does not fit: not read as an uptime
    LineInfo li = parseLine("[9999999999.0] NVRM: x", SourceKind::SysLog, year(2024));
    QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::None));
    QCOMPARE(li.timeNs, kNoTime);
    // fits as an uptime, but boot time + uptime does not
    li = parseLine("[9223372036.000000] NVRM: x", SourceKind::SysLog, year(2024, utc(2024, 1, 1, 0, 0, 0)));
    QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::None));
    QCOMPARE(li.timeNs, kNoTime);
    // a syslog clock in an assumed year at the edge of the range
    li = parseLine("Dec 31 23:59:59 node01 kernel: x", SourceKind::SysLog, year(2262));
    QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::None));
    li = parseLine("Jan  1 00:00:00 node01 kernel: x", SourceKind::SysLog, year(2262));
    QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::AssumedYear));
    li = parseLine("Jan  1 00:00:00 node01 kernel: x", SourceKind::SysLog, year(2147483647));
    QCOMPARE(nameOf(li.basis), nameOf(TimeBasis::None));
    // a huge uptime beside a wall clock must not overflow the boot time
    const TimeContext c = inferTimeContext("2024-01-01T00:00:00Z node01 kernel: [9223372036.854775] x\n"
                                           "2024-01-01T00:00:00Z node01 kernel: [9000000000.5] x\n",
                                           SourceKind::SysLog, 0);
    QCOMPARE(c.defaultYear, 2024);
    QVERIFY(c.bootTimeNs != kNoTime && c.bootTimeNs < utc(1740, 1, 1, 0, 0, 0)); // absurd, but arithmetic, not UB
    // the exposed helper says "no time" rather than wrapping
    QCOMPARE(civilToNs(9999, 12, 31, 23, 59, 59, 0), kNoTime);
    QCOMPARE(civilToNs(0, 1, 1, 0, 0, 0, 0), kNoTime);
    QCOMPARE(civilToNs(2262, 4, 11, 23, 47, 16, 854775807), std::numeric_limits<int64_t>::max());
    QCOMPARE(civilToNs(2262, 4, 11, 23, 47, 16, 854775808), kNoTime);
}

// Issue #15 item 5 / #13 item 6: the year of clocks printed without one comes
// from the file's own dated line, the manifest, a dated line elsewhere, the
// file's time, in that order; a syslog that runs over New Year gets both years.
void LineParseTest::yearWithoutManifest()
{
    const std::string newYear = "Dec 31 23:59:58 node01 kernel: [100.0] a\n"
                                "Jan  1 00:00:01 node01 kernel: b\n";
    auto timeOf = [](std::string_view line, const TimeContext& c) { return parseLine(line, SourceKind::SysLog, c).timeNs; };

    // the file was last written on Jan 2 2025: December is 2024, January 2025
    YearHint mtime;
    mtime.fileLatestNs = utc(2025, 1, 2, 8, 0, 0);
    TimeContext c = inferTimeContext(newYear, SourceKind::SysLog, mtime);
    QCOMPARE(timeOf("Dec 31 23:59:58 node01 kernel: a", c), utc(2024, 12, 31, 23, 59, 58));
    QCOMPARE(timeOf("Jan  1 00:00:01 node01 kernel: b", c), utc(2025, 1, 1, 0, 0, 1));
    QCOMPARE(c.bootTimeNs, utc(2024, 12, 31, 23, 58, 18));
    QCOMPARE(nameOf(parseLine("Jan  1 00:00:01 node01 kernel: b", SourceKind::SysLog, c).basis), nameOf(TimeBasis::AssumedYear));

    // a manifest window end does the same, and wins over the file time
    YearHint manifest = mtime;
    manifest.latestNs = utc(2023, 1, 1, 0, 30, 0);
    c = inferTimeContext(newYear, SourceKind::SysLog, manifest);
    QCOMPARE(timeOf("Dec 31 23:59:58 node01 kernel: a", c), utc(2022, 12, 31, 23, 59, 58));
    QCOMPARE(timeOf("Jan  1 00:00:01 node01 kernel: b", c), utc(2023, 1, 1, 0, 0, 1));

    // a dated line elsewhere in the bundle: the nearest year, on both sides of New Year
    YearHint near;
    near.nearNs = utc(2019, 12, 31, 22, 0, 0);
    near.fileLatestNs = utc(2026, 6, 1, 0, 0, 0); // a copy's time: less trusted than the dated line
    c = inferTimeContext(newYear, SourceKind::SysLog, near);
    QCOMPARE(timeOf("Dec 31 23:59:58 node01 kernel: a", c), utc(2019, 12, 31, 23, 59, 58));
    QCOMPARE(timeOf("Jan  1 00:00:01 node01 kernel: b", c), utc(2020, 1, 1, 0, 0, 1));
    QCOMPARE(timeOf("Jun 30 00:00:01 node01 kernel: b", c), utc(2020, 6, 30, 0, 0, 1));

    // the file's own full date wins over every hint
    c = inferTimeContext("2021-03-01T00:00:00Z node01 kernel: x\nMar  2 00:00:00 node01 kernel: y\n", SourceKind::SysLog, near);
    QCOMPARE(c.defaultYear, 2021);
    QCOMPARE(timeOf("Mar  2 00:00:00 node01 kernel: y", c), utc(2021, 3, 2, 0, 0, 0));

    // nothing at all: the year stays unknown (yearRefNs unset, defaultYear 0)
    c = inferTimeContext(newYear, SourceKind::SysLog, YearHint{});
    QCOMPARE(c.defaultYear, 0);
    QCOMPARE(c.yearRefNs, kNoTime);

    QCOMPARE(firstFullDateNs("x\n[Thu Mar  2 15:59:56 2023] y\n", SourceKind::SysLog), utc(2023, 3, 2, 15, 59, 56));
    QCOMPARE(firstFullDateNs("Mar  2 15:59:56 node y\n", SourceKind::SysLog), kNoTime);
}

// Issue #41: a relayed line reads as the line it relays; the wrapper's host, pod and rank are kept.
void LineParseTest::wrappedLines()
{
    const std::string syslog = "Mar 14 09:57:40 node-02 kernel: [1010.112233] NVRM: Xid (PCI:0000:5c:00): 79, pid=41002";
    const std::string app = "RuntimeError: CUDA error: an illegal memory access was encountered";
    struct Case {
        const char* what;
        std::string prefix;
        LineWrapper wrapper;
        const char* host; // expected host of the app line
        const char* pod;
        int rank;
    };
    const Case cases[] = {
        {"pdsh", "node-02: ", LineWrapper::Pdsh, "node-02", "", -1},
        {"compose", "trainer-1  | ", LineWrapper::Compose, "", "trainer-1", -1},
        {"kubectl --prefix", "[pod/trainer-0/main] ", LineWrapper::KubectlPrefix, "", "trainer-0", -1},
        {"metaflow", "[1712/train/3 (pid 5678)] ", LineWrapper::Metaflow, "", "1712/train/3", -1},
        {"ray raylet", "(raylet, ip=10.0.0.5) ", LineWrapper::Ray, "10.0.0.5", "raylet", -1},
        {"mpi", "[1,3]<stderr>:", LineWrapper::MpiTag, "", "", 3},
        {"azure ml", "[worker-0, 10.0.0.4] ", LineWrapper::AzureMl, "10.0.0.4", "worker-0", -1},
        {"kubectl --timestamps", "2026-01-01T00:00:00.123456789Z ", LineWrapper::KubectlTimestamps, "", "", -1},
    };
    for (const Case& c : cases) {
        const std::string head = c.prefix + syslog + "\n" + c.prefix + app + "\n" + c.prefix + syslog + "\n";
        const TimeContext ctx = inferTimeContext(head, SourceKind::Unknown, 2026);
        QVERIFY2(ctx.wrapper == c.wrapper, c.what);
        // The wrapped syslog line: its own time, host and message, as unwrapped.
        const LineInfo bare = parseLine(syslog, SourceKind::Unknown, TimeContext{.defaultYear = 2026});
        const std::string wrappedSyslog = c.prefix + syslog;
        const LineInfo li = parseLine(wrappedSyslog, SourceKind::Unknown, ctx);
        QVERIFY2(li.timeNs == bare.timeNs && li.timeNs != kNoTime, c.what);
        QCOMPARE(std::string(li.host), std::string("node-02"));
        QCOMPARE(wrappedSyslog.substr(li.messageStart), syslog.substr(bare.messageStart));
        const std::string wrappedApp = c.prefix + app;
        const LineInfo la = parseLine(wrappedApp, SourceKind::Unknown, ctx);
        QVERIFY2(std::string(la.host) == c.host, c.what);
        QVERIFY2(std::string(la.pod) == c.pod, (std::string(c.what) + ": " + std::string(la.pod)).c_str());
        QVERIFY2(la.rank == c.rank, c.what);
        QCOMPARE(wrappedApp.substr(la.messageStart), app);
        QCOMPARE(std::string(innerLine(ctx.wrapper, wrappedApp)), app);
    }
    // kubectl --timestamps: a line that printed no time of its own takes the receive time.
    TimeContext kts;
    kts.wrapper = LineWrapper::KubectlTimestamps;
    const LineInfo received = parseLine("2026-01-01T00:00:00.5Z " + app, SourceKind::Unknown, kts);
    const LineInfo stamped = parseLine("2026-01-01T00:00:00.5Z", SourceKind::Unknown, TimeContext{.defaultYear = 2026});
    QVERIFY(received.timeNs != kNoTime);
    QCOMPARE(received.timeNs, stamped.timeNs);
    // A line without the file's wrapper (pdsh's own complaint) is read as it is.
    TimeContext pdsh;
    pdsh.wrapper = LineWrapper::Pdsh;
    const LineInfo own = parseLine("pdsh@head: node-03: ssh exited with exit code 255", SourceKind::Unknown, pdsh);
    QCOMPARE(own.messageStart, size_t(0));
}

// Issue #41: kind and node come from the lines; a file name is a hint, shown when it disagrees.
void LineParseTest::kindAndNodeFromContent()
{
    const std::string kernel = "Mar 14 09:57:40 k8s-gpu-07 kernel: [1010.1] NVRM: Xid (PCI:0000:5c:00): 79, pid=4\n"
                               "Mar 14 09:57:41 k8s-gpu-07 kernel: [1011.1] NVRM: GPU at PCI:0000:5c:00: GPU-1\n";
    SourceFile f;
    f.path = "k8s-gpu-07.log";
    classifyFile(f, kernel);
    QVERIFY(f.kind == SourceKind::SysLog);
    QCOMPARE(f.node, std::string("k8s-gpu-07"));
    QVERIFY2(f.kindReason.find("'k8s'") != std::string::npos, f.kindReason.c_str()); // the name's word is shown

    SourceFile named;
    named.path = "syslog-gpu-08.log";
    classifyFile(named, kernel);
    QCOMPARE(named.node, std::string("k8s-gpu-07"));
    QVERIFY2(named.nodeReason.find("gpu-08") != std::string::npos, named.nodeReason.c_str());

    const std::string app = "[rank0]: Traceback (most recent call last):\nnode-01:41000:41000 [0] NCCL INFO x\n";
    for (const char* name : {"console.log", "output.txt", "nohup.out", "job.err", "stdout"}) {
        SourceFile c;
        c.path = name;
        classifyFile(c, app);
        QVERIFY2(c.kind == SourceKind::AppLog && c.status == FileStatus::Ok, name);
        QCOMPARE(c.node, std::string("node-01"));
    }

    // A console holding kernel and application lines is read line by line by shape.
    const ContentShape both = sniffContent(app + kernel);
    QVERIFY2(both.mixed, both.reason.c_str());
    QVERIFY(lineKindByShape("Mar 14 09:57:40 h kernel: NVRM: Xid", SourceKind::AppLog) == SourceKind::SysLog);
    QVERIFY(lineKindByShape("node-01:41000:41000 [0] NCCL WARN x", SourceKind::SysLog) == SourceKind::AppLog);
    QVERIFY(lineKindByShape("srun: error: x", SourceKind::AppLog) == SourceKind::AppLog);
    QVERIFY(!sniffContent(app).mixed);

    // An epoch stamp in brackets (UCX) is not a dmesg stamp: ten digits of uptime would be 31 years.
    SourceFile ucx;
    ucx.path = "applog-node-02-rank2.log";
    classifyFile(ucx, "[1733460000.123456] [gpu-07:4242:0]     ib_iface.c:771  UCX  ERROR   send completion with error: x\n"
                      "[1733460000.123457] [gpu-07:4242:0]     ib_iface.c:771  UCX  ERROR   send completion with error: y\n");
    QVERIFY2(ucx.kind == SourceKind::AppLog, ucx.kindReason.c_str());
    SourceFile dmesg;
    dmesg.path = "node-02.txt";
    classifyFile(dmesg, "[999999999.123456] NVRM: Xid (PCI:0000:5c:00): 79, pid=4\n[    5.000001] x\n");
    QVERIFY2(dmesg.kind != SourceKind::AppLog, dmesg.kindReason.c_str());
}

// Slurm built for several slurmd a host names its daemons after their node (src/slurmd/slurmstepd/mgr.c
// "slurmstepd-%s"): a step's stderr reads "slurmstepd-gpu-07: error: ...". That is Slurm's line about node
// gpu-07, not a pdsh host "slurmstepd-gpu-07" relaying it.
void LineParseTest::slurmDaemonNamedAfterNode()
{
    const std::string oom = "slurmstepd-gpu-07: error: Detected 1 oom_kill event in StepId=4412871.0. Some of the step "
                            "tasks have been OOM Killed.";
    const std::string cancel = "slurmstepd-gpu-07: error: *** STEP 4412871.0 ON gpu-07 CANCELLED AT 2025-11-30T12:16:03 ***";
    const std::string head = oom + "\n" + cancel + "\n";
    QCOMPARE(int(detectWrapper(head)), int(LineWrapper::None));
    const LineInfo li = parseLine(oom, SourceKind::Unknown, TimeContext{.defaultYear = 2026});
    QCOMPARE(std::string(li.host), std::string("gpu-07"));
    QVERIFY(oom.substr(li.messageStart).starts_with("error: Detected"));
    QVERIFY(lineKindOfText(cancel) == SourceKind::Scheduler);
    QVERIFY(lineKindOfText("Nov 30 12:16:03 gpu-07 slurmstepd-gpu-07[4242]: error: x") == SourceKind::Scheduler);
    QVERIFY(lineKindOfText("slurmstepd-: error: x") == SourceKind::AppLog);

    for (const char* name : {"job.err", "slurm-4412871.out", "file-01.log"}) {
        SourceFile f;
        f.path = name;
        classifyFile(f, head);
        QVERIFY2(f.kind == SourceKind::Scheduler, (std::string(name) + ": " + f.kindReason).c_str());
        QCOMPARE(f.node, std::string("gpu-07"));
        QVERIFY2(f.nodeReason.find("slurmstepd") != std::string::npos, f.nodeReason.c_str());
    }

    // Behind a real pdsh prefix the relaying host is pdsh's and the daemon's name is read inside.
    const std::string relayed = "gpu-07: " + oom + "\ngpu-07: " + cancel + "\n";
    const TimeContext ctx = inferTimeContext(relayed, SourceKind::Unknown, 2026);
    QCOMPARE(int(ctx.wrapper), int(LineWrapper::Pdsh));
    const std::string wrapped = "gpu-07: " + cancel;
    const LineInfo lw = parseLine(wrapped, SourceKind::Unknown, ctx);
    QCOMPARE(std::string(lw.host), std::string("gpu-07"));
    QVERIFY(wrapped.substr(lw.messageStart).starts_with("error: *** STEP"));
}

// RFC 5424 syslog (issue #41 items 4 and 5): the HOSTNAME field after the time names the file's node, as the
// BSD syslog host field does, whatever the file is called.
void LineParseTest::rfc5424HostNamesTheFile()
{
    const std::string text = "<3>1 2026-11-30T12:14:50.118Z gpu-07 kernel - - - NVRM: Xid (PCI:0000:5c:00): 79, pid=41002\n"
                             "<6>1 2026-11-30T12:14:51.118Z gpu-07 kernel - - [meta sequenceId=\"2\"] NVRM: GPU at PCI:0000:5c:00\n";
    SourceFile f;
    f.path = "file-01.log";
    classifyFile(f, text);
    QVERIFY2(f.kind == SourceKind::SysLog, f.kindReason.c_str());
    QCOMPARE(f.node, std::string("gpu-07"));
    QVERIFY2(f.nodeReason.find("syslog host") != std::string::npos, f.nodeReason.c_str());
    // The nil host ("-") names nothing.
    SourceFile nil;
    nil.path = "file-02.log";
    classifyFile(nil, "<3>1 2026-11-30T12:14:50.118Z - kernel - - - NVRM: Xid (PCI:0000:5c:00): 79, pid=41002\n");
    QCOMPARE(nil.node, std::string());
    // A kernel record is known by its APP-NAME, whatever its message and structured data say.
    SourceFile hung;
    hung.path = "file-03.log";
    classifyFile(hung, "<3>1 2023-03-04T04:10:52Z gpu-07 kernel - log [origin ip=\"10.0.0.9\"][meta sequenceId=\"81\"] INFO: task "
                       "python:280058 blocked for more than 120 seconds.\n"
                       "<3>1 2023-03-04T04:10:52Z gpu-07 kernel - log [meta sequenceId=\"82\"]       Tainted: P           OE\n");
    QVERIFY2(hung.kind == SourceKind::SysLog, hung.kindReason.c_str());
}
