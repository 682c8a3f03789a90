//! What `measure` shows: the phase breakdown and ledger of each family's headline step, the
//! measured bytes-per-parameter table beside the 2-byte rule and the textbook, the sweep fits,
//! and a plot; plus the JSON report.

use std::fmt::Write as _;

use candle_core::DType;
use serde::{Deserialize, Serialize};

use super::measure::StepMeasurement;
use super::suite::{fits, grid_step, Purpose, StepResult, SweepFit, Swept};
use crate::dtype::name as dtype_name;
use crate::memory::models::Family;
use crate::memory::optim::OptimizerKind;
use crate::table::Table;

/// Version of the measure JSON layout.
pub const MEASURE_REPORT_VERSION: u32 = 1;

/// A whole measure run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasureReport {
    /// What this file is, and who wrote it when.
    #[serde(flatten)]
    pub header: crate::files::Header,
    /// "cpu" or "cuda:N".
    pub device: String,
    /// CPU model or GPU name.
    pub device_name: String,
    /// Every step.
    pub results: Vec<StepResult>,
    /// Sweep fits.
    pub fits: Vec<SweepFit>,
}

impl MeasureReport {
    /// Wraps results.
    pub fn new(device: String, device_name: String, results: Vec<StepResult>) -> MeasureReport {
        let fits = fits(&results);
        MeasureReport {
            header: crate::files::Header::with_candle("gpulab.measure", MEASURE_REPORT_VERSION),
            device,
            device_name,
            results,
            fits,
        }
    }
}

/// Textbook model-state bytes per parameter: f32 keeps 4 (weights) + 4 (grads) + 4 per state;
/// half precision is taught as mixed precision, 2 + 2 + a 4-byte fp32 master copy + 4 per
/// state, which gives ZeRO's 16 B/param for Adam (Rajbhandari et al. 2020, §3.1).
pub fn textbook_bytes_per_param(dtype: DType, optimizer: OptimizerKind) -> f64 {
    // f32 spends the bytes on full-width weights and gradients, 16-bit training (mixed precision)
    // on the fp32 master copy: both come to 8 + 4 per state.
    let precision = match dtype {
        DType::F32 => crate::memory::formulas::Precision::F32,
        _ => crate::memory::formulas::Precision::Mixed,
    };
    crate::memory::formulas::textbook_state_bytes(precision, optimizer.states_per_param()).total()
}

/// Measured weights + gradients + optimizer state, per parameter.
pub fn model_states_per_param(m: &StepMeasurement) -> f64 {
    m.per_param.weights + m.per_param.gradients + m.per_param.optimizer_state
}

/// The bytes-per-parameter table: one row per dtype × optimizer, from one family's grid.
pub fn per_param_table(results: &[StepResult], family: Family) -> Table {
    let mut t = Table::titled(
        vec![
            t!("col-dtype"),
            t!("col-optimizer"),
            t!("col-weights"),
            t!("col-grads"),
            t!("col-opt-state"),
            t!("col-measured-total"),
            t!("col-two-byte"),
            t!("col-textbook"),
            t!("col-vs-textbook"),
            t!("col-peak-per-param"),
        ],
        "llrrrrrrrr",
    );
    for r in results
        .iter()
        .filter(|r| r.purpose == Purpose::Grid && r.config.model.family == family)
    {
        let Some(m) = &r.measurement else {
            t.push(vec![
                dtype_name(r.config.dtype).into(),
                r.config.optimizer.name().into(),
                "-".into(),
                "-".into(),
                "-".into(),
                t!("measure-not-run"),
                "2.00".into(),
                "-".into(),
                "-".into(),
                r.error.clone().unwrap_or_default(),
            ]);
            continue;
        };
        let total = model_states_per_param(m);
        let textbook = textbook_bytes_per_param(r.config.dtype, r.config.optimizer);
        t.push(vec![
            dtype_name(r.config.dtype).into(),
            r.config.optimizer.name().into(),
            format!("{:.2}", m.per_param.weights),
            format!("{:.2}", m.per_param.gradients),
            format!("{:.2}", m.per_param.optimizer_state),
            format!("{total:.2}"),
            "2.00".into(),
            format!("{textbook:.0}"),
            format!("{:+.0}%", (total / textbook - 1.0) * 100.0),
            format!("{:.1}", m.per_param.peak),
        ]);
    }
    t
}

