//! What the hardware could do at best, so every benchmark result can say how close it came.
//!
//! - CPU: *measured*, not read. /proc/cpuinfo's MHz is not the clock under load (this project's
//!   2.6 GHz EPYC runs near 3.8 GHz under AVX load, data/docs/measured.md), so we run a loop of
//!   independent fused multiply-adds on every matmul thread at the widest vector width the CPU
//!   has (AVX-512, AVX2+FMA, or whatever LLVM makes of it elsewhere) and count FLOP/s. 12
//!   independent accumulators hide the FMA latency (4-5 cycles × 2 ports) so the loop is
//!   throughput-bound, which is exactly what a well-blocked GEMM kernel is.
//! - GPU: the datasheet's dense figure from `data/gpus.toml` (see [`crate::probe::gpus`]).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// A peak with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Peak {
    /// GFLOP/s.
    pub gflops: f64,
    /// How it was obtained, e.g. "measured: AVX2+FMA loop on 2 threads".
    pub source: String,
}

const CHAINS: usize = 12;

/// Measures the CPU's f32 FMA peak on `threads` threads for about `duration`.
pub fn measure_cpu_peak(threads: usize, duration: Duration) -> Peak {
    let threads = threads.max(1);
    let (kernel, lanes, label) = pick_kernel();
    // Calibrate: how many iterations take ~1/10 of the duration on one thread.
    let mut iters: u64 = 1 << 14;
    loop {
        let t = Instant::now();
        std::hint::black_box(kernel(iters));
        if t.elapsed() > duration / 10 || iters > (1 << 34) {
            break;
        }
        iters *= 2;
    }
    // Best of three: a peak is the most the machine did, and a shared VM's neighbours and clock
    // ramps only ever make a run slower.
    let per_run = iters * 10 / 3;
    let flops = per_run as f64 * (CHAINS * lanes * 2) as f64 * threads as f64;
    let mut best = 0f64;
    for _ in 0..3 {
        let started = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| std::hint::black_box(kernel(per_run)));
            }
        });
        best = best.max(flops / started.elapsed().as_secs_f64() / 1e9);
    }
    Peak {
        gflops: best,
        source: t!("peak-source", kind = label, threads = threads),
    }
}

type Kernel = fn(u64) -> f32;

fn pick_kernel() -> (Kernel, usize, &'static str) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return (x86::run_avx512, 16, "AVX-512");
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            return (x86::run_avx2, 8, "AVX2");
        }
    }
    (portable, 4, "portable")
}

/// The loop body, generic over the vector width: LLVM turns each `[f32; LANES]` row into one
/// vector register and each `mul_add` into one FMA instruction when the features are enabled.
#[inline(always)]
fn fma_chains<const LANES: usize>(iters: u64) -> f32 {
    let mut acc = [[1.0f32; LANES]; CHAINS];
    let a = std::hint::black_box(0.999_999_9f32);
    let b = std::hint::black_box(1.0e-7f32);
    for _ in 0..iters {
        for chain in acc.iter_mut() {
            for lane in chain.iter_mut() {
                *lane = lane.mul_add(a, b);
            }
        }
    }
    acc.iter().flatten().sum()
}

fn portable(iters: u64) -> f32 {
    fma_chains::<4>(iters)
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86 {
    //! The x86 kernels, compiled with the vector features enabled for just these functions.
    use super::CHAINS;

    // Written with the intrinsics rather than left to LLVM's vectoriser: from `[f32; 16]` rows it
    // emitted gathers and scatters (`vgatherqps`/`vscatterqps`) on AVX-512 and the "peak" came
    // out at 1-3 GFLOP/s, so every matmul read as thousands of per cent of it.
    #[target_feature(enable = "avx2,fma")]
    fn avx2(iters: u64) -> f32 {
        use std::arch::x86_64::*;
        let a = _mm256_set1_ps(std::hint::black_box(0.999_999_9f32));
        let b = _mm256_set1_ps(std::hint::black_box(1.0e-7f32));
        let mut acc = [_mm256_set1_ps(1.0); CHAINS];
        for _ in 0..iters {
            for c in acc.iter_mut() {
                *c = _mm256_fmadd_ps(*c, a, b);
            }
        }
        let mut lanes = [0f32; 8];
        let sum = acc
            .iter()
            .fold(_mm256_setzero_ps(), |s, c| _mm256_add_ps(s, *c));
        // SAFETY: `lanes` is 8 floats, the width of one __m256; storeu needs no alignment.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), sum) };
        lanes.iter().sum()
    }

    #[target_feature(enable = "avx512f")]
    fn avx512(iters: u64) -> f32 {
        use std::arch::x86_64::*;
        let a = _mm512_set1_ps(std::hint::black_box(0.999_999_9f32));
        let b = _mm512_set1_ps(std::hint::black_box(1.0e-7f32));
        let mut acc = [_mm512_set1_ps(1.0); CHAINS];
        for _ in 0..iters {
            for c in acc.iter_mut() {
                *c = _mm512_fmadd_ps(*c, a, b);
            }
        }
        let sum = acc
            .iter()
            .fold(_mm512_setzero_ps(), |s, c| _mm512_add_ps(s, *c));
        _mm512_reduce_add_ps(sum)
    }

    pub(super) fn run_avx2(iters: u64) -> f32 {
        // SAFETY: only picked after is_x86_feature_detected!("avx2") and ("fma") succeeded.
        unsafe { avx2(iters) }
    }

    pub(super) fn run_avx512(iters: u64) -> f32 {
        // SAFETY: only picked after is_x86_feature_detected!("avx512f") succeeded (every
        // AVX-512 CPU also has FMA).
        unsafe { avx512(iters) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_peak_is_a_positive_measurement() {
        let peak = measure_cpu_peak(1, Duration::from_millis(50));
        assert!(peak.gflops.is_finite() && peak.gflops > 0.0);
        assert!(peak.source.starts_with("measured"));
    }

    #[test]
    fn the_peak_is_at_least_what_one_core_does_in_scalar_code() {
        // Any vector FMA loop beats 2 FLOP/cycle at a few hundred MHz; the gather/scatter loop
        // this replaced measured 1-3 GFLOP/s on AVX-512 machines.
        let peak = measure_cpu_peak(1, Duration::from_millis(100));
        assert!(peak.gflops > 5.0, "{peak:?}");
    }
}
