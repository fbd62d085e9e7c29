"""Arrays of four or more dimensions, as image, batch and lattice code uses them: an NCHW
batch through a convolution, a per-channel bias broadcast over four dimensions, reductions
over an axis, views of a sub-volume, reshapes and transposes that add or move axes, and
arrays of five and six dimensions passed through."""

import numpy as np
from numba import njit


@njit
def conv2d_nchw(x, w):
    # Valid convolution of a batch of images (N, C, H, W) with filters (F, C, KH, KW).
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    out = np.zeros((n, f, h - kh + 1, wd - kw + 1))
    for b in range(n):
        for o in range(f):
            for i in range(h - kh + 1):
                for j in range(wd - kw + 1):
                    acc = 0.0
                    for ch in range(c):
                        for di in range(kh):
                            for dj in range(kw):
                                acc += x[b, ch, i + di, j + dj] * w[o, ch, di, dj]
                    out[b, o, i, j] = acc
    return out


# check: conv2d_nchw(np.arange(32.0).reshape(1, 2, 4, 4), np.ones((1, 2, 2, 2))) -> [[[[84.0, 92.0, 100.0], [116.0, 124.0, 132.0], [148.0, 156.0, 164.0]]]]
# check: conv2d_nchw(np.arange(24.0).reshape(2, 1, 3, 4), np.arange(4.0).reshape(1, 1, 2, 2)) -> [[[[24.0, 30.0, 36.0], [48.0, 54.0, 60.0]]], [[[96.0, 102.0, 108.0], [120.0, 126.0, 132.0]]]]


@njit
def add_channel_bias(x, bias):
    # The channel bias reshaped to (1, C, 1, 1) broadcasts over the batch and the pixels.
    return x + bias.reshape(1, bias.shape[0], 1, 1)


# check: add_channel_bias(np.zeros((2, 3, 1, 2)), np.array([1.0, 2.0, 3.0])) -> [[[[1.0, 1.0]], [[2.0, 2.0]], [[3.0, 3.0]]], [[[1.0, 1.0]], [[2.0, 2.0]], [[3.0, 3.0]]]]


@njit
def relu_scale(x, s):
    y = np.maximum(x, 0.0) * s
    return y.sum(), y.max(), y.shape[3]


# check: relu_scale(np.arange(-8.0, 16.0).reshape(2, 3, 2, 2), 0.5) -> (60.0, 7.5, 2)


@njit
def channel_means(x):
    # Mean over the batch and the pixels of each channel, written with loops and a view.
    n, c, h, w = x.shape
    out = np.empty(c)
    for ch in range(c):
        plane = x[:, ch]
        out[ch] = plane.sum() / (n * h * w)
    return out


# check: channel_means(np.arange(48.0).reshape(2, 3, 2, 4)) -> [15.5, 23.5, 31.5]


@njit
def sum_axis1(x):
    return x.sum(axis=1)


# check: sum_axis1(np.arange(16).reshape(2, 2, 2, 2)) -> [[[4, 6], [8, 10]], [[20, 22], [24, 26]]]


@njit
def to_nhwc(x):
    return np.ascontiguousarray(x.transpose(0, 2, 3, 1))


# check: to_nhwc(np.arange(12).reshape(1, 3, 2, 2)) -> [[[[0, 4, 8], [1, 5, 9]], [[2, 6, 10], [3, 7, 11]]]]


@njit
def lattice_energy(s):
    # A 4-D Ising lattice with periodic boundaries, neighbours through negative indices.
    a, b, c, d = s.shape
    e = 0
    for i in range(a):
        for j in range(b):
            for k in range(c):
                for m in range(d):
                    v = s[i, j, k, m]
                    e += v * (s[i - 1, j, k, m] + s[i, j - 1, k, m] + s[i, j, k - 1, m] + s[i, j, k, m - 1])
    return -e


# check: lattice_energy(np.ones((2, 3, 2, 2), dtype=np.int64)) -> -96
# check: lattice_energy(np.array([1, -1, 1, -1, -1, 1, -1, 1, 1, 1, -1, -1, 1, -1, -1, 1]).reshape(2, 2, 2, 2)) -> 16


