#!/usr/bin/env python3
"""Python frameworks and the aws-ofi-nccl plugin: every raise with a message,
logger error/warning/exception/critical call and warnings.warn of the paths
below (Python through its ast, so multi-line and f-string messages are whole);
aws-ofi-nccl's NCCL_OFI_WARN sites.
  python3 scripts/inventory/extract_frameworks.py [family...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

M = os.environ.get("MIRROR", "/work/.mirror")
PY_SHAPES = {
    "raise": {"line": "[rank3]: {exception}: {msg}", "file": "applog-node-01-rank3.log"},
    "log": {"line": "[rank3]: [2026-12-07 04:12:09,114] [{level}] [{file}:{line}:fn] {msg}", "file": "applog-node-02-rank4.log"},
}
FAMILIES = {
    "deepspeed": {"repo": "microsoft/DeepSpeed", "git": f"{M}/microsoft+DeepSpeed/repo", "title": "DeepSpeed runtime, launcher and elasticity messages",
                  "paths": ["deepspeed/launcher/*.py", "deepspeed/runtime/engine.py", "deepspeed/runtime/zero/*.py",
                            "deepspeed/comm/*.py", "deepspeed/elasticity/*.py", "deepspeed/runtime/checkpoint_engine/*.py",
                            "deepspeed/utils/*.py", "deepspeed/accelerator/cuda_accelerator.py"]},
    "accelerate": {"repo": "huggingface/accelerate", "git": f"{M}/huggingface+accelerate/repo", "title": "Accelerate launcher, state and checkpointing messages",
                   "paths": ["src/accelerate/commands/launch.py", "src/accelerate/state.py", "src/accelerate/accelerator.py",
                             "src/accelerate/checkpointing.py", "src/accelerate/utils/launch.py", "src/accelerate/utils/environment.py",
                             "src/accelerate/utils/memory.py", "src/accelerate/utils/operations.py"]},
    "lightning": {"repo": "Lightning-AI/pytorch-lightning", "git": f"{M}/Lightning-AI+pytorch-lightning/repo", "title": "Lightning launchers, strategies and cluster environments",
                  "paths": ["src/lightning/fabric/strategies/launchers/*.py", "src/lightning/pytorch/strategies/launchers/*.py",
                            "src/lightning/fabric/plugins/environments/*.py", "src/lightning/fabric/strategies/ddp.py",
                            "src/lightning/pytorch/strategies/ddp.py", "src/lightning/fabric/utilities/distributed.py",
                            "src/lightning/pytorch/trainer/connectors/signal_connector.py", "src/lightning/pytorch/trainer/call.py"]},
    "megatron": {"repo": "NVIDIA/Megatron-LM", "git": f"{M}/NVIDIA+Megatron-LM/repo", "title": "Megatron-LM training loop, checkpointing, rerun state machine and parallel state",
                 "paths": ["megatron/training/training.py", "megatron/training/checkpointing.py", "megatron/training/initialize.py",
                           "megatron/core/rerun_state_machine.py", "megatron/core/parallel_state.py",
                           "megatron/core/dist_checkpointing/*.py", "megatron/core/dist_checkpointing/strategies/*.py",
                           "megatron/training/utils.py", "megatron/core/distributed/*.py"]},
}

want = sys.argv[1:] or list(FAMILIES) + ["aws-ofi-nccl"]
for fam in want:
    if fam == "aws-ofi-nccl":
        snap = lib.Snapshot(f"{M}/aws+aws-ofi-nccl/repo")
        sites = []
        for path in snap.files(["src/*.c", "src/*.cpp", "src/*.h", "include/*.h"]):
            for line, fmt in lib.c_sites(snap.read(path), "NCCL_OFI_WARN"):
                sites.append({"path": path, "line": line, "level": "WARN", "format": fmt, "syntax": "printf"})
        lib.assign_ids(fam, sites)
        lib.write_inventory({"family": fam, "title": "aws-ofi-nccl NCCL_OFI_WARN sites (NCCL prints them with the function, not the file: include/nccl_ofi_log.h)",
                             "sources": [{"repo": "aws/aws-ofi-nccl", "commit": snap.commit, "tag": snap.tag(), "paths": ["src/**", "include/**"]}],
                             "extractor": "scripts/inventory/extract_frameworks.py",
                             "line_shapes": {"default": "gpu-07:4242:4300 [3] int nccl_net_ofi_rdma_progress(nccl_net_ofi_rdma_ep_t*):{line} NCCL WARN NET/OFI {msg}"},
                             "shapes": ["default"], "sites": sites})
        continue
    f = FAMILIES[fam]
    snap = lib.Snapshot(f["git"])
    sites = []
    for path in snap.files(f["paths"]):
        if "/tests/" in path or path.endswith("__init__.py") and False:
            continue
        for s in lib.py_sites(snap.read(path), extra_calls=("rank_zero_warn", "print_rank_0", "log_single_rank")):
            if s["level"] == "raise":
                s["shape"] = "raise"
            else:
                s["shape"] = "log"
            s["path"] = path
            sites.append(s)
    sites.sort(key=lambda s: (s["path"], s["line"]))
    lib.assign_ids(fam, sites)
    lib.write_inventory({"family": fam, "title": f["title"],
                         "sources": [{"repo": f["repo"], "commit": snap.commit, "tag": snap.tag(), "paths": f["paths"]}],
                         "extractor": "scripts/inventory/extract_frameworks.py",
                         "line_shapes": PY_SHAPES, "sites": sites})
