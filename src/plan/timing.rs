//! How long a workload takes on a target: each step is its compute time plus its memory time,
//! plus a per-step floor for what is neither (kernel launches, the Python loop, the optimizer's
//! per-tensor calls), times the steps of one run.
//!
//! Why a sum and not the roofline's max: the roofline bounds one kernel, where arithmetic and
//! memory traffic overlap. A training step in an eager framework is a sequence of kernels —
//! matrix products (compute-bound, each capped by its own roofline below) and element-wise
//! kernels (layer norms, activations, softmax, the optimizer: memory-bound) — that run one after
//! the other. Measured on the project's CPU, a PyTorch char-GPT step (4 layers, d 128, batch
//! 16 × 128) took 144 ms; the max of the two parts predicts 60 ms, their sum 94 ms
//! (data/docs/measured.md).
//!
//! - Compute: the step's FLOPs at the rate the target reaches for matrices of the workload's size
//!   (a representative GEMM of `rows × d × d`: rows = samples × positions of a step, d² = the
//!   parameters of one layer). On this CPU the rate is *measured* at several sizes (cached in
//!   `data/runs/cpu-rates.json`, so two runs judge alike); on a catalogue GPU it is the
//!   datasheet's dense peak × [`GPU_LARGE_MATMUL_FRACTION`], capped by the roofline at that size
//!   (intensity × datasheet bandwidth), so small matrices are not timed at the peak.
//! - Memory: bytes the element-wise kernels of a step move — weights read in the forward and the
//!   backward and written by the update, gradients written and read, optimizer state read and
//!   written, and each stored activation five times (its op reads an input and writes it in the
//!   forward; the backward reads it, reads the incoming gradient and writes the outgoing one) — at
//!   the element-wise bandwidth: measured with Candle's `affine` on this CPU, the datasheet
//!   bandwidth × [`GPU_ELEMENTWISE_FRACTION`] on a GPU.
//! - Floor: [`GPU_STEP_FLOOR_S`] calibrated on the course's MNIST lesson, [`CPU_STEP_FLOOR_S`]
//!   measured here; data loading is not modelled (the docs' own times include it).
//!
//! Every constant's source is in data/docs/measured.md and data/docs/lessons.md.

use serde::{Deserialize, Serialize};

use crate::bench::roofline::Bound;
use crate::plan::lessons::WorkloadMemory;
use crate::plan::lessons::{RunMode, Workload};

/// Seconds a GPU training step of a tiny model takes whatever its FLOPs: the course's 03/11 doc
/// states 10 epochs of its MNIST MLP (938 steps each) in about 5 s on a GPU, where the FLOPs
/// take under 0.1 s: 5 s / 9380 ≈ 0.5 ms per step.
pub const GPU_STEP_FLOOR_S: f64 = 5.0e-4;
/// The same on a CPU: a PyTorch training step of a 3-layer 8-wide MLP with Adam, measured at
/// 0.60 ms on the project's 2-vCPU AMD EPYC (Zen 4), PyTorch 2.15 (data/docs/measured.md).
pub const CPU_STEP_FLOOR_S: f64 = 6.0e-4;
/// Share of a GPU's dense datasheet peak that large GEMMs reach (cuBLAS typically 70-80 %);
/// stated, not measured here: a GPU run is to measure it.
pub const GPU_LARGE_MATMUL_FRACTION: f64 = 0.7;
/// Share of a GPU's datasheet bandwidth that streaming element-wise kernels reach (a copy
/// typically 80-90 %); stated, to be replaced by the H200 run's measured copy/triad fraction.
pub const GPU_ELEMENTWISE_FRACTION: f64 = 0.8;

/// A target's speed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    /// f32 matmul GFLOP/s measured at square sizes n, ascending (empty for a catalogue GPU).
    pub measured_f32: Vec<(f64, f64)>,
    /// Peak f32 GFLOP/s (measured FMA loop, or datasheet).
    pub peak_f32: f64,
    /// Peak 16-bit GFLOP/s (tensor cores on a GPU; the f32 rate on a CPU).
    pub peak_half: f64,
    /// Share of the peak that large matrices reach (1 where the rate itself is measured).
    pub large_fraction: f64,
    /// Memory bandwidth, GB/s (the roofline's ceiling for matrix products).
    pub bandwidth_gbs: f64,
    /// What the framework's element-wise kernels reach, GB/s.
    pub elementwise_gbs: f64,
    /// Per-step floor, seconds.
    pub step_floor_s: f64,
    /// Where these come from, in a sentence.
    pub source: String,
}

