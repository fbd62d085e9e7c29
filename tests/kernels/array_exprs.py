"""NumPy arrays in expressions: arithmetic on arrays with arrays and scalars, broadcasting
(1-D with 2-D, column with row), comparisons giving bool arrays, bitwise operators, unary
minus, int/float promotion, in-place operators, ufuncs on arrays (also with out=), boolean
masks and integer-array indexing, broadcasting errors."""
import numpy as np
from numba import njit


# ---------------------------------------------------------------- realistic kernels


# check: distances(np.array([0.0, 3.0, 1.0]), np.array([0.0, 4.0, 1.0])) -> [0.0, 5.0, 1.4142135623730951]
# check: distances(np.zeros(0), np.zeros(0)) -> []
@njit
def distances(dx, dy):
    """Length of each (dx, dy) vector."""
    return np.sqrt(dx * dx + dy * dy)


# check: saxpy(2.0, np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0, 30.0])) -> [12.0, 24.0, 36.0]
# check: saxpy(-1, np.array([1.5, 2.5]), np.array([1.0, 1.0])) -> [-0.5, -1.5]
@njit
def saxpy(alpha, x, y):
    """alpha * x + y as one array expression."""
    return alpha * x + y


# check: standardize(np.array([1.0, 2.0, 3.0, 4.0])) -> [-1.3416407864998738, -0.4472135954999579, 0.4472135954999579, 1.3416407864998738]
# check: standardize(np.array([5.0, 5.0, 7.0])) -> [-0.7071067811865478, -0.7071067811865478, 1.4142135623730947]
@njit
def standardize(x):
    """(x - mean) / std, the mean and std computed with loops."""
    n = x.shape[0]
    m = 0.0
    for v in x:
        m += v
    m /= n
    s = 0.0
    for v in x:
        s += (v - m) ** 2
    s = (s / n) ** 0.5
    return (x - m) / s


# check: relu_grad(np.array([-1.0, 0.0, 2.0, 3.5]), np.array([1.0, 1.0, 0.5, 2.0])) -> ([0.0, 0.0, 2.0, 3.5], [0.0, 0.0, 0.5, 2.0])
@njit
def relu_grad(x, g):
    """Forward ReLU and its gradient, the mask a bool array used in arithmetic."""
    y = np.maximum(x, 0.0)
    return y, g * (x > 0)


# check: softmax(np.array([1.0, 2.0, 3.0])) -> [0.09003057317038046, 0.24472847105479764, 0.6652409557748218]
# check: softmax(np.array([1000.0, 1000.0])) -> [0.5, 0.5]
@njit
def softmax(x):
    """Numerically stable softmax."""
    e = np.exp(x - np.max(x))
    return e / np.sum(e)


# check: heat_steps(np.array([0.0, 0.0, 10.0, 0.0, 0.0]), 0.25, 2) -> [0.0, 2.5, 3.75, 2.5, 0.0]
@njit
def heat_steps(u, r, steps):
    """Explicit heat-equation steps written with slices and in-place adds."""
    u = u.copy()
    for _ in range(steps):
        lap = u[:-2] - 2.0 * u[1:-1] + u[2:]
        u[1:-1] += r * lap
    return u


# check: grid_radius(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0])) -> [[0.0, 1.0], [1.0, 1.4142135623730951], [2.0, 2.23606797749979]]
@njit
def grid_radius(xs, ys):
    """Radius on a grid built by broadcasting a column against a row."""
    X = xs.reshape((xs.shape[0], 1))
    return np.hypot(X, ys)


# check: polar(np.array([1.0, 0.0, -1.0]), np.array([0.0, 1.0, 0.0])) -> ([1.0, 1.0, 1.0], [0.0, 1.5707963267948966, 3.141592653589793])
@njit
def polar(x, y):
    """Cartesian to polar coordinates."""
    return np.hypot(x, y), np.arctan2(y, x)


# check: clamp_in_place(np.array([-3.0, 0.5, 7.0, 2.0]), 0.0, 2.0) -> None ; arg0 == [0.0, 0.5, 2.0, 2.0]
@njit
def clamp_in_place(a, lo, hi):
    """Clamp with masked assignment."""
    a[a < lo] = lo
    a[a > hi] = hi


