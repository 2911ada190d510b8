//===- CudaApi.h - The driver API subset the shim serves --------*- C++ -*-===//
//
// The shim builds without the CUDA toolkit (it runs on AMD machines), so the
// few types, constants and prototypes it needs are declared here, with the
// values of CUDA 13's cuda.h. Handles are opaque pointers.
//
// ZLUDA_SHIM_SERVED lists every exported entry point the shim defines itself:
// X(name, (parameters), (arguments)). The real driver's versions of the same
// names are looked up too (RealDriver), and so are ZLUDA_SHIM_USED's.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_RUNTIME_SHIM_CUDAAPI_H
#define ZLUDA_RUNTIME_SHIM_CUDAAPI_H

#include <cstddef>
#include <cstdint>

namespace zluda::shim {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUlibrary = struct CUlib_st *;
using CUkernel = struct CUkern_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;
using CUjitInputType = int;
using CUlinkState = struct CUlinkState_st *;
using CUlibraryOption = int;
using CUfunction_attribute = int;
using CUfunc_cache = int;
using CUsharedconfig = int;
using CUoccupancyB2DSize = size_t (*)(int blockSize);

struct CUlaunchAttribute; // opaque: passed through, read by backends only
struct CUlaunchConfig {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute *attrs;
  unsigned numAttrs;
};

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_FILE_NOT_FOUND = 301,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_SUPPORTED = 801,
};

constexpr CUjitInputType CU_JIT_INPUT_PTX = 1;

constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr uint64_t CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 1 << 1;
constexpr uintptr_t CU_LAUNCH_PARAM_END = 0x0;
constexpr uintptr_t CU_LAUNCH_PARAM_BUFFER_POINTER = 0x1;
constexpr uintptr_t CU_LAUNCH_PARAM_BUFFER_SIZE = 0x2;
constexpr int CU_GET_PROC_ADDRESS_SUCCESS = 0;

} // namespace zluda::shim

// clang-format off
#define ZLUDA_SHIM_LOADS(X)                                                    \
  X(cuModuleLoad, (CUmodule *m, const char *fname), (m, fname))                \
  X(cuModuleLoadData, (CUmodule *m, const void *image), (m, image))            \
  X(cuModuleLoadDataEx, (CUmodule *m, const void *image, unsigned n,           \
    CUjit_option *opts, void **vals), (m, image, n, opts, vals))               \
  X(cuModuleLoadFatBinary, (CUmodule *m, const void *image), (m, image))       \
  X(cuLibraryLoadData, (CUlibrary *l, const void *code, CUjit_option *jo,      \
    void **jv, unsigned nj, CUlibraryOption *lo, void **lv, unsigned nl),      \
    (l, code, jo, jv, nj, lo, lv, nl))                                         \
  X(cuLibraryLoadFromFile, (CUlibrary *l, const char *fname,                   \
    CUjit_option *jo, void **jv, unsigned nj, CUlibraryOption *lo,             \
    void **lv, unsigned nl), (l, fname, jo, jv, nj, lo, lv, nl))

/// The JIT linker (Shim.cpp, "JIT links"): a link of one PTX input gives
/// that PTX back as its image, so that the load that follows is served from
/// the cache; other links are replayed to the driver at cuLinkComplete.
/// X(name, (parameters), (arguments)).
#define ZLUDA_SHIM_LINKS(X)                                                    \
  X(cuLinkCreate, (unsigned n, CUjit_option *o, void **v, CUlinkState *s),     \
    (n, o, v, s))                                                              \
  X(cuLinkCreate_v2, (unsigned n, CUjit_option *o, void **v,                   \
    CUlinkState *s), (n, o, v, s))                                             \
  X(cuLinkAddData, (CUlinkState s, CUjitInputType t, void *data, size_t size,  \
    const char *name, unsigned n, CUjit_option *o, void **v),                  \
    (s, t, data, size, name, n, o, v))                                         \
  X(cuLinkAddData_v2, (CUlinkState s, CUjitInputType t, void *data,            \
    size_t size, const char *name, unsigned n, CUjit_option *o, void **v),     \
    (s, t, data, size, name, n, o, v))                                         \
  X(cuLinkAddFile, (CUlinkState s, CUjitInputType t, const char *path,         \
    unsigned n, CUjit_option *o, void **v), (s, t, path, n, o, v))             \
  X(cuLinkAddFile_v2, (CUlinkState s, CUjitInputType t, const char *path,      \
    unsigned n, CUjit_option *o, void **v), (s, t, path, n, o, v))             \
  X(cuLinkComplete, (CUlinkState s, void **cubin, size_t *size),               \
    (s, cubin, size))                                                          \
  X(cuLinkDestroy, (CUlinkState s), (s))

