#!/usr/bin/env python3
"""Writes rules/cuda-errors.jsonc from inventory/cuda-errors.json and its decisions:
the CUDA error tables as data. Each evidence entry becomes a symptom `cuda.<string>`
(runtime) or `cuda.<CUDA_ERROR_NAME>` (driver) with its domain and role; two extract
rules read the table's strings wherever they stand (the wrappers are alternatives
in front of the one message core). Strings that older rules already rename
(filter.early set_symptom in nccl.jsonc and launchers.jsonc) keep that rename.
A runtime entry printed by its enum name (cudaErrorIllegalAddress: the CUDA
samples' check(), cuda-python) is the same evidence as its text: a symptom
`cuda.<cudaErrorName>` with the text's domain and role, or, where the text is
renamed, a filter.early rule giving the name the same rename. The CUDA
libraries' status names (CUBLAS_STATUS_*, CUDNN_STATUS_*, CUFFT_*,
CURAND_STATUS_*, CUSOLVER_STATUS_*, CUSPARSE_STATUS_*, NVRTC_ERROR_*) are one
more table: a symptom `cuda.<NAME>` each, read wherever the name stands.
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


sys.path.insert(0, lib.TOP + "/scripts/inventory")
from check import strip_jsonc  # noqa: E402

# text -> the symptom an existing filter.early rule renames "cuda.<text>" to
renames = {}
for fn in sorted(os.listdir(os.path.join(lib.TOP, "rules"))):
    if fn.endswith(".jsonc") and fn != "cuda-errors.jsonc":
        for r in json.loads(strip_jsonc(open(os.path.join(lib.TOP, "rules", fn), encoding="utf-8").read())).get("rules", []):
            m = r.get("match", {}).get("symptom") if r.get("phase") == "filter.early" and "set_symptom" in r else None
            for x in ([m] if isinstance(m, str) else m or []):
                if x.startswith("cuda.") and "*" not in x:
                    renames[x[len("cuda."):]] = r["set_symptom"]

symptoms, runtime, driver, names, libnames = [], [], [], [], []
name_renames = {}   # target symptom -> [cuda.<cudaErrorName>]
for s in inv["sites"]:
    d = dec.get(s["id"])
    if not d or d["decision"] != "evidence":
        continue
    kind = s["id"].split(":")[1]
    text = s["format"]
    role = d["role"]
    entry = {"domain": d["domain"], "sub_domain": SUB.get(d["domain"], "cuda_error"),
             "role": role, "weight": WEIGHT[d["domain"]] if role == "initiator" else 0}
    if kind == "cudaError":
        names.append(s["name"])
        if text in renames:
            name_renames.setdefault(renames[text], []).append("cuda." + s["name"])
        else:
            symptoms.append({"id": "cuda." + s["name"], "title": f"CUDA error {s['name']} ({text})", **entry})
    if kind not in ("cudaError", "CUresult"):
        libnames.append(text)
        symptoms.append({"id": "cuda." + text, "title": f"CUDA library status {text}", **entry})
        continue
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
names = sorted(set(names), key=lambda x: (-len(x), x))
libnames = sorted(set(libnames), key=lambda x: (-len(x), x))
missing = sorted(set(RENAMED) - set(renames))
if missing:
    sys.exit(f"gen_cuda_rules.py: no filter.early rule renames {missing}")
# The message core, not its wrapper: a runtime text counts where a CUDA word stands earlier in the line
# and the text follows a separator printers put before a message (': ', a quote, '(N) '). That reads
# PyTorch's 'CUDA error: ', THC's 'cuda runtime error (N) : ', NCCL's "Cuda failure N '...'", Triton's
# 'Triton Error [CUDA]: ', 'CUDA driver error: ', CuPy's 'cudaErrorX: ', the CUDA samples'
# 'getLastCudaError() CUDA error : MSG : (N) text.' and any other printer that names CUDA first, alike.
context = "(?:CUDA|Cuda|cuda)[^\\n]*?(?:[:'\"]|\\(\\d+\\)) ?'?"
src = ["https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html",
       "pytorch/pytorch@v2.5.1:c10/cuda/CUDAException.cpp", "NVIDIA/nccl@v2.21.5-1:src/include/checks.h"]
rules = [
    {"id": "cuda.extract.error", "phase": "extract",
     "description": "Every cudaGetErrorString text of the CUDA " + inv["sources"][0]["version"] + " runtime, whichever wrapper prints it: after a CUDA word and a message separator (PyTorch's c10::CUDAError and AcceleratorError 'CUDA error: ', the THC check 'cuda runtime error (N) : ', NCCL's CUDACHECK 'Cuda failure N ...', Triton's driver check, CuPy, the CUDA samples' getLastCudaError). NVLS lines are nvlink.nvls_failure (nccl-warn.jsonc)",
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
         {"line": "RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination", "symptom": "cuda.system has unsupported display driver / cuda driver combination"},
         {"line": "attention.cu(212) : getLastCudaError() CUDA error : softmax kernel failed : (700) an illegal memory access was encountered.", "symptom": "cuda.an illegal memory access was encountered"},
         {"line": "cupy.cuda.runtime.CUDARuntimeError: cudaErrorLaunchFailure: unspecified launch failure", "symptom": "cuda.unspecified launch failure"}
     ],
     "benign": [
         "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
         "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
         "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
         "[2025-11-30 11:57:41] gpu-a03:61722:61722 [4] transport/nvls.cc:58 NCCL WARN Cuda failure 802 'system not yet initialized'",
         "gpu-a03:48221:48221 [5] NCCL INFO enqueue.cc:1402 -> 1",
         "RuntimeError: CUDA error: device not ready",
         "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB",
         "CUDA_VISIBLE_DEVICES: 0,1,2,3 (an unknown error count: 0)",
         "Using CUDA: yes; last status: out of memoryless mode"
     ],
     "sources": ["applog"],
     # The three spellings of the context word; every other rule literal holding one is dropped as
     # redundant by the matcher: few literals keep the applog set under Vectorscan's cliff (docs/performance.md).
     "literal": ["CUDA", "cuda", "Cuda"],
     "exclude": "nvls\\.cc",
     "pattern": context + "(?P<error>" + "|".join(re2_escape(x) for x in runtime) + ")(?:[^A-Za-z0-9_]|$)",
     "emit": {"symptom": "cuda.{error}", "kind": "bad_node"}},
    {"id": "cuda.extract.runtime-name", "phase": "extract",
     "description": "cudaError_t enum names (cudaGetErrorName) as the CUDA samples' checkCudaErrors ('CUDA error at FILE:LINE code=N(cudaErrorX)'), cuda-python and user checks print them: the same evidence as the entry's text",
     "source": ["NVIDIA/cuda-samples@c94ff366aed18c797b8a85dfaac7817b0228b420:Common/helper_cuda.h",
                "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"],
     "samples": [
         {"line": "CUDA error at /src/kernels/attn.cu:318 code=700(cudaErrorIllegalAddress) \"cudaStreamSynchronize(stream)\"", "symptom": "cuda.cudaErrorIllegalAddress"},
         {"line": "RuntimeError: cudaMemcpyAsync failed: <cudaError_t.cudaErrorECCUncorrectable: 214>", "symptom": "cuda.cudaErrorECCUncorrectable"}
     ],
     "benign": ["if err == cudaErrorNotReady: continue", "cudaErrorNotReady"],
     "sources": ["applog"],
     "literal": "cudaError",
     # 'cudaErrorX: <text>' (CuPy) is read by cuda.extract.error: one event per line
     "exclude": "cudaError\\w+: [a-z]",
     "pattern": "\\b(?P<name>" + "|".join(n for n in names) + ")\\b",
     "emit": {"symptom": "cuda.{name}", "kind": "bad_node"}},
    {"id": "cuda.extract.library-status", "phase": "extract",
     "description": "Status names of the CUDA libraries (cuBLAS, cuDNN, cuFFT, cuRAND, cuSOLVER, cuSPARSE, NVRTC) as PyTorch's checks ('CUDA error: CUBLAS_STATUS_X when calling', 'cuDNN error: ', 'cusolver error: ', 'cuFFT error: ', 'CUDA NVRTC error: ') and the CUDA samples' check() print them",
     "source": ["pytorch/pytorch@0220ea5a36c33d1fd6b3fdd20bcd8f273bbccbbb:aten/src/ATen/cuda/Exceptions.h",
                "NVIDIA/cuda-samples@c94ff366aed18c797b8a85dfaac7817b0228b420:Common/helper_cuda.h"],
     "samples": [
         {"line": "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasLtMatmul(ltHandle, computeDesc.descriptor(), &alpha_val, mat1_ptr)`", "symptom": "cuda.CUBLAS_STATUS_EXECUTION_FAILED"},
         {"line": "RuntimeError: cuDNN error: CUDNN_STATUS_MAPPING_ERROR", "symptom": "cuda.CUDNN_STATUS_MAPPING_ERROR"},
         {"line": "torch._C._LinAlgError: cusolver error: CUSOLVER_STATUS_INTERNAL_ERROR, when calling `cusolverDnSgetrf(handle, m, n, A, lda, ws, ipiv, info)`. ", "symptom": "cuda.CUSOLVER_STATUS_INTERNAL_ERROR"},
         {"line": "CUDA error at fft.cu:91 code=5(CUFFT_INTERNAL_ERROR) \"cufftPlan1d(&plan, n, CUFFT_C2C, 1)\"", "symptom": "cuda.CUFFT_INTERNAL_ERROR"}
     ],
     "benign": ["cublasStatus_t st = cublasCreate(&h); if (st != CUBLAS_STATUS_SUCCESS)", "CUFFT_C2C plan of size 4096 created",
                "NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED"],
     "sources": ["applog"],
     "literal": ["_STATUS_", "CUFFT_", "NVRTC_ERROR_"],
     "pattern": "\\b(?P<name>" + "|".join(libnames) + ")\\b",
     "emit": {"symptom": "cuda.{name}", "kind": "bad_node"}},
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
# An enum name whose text an existing rule renames gets the same rename.
for target, syms in sorted(name_renames.items()):
    rules.append({"id": "cuda.filter.name-" + target.replace(".", "-").replace("_", "-"), "phase": "filter.early",
                  "match": {"symptom": sorted(syms)}, "set_symptom": target})
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
print(f"{out}: {len(symptoms)} symptoms, {len(runtime)} runtime strings, {len(names)} runtime names, "
      f"{len(driver)} driver names, {len(libnames)} library status names")
