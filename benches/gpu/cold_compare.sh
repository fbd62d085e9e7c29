#!/usr/bin/env bash
# Cold first call with the cache off (PTX loaded through the driver JIT) against the cache on
# with an empty directory (PTX compiled by the JIT linker, cubin stored, cubin loaded).
# On the GPU machine, after `scripts/gpu-test.sh cache` (which unpacks the binaries into
# /tmp/twinjit/bin and writes the inputs to /tmp/twinjit-in): bash benches/gpu/cold_compare.sh
set -u
BIN=/tmp/twinjit/bin; d=/tmp/twinjit-in; K=/work/main/device/bench/kernels_cuda.py
cases=(
  "vecadd|262144,256|--arg a=$d/x32.npy --arg b=$d/y32.npy --arg out=$d/o32.npy"
  "exp_decay|262144,256|--arg x=$d/x64.npy --arg tau=float64:2.5 --arg out=$d/o64.npy"
  "matmul_tiled|(256,256),(16,16)|--arg A=$d/A.npy --arg B=$d/B.npy --arg C=$d/C.npy")
ms='import json,sys; r=json.load(sys.stdin); print(round(r["load_ms"] + r["compile_ms"], 2))'
for c in "${cases[@]}"; do
  IFS='|' read -r f l args <<< "$c"
  off=(); on=()
  for i in 1 2 3 4 5; do
    off+=("$(CUDA_CACHE_DISABLE=1 "$BIN/twinjit" run "$K" "$f" --target cuda --launch "$l" $args --cache off | python3 -c "$ms")")
    rm -rf /tmp/cc; on+=("$(CUDA_CACHE_DISABLE=1 TWINJIT_CACHE_DIR=/tmp/cc "$BIN/twinjit" run "$K" "$f" --target cuda --launch "$l" $args --cache always | python3 -c "$ms")")
  done
  echo "$f cache-off cold: ${off[*]} | cache-on cold (JIT linker + cubin store): ${on[*]}"
done
