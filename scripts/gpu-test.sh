#!/usr/bin/env bash
# The GPU test run, repeatable by any later session. Two halves:
#
#   scripts/gpu-test.sh pack   # here (Rust + LLVM 19, no GPU): release-builds the GPU test binaries,
#                              # the examples and the CLI with --features cuda, strips and xz-packs
#                              # them into device/ (git-ignored), with the benchmark folder.
#   scripts/gpu-test.sh run    # on the GPU machine, in the repo root, with device/ carried: unpacks
#                              # and runs `twinjit detect`, the GPU test binaries, the examples, and
#                              # prints one summary line per step and a final `gpu-test: N ok, M failed`.
#   scripts/gpu-test.sh bench  # on the GPU machine: ../shared/gpu_bench (copied into device/bench by
#                              # pack) with the packed `twinjit` as the engine; results.md under $OUT.
#
# Through the device tool: run(command="scripts/gpu-test.sh run", carry=["device"]).
# The test binaries and examples read files under the path they were built in (/work/main);
# `run` links that path to the checkout when it differs.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PACK="$ROOT/device"

pack() {
  set -e
  rm -rf "$PACK/bin" "$PACK/bin.tar.xz"
  mkdir -p "$PACK/bin"
  local log; log=$(mktemp)
  cargo build --release --features cuda -p twinjit-cli -p twinjit --bins --examples
  cargo test --release --features cuda --test gpu_corpus --no-run --message-format=json > "$log"
  cargo test --release -p twinjit-cuda --no-run --message-format=json >> "$log"
  local bins=(target/release/twinjit target/release/examples/cuda_vecadd target/release/examples/cuda_exp_decay
              target/release/examples/cuda_fill_array target/release/examples/cuda_launch_error
              target/release/examples/ptx_only)
  while read -r exe; do bins+=("$exe"); done < <(grep -o '"executable":"[^"]*"' "$log" | cut -d'"' -f4 | grep -E '/(gpu_corpus|gpu|gpu_fault)-[0-9a-f]+$' | sort -u)
  rm -f "$log"
  for b in "${bins[@]}"; do
    local name; name=$(basename "$b" | sed -E 's/-[0-9a-f]{16}$//')
    [[ "$b" == *twinjit-cuda* || "$b" == */deps/gpu-* || "$b" == */deps/gpu_fault-* ]] && name="cuda_crate_$name"
    strip -o "$PACK/bin/$name" "$b"
  done
  # One archive with a dictionary larger than a binary: every binary links the same LLVM, so
  # the second and later ones cost little (6 binaries of ~47 MB pack to well under 64 MiB).
  tar -C "$PACK" -cf - bin | xz -T1 --lzma2=preset=6,dict=192MiB > "$PACK/bin.tar.xz"
  rm -rf "$PACK/bin"
  rm -rf "$PACK/bench"
  if [[ -d ../shared/gpu_bench ]]; then cp -r ../shared/gpu_bench "$PACK/bench"; rm -rf "$PACK/bench/results"; fi
  du -sh "$PACK"/*
}

unpack() {
  BIN=/tmp/twinjit/bin
  if [[ ! -f /tmp/twinjit/.unpacked || "$PACK/bin.tar.xz" -nt /tmp/twinjit/.unpacked ]]; then
    rm -rf "$BIN" && mkdir -p /tmp/twinjit
    xz -dc "$PACK/bin.tar.xz" | tar -C /tmp/twinjit -xf -
    touch /tmp/twinjit/.unpacked
  fi
  if [[ "$ROOT" != /work/main && ! -e /work/main ]]; then mkdir -p /work && ln -s "$ROOT" /work/main; fi
}

run() {
  unpack
  export TWINJIT_REQUIRE_GPU=1 RUST_BACKTRACE=1
  local ok=0 bad=0
  step() {
    local name="$1"; shift
    local t0=$SECONDS
    if "$@" > "/tmp/gt-$name.log" 2>&1; then
      ok=$((ok + 1)); echo "ok     $name ($((SECONDS - t0)) s)"
    else
      bad=$((bad + 1)); echo "FAILED $name ($((SECONDS - t0)) s)"; tail -n 60 "/tmp/gt-$name.log"
    fi
    grep -E "^(test result|vecadd|fill_array|exp_decay|first launch|GPU:|verified|caught|id [0-9]|CUDA driver|    compute)|corpus on the GPU" "/tmp/gt-$name.log" | sed 's/^/         /'
    # Only a few files come back from the device tool: keep the failing steps' logs.
    if [[ -n "${OUT:-}" && -f "/tmp/gt-$name.log" ]] && ! tail -n 3 "/tmp/gt-$name.log" | grep -q "test result: ok"; then
      cp "/tmp/gt-$name.log" "$OUT/" 2>/dev/null
    fi
    return 0
  }
  step detect "$BIN/twinjit" detect
  for t in "$BIN"/gpu_corpus "$BIN"/cuda_crate_*; do
    [[ -x "$t" ]] && step "$(basename "$t")" "$t" --test-threads=1 --nocapture
  done
  for ex in cuda_vecadd cuda_exp_decay cuda_fill_array cuda_launch_error; do step "$ex" "$BIN/$ex"; done
  step ptx_only bash -c "'$BIN/ptx_only' | grep -q '.entry vecadd'"
  echo "gpu-test: $ok ok, $bad failed"
  [[ $bad -eq 0 ]]
}

bench() {
  unpack
  export PATH="$PATH:/usr/local/cuda/bin"
  OUT="${OUT:-/tmp/gb}" bash "$PACK/bench/run.sh" "$BIN/twinjit"
}

# The cost of bounds-checked kernels (issue: debug mode) and the first call of each benchmark
# kernel in fresh processes, with the benchmark's kernels and sizes.
inputs() {
  local d=/tmp/twinjit-in
  [[ -f "$d/done" ]] && return 0
  mkdir -p "$d"
  python3 - "$d" <<'PY'
import sys, numpy as np
d = sys.argv[1]; r = np.random.default_rng(1); n = 1 << 26; m = 4096; t = 8192
for name, a in {"x32": r.random(n, dtype=np.float32), "y32": r.random(n, dtype=np.float32),
                "o32": np.zeros(n, np.float32), "x64": r.random(n), "o64": np.zeros(n),
                "p": np.zeros(n // 256, np.float32), "A": r.random((m, m), dtype=np.float32),
                "B": r.random((m, m), dtype=np.float32), "C": np.zeros((m, m), np.float32),
                "T": r.random((t, t), dtype=np.float32), "TO": np.zeros((t, t), np.float32)}.items():
    np.save(f"{d}/{name}.npy", a)
PY
  touch "$d/done"
}

checks() {
  unpack
  inputs
  local d=/tmp/twinjit-in K="$PACK/bench/kernels_cuda.py"
  local -a cases=(
    "vecadd|262144,256|--arg a=$d/x32.npy --arg b=$d/y32.npy --arg out=$d/o32.npy"
    "exp_decay|262144,256|--arg x=$d/x64.npy --arg tau=float64:2.5 --arg out=$d/o64.npy"
    "transpose_tiled|(256,256),(32,8)|--arg a=$d/T.npy --arg out=$d/TO.npy"
    "block_reduce|262144,256|--arg x=$d/x32.npy --arg partial=$d/p.npy"
    "matmul_tiled|(256,256),(16,16)|--arg A=$d/A.npy --arg B=$d/B.npy --arg C=$d/C.npy")
  echo "| kernel | boundscheck off ms | boundscheck on ms | on / off |"
  echo "|---|---:|---:|---:|"
  for c in "${cases[@]}"; do
    IFS='|' read -r f l args <<< "$c"
    local off on
    off=$("$BIN/twinjit" bench "$K" "$f" --target cuda --launch "$l" $args --warmup 3 --reps 20 --boundscheck false | python3 -c 'import json,sys; print(json.load(sys.stdin)["median_ms"])')
    on=$("$BIN/twinjit" bench "$K" "$f" --target cuda --launch "$l" $args --warmup 3 --reps 20 --boundscheck true | python3 -c 'import json,sys; print(json.load(sys.stdin)["median_ms"])')
    echo "| $f | $off | $on | $(python3 -c "print(f'{$on / $off:.3f}')") |"
  done
  echo
  firstcall "$BIN/twinjit"
}

# The first call of each benchmark kernel in fresh processes (driver JIT cache off: source ->
# PTX -> loaded module -> launch -> synchronize), 3 samples, for each binary given (default: the
# packed twinjit), binaries alternating: `kernel binary compile_ms run_ms`.
firstcall() {
  unpack
  inputs
  local d=/tmp/twinjit-in K="$PACK/bench/kernels_cuda.py"
  local -a bins=("$@")
  [[ ${#bins[@]} -eq 0 ]] && bins=("$BIN/twinjit")
  local -a cases=(
    "vecadd|262144,256|--arg a=$d/x32.npy --arg b=$d/y32.npy --arg out=$d/o32.npy"
    "exp_decay|262144,256|--arg x=$d/x64.npy --arg tau=float64:2.5 --arg out=$d/o64.npy"
    "transpose_tiled|(256,256),(32,8)|--arg a=$d/T.npy --arg out=$d/TO.npy"
    "block_reduce|262144,256|--arg x=$d/x32.npy --arg partial=$d/p.npy"
    "matmul_tiled|(256,256),(16,16)|--arg A=$d/A.npy --arg B=$d/B.npy --arg C=$d/C.npy")
  echo "first call (fresh process, driver JIT cache off), 3 samples: kernel binary compile_ms run_ms"
  for c in "${cases[@]}"; do
    IFS='|' read -r f l args <<< "$c"
    for i in 1 2 3; do
      for b in "${bins[@]}"; do
        CUDA_CACHE_DISABLE=1 "$b" run "$K" "$f" --target cuda --launch "$l" $args | python3 -c "import json,sys; r=json.load(sys.stdin); print('$f', '$(basename "$b")', r['compile_ms'], r['run_ms'])"
      done
    done
  done
}

# The CUDA half of the on-disk cache on the GPU: each benchmark kernel run twice in fresh
# processes with one cache directory (`--cache always`); the second must hit both the module's
# outline (no front end) and the kernel's cubin entry (no type inference, no LLVM, no PTX JIT).
# The driver's own JIT cache is off for both. Figures: load_ms + compile_ms of `twinjit run`.
cache() {
  unpack
  inputs
  local d=/tmp/twinjit-in K="$PACK/bench/kernels_cuda.py" cdir=/tmp/twinjit-cache
  rm -rf "$cdir"
  local -a cases=(
    "vecadd|262144,256|--arg a=$d/x32.npy --arg b=$d/y32.npy --arg out=$d/o32.npy"
    "exp_decay|262144,256|--arg x=$d/x64.npy --arg tau=float64:2.5 --arg out=$d/o64.npy"
    "matmul_tiled|(256,256),(16,16)|--arg A=$d/A.npy --arg B=$d/B.npy --arg C=$d/C.npy")
  local ms='import json,sys; r=json.load(sys.stdin); print(round(r["load_ms"] + r["compile_ms"], 3))'
  echo "| kernel | cold ms | warm ms | warm samples | warm hits |"
  echo "|---|---:|---:|---|---|"
  for c in "${cases[@]}"; do
    IFS='|' read -r f l args <<< "$c"
    local cold warm samples=() hits
    cold=$(CUDA_CACHE_DISABLE=1 TWINJIT_CACHE_DIR=$cdir "$BIN/twinjit" run "$K" "$f" --target cuda --launch "$l" $args --cache always | python3 -c "$ms")
    for i in 1 2 3 4 5; do
      samples+=("$(CUDA_CACHE_DISABLE=1 TWINJIT_CACHE_DIR=$cdir TWINJIT_CACHE_LOG=1 "$BIN/twinjit" run "$K" "$f" --target cuda --launch "$l" $args --cache always 2>/tmp/twinjit-cache.err | python3 -c "$ms")")
    done
    warm=$(printf '%s\n' "${samples[@]}" | sort -g | sed -n 3p)
    hits=$(grep -o "cache hit: [^(]*\|cubin for compute [0-9.]*" /tmp/twinjit-cache.err | tr '\n' ' ')
    echo "| $f | $cold | $warm | ${samples[*]} | ${hits:-MISS} |"
  done
  TWINJIT_CACHE_DIR=$cdir "$BIN/twinjit" cache list 2>&1 | sed 's/^/    /'
}

# `twinjit verify` against the GPU (an agreeing kernel, exit 0; a deliberate race, exit 1), the
# pinned-buffer pipeline's copy figures, and `twinjit bench`'s copy figures (pageable memory).
copies() {
  unpack
  cat > /tmp/v.py <<'PY'
from numba import cuda

@cuda.jit
def double(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] *= 2

@cuda.jit
def racy_count(c):
    # Every thread increments one counter without an atomic: lost updates on a GPU.
    c[0] += 1

@cuda.jit
def scale32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * 2
PY
  python3 -c "
import numpy as np
np.save('/tmp/x.npy', np.arange(100000, dtype=np.float64)); np.save('/tmp/c.npy', np.zeros(1, dtype=np.int64))
np.save('/tmp/big.npy', np.ones(1 << 26, dtype=np.float32)); np.save('/tmp/bigo.npy', np.zeros(1 << 26, dtype=np.float32))"
  echo "=== verify, agreeing"; "$BIN/twinjit" verify /tmp/v.py double --target cuda --launch 391,256 --arg a=/tmp/x.npy; echo "exit $?"
  echo "=== verify, a race"; "$BIN/twinjit" verify /tmp/v.py racy_count --target cuda --launch 64,256 --arg c=/tmp/c.npy; echo "exit $?"
  echo "=== pinned"; "$BIN/cuda_crate_gpu" pinned --nocapture 2>&1 | grep -E "pinned|test result"
  echo "=== bench copies (2^26 float32 in and out)"
  "$BIN/twinjit" bench /tmp/v.py scale32 --target cuda --launch 262144,256 --arg x=/tmp/big.npy --arg out=/tmp/bigo.npy --warmup 3 --reps 10
}

# numba-cuda's own test kernels (scripts/cuda_kernel_rate.py): record every launch of the
# installed numba-cuda's cudapy and doc_examples tests on this GPU, replay each with the packed
# twinjit (`--target cuda`), and bring back the summary and the recordings (for cuda-sim replays
# without a GPU). pytest and filecheck, which the tests import, come as wheels in device/wheels
# (`pip download pytest filecheck -d device/wheels` here). RECORD=DIR replays DIR's recordings
# (carried back in) instead of recording again.
kernels() {
  unpack
  python3 -V; python3 -c "import pytest, filecheck, cffi" 2>/dev/null || python3 -m pip install -q --root-user-action=ignore --no-index --find-links "$PACK/wheels" pytest filecheck cffi
  local W=/tmp/ckr OUTD="${OUT:-/tmp/out}"
  mkdir -p "$OUTD"
  if [[ -n "${RECORD:-}" ]]; then
    rm -rf "$W" && mkdir -p "$W" && cp -r "$RECORD" "$W/record"
  else
    python3 scripts/cuda_kernel_rate.py record --work "$W" --jobs "${JOBS:-12}" --budget "${BUDGET:-30}" --modules "${MODULES:-}" | tail -n 3
    tar -C "$W" -cJf "$OUTD/record.tar.xz" record
  fi
  for b in "$BIN/twinjit" "$@"; do
    python3 scripts/cuda_kernel_rate.py replay --work "$W" --twinjit "$b" --target cuda --jobs "${JOBS:-12}" --label "$b"
    cp "$W/kernel-summary-cuda.md" "$OUTD/kernel-summary-$(basename "$(dirname "$b")")-$(basename "$b").md"
    cp "$W/kernel-results-cuda.json" "$OUTD/kernel-results-$(basename "$(dirname "$b")")-$(basename "$b").json"
  done
}

case "${1:-}" in
  kernels) shift; kernels "$@" ;;
  copies) copies ;;
  histogram) unpack; bash benches/gpu/histogram/run.sh "$BIN/twinjit" ;;
  cache) cache ;;
  pack) pack ;;
  run) run ;;
  bench) bench ;;
  checks) checks ;;
  firstcall) shift; firstcall "$@" ;;
  # FMA parity with numba-cuda (benches/gpu/fma_parity): bits of each kernel's output, per binary.
  parity) shift; unpack; python3 benches/gpu/fma_parity/parity.py "$BIN/twinjit" "$@" ;;
  *) echo "usage: scripts/gpu-test.sh pack|run|bench|checks|firstcall [BIN...]|parity [BIN...]|cache|histogram|copies|kernels [BIN...]" >&2; exit 2 ;;
esac