# check: positive_mean(np.array([-1.0, 2.0, 0.0, 4.0])) -> (3.0, 6.0)
# check: positive_mean(np.array([0.25, 0.75, 1.0])) -> (0.6666666666666666, 1.75)
@njit
def positive_mean(a):
    """Mean of the positive entries and sum of those above 0.5."""
    pos = a[a > 0]
    return np.sum(pos) / pos.shape[0], np.sum(a[a > 0.5])


# check: gather(np.array([10.0, 20.0, 30.0, 40.0]), np.array([3, 0, 0, 2])) -> [40.0, 10.0, 10.0, 30.0]
# check: gather(np.array([1, 2, 3]), np.array([-1, 1])) -> [3, 2]
@njit
def gather(a, idx):
    """Fancy indexing with an integer array."""
    return a[idx]


# check: scatter_zero(np.array([1, 2, 3, 4, 5]), np.array([0, 4])) -> None ; arg0 == [0, 2, 3, 4, 0]
@njit
def scatter_zero(a, idx):
    """Assignment through an integer index array."""
    a[idx] = 0


# check: running_diff(np.array([1.0, 4.0, 9.0, 16.0])) -> [1.0, 3.0, 5.0, 7.0]
@njit
def running_diff(a):
    """First differences in place: a[1:] -= a[:-1] on a copy, back to front."""
    b = a.copy()
    b[1:] -= a[:-1]
    return b


# ---------------------------------------------------------------- per-feature probes


# check: arith_arrays(np.array([6.0, -7.0, 8.5]), np.array([4.0, 2.0, -3.0])) -> ([10.0, -5.0, 5.5], [2.0, -9.0, 11.5], [24.0, -14.0, -25.5], [1.5, -3.5, -2.8333333333333335], [1.0, -4.0, -3.0], [2.0, 1.0, -0.5], [1296.0, 49.0, 0.001628332994097293])
@njit
def arith_arrays(a, b):
    """The binary operators between two float arrays."""
    return a + b, a - b, a * b, a / b, a // b, a % b, a ** b


# check: arith_int_arrays(np.array([7, -7, 9, 2]), np.array([2, 2, -4, 5])) -> ([9, -5, 5, 7], [5, -9, 13, -3], [14, -14, -36, 10], [3.5, -3.5, -2.25, 0.4], [3, -4, -3, 0], [1, 1, -3, 2])
@njit
def arith_int_arrays(a, b):
    """The binary operators between two int arrays: / gives floats, // and % floor."""
    return a + b, a - b, a * b, a / b, a // b, a % b


# check: int_power(np.array([2, 3, -2, 0]), np.array([3, 2, 3, 0])) -> ([8, 9, -8, 1], [4, 9, 4, 0])
@njit
def int_power(a, b):
    """Integer array ** integer array and ** an int scalar."""
    return a ** b, a ** 2


# check: arith_scalar(np.array([1.0, 2.0, 4.0])) -> ([2.0, 3.0, 5.0], [1.0, 0.0, -2.0], [3.0, 6.0, 12.0], [1.0, 0.5, 0.25], [0.5, 1.0, 2.0], [7.0, 3.0, 1.0], [1.0, 2.0, 1.0], [2.0, 4.0, 16.0], [1.0, 1.4142135623730951, 2.0])
@njit
def arith_scalar(a):
    """Scalar on either side of an operator."""
    return a + 1, 2 - a, a * 3.0, 1.0 / a, a / 2, 7 // a, a % 3, 2.0 ** a, a ** 0.5


# check: int_div_by_zero(np.array([1, -1, 0]), np.array([0, 0, 0])) -> ([0, 0, 0], [0, 0, 0])
@njit
def int_div_by_zero(a, b):
    """Integer array division by zero: no exception, NumPy's values."""
    return a // b, a % b


# check: float_div_by_zero(np.array([1.0, -1.0, 0.0])) -> ([math.inf, -math.inf, math.nan], [math.inf, -math.inf, math.nan], [math.nan, math.nan, math.nan])
@njit
def float_div_by_zero(a):
    """Float array division by zero gives inf and nan."""
    z = np.zeros(3)
    return a / z, a // z, a % z


# check: broadcast_2d_1d(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), np.array([10.0, 20.0, 30.0])) -> ([[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]], [[10.0, 40.0, 90.0], [40.0, 100.0, 180.0]], [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
@njit
def broadcast_2d_1d(m, v):
    """(2, 3) with (3,), both orders, and with a scalar."""
    return m + v, v * m, m - 1.0


