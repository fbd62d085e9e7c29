"""Complex numbers: literals, complex(), arithmetic with Numba's promotion, abs, the parts,
comparisons, powers and the cmath functions, as scalars, arguments and results, and in
arrays of complex64/complex128."""

import cmath
import math

import numpy as np
from numba import njit


@njit
def rotate(z, degrees):
    return z * cmath.exp(1j * math.radians(degrees))


# check: rotate(1.0 + 0.0j, 90.0) -> (6.123233995736766e-17+1j)
# check: rotate(2.0 + 1.0j, 45.0) -> (0.7071067811865477+2.1213203435596424j)


@njit
def mandel_escape(x, y, max_iters):
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return 255


# check: mandel_escape(-0.5, 0.5, 50) -> 255
# check: mandel_escape(0.5, 0.5, 50) -> 4
# check: mandel_escape(-1.0, 0.3, 50) -> 34


@njit
def magnitude(z):
    return abs(z)


# check: magnitude(3 + 4j) -> 5.0
# check: magnitude(np.complex64(1 - 1j)) -> 1.4142135381698608
# check: magnitude(-2.5) -> 2.5


@njit
def parts(z):
    return z.real, z.imag, z.conjugate()


# check: parts(1.5 - 2j) -> (1.5, -2.0, (1.5+2j))
# check: parts(np.complex64(0.25 + 4j)) -> (0.25, 4.0, (0.25-4j))
# check: parts(3) -> (3, 0, 3)
# check: parts(2.5) -> (2.5, 0.0, 2.5)


@njit
def quotient(a, b):
    return a / b


# check: quotient(1 + 2j, 3 - 4j) -> (-0.2+0.4j)
# check: quotient(1 + 2j, 2) -> (0.5+1j)
# check: quotient(4.0, 1j) -> -4j
# check: quotient(1j, 0j) raises ZeroDivisionError: complex division by zero
# check: quotient(np.complex64(1 + 1j), np.float32(4.0)) -> (0.25+0.25j)


@njit
def mixed(a, b):
    return a + b, a - b, a * b


# check: mixed(1 + 2j, 3) -> ((4+2j), (-2+2j), (3+6j))
# check: mixed(2.5, -1j) -> ((2.5-1j), (2.5+1j), -2.5j)
# check: mixed(np.complex64(1 + 1j), np.int8(2)) -> ((3+1j), (-1+1j), (2+2j))
# check: mixed(np.complex64(1 + 1j), np.int64(2)) -> ((3+1j), (-1+1j), (2+2j))


@njit
def power(z, p):
    return z**p


# check: power(1 + 2j, 2) -> (-3+4j)
# check: power(1 + 2j, 3) -> (-11.000000000000004-1.9999999999999973j)
# check: power(1 + 2j, 0.5) -> (1.272019649514069+0.7861513777574233j)
# check: power(2.0, 1j) -> (0.7692389013639721+0.6389612763136348j)
# check: power(0j, 0) -> (1+0j)
# check: power(0j, 2.5) -> 0j
# check: power(1j, 1j) -> (0.20787957635076193+0j)


# The builtin `pow` of complex numbers, elementwise over arrays (as numba-cuda's tests write it).
@njit
def pow_pairs(x, y, out):
    for i in range(len(out)):
        out[i] = pow(x[i], y[i])
    return out


# check: pow_pairs(np.array([1 + 2j, 2.0, 1j]), np.array([0.5 - 1j, 2 + 0j, 3 + 0j]), np.zeros(3, dtype=np.complex128)) -> [(4.382565059863358-1.1243974773611554j), (4+0j), (-1.8369701987210297e-16-1j)]


@njit
def same(a, b):
    return a == b, a != b


# check: same(1 + 2j, 1 + 2j) -> (True, False)
# check: same(1 + 0j, 1.0) -> (True, False)
# check: same(1 + 1j, 1) -> (False, True)


@njit
def truthy(z):
    if z:
        return 1
    return 0


# check: truthy(0j) -> 0
# check: truthy(1e-300j) -> 1


@njit
def negate(z):
    return -z, +z