/// Entry points whose first handle argument decides who serves them:
/// X(name, (parameters), (arguments), handle argument).
#define ZLUDA_SHIM_ROUTED(X)                                                   \
  X(cuModuleUnload, (CUmodule m), (m), m)                                      \
  X(cuModuleGetFunction, (CUfunction *f, CUmodule m, const char *name),        \
    (f, m, name), m)                                                           \
  X(cuModuleGetGlobal_v2, (CUdeviceptr *p, size_t *bytes, CUmodule m,          \
    const char *name), (p, bytes, m, name), m)                                 \
  X(cuModuleGetFunctionCount, (unsigned *count, CUmodule m), (count, m), m)    \
  X(cuModuleEnumerateFunctions, (CUfunction *fs, unsigned n, CUmodule m),      \
    (fs, n, m), m)                                                             \
  X(cuLibraryUnload, (CUlibrary l), (l), l)                                    \
  X(cuLibraryGetKernel, (CUkernel *k, CUlibrary l, const char *name),          \
    (k, l, name), l)                                                           \
  X(cuLibraryGetModule, (CUmodule *m, CUlibrary l), (m, l), l)                 \
  X(cuLibraryGetGlobal, (CUdeviceptr *p, size_t *bytes, CUlibrary l,           \
    const char *name), (p, bytes, l, name), l)                                 \
  X(cuLibraryGetManaged, (CUdeviceptr *p, size_t *bytes, CUlibrary l,          \
    const char *name), (p, bytes, l, name), l)                                 \
  X(cuLibraryGetUnifiedFunction, (void **fptr, CUlibrary l,                    \
    const char *name), (fptr, l, name), l)                                     \
  X(cuLibraryGetKernelCount, (unsigned *count, CUlibrary l), (count, l), l)    \
  X(cuLibraryEnumerateKernels, (CUkernel *ks, unsigned n, CUlibrary l),        \
    (ks, n, l), l)                                                             \
  X(cuKernelGetFunction, (CUfunction *f, CUkernel k), (f, k), k)               \
  X(cuKernelGetLibrary, (CUlibrary *l, CUkernel k), (l, k), k)                 \
  X(cuKernelGetAttribute, (int *v, CUfunction_attribute a, CUkernel k,         \
    CUdevice d), (v, a, k, d), k)                                              \
  X(cuKernelSetAttribute, (CUfunction_attribute a, int v, CUkernel k,          \
    CUdevice d), (a, v, k, d), k)                                              \
  X(cuKernelSetCacheConfig, (CUkernel k, CUfunc_cache c, CUdevice d),          \
    (k, c, d), k)                                                              \
  X(cuKernelGetName, (const char **name, CUkernel k), (name, k), k)            \
  X(cuKernelGetParamInfo, (CUkernel k, size_t i, size_t *off, size_t *size),   \
    (k, i, off, size), k)                                                      \
  X(cuFuncGetAttribute, (int *v, CUfunction_attribute a, CUfunction f),        \
    (v, a, f), f)                                                              \
  X(cuFuncSetAttribute, (CUfunction f, CUfunction_attribute a, int v),         \
    (f, a, v), f)                                                              \
  X(cuFuncSetCacheConfig, (CUfunction f, CUfunc_cache c), (f, c), f)           \
  X(cuFuncSetSharedMemConfig, (CUfunction f, CUsharedconfig c), (f, c), f)     \
  X(cuFuncGetModule, (CUmodule *m, CUfunction f), (m, f), f)                   \
  X(cuFuncGetName, (const char **name, CUfunction f), (name, f), f)            \
  X(cuFuncGetParamInfo, (CUfunction f, size_t i, size_t *off, size_t *size),   \
    (f, i, off, size), f)                                                      \
  X(cuFuncIsLoaded, (int *state, CUfunction f), (state, f), f)                 \
  X(cuFuncLoad, (CUfunction f), (f), f)                                        \
  X(cuLaunchKernel, (CUfunction f, unsigned gx, unsigned gy, unsigned gz,      \
    unsigned bx, unsigned by, unsigned bz, unsigned shmem, CUstream s,         \
    void **params, void **extra),                                              \
    (f, gx, gy, gz, bx, by, bz, shmem, s, params, extra), f)                   \
  X(cuLaunchKernel_ptsz, (CUfunction f, unsigned gx, unsigned gy,              \
    unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shmem,        \
    CUstream s, void **params, void **extra),                                  \
    (f, gx, gy, gz, bx, by, bz, shmem, s, params, extra), f)                   \
  X(cuLaunchCooperativeKernel, (CUfunction f, unsigned gx, unsigned gy,        \
    unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shmem,        \
    CUstream s, void **params), (f, gx, gy, gz, bx, by, bz, shmem, s, params), \
    f)                                                                         \
  X(cuLaunchCooperativeKernel_ptsz, (CUfunction f, unsigned gx, unsigned gy,   \
    unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shmem,        \
    CUstream s, void **params), (f, gx, gy, gz, bx, by, bz, shmem, s, params), \
    f)                                                                         \
  X(cuLaunchKernelEx, (const CUlaunchConfig *c, CUfunction f, void **params,   \
    void **extra), (c, f, params, extra), f)                                   \
  X(cuLaunchKernelEx_ptsz, (const CUlaunchConfig *c, CUfunction f,             \
    void **params, void **extra), (c, f, params, extra), f)                    \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, (int *n, CUfunction f,        \
    int block, size_t shmem), (n, f, block, shmem), f)                         \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, (int *n,             \
    CUfunction f, int block, size_t shmem, unsigned flags),                    \
    (n, f, block, shmem, flags), f)                                            \
  X(cuOccupancyMaxPotentialBlockSize, (int *grid, int *block, CUfunction f,    \
    CUoccupancyB2DSize b2d, size_t shmem, int limit),                          \
    (grid, block, f, b2d, shmem, limit), f)                                    \
  X(cuOccupancyMaxPotentialBlockSizeWithFlags, (int *grid, int *block,         \
    CUfunction f, CUoccupancyB2DSize b2d, size_t shmem, int limit,             \
    unsigned flags), (grid, block, f, b2d, shmem, limit, flags), f)            \
  X(cuOccupancyAvailableDynamicSMemPerBlock, (size_t *bytes, CUfunction f,     \
    int blocks, int blockSize), (bytes, f, blocks, blockSize), f)

