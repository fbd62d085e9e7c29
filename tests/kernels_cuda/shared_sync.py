"""Shared memory (1-D, 2-D, 3-D) with cuda.syncthreads, the syncthreads_count/and/or votes,
and local arrays.

Every kernel writes a shared or local element before any thread reads it (CUDA leaves them
uninitialised; so does the simulator) and every thread of a block reaches every barrier.

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py).
"""
import numpy as np
from numba import cuda, float64

TPB = 64
TILE = 32
ROWS = 8
MM = 4


# A tree reduction per block: out[b] is the sum of block b's elements.
# check: block_sum[3, 64](np.arange(150, dtype=np.float64), np.zeros(3)) -> None ; arg1 == [2016.0, 6112.0, 3047.0]
@cuda.jit
def block_sum(a, out):
    sh = cuda.shared.array(TPB, dtype=np.float64)
    tid = cuda.threadIdx.x
    i = cuda.grid(1)
    if i < a.size:
        sh[tid] = a[i]
    else:
        sh[tid] = 0.0
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if tid < s:
            sh[tid] += sh[tid + s]
        cuda.syncthreads()
        s //= 2
    if tid == 0:
        out[cuda.blockIdx.x] = sh[0]


# Reverse each block's chunk through shared memory.
# check: reverse_blocks[3, 8](np.arange(24, dtype=np.int32), np.zeros(24, dtype=np.int32)) -> None ; arg1 == [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 23, 22, 21, 20, 19, 18, 17, 16]
@cuda.jit
def reverse_blocks(a, out):
    sh = cuda.shared.array(8, dtype=np.int32)
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    sh[t] = a[base + t]
    cuda.syncthreads()
    out[base + t] = sh[cuda.blockDim.x - 1 - t]


