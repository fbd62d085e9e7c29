//! Type errors found by inference for a given signature: each is a located diagnostic with the
//! expected message (one `check(signature, expected, source of f)` per case).

use twinjit::ir::parse_signature;
use twinjit::SourceModule;

/// What every case's function is compiled under.
const PRELUDE: &str = "import math\nimport numpy as np\nfrom numba import njit, cuda\n\n@njit\n";

fn check(sig: &str, expect: &str, function: &str) {
    let src = format!("{PRELUDE}{}", function.trim_start());
    let m = SourceModule::parse("t.py", &src).unwrap_or_else(|e| panic!("front end rejected:\n{e}"));
    let sig = parse_signature(sig).expect("test signature parses");
    match m.specialize("f", &sig, None) {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(e) => {
            let d = e.diagnostics();
            assert!(!d.is_empty() && d.iter().all(|d| d.span().is_some()), "unlocated: {e}");
            let text = e.to_string();
            assert!(text.contains(expect), "expected `{expect}` in:\n{text}");
        }
    }
}

/// Calls of values: only the module's compiled functions are callable, and one variable holds
/// one function (each function is its own type, as in Numba).
#[test]
fn calls_of_values_that_are_not_functions_are_located() {
    check(
        "(int64,)",
        "int64 is not callable",
        "
def f(x):
    g = x + 1
    return g(2)
",
    );
    check(
        "(bool,)",
        "type conflict: a variable is function(g) here but function(f) on another path",
        "
def f(c):
    h = f if c else g
    return h(1)

@njit
def g(x):
    return x
",
    );
}

#[test]
fn type_errors_are_located() {
    check(
        "(float64[:, :], int64)",
        "too many indices for array: array is 2-dimensional, but 3 were indexed",
        "
def f(a, i):
    return a[i, 0, 1]
",
    );
    check(
        "(float64[:, :],)",
        "an index can only have a single ellipsis ('...')",
        "
def f(a):
    return a[..., ...]
",
    );
    check(
        "(float64[:], float64)",
        "slice indices must be integers or None, found float64",
        "
def f(a, x):
    return a[x:]
",
    );
    check(
        "(float64,)",
        "np.zeros() takes a shape: an integer or a tuple of integers, found float64",
        "
def f(n):
    return np.zeros(n)
",
    );
    check(
        "(int64,)",
        "np.zeros(): an array of 9 dimensions: twinjit's arrays have 1 to 8",
        "
def f(n):
    return np.zeros((n, n, n, n, n, n, n, n, n))
",
    );
    check(
        "(float64,)",
        "np.array(): an array of 0 dimensions: twinjit's arrays have 1 to 8",
        "
def f(a):
    return np.array(a)
",
    );
    check(
        "(float64,)",
        "cannot iterate over float64",
        "
def f(x):
    for i in x:
        pass
    return 0
",
    );
    check(
        "(float64[:], int64)",
        "cannot iterate over int64",
        "
def f(a, b):
    for x, y in zip(a, b):
        pass
    return 0
",
    );
    check(
        "(float64[:], float64)",
        "array index must be an integer, a slice, None or ..., found float64",
        "
def f(a, x):
    return a[x]
",
    );
    check(
        "(float64,)",
        "float64 is not subscriptable",
        "
def f(x):
    return x[0]
",
    );
    check(
        "(int64,)",
        "tuple index 2 out of range for a 2-tuple",
        "
def f(x):
    t = (x, x)
    return t[2]
",
    );
    check(
        "(int64, int64)",
        "cannot index the heterogeneous tuple",
        "
def f(x, k):
    t = (x, 1.5)
    return t[k]
",
    );
    check(
        "(int64, int64)",
        "tuple indices must be integers",
        "
def f(x, k):
    t = (x, x)
    return t[1.5]
",
    );
    check(
        "(int64,)",
        "cannot iterate over the heterogeneous tuple",
        "
def f(x):
    t = (x, 1.5)
    s = 0.0
    for v in t:
        s += v
    return s
",
    );
    check(
        "(int64,)",
        "homogeneous tuples only",
        "
def f(x):
    t = (x, 1.5)
    return x in t
",
    );
    check(
        "(int64, int64)",
        "tuple slice bounds must be constant",
        "
def f(x, n):
    t = (x, x)
    return t[:n]
",
    );
    check(
        "(int64,)",
        "unsupported operand types for *",
        "
def f(x):
    t = (x, x)
    return t * 2
",
    );
    check(
        "(float64,)",
        "math.sqrt() takes 1 argument but 2 were given",
        "
def f(x):
    return math.sqrt(x, x)
",
    );
    check(
        "(float64[:],)",
        "unsupported operand types for +",
        "
def f(a):
    return a + (1, 2)
",
    );
    check(
        "(float64[:],)",
        "axis 3 is out of range for a 1-D array",
        "
def f(a):
    return a.shape[3]
",
    );
    check(
        "(int64,)",
        "unsupported operand types for ^: int64 and float64",
        "
def f(x):
    return x ^ 1.5
",
    );
    check(
        "(float64,)",
        "bad operand type for unary ~: float64",
        "
def f(x):
    return ~x
",
    );
    check(
        "(float64[:],)",
        "the truth value of an array (array(float64, 1, A)) is ambiguous",
        "
def f(a):
    if a:
        return 1
    return 0
",
    );
    check(
        "(float64[:], boolean)",
        "type conflict",
        "
def f(a, b):
    if b:
        v = a
    else:
        v = 1.0
    return v
",
    );
    check(
        "(int64,)",
        "returns (float64, float64) on some paths and None on others",
        "
def f(x):
    if x > 0:
        return 1.0, 2.0
",
    );
    check(
        "(int64,)",
        "cannot unpack int64",
        "
def f(x):
    a, b = x
    return a
",
    );
    check(
        "(float64[:], int64)",
        "cannot store (int64, int64) into an array of float64",
        "
def f(a, x):
    a[0] = (x, x)
",
    );
}

