"""numba.cuda.random in kernels: one xoroshiro128+ generator per thread, as Monte Carlo
kernels use it (states from create_xoroshiro128p_states; uniform and normal draws).

Expected values: Numba's CUDA simulator (verify_numba_cudasim.py), which draws with
numba.cuda.random's own code."""
import math

import numpy as np
from numba import cuda
from numba.cuda.random import (
    create_xoroshiro128p_states,
    xoroshiro128p_normal_float32,
    xoroshiro128p_uniform_float32,
    xoroshiro128p_uniform_float64,
)


# Each thread's first two float64 uniforms.
# check: uniforms64[1, 4](create_xoroshiro128p_states(4, seed=42), np.zeros(4), np.zeros(4)) -> None ; arg1 == [0.48312975754364673, 0.03927229372037966, 0.9412365399038057, 0.9836598357118856] ; arg2 == [0.29246399390385114, 0.7631504844059468, 0.13687238236790156, 0.8304090869079822]
@cuda.jit
def uniforms64(states, first, second):
    i = cuda.grid(1)
    if i < first.size:
        first[i] = xoroshiro128p_uniform_float64(states, i)
        second[i] = xoroshiro128p_uniform_float64(states, i)


# float32 uniforms, several per thread.
# check: uniforms32[2, 4](create_xoroshiro128p_states(8, seed=7), np.zeros(8, dtype=np.float32)) -> None ; arg1 == [1.905444860458374, 0.38968271017074585, 2.4146251678466797, 0.9634560346603394, 1.0302907228469849, 0.784527599811554, 0.5969799160957336, 2.218883752822876]
@cuda.jit
def uniforms32(states, out):
    i = cuda.grid(1)
    if i < out.size:
        acc = np.float32(0.0)
        for _ in range(3):
            acc += xoroshiro128p_uniform_float32(states, i)
        out[i] = acc


# The Monte Carlo estimate of pi, one count of hits per thread.
# check: pi_hits[2, 8](create_xoroshiro128p_states(16, seed=1), 100, np.zeros(16, dtype=np.int64)) -> None ; arg2 == [73, 78, 74, 74, 79, 85, 82, 85, 79, 77, 83, 83, 80, 77, 77, 81]
@cuda.jit
def pi_hits(states, n, hits):
    i = cuda.grid(1)
    if i < hits.size:
        h = 0
        for _ in range(n):
            x = xoroshiro128p_uniform_float32(states, i)
            y = xoroshiro128p_uniform_float32(states, i)
            if x * x + y * y <= 1.0:
                h += 1
        hits[i] = h


# Normal draws, rounded to 1e-4 so that libm rounding does not decide the comparison.
# check: normals[1, 4](create_xoroshiro128p_states(4, seed=3), np.zeros(4, dtype=np.float32)) -> None ; arg1 == [1.676300048828125, 0.6086000204086304, -0.5877000093460083, -0.5864999890327454]
@cuda.jit
def normals(states, out):
    i = cuda.grid(1)
    if i < out.size:
        z = xoroshiro128p_normal_float32(states, i)
        out[i] = math.floor(z * 10000.0 + 0.5) / 10000.0


# The generator advances: states written back are the next states.
# check: advance[1, 2](create_xoroshiro128p_states(2, seed=5), np.zeros(2)) -> None ; arg1 == [0.6765366563398123, 0.5698878152726884]
@cuda.jit
def advance(states, out):
    i = cuda.grid(1)
    if i < out.size:
        xoroshiro128p_uniform_float64(states, i)
        out[i] = xoroshiro128p_uniform_float64(states, i)
