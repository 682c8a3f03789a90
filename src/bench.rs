//! `gpulab bench`: CPU vs GPU matrix multiplication through Candle, measured the way careful
//! benchmark tools do it, so the speedup a learner reads is real.
//!
//! Method, point by point (one device × dtype × m×k×n):
//! 1. Refuse before allocating when the buffers would not fit in free RAM/VRAM.
//! 2. Random normal inputs (zeros run faster and draw less power, which flatters a GPU), created
//!    on the device; several input sets are rotated when one set would sit in cache.
//! 3. The first call is timed on its own (`cold_s`): that is what the lesson's one-shot script
//!    measures, and it includes kernel loading/JIT, cuBLAS set-up and allocator growth.
//! 4. Warm-up calls until `warmup` has passed, excluded from the statistics.
//! 5. Timed calls until `budget` has passed and at least `min_runs` were made, each bracketed by
//!    `Device::synchronize()` because CUDA launches return before the work is done.
//! 6. Median, quartiles, min/max, outliers by modified z-score ([`crate::stats`]);
//!    GFLOP/s = 2·m·k·n / time; efficiency against the device's peak ([`crate::bench::peak`]).
//! 7. Correctness: sampled outputs against an f64 reference computed from the same (rounded)
//!    inputs; a result off by more than the dtype's tolerance is an error, not a number.
//! 8. Host↔device copies are timed separately (`h2d_gbs`, `d2h_gbs`), never inside the matmul time.

pub mod export;
pub mod peak;
pub mod sgemm;

use std::time::{Duration, Instant};

use candle_core::{DType, Device, Tensor};
use serde::{Deserialize, Serialize};

use crate::bench::peak::{measure_cpu_peak, Peak};
use crate::bench::sgemm::CpuKernel;
use crate::error::{Error, Result};
use crate::probe::device::{self, DeviceSpec};
use crate::probe::framework::{classify_cuda_error, CudaErrorKind};
use crate::stats::{Ratio, Summary};
use crate::units::Bytes;

/// Version of the bench JSON layout.
pub const BENCH_SCHEMA_VERSION: u32 = 1;

/// m×k times k×n.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatmulShape {
    /// Rows of A and C.
    pub m: usize,
    /// Columns of A, rows of B.
    pub k: usize,
    /// Columns of B and C.
    pub n: usize,
}

impl MatmulShape {
    /// A square n×n×n product.
    pub fn square(n: usize) -> MatmulShape {
        MatmulShape { m: n, k: n, n }
    }

    /// Parses "1024" (square) or "512x1024x256" (m×k×n).
    pub fn parse(text: &str) -> Result<MatmulShape> {
        let parts: Vec<&str> = text.trim().split(['x', 'X', '×']).collect();
        let nums: Option<Vec<usize>> = parts.iter().map(|p| p.trim().parse().ok()).collect();
        let shape = match nums.as_deref() {
            Some([n]) => MatmulShape::square(*n),
            Some([m, k, n]) => MatmulShape {
                m: *m,
                k: *k,
                n: *n,
            },
            _ => {
                return Err(Error::Invalid(format!(
                    "size {text:?} is not N or MxKxN (e.g. 1024 or 512x1024x256)"
                )))
            }
        };
        if shape.m == 0 || shape.k == 0 || shape.n == 0 {
            return Err(Error::Invalid(format!(
                "size {text:?} has a zero dimension"
            )));
        }
        Ok(shape)
    }

    /// FLOPs of one product: 2·m·k·n (one multiply and one add per term).
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.k as f64 * self.n as f64
    }

    /// Elements of A + B + C.
    pub fn elements(&self) -> u64 {
        (self.m * self.k + self.k * self.n + self.m * self.n) as u64
    }
}

impl std::fmt::Display for MatmulShape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.m == self.k && self.k == self.n {
            write!(f, "{}", self.n)
        } else {
            write!(f, "{}x{}x{}", self.m, self.k, self.n)
        }
    }
}