impl Rates {
    /// A catalogue GPU: datasheet peaks and bandwidth.
    pub fn gpu(fp32_tflops: f64, half_tflops: f64, bandwidth_gbs: f64, source: String) -> Rates {
        Rates {
            measured_f32: Vec::new(),
            peak_f32: fp32_tflops * 1000.0,
            peak_half: half_tflops.max(fp32_tflops) * 1000.0,
            large_fraction: GPU_LARGE_MATMUL_FRACTION,
            bandwidth_gbs,
            elementwise_gbs: bandwidth_gbs * GPU_ELEMENTWISE_FRACTION,
            step_floor_s: GPU_STEP_FLOOR_S,
            source,
        }
    }

    /// GFLOP/s for an n×n×n-sized product: the measured rate interpolated in log n (scaled down
    /// in proportion below the smallest size measured), or the large-matrix share of the peak;
    /// either capped by the memory ceiling at that size.
    pub fn matmul_gflops(&self, n: f64, half: bool) -> f64 {
        let bytes = if half { 2.0 } else { 4.0 };
        let peak = if half { self.peak_half } else { self.peak_f32 };
        let base = match (half, self.measured_f32.as_slice()) {
            (false, [first, ..]) if n <= first.0 => first.1 * n / first.0,
            (false, [.., last]) if n >= last.0 => last.1,
            (false, pts) if pts.len() >= 2 => {
                let i = pts.iter().position(|p| p.0 >= n).unwrap_or(pts.len() - 1);
                let (a, b) = (pts[i - 1], pts[i]);
                let t = (n.ln() - a.0.ln()) / (b.0.ln() - a.0.ln());
                a.1 + t * (b.1 - a.1)
            }
            _ => peak * self.large_fraction,
        };
        let roof = 2.0 * n / (3.0 * bytes) * self.bandwidth_gbs;
        base.min(roof).max(1e-3)
    }
}

/// One step's time, by part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepTime {
    /// The representative matrix size.
    pub n_eff: f64,
    /// FLOPs of one step.
    pub flops: f64,
    /// Bytes one step moves at least.
    pub bytes: f64,
    /// FLOPs at the rate for n_eff, seconds.
    pub compute_s: f64,
    /// Bytes at the element-wise bandwidth, seconds.
    pub memory_s: f64,
    /// The floor, seconds.
    pub floor_s: f64,
    /// compute + memory + floor.
    pub total_s: f64,
    /// What dominates.
    pub bound: crate::bench::roofline::Bound,
}

/// Steps of one run (recipes give tokens: tokens / (batch × sequence)).
pub fn steps(w: &Workload) -> f64 {
    if w.steps > 0 {
        return w.steps as f64;
    }
    match (w.tokens, w.seq_len) {
        (Some(t), Some(s)) if w.batch > 0 && s > 0 => (t as f64 / (w.batch * s) as f64).ceil(),
        _ => 0.0,
    }
}

/// The side of the representative GEMM: rows = samples × positions per step, by d × 2d for a
/// transformer of width d, else by one layer's parameters (layers from the lesson file, else 3).
pub fn n_eff(w: &Workload) -> f64 {
    let positions = match (w.seq_len, w.image_size) {
        (Some(s), _) => s as f64,
        // Conv layers see about (side/4)² positions after two poolings (as `fit::flops`).
        (None, Some(side)) if w.kind == "cnn" => (side * side) as f64 / 16.0,
        _ => 1.0,
    };
    let rows = (w.batch.max(1) as f64) * positions;
    // A transformer's products are rows × d × (d … 4d): 2d² on average; elsewhere one layer's
    // parameters.
    let per_layer = match w.d_model {
        Some(d) => 2.0 * (d * d) as f64,
        None => w.params as f64 / w.layers.unwrap_or(3).max(1) as f64,
    };
    (rows * per_layer).cbrt().clamp(1.0, 65_536.0)
}

