#!/usr/bin/env python3
"""CUDA runtime (cudaError_t) and driver (CUresult) error tables, and the status
tables of the CUDA libraries a training job calls (cuBLAS, cuDNN, cuFFT, cuRAND,
cuSOLVER, cuSPARSE, NVRTC).

Enums and their numbers from the toolkit's public headers (driver_types.h,
cuda.h, cublas_api.h, cudnn_graph.h, cufft.h, curand.h, cusolver_common.h,
cusparse.h, nvrtc.h); each runtime entry's text is what cudaGetErrorString
returns for it, asked of the toolkit's own libcudart (a table look-up: no GPU
needed). A runtime entry is printed by its text (c10::CUDAError, THC, NCCL,
Triton) or by its enum name (the CUDA samples' checkCudaErrors, cuda-python);
a library status by its name (PyTorch's TORCH_CUDABLAS_CHECK, AT_CUDNN_CHECK,
TORCH_CUSOLVER_CHECK, cuFFT's check and AT_CUDA_NVRTC_CHECK print the name,
cudnnGetErrorString and nvrtcGetErrorString return it). cuDNN 9 keeps its
older (v7/v8) names as deprecated aliases: each is its own site.
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
RUNTIME_SHAPES = ["torch", "thc", "nccl", "accelerator", "triton", "samples"]
DRIVER_SHAPES = ["cupy", "xla", "numba", "samples"]
# Library status enums: (kind, header, enum body regex, name prefix, shapes). cuFFT's enum
# header also holds the transform types (CUFFT_R2C...): only the cufftResult body is read.
LIBRARIES = [
    ("cublasStatus", "cublas_api.h", r"typedef enum\s*\{([^}]*)\}\s*cublasStatus_t;", "CUBLAS_STATUS_", ["torch_blas", "samples"]),
    ("cudnnStatus", "cudnn_graph.h", r"typedef enum\s*\{([^}]*)\}\s*cudnnStatus_t;", "CUDNN_STATUS_", ["torch_cudnn"]),
    ("cufftResult", "cufft.h", r"typedef enum cufftResult_t\s*\{([^}]*)\}\s*cufftResult;", "CUFFT_", ["torch_cufft", "samples"]),
    ("curandStatus", "curand.h", r"enum curandStatus\s*\{([^}]*)\};", "CURAND_STATUS_", ["samples"]),
    ("cusolverStatus", "cusolver_common.h", r"typedef enum\s*\{([^}]*)\}\s*cusolverStatus_t;", "CUSOLVER_STATUS_", ["torch_cusolver", "samples"]),
    ("cusparseStatus", "cusparse.h", r"typedef enum\s*\{([^}]*)\}\s*cusparseStatus_t;", "CUSPARSE_STATUS_", ["samples"]),
    ("nvrtcResult", "nvrtc.h", r"typedef enum\s*\{([^}]*)\}\s*nvrtcResult;", "NVRTC_", ["torch_nvrtc"]),
]

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

# A status decided "not evidence" (success, a query's answer) never reaches an error check: its
# rendered noise line is the bare name, as a status print in a debug log holds it.
decisions, _ = lib.load_decisions("cuda-errors")
libraries = []
for kind, header, enum_re, prefix, shapes in LIBRARIES:
    text = open(os.path.join(inc, header)).read()
    m = re.search(enum_re, text, re.S)
    if not m:
        sys.exit(f"{header}: the {kind} enum was not found")
    values = {}
    for e in re.finditer(r"\b(" + prefix + r"\w+)\s*(?:CUDNN_DEPRECATED_ENUM\s*)?=\s*(\w+)", m.group(1)):
        name, val = e.group(1), e.group(2)
        code = values[val] if val in values else int(val, 0)  # a deprecated alias names its successor
        values[name] = code
        line = text.count("\n", 0, m.start(1) + e.start()) + 1
        sid = f"cuda-errors:{kind}:{name}"
        quiet = decisions.get(sid, {}).get("decision") == "not_evidence"
        sites.append({"id": sid, "path": "include/" + header, "line": line,
                      "level": "error", "format": name, "syntax": "literal", "code": code, "name": name,
                      "shape": ["status"] if quiet else shapes})
    libraries.append(header)

lib.write_inventory({
    "family": "cuda-errors",
    "title": "CUDA runtime cudaError_t strings (cudaGetErrorString) and driver CUresult names",
    "sources": [{"product": "NVIDIA CUDA Toolkit", "version": version,
                 "paths": ["include/driver_types.h", "include/cuda.h", "lib64/libcudart.so (cudaGetErrorString)"]
                 + ["include/" + h for h in libraries],
                 "packages": sorted(d for d in os.listdir(os.path.join(cuda, "dist-info")) if d.endswith(".dist-info"))
                 if os.path.isdir(os.path.join(cuda, "dist-info")) else [],
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
        # NVIDIA/cuda-samples Common/helper_cuda.h check() (c94ff366aed18c797b8a85dfaac7817b0228b420): the enum
        # name (cudaGetErrorName, cuGetErrorName, its own cuBLAS/cuFFT/cuSPARSE/cuSOLVER/cuRAND tables), not the text
        "samples": "CUDA error at train.cu:{line} code={code}({name}) \"cudaDeviceSynchronize()\"",
        "numba": "numba.cuda.cudadrv.driver.CudaAPIError: [{code}] Call to cuCtxSynchronize results in {msg}",
        # pytorch/pytorch aten/src/ATen/cuda/Exceptions.h (0220ea5a36c33d1fd6b3fdd20bcd8f273bbccbbb)
        "status": "{msg}",
        "torch_blas": "RuntimeError: CUDA error: {msg} when calling `cublasCreate(handle)`",
        "torch_cudnn": "torch.backends.cudnn.CuDNNError: cuDNN error: {msg}",
        "torch_cusolver": "torch._C._LinAlgError: cusolver error: {msg}, when calling `cusolverDnCreate(handle)`. ",
        "torch_nvrtc": "RuntimeError: CUDA NVRTC error: {msg}",
        "torch_cufft": "RuntimeError: cuFFT error: {msg}",
    },
    "sites": sites,
})
