"""numba-cuda's vector types (`cuda.float32x3`, `cuda.float4`, `cuda.int2`, ...), as kernels
use them: built from numbers and from other vectors, read as `.x .y .z .w`, passed to and
returned from device functions, and imported by name or by their C alias.

The values are chosen so that numba-cuda's simulator, which keeps the numbers it is given
without converting them to the vector's base type, gives the GPU's results.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import math

import numpy as np
from numba import cuda
from numba.cuda import float4, int32x2


@cuda.jit(device=True)
def cross(a, b):
    return cuda.float32x3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)


@cuda.jit(device=True)
def length(v):
    return math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z)


# The cross product of each row pair, and its length, through float3 values.
# check: cross_rows[1, 4](np.array([[1, 0, 0], [0, 2, 0], [3, 4, 0], [1, 2, 3]], dtype=np.float32), np.array([[0, 1, 0], [0, 0, 5], [0, 0, 1], [4, 5, 6]], dtype=np.float32), np.zeros((4, 4), dtype=np.float32)) -> None ; arg2 == [[0.0, 0.0, 1.0, 1.0], [10.0, 0.0, 0.0, 10.0], [4.0, -3.0, 0.0, 5.0], [-3.0, 6.0, -3.0, 7.348469257354736]]
@cuda.jit
def cross_rows(a, b, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        u = cuda.float32x3(a[i, 0], a[i, 1], a[i, 2])
        v = cuda.float3(b[i, 0], b[i, 1], b[i, 2])
        c = cross(u, v)
        out[i, 0] = c.x
        out[i, 1] = c.y
        out[i, 2] = c.z
        out[i, 3] = length(c)


# A vector built from numbers and smaller vectors: the components are taken in order.
# check: compose[1, 1](np.zeros(16, dtype=np.int64)) -> None ; arg0 == [7, 7, 1, 2, 3, 1, 2, 3, 4, 9, 1, 2, 9, 9, 9, 9]
@cuda.jit
def compose(out):
    one = cuda.int64x1(7)
    again = cuda.longlong1(one)
    pair = cuda.int64x2(1, 2)
    triple = cuda.int64x3(pair, 3)
    quad = cuda.long4(triple, 4)
    front = cuda.int64x4(9, pair, 9)
    out[0] = one.x
    out[1] = again.x
    out[2] = triple.x
    out[3] = triple.y
    out[4] = triple.z
    out[5] = quad.x
    out[6] = quad.y
    out[7] = quad.z
    out[8] = quad.w
    out[9] = front.x
    out[10] = front.y
    out[11] = front.z
    k = 12
    for v in (cuda.int64x2(front.x, front.w), cuda.int64x2(9, 9)):
        out[k] = v.x
        out[k + 1] = v.y
        k += 2


# Names imported from numba.cuda; a vector is a local value, rebuilt in a loop.
# check: accumulate[2, 4](np.arange(16, dtype=np.float64).reshape(8, 2), np.zeros((8, 4), dtype=np.float64)) -> None ; arg1 == [[0.0, 1.0, 0.0, 0.0], [2.0, 3.0, 6.0, 4.0], [4.0, 5.0, 20.0, 16.0], [6.0, 7.0, 42.0, 36.0], [8.0, 9.0, 72.0, 64.0], [10.0, 11.0, 110.0, 100.0], [12.0, 13.0, 156.0, 144.0], [14.0, 15.0, 210.0, 196.0]]
@cuda.jit
def accumulate(x, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        acc = cuda.double4(0.0, 0.0, 0.0, 0.0)
        for j in range(2):
            acc = cuda.double4(acc.x + x[i, 0] * (j == 0), acc.y + x[i, 1] * (j == 1), acc.z + x[i, 0] * x[i, 1], acc.w)
        acc = cuda.double4(acc.x, acc.y, acc.z / 2, acc.x * acc.x)
        out[i, 0] = acc.x
        out[i, 1] = acc.y
        out[i, 2] = acc.z
        out[i, 3] = acc.w


# float4 and int32x2 imported by name; integer components stored in a float array.
# check: imported_names[1, 3](np.zeros((3, 6), dtype=np.float32)) -> None ; arg0 == [[0.0, 0.5, 1.0, 1.5, 0.0, 0.0], [1.0, 1.5, 2.0, 2.5, 1.0, -1.0], [2.0, 2.5, 3.0, 3.5, 2.0, -2.0]]
@cuda.jit
def imported_names(out):
    i = cuda.threadIdx.x
    f = float4(np.float32(i), np.float32(i) + np.float32(0.5), np.float32(i + 1), np.float32(i) + np.float32(1.5))
    n = int32x2(np.int32(i), np.int32(-i))
    out[i, 0] = f.x
    out[i, 1] = f.y
    out[i, 2] = f.z
    out[i, 3] = f.w
    out[i, 4] = n.x
    out[i, 5] = n.y
