#!/usr/bin/env python3
"""Check the `# check:` lines of tests/kernels_cuda/*.py under Numba's CUDA simulator.

Usage:
    python tests/kernels_cuda/verify_numba_cudasim.py              # check every file
    python tests/kernels_cuda/verify_numba_cudasim.py FILE.py ...  # only these files
    python tests/kernels_cuda/verify_numba_cudasim.py --generate [FILE.py ...]
    python tests/kernels_cuda/verify_numba_cudasim.py --gpu [FILE.py ...]

Run it with the project's venv (numba 0.68.1 ships `numba.cuda` and its simulator; the
separate `numba-cuda` package has the same simulator). The script sets
NUMBA_ENABLE_CUDASIM=1 itself, so no GPU is needed.

Check line grammar (one per line, anywhere in the file):

    # check: KERNEL[GRID, BLOCK](ARG, ...) -> None ; arg0 == [..] ; arg2 == [..]

GRID and BLOCK are ints or tuples of up to three ints, as in `kernel[grid, block](...)`;
`kernel[grid, block, 0, shared_bytes](...)` (stream 0) adds dynamic shared memory.
Each ARG is a Python expression evaluated with `np` and `math` in scope (fresh arrays per
check). After the launch, `argN == LIST` compares `argN.tolist()`: ints and bools exactly
(and of the same kind), floats equal or both NaN (a relative 1e-12 is tolerated, as in
tests/kernels/verify_numba.py). tests/corpus_kernels_interp.rs launches the same lines in
twinjit's interpreter.

--gpu runs the same checks under compiled numba-cuda on a real GPU instead of the simulator
(no shim; floats may then differ in the last bits: each check reports exact, or within 1e-6
relative, which it counts as `inexact` rather than failed).

--generate rewrites every `argN == ?` placeholder in the given files with the values the
simulator produces (floats as repr() of the Python float of each element, so float32 values
appear exactly). Run the plain mode afterwards; generated values still need a human look.

The simulator is not a GPU: it runs each CUDA thread as a Python thread over NumPy, so its
arithmetic follows NumPy (float32 math functions are computed in float64, `cuda.fma` is not
fused, `float32 * 0.1` stays float32 under NEP 50 where compiled Numba computes float64),
shared and local arrays start uninitialised, and it has no warp shuffles. The corpus is
written to stay inside the part where the simulator and compiled Numba agree: float32 work
uses np.float32 constants, `fma` operands whose product is exact, arrays initialised before
they are read, race-free kernels and order-independent atomics (float atomics add exactly
representable values). numba-cuda on a real GPU is the final arbiter of every expected value.

libdevice: the simulator has no `numba.cuda.libdevice`; the script installs one computed by
NumPy at libdevice's fixed types (see `_libdevice_module`), so libdevice_math.py's checks use
inputs with exact results and are also run with --gpu.

`alignment=` of `cuda.shared.array` / `cuda.local.array` (numba-cuda's, newer than the
simulator): shimmed to check the value and otherwise ignore it, since a simulated thread sees
no addresses; shared_sync.py's `aligned_tiles` is also run with --gpu.

Warp shuffles and votes: the simulator lacks `cuda.shfl_down_sync`, `shfl_up_sync`,
`shfl_xor_sync`, `shfl_sync`, `all_sync`, `any_sync`, `eq_sync`, `ballot_sync`, `match_any_sync`,
`match_all_sync`, `syncwarp` and
`lanemask_lt` (and `cuda.activemask`, shimmed as the lanes of the caller's warp that exist, which is what
converged code sees), so this script installs a shim with PTX's semantics as numba-cuda emits them (`shfl.sync`
with clamp 0x1f: the lane offset or index is taken modulo 32; `down` past lane 31 and a
missing source lane return the caller's own value). The shim exchanges values through two
block-wide barriers, so every thread of the block must execute the shuffle (true for every
shuffle kernel in the corpus). Checks of warp.py and warp_votes.py therefore rest on this
shim, not on code from Numba: they are the least independent checks of the corpus, which is
why they are also run with --gpu against numba-cuda on the GPU.
"""

import ast
import os
import re
import sys
import tempfile
import threading
import traceback

