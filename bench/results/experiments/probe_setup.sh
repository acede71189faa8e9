# Sourced by the probe scripts beside it, on the device machine, with the
# pack of probe programs they were carried with:
#   source bench/results/experiments/probe_setup.sh deps/PACK.tar.xz
# The toolkit's libraries for programs built elsewhere, since() for the
# seconds since the start, the GPU's line, and the pack unpacked in /tmp/p
# (one folder a build).
set -uo pipefail
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64:/usr/local/cuda-13.0/lib
start=$(date +%s)
since() { echo "$(( $(date +%s) - start ))"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/p && xz -dc "$1" | tar -x -C /tmp/p || exit 1