/// Entry points that take a module or function handle but that the backends
/// do not implement (legacy launches, texture references, graph kernel
/// nodes): forwarded, except for handles a backend owns that the driver
/// cannot know (the hip backend's), which get CUDA_ERROR_NOT_SUPPORTED.
/// X(name, (parameters), (arguments), handle expression). The graph calls'
/// parameter structs begin with the function.
#define ZLUDA_SHIM_GUARDED(X)                                                  \
  X(cuModuleGetGlobal, (unsigned *p, unsigned *bytes, CUmodule m,              \
    const char *name), (p, bytes, m, name), m)                                 \
  X(cuModuleGetTexRef, (void **ref, CUmodule m, const char *name),             \
    (ref, m, name), m)                                                         \
  X(cuModuleGetSurfRef, (void **ref, CUmodule m, const char *name),            \
    (ref, m, name), m)                                                         \
  X(cuLaunch, (CUfunction f), (f), f)                                          \
  X(cuLaunchGrid, (CUfunction f, int w, int h), (f, w, h), f)                  \
  X(cuLaunchGridAsync, (CUfunction f, int w, int h, CUstream s),               \
    (f, w, h, s), f)                                                           \
  X(cuFuncSetBlockShape, (CUfunction f, int x, int y, int z), (f, x, y, z), f) \
  X(cuFuncSetSharedSize, (CUfunction f, unsigned bytes), (f, bytes), f)        \
  X(cuParamSetSize, (CUfunction f, unsigned n), (f, n), f)                     \
  X(cuParamSeti, (CUfunction f, int off, unsigned v), (f, off, v), f)          \
  X(cuParamSetf, (CUfunction f, int off, float v), (f, off, v), f)             \
  X(cuParamSetv, (CUfunction f, int off, void *p, unsigned n),                 \
    (f, off, p, n), f)                                                         \
  X(cuGraphAddKernelNode, (void **node, void *graph, const void *deps,         \
    size_t n, const CUfunction *params), (node, graph, deps, n, params),       \
    params ? *params : nullptr)                                                \
  X(cuGraphAddKernelNode_v2, (void **node, void *graph, const void *deps,      \
    size_t n, const CUfunction *params), (node, graph, deps, n, params),       \
    params ? *params : nullptr)                                                \
  X(cuGraphKernelNodeSetParams, (void *node, const CUfunction *params),        \
    (node, params), params ? *params : nullptr)                                \
  X(cuGraphKernelNodeSetParams_v2, (void *node, const CUfunction *params),     \
    (node, params), params ? *params : nullptr)                                \
  X(cuGraphExecKernelNodeSetParams, (void *exec, void *node,                   \
    const CUfunction *params), (exec, node, params),                           \
    params ? *params : nullptr)                                                \
  X(cuGraphExecKernelNodeSetParams_v2, (void *exec, void *node,                \
    const CUfunction *params), (exec, node, params),                           \
    params ? *params : nullptr)