GPU = "--gpu" in sys.argv[1:]
if not GPU:
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="twinjit-numba-cache-"))
sys.dont_write_bytecode = True

import numpy as np  # noqa: E402

if not hasattr(np, "row_stack"):
    # numba 0.68.0's typing registry still names np.row_stack, which NumPy 2.5 removed.
    np.row_stack = np.vstack

from numba import cuda  # noqa: E402, F401

if not GPU:
    from numba.cuda.simulator import kernelapi

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "kernels"))

from verify_common import (  # noqa: E402
    CheckError,
    check_args,
    eval_env,
    run_files,
    split_check,
    split_value,
    with_args,
)

GPU_REL_TOL = 1e-6
INEXACT = []


# --- the shuffle shim -----------------------------------------------------------------------

_SHFL_LOCK = threading.Lock()


def _exchange(value, source_lane):
    t = threading.current_thread()
    manager = t._manager
    with _SHFL_LOCK:
        slots = manager.__dict__.setdefault("_twinjit_shfl_slots", {})
    me = t.thread_id
    slots[me] = value
    t.syncthreads()
    lane = me % 32
    src = source_lane(lane)
    got = slots.get(me - lane + src, value) if 0 <= src < 32 else value
    t.syncthreads()
    return got


def _activemask(self):
    # Converged code: the lanes of the caller's warp that exist.
    t = threading.current_thread()
    bx, by, bz = t._manager._block_dim
    present = min(32, bx * by * bz - (t.thread_id - t.thread_id % 32))
    return (1 << present) - 1


def _shfl_down_sync(self, mask, value, delta):
    return _exchange(value, lambda lane: lane + (int(delta) & 31))


def _shfl_xor_sync(self, mask, value, lane_mask):
    return _exchange(value, lambda lane: lane ^ (int(lane_mask) & 31))


def _shfl_sync(self, mask, value, src_lane):
    return _exchange(value, lambda lane: int(src_lane) & 31)


def _shfl_up_sync(self, mask, value, delta):
    # `up` clamps at lane 0: below it the caller keeps its own value.
    return _exchange(value, lambda lane: lane - (int(delta) & 31))


def _warp_values(mask, value):
    """The caller's value and those of its warp's lanes in `mask` ({lane: value}), exchanged
    through two block-wide barriers (every thread of the block must call it)."""
    t = threading.current_thread()
    manager = t._manager
    with _SHFL_LOCK:
        slots = manager.__dict__.setdefault("_twinjit_warp_slots", {})
    me = t.thread_id
    slots[me] = value
    t.syncthreads()
    base = me - me % 32
    lanes = {l: slots[base + l] for l in range(32) if (int(mask) >> l) & 1 and base + l in slots}
    t.syncthreads()
    return value, lanes


def _vote(mask, predicate, combine):
    """The predicates of the caller's warp lanes in `mask`, combined (PTX's vote.sync)."""
    return combine(_warp_values(mask, bool(predicate))[1])


def _ballot(lanes):
    bits = sum(1 << l for l, p in lanes.items() if p)
    return bits - (1 << 32) if bits >= 1 << 31 else bits


def _all_sync(self, mask, predicate):
    return _vote(mask, predicate, lambda lanes: all(lanes.values()))


def _any_sync(self, mask, predicate):
    return _vote(mask, predicate, lambda lanes: any(lanes.values()))


def _eq_sync(self, mask, predicate):
    return _vote(mask, predicate, lambda lanes: len(set(lanes.values())) <= 1)


def _ballot_sync(self, mask, predicate):
    return _vote(mask, predicate, _ballot)


def _match_lanes(mask, value):
    """The caller's value and its mask's lanes' values, as bits (PTX's match.sync compares
    bits: floats by their representation)."""
    return _warp_values(mask, np.asarray(value).tobytes())


def _as_int32(bits):
    return bits - (1 << 32) if bits >= 1 << 31 else bits


def _match_any_sync(self, mask, value):
    mine, lanes = _match_lanes(mask, value)
    return _as_int32(sum(1 << l for l, v in lanes.items() if v == mine))


def _match_all_sync(self, mask, value):
    mine, lanes = _match_lanes(mask, value)
    if all(v == mine for v in lanes.values()):
        return _as_int32(sum(1 << l for l in lanes)), True
    return 0, False


