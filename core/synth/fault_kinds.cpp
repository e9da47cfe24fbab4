// The catalogue of injectable faults and the verdict each one should get.
#include "synth.h"

namespace fl::synth {

const std::vector<FaultKind>& faultKinds()
{
    static const std::vector<FaultKind> kinds = {
        {"xid79", "GPU fell off the bus", Domain::Gpu, "gpu_lost",
         "Xid 79 on one GPU (with PCI/UUID identity lines and SXid 20034 on the NVSwitch ports to it); its rank dies "
         "with CUDA 'unknown error' in the watchdog, the other ranks time out on the same SeqNum."},
        {"xid48", "Uncorrectable ECC error (DBE)", Domain::Gpu, "memory_ecc",
         "Xid 48 double-bit ECC error and a follow-up Xid 63 remap; the culprit rank's watchdog reports 'CUDA error: "
         "uncorrectable ECC error encountered', ECC DBE counter rises in metrics."},
        {"xid64", "Row remapping failure", Domain::Gpu, "row_remap_failure",
         "Xid 64 'All reserved rows for bank are remapped' on one GPU; its rank fails with an ECC CUDA error."},
        {"xid119", "GSP RPC timeout", Domain::Gpu, "gsp",
         "Xid 119 GSP RPC timeout with RPC history tables; the culprit rank hangs, its heartbeat monitor fires after "
         "480 s, the others time out at 600 s."},
        {"xid13", "Graphics engine exception (illegal address)", Domain::Workload, "application_fault",
         "Xid 13 SM warp exception burst + Xid 43 on one GPU; the rank reports 'an illegal memory access was "
         "encountered'."},
        {"xid74", "NVLink error", Domain::Nvlink, "nvlink_error",
         "Xid 74 fatal NVLink error (register bit 16) on one GPU, a sympathetic Xid 74 (bit 1) on its peer; the rank "
         "reports 'uncorrectable NVLink error'."},
        {"xid149", "NVLink5 link down, signal integrity", Domain::Nvlink, "signal_integrity",
         "Xid 149 NETIR_LINK_EVT Fatal with reason code 0x04 (INVESTIGATE_LINK_SI) after a non-fatal Xid 149 BER "
         "event; the rank reports 'uncorrectable NVLink error', Xid 45 'caused by previous Xid 149'."},
        {"sxid20034", "NVSwitch fatal error", Domain::Nvlink, "nvswitch_fatal",
         "SXid 20034 LTSSM Fault Up on an NVSwitch (3-line group) and the matching Fabric Manager 'detected NVSwitch "
         "fatal error 20034'; all ranks of that node fail with NVLink/CUDA errors."},
        {"fabric_manager", "Fabric Manager not running", Domain::Nvlink, "fabric_manager",
         "nvidia-fabricmanager aborts at job start on one node (topology mismatch, systemd failure); its ranks fail "
         "CUDA init with error 802 'system not yet initialized', the others time out on SeqNum 1."},
        {"ib_err12", "InfiniBand link failure mid-run", Domain::Network, "ib_link",
         "NCCL 'Got completion from peer <ip> with error 12' on the ring neighbours naming one node's address; that "
         "node's IB counters (symbol errors, link downed) rise."},
        {"ib_port_error", "IB port error on one host", Domain::Network, "ib_link",
         "'NET/IB : Got async event : port error' on all ranks of one host at one instant, mlx5 cable module error "
         "in its kernel log."},
        {"ib_startup_err12", "IB misconfiguration at start-up", Domain::Network, "ib_config",
         "Error 12 completion errors during the first collective, all pairs involving one node (wrong GID index); "
         "no training step ever completes."},
        {"nic_fatal", "HCA fatal error", Domain::Network, "nic_fatal",
         "'local catastrophic error' async event on all ranks of one host, mlx5 health 'reached miss count' in its "
         "kernel log."},
        {"oom", "Host OOM kill", Domain::Host, "oom",
         "Kernel oom-killer (CONSTRAINT_MEMCG) kills one rank; torchrun reports exitcode -9, slurmstepd reports an "
         "oom_kill event, sacct OUT_OF_MEMORY."},
        {"shm", "/dev/shm exhausted", Domain::Host, "shm_exhausted",
         "NCCL shm segment creation fails with 'No space left on device (28)' on one node's ranks at init "
         "(ncclSystemError); the rest time out on SeqNum 1."},
        {"segfault", "Segmentation fault", Domain::Host, "segfault",
         "Kernel 'segfault at ... in libnccl.so.2' and 'Fatal Python error: Segmentation fault' on one rank, "
         "exitcode -11."},
        {"hung_task", "Hung task (D state)", Domain::Host, "hung_task",
         "'INFO: task pt_main_thread blocked for more than 120 seconds' with a memory-management stack on one node; "
         "its rank goes silent, the others time out."},
        {"pcie_aer", "PCIe uncorrectable error", Domain::Host, "pcie",
         "Fatal PCIe AER on the GPU's upstream port, followed 1 s later by Xid 79 on that GPU."},
        {"nfs_hang", "NFS server not responding", Domain::Storage, "filesystem",
         "'nfs: server ... not responding' and a hung task in nfs writeback on one node; its rank goes silent during "
         "a checkpoint, the others time out."},
        {"checkpoint_enospc", "Checkpoint write failed (disk full)", Domain::Storage, "checkpoint_write",
         "Rank 0 fails torch.save with 'No space left on device' while saving; the others time out in the barrier."},
        {"missing_data", "Training data missing", Domain::Storage, "missing_data",
         "All ranks fail at start-up with FileNotFoundError on a dataset shard."},
        {"node_fail", "Node failure", Domain::Scheduler, "node_fail",
         "One node goes silent; NCCL error 12 on its neighbours, slurmctld sets it DOWN, srun 'Node failure on "
         "<node>', the STEP CANCELLED line names the batch host, sacct NODE_FAIL with FailedNode."},
        {"preemption", "Job preempted", Domain::Scheduler, "preemption",
         "slurmstepd 'CANCELLED ... DUE TO PREEMPTION', SIGTERM on all ranks, sacct PREEMPTED."},
        {"time_limit", "Time limit reached", Domain::Scheduler, "time_limit",
         "slurmstepd 'CANCELLED ... DUE TO TIME LIMIT', SIGTERM on all ranks, sacct TIMEOUT."},
        {"user_cancel", "Cancelled by user", Domain::Scheduler, "user_cancel",
         "scancel: '*** JOB ... CANCELLED AT ... ***', SIGTERM on all ranks, sacct 'CANCELLED by 1000'."},
        {"py_exception", "Python exception on one rank", Domain::Workload, "exception",
         "IndexError traceback in the data pipeline on one rank (exit 1); the others time out on the same SeqNum."},
        {"cuda_oom", "CUDA out of memory", Domain::Workload, "cuda_oom",
         "torch.OutOfMemoryError on one rank; the others time out."},
        {"straggler", "One rank straggles, then hangs", Domain::Gpu, "straggler",
         "One rank's step time is about 2x its peers' for the last 12 iterations (a degrading GPU, no error line); "
         "then it stops logging and the others time out on the collective it never joins."},
        {"oom_growth", "CUDA OOM after memory growth", Domain::Workload, "cuda_oom",
         "Megatron report_memory lines on one rank show allocated memory rising every iteration (a leak), then "
         "torch.OutOfMemoryError on that rank; the others time out."},
        {"nan_loss", "Loss became NaN", Domain::Workload, "nan_loss",
         "Loss and grad norm spike, then 'lm loss: nan' and Megatron's 'found NaN in local grad norm' assertion on "
         "every rank."},
        {"collective_mismatch", "Collective mismatch", Domain::Workload, "collective_mismatch",
         "TORCH_DISTRIBUTED_DEBUG=DETAIL 'Detected mismatch between collectives on ranks': one rank runs an "
         "ALLREDUCE with a different tensor shape."},
        {"tiny_timeout", "NCCL timeout misconfigured", Domain::Workload, "timeout_misconfig",
         "Process group timeout of 5 s: every rank but 0 times out (Timeout(ms)=5000) while rank 0 saves a "
         "checkpoint."},
        {"rendezvous", "Rendezvous failure", Domain::Workload, "rendezvous",
         "Wrong MASTER_ADDR: every node's agent fails to connect to the TCPStore (errno 110), "
         "DistNetworkError after 900 s."},
        {"ambiguous", "Two independent GPU faults", Domain::Gpu, "",
         "Xid 79 on one node and Xid 48 on another within 1 s; both ranks fail, the rest time out. Truth is "
         "ambiguous."},
        {"ambiguous_domains", "Two independent faults in different domains", Domain::Gpu, "",
         "Xid 48 (uncorrectable ECC) on one node and an IB cable fault (mlx5 'Cable error', NCCL port error on every "
         "rank of that host) on another, inside the same second; both ranks fail, the rest time out. Truth is "
         "ambiguous."},
        {"none", "Timeouts without an initiator", Domain::Unknown, "",
         "Every rank reports the same NCCL watchdog timeout and nothing else: no initiating evidence. Truth is "
         "unattributed."},
        {"late_second_fault", "GPU fell off the bus; a second GPU fault minutes into the hang", Domain::Gpu, "gpu_lost",
         "Xid 79 on one GPU, the other ranks time out on the same SeqNum ('ran for' 600 s back to just after the "
         "fault); an unrelated Xid 48 on another node is logged 2-8 minutes after they began waiting. Truth is the "
         "Xid 79."},
        {"late_fault_only", "Timeouts whose cause is not logged; a GPU fault minutes into the hang", Domain::Unknown, "",
         "Every rank times out on the same SeqNum and nothing logged starts it; an Xid 48 on one node is logged 2-8 "
         "minutes after the ranks began waiting, too late to be the cause. Truth is unattributed."},
    };
    return kinds;
}

const std::vector<std::string>& sourceNames()
{
    static const std::vector<std::string> names = {"applog", "fabricmanager", "metrics", "scheduler", "syslog"};
    return names;
}

} // namespace fl::synth
