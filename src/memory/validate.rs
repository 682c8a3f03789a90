//! `gpulab measure --validate`: gpulab's empirical memory model, fitted on some shapes and judged
//! on others it has never seen.
//!
//! The model: the peak of the backward pass and the peak of the optimizer step are each linear
//! in a handful of shape features, because every tensor Candle keeps is one of a few sizes:
//! - all families: parameters P and the largest parameter tensor (AdamW's update temporaries
//!   scale with it), and a constant;
//! - MLP: B·input, B·Σhidden;
//! - GPT: B·L·s·d (per-token activations), B·L·h·s² (attention scores), B·s·V (logits), B·s·d;
//! - CNN: B·px·c₁, B·px·c₂/4, B·px (px = image side²).
//!
//! Coefficients come from least squares over the calibration shapes; the predicted step peak is
//! the larger of the two phase predictions. Each held-out shape is then measured, and the error
//! printed beside the 2-byte rule's and the textbook's (16 B/param for f32 AdamW plus, for the
//! GPT, Korthikanti's activations ×2 for f32).

use candle_core::DType;
use serde::{Deserialize, Serialize};

use super::measure::{measure_step, MeasureConfig, Phase, StepMeasurement};
use crate::error::{Error, Result};
use crate::memory::models::{Family, ModelConfig};
use crate::memory::optim::OptimizerKind;
use crate::probe::device::DeviceSpec;
use crate::stats::least_squares::least_squares;
use crate::units::Bytes;

/// Shape features of a configuration (see the module docs).
pub fn features(m: &ModelConfig) -> Vec<f64> {
    let b = m.batch as f64;
    let p = m.param_count() as f64;
    let largest = largest_tensor(m) as f64;
    let mut f = vec![1.0, p, largest];
    match m.family {
        Family::Mlp => {
            f.push(b * m.mlp_input as f64);
            // B·classes would be B·input scaled (both fixed by the data): one of them is enough.
            f.push(b * m.mlp_hidden.iter().sum::<usize>() as f64);
        }
        Family::Gpt => {
            let (l, s, d, h, v) = (
                m.layers as f64,
                m.seq_len as f64,
                m.d_model as f64,
                m.heads as f64,
                m.vocab as f64,
            );
            f.push(b * l * s * d);
            f.push(b * l * h * s * s);
            f.push(b * s * v);
            f.push(b * s * d);
        }
        Family::Cnn => {
            let px = (m.image_size * m.image_size) as f64;
            f.push(b * px * m.channels[0] as f64);
            f.push(b * px * m.channels[1] as f64 / 4.0);
            f.push(b * px);
        }
    }
    f
}

/// Elements of the largest parameter tensor.
pub fn largest_tensor(m: &ModelConfig) -> u64 {
    let u = |x: usize| x as u64;
    match m.family {
        Family::Mlp => m
            .mlp_widths()
            .windows(2)
            .map(|w| w[0] * w[1])
            .max()
            .unwrap_or(0),
        Family::Gpt => {
            let d = u(m.d_model);
            (u(m.vocab) * d).max(4 * d * d)
        }
        Family::Cnn => {
            let side = u(m.image_size / 4);
            (u(m.channels[1]) * side * side * u(m.classes))
                .max(u(m.channels[0]) * u(m.channels[1]) * 9)
        }
    }
}

/// The fitted model for one family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmpiricalModel {
    /// Family.
    pub family: Family,
    /// Coefficients for the backward-phase peak.
    pub backward: Vec<f64>,
    /// Coefficients for the optimizer-step peak.
    pub step: Vec<f64>,
    /// Shapes it was fitted on.
    pub calibration_points: usize,
}

impl EmpiricalModel {
    /// Fits from measured steps of one family.
    pub fn fit(family: Family, steps: &[StepMeasurement]) -> Result<EmpiricalModel> {
        let rows: Vec<Vec<f64>> = steps.iter().map(|m| features(&m.config.model)).collect();
        let peak = |phase: Phase| -> Vec<f64> {
            steps
                .iter()
                .map(|m| {
                    m.phases
                        .iter()
                        .find(|p| p.phase == phase)
                        .map(|p| p.peak.0 as f64)
                        .unwrap_or(0.0)
                })
                .collect()
        };
        let solve = |y: Vec<f64>| {
            least_squares(&rows, &y).ok_or_else(|| {
                Error::Invalid(format!(
                    "cannot fit the {} model: {} calibration shapes are too few or too alike",
                    family.name(),
                    rows.len()
                ))
            })
        };
        Ok(EmpiricalModel {
            family,
            backward: solve(peak(Phase::Backward))?,
            step: solve(peak(Phase::OptimizerStep))?,
            calibration_points: steps.len(),
        })
    }

    /// Predicted peak of a step.
    pub fn predict(&self, m: &ModelConfig) -> Bytes {
        let f = features(m);
        let dot = |c: &[f64]| c.iter().zip(&f).map(|(a, b)| a * b).sum::<f64>();
        Bytes(dot(&self.backward).max(dot(&self.step)).max(0.0) as u64)
    }
}

