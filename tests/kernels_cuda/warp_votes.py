"""Warp votes and the rest of numba-cuda's warp and bit intrinsics: all_sync, any_sync,
eq_sync, ballot_sync, shfl_up_sync, syncwarp, lanemask_lt, popc, clz, ffs, brev, cbrt and
the fences.

Every launch uses whole warps and every thread of a block reaches every warp operation with
the full mask. Expected values: Numba's CUDA simulator, whose missing warp operations the
verify script shims with PTX's semantics (see its docstring), confirmed with --gpu against
numba-cuda on a GPU."""
import numpy as np
from numba import cuda

FULL = 0xFFFFFFFF


# Votes of a predicate that holds in part of each warp.
# check: votes[1, 64](np.zeros(64, dtype=np.int32), np.zeros(64, dtype=np.int32), np.zeros(64, dtype=np.int32), np.zeros(64, dtype=np.int32)) -> None ; arg0 == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] ; arg1 == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] ; arg2 == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] ; arg3 == [1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513, 1227133513]
@cuda.jit
def votes(all_, any_, eq, ballot):
    i = cuda.grid(1)
    lane = cuda.laneid
    # The first warp: lanes below 8; the second warp: every lane.
    p = lane < 8 or i >= 32
    all_[i] = cuda.all_sync(FULL, p)
    any_[i] = cuda.any_sync(FULL, lane > 20 and i < 32)
    eq[i] = cuda.eq_sync(FULL, p)
    ballot[i] = cuda.ballot_sync(FULL, lane % 3 == 0)


# Two half-warp groups vote apart: each lane's mask names its own half.
# check: half_ballots[1, 32](np.zeros(32, dtype=np.int32), np.zeros(32, dtype=np.int32)) -> None ; arg0 == [21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 21845, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920, 1431633920] ; arg1 == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
@cuda.jit
def half_ballots(ballot, alls):
    lane = cuda.laneid
    m = 0xFFFF if lane < 16 else 0xFFFF0000
    ballot[lane] = cuda.ballot_sync(m, lane % 2 == 0)
    alls[lane] = cuda.all_sync(m, lane < 16)


# An inclusive prefix sum inside each warp with shfl_up_sync (lanes below the offset keep
# their own value, so they add nothing).
# check: warp_scan[2, 32](np.arange(64, dtype=np.int32), np.zeros(64, dtype=np.int32)) -> None ; arg1 == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136, 153, 171, 190, 210, 231, 253, 276, 300, 325, 351, 378, 406, 435, 465, 496, 32, 65, 99, 134, 170, 207, 245, 284, 324, 365, 407, 450, 494, 539, 585, 632, 680, 729, 779, 830, 882, 935, 989, 1044, 1100, 1157, 1215, 1274, 1334, 1395, 1457, 1520]
@cuda.jit
def warp_scan(x, out):
    i = cuda.grid(1)
    v = x[i]
    lane = cuda.laneid
    d = 1
    while d < 32:
        up = cuda.shfl_up_sync(FULL, v, d)
        if lane >= d:
            v += up
        d *= 2
    out[i] = v


# Lanes below this one, and a warp-synchronous exchange through shared memory.
# check: lanes_below[1, 32](np.zeros(32, dtype=np.uint32), np.zeros(32, dtype=np.int32)) -> None ; arg0 == [0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, 8191, 16383, 32767, 65535, 131071, 262143, 524287, 1048575, 2097151, 4194303, 8388607, 16777215, 33554431, 67108863, 134217727, 268435455, 536870911, 1073741823, 2147483647] ; arg1 == [1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225, 256, 289, 324, 361, 400, 441, 484, 529, 576, 625, 676, 729, 784, 841, 900, 961, 0]
@cuda.jit
def lanes_below(mask_lt, neighbour):
    buf = cuda.shared.array(32, np.int32)
    lane = cuda.laneid
    mask_lt[lane] = cuda.lanemask_lt()
    buf[lane] = lane * lane
    cuda.syncwarp(FULL)
    neighbour[lane] = buf[(lane + 1) % 32]
    cuda.threadfence_block()
    cuda.syncwarp()


