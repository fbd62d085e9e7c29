//! Type errors found by inference for a given signature: each is a located diagnostic with the
//! expected message (one `check(source, signature, expected)` per case).

use twinjit::ir::parse_signature;
use twinjit::SourceModule;

fn check(body: &str, sig: &str, expect: &str) {
    let src = format!("import math\nimport numpy as np\nfrom numba import njit, cuda\n\n@njit\ndef f{body}");
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

#[test]
fn type_errors_are_located() {
    check(
        "(a, i):\n    return a[i, 0, 1]\n",
        "(float64[:, :], int64)",
        "too many indices for array: array is 2-dimensional, but 3 were indexed",
    );
    check("(a):\n    return a[..., ...]\n", "(float64[:, :],)", "an index can only have a single ellipsis ('...')");
    check(
        "(a, x):\n    return a[x:]\n",
        "(float64[:], float64)",
        "slice indices must be integers or None, found float64",
    );
    check(
        "(n):\n    return np.zeros(n)\n",
        "(float64,)",
        "np.zeros() takes a shape: an integer or a tuple of integers, found float64",
    );
    check(
        "(n):\n    return np.zeros((n, n, n, n))\n",
        "(int64,)",
        "np.zeros() of 4 dimensions: twinjit's arrays have 1 to 3",
    );
    check("(a):\n    return np.array(a)\n", "(float64,)", "np.array() of 0 dimensions: twinjit's arrays have 1 to 3");
    check("(x):\n    for i in x:\n        pass\n    return 0\n", "(float64,)", "cannot iterate over float64");
    check(
        "(a, b):\n    for x, y in zip(a, b):\n        pass\n    return 0\n",
        "(float64[:], int64)",
        "cannot iterate over int64",
    );
    check(
        "(a, x):\n    return a[x]\n",
        "(float64[:], float64)",
        "array index must be an integer, a slice, None or ..., found float64",
    );
    check("(x):\n    return x[0]\n", "(float64,)", "float64 is not subscriptable");
    check("(x):\n    t = (x, x)\n    return t[2]\n", "(int64,)", "tuple index 2 out of range for a 2-tuple");
    check("(x, k):\n    t = (x, 1.5)\n    return t[k]\n", "(int64, int64)", "cannot index the heterogeneous tuple");
    check("(x, k):\n    t = (x, x)\n    return t[1.5]\n", "(int64, int64)", "tuple indices must be integers");
    check(
        "(x):\n    t = (x, 1.5)\n    s = 0.0\n    for v in t:\n        s += v\n    return s\n",
        "(int64,)",
        "cannot iterate over the heterogeneous tuple",
    );
    check("(x):\n    t = (x, 1.5)\n    return x in t\n", "(int64,)", "homogeneous tuples only");
    check("(x, n):\n    t = (x, x)\n    return t[:n]\n", "(int64, int64)", "tuple slice bounds must be constant");
    check("(x):\n    t = (x, x)\n    return t * 2\n", "(int64,)", "unsupported operand types for *");
    check("(x):\n    return math.sqrt(x, x)\n", "(float64,)", "math.sqrt() takes 1 argument but 2 were given");
    check("(a):\n    return a + 1\n", "(float64[:],)", "unsupported operand types for +");
    check("(a):\n    return a.shape[3]\n", "(float64[:],)", "axis 3 is out of range for a 1-D array");
    check("(x):\n    return x ^ 1.5\n", "(int64,)", "unsupported operand types for ^: int64 and float64");
    check("(x):\n    return ~x\n", "(float64,)", "bad operand type for unary ~: float64");
    check(
        "(a):\n    if a:\n        return 1\n    return 0\n",
        "(float64[:],)",
        "the truth value of array(float64, 1, A)",
    );
    check(
        "(a, b):\n    if b:\n        v = a\n    else:\n        v = 1.0\n    return v\n",
        "(float64[:], boolean)",
        "type conflict",
    );
    check("(x):\n    if x > 0:\n        return 1.0\n", "(int64,)", "returns float64 on some paths and None on others");
    check("(x):\n    a, b = x\n    return a\n", "(int64,)", "cannot unpack int64");
    check(
        "(a, x):\n    a[0] = (x, x)\n",
        "(float64[:], int64)",
        "cannot store (int64, int64) into an array of float64",
    );
}

#[test]
fn recursion_without_base_case_is_an_error() {
    check("(x):\n    return f(x - 1)\n", "(int64,)", "cannot infer the return type of `f`");
}
