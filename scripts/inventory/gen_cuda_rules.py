#!/usr/bin/env python3
"""Writes rules/cuda-errors.jsonc from inventory/cuda-errors.json and its decisions:
the CUDA error tables as data. Each evidence entry becomes a symptom `cuda.<string>`
(runtime) or `cuda.<CUDA_ERROR_NAME>` (driver) with its domain and role; two extract
rules read the table's strings wherever they stand (the wrappers are alternatives
in front of the one message core). Strings that older rules already rename
(filter.early set_symptom in nccl.jsonc and launchers.jsonc) keep that rename.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

inv = json.load(open(os.path.join(lib.INVENTORY_DIR, "cuda-errors.json")))
dec = json.load(open(os.path.join(lib.INVENTORY_DIR, "cuda-errors.decisions.json")))
RENAMED = {  # string -> the named symptom an existing filter.early rule turns it into
    "out of memory", "uncorrectable ECC error encountered", "an illegal memory access was encountered",
    "misaligned address", "unspecified launch failure", "unknown error", "system not yet initialized",
    "device-side assert triggered", "an illegal instruction was encountered", "no CUDA-capable device is detected",
    "CUDA-capable device(s) is/are busy or unavailable", "invalid device ordinal",
    "CUDA driver version is insufficient for CUDA runtime version", "the launch timed out and was terminated"}
WEIGHT = {"gpu": 70, "nvlink": 70, "host": 50, "workload": 35, "network": 50, "storage": 50, "scheduler": 40}
SUB = {"gpu": "cuda_error", "nvlink": "nvlink_error", "host": "driver_install", "workload": "cuda_api"}


def re2_escape(s):
    return "".join("\\" + c if c in "\\.^$|?*+()[]{}" else c for c in s)


symptoms, runtime, driver = [], [], []
for s in inv["sites"]:
    d = dec.get(s["id"])
    if not d or d["decision"] != "evidence":
        continue
    kind = s["id"].split(":")[1]
    text = s["format"]
    if kind == "cudaError":
        runtime.append(text)
        if text in RENAMED:
            continue
        sid = "cuda." + text
        title = f"CUDA error: {text} ({s['name']})"
    else:
        driver.append(text)
        sid = "cuda." + text
        title = f"CUDA driver error {text}"
    role = d["role"]
    if any(x["id"] == sid for x in symptoms):  # two codes with one text (200 and 300)
        continue
    symptoms.append({"id": sid, "title": title, "domain": d["domain"], "sub_domain": SUB.get(d["domain"], "cuda_error"),
                     "role": role, "weight": WEIGHT[d["domain"]] if role == "initiator" else 0})

# Older toolkits printed the NVLink error shorter; nccl.jsonc renames that wording.
runtime.append("uncorrectable NVLink error")
runtime = sorted(set(runtime), key=lambda x: (-len(x), x))
driver = sorted(set(driver), key=lambda x: (-len(x), x))
wrappers = ("(?:CUDA error(?: \\d+)?:? '?|cuda runtime error \\(\\d+\\) : |Cuda failure (?:\\d+ )?'|CUDA failure:? '?"
            "|cudaError\\w*: |Triton Error \\[CUDA\\]: |CUDA driver error: )")
src = ["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html",
       "pytorch/pytorch@v2.5.1:c10/cuda/CUDAException.cpp", "NVIDIA/nccl@v2.21.5-1:src/include/checks.h"]
rules = [
    {"id": "cuda.extract.error", "phase": "extract",
     "description": "Every cudaGetErrorString text of the CUDA " + inv["sources"][0]["version"] + " runtime, whichever wrapper prints it: PyTorch's c10::CUDAError and AcceleratorError ('CUDA error: '), the THC check ('cuda runtime error (N) : '), NCCL's CUDACHECK ('Cuda failure N ...'), Triton's driver check. NVLS lines are nvlink.nvls_failure (nccl-warn.jsonc)",
     "source": src,
     "samples": [
         {"line": "[rank12]:[E817 12:01:02.000000000 ProcessGroupNCCL.cpp:1595] [PG 0 (default_pg) Rank 12] Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered", "symptom": "cuda.uncorrectable ECC error encountered"},
         {"line": "RuntimeError: CUDA error: an illegal memory access was encountered", "symptom": "cuda.an illegal memory access was encountered"},
         {"line": "[default3]:terminate called after throwing an instance of 'c10::CUDAError'  what():  CUDA error: unknown error", "symptom": "cuda.unknown error"},
         {"line": "dgx-h100-023:20441:20441 [6] enqueue.cc:1402 NCCL WARN Cuda failure 'uncorrectable ECC error encountered'", "symptom": "cuda.uncorrectable ECC error encountered"},
         {"line": "gpu-a03:48221:48221 [5] enqueue.cc:1402 NCCL WARN Cuda failure 'unspecified launch failure'", "symptom": "cuda.unspecified launch failure"},
         {"line": "include/alloc.h:178 NCCL WARN Cuda failure 'out of memory'", "symptom": "cuda.out of memory"},
         {"line": "ncclUnhandledCudaError: Call to CUDA function failed. NCCL WARN Cuda failure 999 'unknown error'", "symptom": "cuda.unknown error"},
         {"line": "RuntimeError: CUDA error: device-side assert triggered", "symptom": "cuda.device-side assert triggered"},
         {"line": "RuntimeError: CUDA error: no CUDA-capable device is detected", "symptom": "cuda.no CUDA-capable device is detected"},
         {"line": "torch.AcceleratorError: CUDA error: CUDA-capable device(s) is/are busy or unavailable", "symptom": "cuda.CUDA-capable device(s) is/are busy or unavailable"},
         "RuntimeError: CUDA error: invalid device ordinal",
         {"line": "RuntimeError: cuda runtime error (2) : out of memory at /opt/conda/conda-bld/pytorch/aten/src/THC/THCCachingHostAllocator.cpp:278", "symptom": "cuda.out of memory"},
         {"line": "RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered", "symptom": "cuda.an illegal memory access was encountered"},
         {"line": "RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution", "symptom": "cuda.uncorrectable NVLink error detected during the execution"},
         {"line": "RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination", "symptom": "cuda.system has unsupported display driver / cuda driver combination"}
     ],
     "benign": [
         "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
         "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
         "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
         "[2025-11-30 11:57:41] gpu-a03:61722:61722 [4] transport/nvls.cc:58 NCCL WARN Cuda failure 802 'system not yet initialized'",
         "gpu-a03:48221:48221 [5] NCCL INFO enqueue.cc:1402 -> 1",
         "RuntimeError: CUDA error: device not ready"
     ],
     "sources": ["applog"],
     # "CUDA" covers four wrappers and every other rule literal holding it (dropped as redundant
     # by the matcher): fewer literals keep the applog set under Vectorscan's cliff (docs/performance.md).
     "literal": ["CUDA", "cuda runtime error", "Cuda failure", "cudaError"],
     "exclude": "nvls\\.cc",
     "pattern": wrappers + "(?P<error>" + "|".join(re2_escape(x) for x in runtime) + ")",
     "emit": {"symptom": "cuda.{error}", "kind": "bad_node"}},
    {"id": "cuda.extract.driver-name", "phase": "extract",
     "description": "CUresult names (cuGetErrorName) as CuPy, JAX/XLA and the driver API checks print them",
     "source": ["https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TYPES.html"],
     "samples": [
         {"line": "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered", "symptom": "cuda.CUDA_ERROR_ILLEGAL_ADDRESS"},
         {"line": "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: run time error: custom call 'xla.gpu.func.launch' failed: CUDA_ERROR_ECC_UNCORRECTABLE: uncorrectable ECC error encountered", "symptom": "cuda.CUDA_ERROR_ECC_UNCORRECTABLE"}
     ],
     "benign": ["cuStreamQuery returned CUDA_ERROR_NOT_READY", "CUDA_ERROR_NO_DEVICE_FOUND_SUFFIX=1 set in environment"],
     "sources": ["applog"],
     "literal": "CUDA",
     "pattern": "\\b(?P<name>" + "|".join(driver) + ")\\b",
     "emit": {"symptom": "cuda.{name}", "kind": "bad_node"}},
]
out = os.path.join(lib.TOP, "rules", "cuda-errors.jsonc")
with open(out, "w", encoding="utf-8") as f:
    f.write("// CUDA runtime and driver error tables (issue #41): generated by scripts/inventory/gen_cuda_rules.py\n")
    f.write("// from inventory/cuda-errors.json (CUDA " + inv["sources"][0]["version"] + " headers, cudaGetErrorString) and the\n")
    f.write("// hand-kept inventory/cuda-errors.decisions.json (domain and role of every entry). Edit the decisions, re-run.\n")
    f.write("{\n  \"symptoms\": [\n")
    f.write(",\n".join("    " + json.dumps(s, ensure_ascii=False) for s in symptoms))
    f.write("\n  ],\n  \"rules\": [\n")
    f.write(",\n".join("    " + json.dumps(r, ensure_ascii=False) for r in rules))
    f.write("\n  ]\n}\n")
print(f"{out}: {len(symptoms)} symptoms, {len(runtime)} runtime strings, {len(driver)} driver names")
