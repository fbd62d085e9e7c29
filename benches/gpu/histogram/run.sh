#!/usr/bin/env bash
# The histogram case of the GPU benchmark (not in ../shared/gpu_bench): twinjit, numba-cuda and
# CUDA C++ on 2^26 float32, 256 threads per block, a grid of 32 blocks per SM; kernel time =
# median of 20 CUDA-event intervals after 3 warm-ups. Each result is checked against NumPy.
#   benches/gpu/histogram/run.sh /path/to/twinjit     (on the GPU machine)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; T="$1"; W=/tmp/twinjit-hist; mkdir -p "$W"
export PATH="$PATH:/usr/local/cuda/bin"
python3 - "$W" <<'PY'
import sys, numpy as np
w = sys.argv[1]; x = np.random.default_rng(7).random(1 << 26, dtype=np.float32)
np.save(f"{w}/x.npy", x); np.save(f"{w}/bins.npy", np.zeros(256, np.int32))
np.save(f"{w}/expect.npy", np.bincount(np.minimum((x * np.float32(256)).astype(np.int64), 255), minlength=256).astype(np.int32))
PY
GRID=4224   # 32 blocks per SM on the H200's 132 SMs
nvcc -O3 -arch=sm_90 -o "$W/hist" "$HERE/histogram.cu"
"$W/hist" "$GRID" "$W/x.npy"
"$T" run "$HERE/kernels.py" histogram --target cuda --launch "$GRID,256" --arg x="$W/x.npy" --arg bins="$W/bins.npy" --out "$W/out" > /dev/null
python3 -c "import numpy as np; g=np.load('$W/out/bins.npy'); e=np.load('$W/expect.npy'); print('{\"impl\": \"twinjit_check\", \"ok\": %s}' % str(bool((g==e).all())).lower())"
"$T" bench "$HERE/kernels.py" histogram --target cuda --launch "$GRID,256" --arg x="$W/x.npy" --arg bins="$W/bins.npy" --warmup 3 --reps 20 | python3 -c 'import json,sys; r=json.load(sys.stdin); print(json.dumps({"impl": "twinjit", "median_ms": r["median_ms"]}))'
python3 - "$HERE" "$W" "$GRID" <<'PY'
import sys, numpy as np
np.row_stack = np.vstack   # numba-cuda 0.30.4 with numpy 2.5
sys.path.insert(0, sys.argv[1]); w = sys.argv[2]; grid = int(sys.argv[3])
from numba import cuda
import kernels
x = cuda.to_device(np.load(f"{w}/x.npy")); bins = cuda.to_device(np.zeros(256, np.int32))
k = kernels.histogram[grid, 256]
k(x, bins); cuda.synchronize()
ok = (bins.copy_to_host() == np.load(f"{w}/expect.npy")).all()
ts = []
for r in range(23):
    bins.copy_to_device(np.zeros(256, np.int32))
    a, b = cuda.event(), cuda.event()
    a.record(); k(x, bins); b.record(); b.synchronize()
    if r >= 3: ts.append(cuda.event_elapsed_time(a, b))
print('{"impl": "numba_cuda", "median_ms": %.5f, "ok": %s}' % (float(np.median(ts)), str(bool(ok)).lower()))
PY