/// Phases of one step: live before/after, peak and transient bytes.
pub fn phase_table(m: &StepMeasurement) -> Table {
    let mut t = Table::titled(
        vec![
            t!("col-phase"),
            t!("col-live-after"),
            t!("col-peak"),
            t!("col-temporaries"),
            "ms".to_string(),
        ],
        "lrrrr",
    );
    for p in &m.phases {
        t.push(vec![
            p.phase.label(),
            p.live_after.to_string(),
            p.peak.to_string(),
            p.transient().to_string(),
            format!("{:.1}", p.elapsed_s * 1e3),
        ]);
    }
    t
}

/// The ledger at the peak.
pub fn ledger_table(m: &StepMeasurement) -> Table {
    let mut t = Table::titled(
        vec![t!("col-at-peak"), t!("col-bytes"), t!("col-share")],
        "lrr",
    );
    let peak = m.ledger.measured_peak.0.max(1) as f64;
    for row in &m.ledger.rows {
        t.push(vec![
            row.category.clone(),
            row.bytes.to_string(),
            format!("{:.1}%", row.bytes.0 as f64 / peak * 100.0),
        ]);
    }
    t.push(vec![
        t!("ledger-unexplained"),
        m.ledger.unexplained.to_string(),
        format!("{:.2}%", m.ledger.unexplained_share * 100.0),
    ]);
    t.push(vec![
        t!("ledger-measured-peak"),
        m.ledger.measured_peak.to_string(),
        "100%".into(),
    ]);
    t
}

/// The terminal (and Markdown-ish) summary.
pub fn to_text(report: &MeasureReport) -> String {
    let mut out = t!(
        "measure-title",
        device = report.device,
        name = report.device_name,
        candle = report.header.candle_version.as_deref().unwrap_or("?")
    ) + "\n";
    let mut families: Vec<Family> = Vec::new();
    for r in &report.results {
        if !families.contains(&r.config.model.family) {
            families.push(r.config.model.family);
        }
    }
    for family in &families {
        // The headline step: f32 AdamW if measured, else the first grid step that ran.
        let headline = grid_step(&report.results, *family, DType::F32, OptimizerKind::Adamw)
            .or_else(|| {
                report
                    .results
                    .iter()
                    .filter(|r| r.purpose == Purpose::Grid && r.config.model.family == *family)
                    .find_map(|r| r.measurement.as_ref())
            });
        let Some(m) = headline else { continue };
        let _ = writeln!(
            out,
            "\n{}",
            t!(
                "measure-headline",
                model = m.description,
                params = m.params,
                dtype = dtype_name(m.config.dtype),
                optimizer = m.config.optimizer.name(),
                peak = m.ledger.measured_peak,
                phase = m.ledger.peak_phase.label(),
                method = m.method
            )
        );
        if m.workspace.0 > 0 {
            let _ = writeln!(out, "   {}", t!("measure-workspace", size = m.workspace));
        }
        out.push('\n');
        out.push_str(&phase_table(m).to_text());
        out.push('\n');
        out.push_str(&ledger_table(m).to_text());
    }
    let table_family = if families.contains(&Family::Gpt) {
        Family::Gpt
    } else {
        families.first().copied().unwrap_or(Family::Mlp)
    };
    let _ = writeln!(
        out,
        "\n{}\n",
        t!("measure-per-param-heading", family = table_family.name())
    );
    out.push_str(&per_param_table(&report.results, table_family).to_text());
    let _ = writeln!(out, "{}", t!("measure-textbook-note"));
    if !report.fits.is_empty() {
        let _ = writeln!(out, "\n{}\n", t!("measure-scaling"));
        for f in &report.fits {
            let c = &f.activations.coefficients;
            if f.variable == Swept::Batch {
                let _ = writeln!(
                    out,
                    "{}",
                    t!(
                        "measure-fit-batch",
                        family = format!("{:4}", f.family.name()),
                        a = format!("{:.0}", c[0]),
                        b = format!("{:.0}", c[1]),
                        r2 = format!("{:.5}", f.activations.r2),
                        points = f.activations.points,
                        slope =
                            format!("{:.0}", f.peak.coefficients.get(1).copied().unwrap_or(0.0))
                    )
                );
            } else {
                let _ = writeln!(
                    out,
                    "{}",
                    t!(
                        "measure-fit-seq",
                        family = format!("{:4}", f.family.name()),
                        a = format!("{:.0}", c[0]),
                        b = format!("{:.0}", c[1]),
                        c = format!("{:.1}", c[2]),
                        r2 = format!("{:.5}", f.activations.r2),
                        points = f.activations.points
                    )
                );
            }
        }
    }
    let failed: Vec<&StepResult> = report
        .results
        .iter()
        .filter(|r| r.measurement.is_none())
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(out, "\n{}", t!("measure-not-measured"));
        for r in failed {
            let _ = writeln!(
                out,
                "  {} {} {}: {}",
                r.config.model.describe(),
                dtype_name(r.config.dtype),
                r.config.optimizer.name(),
                r.error.as_deref().unwrap_or("")
            );
        }
    }
    out
}