# check: negate(1 - 2j) -> ((-1+2j), (1-2j))


@njit
def roots(a, b, c):
    d = cmath.sqrt(b * b - 4 * a * c)
    return (-b + d) / (2 * a), (-b - d) / (2 * a)


# check: roots(1.0, 2.0, 5.0) -> ((-1+2j), (-1-2j))
# check: roots(1.0, -3.0, 2.0) -> ((2+0j), (1+0j))


@njit
def square_root(z):
    return cmath.sqrt(z)


# check: square_root(-4 + 0j) -> 2j
# check: square_root(3 + 4j) -> (2+1j)
# check: square_root(-3 - 4j) -> (1-2j)
# check: square_root(0j) -> 0j
# check: square_root(complex(math.inf, 1.0)) -> complex(math.inf, 0.0)
# check: square_root(np.complex64(2j)) -> (1+1j)
# check: square_root(2.0) -> (1.4142135623730951+0j)


@njit
def exp_log(z):
    return cmath.exp(z), cmath.log(z), cmath.log10(z)


# check: exp_log(1 + 1j) -> ((1.4686939399158851+2.2873552871788423j), (0.3465735902799727+0.7853981633974483j), (0.1505149978319906+0.3410940884604603j))
# check: exp_log(-1 + 0j) -> ((0.36787944117144233+0j), 3.141592653589793j, 1.3643763538418412j)


@njit
def log_base(z, base):
    return cmath.log(z, base)


# check: log_base(8 + 0j, 2 + 0j) -> (3+0j)


@njit
def polar_form(z):
    r, phi = cmath.polar(z)
    return r, phi, cmath.phase(z), cmath.rect(r, phi)


# check: polar_form(1 + 1j) -> (1.4142135623730951, 0.7853981633974483, 0.7853981633974483, (1.0000000000000002+1j))
# check: polar_form(-2 + 0j) -> (2.0, 3.141592653589793, 3.141592653589793, (-2+2.4492935982947064e-16j))


@njit
def trig(z):
    return cmath.sin(z), cmath.cos(z), cmath.tan(z)


# check: trig(0.5 + 0.25j) -> ((0.494485780933195+0.22168816414957482j), (0.9051501505596068-0.12110879604381165j), (0.504500702698564+0.31242069250258875j))


@njit
def hyperbolic(z):
    return cmath.sinh(z), cmath.cosh(z), cmath.tanh(z)


# check: hyperbolic(0.5 + 0.25j) -> ((0.504895714387995+0.2789791283502615j), (1.0925708047319176+0.12892104172809826j), (0.4854872810241353+0.19805544995134958j))


@njit
def classify(z):
    return cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z)


# check: classify(1 + 2j) -> (False, False, True)
# check: classify(complex(math.nan, 1.0)) -> (True, False, False)
# check: classify(complex(1.0, math.inf)) -> (False, True, False)


@njit
def widen(x):
    return complex(x), np.complex128(x), np.complex64(x)


# check: widen(3) -> ((3+0j), (3+0j), (3+0j))
# check: widen(0.5) -> ((0.5+0j), (0.5+0j), (0.5+0j))


@njit
def accumulate(n):
    acc = 0j
    for k in range(n):
        acc += complex(k, -k) / (k + 1)
    return acc


# check: accumulate(5) -> (2.716666666666667-2.716666666666667j)


@njit
def dft_bin(x, k):
    n = x.shape[0]
    acc = 0j
    for t in range(n):
        acc += x[t] * cmath.exp(-2j * math.pi * k * t / n)
    return acc


# check: dft_bin(np.array([1.0, 2.0, 3.0, 4.0]), 1) -> (-2.0000000000000004+1.9999999999999996j)
# check: dft_bin(np.array([1.0, 2.0, 3.0, 4.0]), 0) -> (10+0j)


@njit
def complex_sum(a):
    s = 0j
    for i in range(a.shape[0]):
        s += a[i]
    return s


# check: complex_sum(np.array([1 + 1j, 2 - 3j, 0.5j])) -> (3-1.5j)
# check: complex_sum(np.array([1 + 1j, 2 - 3j], dtype=np.complex64)) -> (3-2j)


