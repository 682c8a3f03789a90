//! One bench point: refuse what cannot fit, warm up, time synchronised runs over rotating random
//! inputs, and check the product against an f64 reference on sampled entries.

use std::time::Instant;

use candle_core::{DType, Device, Tensor};

use super::{BenchConfig, Correctness, MatmulShape, PointResult, PointStatus};
use crate::bench::peak::Peak;
use crate::bench::sgemm::CpuKernel;
use crate::error::Result;
use crate::probe::cuda_facts::{classify_cuda_error, CudaErrorKind};
use crate::probe::device::{self, DeviceSpec};
use crate::stats::Summary;
use crate::units::Bytes;

pub(super) fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").trim().to_string()
}

pub(super) fn skipped(
    spec: DeviceSpec,
    name: &str,
    dtype: DType,
    shape: MatmulShape,
    reason: String,
) -> PointResult {
    PointResult {
        device: spec,
        device_name: name.to_string(),
        dtype,
        shape,
        status: PointStatus::Skipped,
        reason: Some(reason),
        threads: None,
        kernel: None,
        input_sets: 0,
        bytes_needed: Bytes(0),
        cold_s: None,
        unsynced_s: None,
        time: None,
        gflops: None,
        gflops_best: None,
        peak: None,
        efficiency: None,
        h2d_gbs: None,
        d2h_gbs: None,
        correctness: None,
    }
}

/// Rotate inputs until this many bytes are in play, so small products do not run from cache:
/// larger than a big CPU's L3 (~32-256 MiB) and an H200's 50 MiB L2.
const ROTATE_BYTES: u64 = 256 * 1024 * 1024;
/// At most this many input sets.
const MAX_SETS: usize = 4;

/// Bytes one point allocates: `sets` input pairs, one output at a time, and on the CPU the f32
/// copies that half-precision GEMM widens to (data/docs/measured.md: ~7× the bf16 size) or
/// the packed copy of B gpulab's f32 kernel makes (counted whichever kernel runs: a bound).
pub fn bytes_needed(spec: DeviceSpec, dtype: DType, shape: MatmulShape, sets: usize) -> Bytes {
    // In u128 and saturated: a size like 2⁶⁴−1 × 1 × 1 must reach the memory guard as "far too
    // much", not wrap to a small number and fail later in an allocation.
    let (m, k, n) = (shape.m as u128, shape.k as u128, shape.n as u128);
    let size = dtype.size_in_bytes() as u128;
    let inputs = (m * k + k * n) * size * sets as u128;
    let output = m * n * size;
    let widening = match (spec, dtype) {
        (DeviceSpec::Cpu, DType::F16 | DType::BF16) => (m * k + k * n + m * n) * 4,
        // gpulab's f32 kernels pack all of B once (padded to 16 or 32 columns).
        (DeviceSpec::Cpu, DType::F32) => k * n.next_multiple_of(32) * 4,
        _ => 0,
    };
    Bytes(u64::try_from(inputs + output + widening).unwrap_or(u64::MAX))
}

/// The kernel that multiplies `dtype` on the CPU under `config`: gpulab's only does f32.
pub fn cpu_kernel(config: &BenchConfig, dtype: DType) -> CpuKernel {
    match (config.cpu_kernel, dtype) {
        (kernel, DType::F32) => kernel,
        _ => CpuKernel::Candle,
    }
}

/// Input sets for a shape: enough to exceed `ROTATE_BYTES`, at most `MAX_SETS`.
pub fn input_sets(dtype: DType, shape: MatmulShape) -> usize {
    let (m, k, n) = (shape.m as u128, shape.k as u128, shape.n as u128);
    let set = (m * k + k * n) * dtype.size_in_bytes() as u128;
    (u128::from(ROTATE_BYTES).div_ceil(set.max(1)) as usize).clamp(1, MAX_SETS)
}

