#!/usr/bin/env bash
# run_sanitizer.sh TOOL PROGRAM [ARGS...]: runs PROGRAM under compute-sanitizer
# --tool TOOL and fails on any error it reports. Skips (exit 77, one line)
# where there is no GPU or no compute-sanitizer.
set -u
tool=$1; shift
sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
if ! nvidia-smi -L 2>/dev/null | grep -q "^GPU"; then
  echo "SKIP compute-sanitizer $tool: no usable CUDA device: nvidia-smi lists none"; exit 77
fi
if [ ! -x "$sanitizer" ]; then
  echo "SKIP compute-sanitizer $tool: compute-sanitizer not found"; exit 77
fi
# initcheck leaves cudaMemcpy alone: Thrust's max_element and min_element copy
# back a (value, index) tuple whose padding the library never writes, a
# report on its bytes, not ours; every result this suite copies back was
# poisoned (written) before the call and is checked after it.
api=()
[ "$tool" = initcheck ] && api=(--check-api-memory-access no)
exec "$sanitizer" --tool "$tool" "${api[@]}" --error-exitcode 1 --print-limit 20 "$@"