/// One step of `w` on `rates`, given its whole-run FLOPs and memory.
pub fn step_time(
    w: &Workload,
    mem: &WorkloadMemory,
    run_flops: f64,
    rates: &Rates,
    half: bool,
) -> StepTime {
    let steps = steps(w).max(1.0);
    let flops = run_flops / steps;
    let (weights, grads, state, acts) = (
        mem.weights.0 as f64,
        mem.gradients.0 as f64,
        mem.optimizer_state.0 as f64,
        mem.activations.0 as f64,
    );
    let bytes = match w.mode {
        RunMode::Train => 3.0 * weights + 2.0 * grads + 2.0 * state + 5.0 * acts,
        RunMode::LoraTrain | RunMode::ForwardBackward => {
            2.0 * weights + 2.0 * grads + 2.0 * state + 5.0 * acts
        }
        RunMode::Forward | RunMode::Inference => weights + 2.0 * acts,
        RunMode::None => 0.0,
    };
    let n = n_eff(w);
    // NumPy's f64 runs at about half the f32 rate.
    let f64_penalty = if w.dtype == crate::memory::formulas::Precision::F64 {
        0.5
    } else {
        1.0
    };
    let compute_s = flops / (rates.matmul_gflops(n, half) * 1e9 * f64_penalty);
    let memory_s = bytes / (rates.elementwise_gbs * 1e9);
    let floor_s = rates.step_floor_s;
    let work = compute_s + memory_s;
    let bound = if floor_s > compute_s.max(memory_s) {
        Bound::Overhead
    } else if memory_s > compute_s {
        Bound::Memory
    } else {
        Bound::Compute
    };
    StepTime {
        n_eff: n,
        flops,
        bytes,
        compute_s,
        memory_s,
        floor_s,
        total_s: work + floor_s,
        bound,
    }
}

/// This CPU's rates, cached in `data/runs/cpu-rates.json` so that a lesson's verdict does not
/// move between runs of `fit`: reused while the CPU model and thread count match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CpuRatesFile {
    /// What this file is, and who wrote it when.
    #[serde(flatten)]
    pub header: crate::files::Header,
    /// CPU model the rates are for.
    pub cpu_model: String,
    /// Matmul threads.
    pub threads: usize,
    /// The rates.
    pub rates: Rates,
    /// The 1-minute load average when they were measured (None: not known).
    #[serde(default)]
    pub load: Option<f64>,
    /// Other work shared the CPU while they were measured (load ≥ half the cores).
    #[serde(default)]
    pub busy: bool,
}

