#!/usr/bin/env bash
# gpulab's CPU f32 kernel against numpy's own OpenBLAS library, alternating call by call in ONE
# process (same machine state for both; .ci/bench-vs-numpy compares whole processes, which on a
# shared VM often run at different moments). Complements bench-vs-numpy, does not replace it.
# Usage: .ci/sgemm-vs-openblas.sh [THREADS] [PAIRS] [SIZES...]   e.g. .ci/sgemm-vs-openblas.sh 2 40 1024 2048
set -euo pipefail
cd "$(dirname "$0")/.."
threads="${1:-$(nproc)}"; pairs="${2:-40}"; shift $(( $# < 2 ? $# : 2 ))
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(1024 2048); fi
python3 -c "import numpy" 2>/dev/null || python3 -m pip install --quiet numpy
lib=$(python3 - <<'PY'
import glob, os, numpy
here = os.path.dirname(numpy.__file__)
hits = glob.glob(os.path.join(here, "..", "numpy.libs", "libscipy_openblas*.so*")) + glob.glob(os.path.join(here, ".dylibs", "libscipy_openblas*"))
print(os.path.realpath(hits[0]) if hits else "")
PY
)
[ -n "$lib" ] || { echo "numpy's bundled scipy-openblas library not found (numpy built against another BLAS?)" >&2; exit 1; }
# Share the main build's target dir so gpulab and Candle are not compiled twice.
CARGO_TARGET_DIR="$PWD/target" cargo build --release --quiet --manifest-path .ci/sgemm-vs-openblas/Cargo.toml
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_THREAD_TIMEOUT=4 \
  ./target/release/sgemm-vs-openblas "$lib" "$threads" "$pairs" "${sizes[@]}"
