"""Issue 15's NumPy-style suite: the kernels of examples/kernels/numpy_kernels.py under Numba
(@njit) and twinjit, side by side, in one run.

Usage (from the repository root):
    python3 -m venv .venv && .venv/bin/pip install numba scipy
    .venv/bin/python benches/compare/compare_numpy.py [--write BENCHMARKS.md] [--rounds 3]

twinjit's figures come from `cargo run --release --example bench_numpy` (a typed handle called
from Rust); Numba's from calls in this process (its dispatcher, from Python; `np.dot` calls
SciPy's BLAS, single-threaded here through OPENBLAS_NUM_THREADS=1). The two sides alternate for
--rounds rounds and each figure is the best round's median; the inputs are the same numbers.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import subprocess  # noqa: E402

import numba  # noqa: E402
import numpy as np  # noqa: E402
from bench_common import example_rows, load_kernels, median_min_us
from markdown_section import write_section  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = os.path.join(ROOT, "examples", "kernels", "numpy_kernels.py")
ORDER = ["hypot", "zscore", "masked_sum", "cumsum", "argsort", "pairwise", "dot", "monte_carlo"]
WHAT = {
    "hypot": "np.sqrt(x * x + y * y), 1e7 float64",
    "zscore": "(a - a.mean()) / a.std(), 1e7",
    "masked_sum": "np.sum(a[a > 0.5]), 1e7",
    "cumsum": "np.cumsum(a), 1e7",
    "argsort": "np.argsort(x), 1e6 floats",
    "pairwise": "Euclidean distances of 2000 x 16 points through row slices, np.sqrt(np.sum(d * d))",
    "dot": "np.dot of two 512 x 512 float64 matrices",
    "monte_carlo": "seeded np.random.random(1e7) twice, the share inside the circle",
}


def hashed(n, salt):
    i = np.arange(n, dtype=np.uint64)
    return ((i * np.uint64(2654435761) + np.uint64(salt)) % np.uint64(1_000_003)).astype(np.float64) / 1_000_003.0


def load():
    return load_kernels(KERNELS, "numpy_kernels")



def numba_side(m):
    n = 10_000_000
    x, y = hashed(n, 0), hashed(n, 12345)
    out = {
        "hypot": median_min_us(lambda: m.hypot(x, y), 7),
        "zscore": median_min_us(lambda: m.zscore(x), 7),
        "masked_sum": median_min_us(lambda: m.masked_sum(x), 7),
        "cumsum": median_min_us(lambda: m.running_sum(x), 7),
    }
    s = hashed(1_000_000, 777)
    out["argsort"] = median_min_us(lambda: m.order(s), 5)
    pts = hashed(2000 * 16, 99).reshape(2000, 16)
    out["pairwise"] = median_min_us(lambda: m.pairwise(pts), 3)
    a, b = hashed(512 * 512, 1).reshape(512, 512), hashed(512 * 512, 2).reshape(512, 512)
    out["dot"] = median_min_us(lambda: m.matmul(a, b), 5)
    out["monte_carlo"] = median_min_us(lambda: m.monte_carlo_pi(n), 5)
    return out


def twinjit_side():
    return {r["kernel"]: (r["run_us"], r["run_min_us"]) for r in example_rows(ROOT, "bench_numpy")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", help="replace the numpy section of this markdown file")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "bench_numpy"], cwd=ROOT, check=True)
    m = load()
    tjs, nbs = [], []
    for _ in range(a.rounds):
        tjs.append(twinjit_side())
        nbs.append(numba_side(m))
    best = lambda rounds, k: min((r[k] for r in rounds), key=lambda x: x[0])  # noqa: E731
    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; numba {numba.__version__}, "
        f"numpy {np.__version__}; best of {a.rounds} alternating rounds, each the median of its repetitions. "
        "twinjit is called from Rust through a typed handle, Numba from Python through its dispatcher; "
        "Numba's np.dot is SciPy's BLAS on one thread.",
        "",
        "| kernel | what | twinjit ms (median / min) | Numba ms (median / min) | twinjit / Numba (median) |",
        "|---|---|---:|---:|---:|",
    ]
    ratios = []
    for k in ORDER:
        t, n = best(tjs, k), best(nbs, k)
        ratios.append(t[0] / n[0])
        lines.append(
            f"| {k} | {WHAT[k]} | {t[0] / 1e3:.2f} / {t[1] / 1e3:.2f} | {n[0] / 1e3:.2f} / {n[1] / 1e3:.2f} | {t[0] / n[0]:.2f} |"
        )
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    lines += ["", f"Geometric mean of twinjit / Numba: {geo:.2f}."]
    text = "\n".join(lines)
    print(text)
    if a.write:
        write_section(ROOT, a.write, "numpy-compare", text)


if __name__ == "__main__":
    main()