def _syncwarp(self, mask=0xFFFFFFFF):
    # Every thread of a corpus block reaches it, so a block barrier is a warp barrier here.
    threading.current_thread().syncthreads()


def _lanemask_lt(self):
    return (1 << (threading.current_thread().thread_id % 32)) - 1


def _libdevice_module():
    """numba.cuda.libdevice for the simulator (which has none): each function at libdevice's
    fixed types (NAME float64, NAMEf float32, arguments converted first), computed by NumPy."""
    import types

    mod = types.ModuleType("numba.cuda.libdevice")
    floats = {
        "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "cbrt": np.cbrt,
        "exp10": lambda x: np.power(x.dtype.type(10), x), "log2": np.log2, "exp": np.exp,
        "floor": np.floor, "ceil": np.ceil, "rint": np.rint, "trunc": np.trunc,
        "fmax": np.fmax, "fmin": np.fmin, "hypot": np.hypot, "copysign": np.copysign,
        "pow": np.power, "fma": lambda a, b, c: a * b + c, "sin": np.sin, "cos": np.cos,
    }
    for name, fn in floats.items():
        for suffix, t in (("", np.float64), ("f", np.float32)):
            def g(*args, fn=fn, t=t):
                return t(fn(*[t(a) for a in args]))
            setattr(mod, name + suffix, g)
            if suffix == "f":
                setattr(mod, "fast_" + name + suffix, g)

    def bits32(x):
        return int(x) & 0xFFFFFFFF

    def bits64(x):
        return int(x) & 0xFFFFFFFFFFFFFFFF

    mod.popc = lambda x: np.int32(bin(bits32(x)).count("1"))
    mod.popcll = lambda x: np.int32(bin(bits64(x)).count("1"))
    mod.clz = lambda x: np.int32(32 - bits32(x).bit_length())
    mod.clzll = lambda x: np.int32(64 - bits64(x).bit_length())
    mod.ffs = lambda x: np.int32((bits32(x) & -bits32(x)).bit_length())
    mod.ffsll = lambda x: np.int32((bits64(x) & -bits64(x)).bit_length())
    mod.abs = lambda x: np.int32(abs(np.int32(x)))
    mod.llabs = lambda x: np.int64(abs(np.int64(x)))
    # The functions libdevice gives two results of (through a pointer), as numba-cuda's tuples.
    for suffix, t in (("", np.float64), ("f", np.float32)):
        setattr(mod, "sincos" + suffix, lambda x, t=t: (t(np.sin(t(x))), t(np.cos(t(x)))))
        setattr(mod, "frexp" + suffix, lambda x, t=t: (t(np.frexp(t(x))[0]), np.int32(np.frexp(t(x))[1])))
        setattr(mod, "modf" + suffix, lambda x, t=t: (t(np.modf(t(x))[0]), t(np.modf(t(x))[1])))
    mod.sad = lambda x, y, z: np.uint32((abs(int(np.int32(x)) - int(np.int32(y))) + int(np.uint32(z))) & 0xFFFFFFFF)
    mod.usad = lambda x, y, z: np.uint32((abs(int(np.uint32(x)) - int(np.uint32(y))) + int(np.uint32(z))) & 0xFFFFFFFF)
    return mod


def _cache_hints():
    """numba-cuda's cache-hinted loads and stores (`cuda.ldcg(a, i)`, `cuda.stcs(a, i, v)`),
    which the simulator lacks: a cache operator changes no value, so they are plain indexing
    (negative indices wrapping, the stored value converted to the element type)."""

    def load(array, i):
        return array[i]

    def store(array, i, value):
        array[i] = value

    return [(n, staticmethod(load)) for n in ("ldca", "ldcg", "ldcs", "ldlu", "ldcv")] + [
        (n, staticmethod(store)) for n in ("stcg", "stcs", "stwb", "stwt")
    ]


