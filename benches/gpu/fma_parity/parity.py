"""Runs kernels.py under numba-cuda and under twinjit (`twinjit run --target cuda`) on the same
inputs and counts the elements whose bits differ. Usage (GPU machine):
    python3 parity.py TWINJIT_BINARY [TWINJIT_BINARY ...]
Prints one JSON line per kernel, output and binary: {"kernel", "binary", "differ", "elements"}."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

if not hasattr(np, "row_stack"):
    # numba-cuda's typing registry still names np.row_stack, which NumPy 2.5 removed (the GPU
    # machine's NumPy); the same shim as tests/kernels_cuda/verify_numba_cudasim.py's.
    np.row_stack = np.vstack
from numba import cuda  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import kernels as K  # noqa: E402

rng = np.random.default_rng(7)
n = 1 << 20
cases = {
    "mandelbrot": (((64, 64), (16, 16)), [("out", np.zeros((1024, 1024), np.int64)), ("x0", np.float64(-2.0)),
                   ("y0", np.float64(-1.5)), ("dx", np.float64(3.0 / 1024)), ("dy", np.float64(3.0 / 1024)),
                   ("max_iter", np.int64(200))], ["out"]),
    "mandelbrot_f32": (((64, 64), (16, 16)), [("out", np.zeros((1024, 1024), np.int32)), ("max_iter", np.int64(200))],
                       ["out"]),
    "complex_axpy": (((n // 256,), (256,)), [("z", rng.random(n) + 1j * rng.random(n)), ("w", rng.random(n) - 1j * rng.random(n)),
                     ("c", rng.random(n) + 1j * rng.random(n)), ("out", np.zeros(n, np.complex128))], ["out"]),
    "horner": (((n // 256,), (256,)), [("x", rng.random(n) * 8 - 4), ("out", np.zeros(n))], ["out"]),
    "stencil": (((64, 64), (16, 16)), [("a", rng.random((1024, 1024))), ("out", np.zeros((1024, 1024)))], ["out"]),
    "norms": (((n // 256,), (256,)), [("p", rng.random((n, 3))), ("out", np.zeros(n))], ["out"]),
    "dot_rows": (((4096 // 256,), (256,)), [("a", rng.random((4096, 64))), ("b", rng.random((4096, 64))),
                 ("out", np.zeros(4096))], ["out"]),
    "transcendental": (((n // 256,), (256,)), [("x", rng.random(n) * 20 - 10), ("out", np.zeros(n))], ["out"]),
    "transcendental_f32": (((n // 256,), (256,)), [("x", (rng.random(n) * 20 - 10).astype(np.float32)),
                           ("out", np.zeros(n, np.float32))], ["out"]),
}


def scalar_arg(v):
    kind = {np.float64: "float64", np.int64: "int64", np.float32: "float32"}[type(v)]
    return f"int64:{int(v)}" if kind == "int64" else f"{kind}:{float(v)!r}"


def run_numba(name, launch, args):
    dev = [cuda.to_device(a) if isinstance(a, np.ndarray) else a for _, a in args]
    grid, block = launch
    getattr(K, name)[grid, block](*dev)
    cuda.synchronize()
    return {nm: d.copy_to_host() for (nm, _), d in zip(args, dev) if isinstance(d, cuda.cudadrv.devicearray.DeviceNDArray)}


def run_twinjit(binary, name, launch, args, tmp):
    cmd = [binary, "run", os.path.join(here, "kernels.py"), name, "--target", "cuda",
           "--launch", f"{launch[0]},{launch[1]}".replace(" ", ""), "--out", tmp]
    for nm, a in args:
        if isinstance(a, np.ndarray):
            p = os.path.join(tmp, f"in_{nm}.npy")
            np.save(p, a)
            cmd += ["--arg", f"{nm}={p}"]
        else:
            cmd += ["--arg", f"{nm}={scalar_arg(a)}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr + r.stdout)
    return {nm: np.load(os.path.join(tmp, f"{nm}.npy")) for nm, a in args if isinstance(a, np.ndarray)}


for name, (launch, args, outs) in cases.items():
    ref = run_numba(name, launch, args)
    for binary in sys.argv[1:]:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                got = run_twinjit(binary, name, launch, args, tmp)
            except RuntimeError as e:
                print(f"{name} {os.path.basename(binary)}: error {str(e)[:300]}")
                continue
        for o in outs:
            a, b = ref[o], got[o]
            bits = lambda x: x.view(np.uint8).reshape(x.size, -1)  # noqa: E731
            diff = int(np.count_nonzero(np.any(bits(a) != bits(b), axis=1)))
            print(json.dumps({"kernel": name, "binary": os.path.basename(binary), "differ": diff, "elements": int(a.size)}))
