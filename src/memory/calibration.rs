//! The calibration file `measure --save` writes and `estimate` reads: measured bytes per
//! parameter and fitted activation coefficients per model family, dtype and optimizer, with the
//! machine and Candle version they came from.
//!
//! Schema `gpulab.calibration`, version 1 (JSON):
//! ```text
//! { schema, schema_version, gpulab_version, candle_version, created_unix_s,
//!   machine: { cpu_model, os, device, device_name },
//!   entries: [ { family, dtype, optimizer, params, reference: <model shape>,
//!                weights_per_param, gradients_per_param, optimizer_state_per_param,
//!                step_temporaries_per_param, activations_bytes, other_gradients_bytes,
//!                gradient_graph_bytes, peak_bytes, peak_phase } ],
//!   fits: [ { family, dtype, optimizer, variable: "batch" | "seq_len", points,
//!             activations: { coefficients, r2, points }, peak: {…} } ] }
//! ```
//! Byte counts are plain integers; per-parameter values are floats.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::memory::measure::Phase;
use crate::memory::models::{Family, ModelConfig};
use crate::memory::optim::OptimizerKind;
use crate::memory::suite::{Purpose, StepResult, SweepFit};

/// The calibration shipped with the kit: `gpulab measure --save data/calibration-cpu.json`, run
/// on the project's CPU machine. Used until the learner saves one of their own.
pub const SHIPPED_CPU: &str = include_str!("../../data/calibration-cpu.json");

/// Version of the file layout.
pub const CALIBRATION_SCHEMA_VERSION: u32 = 1;

/// Where the numbers were measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// CPU model.
    pub cpu_model: String,
    /// OS.
    pub os: String,
    /// "cpu" or "cuda:N".
    pub device: String,
    /// Device name.
    pub device_name: String,
}

/// One measured configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Family.
    pub family: Family,
    /// dtype.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: candle_core::DType,
    /// Optimizer.
    pub optimizer: OptimizerKind,
    /// Parameters of the reference model.
    pub params: u64,
    /// The reference shape.
    pub reference: ModelConfig,
    /// Measured weight bytes per parameter.
    pub weights_per_param: f64,
    /// Measured gradient bytes per parameter.
    pub gradients_per_param: f64,
    /// Measured optimizer-state bytes per parameter.
    pub optimizer_state_per_param: f64,
    /// Transient bytes of the optimizer step per parameter.
    pub step_temporaries_per_param: f64,
    /// Activations kept by the graph at the reference shape.
    pub activations_bytes: u64,
    /// Non-parameter gradients at the reference shape.
    pub other_gradients_bytes: u64,
    /// Backward graph held by the gradients at the reference shape.
    pub gradient_graph_bytes: u64,
    /// Measured peak at the reference shape.
    pub peak_bytes: u64,
    /// Phase that set the peak.
    pub peak_phase: Phase,
}

/// The file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// No deny_unknown_fields here: serde cannot combine it with the flattened header; entries keep it.
pub struct Calibration {
    /// What this file is, and who wrote it when.
    #[serde(flatten)]
    pub header: crate::files::Header,
    /// Where.
    pub machine: Machine,
    /// Grid entries.
    pub entries: Vec<Entry>,
    /// Sweep fits.
    pub fits: Vec<SweepFit>,
}

impl Calibration {
    /// Builds the calibration from a measure run.
    pub fn from_results(
        results: &[StepResult],
        fits: &[SweepFit],
        machine: Machine,
    ) -> Calibration {
        let entries = results
            .iter()
            .filter(|r| r.purpose == Purpose::Grid)
            .filter_map(|r| {
                let m = r.measurement.as_ref()?;
                let p = m.params.max(1) as f64;
                let step = m
                    .phases
                    .iter()
                    .find(|ph| ph.phase == Phase::OptimizerStep)
                    .map(|ph| ph.transient().0)
                    .unwrap_or(0);
                Some(Entry {
                    family: r.config.model.family,
                    dtype: r.config.dtype,
                    optimizer: r.config.optimizer,
                    params: m.params,
                    reference: r.config.model.clone(),
                    weights_per_param: m.per_param.weights,
                    gradients_per_param: m.per_param.gradients,
                    optimizer_state_per_param: m.per_param.optimizer_state,
                    step_temporaries_per_param: step as f64 / p,
                    activations_bytes: m.accounted.activations.0,
                    other_gradients_bytes: m.accounted.other_gradients.0,
                    gradient_graph_bytes: m.accounted.gradient_graph.0,
                    peak_bytes: m.ledger.measured_peak.0,
                    peak_phase: m.ledger.peak_phase,
                })
            })
            .collect();
        Calibration {
            header: crate::files::Header::with_candle(
                "gpulab.calibration",
                CALIBRATION_SCHEMA_VERSION,
            ),
            machine,
            entries,
            fits: fits.to_vec(),
        }
    }

    /// Reads and checks a calibration file.
    pub fn load(path: &Path) -> Result<Calibration> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Calibration::parse(&text, &path.display().to_string())
    }

    /// Parses and checks calibration JSON; `name` labels errors.
    pub fn parse(text: &str, name: &str) -> Result<Calibration> {
        let c: Calibration = serde_json::from_str(text)
            .map_err(|e| Error::Invalid(format!("{name}: not a gpulab calibration file: {e}")))?;
        c.header.expect(
            "gpulab.calibration",
            CALIBRATION_SCHEMA_VERSION,
            name,
            &format!("re-run `gpulab measure --save {name}`"),
        )?;
        for e in &c.entries {
            for (field, v) in [
                ("weights_per_param", e.weights_per_param),
                ("gradients_per_param", e.gradients_per_param),
                ("optimizer_state_per_param", e.optimizer_state_per_param),
            ] {
                if !(v.is_finite() && (0.0..1e3).contains(&v)) {
                    return Err(Error::Invalid(format!(
                        "{name}: entry {} {} {}: {field} = {v} is impossible",
                        e.family.name(),
                        crate::dtype::name(e.dtype),
                        e.optimizer.name()
                    )));
                }
            }
        }
        Ok(c)
    }

    /// Writes it (atomically; refuses to overwrite without `force`).
    pub fn save(&self, path: &Path, force: bool) -> Result<()> {
        let text = serde_json::to_string_pretty(self)? + "\n";
        crate::files::write_atomic(path, text.as_bytes(), force)
    }
}