# Bit intrinsics on uint32 and int64 values.
# check: bits[1, 8](np.array([0, 1, 6, 255, 1024, 4294967295, 2147483648, 12345], dtype=np.uint32), np.zeros(8, dtype=np.uint32), np.zeros(8, dtype=np.uint32), np.zeros(8, dtype=np.uint32), np.zeros(8, dtype=np.uint32)) -> None ; arg1 == [0, 1, 2, 8, 1, 32, 1, 6] ; arg2 == [32, 31, 29, 24, 21, 0, 0, 18] ; arg3 == [0, 1, 2, 1, 11, 1, 32, 1] ; arg4 == [0, 2147483648, 1610612736, 4278190080, 2097152, 4294967295, 1, 2618032128]
@cuda.jit
def bits(x, pop, lz, fs, rev):
    i = cuda.grid(1)
    if i < x.size:
        pop[i] = cuda.popc(x[i])
        lz[i] = cuda.clz(x[i])
        fs[i] = cuda.ffs(x[i])
        rev[i] = cuda.brev(x[i])


# gpu-only: the simulator's clz counts in 32 bits whatever the type
# check: bits64[1, 4](np.array([1, 255, 1099511627776, 0], dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)) -> None ; arg1 == [1, 8, 1, 0] ; arg2 == [63, 56, 23, 64]
@cuda.jit
def bits64(x, pop, lz):
    i = cuda.grid(1)
    if i < x.size:
        pop[i] = cuda.popc(x[i])
        lz[i] = cuda.clz(x[i])


# Cube roots of exact cubes.
# gpu-only: the simulator's cbrt is `a ** (1 / 3)`, NaN for a negative `a`
# check: cube_roots[1, 4](np.array([8.0, 27.0, -64.0, 0.125]), np.zeros(4)) -> None ; arg1 == [2.0, 3.0, -4.0, 0.5]
@cuda.jit
def cube_roots(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = cuda.cbrt(x[i])
        cuda.threadfence_system()


# match_any_sync groups the lanes of a warp by value (lane % 3 here: three groups, bit masks of
# lanes 0, 3, 6, ...); match_all_sync gives the mask and True only where every lane agrees
# (the first warp compares a constant, the second warp lane // 16, which differs).
# check: matches[1, 64](np.zeros(64, dtype=np.int64), np.zeros(64, dtype=np.int64), np.zeros(64, dtype=np.int32)) -> None ; arg0 == [1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270, 613566756, 1227133513, -1840700270] ; arg1 == [-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] ; arg2 == [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
@cuda.jit
def matches(groups, all_mask, all_pred):
    i = cuda.grid(1)
    lane = i % 32
    groups[i] = cuda.match_any_sync(FULL, lane % 3)
    key = 7 if i < 32 else lane // 16
    m, p = cuda.match_all_sync(FULL, key)
    all_mask[i] = m
    all_pred[i] = 1 if p else 0


# Float values match by their bits; int64 values wider than 32 bits compare in full.
# check: float_matches[1, 32](np.array([0.5, 1.5, 0.5, 2.5, 0.5, 1.5, 0.5, 2.5, 0.5, 1.5, 0.5, 2.5, 0.5, 1.5, 0.5, 2.5, 0.5, 1.5, 0.5, 2.5, 0.5, 1.5, 0.5, 2.5, 0.5, 1.5, 0.5, 2.5, 0.5, 1.5, 0.5, 2.5]), np.zeros(32, dtype=np.int64), np.zeros(32, dtype=np.int64)) -> None ; arg1 == [1431655765, 572662306, 1431655765, -2004318072, 1431655765, 572662306, 1431655765, -2004318072, 1431655765, 572662306, 1431655765, -2004318072, 1431655765, 572662306, 1431655765, -2004318072, 1431655765, 572662306, 1431655765, -2004318072, 1431655765, 572662306, 1431655765, -2004318072, 1431655765, 572662306, 1431655765, -2004318072, 1431655765, 572662306, 1431655765, -2004318072] ; arg2 == [1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766, 1431655765, -1431655766]
@cuda.jit
def float_matches(x, by_float, by_wide):
    i = cuda.grid(1)
    by_float[i] = cuda.match_any_sync(FULL, x[i])
    wide = (i % 2) * 4294967296 + 5
    by_wide[i] = cuda.match_any_sync(FULL, wide)
