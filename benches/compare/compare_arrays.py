"""Arrays as values: the kernels of examples/kernels/array_kernels.py under Numba (@njit) and
twinjit, side by side, in one run (issue 14's performance figures).

Usage (from the repository root):
    python3 -m venv .venv && .venv/bin/pip install numba
    .venv/bin/python benches/compare/compare_arrays.py [--write BENCHMARKS.md] [--rounds 3]

twinjit's figures come from `cargo run --release --example bench_arrays` (a typed handle called
from Rust); Numba's from calls in this process (its dispatcher, from Python). The two sides
alternate for --rounds rounds and each figure is the best round's median.
"""
import argparse
import os
import platform
import subprocess

import numba
import numpy as np
from bench_common import example_rows, load_kernels, median_min_us
from markdown_section import write_section

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KERNELS = os.path.join(ROOT, "examples", "kernels", "array_kernels.py")
ORDER = [
    "temp_per_iteration",
    "normalized_copy_100",
    "normalized_copy_100000",
    "window_max_sum",
    "zeros_grid",
    "primes_list",
    "sorted_squares",
]
WHAT = {
    "temp_per_iteration": "np.empty(16) allocated and freed in each of 100,000 loop passes",
    "normalized_copy_100": "(x - mean) / std into np.empty_like(x), returned; n = 100",
    "normalized_copy_100000": "the same, n = 100,000",
    "window_max_sum": "max over each view a[i:i + 16] of 100,000 elements",
    "zeros_grid": "np.zeros((1000, 1000)) with a border of ones, returned",
    "primes_list": "primes below 200,000 by trial division against a list read by index that grows by append",
    "sorted_squares": "sorted([v * v for v in x]) of 100,000 floats, its median",
}


def load():
    return load_kernels(KERNELS, "array_kernels")



def numba_side(m):
    out = {}
    out["temp_per_iteration"] = median_min_us(lambda: m.temp_per_iteration(100_000, 16), 31)
    for n in (100, 100_000):
        x = ((np.arange(n) * 7919) % 1000) * 1e-3
        out[f"normalized_copy_{n}"] = median_min_us(lambda: m.normalized_copy(x), 20_001 if n < 1000 else 301)
    a = ((np.arange(100_000, dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(1000)).astype(np.float64)
    out["window_max_sum"] = median_min_us(lambda: m.window_max_sum(a, 16), 31)
    out["zeros_grid"] = median_min_us(lambda: m.zeros_grid(1000, 1000), 31)
    out["primes_list"] = median_min_us(lambda: m.primes_list(200_000), 11)
    x = ((np.arange(100_000, dtype=np.uint64) * np.uint64(2654435761)) % np.uint64(100_003)).astype(np.float64)
    out["sorted_squares"] = median_min_us(lambda: m.sorted_squares(x), 11)
    return out


def twinjit_side():
    return {r["kernel"]: (r["run_us"], r["run_min_us"]) for r in example_rows(ROOT, "bench_arrays")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", help="replace the arrays section of this markdown file")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "bench_arrays"], cwd=ROOT, check=True)
    m = load()
    tjs, nbs = [], []
    for _ in range(a.rounds):
        tjs.append(twinjit_side())
        nbs.append(numba_side(m))
    best = lambda rounds, k: min((r[k] for r in rounds), key=lambda x: x[0])  # noqa: E731
    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; numba {numba.__version__}, "
        f"numpy {np.__version__}; best of {a.rounds} alternating rounds, each the median of its repetitions. "
        "twinjit is called from Rust through a typed handle, Numba from Python through its dispatcher.",
        "",
        "| kernel | what | twinjit µs (median / min) | Numba µs (median / min) | twinjit / Numba (median) |",
        "|---|---|---:|---:|---:|",
    ]
    for k in ORDER:
        t, n = best(tjs, k), best(nbs, k)
        lines.append(f"| {k} | {WHAT[k]} | {t[0]:.2f} / {t[1]:.2f} | {n[0]:.2f} / {n[1]:.2f} | {t[0] / n[0]:.2f} |")
    text = "\n".join(lines)
    print(text)
    if a.write:
        write_section(ROOT, a.write, "arrays-compare", text)


if __name__ == "__main__":
    main()
