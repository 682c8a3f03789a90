//! A set of measured steps: the grid of families × dtypes × optimizers, the batch sweep that
//! shows activations growing linearly, and the sequence-length sweep that shows attention's
//! quadratic term. Its fitted coefficients go into the calibration file.

use candle_core::DType;
use serde::{Deserialize, Serialize};

use super::measure::{measure_step, MeasureConfig, StepMeasurement};
use crate::memory::models::{Family, ModelConfig};
use crate::memory::optim::OptimizerKind;
use crate::probe::device::DeviceSpec;
use crate::stats::least_squares::{poly_fit, PolyFit};
use crate::units::Bytes;

/// What to measure.
#[derive(Debug, Clone)]
pub struct SuiteConfig {
    /// Model families.
    pub families: Vec<Family>,
    /// dtypes of the grid.
    pub dtypes: Vec<DType>,
    /// Optimizers of the grid.
    pub optimizers: Vec<OptimizerKind>,
    /// Where the steps run.
    pub device: DeviceSpec,
    /// Base shape per family (batch included).
    pub shapes: Vec<ModelConfig>,
    /// Batch sizes of the batch sweep (at least 3 for a meaningful fit; empty = none).
    pub batches: Vec<usize>,
    /// Sequence lengths of the GPT sweep (at least 3; empty = none).
    pub seq_lens: Vec<usize>,
}

impl SuiteConfig {
    /// The default: every family, f32 and bf16, all three optimizers, a 3-point batch sweep and a
    /// 4-point sequence sweep — about 20 s on a 2-core CPU.
    pub fn default_for(device: DeviceSpec) -> SuiteConfig {
        let families = vec![Family::Mlp, Family::Gpt, Family::Cnn];
        SuiteConfig {
            shapes: families
                .iter()
                .map(|&f| ModelConfig::default_for(f))
                .collect(),
            families,
            dtypes: vec![DType::F32, DType::BF16],
            optimizers: vec![
                OptimizerKind::Sgd,
                OptimizerKind::Momentum,
                OptimizerKind::Adamw,
            ],
            device,
            batches: vec![2, 4, 8],
            seq_lens: vec![16, 32, 48, 64],
        }
    }

    fn shape(&self, family: Family) -> ModelConfig {
        self.shapes
            .iter()
            .find(|s| s.family == family)
            .cloned()
            .unwrap_or_else(|| ModelConfig::default_for(family))
    }
}

/// Why a point is in the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// The dtype × optimizer grid.
    Grid,
    /// The batch sweep.
    BatchSweep,
    /// The sequence-length sweep.
    SeqSweep,
}

/// The variable a sweep moves (serialized "batch", "seq_len", as calibrations record it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Swept {
    /// Batch size.
    Batch,
    /// Sequence length.
    SeqLen,
}

/// Lets a reader compare with the serialized name (`variable == "batch"`).
impl PartialEq<&str> for Swept {
    fn eq(&self, other: &&str) -> bool {
        *other
            == match self {
                Swept::Batch => "batch",
                Swept::SeqLen => "seq_len",
            }
    }
}

/// One planned step and what came of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepResult {
    /// Why it was measured.
    pub purpose: Purpose,
    /// The step measured.
    pub config: MeasureConfig,
    /// The measurement, when it ran.
    pub measurement: Option<StepMeasurement>,
    /// Why not (unsupported op for this dtype on this device, does not fit, …).
    pub error: Option<String>,
}

/// A fitted sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepFit {
    /// The network family swept.
    pub family: Family,
    /// Its element type.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// Its optimizer.
    pub optimizer: OptimizerKind,
    /// What was swept.
    pub variable: Swept,
    /// (x, activation bytes, peak bytes).
    pub points: Vec<(f64, f64, f64)>,
    /// Activations against x (degree 1 for batch, 2 for sequence length).
    pub activations: PolyFit,
    /// Measured peak against x.
    pub peak: PolyFit,
}