/// One held-out shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ValidationRow {
    /// Shape.
    pub description: String,
    /// Measured peak.
    pub measured: Bytes,
    /// gpulab's prediction.
    pub predicted: Bytes,
    /// The 2-byte rule (2 B/param).
    pub rule: Bytes,
    /// The textbook.
    pub textbook: Bytes,
}

impl ValidationRow {
    /// Relative error of a prediction.
    pub fn error(&self, predicted: Bytes) -> f64 {
        (predicted.0 as f64 - self.measured.0 as f64) / self.measured.0.max(1) as f64
    }
}

/// Calibration and held-out shapes per family: the held-out ones differ in every dimension
/// and lie partly outside the calibration range (larger batch, width or sequence).
pub fn shapes(family: Family) -> (Vec<ModelConfig>, Vec<ModelConfig>) {
    let base = ModelConfig::default_for(family);
    let mk = |f: &dyn Fn(&mut ModelConfig)| {
        let mut m = base.clone();
        f(&mut m);
        m
    };
    match family {
        Family::Mlp => {
            let mlp = |&(b, h, n): &(usize, usize, usize)| {
                mk(&|m| {
                    m.batch = b;
                    m.mlp_hidden = vec![h; n];
                })
            };
            let cal = [
                (8, 64, 1),
                (16, 128, 1),
                (32, 64, 2),
                (8, 256, 2),
                (16, 96, 2),
                (32, 192, 1),
                (4, 160, 2),
                (24, 32, 2),
                (12, 224, 1),
                (64, 128, 1),
                (56, 224, 2),
            ]
            .iter()
            .map(mlp)
            .collect();
            let held = [(40, 128, 2), (20, 320, 1), (48, 80, 2), (64, 256, 2)]
                .iter()
                .map(mlp)
                .collect();
            (cal, held)
        }
        Family::Gpt => {
            let g = |&(b, l, d, h, s, v): &(usize, usize, usize, usize, usize, usize)| {
                mk(&|m| {
                    m.batch = b;
                    m.layers = l;
                    m.d_model = d;
                    m.heads = h;
                    m.seq_len = s;
                    m.vocab = v;
                })
            };
            let cal = [
                (1, 1, 32, 2, 16, 64),
                (2, 1, 64, 4, 32, 128),
                (4, 2, 32, 2, 16, 256),
                (1, 2, 64, 2, 48, 64),
                (2, 3, 32, 4, 32, 64),
                (4, 1, 96, 4, 16, 128),
                (1, 3, 96, 2, 32, 256),
                (2, 2, 64, 4, 48, 256),
                (4, 3, 64, 2, 32, 128),
                (1, 1, 96, 4, 48, 128),
                (3, 2, 32, 4, 48, 64),
                (2, 1, 32, 2, 64, 256),
            ]
            .iter()
            .map(g)
            .collect();
            let held = [
                (3, 2, 48, 4, 40, 192),
                (2, 3, 128, 4, 32, 128),
                (5, 1, 64, 2, 56, 96),
                (2, 2, 96, 4, 64, 320),
            ]
            .iter()
            .map(g)
            .collect();
            (cal, held)
        }
        Family::Cnn => {
            let c = |&(b, img, c1, c2): &(usize, usize, usize, usize)| {
                mk(&|m| {
                    m.batch = b;
                    m.image_size = img;
                    m.channels = [c1, c2];
                })
            };
            let cal = [
                (4, 16, 8, 16),
                (8, 16, 16, 16),
                (4, 32, 8, 8),
                (2, 32, 16, 32),
                (8, 24, 8, 24),
                (6, 16, 24, 8),
                (2, 24, 16, 16),
                (4, 24, 12, 24),
                (6, 32, 8, 16),
            ]
            .iter()
            .map(c)
            .collect();
            let held = [
                (5, 28, 12, 20),
                (10, 16, 20, 12),
                (3, 32, 16, 24),
                (8, 20, 10, 10),
            ]
            .iter()
            .map(c)
            .collect();
            (cal, held)
        }
    }
}

fn textbook(m: &ModelConfig) -> Bytes {
    // The validation steps are f32 AdamW.
    let per = crate::memory::formulas::textbook_state_bytes(
        crate::memory::formulas::Precision::F32,
        OptimizerKind::Adamw.states_per_param(),
    );
    let states = (per.total() * m.param_count() as f64) as u64;
    let activations = match m.family {
        Family::Gpt => {
            let shape = crate::memory::formulas::TransformerShape {
                layers: m.layers as u64,
                hidden: m.d_model as u64,
                heads: m.heads as u64,
                kv_heads: m.heads as u64,
                seq_len: m.seq_len as u64,
                vocab: m.vocab as u64,
            };
            crate::memory::formulas::transformer_activations(&shape, m.batch as u64, 4.0, false)
                as u64
        }
        // Every layer's output kept once, in f32.
        Family::Mlp => {
            4 * (m.batch * (m.mlp_input + m.mlp_hidden.iter().sum::<usize>() + m.classes)) as u64
        }
        Family::Cnn => {
            let px = m.image_size * m.image_size;
            4 * (m.batch * (3 * px + 2 * m.channels[0] * px + 2 * m.channels[1] * px / 4)) as u64
        }
    };
    Bytes(states + activations)
}