@njit
def scale_into(a, out, s):
    for i in range(a.shape[0]):
        out[i] = a[i] * s


# check: scale_into(np.array([1 + 1j, 2j]), np.zeros(2, dtype=np.complex128), 2j) -> None ; arg1 == [(-2+2j), (-4+0j)]


@njit
def unit_circle(n):
    out = np.zeros(n, dtype=np.complex128)
    for k in range(n):
        out[k] = cmath.rect(1.0, 2 * math.pi * k / n)
    return out


# check: unit_circle(4) -> [(1+0j), (6.123233995736766e-17+1j), (-1+1.2246467991473532e-16j), (-1.8369701987210297e-16-1j)]


@njit
def filled(n, z):
    a = np.full(n, z)
    b = np.zeros_like(a)
    c = a.copy()
    for i in range(n):
        b[i] = a[i] * (i + 1)
    c[0] = -c[0]
    return b, c


# check: filled(3, 1 - 1j) -> ([(1-1j), (2-2j), (3-3j)], [(-1+1j), (1-1j), (1-1j)])


@njit
def single_precision(z, w):
    return z * w + np.complex64(0.5j), abs(z), z / w


# check: single_precision(np.complex64(1 + 2j), np.complex64(0.5 - 0.25j)) -> ((1+1.25j), 2.2360680103302, 4j)


@njit
def as_list(n):
    out = []
    for k in range(n):
        out.append(complex(k, k * k))
    return out


# check: as_list(3) -> [0j, (1+1j), (2+4j)]


@njit
def reverse_view(a):
    b = a[::-1]
    return b[0], a.shape[0], a.itemsize


# check: reverse_view(np.array([1j, 2j, 3 + 3j])) -> ((3+3j), 3, 16)


@njit
def inverse_trig(z):
    return cmath.acos(z), cmath.asin(z), cmath.atan(z)


# check: inverse_trig(0.5 + 0.25j) -> ((1.069187473519396-0.28139605624529274j), (0.5016088532755008+0.28139605624529274j), (0.4842544903299662+0.20058661813123432j))
# check: inverse_trig(-2.0 - 3.0j) -> ((2.141449111115996+1.9833870299165355j), (-0.5706527843210994-1.9833870299165355j), (-1.4099210495965755-0.22907268296853878j))
# check: inverse_trig(complex(1e300, 1.0)) -> ((1e-300-691.4686750787737j), (1.5707963267948966+691.4686750787737j), (1.5707963267948966+0j))


@njit
def inverse_hyperbolic(z):
    return cmath.acosh(z), cmath.asinh(z), cmath.atanh(z)


# check: inverse_hyperbolic(0.5 + 0.25j) -> ((0.28139605624529274+1.069187473519396j), (0.4926756834207706+0.2243284526346675j), (0.5003700000525311+0.3143981432077165j))
# check: inverse_hyperbolic(-2.0 + 3.0j) -> ((1.9833870299165355+2.141449111115996j), (-1.9686379257930964+0.9646585044076028j), (-0.14694666622552977+1.3389725222944935j))
# check: inverse_hyperbolic(1.0 + 0j) -> (0j, (0.881373587019543+0j), complex(math.inf, 0.0))
# check: inverse_hyperbolic(complex(1e300, -1e300)) -> ((691.8152486690536-0.7853981633974483j), (691.8152486690536-0.7853981633974483j), (4.999999999999999e-301-1.5707963267948966j))


@njit
def tuple_total(t):
    return sum(t)


# check: tuple_total((1, 2, 3j)) -> (3+3j)
# check: tuple_total((0.5, np.complex64(1j))) -> (0.5+1j)


@njit
def membership(z):
    return z in (1j, 2j, 3 + 0j), (1j, z) == (1j, 2j)


# check: membership(2j) -> (True, True)
# check: membership(3) -> (True, False)


@njit
def made(n):
    a = np.ones(n, dtype=np.complex64)
    e = np.eye(2, dtype=np.complex128)
    o = np.ones_like(e)
    f = np.arange(n).astype(np.complex128)
    return a, e, o, f


