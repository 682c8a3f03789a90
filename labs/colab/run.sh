#!/usr/bin/env bash
# gpulab on Colab, or anywhere: install Rust if it is missing, build with CUDA when nvidia-smi
# shows a GPU (and nvcc is found), run `gpulab check` and `gpulab report`, and copy the report
# to GPULAB_SAVE_TO (e.g. Google Drive) when set. The notebook beside this file calls it; CI
# runs it on its CPU machine (no GPU: the CUDA build is skipped; cargo exists: no Rust install).
#
# Usage: labs/colab/run.sh [OUT_DIR]        (default data/runs/colab)
#   GPULAB_LANG=ko|en    the report's language (default: the locale's)
#   GPULAB_SAVE_TO=DIR   also copy the report set there (e.g. /content/drive/MyDrive/gpulab)
# The last line printed is the report's JSON path, for the notebook's compare cell.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-data/runs/colab}"
# Each message in the chosen language (GPULAB_LANG), or both when none was chosen.
say() {
    case "${GPULAB_LANG:-}" in
        ko) printf '\n== %s\n' "$1" >&2 ;;
        en) printf '\n== %s\n' "$2" >&2 ;;
        *) printf '\n== %s\n   %s\n' "$1" "$2" >&2 ;;
    esac
}

# 1. Rust: kept in ~/.cargo, which lives as long as the Colab runtime.
if ! command -v cargo >/dev/null 2>&1; then
    if [ -x "$HOME/.cargo/bin/cargo" ]; then
        export PATH="$HOME/.cargo/bin:$PATH"
    else
        say "Rust 설치 (1분 안팎)" "Installing Rust with rustup (about a minute)"
        curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal >&2
        export PATH="$HOME/.cargo/bin:$PATH"
    fi
fi
say "Rust: $(cargo --version)" "Rust: $(cargo --version)"

# 2. A GPU? Its compute capability comes from nvidia-smi (T4 = 7.5 -> CUDA_COMPUTE_CAP=75), so
# Candle compiles its kernels for this GPU only; nvcc from PATH or Colab's /usr/local/cuda.
features=()
cap=""
if command -v nvidia-smi >/dev/null 2>&1; then
    cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d ' .' || true)"
fi
if [ -n "$cap" ]; then
    export CUDA_COMPUTE_CAP="$cap"
    if ! command -v nvcc >/dev/null 2>&1; then
        for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
            if [ -x "$d/nvcc" ]; then export PATH="$d:$PATH"; break; fi
        done
    fi
    if command -v nvcc >/dev/null 2>&1; then
        features=(--features cuda)
        say "GPU 있음: compute capability ${cap}, nvcc $(command -v nvcc). 첫 CUDA 빌드는 Candle의 커널을 nvcc로 컴파일하므로 오래 걸립니다. 같은 세션에서 다시 실행하면 target/을 재사용합니다." \
            "GPU found: compute capability ${cap}, nvcc at $(command -v nvcc). The first CUDA build compiles Candle's kernels with nvcc and is the slow step; reruns in the same session reuse target/."
    else
        say "nvcc가 없어 CUDA 없이 빌드합니다 (check가 그 이유를 말해 줍니다)" \
            "No nvcc found: building without CUDA (check will say so)"
    fi
else
    say "GPU 없음: CPU용으로 빌드합니다. Colab이라면 런타임 > 런타임 유형 변경 > T4 GPU" \
        "No GPU (no nvidia-smi, or it lists none): building for the CPU. On Colab: Runtime > Change runtime type > T4 GPU"
fi

# 3. Build. Cargo's progress is left on, so a 10-15 minute CUDA build shows that it moves.
started=$(date +%s)
say "빌드 중 (처음에는 오래 걸립니다)" "Building (slow the first time)"
cargo build --release "${features[@]}"
say "빌드 $(( $(date +%s) - started )) 초" "Build took $(( $(date +%s) - started )) s"

# 4. Check (it never fails on a missing GPU: that is data) and the report, in the chosen language.
lang=()
if [ -n "${GPULAB_LANG:-}" ]; then lang=(--lang "$GPULAB_LANG"); fi
target/release/gpulab check "${lang[@]}"
name="gpulab-report-$(date -u +%Y%m%d-%H%M%S)-$(hostname | tr -c 'A-Za-z0-9.\n-' '-')"
target/release/gpulab report --quiet --out "$out" --name "$name" "${lang[@]}" >/dev/null

# 5. Save where the session's disk cannot lose it.
if [ -n "${GPULAB_SAVE_TO:-}" ]; then
    mkdir -p "$GPULAB_SAVE_TO"
    cp "$out/$name".md "$out/$name".json "$out/$name"-*.svg "$GPULAB_SAVE_TO/"
    say "보고서를 ${GPULAB_SAVE_TO} 에 복사했습니다" "Copied the report to ${GPULAB_SAVE_TO}"
fi
echo "$out/$name.json"
