"""Parallel host benchmark: the `parallel=True` kernels of examples/kernels/parallel_kernels.py
under Numba and under twinjit, side by side in one run, with every thread and with one.

Usage (from the repository root):
    python3 -m venv .venv && .venv/bin/pip install numba
    .venv/bin/python benches/compare/compare_parallel.py [--write BENCHMARKS.md]

twinjit's figures come from `cargo run --release --example bench_parallel` (run by this script);
Numba's from the same file imported here, with its default thread count (one per core) and
with `numba.set_num_threads(1)`. The sides alternate for --rounds rounds (default 3); each
figure is the best round's median.
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
KERNELS = os.path.join(ROOT, "examples", "kernels", "parallel_kernels.py")
NAMES = ["mandelbrot", "ising_energy", "histogram", "dot", "exp_decay"]
COMPUTE_BOUND = {"mandelbrot", "ising_energy", "exp_decay"}


def load():
    return load_kernels(KERNELS, "parallel_kernels")



def numba_side(m):
    n = 10_000_000
    side = 2000
    i = np.arange(side * side)
    spins = np.where((i * 7919 + 13) % 5 < 2, 1.0, -1.0).reshape(side, side)
    x = ((np.arange(n, dtype=np.int64) * 2654435761) % 1000).astype(np.float64) * 1e-3
    img = np.zeros((1000, 1000), dtype=np.int32)
    partial = np.zeros((64, 100), dtype=np.int64)
    out = np.zeros(n)
    cases = {
        "mandelbrot": (lambda: m.mandelbrot(img, 100), 5),
        "ising_energy": (lambda: m.ising_energy(spins, 1.0), 11),
        "histogram": (lambda: (partial.fill(0), m.histogram(x, 0.0, 1.0, partial)), 11),
        "dot": (lambda: m.dot(x, x), 11),
        "exp_decay": (lambda: m.exp_decay(x, 0.5, out), 11),
    }
    res = {}
    for threads in [numba.config.NUMBA_NUM_THREADS, 1]:
        numba.set_num_threads(threads)
        for k, (fn, reps) in cases.items():
            res[(k, threads)] = median_ms(fn, reps)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return res


def twinjit_side():
    return {(r["kernel"], r["threads"]): r["run_ms"] for r in example_rows(ROOT, "bench_parallel")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", help="replace the parallel section of this markdown file")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet", "--example", "bench_parallel"], cwd=ROOT, check=True)
    m = load()
    nbs, tjs = [], []
    for _ in range(a.rounds):
        tjs.append(twinjit_side())
        nbs.append(numba_side(m))
    tj, nb = best_of(tjs), best_of(nbs)
    all_tj = max(t for (_, t) in tj if t > 0)
    all_nb = numba.config.NUMBA_NUM_THREADS
    lines = [
        f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; numba {numba.__version__} "
        f"(threading layer {numba.threading_layer()}), numpy {np.__version__}; best of {a.rounds} alternating rounds, "
        f"each the median of its repetitions. \"all\" is {all_tj} threads for twinjit, {all_nb} for Numba; "
        "\"range\" is twinjit's time for the same kernel written with `range` in `examples/kernels/host_kernels.py` "
        "(histogram there is a different, serial algorithm).",
        "",
        "| kernel | twinjit ms, all / 1 thread / `range` | twinjit speed-up, all over 1 | Numba ms, all / 1 thread "
        "| Numba speed-up | twinjit / Numba, all threads |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    ratios = []
    for k in NAMES:
        t_all, t_one, t_rng = tj[(k, all_tj)], tj[(k, 1)], tj.get((k, 0))
        n_all, n_one = nb[(k, all_nb)], nb[(k, 1)]
        r = t_all / n_all
        ratios.append(r)
        rng = f"{t_rng:.2f}" if t_rng is not None else "-"
        lines.append(f"| {k}{' (compute-bound)' if k in COMPUTE_BOUND else ''} | {t_all:.2f} / {t_one:.2f} / {rng} "
                     f"| {t_one / t_all:.2f}x | {n_all:.2f} / {n_one:.2f} | {n_one / n_all:.2f}x | {r:.2f} |")
    geo = float(np.exp(np.mean(np.log(ratios))))
    lines.append("")
    lines.append(f"Geometric mean of twinjit / Numba with all threads: **{geo:.2f}**; worst kernel {max(ratios):.2f}.")
    text = "\n".join(lines)
    print(text)
    if a.write:
        write_section(ROOT, a.write, "parallel-compare", text)


if __name__ == "__main__":
    main()