# check: made(3) -> ([(1+0j), (1+0j), (1+0j)], [[(1+0j), 0j], [0j, (1+0j)]], [[(1+0j), (1+0j)], [(1+0j), (1+0j)]], [0j, (1+0j), (2+0j)])


@njit
def kinds(x):
    return isinstance(x, complex), isinstance(x, float)


# check: kinds(1j) -> (True, False)
# check: kinds(1.5) -> (False, True)


@njit
def from_literal(z):
    a = np.array([1.0, z, 2])
    return a, a[1]


# check: from_literal(2 - 1j) -> ([(1+0j), (2-1j), (2+0j)], (2-1j))


@njit
def array_arithmetic(a, b):
    c = a * b + 1j
    d = -c / (b + 2)
    return c, d, c == d, a * 2.5


# check: array_arithmetic(np.array([1 + 1j, 2j, 3.0 + 0j]), np.array([1.0, -2.0, 0.5])) raises ZeroDivisionError
# check: array_arithmetic(np.array([1 + 1j, -1j], dtype=np.complex64), np.array([2, 3])) -> ([(2+3j), -2j], [(-0.5-0.75j), 0.4j], [False, False], [(2.5+2.5j), -2.5j])


@njit
def rotate_all(z, theta):
    w = z.copy()
    w *= cmath.exp(1j * theta)
    return w


# check: rotate_all(np.array([1 + 0j, 0 + 1j, 1 + 1j]), 0.5) -> [(0.8775825618903728+0.479425538604203j), (-0.479425538604203+0.8775825618903728j), (0.39815702328616975+1.3570081004945758j)]


@njit
def divide_arrays(a, b):
    return a / b


# check: divide_arrays(np.array([1 + 2j, 3j]), np.array([1j, 0j])) raises ZeroDivisionError: complex division by zero


@njit
def numpy_scalar_forms(z):
    return np.abs(z), np.sqrt(z), np.exp(z), np.real(z), np.imag(z), np.conj(z), np.angle(z)


# check: numpy_scalar_forms(3 + 4j) -> (5.0, (2+1j), (-13.128783081462158-15.200784463067954j), 3.0, 4.0, (3-4j), 0.9272952180016122)
# check: numpy_scalar_forms(np.complex64(-1j)) -> (1.0, (0.7071067690849304-0.7071067690849304j), (0.5403022766113281-0.8414709568023682j), -0.0, -1.0, (-0+1j), -1.5707963705062866)


@njit
def spectrum(n, f):
    t = np.arange(n) / n
    z = np.exp(2j * np.pi * f * t)
    return np.abs(z + 0.5), np.square(z)[1], -z[2]


# check: spectrum(4, 1.0) -> ([1.5, 1.118033988749895, 0.5, 1.1180339887498947], (-1+1.2246467991473532e-16j), (1-1.2246467991473532e-16j))


@njit
def complex_totals(z):
    return np.sum(z), np.prod(z), z.sum(), np.sum(z * z.conjugate())


# check: complex_totals(np.array([1 + 1j, 2 - 1j, -0.5j])) -> ((3-0.5j), (0.5-1.5j), (3-0.5j), (7.25+0j))
# check: complex_totals(np.array([1 + 1j, 2 - 1j], dtype=np.complex64)) -> ((3+0j), (3+1j), (3+0j), (7+0j))


@njit
def maybe_rotated(x, flag):
    if flag:
        w = x * 1j
    else:
        w = x + 0j
    return w


# check: maybe_rotated(2.0, True) -> 2j
# check: maybe_rotated(2.0, False) -> (2+0j)


@njit
def centered(z):
    m = np.mean(z)
    return m, z.mean(), z - m


# check: centered(np.array([1 + 1j, 3 - 1j, 2 + 3j])) -> ((2+1j), (2+1j), [(-1+0j), (1-2j), 2j])
# check: centered(np.array([1 + 2j], dtype=np.complex64)) -> ((1+2j), (1+2j), [0j])
# check: centered(np.zeros(0, dtype=np.complex128)) -> (complex(math.nan, math.nan), complex(math.nan, math.nan), [])