pub(super) fn measure_point(
    spec: DeviceSpec,
    dev: &Device,
    dtype: DType,
    shape: MatmulShape,
    config: &BenchConfig,
    peak: Option<Peak>,
    cpu_threads: usize,
) -> PointResult {
    let name = device::name(dev);
    if dtype == DType::BF16 {
        if let Some(cap) = device::compute_cap(dev) {
            if !cap.supports_bf16() {
                return skipped(spec, &name, dtype, shape, t!("point-no-bf16", cc = cap));
            }
        }
    }
    let mut sets = input_sets(dtype, shape);
    let free = device::free_memory(dev).unwrap_or(Bytes(u64::MAX));
    // Leave 10 % of free memory to everything else.
    let budget = Bytes(free.0 / 10 * 9);
    while sets > 1 && bytes_needed(spec, dtype, shape, sets) > budget {
        sets -= 1;
    }
    let needed = bytes_needed(spec, dtype, shape, sets);
    if needed > budget {
        return skipped(
            spec,
            &name,
            dtype,
            shape,
            t!("point-no-room", needed = needed, free = free, device = spec),
        );
    }
    let mut result = skipped(spec, &name, dtype, shape, String::new());
    result.input_sets = sets;
    result.bytes_needed = needed;
    result.peak = peak;
    if spec == DeviceSpec::Cpu {
        result.threads = Some(cpu_threads);
        result.kernel = Some(cpu_kernel(config, dtype));
    }
    match timed(dev, dtype, shape, sets, config, &mut result) {
        Ok(()) => {}
        Err(err) => {
            let text = err.to_string();
            result.status = PointStatus::Failed;
            result.reason = Some(match classify_cuda_error(&text) {
                CudaErrorKind::OutOfMemory => t!("point-oom", message = first_line(&text)),
                _ => first_line(&text),
            });
        }
    }
    result
}

fn random(shape: (usize, usize), dtype: DType, dev: &Device) -> candle_core::Result<Tensor> {
    // randn in f32 then cast: every backend supports it, and the values are the same
    // distribution for every dtype.
    Tensor::randn(0f32, 1.0, shape, dev)?.to_dtype(dtype)
}

fn timed(
    dev: &Device,
    dtype: DType,
    shape: MatmulShape,
    sets: usize,
    config: &BenchConfig,
    result: &mut PointResult,
) -> Result<()> {
    let mut inputs = Vec::with_capacity(sets);
    for _ in 0..sets {
        inputs.push((
            random((shape.m, shape.k), dtype, dev)?,
            random((shape.k, shape.n), dtype, dev)?,
        ));
    }
    dev.synchronize()?;
    // The kernel's token; `--cpu-kernel` refuses a kernel this CPU cannot run, so a missing
    // one here is the same refusal, not a panic.
    let wanted = result.kernel.filter(|k| k.is_gpulab());
    let sgemm = match wanted {
        Some(kernel) => match crate::bench::sgemm::Isa::for_kernel(kernel) {
            Some(cpu) => Some(crate::bench::sgemm::Sgemm {
                threads: result.threads.unwrap_or(1),
                cpu,
            }),
            None => return Err(crate::bad!("point-no-isa", kernel = kernel.name())),
        },
        None => None,
    };
    // The product under test; the correctness check below uses the same one.
    let multiply = |a: &Tensor, b: &Tensor| -> candle_core::Result<Tensor> {
        if let Some(sgemm) = &sgemm {
            a.apply_op2_no_bwd(b, sgemm)
        } else {
            a.matmul(b)
        }
    };
    let call = |i: usize| -> Result<f64> {
        let (a, b) = &inputs[i % sets];
        dev.synchronize()?;
        let started = Instant::now();
        let c = multiply(a, b)?;
        // Without this the clock would stop when the launch returns, not when the GPU is done.
        dev.synchronize()?;
        let elapsed = started.elapsed().as_secs_f64();
        drop(c);
        Ok(elapsed)
    };
    result.cold_s = Some(call(0)?);
    if config.naive && dev.is_cuda() {
        let (a, b) = &inputs[0];
        dev.synchronize()?;
        let started = Instant::now();
        let c = a.matmul(b)?;
        result.unsynced_s = Some(started.elapsed().as_secs_f64());
        dev.synchronize()?;
        drop(c);
    }
    // Warm-up: at least two calls, then until the warm-up time has passed.
    let warm_started = Instant::now();
    let mut calls = 1;
    let mut estimate = result.cold_s.unwrap_or(0.0);
    while calls < 3 || warm_started.elapsed() < config.warmup {
        estimate = call(calls)?;
        calls += 1;
        if calls > 10_000 {
            break;
        }
    }
    let runs = ((config.budget.as_secs_f64() / estimate.max(1e-9)).ceil() as usize).clamp(
        config.min_runs.max(1),
        config.max_runs.max(config.min_runs.max(1)),
    );
    let mut samples = Vec::with_capacity(runs);
    for i in 0..runs {
        samples.push(call(calls + i)?);
    }
    let time = Summary::of(&samples).ok_or_else(|| crate::bad!("point-timer-nan"))?;
    result.gflops = Some(shape.flops() / time.median / 1e9);
    result.gflops_best = Some(shape.flops() / time.min / 1e9);
    // A matmul cannot beat the FMA peak: above 100 % the peak was mismeasured, so it is
    // dropped and said, not printed as thousands of per cent.
    result.efficiency = result
        .peak
        .as_ref()
        .and_then(|p| result.gflops.map(|g| g / p.gflops));
    if result.efficiency.is_some_and(|e| e > 1.0) {
        result.efficiency = None;
        if let Some(p) = result.peak.as_mut() {
            p.source = t!("point-peak-below", gflops = format!("{:.1}", p.gflops));
        }
    }
    result.time = Some(time);

    if dev.is_cuda() {
        let host = random((shape.m, shape.k), dtype, &Device::Cpu)?;
        let bytes = (shape.m * shape.k * dtype.size_in_bytes()) as f64;
        dev.synchronize()?;
        let started = Instant::now();
        let on_device = host.to_device(dev)?;
        dev.synchronize()?;
        result.h2d_gbs = Some(bytes / started.elapsed().as_secs_f64() / 1e9);
        let c = on_device.matmul(&inputs[0].1)?;
        dev.synchronize()?;
        let started = Instant::now();
        let back = c.to_device(&Device::Cpu)?;
        let out_bytes = (shape.m * shape.n * dtype.size_in_bytes()) as f64;
        result.d2h_gbs = Some(out_bytes / started.elapsed().as_secs_f64() / 1e9);
        drop(back);
    }

    let (a, b) = &inputs[0];
    let c = multiply(a, b)?;
    let correctness = check_sampled(a, b, &c, dtype)?;
    result.correctness = Some(correctness);
    // Written so that a NaN error counts as wrong.
    let within = correctness.max_rel_error <= correctness.tolerance;
    if !within {
        result.status = PointStatus::Failed;
        result.reason = Some(t!(
            "point-wrong",
            error = format!("{:.2e}", correctness.max_rel_error),
            dtype = crate::dtype::name(dtype),
            tolerance = format!("{:.0e}", correctness.tolerance)
        ));
    } else {
        result.status = PointStatus::Ok;
        result.reason = None;
    }
    Ok(())
}