/// What to measure and how long.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    /// Devices, in order.
    pub devices: Vec<DeviceSpec>,
    /// dtypes.
    pub dtypes: Vec<DType>,
    /// Sizes; `None` = the default sweep for each device.
    pub sizes: Option<Vec<MatmulShape>>,
    /// Time spent in timed calls per point (at least `min_runs` calls are made).
    pub budget: Duration,
    /// Warm-up time per point.
    pub warmup: Duration,
    /// Fewest timed calls per point.
    pub min_runs: usize,
    /// Most timed calls per point.
    pub max_runs: usize,
    /// Also time one call without synchronising (GPU) to show what a naive timer reads.
    pub naive: bool,
    /// Measure the CPU's peak (about 0.3 s) for the efficiency column.
    pub measure_peak: bool,
    /// Which implementation multiplies f32 on the CPU (f16/bf16 always use Candle's).
    pub cpu_kernel: CpuKernel,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            devices: vec![DeviceSpec::Cpu],
            dtypes: vec![DType::F32],
            sizes: None,
            budget: Duration::from_millis(500),
            warmup: Duration::from_millis(100),
            min_runs: 10,
            max_runs: 1000,
            naive: false,
            measure_peak: true,
            cpu_kernel: crate::bench::sgemm::cpu_kernel_default(),
        }
    }
}

/// The default sweep: CPUs up to 2048 (a 2-core machine does 2048³ in ~0.1 s), GPUs up to 8192
/// where they leave launch overhead behind.
pub fn default_sizes(device: DeviceSpec) -> Vec<MatmulShape> {
    let sizes: &[usize] = match device {
        DeviceSpec::Cpu => &[256, 512, 1024, 2048],
        DeviceSpec::Cuda(_) => &[256, 512, 1024, 2048, 4096, 8192],
    };
    sizes.iter().map(|&n| MatmulShape::square(n)).collect()
}

/// Outcome of one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PointStatus {
    /// Measured and correct.
    Ok,
    /// Not attempted (does not fit, dtype unsupported); `reason` says why.
    Skipped,
    /// Attempted and failed (out of memory, wrong result); `reason` says why.
    Failed,
}

/// The sampled correctness check.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Correctness {
    /// How many output elements were compared.
    pub samples: usize,
    /// Largest |c − ref| / Σ|a·b| over the samples.
    pub max_rel_error: f64,
    /// Allowed for this dtype.
    pub tolerance: f64,
}

/// One measured point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointResult {
    /// "cpu" or "cuda:N".
    pub device: DeviceSpec,
    /// CPU model or GPU name.
    pub device_name: String,
    /// "f32", "f16", "bf16".
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// The shape.
    pub shape: MatmulShape,
    /// Outcome.
    pub status: PointStatus,
    /// Why skipped or failed.
    pub reason: Option<String>,
    /// CPU threads used by the matmul (None on a GPU).
    pub threads: Option<usize>,
    /// What multiplied on the CPU: "candle" or "gpulab-avx2" (None on a GPU, and in files
    /// written before gpulab had its own kernel).
    #[serde(default)]
    pub kernel: Option<CpuKernel>,
    /// Input sets rotated between calls (more than one when a set would stay in cache).
    pub input_sets: usize,
    /// Bytes the point needed.
    pub bytes_needed: Bytes,
    /// The first call, on its own: what a one-shot timer measures.
    pub cold_s: Option<f64>,
    /// One call timed without synchronising (GPU, `--naive`): launch time, not work time.
    pub unsynced_s: Option<f64>,
    /// Timed calls (seconds).
    pub time: Option<Summary>,
    /// GFLOP/s at the median time.
    pub gflops: Option<f64>,
    /// GFLOP/s at the fastest call.
    pub gflops_best: Option<f64>,
    /// Peak for this device and dtype.
    pub peak: Option<Peak>,
    /// gflops / peak.
    pub efficiency: Option<f64>,
    /// Host→device copy of A, GB/s (GPU only).
    pub h2d_gbs: Option<f64>,
    /// Device→host copy of C, GB/s (GPU only).
    pub d2h_gbs: Option<f64>,
    /// The sampled correctness check.
    pub correctness: Option<Correctness>,
}

/// Speedup of one device over the CPU at the same shape and dtype.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Speedup {
    /// The faster device.
    pub device: DeviceSpec,
    /// dtype.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// Shape.
    pub shape: MatmulShape,
    /// CPU median time / device median time, with its interquartile spread.
    pub ratio: Ratio,
}

