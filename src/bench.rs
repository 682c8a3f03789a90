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
//! 9. Memory bandwidth per device ([`bandwidth`]: copy, triad, host↔device pageable and pinned),
//!    and with it a roofline: each matmul point against its device's compute and memory ceilings
//!    ([`roofline`]).

pub mod bandwidth;
pub mod export;
pub mod peak;
mod point;
pub mod roofline;
pub mod sgemm;

use std::time::Duration;

use candle_core::{DType, Device};
use serde::{Deserialize, Serialize};

use crate::bench::peak::{measure_cpu_peak, Peak};
use crate::bench::sgemm::CpuKernel;
use crate::error::Result;
use crate::probe::device::{self, DeviceSpec};
use crate::stats::{Ratio, Summary};
use crate::units::Bytes;
pub use point::{bytes_needed, check_sampled, cpu_kernel, input_sets};
use point::{first_line, measure_point, skipped};

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
            _ => return Err(crate::bad!("shape-invalid", given = format!("{text:?}"))),
        };
        if shape.m == 0 || shape.k == 0 || shape.n == 0 {
            return Err(crate::bad!("shape-zero", given = format!("{text:?}")));
        }
        Ok(shape)
    }

    /// FLOPs of one product: 2·m·k·n (one multiply and one add per term).
    pub fn flops(&self) -> f64 {
        2.0 * self.m as f64 * self.k as f64 * self.n as f64
    }

    /// Elements of A + B + C.
    pub fn elements(&self) -> u64 {
        let (m, k, n) = (self.m as u128, self.k as u128, self.n as u128);
        u64::try_from(m * k + k * n + m * n).unwrap_or(u64::MAX)
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
    /// Element types to time.
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
    /// Also measure each device's memory bandwidth (about 1 s on a CPU).
    pub bandwidth: bool,
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
            bandwidth: true,
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
    /// Whether it ran, was skipped, or failed, and why.
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
    /// Element type.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// m×k×n of the product.
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
    /// Memory bandwidth per device (empty in files written before gpulab measured it).
    #[serde(default)]
    pub bandwidth: Vec<bandwidth::BandwidthResult>,
    /// What Candle's element-wise kernels reach on the CPU, GB/s (`bandwidth::measure_elementwise`).
    #[serde(default)]
    pub elementwise_gbs: Option<f64>,
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
    let catalog = crate::probe::gpus::Catalog::shipped();
    let mut report = BenchReport {
        header: crate::files::Header::with_candle("gpulab.bench", BENCH_SCHEMA_VERSION),
        cpu_model: host.cpu_model.clone(),
        cpu_simd: host.simd.clone(),
        cpu_threads,
        cpu_kernel: Some(config.cpu_kernel),
        cpu_peak: cpu_peak.clone(),
        results: Vec::new(),
        speedups: Vec::new(),
        bandwidth: Vec::new(),
        elementwise_gbs: None,
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
            Err(err) => skipped(
                spec,
                "",
                dtype,
                shape,
                t!(
                    "bench-cannot-open",
                    device = spec,
                    error = crate::probe::framework::CudaProblem::from_error(&err).said()
                ),
            ),
            Ok(dev) => {
                let peak = match spec {
                    DeviceSpec::Cpu => cpu_peak.clone(),
                    DeviceSpec::Cuda(_) => catalog.recognise(&device::name(dev)).and_then(|g| {
                        g.peak_tflops(crate::dtype::name(dtype)).map(|t| Peak {
                            gflops: t * 1000.0,
                            source: t!("bench-datasheet-peak", name = g.name, source = g.source),
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
    if config.bandwidth {
        for (spec, dev) in &opened {
            let budget = Duration::from_millis(300);
            match (spec, dev) {
                (DeviceSpec::Cpu, Ok(dev)) => {
                    report
                        .bandwidth
                        .extend(bandwidth::measure_cpu(cpu_threads, budget));
                    report.elementwise_gbs = bandwidth::measure_elementwise(dev, budget);
                }
                (DeviceSpec::Cuda(_), Ok(dev)) => {
                    let datasheet = catalog
                        .recognise(&device::name(dev))
                        .map(|g| g.bandwidth_gbs);
                    report
                        .bandwidth
                        .extend(bandwidth::measure_device(*spec, dev, datasheet, budget));
                }
                (_, Err(_)) => {}
            }
        }
    }
    report
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
    use candle_core::Tensor;

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