def _typed_device_jit(jit):
    """The simulator runs a device function's Python body whatever its declared signature;
    compiled numba-cuda converts the arguments to it (`@cuda.jit("int64(int64, int64)",
    device=True)` called with 1.5 adds 1 and 2) and the result to its return type. This wraps
    `cuda.jit` so that a device function with one declared signature does the same (NumPy's
    scalar conversions: floats truncate toward zero as PTX's `cvt.rzi` does)."""
    from numba.core import sigutils

    def convert(v, t):
        try:
            return np.dtype(str(t)).type(v)
        except TypeError:
            return v

    def wrapped(func_or_sig=None, *args, **kwargs):
        sig = func_or_sig[0] if isinstance(func_or_sig, list) and len(func_or_sig) == 1 else func_or_sig
        if not (kwargs.get("device") and isinstance(sig, str)):
            return jit(func_or_sig, *args, **kwargs)
        params, ret = sigutils.normalize_signature(sig)
        make = jit(func_or_sig, *args, **kwargs)

        def decorate(fn):
            kernel = make(fn)
            inner = kernel.fn

            def typed(*xs):
                r = inner(*[convert(x, t) for x, t in zip(xs, params)])
                return r if ret is None else convert(r, ret)

            kernel.fn = typed
            return kernel

        return decorate

    return wrapped


if not GPU:
    cuda.jit = _typed_device_jit(cuda.jit)
    _ld = _libdevice_module()
    sys.modules["numba.cuda.libdevice"] = _ld
    cuda.libdevice = _ld
    for _name, _fn in [
        ("shfl_down_sync", _shfl_down_sync),
        ("shfl_xor_sync", _shfl_xor_sync),
        ("shfl_sync", _shfl_sync),
        ("shfl_up_sync", _shfl_up_sync),
        ("activemask", _activemask),
        ("all_sync", _all_sync),
        ("any_sync", _any_sync),
        ("eq_sync", _eq_sync),
        ("ballot_sync", _ballot_sync),
        ("match_any_sync", _match_any_sync),
        ("match_all_sync", _match_all_sync),
        ("syncwarp", _syncwarp),
        ("lanemask_lt", _lanemask_lt),
    ] + _cache_hints():
        if not hasattr(kernelapi.FakeCUDAModule, _name):
            setattr(kernelapi.FakeCUDAModule, _name, _fn)
    for _name, _fn in _cache_hints():
        # Also `from numba.cuda import ldcg` at the top of a file.
        if getattr(cuda, _name, None) is None:
            setattr(cuda, _name, _fn.__func__)

    # numba-cuda's `alignment=` of shared and local arrays: the simulator's arrays have no
    # address a kernel can see, so it only checks the argument as numba-cuda does.
    _aligned_lock = threading.Lock()

    def _aligned(array):
        def wrapper(self, shape, dtype, alignment=None):
            if alignment is not None and (alignment <= 0 or alignment & (alignment - 1) or alignment % 8):
                raise ValueError(f"bad alignment {alignment}")
            allocations = getattr(self, "_allocations", None)
            if allocations is None or shape == 0:
                return array(self, shape, dtype)
            # The simulator keys a static shared array by the source line that asks for it,
            # which would be this wrapper's: key it by the kernel's line instead.
            key = tuple(traceback.extract_stack(sys._getframe(1), limit=1)[-1])[0:2]
            with _aligned_lock:
                if key not in allocations:
                    before = set(allocations)
                    res = array(self, shape, dtype)
                    for k in set(allocations) - before:
                        del allocations[k]
                    allocations[key] = res
                return allocations[key]

        return wrapper

    for _cls in (kernelapi.FakeCUDAShared, kernelapi.FakeCUDALocal):
        if "alignment" not in _cls.array.__code__.co_varnames:
            _cls.array = _aligned(_cls.array)


# --- checks ---------------------------------------------------------------------------------


def parse_check(text):
    """Return (launch_src, expected_src, [(argno, list_src)])."""
    head, arg_checks = split_check(text)
    return split_value(head) + (arg_checks,)