@njit
def fill_5d(n):
    out = np.empty((n, 2, 2, 2, 3), dtype=np.int32)
    for i in range(n):
        for j in range(2):
            for k in range(2):
                for m in range(2):
                    for q in range(3):
                        out[i, j, k, m, q] = i * 1000 + j * 100 + k * 10 + m + q
    return out[n - 1, 1, 1], out.size, out.ndim


# check: fill_5d(2) -> ([[1110, 1111, 1112], [1111, 1112, 1113]], 48, 5)


@njit
def total_6d(x):
    t = 0.0
    for v in x.flat:
        t += v
    return t, x.ndim, len(x), x.shape[5]


# check: total_6d(np.arange(64.0).reshape(2, 2, 2, 2, 2, 2)) -> (2016.0, 6, 2, 2)


@njit
def stack_frames(a, b, c):
    # Three (H, W, 3) frames into a (3, H, W, 3) clip, then the clip's mean frame.
    clip = np.stack((a, b, c))
    return clip.shape[0], clip[1, 0, 1, 2], clip.mean()


# check: stack_frames(np.zeros((2, 2, 3)), np.arange(12.0).reshape(2, 2, 3), np.ones((2, 2, 3))) -> (3, 5.0, 2.1666666666666665)


@njit
def add_batch_axis(x):
    y = np.expand_dims(x, 0)
    return y.shape, y[0, 1, 0, 1]


# check: add_batch_axis(np.arange(8).reshape(2, 2, 2)) -> ((1, 2, 2, 2), 5)


@njit
def scale_inplace(x, k):
    # A 4-D array argument written in place through a 3-D view of each item.
    for item in x:
        item *= k
    return x[1, 0, 0, 1]


# check: scale_inplace(np.arange(8.0).reshape(2, 1, 2, 2), 3.0) -> 15.0 ; arg0 == [[[[0.0, 3.0], [6.0, 9.0]]], [[[12.0, 15.0], [18.0, 21.0]]]]


@njit
def corner(x):
    return x[-1, -1, -1, -1], x[..., 0].shape, x[0, ..., 1].sum()


# check: corner(np.arange(24).reshape(2, 3, 2, 2)) -> (23, (2, 3, 2), 36)


@njit(boundscheck=True)
def out_of_bounds(x, i):
    return x[0, 0, 0, i]


# check: out_of_bounds(np.zeros((1, 1, 1, 3)), 2) -> 0.0
# check: out_of_bounds(np.zeros((1, 1, 1, 3)), 3) raises IndexError


# ------------------------------------------------ NumPy operations on a 4-D array


@njit
def t_default(x):
    return np.ascontiguousarray(x.T)[1, 0, 2, 0], x.T.shape


# check: t_default(np.arange(48).reshape(2, 3, 2, 4)) -> (17, (4, 2, 3, 2))


@njit
def t_np(x):
    y = np.transpose(x, (3, 0, 1, 2))
    return y.copy().ravel()[:6]


# check: t_np(np.arange(48).reshape(2, 3, 2, 4)) -> [0, 4, 8, 12, 16, 20]


@njit
def flat_nc(x):
    return x[:, ::2].flatten()


# check: flat_nc(np.arange(48).reshape(2, 3, 2, 4)) -> [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 40, 41, 42, 43, 44, 45, 46, 47]


@njit
def sum_ax3(x):
    return x.sum(axis=3)


# check: sum_ax3(np.arange(48).reshape(2, 3, 2, 4)) -> [[[6, 22], [38, 54], [70, 86]], [[102, 118], [134, 150], [166, 182]]]


@njit
def argmax4(x):
    return x.argmax(), np.argmin(x)


# check: argmax4(np.arange(48).reshape(2, 3, 2, 4)) -> (47, 0)


@njit
def where4(x):
    return np.where(x > 10, x, -x).sum()


# check: where4(np.arange(48).reshape(2, 3, 2, 4)) -> 1018


