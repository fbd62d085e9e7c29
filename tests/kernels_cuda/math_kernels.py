"""math.* in kernels, float64 and float32 (a float32 argument gives a float32 result).

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py), which evaluates math.* in
float64 even for float32 arguments; tests/corpus_kernels_interp.rs therefore compares float32
results of these kernels within 1e-6 relative (float64 within 1e-12).
"""
import math
import numpy as np
from numba import cuda


# check: exp_log[1, 8](np.array([0.0, 0.5, 1.0, 2.0, -1.5, 10.0, 0.001]), np.zeros(7), np.zeros(7)) -> None ; arg1 == [1.0, 1.6487212707001282, 2.718281828459045, 7.38905609893065, 0.22313016014842982, 22026.465794806718, 1.0010005001667084] ; arg2 == [0.6931471805599453, 0.9740769841801067, 1.3132616875182228, 2.1269280110429727, 0.20141327798275246, 10.000045398899218, 0.6936473055599401]
@cuda.jit
def exp_log(x, e, l):
    i = cuda.grid(1)
    if i < x.size:
        e[i] = math.exp(x[i])
        l[i] = math.log(math.exp(x[i]) + 1.0)


# check: trig[1, 8](np.array([0.0, 0.5, 1.0, -2.0, 3.14159, 10.0]), np.zeros(6), np.zeros(6), np.zeros(6)) -> None ; arg1 == [0.0, 0.479425538604203, 0.8414709848078965, -0.9092974268256817, 2.65358979335273e-06, -0.5440211108893698] ; arg2 == [1.0, 0.8775825618903728, 0.5403023058681398, -0.4161468365471424, -0.9999999999964793, -0.8390715290764524] ; arg3 == [0.0, 0.46211715726000974, 0.7615941559557649, -0.9640275800758169, 0.9962720564728148, 0.9999999958776927]
@cuda.jit
def trig(x, s, c, t):
    i = cuda.grid(1)
    if i < x.size:
        s[i] = math.sin(x[i])
        c[i] = math.cos(x[i])
        t[i] = math.tanh(x[i])


# check: roots_powers[1, 8](np.array([0.0, 1.0, 2.0, 9.0, 0.25, 1e6]), np.zeros(6), np.zeros(6)) -> None ; arg1 == [0.0, 1.0, 1.4142135623730951, 3.0, 0.5, 1000.0] ; arg2 == [0.0, 1.0, 2.8284271247461903, 27.0, 0.125, 1000000000.0]
@cuda.jit
def roots_powers(x, r, p):
    i = cuda.grid(1)
    if i < x.size:
        r[i] = math.sqrt(x[i])
        p[i] = math.pow(x[i], 1.5)


# math.floor returns an integer.
# check: floors[1, 8](np.array([2.5, -2.5, 0.0, -0.1, 7.99, -7.99, 3.0]), np.zeros(7, dtype=np.int64), np.zeros(7)) -> None ; arg1 == [2, -3, 0, -1, 7, -8, 3] ; arg2 == [5.5, 0.5, 0.0, 0.1, 15.99, 0.9900000000000002, 6.0]
@cuda.jit
def floors(x, f, a):
    i = cuda.grid(1)
    if i < x.size:
        f[i] = math.floor(x[i])
        a[i] = math.fabs(x[i]) + math.ceil(x[i])


# check: polar[1, 8](np.array([1.0, 0.0, -1.0, 3.0, -2.0, 0.5]), np.array([0.0, 1.0, 1.0, -4.0, -2.0, 0.5]), np.zeros(6), np.zeros(6)) -> None ; arg2 == [1.0, 1.0, 1.4142135623730951, 5.0, 2.8284271247461903, 0.7071067811865476] ; arg3 == [0.0, 1.5707963267948966, 2.356194490192345, -0.9272952180016122, -2.356194490192345, 0.7853981633974483]
@cuda.jit
def polar(x, y, r, theta):
    i = cuda.grid(1)
    if i < x.size:
        r[i] = math.hypot(x[i], y[i])
        theta[i] = math.atan2(y[i], x[i])