/// A swept variable's name as a person reads it.
fn variable_label(variable: Swept) -> String {
    match variable {
        Swept::Batch => t!("var-batch"),
        Swept::SeqLen => t!("var-seq-len"),
    }
}

/// Panels: activations and peak against batch for each family, and against sequence length.
pub fn plot_panels(report: &MeasureReport) -> Vec<crate::plot::Panel> {
    use crate::plot::{Panel, Series};
    let mut panels = Vec::new();
    for variable in [Swept::Batch, Swept::SeqLen] {
        let mut series = Vec::new();
        for f in report.fits.iter().filter(|f| f.variable == variable) {
            series.push(Series::sweep(
                t!("plot-activations-series", family = f.family.name()),
                f.points.iter().map(|p| (p.0, p.1 / 1048576.0)).collect(),
            ));
            series.push(Series::sweep(
                t!("plot-step-peak-series", family = f.family.name()),
                f.points.iter().map(|p| (p.0, p.2 / 1048576.0)).collect(),
            ));
        }
        if !series.is_empty() {
            panels.push(Panel {
                title: t!(
                    "plot-measured-memory-title",
                    variable = variable_label(variable)
                ),
                x_label: variable_label(variable),
                y_label: "MiB".into(),
                log_x: false,
                log_y: false,
                x_ticks: Vec::new(),
                series,
            });
        }
    }
    panels
}

/// `measure --lean`: each step as a Candle program ordinarily writes it beside gpulab's lean
/// step (graph and non-parameters' gradients dropped before the update, lean optimizers): the
/// peak, where it falls, and what the lean step saves.
pub fn lean_table(pairs: &[(StepMeasurement, StepMeasurement)]) -> Table {
    let mut t = Table::titled(
        vec![
            t!("col-step"),
            t!("col-dtype"),
            t!("col-optimizer"),
            t!("col-ordinary-peak"),
            t!("col-in"),
            t!("col-lean-peak"),
            t!("col-in"),
            t!("col-saved"),
        ],
        "lllrlrlr",
    );
    for (ordinary, lean) in pairs {
        let (a, b) = (ordinary.ledger.measured_peak, lean.ledger.measured_peak);
        t.push(vec![
            ordinary.description.clone(),
            dtype_name(ordinary.config.dtype).into(),
            ordinary.config.optimizer.name().into(),
            a.to_string(),
            ordinary.ledger.peak_phase.label(),
            b.to_string(),
            lean.ledger.peak_phase.label(),
            format!(
                "{:.0}%",
                (a.0 as f64 - b.0 as f64) / a.0.max(1) as f64 * 100.0
            ),
        ]);
    }
    t
}