# The classic tiled transpose: a 32x33 tile (the padding column avoids bank conflicts), blocks
# of 32x8 threads each copying four rows; the matrix is smaller than a tile in one direction
# and spans two tiles in the other.
# check: transpose_tiled[(2, 1), (32, 8)](np.arange(480, dtype=np.int32).reshape(12, 40), np.zeros((40, 12), dtype=np.int32)) -> None ; arg1 == [[0, 40, 80, 120, 160, 200, 240, 280, 320, 360, 400, 440], [1, 41, 81, 121, 161, 201, 241, 281, 321, 361, 401, 441], [2, 42, 82, 122, 162, 202, 242, 282, 322, 362, 402, 442], [3, 43, 83, 123, 163, 203, 243, 283, 323, 363, 403, 443], [4, 44, 84, 124, 164, 204, 244, 284, 324, 364, 404, 444], [5, 45, 85, 125, 165, 205, 245, 285, 325, 365, 405, 445], [6, 46, 86, 126, 166, 206, 246, 286, 326, 366, 406, 446], [7, 47, 87, 127, 167, 207, 247, 287, 327, 367, 407, 447], [8, 48, 88, 128, 168, 208, 248, 288, 328, 368, 408, 448], [9, 49, 89, 129, 169, 209, 249, 289, 329, 369, 409, 449], [10, 50, 90, 130, 170, 210, 250, 290, 330, 370, 410, 450], [11, 51, 91, 131, 171, 211, 251, 291, 331, 371, 411, 451], [12, 52, 92, 132, 172, 212, 252, 292, 332, 372, 412, 452], [13, 53, 93, 133, 173, 213, 253, 293, 333, 373, 413, 453], [14, 54, 94, 134, 174, 214, 254, 294, 334, 374, 414, 454], [15, 55, 95, 135, 175, 215, 255, 295, 335, 375, 415, 455], [16, 56, 96, 136, 176, 216, 256, 296, 336, 376, 416, 456], [17, 57, 97, 137, 177, 217, 257, 297, 337, 377, 417, 457], [18, 58, 98, 138, 178, 218, 258, 298, 338, 378, 418, 458], [19, 59, 99, 139, 179, 219, 259, 299, 339, 379, 419, 459], [20, 60, 100, 140, 180, 220, 260, 300, 340, 380, 420, 460], [21, 61, 101, 141, 181, 221, 261, 301, 341, 381, 421, 461], [22, 62, 102, 142, 182, 222, 262, 302, 342, 382, 422, 462], [23, 63, 103, 143, 183, 223, 263, 303, 343, 383, 423, 463], [24, 64, 104, 144, 184, 224, 264, 304, 344, 384, 424, 464], [25, 65, 105, 145, 185, 225, 265, 305, 345, 385, 425, 465], [26, 66, 106, 146, 186, 226, 266, 306, 346, 386, 426, 466], [27, 67, 107, 147, 187, 227, 267, 307, 347, 387, 427, 467], [28, 68, 108, 148, 188, 228, 268, 308, 348, 388, 428, 468], [29, 69, 109, 149, 189, 229, 269, 309, 349, 389, 429, 469], [30, 70, 110, 150, 190, 230, 270, 310, 350, 390, 430, 470], [31, 71, 111, 151, 191, 231, 271, 311, 351, 391, 431, 471], [32, 72, 112, 152, 192, 232, 272, 312, 352, 392, 432, 472], [33, 73, 113, 153, 193, 233, 273, 313, 353, 393, 433, 473], [34, 74, 114, 154, 194, 234, 274, 314, 354, 394, 434, 474], [35, 75, 115, 155, 195, 235, 275, 315, 355, 395, 435, 475], [36, 76, 116, 156, 196, 236, 276, 316, 356, 396, 436, 476], [37, 77, 117, 157, 197, 237, 277, 317, 357, 397, 437, 477], [38, 78, 118, 158, 198, 238, 278, 318, 358, 398, 438, 478], [39, 79, 119, 159, 199, 239, 279, 319, 359, 399, 439, 479]]
@cuda.jit
def transpose_tiled(a, out):
    tile = cuda.shared.array((32, 33), dtype=np.int32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    col = cuda.blockIdx.x * TILE + tx
    row = cuda.blockIdx.y * TILE + ty
    for j in range(0, TILE, ROWS):
        if row + j < a.shape[0] and col < a.shape[1]:
            tile[ty + j, tx] = a[row + j, col]
    cuda.syncthreads()
    col = cuda.blockIdx.y * TILE + tx
    row = cuda.blockIdx.x * TILE + ty
    for j in range(0, TILE, ROWS):
        if row + j < out.shape[0] and col < out.shape[1]:
            out[row + j, col] = tile[tx, ty + j]


# Tiled matrix product with 4x4 shared tiles; A is 6x5, B is 5x7 (neither a multiple of 4).
# Integer-valued float32 entries keep every product and sum exact.
# check: matmul_tiled[(2, 2), (4, 4)](np.arange(30, dtype=np.float32).reshape(6, 5), np.arange(35, dtype=np.float32).reshape(5, 7), np.zeros((6, 7), dtype=np.float32)) -> None ; arg2 == [[210.0, 220.0, 230.0, 240.0, 250.0, 260.0, 270.0], [560.0, 595.0, 630.0, 665.0, 700.0, 735.0, 770.0], [910.0, 970.0, 1030.0, 1090.0, 1150.0, 1210.0, 1270.0], [1260.0, 1345.0, 1430.0, 1515.0, 1600.0, 1685.0, 1770.0], [1610.0, 1720.0, 1830.0, 1940.0, 2050.0, 2160.0, 2270.0], [1960.0, 2095.0, 2230.0, 2365.0, 2500.0, 2635.0, 2770.0]]
@cuda.jit
def matmul_tiled(A, B, C):
    sA = cuda.shared.array((MM, MM), dtype=np.float32)
    sB = cuda.shared.array((MM, MM), dtype=np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = np.float32(0.0)
    ntiles = (A.shape[1] + MM - 1) // MM
    for t in range(ntiles):
        k = t * MM + ty
        if x < A.shape[0] and k < A.shape[1]:
            sA[tx, ty] = A[x, k]
        else:
            sA[tx, ty] = np.float32(0.0)
        k = t * MM + tx
        if k < B.shape[0] and y < B.shape[1]:
            sB[tx, ty] = B[k, y]
        else:
            sB[tx, ty] = np.float32(0.0)
        cuda.syncthreads()
        for j in range(MM):
            acc += sA[tx, j] * sB[j, ty]
        cuda.syncthreads()
    if x < C.shape[0] and y < C.shape[1]:
        C[x, y] = acc


# Block votes: how many elements are positive, whether all are, whether any is.
# check: votes[3, 4](np.array([1.0, -2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, -1.0, -2.0, -3.0]), np.zeros(3, dtype=np.int32), np.zeros(3, dtype=np.int32), np.zeros(3, dtype=np.int32)) -> None ; arg1 == [3, 4, 0] ; arg2 == [0, 1, 0] ; arg3 == [1, 1, 0]
@cuda.jit
def votes(a, counts, alls, anys):
    i = cuda.grid(1)
    # numba-cuda takes an integer predicate (a bool is a typing error there).
    p = 0
    if i < a.size:
        p = int(a[i] > 0.0)
    c = cuda.syncthreads_count(p)
    x = cuda.syncthreads_and(p)
    y = cuda.syncthreads_or(p)
    if cuda.threadIdx.x == 0:
        b = cuda.blockIdx.x
        counts[b] = c
        alls[b] = x
        anys[b] = y


# Every thread stores its block's vote count (int32 results used in arithmetic).
# check: vote_everywhere[2, 5](np.array([0, 3, 0, 1, 1, 0, 0, 0, 0, 2]), np.zeros(10, dtype=np.int64)) -> None ; arg1 == [31, 31, 31, 31, 31, 11, 11, 11, 11, 11]
@cuda.jit
def vote_everywhere(a, out):
    i = cuda.grid(1)
    n = cuda.syncthreads_count(int(a[i] != 0))
    out[i] = n * 10 + cuda.syncthreads_or(1 if a[i] > 1 else 0)


# A 2-D shared tile with a one-element halo: a 3x3 box sum per element.
# check: box_sum[(2, 2), (4, 4)](np.array([[0, 1, 2, 3, 4, 5, 6, 0], [1, 2, 3, 4, 5, 6, 0, 1], [2, 3, 4, 5, 6, 0, 1, 2], [3, 4, 5, 6, 0, 1, 2, 3], [4, 5, 6, 0, 1, 2, 3, 4], [5, 6, 0, 1, 2, 3, 4, 5], [6, 0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 6, 0]]), np.zeros((8, 8), dtype=np.int64)) -> None ; arg1 == [[4, 9, 15, 21, 27, 26, 18, 7], [9, 18, 27, 36, 38, 33, 21, 10], [15, 27, 36, 38, 33, 21, 16, 9], [21, 36, 38, 33, 21, 16, 18, 15], [27, 38, 33, 21, 16, 18, 27, 21], [26, 33, 21, 16, 18, 27, 36, 27], [18, 21, 16, 18, 27, 36, 38, 26], [7, 10, 9, 15, 21, 27, 26, 17]]
@cuda.jit
def box_sum(a, out):
    tile = cuda.shared.array((6, 6), dtype=np.int64)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x, y = cuda.grid(2)
    n, m = a.shape
    # Each thread fills tile cells (tx + dx, ty + dy) for dx, dy in {0, 4} that fall in the tile.
    for dx in range(0, 6, 4):
        for dy in range(0, 6, 4):
            tx2 = tx + dx
            ty2 = ty + dy
            if tx2 < 6 and ty2 < 6:
                gx = cuda.blockIdx.x * 4 + tx2 - 1
                gy = cuda.blockIdx.y * 4 + ty2 - 1
                if gx >= 0 and gx < n and gy >= 0 and gy < m:
                    tile[tx2, ty2] = a[gx, gy]
                else:
                    tile[tx2, ty2] = 0
    cuda.syncthreads()
    s = 0
    for dx in range(3):
        for dy in range(3):
            s += tile[tx + dx, ty + dy]
    if x < n and y < m:
        out[x, y] = s


# A 3-D shared array: each z-slice of the block transposes its 4x4 tile.
# check: slices_3d[1, (4, 4, 2)](np.arange(32, dtype=np.int32).reshape(2, 4, 4), np.zeros((2, 4, 4), dtype=np.int32)) -> None ; arg1 == [[[0, 40, 80, 120], [10, 50, 90, 130], [20, 60, 100, 140], [30, 70, 110, 150]], [[161, 201, 241, 281], [171, 211, 251, 291], [181, 221, 261, 301], [191, 231, 271, 311]]]
@cuda.jit
def slices_3d(a, out):
    sh = cuda.shared.array((2, 4, 4), dtype=np.int32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tz = cuda.threadIdx.z
    sh[tz, ty, tx] = a[tz, ty, tx]
    cuda.syncthreads()
    out[tz, ty, tx] = sh[tz, tx, ty] * 10 + tz


# Shared memory reused across iterations: a block-wide inclusive scan (Hillis-Steele),
# double-buffered with a barrier after every step.
# check: block_scan[2, 16](np.arange(1, 33), np.zeros(32, dtype=np.int64)) -> None ; arg1 == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136, 17, 35, 54, 74, 95, 117, 140, 164, 189, 215, 242, 270, 299, 329, 360, 392]
@cuda.jit
def block_scan(a, out):
    buf = cuda.shared.array((2, 16), dtype=np.int64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[0, t] = a[i]
    cuda.syncthreads()
    src = 0
    offset = 1
    while offset < 16:
        v = buf[src, t]
        if t >= offset:
            v += buf[src, t - offset]
        buf[1 - src, t] = v
        cuda.syncthreads()
        src = 1 - src
        offset *= 2
    out[i] = buf[src, t]


# A local array per thread: load a row, prefix-sum it, write it back reversed.
# check: local_prefix[2, 2](np.arange(16).reshape(4, 4), np.zeros((4, 4), dtype=np.int64)) -> None ; arg1 == [[6, 3, 1, 0], [22, 15, 9, 4], [38, 27, 17, 8], [54, 39, 25, 12]]
@cuda.jit
def local_prefix(a, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        tmp = cuda.local.array(4, dtype=np.int64)
        for k in range(4):
            tmp[k] = a[i, k]
        for k in range(1, 4):
            tmp[k] += tmp[k - 1]
        for k in range(4):
            out[i, 3 - k] = tmp[k]


# A 2-D float32 local array as a per-thread scratch matrix (a 2x2 matrix square).
# check: local_matrix[1, 4](np.array([[1.0, 2.0, 3.0, 4.0], [0.5, 0.0, 0.0, 0.5], [2.0, -1.0, 1.0, 3.0]], dtype=np.float32), np.zeros((3, 4), dtype=np.float32)) -> None ; arg1 == [[7.0, 10.0, 15.0, 22.0], [0.25, 0.0, 0.0, 0.25], [3.0, -5.0, 5.0, 8.0]]
@cuda.jit
def local_matrix(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        m = cuda.local.array((2, 2), dtype=np.float32)
        for r in range(2):
            for c in range(2):
                m[r, c] = a[i, r * 2 + c]
        for r in range(2):
            for c in range(2):
                s = np.float32(0.0)
                for k in range(2):
                    s += m[r, k] * m[k, c]
                out[i, r * 2 + c] = s


@cuda.jit(device=True)
def block_max(v):
    # A shared array allocated in a device function: one per block as well.
    sh = cuda.shared.array(16, dtype=np.int64)
    t = cuda.threadIdx.x
    sh[t] = v
    cuda.syncthreads()
    s = 8
    while s > 0:
        if t < s:
            sh[t] = max(sh[t], sh[t + s])
        cuda.syncthreads()
        s //= 2
    best = sh[0]
    cuda.syncthreads()
    return best


# check: block_max_kernel[2, 16](np.array([5, 3, 9, 1, 4, 4, 8, 2, 7, 0, 6, 6, 3, 2, 1, 11, -5, -3, -9, -1, -4, -4, -8, -2, -7, -10, -6, -6, -3, -2, -1, -11]), np.zeros(32, dtype=np.int64)) -> None ; arg1 == [1105, 1103, 1109, 1101, 1104, 1104, 1108, 1102, 1107, 1100, 1106, 1106, 1103, 1102, 1101, 1111, -105, -103, -109, -101, -104, -104, -108, -102, -107, -110, -106, -106, -103, -102, -101, -111]
@cuda.jit
def block_max_kernel(a, out):
    i = cuda.grid(1)
    out[i] = block_max(a[i]) * 100 + a[i]


# Dynamic shared memory, sized at launch (Numba's kernel[grid, block, stream, bytes] form):
# each block reverses its slice through a buffer of blockDim.x float64s. (dtype=float64 from
# numba: the simulator mis-sizes dynamic arrays given a NumPy dtype.)
# check: dyn_reverse[2, 8, 0, 64](np.arange(16, dtype=np.float64), np.zeros(16)) -> None ; arg1 == [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0, 15.0, 14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0]
@cuda.jit
def dyn_reverse(a, out):
    buf = cuda.shared.array(0, dtype=float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = a[i]
    cuda.syncthreads()
    out[i] = buf[buf.size - 1 - t]


REV_N = 32


# Shared and local arrays typed like an argument (`dtype=ary.dtype`), as numba-cuda's tests
# write them: one specialisation per argument dtype.
# check: reverse_like[1, 32](np.arange(32, dtype=np.float32), np.zeros(32, dtype=np.float32)) -> None ; arg1 == [31.0, 30.0, 29.0, 28.0, 27.0, 26.0, 25.0, 24.0, 23.0, 22.0, 21.0, 20.0, 19.0, 18.0, 17.0, 16.0, 15.0, 14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
# check: reverse_like[1, 32](np.arange(0, 96, 3), np.zeros(32, dtype=np.int64)) -> None ; arg1 == [93, 90, 87, 84, 81, 78, 75, 72, 69, 66, 63, 60, 57, 54, 51, 48, 45, 42, 39, 36, 33, 30, 27, 24, 21, 18, 15, 12, 9, 6, 3, 0]
@cuda.jit
def reverse_like(ary, out):
    sm = cuda.shared.array(REV_N, dtype=ary.dtype)
    lm = cuda.local.array((2, 2), dtype=out.dtype)
    i = cuda.threadIdx.x
    sm[i] = ary[i]
    lm[1, 1] = ary[i] - ary[i]
    cuda.syncthreads()
    out[i] = sm[REV_N - 1 - i] + lm[1, 1]


# Shapes from locals assigned once to a constant, as numba-cuda folds them: a block reverses
# its slice through shared memory and keeps a (2, N) table in local memory.
# check: reverse_with_local_shape[2, 8](np.arange(16, dtype=np.float64), np.zeros(16)) -> None ; arg1 == [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0, 15.0, 14.0, 13.0, 12.0, 11.0, 10.0, 9.0, 8.0]
@cuda.jit
def reverse_with_local_shape(a, out):
    N = 8
    buf = cuda.shared.array(N, dtype=np.float64)
    scratch = cuda.local.array((2, N), dtype=np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    buf[t] = a[i]
    cuda.syncthreads()
    scratch[0, t] = buf[N - 1 - t]
    scratch[1, t] = 1.0
    out[i] = scratch[0, t] * scratch[1, t]


# `alignment=` (numba-cuda's): the arrays start on a 64- and 32-byte boundary.
# check: aligned_tiles[1, 16](np.arange(16, dtype=np.float32), np.zeros(16, dtype=np.float32)) -> None ; arg1 == [15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0]
@cuda.jit
def aligned_tiles(x, out):
    tile = cuda.shared.array(16, dtype=np.float32, alignment=64)
    acc = cuda.local.array(2, dtype=np.float64, alignment=32)
    i = cuda.threadIdx.x
    tile[i] = x[i]
    cuda.syncthreads()
    acc[0] = tile[i]
    acc[1] = tile[15 - i]
    out[i] = acc[0] * np.float32(2.0) + acc[1]