/// A whole bench run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// What this file is, and who wrote it when.
    #[serde(flatten)]
    pub header: crate::files::Header,
    /// CPU model.
    pub cpu_model: String,
    /// CPU SIMD level.
    pub cpu_simd: String,
    /// Threads candle's CPU matmul uses.
    pub cpu_threads: usize,
    /// The CPU f32 kernel this run used (None in files written before gpulab had its own).
    #[serde(default)]
    pub cpu_kernel: Option<CpuKernel>,
    /// The CPU's measured peak, when measured.
    pub cpu_peak: Option<Peak>,
    /// Every point, in the order measured.
    pub results: Vec<PointResult>,
    /// Speedups over the CPU.
    pub speedups: Vec<Speedup>,
}

/// The points a config asks for, in order.
pub fn plan(config: &BenchConfig) -> Vec<(DeviceSpec, DType, MatmulShape)> {
    let mut points = Vec::new();
    for &device in &config.devices {
        let sizes = config
            .sizes
            .clone()
            .unwrap_or_else(|| default_sizes(device));
        for &dtype in &config.dtypes {
            for &shape in &sizes {
                points.push((device, dtype, shape));
            }
        }
    }
    points
}

/// Runs the sweep. `on_point` is called after every point with the report so far, so progress
/// can move and exports can be written as results arrive (an interrupted sweep loses nothing).
pub fn run(config: &BenchConfig, mut on_point: impl FnMut(&BenchReport, usize)) -> BenchReport {
    let host = crate::probe::host::detect();
    let cpu_threads = candle_core::utils::get_num_threads();
    let cpu_peak = (config.measure_peak && config.devices.contains(&DeviceSpec::Cpu))
        .then(|| measure_cpu_peak(cpu_threads, Duration::from_millis(300)));
    let catalog = crate::plan::gpus::Catalog::shipped();
    let mut report = BenchReport {
        header: crate::files::Header::with_candle("gpulab.bench", BENCH_SCHEMA_VERSION),
        cpu_model: host.cpu_model.clone(),
        cpu_simd: host.simd.clone(),
        cpu_threads,
        cpu_kernel: Some(config.cpu_kernel),
        cpu_peak: cpu_peak.clone(),
        results: Vec::new(),
        speedups: Vec::new(),
    };
    let mut opened: Vec<(DeviceSpec, std::result::Result<Device, String>)> = Vec::new();
    for (i, (spec, dtype, shape)) in plan(config).into_iter().enumerate() {
        if !opened.iter().any(|(s, _)| *s == spec) {
            opened.push((spec, spec.open().map_err(|e| first_line(&e.to_string()))));
        }
        let dev = &opened
            .iter()
            .find(|(s, _)| *s == spec)
            .expect("just inserted")
            .1;
        let result = match dev {
            Err(err) => skipped(spec, "", dtype, shape, format!("cannot open {spec}: {err}")),
            Ok(dev) => {
                let peak = match spec {
                    DeviceSpec::Cpu => cpu_peak.clone(),
                    DeviceSpec::Cuda(_) => catalog.recognise(&device::name(dev)).and_then(|g| {
                        g.peak_tflops(crate::dtype::name(dtype)).map(|t| Peak {
                            gflops: t * 1000.0,
                            source: format!("datasheet: {} ({})", g.name, g.source),
                        })
                    }),
                };
                measure_point(spec, dev, dtype, shape, config, peak, cpu_threads)
            }
        };
        report.results.push(result);
        report.speedups = speedups(&report.results);
        on_point(&report, i);
    }
    report
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").trim().to_string()
}

fn skipped(
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
    let size = dtype.size_in_bytes() as u64;
    let inputs = (shape.m * shape.k + shape.k * shape.n) as u64 * size * sets as u64;
    let output = (shape.m * shape.n) as u64 * size;
    let widening = match (spec, dtype) {
        (DeviceSpec::Cpu, DType::F16 | DType::BF16) => shape.elements() * 4,
        // gpulab's f32 kernel packs all of B once (padded to 16 columns).
        (DeviceSpec::Cpu, DType::F32) => (shape.k * shape.n.next_multiple_of(16)) as u64 * 4,
        _ => 0,
    };
    Bytes(inputs + output + widening)
}