/// A PyTorch step measured for one shape (`measure --pytorch`), beside the peak the shipped
/// PyTorch model predicts for it.
#[derive(Debug, Clone, Serialize)]
pub struct Compared {
    /// The shape.
    pub model: crate::memory::models::ModelConfig,
    /// Its element type.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// Its optimizer.
    pub optimizer: OptimizerKind,
    /// What the step held, phase by phase.
    pub measured: crate::memory::empirical::PhasePeaks,
    /// The model's peak (None: no shipped model for this step).
    pub predicted_peak: Option<crate::units::Bytes>,
    /// (predicted − measured) / measured.
    pub error: Option<f64>,
}

impl Compared {
    /// The step and the prediction, with the error between them.
    pub fn new(
        model: crate::memory::models::ModelConfig,
        dtype: DType,
        optimizer: OptimizerKind,
        measured: crate::memory::empirical::PhasePeaks,
        predicted_peak: Option<crate::units::Bytes>,
    ) -> Compared {
        let error = predicted_peak.map(|p| (p.0 as f64 - measured.peak) / measured.peak);
        Compared {
            model,
            dtype,
            optimizer,
            measured,
            predicted_peak,
            error,
        }
    }
}

/// The compared steps as a table: each phase's bytes, the model's peak and its error.
pub fn compared_table(rows: &[Compared]) -> Table {
    use crate::units::Bytes;
    let mut table = Table::titled(
        vec![
            t!("col-shape"),
            t!("col-dtype"),
            t!("col-optimizer"),
            t!("col-forward"),
            t!("col-backward-peak"),
            t!("col-step-peak"),
            t!("col-peak"),
            t!("col-model-predicts"),
            t!("col-error"),
        ],
        "lllrrrrrr",
    );
    for r in rows {
        let step = &r.measured;
        table.push(vec![
            r.model.describe(),
            dtype_name(r.dtype).to_string(),
            r.optimizer.name().to_string(),
            Bytes(step.forward_live as u64).to_string(),
            Bytes(step.backward_peak as u64).to_string(),
            Bytes(step.step_peak as u64).to_string(),
            Bytes(step.peak as u64).to_string(),
            r.predicted_peak.map_or("-".into(), |p| p.to_string()),
            r.error
                .map_or("-".into(), |e| format!("{:+.1}%", e * 100.0)),
        ]);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compared_step_says_how_far_the_model_was() {
        let model = crate::memory::models::ModelConfig::default_for(Family::Gpt);
        let measured = crate::memory::empirical::PhasePeaks {
            model: model.clone(),
            dtype: DType::F32,
            optimizer: OptimizerKind::Adamw,
            variant: None,
            params: model.param_count(),
            forward_live: 100e6,
            backward_peak: 180e6,
            step_peak: 150e6,
            peak: 200e6,
            per_param: [4.0, 4.0, 8.0],
        };
        let over = Compared::new(
            model.clone(),
            DType::F32,
            OptimizerKind::Adamw,
            measured.clone(),
            Some(crate::units::Bytes(210_000_000)),
        );
        assert!(
            (over.error.unwrap() - 0.05).abs() < 1e-12,
            "{:?}",
            over.error
        );
        let none = Compared::new(model, DType::F32, OptimizerKind::Adamw, measured, None);
        assert_eq!(none.error, None);
        let text = compared_table(&[over, none]).to_text();
        assert!(text.contains("+5.0%"), "{text}");
        assert!(
            text.lines().filter(|l| l.contains('-')).count() >= 2,
            "{text}"
        );
    }
}