impl Rates {
    /// Whether these CPU rates can be physical: every figure finite, positive and below any
    /// CPU's (10⁶ GFLOP/s, 10⁵ GB/s), sizes ascending, and the matmul rate never falling
    /// tenfold as the matrices grow (a product gets faster with size until memory caps it, never
    /// ten times slower: such a set was measured while something else took the cores).
    pub fn physical(&self) -> std::result::Result<(), String> {
        let sane = |x: f64, max: f64| x.is_finite() && x > 0.0 && x <= max;
        if !self
            .measured_f32
            .iter()
            .all(|&(n, r)| sane(n, 1e6) && sane(r, 1e6))
            || self.measured_f32.is_empty()
        {
            return Err(t!("rates-bad-values"));
        }
        if !(sane(self.bandwidth_gbs, 1e5) && sane(self.elementwise_gbs, 1e5)) {
            return Err(t!("rates-bad-values"));
        }
        for (i, &(n0, r0)) in self.measured_f32.iter().enumerate() {
            for &(n1, r1) in &self.measured_f32[i + 1..] {
                if n1 <= n0 {
                    return Err(t!("rates-bad-values"));
                }
                if r1 * 10.0 < r0 {
                    return Err(t!(
                        "rates-collapse",
                        small = n0,
                        large = n1,
                        fast = format!("{r0:.1}"),
                        slow = format!("{r1:.1}")
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The machine is busy when its load average, before we start, reaches half its cores: then
/// a measurement is repeated and each size keeps its fastest run (the least disturbed).
fn busy(load: Option<f64>, cores: usize) -> bool {
    load.is_some_and(|l| l >= 0.5 * cores.max(1) as f64)
}

/// The cache's path: the repository's `data/runs` from any folder inside it (as the labs'
/// results), else `data/runs` below the current folder.
pub fn cpu_cache_path() -> std::path::PathBuf {
    let here = std::env::current_dir().unwrap_or_default();
    crate::labs::runs_dir(&here).join("cpu-rates.json")
}

/// This CPU's rates from a bench already run: its f32 square points, peak and bandwidth.
pub fn cpu_rates_from_bench(report: &crate::bench::BenchReport) -> Rates {
    use crate::bench::PointStatus;
    use crate::probe::device::DeviceSpec;
    let mut measured: Vec<(f64, f64)> = report
        .results
        .iter()
        .filter(|r| {
            r.device == DeviceSpec::Cpu
                && r.dtype == candle_core::DType::F32
                && r.status == PointStatus::Ok
                && r.shape.m == r.shape.k
                && r.shape.k == r.shape.n
        })
        .filter_map(|r| r.gflops.map(|g| (r.shape.n as f64, g)))
        .collect();
    measured.sort_by(|a, b| a.0.total_cmp(&b.0));
    let best = measured.iter().map(|p| p.1).fold(10.0, f64::max);
    let peak = report
        .cpu_peak
        .as_ref()
        .map_or(best, |p| p.gflops.max(best));
    let measured_bw = crate::bench::bandwidth::ceiling_gbs(
        &report.bandwidth,
        crate::probe::device::DeviceSpec::Cpu,
    );
    let bandwidth = measured_bw.unwrap_or(10.0);
    let elementwise = report.elementwise_gbs.unwrap_or(bandwidth / 2.0);
    Rates {
        source: cpu_source(
            &report.cpu_model,
            &measured,
            measured_bw,
            report.elementwise_gbs,
            elementwise,
        ),
        measured_f32: measured,
        peak_f32: peak,
        peak_half: peak,
        large_fraction: 1.0,
        bandwidth_gbs: bandwidth,
        elementwise_gbs: elementwise,
        step_floor_s: CPU_STEP_FLOOR_S,
    }
}

/// Where a CPU's rates come from, in the chosen language (said again from the numbers when read
/// from the cache, so a cache written in one language reads in the other).
fn cpu_source(
    cpu: &str,
    measured: &[(f64, f64)],
    bandwidth: Option<f64>,
    elementwise: Option<f64>,
    elementwise_used: f64,
) -> String {
    let join = |f: &dyn Fn(&(f64, f64)) -> f64| {
        measured
            .iter()
            .map(|p| format!("{:.0}", f(p)))
            .collect::<Vec<_>>()
            .join("/")
    };
    t!(
        "rates-measured",
        cpu = cpu,
        points = join(&|p| p.1),
        sizes = join(&|p| p.0),
        memory = match bandwidth {
            Some(b) => t!("rates-memory", gbs = format!("{b:.1}")),
            None => t!("rates-memory-assumed"),
        },
        elementwise = match elementwise {
            Some(e) => t!("rates-elementwise", gbs = format!("{e:.1}")),
            None => t!(
                "rates-elementwise-assumed",
                gbs = format!("{elementwise_used:.1}")
            ),
        }
    )
}

/// This CPU's rates: from the cache when it is for this CPU and thread count, physical, and not
/// measured busy on a machine now quiet (unless `remeasure`); else measured now (f32 matmul at
/// 64-512 and the bandwidth, about 2 s; three times on a busy machine, each size's best kept)
/// and cached when physical. The source sentence says which, and any load.
pub fn this_cpu_rates(remeasure: bool) -> Rates {
    let host = crate::probe::host::detect();
    let threads = candle_core::utils::get_num_threads();
    let path = cpu_cache_path();
    let load = crate::probe::host::load_average();
    let busy_now = busy(load, host.logical_cpus);
    let mut why_again = None;
    if !remeasure {
        let cached = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str::<CpuRatesFile>(&t).ok())
            .filter(|c| c.cpu_model == host.cpu_model && c.threads == threads);
        match cached.map(|c| (c.rates.physical(), c)) {
            Some((Err(why), _)) => why_again = Some(t!("rates-cache-invalid", why = why)),
            Some((Ok(()), c)) if c.busy && !busy_now => {
                why_again = Some(t!("rates-cache-busy"));
            }
            Some((Ok(()), c)) => {
                let mut source = cpu_source(
                    &c.cpu_model,
                    &c.rates.measured_f32,
                    Some(c.rates.bandwidth_gbs),
                    Some(c.rates.elementwise_gbs),
                    c.rates.elementwise_gbs,
                );
                if c.busy {
                    source = format!(
                        "{source}; {}",
                        t!("rates-busy", load = format!("{:.1}", c.load.unwrap_or(0.0)))
                    );
                }
                return Rates {
                    source: t!("rates-cached", source = source, path = path.display()),
                    ..c.rates
                };
            }
            None => {}
        }
    }
    let config = crate::bench::BenchConfig {
        sizes: Some(
            [64, 128, 256, 512]
                .into_iter()
                .map(crate::bench::MatmulShape::square)
                .collect(),
        ),
        budget: std::time::Duration::from_millis(150),
        warmup: std::time::Duration::from_millis(50),
        min_runs: 5,
        measure_peak: false,
        ..Default::default()
    };
    let measure = || cpu_rates_from_bench(&crate::bench::run(&config, |_, _| {}));
    let mut rates = measure();
    // Busy, or a set that breaks physics: measure again and keep each figure's best.
    let tries = if busy_now { 3 } else { 1 };
    for _ in 1..tries.max(if rates.physical().is_err() { 2 } else { 1 }) {
        rates = best_of(rates, measure());
    }
    let mut notes = Vec::new();
    if let Some(why) = why_again {
        notes.push(why);
    }
    if busy_now {
        notes.push(t!(
            "rates-busy",
            load = format!("{:.1}", load.unwrap_or(0.0))
        ));
    }
    match rates.physical() {
        Ok(()) => {
            let file = CpuRatesFile {
                header: crate::files::Header::new("gpulab.cpu-rates", 1),
                cpu_model: host.cpu_model,
                threads,
                rates: rates.clone(),
                load,
                busy: busy_now,
            };
            // A cache that cannot be written only costs the next run a measurement.
            if let Ok(text) = serde_json::to_string_pretty(&file) {
                let _ = crate::files::write_atomic(&path, (text + "\n").as_bytes(), true);
            }
        }
        Err(why) => notes.push(t!("rates-not-cached", why = why)),
    }
    if !notes.is_empty() {
        rates.source = format!("{}; {}", rates.source, notes.join("; "));
    }
    rates
}

/// Two measurements of the same rates, each figure the better of the two.
fn best_of(a: Rates, b: Rates) -> Rates {
    let measured_f32 = a
        .measured_f32
        .iter()
        .map(|&(n, r)| {
            let other = b
                .measured_f32
                .iter()
                .find(|(m, _)| *m == n)
                .map_or(0.0, |p| p.1);
            (n, r.max(other))
        })
        .collect();
    Rates {
        measured_f32,
        bandwidth_gbs: a.bandwidth_gbs.max(b.bandwidth_gbs),
        elementwise_gbs: a.elementwise_gbs.max(b.elementwise_gbs),
        ..a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_sets_that_break_physics_are_refused() {
        assert!(cpu().physical().is_ok());
        // Measured under load: 82 GFLOP/s at n = 64, then 0.2 at 128.
        let collapsed = Rates {
            measured_f32: vec![(64.0, 82.0), (128.0, 0.2), (256.0, 2.0), (512.0, 5.0)],
            ..cpu()
        };
        assert!(collapsed.physical().unwrap_err().contains("128"));
        for bad in [-1.0, 0.0, f64::NAN, f64::INFINITY, 1e300] {
            let edited = Rates {
                measured_f32: vec![(64.0, bad), (128.0, 50.0)],
                ..cpu()
            };
            assert!(edited.physical().is_err(), "{bad}");
            let edited = Rates {
                bandwidth_gbs: bad,
                ..cpu()
            };
            assert!(edited.physical().is_err(), "{bad}");
        }
        assert!(busy(Some(1.0), 2) && !busy(Some(0.3), 2) && !busy(None, 2));
        let best = best_of(collapsed, cpu());
        assert_eq!(best.measured_f32[1], (128.0, 50.0));
    }

    fn cpu() -> Rates {
        Rates {
            measured_f32: vec![(64.0, 15.0), (128.0, 50.0), (256.0, 90.0), (512.0, 100.0)],
            peak_f32: 170.0,
            peak_half: 170.0,
            large_fraction: 1.0,
            bandwidth_gbs: 25.0,
            elementwise_gbs: 20.0,
            step_floor_s: CPU_STEP_FLOOR_S,
            source: "test".into(),
        }
    }

    #[test]
    fn measured_rates_are_interpolated_and_capped() {
        let r = cpu();
        assert_eq!(r.matmul_gflops(128.0, false), 50.0);
        let mid = r.matmul_gflops(181.0, false);
        assert!(mid > 50.0 && mid < 90.0, "{mid}");
        assert_eq!(
            r.matmul_gflops(4096.0, false),
            100.0,
            "flat past the largest size"
        );
        assert!(
            (r.matmul_gflops(32.0, false) - 7.5).abs() < 1e-9,
            "smaller below the sweep"
        );
        // A T4 (8.1 TF f32, 65 TF fp16, 320 GB/s): small products are bandwidth-capped.
        let t4 = Rates::gpu(8.1, 65.0, 320.0, "datasheet".into());
        assert!(
            (t4.matmul_gflops(8192.0, true) - 65_000.0 * GPU_LARGE_MATMUL_FRACTION).abs() < 1e-6
        );
        let small = t4.matmul_gflops(64.0, true);
        assert!((small - 2.0 * 64.0 / 6.0 * 320.0).abs() < 1e-6, "{small}");
    }
}