# check: broadcast_col_row(np.array([1, 2, 3]), np.array([10, 20, 30, 40])) -> ([[10, 20, 30, 40], [20, 40, 60, 80], [30, 60, 90, 120]], (3, 4))
@njit
def broadcast_col_row(a, b):
    """(3, 1) with (4,) gives (3, 4)."""
    col = a.reshape((3, 1))
    return col * b, (col + b).shape


# check: broadcast_size_one(np.array([[1.0], [2.0]]), np.array([[10.0, 20.0]])) -> [[11.0, 21.0], [12.0, 22.0]]
@njit
def broadcast_size_one(a, b):
    """(2, 1) with (1, 2)."""
    return a + b


# check: compares(np.array([1, 2, 3, 4]), np.array([4, 2, 1, 5])) -> ([True, False, False, True], [True, True, False, True], [False, True, False, False], [True, False, True, True], [False, False, True, False], [False, True, True, False], [False, False, True, True])
@njit
def compares(a, b):
    """The comparison operators give bool arrays."""
    return a < b, a <= b, a == b, a != b, a > b, a >= b, a > 2


# check: compare_mixed(np.array([1.0, 2.5, np.nan])) -> ([False, True, False], [True, False, False], [False, False, True])
@njit
def compare_mixed(a):
    """A float array against an int scalar; nan compares false except !=."""
    return a > 2, a == 1, a != a


# check: bitwise_bool(np.array([True, True, False, False]), np.array([True, False, True, False])) -> ([True, False, False, False], [True, True, True, False], [False, True, True, False], [False, False, True, True])
@njit
def bitwise_bool(p, q):
    """& | ^ ~ on bool arrays."""
    return p & q, p | q, p ^ q, ~p


# check: bitwise_int(np.array([12, 10, -1, 0]), np.array([10, 6, 5, 3])) -> ([8, 2, 5, 0], [14, 14, -1, 3], [6, 12, -6, 3], [-13, -11, 0, -1], [48, 40, -4, 0], [6, 5, -1, 0])
@njit
def bitwise_int(a, b):
    """& | ^ ~ << >> on int arrays."""
    return a & b, a | b, a ^ b, ~a, a << 2, a >> 1


# check: mask_combine(np.array([-2.0, -0.5, 0.5, 2.0, 3.0])) -> ([-0.5, 0.5, 2.0], [-2.0, 3.0], [-2.0, 3.0])
@njit
def mask_combine(a):
    """Masks combined with & | ~, then used to select."""
    inside = (a > -1.0) & (a < 2.5)
    outside = ~inside
    return a[inside], a[outside], a[(a < -1.0) | (a > 2.5)]


# check: unary_ops(np.array([1.5, -2.0, 0.0]), np.array([3, -4, 0])) -> ([-1.5, 2.0, -0.0], [1.5, -2.0, 0.0], [-3, 4, 0], [-3, 4, 0], [1.5, 2.0, 0.0], [3, 4, 0])
@njit
def unary_ops(a, b):
    """Unary minus and plus, np.negative, np.abs on floats and ints."""
    return -a, +a, -b, np.negative(b), np.abs(a), np.abs(b)


# check: promote_int_float(np.array([1, 2, 3])) -> ([1.5, 2.5, 3.5], [2, 3, 4], 8, 8)
@njit
def promote_int_float(a):
    """int64 array with a float gives float64; with an int stays int64."""
    f = a + 0.5
    i = a + 1
    return f, i, f.itemsize, i.itemsize


# check: promote_float32(np.array([0.1, 0.2, 0.3], dtype=np.float32)) -> ([0.30000000447034836, 0.6000000089406967, 0.9000000357627869], 8, 4, 8, [1.1000000014901161, 1.2000000029802322, 1.300000011920929])
@njit
def promote_float32(a):
    """float32 array with Python scalars and with a float64 array: the result dtypes."""
    b = a * 3.0
    c = a + 1
    d = a + np.ones(3)
    return b, b.itemsize, c.itemsize, d.itemsize, d


# check: promote_int32(np.array([1, 2, 3], dtype=np.int32), np.array([1, 1, 1])) -> (8, 8, 8, [0.5, 1.0, 1.5])
@njit
def promote_int32(a, b):
    """int32 array with an int literal, with an int64 array, and divided."""
    c = a + 1
    d = a + b
    e = a / 2
    return c.itemsize, d.itemsize, e.itemsize, e