/// Compares up to 8×8 sampled outputs with f64 dot products of the same (already rounded)
/// inputs. The error is relative to Σ|a·b|, the natural scale of a dot product's rounding error.
pub fn check_sampled(a: &Tensor, b: &Tensor, c: &Tensor, dtype: DType) -> Result<Correctness> {
    let (m, k) = a.dims2()?;
    let (_, n) = b.dims2()?;
    let pick = |len: usize| -> Vec<usize> {
        // Spread over the whole range, ends included: edge tiles are where GEMMs go wrong.
        let count = len.min(8);
        (0..count)
            .map(|i| {
                if count == 1 {
                    0
                } else {
                    i * (len - 1) / (count - 1)
                }
            })
            .collect()
    };
    let rows = pick(m);
    let cols = pick(n);
    let to_host = |t: &Tensor| -> Result<Vec<f64>> {
        Ok(t.to_dtype(DType::F64)?
            .to_device(&Device::Cpu)?
            .flatten_all()?
            .to_vec1::<f64>()?)
    };
    let columns: Vec<Vec<f64>> = cols
        .iter()
        .map(|&j| to_host(&b.narrow(1, j, 1)?))
        .collect::<Result<_>>()?;
    let mut max_rel = 0f64;
    let mut samples = 0;
    for &i in &rows {
        let a_row = to_host(&a.narrow(0, i, 1)?)?;
        let c_row = to_host(&c.narrow(0, i, 1)?)?;
        for (ci, &j) in cols.iter().enumerate() {
            let col = &columns[ci];
            let (mut dot, mut scale) = (0f64, 0f64);
            for t in 0..k {
                dot += a_row[t] * col[t];
                scale += (a_row[t] * col[t]).abs();
            }
            let got = c_row[j];
            let rel = if got.is_finite() {
                (got - dot).abs() / scale.max(f64::MIN_POSITIVE)
            } else {
                f64::INFINITY
            };
            max_rel = max_rel.max(rel);
            samples += 1;
        }
    }
    Ok(Correctness {
        samples,
        max_rel_error: max_rel,
        tolerance: crate::dtype::matmul_tolerance(dtype),
    })
}
