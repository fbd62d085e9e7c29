"""Atomics: add/sub/max/min/exch/cas on int32, int64, float32 and float64 arrays, in global
and shared memory, with int and tuple indices.

Every checked result is independent of the order in which threads run: integer sums, float
sums of exactly representable values, max/min, and returned old values only where each
element is touched by one thread (exch, cas) or the final value is order-free (a CAS loop).

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda

NBINS = 8


# A histogram with global atomics (int32 bins, int64 data used as the index).
# check: histogram[2, 32](np.array([0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 3, 3, 3, 0, 1, 5, 5, 5, 5, 2, 6, 6, 1, 0, 4, 4, 2, 7, 3, 1, 1, 1, 0, 6, 2, 5, 5, 3, 7, 0]), np.zeros(8, dtype=np.int32)) -> None ; arg1 == [5, 6, 4, 6, 3, 7, 4, 5]
@cuda.jit
def histogram(data, bins):
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(bins, data[i], 1)


# A histogram privatised in shared memory per block, then merged with global atomics.
# check: histogram_shared[3, 16](np.array([0, 1, 2, 3, 4, 5, 6, 7, 7, 7, 3, 3, 3, 0, 1, 5, 5, 5, 5, 2, 6, 6, 1, 0, 4, 4, 2, 7, 3, 1, 1, 1, 0, 6, 2, 5, 5, 3, 7, 0]), np.zeros(8, dtype=np.int64)) -> None ; arg1 == [5, 6, 4, 6, 3, 7, 4, 5]
@cuda.jit
def histogram_shared(data, bins):
    local = cuda.shared.array(NBINS, dtype=np.int64)
    t = cuda.threadIdx.x
    if t < NBINS:
        local[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < data.size:
        cuda.atomic.add(local, data[i], 1)
    cuda.syncthreads()
    if t < NBINS:
        cuda.atomic.add(bins, t, local[t])


# Sum and extremes of int64, int32 and float64 arrays (float sums of multiples of 1/4 are
# exact in any order); atomic.sub counts down from the size.
# check: stats[2, 8](np.array([5, -3, 12, 7, 0, -8, 22, 4, 9, -1, 3]), np.array([0, -1000, 1000, 11])) -> None ; arg1 == [50, 22, -8, 0]
# check: stats[1, 16](np.array([5, -3, 12, 7, 0, -8, 22, 4, 9, -1, 3], dtype=np.int32), np.array([0, -1000, 1000, 11], dtype=np.int32)) -> None ; arg1 == [50, 22, -8, 0]
# check: stats[2, 4](np.array([0.25, -1.5, 3.75, 2.0, -0.5, 8.25, 1.0]), np.array([0.0, -1e30, 1e30, 7.0])) -> None ; arg1 == [13.25, 8.25, -1.5, 0.0]
@cuda.jit
def stats(a, res):
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.add(res, 0, a[i])
        cuda.atomic.max(res, 1, a[i])
        cuda.atomic.min(res, 2, a[i])
        cuda.atomic.sub(res, 3, 1)


# check: float32_sum[2, 8](np.array([0.5, 1.25, -2.0, 4.0, 0.75, 3.5, -1.25, 2.0, 0.25, 6.0], dtype=np.float32), np.zeros(2, dtype=np.float32)) -> None ; arg1 == [15.0, -30.0]
@cuda.jit
def float32_sum(a, res):
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.add(res, 0, a[i])
        cuda.atomic.sub(res, 1, a[i] * np.float32(2.0))


# atomic.max/min of float32 with negative values.
# check: float32_extremes[1, 8](np.array([-0.5, -7.25, -3.0, -0.125, -9.5], dtype=np.float32), np.array([-100.0, 100.0], dtype=np.float32)) -> None ; arg1 == [-0.125, -9.5]
@cuda.jit
def float32_extremes(a, res):
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.max(res, 0, a[i])
        cuda.atomic.min(res, 1, a[i])


# Returned old values: each thread exchanges its own slot.
# check: exchange[2, 4](np.arange(10, 18), np.zeros(8, dtype=np.int64)) -> None ; arg0 == [0, 1, 4, 9, 16, 25, 36, 49] ; arg1 == [10, 11, 12, 13, 14, 15, 16, 17]
@cuda.jit
def exchange(slots, old):
    i = cuda.grid(1)
    if i < slots.size:
        old[i] = cuda.atomic.exch(slots, i, i * i)


# Compare-and-swap on a thread's own slot: it swaps only where the slot holds i % 3.
# check: cas_slots[1, 8](np.array([0, 5, 2, 0, 1, 9, 0, 1], dtype=np.int32), np.zeros(8, dtype=np.int32)) -> None ; arg0 == [100, 5, 102, 103, 104, 9, 106, 107] ; arg1 == [0, 5, 2, 0, 1, 9, 0, 1]
@cuda.jit
def cas_slots(slots, old):
    i = cuda.grid(1)
    if i < slots.size:
        old[i] = cuda.atomic.cas(slots, i, i % 3, 100 + i)


# A maximum by a CAS loop: the final value does not depend on the order.
# check: cas_max[2, 8](np.array([3, 17, -4, 8, 17, 25, 1, 0, 24, 9, 12]), np.array([-1000])) -> None ; arg1 == [25]
@cuda.jit
def cas_max(a, res):
    i = cuda.grid(1)
    if i < a.size:
        v = a[i]
        old = res[0]
        while old < v:
            prev = cuda.atomic.cas(res, 0, old, v)
            if prev == old:
                break
            old = prev


# Tuple indices into a 2-D counter array, and a negative index that wraps.
# check: grid_counts[(2, 2), (3, 3)](np.zeros((3, 3), dtype=np.int32), np.zeros(4, dtype=np.int64)) -> None ; arg0 == [[4, 4, 4], [4, 4, 4], [4, 4, 4]] ; arg1 == [15, 0, 0, 36]
@cuda.jit
def grid_counts(counts, last):
    x, y = cuda.grid(2)
    cuda.atomic.add(counts, (x % 3, y % 3), 1)
    cuda.atomic.add(last, -1, 1)
    if x == y:
        cuda.atomic.add(last, 0, x)


# Shared-memory float64 accumulation per block, then one global add per block.
# check: block_dot[3, 8](np.array([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0]), np.array([2.0, 2.0, 2.0, 2.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0, 1.0, 1.0, 4.0, 4.0, 4.0, 4.0, 0.25, 0.25, 0.25, 0.25]), np.zeros(1)) -> None ; arg2 == [162.75]
@cuda.jit
def block_dot(a, b, res):
    acc = cuda.shared.array(1, dtype=np.float64)
    if cuda.threadIdx.x == 0:
        acc[0] = 0.0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.add(acc, 0, a[i] * b[i])
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        cuda.atomic.add(res, 0, acc[0])


# The bitwise atomics (order-independent: and/or/xor of every thread's bit commute).
# check: bitwise_flags[1, 16](np.arange(16, dtype=np.int64), np.array([-1, 0, 0], dtype=np.int64)) -> None ; arg1 == [-65536, 1431655765, 48]
@cuda.jit
def bitwise_flags(x, res):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.and_(res, 0, ~(1 << x[i]))
        cuda.atomic.or_(res, 1, 1 << (2 * x[i]))
        cuda.atomic.xor(res, 2, x[i] * 3)


# atomic.inc wraps a uint32 counter at its limit; atomic.dec counts down to the limit again.
# check: ring_counter[1, 10](np.zeros(2, dtype=np.uint32)) -> None ; arg0 == [2, 0]
@cuda.jit
def ring_counter(c):
    i = cuda.grid(1)
    if i < 10:
        cuda.atomic.inc(c, 0, np.uint32(3))
        cuda.atomic.dec(c, 1, np.uint32(4))


# Unsigned max and min above 2**31.
# check: unsigned_extremes[1, 4](np.array([3000000000, 5, 4000000000, 7], dtype=np.uint32), np.array([0, 4294967295], dtype=np.uint32)) -> None ; arg1 == [4000000000, 5]
@cuda.jit
def unsigned_extremes(x, res):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.max(res, 0, x[i])
        cuda.atomic.min(res, 1, x[i])


# atomic.max/min on floats with NaN on both sides: a NaN element stays (max and min skip a
# NaN on either side), while nanmax/nanmin treat NaN as missing and replace a NaN element.
# Each thread owns one slot, so the order of the updates does not matter.
# check: nan_extremes[1, 4](np.array([np.nan, 2.0, np.nan, 5.0]), np.array([1.0, np.nan, np.nan, 3.0]), np.zeros(4), np.zeros(4), np.zeros(4), np.zeros(4), np.zeros(16)) -> None ; arg2 == [math.nan, 2.0, math.nan, 5.0] ; arg3 == [math.nan, 2.0, math.nan, 3.0] ; arg4 == [1.0, 2.0, math.nan, 5.0] ; arg5 == [1.0, 2.0, math.nan, 3.0] ; arg6 == [math.nan, math.nan, math.nan, math.nan, 2.0, 2.0, 2.0, 2.0, math.nan, math.nan, math.nan, math.nan, 5.0, 5.0, 5.0, 5.0]
@cuda.jit
def nan_extremes(start, val, mx, mn, nmx, nmn, olds):
    i = cuda.grid(1)
    if i < start.size:
        mx[i] = start[i]
        mn[i] = start[i]
        nmx[i] = start[i]
        nmn[i] = start[i]
        olds[4 * i] = cuda.atomic.max(mx, i, val[i])
        olds[4 * i + 1] = cuda.atomic.min(mn, i, val[i])
        olds[4 * i + 2] = cuda.atomic.nanmax(nmx, i, val[i])
        olds[4 * i + 3] = cuda.atomic.nanmin(nmn, i, val[i])


# nanmax/nanmin as a reduction that skips missing readings, float32 and int64, tuple index.
# check: nan_range[2, 8](np.array([3.5, np.nan, -2.0, 7.25, np.nan, 0.5, 9.0, -6.5, np.nan, 1.0], dtype=np.float32), np.array([[np.nan, np.nan]], dtype=np.float32)) -> None ; arg1 == [[9.0, -6.5]]
@cuda.jit
def nan_range(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.nanmax(out, (0, 0), x[i])
        cuda.atomic.nanmin(out, (0, 1), x[i])


# check: int_nan_range[1, 8](np.array([4, -9, 17, 3, 0, 12]), np.array([0, 0])) -> None ; arg1 == [17, -9]
@cuda.jit
def int_nan_range(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.nanmax(out, 0, x[i])
        cuda.atomic.nanmin(out, 1, x[i])