# check: in_place(np.array([1.0, 2.0, 3.0]), np.array([0.5, 0.5, 2.0])) -> ([1.5, 2.5, 5.0], [3.0, 5.0, 10.0], [2.5, 4.5, 8.0], [5.0, 9.0, 4.0], [25.0, 81.0, 16.0])
@njit
def in_place(a, b):
    """The in-place operators with arrays and scalars; a is a copy."""
    a = a.copy()
    a += b
    r1 = a.copy()
    a *= 2
    r2 = a.copy()
    a -= b
    r3 = a.copy()
    a /= b
    r4 = a.copy()
    a **= 2
    return r1, r2, r3, r4, a


# check: in_place_alias(np.array([1, 2, 3, 4, 5])) -> [1, 3, 6, 10, 15]
@njit
def in_place_alias(a):
    """Overlapping in-place: b[1:] += b[:-1] runs front to back over the same memory, so
    Numba gives running sums (NumPy would copy the right side first)."""
    b = a.copy()
    b[1:] += b[:-1]
    return b


# check: in_place_broadcast(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), np.array([10.0, 100.0])) -> None ; arg0 == [[-9.0, -98.0], [-0.0, -0.0], [5.0, 94.0]]
@njit
def in_place_broadcast(m, v):
    """A (3, 2) array -= a (2,) row, then *= a column."""
    m -= v
    m *= np.array([[1.0], [0.0], [-1.0]])


# check: ufuncs_float(np.array([0.25, 1.0, 4.0])) -> ([0.5, 1.0, 2.0], [1.2840254166877414, 2.718281828459045, 54.598150033144236], [-1.3862943611198906, 0.0, 1.3862943611198906], [-0.6020599913279624, 0.0, 0.6020599913279624], [0.24740395925452294, 0.8414709848078965, -0.7568024953079282], [0.9689124217106447, 0.5403023058681398, -0.6536436208636119], [0.25534192122103627, 1.5574077246549023, 1.1578212823495775], [0.0, 3.0, 13.0], [1.0, 4.0, 14.0], [-0.0, -3.0, -13.0])
@njit
def ufuncs_float(a):
    """Unary ufuncs on a float array."""
    return np.sqrt(a), np.exp(a), np.log(a), np.log10(a), np.sin(a), np.cos(a), np.tan(a), np.floor(a * 3.3), np.ceil(a * 3.3), np.trunc(-a * 3.3)


# check: ufuncs_int(np.array([1, 4, 9])) -> ([1.0, 2.0, 3.0], [2.718281828459045, 54.598150033144236, 8103.083927575384], [1, 16, 81], [-1, 0, 1])
@njit
def ufuncs_int(a):
    """Float ufuncs on an int array give floats; np.square stays int."""
    return np.sqrt(a), np.exp(a), np.square(a), np.sign(a - 4)


# check: ufuncs_binary(np.array([1.0, -2.0, 3.0]), np.array([2.0, -1.0, 3.0])) -> ([1.0, -2.0, 3.0], [2.0, -1.0, 3.0], [1.0, 4.0, 9.0], [3.0, -3.0, 6.0], [0.0, -3.0, 2.0], [4.0, -2.0, 6.0], [0.5, 2.0, 1.0], [0.4636476090008061, -2.0344439357957027, 0.7853981633974483], [2.23606797749979, 2.23606797749979, 4.242640687119285])
@njit
def ufuncs_binary(a, b):
    """Binary ufuncs between arrays and with scalars."""
    return np.minimum(a, b), np.maximum(a, b), np.power(a, 2), np.add(a, b), np.subtract(a, 1.0), np.multiply(2, b), np.divide(a, b), np.arctan2(a, b), np.hypot(a, b)


# check: ufuncs_nan(np.array([1.0, np.nan, 3.0]), np.array([2.0, 2.0, np.nan])) -> ([1.0, math.nan, math.nan], [2.0, math.nan, math.nan], [1.0, 2.0, 3.0], [2.0, 2.0, 3.0], [False, True, False], [True, True, False])
@njit
def ufuncs_nan(a, b):
    """minimum/maximum propagate nan; fmin/fmax ignore it."""
    return np.minimum(a, b), np.maximum(a, b), np.fmin(a, b), np.fmax(a, b), np.isnan(a), np.isfinite(b)


# check: ufunc_2d(np.array([[1.0, 4.0], [9.0, 16.0]])) -> ([[1.0, 2.0], [3.0, 4.0]], [[1.0, 3.0], [2.0, 4.0]], [[1.0, 9.0], [9.0, 16.0]])
@njit
def ufunc_2d(m):
    """Ufuncs on a 2-D array and on its transpose (a non-contiguous view)."""
    return np.sqrt(m), np.sqrt(m.T), np.maximum(m, m.T)


