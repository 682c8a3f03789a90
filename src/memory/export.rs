//! What `measure` shows: the phase breakdown and ledger of each family's headline step, the
//! measured bytes-per-parameter table beside the 2-byte rule and the textbook, the sweep fits,
//! and a plot; plus the JSON report.

use std::fmt::Write as _;

use candle_core::DType;
use serde::{Deserialize, Serialize};

use super::measure::StepMeasurement;
use super::suite::{fits, grid_step, Purpose, StepResult, SweepFit};
use crate::dtype::name as dtype_name;
use crate::memory::models::Family;
use crate::memory::optim::OptimizerKind;
use crate::table::{Align, Table};

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
    let mut t = Table::aligned(
        &[
            "dtype",
            "optimizer",
            "weights",
            "grads",
            "opt state",
            "measured total",
            "2-byte rule",
            "textbook",
            "vs textbook",
            "peak/param",
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
                "not run".into(),
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
    let mut t = Table::aligned(
        &["phase", "live after", "peak", "temporaries", "ms"],
        "lrrrr",
    );
    for p in &m.phases {
        t.push(vec![
            p.phase.label().into(),
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
    let mut t = Table::new(
        &["at the peak", "bytes", "share"],
        &[Align::Left, Align::Right, Align::Right],
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
        "unexplained (non-tensor overhead)".into(),
        m.ledger.unexplained.to_string(),
        format!("{:.2}%", m.ledger.unexplained_share * 100.0),
    ]);
    t.push(vec![
        "measured peak".into(),
        m.ledger.measured_peak.to_string(),
        "100%".into(),
    ]);
    t
}

/// The terminal (and Markdown-ish) summary.
pub fn to_text(report: &MeasureReport) -> String {
    let mut out = format!(
        "gpulab measure on {} ({}), candle {}: one real training step per configuration.\n",
        report.device,
        report.device_name,
        report.header.candle_version.as_deref().unwrap_or("?")
    );
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
            "\n== {} · {} params · {} {} · peak {} in the {} phase\n   memory read by: {}",
            m.description,
            m.params,
            dtype_name(m.config.dtype),
            m.config.optimizer.name(),
            m.ledger.measured_peak,
            m.ledger.peak_phase.label(),
            m.method
        );
        if m.workspace.0 > 0 {
            let _ = writeln!(
                out,
                "   (a first warm-up step left {} of library workspace behind; not counted below)",
                m.workspace
            );
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
        "\n== Bytes per parameter, measured ({}), against the lesson's 2-byte rule and the textbook\n",
        table_family.name()
    );
    out.push_str(&per_param_table(&report.results, table_family).to_text());
    out.push_str(
        "textbook = 4+4+4/state in f32; 2+2+4 (fp32 master)+4/state in mixed precision. Candle keeps\n\
         optimizer state in the parameter's dtype and no master copy, so bf16 AdamW lands near 8, not 16.\n\
         peak/param includes activations, so it depends on batch and sequence length.\n",
    );
    if !report.fits.is_empty() {
        out.push_str("\n== Scaling (f32, AdamW)\n\n");
        for f in &report.fits {
            let c = &f.activations.coefficients;
            if f.variable == "batch" {
                let _ = writeln!(
                    out,
                    "{:4} activations = {:.0} + {:.0} B × batch   (R² = {:.5}, {} points; peak slope {:.0} B/sample)",
                    f.family.name(),
                    c[0],
                    c[1],
                    f.activations.r2,
                    f.activations.points,
                    f.peak.coefficients.get(1).copied().unwrap_or(0.0)
                );
            } else {
                let _ = writeln!(
                    out,
                    "{:4} activations = {:.0} + {:.0} B × s + {:.1} B × s²   (R² = {:.5}, {} points over seq_len)",
                    f.family.name(),
                    c[0],
                    c[1],
                    c[2],
                    f.activations.r2,
                    f.activations.points
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
        out.push_str("\nNot measured:\n");
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

/// Panels: activations and peak against batch for each family, and against sequence length.
pub fn plot_panels(report: &MeasureReport) -> Vec<crate::plot::Panel> {
    use crate::plot::{Panel, Series};
    let mut panels = Vec::new();
    for variable in ["batch", "seq_len"] {
        let mut series = Vec::new();
        for f in report.fits.iter().filter(|f| f.variable == variable) {
            series.push(Series::sweep(
                format!("{} activations (MiB)", f.family.name()),
                f.points.iter().map(|p| (p.0, p.1 / 1048576.0)).collect(),
            ));
            series.push(Series::sweep(
                format!("{} step peak (MiB)", f.family.name()),
                f.points.iter().map(|p| (p.0, p.2 / 1048576.0)).collect(),
            ));
        }
        if !series.is_empty() {
            panels.push(Panel {
                title: format!("Measured memory against {variable} (f32, AdamW)"),
                x_label: variable.into(),
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
    let mut t = Table::aligned(
        &[
            "step",
            "dtype",
            "optimizer",
            "ordinary peak",
            "in",
            "lean peak",
            "in",
            "saved",
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
            ordinary.ledger.peak_phase.label().into(),
            b.to_string(),
            lean.ledger.peak_phase.label().into(),
            format!(
                "{:.0}%",
                (a.0 as f64 - b.0 as f64) / a.0.max(1) as f64 * 100.0
            ),
        ]);
    }
    t
}