/// The plan: grid first, then the sweeps (f32, AdamW: the most common training set-up).
pub fn plan(config: &SuiteConfig) -> Vec<(Purpose, MeasureConfig)> {
    let mut out = Vec::new();
    for &family in &config.families {
        for &dtype in &config.dtypes {
            for &optimizer in &config.optimizers {
                out.push((
                    Purpose::Grid,
                    MeasureConfig {
                        model: config.shape(family),
                        dtype,
                        optimizer,
                        device: config.device,
                    },
                ));
            }
        }
    }
    let sweep = |model: ModelConfig| MeasureConfig {
        model,
        dtype: DType::F32,
        optimizer: OptimizerKind::Adamw,
        device: config.device,
    };
    if config.batches.len() >= 3 {
        for &family in &config.families {
            for &batch in &config.batches {
                let mut model = config.shape(family);
                model.batch = batch;
                out.push((Purpose::BatchSweep, sweep(model)));
            }
        }
    }
    if config.seq_lens.len() >= 3 && config.families.contains(&Family::Gpt) {
        for &seq_len in &config.seq_lens {
            let mut model = config.shape(Family::Gpt);
            model.seq_len = seq_len;
            out.push((Purpose::SeqSweep, sweep(model)));
        }
    }
    out
}

/// Runs the plan; `on_step` is called after each step (for progress).
pub fn run(config: &SuiteConfig, mut on_step: impl FnMut(&StepResult, usize)) -> Vec<StepResult> {
    let mut results = Vec::new();
    for (i, (purpose, step)) in plan(config).into_iter().enumerate() {
        let outcome = measure_step(&step);
        let result = StepResult {
            purpose,
            config: step,
            error: outcome
                .as_ref()
                .err()
                .map(|e| e.to_string().lines().next().unwrap_or("").to_string()),
            measurement: outcome.ok(),
        };
        on_step(&result, i);
        results.push(result);
    }
    results
}

/// Fits each sweep's activations and peak.
pub fn fits(results: &[StepResult]) -> Vec<SweepFit> {
    let mut out = Vec::new();
    for (purpose, variable, degree) in [
        (Purpose::BatchSweep, Swept::Batch, 1),
        (Purpose::SeqSweep, Swept::SeqLen, 2),
    ] {
        let mut families: Vec<Family> = Vec::new();
        for r in results.iter().filter(|r| r.purpose == purpose) {
            if !families.contains(&r.config.model.family) {
                families.push(r.config.model.family);
            }
        }
        for family in families {
            let points: Vec<(f64, f64, f64)> = results
                .iter()
                .filter(|r| r.purpose == purpose && r.config.model.family == family)
                .filter_map(|r| {
                    let m = r.measurement.as_ref()?;
                    let x = if degree == 1 {
                        r.config.model.batch
                    } else {
                        r.config.model.seq_len
                    } as f64;
                    Some((
                        x,
                        m.accounted.activations.0 as f64,
                        m.ledger.measured_peak.0 as f64,
                    ))
                })
                .collect();
            let act: Vec<(f64, f64)> = points.iter().map(|p| (p.0, p.1)).collect();
            let peak: Vec<(f64, f64)> = points.iter().map(|p| (p.0, p.2)).collect();
            if let (Some(activations), Some(peak)) =
                (poly_fit(&act, degree), poly_fit(&peak, degree))
            {
                let first = results
                    .iter()
                    .find(|r| r.purpose == purpose && r.config.model.family == family)
                    .expect("a sweep has points");
                out.push(SweepFit {
                    family,
                    dtype: first.config.dtype,
                    optimizer: first.config.optimizer,
                    variable,
                    points,
                    activations,
                    peak,
                });
            }
        }
    }
    out
}

/// The measured bytes of a grid step, if it ran.
pub fn grid_step(
    results: &[StepResult],
    family: Family,
    dtype: DType,
    optimizer: OptimizerKind,
) -> Option<&StepMeasurement> {
    results
        .iter()
        .filter(|r| r.purpose == Purpose::Grid)
        .find(|r| {
            r.config.model.family == family
                && r.config.dtype == dtype
                && r.config.optimizer == optimizer
        })
        .and_then(|r| r.measurement.as_ref())
}

/// Bytes, for tables.
pub fn total_at_peak(m: &StepMeasurement) -> Bytes {
    m.ledger.measured_peak
}