#[test]
fn recursion_without_base_case_is_an_error() {
    check(
        "(int64,)",
        "cannot infer the return type of `f`",
        "
def f(x):
    return f(x - 1)
",
    );
}

#[test]
fn complex_numbers_are_refused_where_numba_refuses_them() {
    check(
        "(complex128, complex128)",
        "'<' is not supported between complex128 and complex128",
        "\ndef f(a, b):\n    return a < b\n",
    );
    check("(complex128,)", "can't convert complex128 to float64", "\ndef f(z):\n    return float(z)\n");
    check(
        "(complex128,)",
        "math.sqrt() does not accept complex numbers (complex128)",
        "\ndef f(z):\n    return math.sqrt(z)\n",
    );
    check(
        "(complex128, complex128)",
        "unsupported operand type(s) for //: 'complex128' and 'complex128'",
        "\ndef f(a, b):\n    return a // b\n",
    );
    check(
        "(complex128[:],)",
        "np.median() of a complex array is not supported yet",
        "\ndef f(a):\n    return np.median(a)\n",
    );
    check(
        "(complex128[:], complex128[:])",
        "unsupported operand types for //: complex128 and complex128",
        "\ndef f(a, b):\n    return a // b\n",
    );
    check("(complex128[:],)", "'<' is not supported between", "\ndef f(a):\n    return a < 1j\n");
}

/// Indexing and axes of arrays beyond what NumPy (and Numba) accept.
#[test]
fn advanced_indices_and_axes_out_of_range_are_located() {
    check(
        "(float64[:, :], int64[:], int64[:])",
        "only one advanced index (array) is supported",
        "
def f(a, i, j):
    return a[i, j]
",
    );
    check(
        "(float64[:, :], boolean[:, :])",
        "a boolean index among other indices must be 1-D, found 2 dimensions",
        "
def f(a, m):
    return a[0, m]
",
    );
    check(
        "(float64[:, :],)",
        "axis 3 is out of bounds for array of dimension 2",
        "
def f(a):
    return np.swapaxes(a, 0, 3)
",
    );
    check(
        "(float64[:, :, :],)",
        "`source` and `destination` arguments must have the same number of elements",
        "
def f(a):
    return np.moveaxis(a, (0, 1), 2)
",
    );
}
