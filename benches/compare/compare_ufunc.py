"""User-ufunc benchmark: the `@vectorize` / `@guvectorize` functions of
examples/kernels/ufunc_kernels.py called by Numba from Python and by twinjit from Rust, side by
side in one run, on the same inputs.

Usage (from the repository root):
    python3 -m venv .venv && .venv/bin/pip install numba
    .venv/bin/python benches/compare/compare_ufunc.py [--write BENCHMARKS.md]

twinjit's figures come from `cargo run --release --example bench_ufunc` (run by this script).
The sides alternate for --rounds rounds (default 3); each figure is the best round's median.
"Numba minus its call" subtracts Numba's cost of a call on 1-element arrays (the dispatch
through NumPy's ufunc machinery from Python), which twinjit's Rust caller does not pay.
"""
import argparse
import os
import platform
import subprocess

import numpy as np
import numba
from bench_common import best_of, example_rows, load_kernels, median_ms
from markdown_section import write_section

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = os.path.join(ROOT, "examples", "kernels", "ufunc_kernels.py")
OVERHEAD = "call overhead (1 element)"


def load():
    return load_kernels(KERNELS, "ufunc_kernels")



def numba_side(m):
    n = 10_000_000
    i = np.arange(n, dtype=np.int64)
    x = ((i * 2654435761) % 1000).astype(np.float64) * 1e-3
    y = ((i * 40503) % 997).astype(np.float64) * 1e-3
    z = 40.0 * x - 10.0
    w = x * 200000.0
    out = np.zeros(n)
    rows = x.reshape(n // 100, 100)
    a1, b1 = np.array([1.0]), np.array([2.0])
    cases = [
        ("hypot2 (new array)", lambda: m.hypot2(x, y), 11),
        ("hypot2 (out=)", lambda: m.hypot2(x, y, out), 11),
        ("clamp (lazy, scalars broadcast)", lambda: m.clamp(z, 0.0, 20.0), 11),
        ("income_tax (4 pieces, out=)", lambda: m.income_tax(w, out), 11),
        ("softplus", lambda: m.softplus_serial(z), 5),
        ("softplus (target='parallel')", lambda: m.softplus(z), 5),
        ("row_norm (gufunc, 1e5 x 100)", lambda: m.row_norm(rows), 11),
        (OVERHEAD, lambda: m.hypot2(a1, b1), 1001),
    ]
    return {k: median_ms(fn, reps) for k, fn, reps in cases}


def twinjit_side():
    return {r["kernel"]: r["run_ms"] for r in example_rows(ROOT, "bench_ufunc")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", help="replace the ufunc section of this markdown file")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "bench_ufunc"], cwd=ROOT, check=True)
    m = load()
    nbs, tjs = [], []
    for _ in range(a.rounds):
        tjs.append(twinjit_side())
        nbs.append(numba_side(m))
    tj, nb = best_of(tjs), best_of(nbs)
    over = nb[OVERHEAD]
    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; numba {numba.__version__}, "
        f"numpy {np.__version__}; best of {a.rounds} alternating rounds, each the median of its repetitions. "
        f"1e7 float64 elements unless the row says otherwise. Numba's call overhead (a call on 1-element arrays): "
        f"{over * 1e3:.1f} µs; twinjit's: {tj[OVERHEAD] * 1e3:.1f} µs.",
        "",
        "| ufunc | twinjit ms | Numba ms | Numba minus its call, ms | twinjit / (Numba minus its call) |",
        "|---|---:|---:|---:|---:|",
    ]
    ratios = []
    for k in nb:
        if k == OVERHEAD:
            continue
        r = tj[k] / (nb[k] - over)
        ratios.append(r)
        lines.append(f"| {k} | {tj[k]:.2f} | {nb[k]:.2f} | {nb[k] - over:.2f} | {r:.2f} |")
    geo = float(np.exp(np.mean(np.log(ratios))))
    lines.append("")
    lines.append(f"Geometric mean: **{geo:.2f}**; worst {max(ratios):.2f}.")
    text = "\n".join(lines)
    print(text)
    if a.write:
        write_section(ROOT, a.write, "ufunc-compare", text)


if __name__ == "__main__":
    main()