# check: ufunc_out(np.array([1.0, 4.0, 9.0]), np.array([1.0, 1.0, 1.0])) -> ([2.0, 5.0, 10.0], [1.0, 2.0, 3.0], [10.0, 20.0, 30.0])
@njit
def ufunc_out(a, b):
    """Ufuncs writing into an existing array with out."""
    out = np.empty(3)
    np.add(a, b, out)
    r1 = out.copy()
    np.sqrt(a, out)
    r2 = out.copy()
    np.multiply(out, 10.0, out)
    return r1, r2, out


# check: ufunc_out_view(np.array([1.0, 2.0, 3.0, 4.0])) -> [-1.0, 0.0, -2.0, 0.0, -3.0, 0.0, -4.0, 0.0]
@njit
def ufunc_out_view(a):
    """out= a strided view of a larger array."""
    big = np.zeros(8)
    np.negative(a, big[::2])
    return big


# check: rounding(np.array([0.5, 1.5, 2.5, -0.5, 1.2345])) -> ([0.0, 2.0, 2.0, -0.0, 1.0], [0.5, 1.5, 2.5, -0.5, 1.23], [0.5, 1.5, 2.5, -0.5, 1.2], [0.0, 2.0, 2.0, -0.0, 1.0])
@njit
def rounding(a):
    """np.round rounds half to even; with decimals; np.around and np.rint."""
    return np.round(a), np.round(a, 2), np.around(a, 1), np.rint(a)


# ---------------------------------------------------------------- errors


# check: bad_broadcast(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0])) raises ValueError
# check: bad_broadcast(np.array([1.0, 2.0]), np.array([1.0, 2.0])) -> [2.0, 4.0]
@njit
def bad_broadcast(a, b):
    """Shapes (3,) and (2,) do not broadcast."""
    return a + b


# check: bad_broadcast_2d(np.zeros((2, 3)), np.zeros(2)) raises ValueError
@njit
def bad_broadcast_2d(m, v):
    """(2, 3) with (2,) does not broadcast."""
    return m * v


# check: domain_edges(np.array([-1.0, 0.0, 2.0])) -> ([math.nan, 0.0, 1.4142135623730951], [math.nan, -math.inf, 0.6931471805599453], [-1.5707963267948966, 0.0, math.nan], [-1.0, math.inf, 0.5])
@njit
def domain_edges(a):
    """Ufuncs outside their domain give nan or -inf, no exception."""
    return np.sqrt(a), np.log(a), np.arcsin(a), 1.0 / a


# check: diff_in_place(np.array([1.0, 4.0, 9.0, 16.0])) -> None ; arg0 == [1.0, 3.0, 6.0, 10.0]
@njit
def diff_in_place(a):
    """a[1:] -= a[:-1] on the argument itself: the overlap reads already-updated values."""
    a[1:] -= a[:-1]


# check: compare_bad_shape(np.zeros(3), np.zeros(2)) raises ValueError
@njit
def compare_bad_shape(a, b):
    """Comparison of arrays that do not broadcast."""
    return a < b


@njit
def clip_one_sided(a, lo, hi):
    # a None bound is no bound
    return np.clip(a, lo, hi)


# check: clip_one_sided(np.array([-2.0, 0.5, 3.0]), None, 1.0) -> [-2.0, 0.5, 1.0]
# check: clip_one_sided(np.array([-2.0, 0.5, 3.0]), 0.0, None) -> [0.0, 0.5, 3.0]
# check: clip_one_sided(np.array([-2, 5, 9]), None, 4) -> [-2, 4, 4]
# check: clip_one_sided(np.array([200, 5], dtype=np.uint8), np.uint8(10), None) -> [200, 10]


@njit
def clip_method_one_sided(a, hi):
    return a.clip(None, hi)


# check: clip_method_one_sided(np.array([1.5, -7.0, 9.0]), 2.0) -> [1.5, -7.0, 2.0]


@njit
def clip_one_sided_in_expression(a, hi):
    # the clipped array feeds another array expression
    return np.clip(a, None, hi) * 2.0 + 1.0


# check: clip_one_sided_in_expression(np.array([0.5, 4.0]), 1.0) -> [2.0, 3.0]