def prepare_launch(mod, call_src):
    node = ast.parse(call_src, mode="eval").body
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Subscript)
        and isinstance(node.func.value, ast.Name)
        and isinstance(node.func.slice, ast.Tuple)
        and len(node.func.slice.elts) in (2, 4)
    ):
        raise CheckError("a check must launch KERNEL[GRID, BLOCK](ARGS) or KERNEL[GRID, BLOCK, 0, SHARED]: %r" % call_src)
    if node.keywords:
        raise CheckError("no keyword arguments: %r" % call_src)
    env = eval_env()
    # numba.cuda.random's states, as a check's argument (twinjit's harness makes the same
    # states as a (n, 2) uint64 array).
    from numba.cuda.random import create_xoroshiro128p_states

    env["create_xoroshiro128p_states"] = create_xoroshiro128p_states
    name = node.func.value.id
    if not hasattr(mod, name):
        raise CheckError("no kernel %r in module" % name)
    cfg = tuple(eval(ast.unparse(e), env) for e in node.func.slice.elts)
    args = [eval(ast.unparse(a), env) for a in node.args]
    return getattr(mod, name), cfg, args


def within_gpu_tolerance(path, e, g):
    """Under --gpu, a float within GPU_REL_TOL counts as `inexact` rather than failed."""
    if GPU and abs(e - g) <= GPU_REL_TOL * max(abs(e), abs(g)):
        INEXACT.append("%s: expected %r, got %r" % (path, e, g))
        return True
    return False


def launch(kernel, cfg, args):
    """`kernel[cfg](*args)`; a CUDA ufunc (`@vectorize(target='cuda')`, whose twinjit kernel
    takes `out` last) is called as numba-cuda calls it, `f(*inputs, out=out)`, with no grid,
    and a CUDA gufunc (`@guvectorize(target='cuda')`) as `f(*inputs, *outputs)`."""
    if type(kernel).__name__ == "CUDAGeneralizedUFunc":
        kernel(*args)
    elif hasattr(kernel, "_kernel_map") or type(kernel).__name__.endswith("UFuncDispatcher"):
        kernel(*args[:-1], out=args[-1])
    else:
        kernel[cfg](*args)


def run_check(mod, text):
    call_src, expected_src, arg_checks = parse_check(text)
    if expected_src != "None":
        return ["a kernel returns None; write `-> None`"]
    kernel, cfg, args = prepare_launch(mod, call_src)
    try:
        launch(kernel, cfg, args)
    except Exception as exc:  # noqa: BLE001
        return ["raised %s: %s" % (type(exc).__name__, exc)]
    fails = check_args(args, arg_checks, within_gpu_tolerance)
    if not arg_checks:
        fails.append("no `argN == LIST` clause: the check checks nothing")
    return fails


def generate_line(mod, text):
    call_src, expected_src, arg_checks = parse_check(text)
    if all(src != "?" for _, src in arg_checks):
        return text
    kernel, cfg, args = prepare_launch(mod, call_src)
    launch(kernel, cfg, args)
    return with_args("%s -> %s" % (call_src, expected_src), args, arg_checks)


def unchecked_kernels(mod, src):
    called = set(re.findall(r"#\s*check:\s*([A-Za-z_][A-Za-z0-9_]*)\[", src))
    names = []
    for name, obj in vars(mod).items():
        if type(obj).__name__ == "FakeCUDAKernel":
            if not getattr(obj, "_device", False) and name not in called:
                names.append(name)
    return names


def main():
    argv = [a for a in sys.argv[1:] if a != "--gpu"]
    if GPU and argv[:1] == ["--generate"]:
        print("--generate runs only under the simulator")
        return 2
    reported = 0

    def report_inexact(rel, lineno):
        # The floats of this check that --gpu accepted as inexact.
        nonlocal reported
        if len(INEXACT) > reported:
            print("inexact %s:%d: %d element(s), e.g. %s" % (rel, lineno, len(INEXACT) - reported, INEXACT[reported]))
        reported = len(INEXACT)

    prefix = "twinjit_cuda_kernel_"
    counts = run_files(HERE, argv, prefix, "kernel", run_check, generate_line, unchecked_kernels, report_inexact)
    if counts is None:
        return 0
    mode = "numba-cuda on the GPU" if GPU else "the numba CUDA simulator"
    inexact = " (%d float elements within 1e-6, not exact)" % len(INEXACT) if INEXACT else ""
    print("%d passed, %d failed under %s%s" % (counts + (mode, inexact)))
    return 1 if counts[1] else 0


if __name__ == "__main__":
    sys.exit(main())
