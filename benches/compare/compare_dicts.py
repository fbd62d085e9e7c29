#!/usr/bin/env python3
"""Dict kernels (examples/kernels/dict_kernels.py) under twinjit and under Numba, alternating.

    .venv/bin/python benches/compare/compare_dicts.py [--twinjit target/release/twinjit] [--rounds 3]

twinjit's side is `twinjit bench` (the median and minimum of its repetitions, compiled code
only); Numba's is the same function called from Python after a warm-up call (its call overhead,
about a microsecond, is inside each figure). Prints a Markdown table of the best round's times.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNELS = os.path.join(ROOT, "examples", "kernels", "dict_kernels.py")
N = 1_000_000


def inputs(np):
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 1000, N)
    a, b = rng.integers(0, 300, N), rng.integers(0, 300, N)
    return {
        "count_codes": ({"x": codes}, (codes,)),
        "insert_many": ({"n": N}, (N,)),
        "lookup_many": ({"n": N}, (N,)),
        "pair_keys": ({"a": a, "b": b}, (a, b)),
    }


def twinjit_ms(exe, name, args, tmp, np):
    cli = []
    for k, v in args.items():
        if isinstance(v, int):
            cli += ["--arg", f"{k}=int64:{v}"]
        else:
            path = os.path.join(tmp, f"{name}_{k}.npy")
            np.save(path, v)
            cli += ["--arg", f"{k}={path}"]
    out = subprocess.run([exe, "bench", KERNELS, name, *cli], check=True, capture_output=True, text=True).stdout
    r = json.loads(out.strip().splitlines()[-1])
    return r["min_ms"], r["median_ms"]


def numba_ms(f, args, reps=15):
    f(*args)
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        f(*args)
        ts.append((time.perf_counter() - t) * 1e3)
    ts.sort()
    return ts[0], ts[len(ts) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--twinjit", default=os.path.join(ROOT, "target", "release", "twinjit"))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    import numpy as np
    import numba

    sys.path.insert(0, os.path.dirname(KERNELS))
    import dict_kernels

    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        cases = inputs(np)
        for _ in range(args.rounds):
            for name, (cli_args, py_args) in cases.items():
                t = twinjit_ms(args.twinjit, name, cli_args, tmp, np)
                n = numba_ms(getattr(dict_kernels, name), py_args)
                old = best.get(name)
                best[name] = (min(t, old[0]) if old else t, min(n, old[1]) if old else n)
    print(f"numba {numba.__version__}, numpy {np.__version__}; best of {args.rounds} alternating rounds, N = {N:,}\n")
    print("| kernel | twinjit ms (min / median) | Numba ms (min / median) | ratio, min |")
    print("|---|---:|---:|---:|")
    prod = 1.0
    for name, (t, n) in best.items():
        ratio = t[0] / n[0]
        prod *= ratio
        print(f"| {name} | {t[0]:.2f} / {t[1]:.2f} | {n[0]:.2f} / {n[1]:.2f} | {ratio:.2f} |")
    print(f"\nGeometric mean of the ratios: **{prod ** (1 / len(best)):.2f}**")


if __name__ == "__main__":
    main()