/// The kernel that multiplies `dtype` on the CPU under `config`: gpulab's only does f32.
pub fn cpu_kernel(config: &BenchConfig, dtype: DType) -> CpuKernel {
    match (config.cpu_kernel, dtype) {
        (CpuKernel::GpulabAvx2, DType::F32) => CpuKernel::GpulabAvx2,
        _ => CpuKernel::Candle,
    }
}

/// Input sets for a shape: enough to exceed [`ROTATE_BYTES`], at most [`MAX_SETS`].
pub fn input_sets(dtype: DType, shape: MatmulShape) -> usize {
    let set = (shape.m * shape.k + shape.k * shape.n) as u64 * dtype.size_in_bytes() as u64;
    (ROTATE_BYTES.div_ceil(set.max(1)) as usize).clamp(1, MAX_SETS)
}

fn measure_point(
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
                return skipped(
                    spec,
                    &name,
                    dtype,
                    shape,
                    format!("compute capability {cap} has no bf16 (needs 8.0+)"),
                );
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
            format!("needs {needed}, but only {free} is free on {spec}"),
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
                CudaErrorKind::OutOfMemory => format!("out of memory: {}", first_line(&text)),
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
    let sgemm = crate::bench::sgemm::Sgemm {
        threads: result.threads.unwrap_or(1),
    };
    let use_sgemm = result.kernel == Some(CpuKernel::GpulabAvx2);
    // The product under test; the correctness check below uses the same one.
    let multiply = |a: &Tensor, b: &Tensor| -> candle_core::Result<Tensor> {
        if use_sgemm {
            a.apply_op2_no_bwd(b, &sgemm)
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
    let time = Summary::of(&samples)
        .ok_or_else(|| Error::Invalid("timer returned a non-finite time".into()))?;
    result.gflops = Some(shape.flops() / time.median / 1e9);
    result.gflops_best = Some(shape.flops() / time.min / 1e9);
    result.efficiency = result
        .peak
        .as_ref()
        .and_then(|p| result.gflops.map(|g| g / p.gflops));
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
        result.reason = Some(format!(
            "wrong result: sampled error {:.2e} exceeds the {} tolerance {:.0e}",
            correctness.max_rel_error,
            crate::dtype::name(dtype),
            correctness.tolerance
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

/// Speedups of every non-CPU result over the CPU result of the same shape and dtype.
pub fn speedups(results: &[PointResult]) -> Vec<Speedup> {
    let mut out = Vec::new();
    for r in results.iter().filter(|r| r.device != DeviceSpec::Cpu) {
        let cpu = results.iter().find(|c| {
            c.device == DeviceSpec::Cpu
                && c.dtype == r.dtype
                && c.shape == r.shape
                && c.status == PointStatus::Ok
        });
        if let (Some(cpu), PointStatus::Ok) = (cpu, r.status) {
            if let (Some(slow), Some(fast)) = (&cpu.time, &r.time) {
                if let Some(ratio) = Ratio::speedup(slow, fast) {
                    out.push(Speedup {
                        device: r.device,
                        dtype: r.dtype,
                        shape: r.shape,
                        ratio,
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse_and_count_flops() {
        assert_eq!(
            MatmulShape::parse("1024").unwrap(),
            MatmulShape::square(1024)
        );
        let s = MatmulShape::parse("2x3x4").unwrap();
        assert_eq!((s.m, s.k, s.n), (2, 3, 4));
        assert_eq!(s.flops(), 48.0);
        assert_eq!(s.to_string(), "2x3x4");
        assert!(MatmulShape::parse("0").is_err());
        assert!(MatmulShape::parse("12XB").is_err());
        assert!(MatmulShape::parse("-3").is_err());
    }

    #[test]
    fn memory_needs_and_rotation() {
        let s = MatmulShape::square(1024);
        // Two 4 MiB f32 inputs per set, 16 sets would be 128 MiB... capped at 4.
        assert_eq!(input_sets(DType::F32, s), 4);
        assert_eq!(input_sets(DType::F32, MatmulShape::square(8192)), 1);
        // A, B, C, and the packed copy of B gpulab's kernel makes.
        let need = bytes_needed(DeviceSpec::Cpu, DType::F32, s, 1);
        assert_eq!(need.0, 4 * 1024 * 1024 * 4);
        let ragged = bytes_needed(
            DeviceSpec::Cpu,
            DType::F32,
            MatmulShape::parse("2x3x17").unwrap(),
            1,
        );
        assert_eq!(
            ragged.0,
            (6 + 3 * 17 + 2 * 17 + 3 * 32) * 4,
            "B padded to 16 columns"
        );
        let gpu = bytes_needed(DeviceSpec::Cuda(0), DType::F32, s, 1);
        assert_eq!(gpu.0, 3 * 1024 * 1024 * 4);
        let half = bytes_needed(DeviceSpec::Cpu, DType::BF16, s, 1);
        assert_eq!(half.0, 3 * 1024 * 1024 * 2 + 3 * 1024 * 1024 * 4);
    }

    #[test]
    fn cpu_sweep_is_measured_and_correct() {
        let config = BenchConfig {
            dtypes: vec![DType::F32, DType::BF16, DType::F16],
            sizes: Some(vec![
                MatmulShape::square(64),
                MatmulShape::parse("48x96x32").unwrap(),
            ]),
            budget: Duration::from_millis(20),
            warmup: Duration::from_millis(5),
            min_runs: 5,
            measure_peak: false,
            ..BenchConfig::default()
        };
        let mut calls = 0;
        let report = run(&config, |_, _| calls += 1);
        assert_eq!(calls, 6);
        assert_eq!(report.results.len(), 6);
        for r in &report.results {
            assert_eq!(r.status, PointStatus::Ok, "{r:?}");
            let t = r.time.unwrap();
            assert!(t.count >= 5);
            assert!(t.min <= t.median && t.median <= t.max);
            assert!(r.gflops.unwrap().is_finite() && r.gflops.unwrap() > 0.0);
            let c = r.correctness.unwrap();
            assert!(c.samples > 0 && c.max_rel_error <= c.tolerance, "{c:?}");
            assert!(r.cold_s.unwrap() > 0.0);
            assert_eq!(r.threads, Some(candle_core::utils::get_num_threads()));
        }
        assert!(report.speedups.is_empty(), "no GPU, no speedup");
    }

    #[test]
    fn a_wrong_product_is_caught() {
        let dev = Device::Cpu;
        let a = Tensor::randn(0f32, 1.0, (32, 32), &dev).unwrap();
        let b = Tensor::randn(0f32, 1.0, (32, 32), &dev).unwrap();
        let good = a.matmul(&b).unwrap();
        let ok = check_sampled(&a, &b, &good, DType::F32).unwrap();
        assert!(ok.max_rel_error < ok.tolerance);
        let bad = (good + 0.5).unwrap();
        let wrong = check_sampled(&a, &b, &bad, DType::F32).unwrap();
        assert!(wrong.max_rel_error > wrong.tolerance);
    }

    #[test]
    fn too_big_is_refused_before_allocating() {
        let config = BenchConfig {
            sizes: Some(vec![MatmulShape::square(1 << 20)]),
            measure_peak: false,
            ..BenchConfig::default()
        };
        let report = run(&config, |_, _| {});
        let r = &report.results[0];
        assert_eq!(r.status, PointStatus::Skipped);
        assert!(
            r.reason.as_ref().unwrap().contains("free"),
            "{:?}",
            r.reason
        );
    }

    #[test]
    fn speedup_pairs_equal_points_only() {
        let mk = |device: &str, n: usize, t: f64| PointResult {
            device: DeviceSpec::parse(device).unwrap(),
            status: PointStatus::Ok,
            time: Summary::of(&[t, t * 1.1, t * 0.9]),
            ..skipped(
                DeviceSpec::Cpu,
                "",
                DType::F32,
                MatmulShape::square(n),
                String::new(),
            )
        };
        let results = vec![
            mk("cpu", 512, 1.0),
            mk("cuda:0", 512, 0.01),
            mk("cuda:0", 1024, 0.05),
        ];
        let s = speedups(&results);
        assert_eq!(s.len(), 1);
        assert!((s[0].ratio.median - 100.0).abs() < 1e-9);
    }
}