@njit
def setslice(x):
    x[:, 0] = 7
    x[1, :, 1, :] = np.arange(x.shape[3])
    return x.sum()


# check: setslice(np.arange(48).reshape(2, 3, 2, 4)) -> 650


@njit
def concat2(x, y):
    return np.concatenate((x, y), axis=2).shape


# check: concat2(np.arange(48).reshape(2, 3, 2, 4), np.arange(48).reshape(2, 3, 2, 4)) -> (2, 3, 4, 4)


@njit
def reshape_neg(x):
    return x.reshape(-1, 4).sum(axis=0)


# check: reshape_neg(np.arange(48).reshape(2, 3, 2, 4)) -> [264, 276, 288, 300]


@njit
def bcast3(x, y):
    return (x * y).sum(), (x * y).shape


# check: bcast3(np.arange(48).reshape(2, 3, 2, 4), np.arange(8).reshape(2, 4)) -> (4200, (2, 3, 2, 4))


@njit
def cumsum4(x):
    return np.cumsum(x)[-1], x.mean(), x.std(), x.min()


# check: cumsum4(np.arange(48.0).reshape(2, 3, 2, 4)) -> (1128.0, 23.5, 13.853399101544236, 0.0)


@njit
def zeros_like4(x):
    z = np.zeros_like(x)
    z[...] = 3
    return z.sum(), np.empty_like(x).shape


# check: zeros_like4(np.arange(48).reshape(2, 3, 2, 4)) -> (144, (2, 3, 2, 4))


@njit
def iter_rows(x):
    t = 0
    for a in x:
        for b in a:
            t += b.sum()
    return t


# check: iter_rows(np.arange(48).reshape(2, 3, 2, 4)) -> 1128


@njit
def ndindex4(x):
    t = 0
    for idx in np.ndindex(x.shape):
        t += x[idx] * idx[3]
    return t


# check: ndindex4(np.arange(48).reshape(2, 3, 2, 4)) -> 1752


@njit
def nditer4(x):
    t = 0
    for v in np.nditer(x):
        t += v.item()
    return t


# check: nditer4(np.arange(48).reshape(2, 3, 2, 4)) -> 1128


@njit
def sort_last(x):
    return np.sort(x.ravel())[:3]


# check: sort_last(np.arange(48).reshape(2, 3, 2, 4)) -> [0, 1, 2]


@njit
def sq4(x):
    return np.sqrt(x)[1, 1, 1, 1], np.exp(x * 0.0).sum()


# check: sq4(np.arange(48.0).reshape(2, 3, 2, 4)) -> (6.082762530298219, 48.0)


@njit
def copyto4(x):
    y = x.copy()
    y += 1
    return y[0, 0, 0, 0], x[0, 0, 0, 0]


# check: copyto4(np.arange(48).reshape(2, 3, 2, 4)) -> (1, 0)


@njit
def full4():
    a = np.full((2, 1, 2, 2), 1.5)
    b = np.ones((2, 1, 2, 2), dtype=np.int32)
    return (a + b).sum()


# check: full4() -> 20.0


@njit
def astype4(x):
    return x.astype(np.float32)[1, 2, 1, 3]


# check: astype4(np.arange(48).reshape(2, 3, 2, 4)) -> 47.0


@njit
def any_all(x):
    return (x > 3).any(), (x >= 0).all(), np.count_nonzero(x)


# check: any_all(np.arange(48).reshape(2, 3, 2, 4)) -> (True, True, 47)


@njit
def channels_last(x):
    # NCHW to NHWC and back, as views, and two axes exchanged.
    y = np.moveaxis(x, 1, -1)
    z = np.moveaxis(y, (3, 0), (0, 3))
    return y.shape, y[1, 0, 1, 2], z.shape, np.swapaxes(x, 0, 3).shape, np.swapaxes(x, -1, 1)[1, 1, 0, 2]


# check: channels_last(np.arange(24).reshape(2, 3, 2, 2)) -> ((2, 2, 2, 3), 21, (3, 2, 2, 2), (2, 3, 2, 2), 21)
