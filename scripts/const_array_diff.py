#!/usr/bin/env python3
"""Differential check of module-level array arithmetic (crates/twinjit-front/src/const_array/ops.rs)
against NumPy: random expressions (`+ - * / // % **`, unary minus, `[::-2]`) over arrays of every
integer, float and complex dtype and Python numbers; each result NumPy computes without an error
or warning is frozen by twinjit and read back element by element with `twinjit run`, and must be
bit-identical. Expressions twinjit refuses (complex `**`, float powers NumPy takes from the vector
math library) are reported as REFUSED lines with the reason, not as differences.

Usage (a Python with numpy; the release CLI built):

    python scripts/const_array_diff.py SEED [TWINJIT]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
TWINJIT = sys.argv[2] if len(sys.argv) > 2 else "target/release/twinjit"
WORK = tempfile.mkdtemp(prefix="twinjit-const-diff-")
MODULE = os.path.join(WORK, "m.py")
dtypes = ['np.int8','np.int16','np.int32','np.int64','np.uint8','np.uint16','np.uint32','np.float32','np.float64','np.complex64','np.complex128']
ops = ['+','-','*','/','//','%','**']
def arr():
    dt = random.choice(dtypes)
    k = random.choice(['arange','array'])
    if k == 'arange':
        lo = random.randint(-5, 3); 
        if 'uint' in dt: lo = random.randint(0,3)
        return f"np.arange({lo}, {lo+6}, dtype={dt})", dt
    vals = [round(random.uniform(-9, 9), random.choice([0,1,3])) for _ in range(6)]
    if 'int' in dt: vals = [int(abs(v)) if 'uint' in dt else int(v) for v in vals]
    return f"np.array({vals}, dtype={dt})", dt
def num():
    return random.choice([str(random.randint(-7, 7)), repr(round(random.uniform(-5,5),2)), '0.5', '3', f"({random.randint(-3,3)}+{random.randint(-3,3)}j)", '2.5j'])
cases = []
for n in range(60):
    a, _ = arr()
    op = random.choice(ops)
    if random.random() < 0.5:
        b = num()
    else:
        b, _ = arr()
    e = f"({a} {op} {b})" if random.random() < 0.5 else f"({b} {op} {a})"
    if random.random() < 0.3:
        e = f"-{e}"
    if random.random() < 0.3:
        e = f"{e}[::-2]"
    cases.append(e)
src = ["import numpy as np", "from numba import njit", ""]
good = []
for i, e in enumerate(cases):
    try:
        with np.errstate(all='raise'):
            v = eval(e)
        if v.dtype == np.bool_ or v.ndim != 1: continue
    except Exception:
        continue
    good.append((i, e, v))
    src.append(f"G{i} = {e}")
for i, e, v in good:
    src.append(f"@njit\ndef get{i}():\n    return ({', '.join(f'G{i}[{k}]' for k in range(v.size))},)")
open(MODULE, 'w').write("\n".join(src) + "\n")
bad = 0
refused = 0
for i, e, v in good:
    r = subprocess.run([TWINJIT, 'run', MODULE, f'get{i}'], capture_output=True, text=True)
    if r.returncode != 0:
        print("REFUSED", e, [l for l in r.stderr.splitlines() if l.startswith("error")][:1]); refused += 1; continue
    got = json.loads(r.stdout)['return']
    for k, x in enumerate(v):
        g = got[k]
        if isinstance(g, dict): g = complex(g['real'], g['imag'])
        want = x.item()
        same = (g == want) or (isinstance(want, complex) and ((np.isnan(want.real) and np.isnan(g.real)) or g == want)) or (isinstance(want, float) and np.isnan(want) and isinstance(g,str))
        if isinstance(g, str): same = np.isnan(want) if isinstance(want,float) else False
        if not same:
            print("DIFF", e, v.dtype, k, repr(want), repr(g)); bad += 1; break
print(len(good), "cases:", len(good) - bad - refused, "identical,", bad, "different,", refused, "refused")
sys.exit(1 if bad else 0)
