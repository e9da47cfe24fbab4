#!/usr/bin/env python3
"""CUDA runtime (cudaError_t) and driver (CUresult) error tables.

Enums and their numbers from the toolkit's public headers (driver_types.h,
cuda.h); each runtime entry's text is what cudaGetErrorString returns for it,
asked of the toolkit's own libcudart (a table look-up: no GPU needed).
  python3 scripts/inventory/extract_cuda_errors.py [/usr/local/cuda]
"""
import ctypes
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

cuda = sys.argv[1] if len(sys.argv) > 1 else "/usr/local/cuda"
inc = os.path.join(cuda, "include")
version = re.search(r"#define CUDA_VERSION (\d+)", open(os.path.join(inc, "cuda.h")).read()).group(1)
rt = ctypes.CDLL(os.path.join(cuda, "lib64", "libcudart.so"))
rt.cudaGetErrorString.restype = ctypes.c_char_p

# Where a runtime string is printed: PyTorch's c10::CUDAError ("CUDA error: "), the old
# THC check ("cuda runtime error (N) : "), NCCL's CUDACHECK ("Cuda failure N '...'"),
# torch 2.6+'s AcceleratorError and Triton's driver check.
RUNTIME_SHAPES = ["torch", "thc", "nccl", "accelerator", "triton"]
DRIVER_SHAPES = ["cupy", "xla"]

sites = []
text = open(os.path.join(inc, "driver_types.h")).read()
body = re.search(r"enum __device_builtin__ cudaError\s*\{(.*?)\};", text, re.S).group(1)
for m in re.finditer(r"(cudaSuccess|cudaError\w*)\s*=\s*(\d+)", body):
    name, code = m.group(1), int(m.group(2))
    line = text.count("\n", 0, text.find(m.group(0))) + 1
    s = rt.cudaGetErrorString(code).decode()
    sites.append({"id": f"cuda-errors:cudaError:{name}", "path": "include/driver_types.h", "line": line,
                  "level": "error", "format": s, "syntax": "literal", "code": code, "name": name,
                  "shape": RUNTIME_SHAPES})

text = open(os.path.join(inc, "cuda.h")).read()
body = re.search(r"typedef enum cudaError_enum\s*\{(.*?)\}\s*CUresult;", text, re.S).group(1)
for m in re.finditer(r"(CUDA_SUCCESS|CUDA_ERROR_\w+)\s*=\s*(\d+)", body):
    name, code = m.group(1), int(m.group(2))
    line = text.count("\n", 0, text.find(m.group(0))) + 1
    sites.append({"id": f"cuda-errors:CUresult:{name}", "path": "include/cuda.h", "line": line,
                  "level": "error", "format": name, "syntax": "literal", "code": code, "name": name,
                  "shape": DRIVER_SHAPES})

lib.write_inventory({
    "family": "cuda-errors",
    "title": "CUDA runtime cudaError_t strings (cudaGetErrorString) and driver CUresult names",
    "sources": [{"product": "NVIDIA CUDA Toolkit", "version": version,
                 "paths": ["include/driver_types.h", "include/cuda.h", "lib64/libcudart.so (cudaGetErrorString)"],
                 "docs": "https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html"}],
    "extractor": "scripts/inventory/extract_cuda_errors.py",
    "line_shapes": {
        "torch": "[rank3]: RuntimeError: CUDA error: {msg}",
        "thc": "RuntimeError: cuda runtime error ({code}) : {msg} at /opt/conda/aten/src/THC/THCCachingHostAllocator.cpp:278",
        "nccl": "gpu-07:4242:4300 [3] enqueue.cc:1402 NCCL WARN Cuda failure {code} '{msg}'",
        "accelerator": "torch.AcceleratorError: CUDA error: {msg}",
        "triton": "RuntimeError: Triton Error [CUDA]: {msg}",
        "cupy": "cupy_backends.cuda.api.driver.CUDADriverError: {msg}: driver call failed",
        "xla": "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to execute XLA Runtime executable: {msg}",
    },
    "sites": sites,
})