# float32 in, float32 math, float32 out.
# check: sigmoid_f32[2, 4](np.array([-4.0, -1.0, -0.5, 0.0, 0.5, 1.0, 4.0], dtype=np.float32), np.zeros(7, dtype=np.float32)) -> None ; arg1 == [0.01798621006309986, 0.2689414322376251, 0.3775406777858734, 0.5, 0.622459352016449, 0.7310585975646973, 0.9820137619972229]
@cuda.jit
def sigmoid_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = np.float32(1.0) / (np.float32(1.0) + math.exp(-x[i]))


# check: sqrt_f32[1, 8](np.array([0.0, 1.0, 2.0, 3.0, 0.5, 100.0, 1e-4], dtype=np.float32), np.zeros(7, dtype=np.float32)) -> None ; arg1 == [0.0, 1.0, 1.4142135381698608, 1.7320507764816284, 0.7071067690849304, 10.0, 0.009999999776482582]
@cuda.jit
def sqrt_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = math.sqrt(x[i])


# A Gaussian: exp of a float64 expression over a grid-stride loop.
# check: gaussian[2, 2](np.array([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0]), 0.5, 1.25, np.zeros(8)) -> None ; arg3 == [0.04319277321055045, 0.1553488439865704, 0.2317532422091862, 0.29461611224265866, 0.3191538243211462, 0.29461611224265866, 0.1553488439865704, 0.04319277321055045]
@cuda.jit
def gaussian(x, mu, sigma, out):
    start = cuda.grid(1)
    for i in range(start, x.size, cuda.gridsize(1)):
        z = (x[i] - mu) / sigma
        out[i] = math.exp(-0.5 * z * z) / (sigma * math.sqrt(2.0 * math.pi))


# log/exp/pow on int64 inputs: the int becomes float64.
# check: int_math[1, 8](np.array([1, 2, 3, 10, 100]), np.zeros(5), np.zeros(5)) -> None ; arg1 == [0.0, 0.6931471805599453, 1.0986122886681098, 2.302585092994046, 4.605170185988092] ; arg2 == [1.0717734625362931, 1.148698354997035, 1.2311444133449163, 2.0, 1024.0]
@cuda.jit
def int_math(n, lg, pw):
    i = cuda.grid(1)
    if i < n.size:
        lg[i] = math.log(n[i])
        pw[i] = math.pow(2.0, n[i] / 10)


# Softplus with a branch for large inputs, log1p-free.
# check: softplus[1, 8](np.array([-30.0, -2.0, 0.0, 1.0, 5.0, 25.0, 40.0]), np.zeros(7)) -> None ; arg1 == [9.348077867343381e-14, 0.1269280110429726, 0.6931471805599453, 1.3132616875182228, 5.006715348489118, 25.000000000013888, 40.0]
@cuda.jit
def softplus(x, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        if v > 30.0:
            out[i] = v
        else:
            out[i] = math.log(1.0 + math.exp(v))


# A float32 rotation with float32 trig.
# check: rotate_f32[1, 8](np.array([1.0, 0.0, 2.0, -1.0, 0.5], dtype=np.float32), np.array([0.0, 1.0, 2.0, 1.0, -0.5], dtype=np.float32), np.float32(0.5), np.zeros(5, dtype=np.float32), np.zeros(5, dtype=np.float32)) -> None ; arg3 == [0.8775825500488281, -0.4794255495071411, 0.796314001083374, -1.3570080995559692, 0.6785040497779846] ; arg4 == [0.4794255495071411, 0.8775825500488281, 2.7140161991119385, 0.398157000541687, -0.1990785002708435]
@cuda.jit
def rotate_f32(x, y, angle, ox, oy):
    i = cuda.grid(1)
    if i < x.size:
        c = math.cos(angle)
        s = math.sin(angle)
        ox[i] = c * x[i] - s * y[i]
        oy[i] = s * x[i] + c * y[i]


# IEEE remainder: the quotient rounds to nearest, ties to even (5.5 / 1.0 -> 6, so -0.5).
# check: remainders[1, 8](np.array([5.5, 4.5, -7.0, 10.0, 1e10, 0.75]), np.array([1.0, 1.0, 3.0, 4.0, 3.0, 0.5]), np.zeros(6)) -> None ; arg2 == [-0.5, 0.5, -1.0, 2.0, 1.0, -0.25]
@cuda.jit
def remainders(x, y, r):
    i = cuda.grid(1)
    if i < x.size:
        r[i] = math.remainder(x[i], y[i])
