"""Warp-level constructs: cuda.laneid, cuda.warpsize, cuda.activemask, warp shuffles
(shfl_down_sync, shfl_xor_sync, shfl_sync), and the cuda.fma / cuda.selp intrinsics.

Every shuffle launch uses whole warps (blocks of a multiple of 32 threads) and every thread of
a block executes every shuffle with the full mask.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py). The simulator has no warp
shuffles: the script adds a shim with PTX's semantics (see its docstring), so the shuffle
checks here rest on that shim; so does activemask, which the simulator lacks too. The
simulator's `fma` is `a * b + c` unfused, so the fma
operands are chosen with exact products (fused and unfused agree).
"""
import numpy as np
from numba import cuda

FULL = 0xFFFFFFFF


# Lane ids follow the linear thread index, also in a 2-D block.
# check: lanes[2, (8, 8)](np.zeros(128, dtype=np.int32), np.zeros(128, dtype=np.int32)) -> None ; arg0 == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] ; arg1 == [32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32000, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001, 32001]
@cuda.jit
def lanes(lane, size):
    t = cuda.threadIdx.x + cuda.blockDim.x * cuda.threadIdx.y
    g = cuda.blockIdx.x * cuda.blockDim.x * cuda.blockDim.y + t
    lane[g] = cuda.laneid
    size[g] = cuda.warpsize * 1000 + t // cuda.warpsize


# activemask() in converged code: every lane present, so a partial last warp (48 threads)
# shows only its 16 lanes.
# check: active_lanes[1, 48](np.zeros(48, dtype=np.int64)) -> None ; arg0 == [4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 4294967295, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535, 65535]
@cuda.jit
def active_lanes(out):
    i = cuda.grid(1)
    out[i] = cuda.activemask()


@cuda.jit(device=True)
def warp_total(v):
    # shfl_down_sync with halving offsets: lane 0 ends with the sum over its warp.
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(FULL, v, offset)
        offset //= 2
    return v


# A warp sum with shfl_down_sync: lane 0 of every warp writes its warp's total.
# check: warp_sum[2, 64](np.arange(128), np.zeros(4, dtype=np.int64)) -> None ; arg1 == [496, 1520, 2544, 3568]
@cuda.jit
def warp_sum(a, out):
    i = cuda.grid(1)
    v = warp_total(a[i])
    if cuda.laneid == 0:
        out[i // 32] = v


# The same over float32 (exact: small integers).
# check: warp_sum_f32[1, 64](np.arange(64, dtype=np.float32), np.zeros(2, dtype=np.float32)) -> None ; arg1 == [496.0, 1520.0]
@cuda.jit
def warp_sum_f32(a, out):
    i = cuda.grid(1)
    v = a[i]
    for k in range(5):
        v += cuda.shfl_down_sync(FULL, v, 16 >> k)
    if cuda.laneid == 0:
        out[i // 32] = v


# What each lane receives from one shfl_down_sync by 16: lanes 16..31 keep their own value.
# check: shfl_down_16[1, 32](np.arange(100, 132), np.zeros(32, dtype=np.int64)) -> None ; arg1 == [116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131]
@cuda.jit
def shfl_down_16(a, out):
    i = cuda.grid(1)
    out[i] = cuda.shfl_down_sync(FULL, a[i], 16)


# A butterfly all-reduce (max) with shfl_xor_sync: every lane ends with its warp's maximum.
# check: warp_max_xor[1, 64](np.array([3, 9, 1, 4, 15, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 26, 4, 3, 3, 8, 3, 2, 7, 9, 5, 0, 2, 8, 8, 4, 1, 9, 7, 1, 6, 9, 3, 9, 9, 3, 7, 5, 1, 0, 5, 8, 2, 0, 9, 7, 4, 9, 4, 4, 5, 9, 2, 3]), np.zeros(64, dtype=np.int64)) -> None ; arg1 == [26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 26, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]
@cuda.jit
def warp_max_xor(a, out):
    i = cuda.grid(1)
    v = a[i]
    mask = 16
    while mask > 0:
        v = max(v, cuda.shfl_xor_sync(FULL, v, mask))
        mask //= 2
    out[i] = v


# Broadcast from a lane with shfl_sync; a source past 31 wraps modulo 32.
# check: broadcast[1, 64](np.arange(64, dtype=np.float64), np.zeros(64), np.zeros(64)) -> None ; arg1 == [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0] ; arg2 == [3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0, 35.0]
@cuda.jit
def broadcast(a, from3, from35):
    i = cuda.grid(1)
    from3[i] = cuda.shfl_sync(FULL, a[i], 3)
    from35[i] = cuda.shfl_sync(FULL, a[i], 35)


# A block reduction: shuffles within warps, then shared memory across warps.
# check: block_reduce[2, 128](np.arange(256, dtype=np.int32), np.zeros(2, dtype=np.int32)) -> None ; arg1 == [8128, 24512]
@cuda.jit
def block_reduce(a, out):
    partial = cuda.shared.array(4, dtype=np.int32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    v = warp_total(a[i])
    if cuda.laneid == 0:
        partial[t // 32] = v
    cuda.syncthreads()
    if t == 0:
        out[cuda.blockIdx.x] = partial[0] + partial[1] + partial[2] + partial[3]


# Rotate values around the warp with shfl_sync and a per-lane source.
# check: rotate_warp[1, 32](np.arange(32), np.zeros(32, dtype=np.int64)) -> None ; arg1 == [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0, 1, 2, 3, 4]
@cuda.jit
def rotate_warp(a, out):
    i = cuda.grid(1)
    out[i] = cuda.shfl_sync(FULL, a[i], (cuda.laneid + 5) % 32)


# fma on float64 and float32 (products exact, so fused and unfused agree).
# check: fma_kernel[1, 8](np.array([1.5, -2.0, 0.25, 3.0, 1024.0]), np.array([2.0, 0.5, 8.0, -1.25, 0.125]), np.array([0.25, 1.0, -3.0, 0.5, 7.0]), np.zeros(5), np.zeros(5, dtype=np.float32)) -> None ; arg3 == [3.25, 0.0, -1.0, -3.25, 135.0] ; arg4 == [3.25, 0.0, -1.0, -3.25, 135.0]
@cuda.jit
def fma_kernel(a, b, c, out64, out32):
    i = cuda.grid(1)
    if i < a.size:
        out64[i] = cuda.fma(a[i], b[i], c[i])
        out32[i] = cuda.fma(np.float32(a[i]), np.float32(b[i]), np.float32(c[i]))


# selp: a branch-free select of same-typed operands.
# check: selp_kernel[1, 8](np.array([-3, 5, 0, -1, 8, -7]), np.zeros(6, dtype=np.int64), np.zeros(6)) -> None ; arg1 == [3, 5, 0, 1, 8, 7] ; arg2 == [-3.0, 5.0, 0.0, -1.0, 4.0, -7.0]
@cuda.jit
def selp_kernel(a, absval, halves):
    i = cuda.grid(1)
    if i < a.size:
        absval[i] = cuda.selp(a[i] < 0, -a[i], a[i])
        halves[i] = cuda.selp(a[i] % 2 == 0, a[i] * 0.5, a[i] * 1.0)