fn config(model: ModelConfig, device: DeviceSpec) -> MeasureConfig {
    MeasureConfig {
        model,
        dtype: DType::F32,
        optimizer: OptimizerKind::Adamw,
        device,
    }
}

/// Fits on the calibration shapes and judges the held-out ones. `on_step` hears each step.
pub fn validate(
    family: Family,
    device: DeviceSpec,
    mut on_step: impl FnMut(),
) -> Result<(EmpiricalModel, Vec<ValidationRow>)> {
    let (cal, held) = shapes(family);
    let mut measured = Vec::new();
    for m in cal {
        measured.push(measure_step(&config(m, device))?);
        on_step();
    }
    let model = EmpiricalModel::fit(family, &measured)?;
    let mut rows = Vec::new();
    for m in held {
        let step = measure_step(&config(m.clone(), device))?;
        on_step();
        rows.push(ValidationRow {
            description: m.describe(),
            measured: step.ledger.measured_peak,
            predicted: model.predict(&m),
            rule: Bytes(2 * m.param_count()),
            textbook: textbook(&m),
        });
    }
    Ok((model, rows))
}

/// The goal a memory model must meet on shapes it was not fitted on: median |error| at most
/// this …
pub const GOAL_MEDIAN: f64 = 0.03;
/// … and worst |error| at most this.
pub const GOAL_WORST: f64 = 0.08;

/// Median and worst |error| of the model's predictions over `rows`.
pub fn errors(rows: &[ValidationRow]) -> (f64, f64) {
    summary(
        &rows
            .iter()
            .map(|r| r.error(r.predicted))
            .collect::<Vec<_>>(),
    )
}

/// Does a (median, worst) pair meet [`GOAL_MEDIAN`] and [`GOAL_WORST`]?
pub fn meets_goal((median, worst): (f64, f64)) -> bool {
    median <= GOAL_MEDIAN && worst <= GOAL_WORST
}

/// One family's validation: the model, its held-out rows, and how they went.
pub struct FamilyValidation {
    /// The family.
    pub family: Family,
    /// The fitted model.
    pub model: EmpiricalModel,
    /// Held-out shapes, measured and predicted.
    pub rows: Vec<ValidationRow>,
}

impl FamilyValidation {
    /// Fits and judges `family` on `device`; `on_step` after every measured step.
    pub fn run(family: Family, device: DeviceSpec, on_step: impl FnMut()) -> Result<Self> {
        let (model, rows) = validate(family, device, on_step)?;
        Ok(FamilyValidation {
            family,
            model,
            rows,
        })
    }

    /// Did the model meet the goal on this family?
    pub fn meets_goal(&self) -> bool {
        meets_goal(errors(&self.rows))
    }

    /// The family's section of `measure --validate`'s output.
    pub fn to_text(&self, device: DeviceSpec) -> String {
        let of = |f: &dyn Fn(&ValidationRow) -> Bytes| {
            summary(&self.rows.iter().map(|r| r.error(f(r))).collect::<Vec<_>>())
        };
        let (med, worst) = errors(&self.rows);
        let (rule_med, _) = of(&|r| r.rule);
        let (book_med, _) = of(&|r| r.textbook);
        format!(
            "\n== {} (f32, AdamW, on {device}): fitted on {} shapes, judged on {} others\n\n{}median |error|: gpulab {:.2}% (worst {:.2}%), 2-byte rule {:.1}%, textbook {:.1}%\n",
            self.family.name(),
            self.model.calibration_points,
            self.rows.len(),
            table(&self.rows).to_text(),
            med * 100.0,
            worst * 100.0,
            rule_med * 100.0,
            book_med * 100.0
        )
    }
}

/// The closing line of `measure --validate`.
pub fn goal_line(met: bool) -> String {
    format!(
        "\nGoal (median ≤ {:.0} %, worst ≤ {:.0} %): {}",
        GOAL_MEDIAN * 100.0,
        GOAL_WORST * 100.0,
        if met { "met" } else { "NOT met" }
    )
}

/// Median and worst absolute relative error.
pub fn summary(errors: &[f64]) -> (f64, f64) {
    let mut abs: Vec<f64> = errors.iter().map(|e| e.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let median = crate::stats::quantile_sorted(&abs, 0.5);
    (median, abs.last().copied().unwrap_or(0.0))
}

/// The validation table.
pub fn table(rows: &[ValidationRow]) -> crate::table::Table {
    use crate::table::Table;
    let mut t = Table::aligned(
        &[
            "held-out shape",
            "measured",
            "gpulab",
            "error",
            "2-byte rule",
            "error",
            "textbook",
            "error",
        ],
        "lrrrrrrr",
    );
    for r in rows {
        let pct = |p: Bytes| format!("{:+.1}%", r.error(p) * 100.0);
        t.push(vec![
            r.description.clone(),
            r.measured.to_string(),
            r.predicted.to_string(),
            pct(r.predicted),
            r.rule.to_string(),
            pct(r.rule),
            r.textbook.to_string(),
            pct(r.textbook),
        ]);
    }
    t
}