/// Allocations, served to keep track of them for ZLUDA_SHIM_COMPARE:
/// X(name, (parameters), (arguments), what to tell Compare on success).
#define ZLUDA_SHIM_TRACKED(X)                                                  \
  X(cuMemAlloc_v2, (CUdeviceptr *p, size_t bytes), (p, bytes),                 \
    allocated(*p, bytes, false))                                               \
  X(cuMemAllocPitch_v2, (CUdeviceptr *p, size_t *pitch, size_t width,          \
    size_t height, unsigned element), (p, pitch, width, height, element),      \
    allocated(*p, *pitch * height, false))                                     \
  X(cuMemAllocManaged, (CUdeviceptr *p, size_t bytes, unsigned flags),         \
    (p, bytes, flags), allocated(*p, bytes, false))                            \
  X(cuMemAllocAsync, (CUdeviceptr *p, size_t bytes, CUstream s),               \
    (p, bytes, s), allocated(*p, bytes, false))                                \
  X(cuMemAllocAsync_ptsz, (CUdeviceptr *p, size_t bytes, CUstream s),          \
    (p, bytes, s), allocated(*p, bytes, false))                                \
  X(cuMemAllocHost_v2, (void **p, size_t bytes), (p, bytes),                   \
    allocated(CUdeviceptr(*p), bytes, true))                                   \
  X(cuMemHostAlloc, (void **p, size_t bytes, unsigned flags),                  \
    (p, bytes, flags), allocated(CUdeviceptr(*p), bytes, true))                \
  X(cuMemFree_v2, (CUdeviceptr p), (p), freed(p))                              \
  X(cuMemFreeAsync, (CUdeviceptr p, CUstream s), (p, s), freed(p))             \
  X(cuMemFreeAsync_ptsz, (CUdeviceptr p, CUstream s), (p, s), freed(p))        \
  X(cuMemFreeHost, (void *p), (p), freed(CUdeviceptr(p)))

/// Driver entry points the shim calls but does not serve.
#define ZLUDA_SHIM_USED(X)                                                     \
  X(cuGetProcAddress, (const char *sym, void **pfn, int version,               \
    uint64_t flags), (sym, pfn, version, flags))                               \
  X(cuGetProcAddress_v2, (const char *sym, void **pfn, int version,            \
    uint64_t flags, int *status), (sym, pfn, version, flags, status))          \
  X(cuCtxGetDevice, (CUdevice *d), (d))                                        \
  X(cuDeviceGet, (CUdevice *d, int ordinal), (d, ordinal))                     \
  X(cuDeviceGetAttribute, (int *v, int attrib, CUdevice d), (v, attrib, d))   \
  X(cuCtxSynchronize, (), ())                                                  \
  X(cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t bytes),               \
    (dst, src, bytes))                                                         \
  X(cuMemcpyHtoD_v2, (CUdeviceptr dst, const void *src, size_t bytes),         \
    (dst, src, bytes))                                                         \
  X(cuEventCreate, (CUevent *e, unsigned flags), (e, flags))                   \
  X(cuEventDestroy_v2, (CUevent e), (e))                                       \
  X(cuEventRecord, (CUevent e, CUstream s), (e, s))                            \
  X(cuEventSynchronize, (CUevent e), (e))                                      \
  X(cuEventElapsedTime, (float *ms, CUevent start, CUevent end),               \
    (ms, start, end))                                                          \
  X(cuEventElapsedTime_v2, (float *ms, CUevent start, CUevent end),            \
    (ms, start, end))
// clang-format on

#endif // ZLUDA_RUNTIME_SHIM_CUDAAPI_H
