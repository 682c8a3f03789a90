//! The calibration file `measure --save` writes and `estimate` reads: the fitted memory models
//! ([`crate::memory::empirical::StepModel`], one per family, dtype and optimizer) of one
//! framework on one machine, with the measured bytes per parameter and sweep fits of the run
//! that made it.
//!
//! Schema `gpulab.calibration`, version 2 (JSON; version 1 had no `framework` and no `models`,
//! and is refused with the command that makes a current one):
//! ```text
//! { schema, schema_version, gpulab_version, candle_version, created_unix_s,
//!   framework: "candle" | "pytorch", framework_version,
//!   machine: { cpu_model, os, device, device_name },
//!   models: [ { family, dtype, optimizer, forward: { terms, coefficients },
//!               backward: [ { terms, coefficients } ], step: {…}, per_param,
//!               calibration_points } ],
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

use crate::error::Result;
use crate::memory::measure::Phase;
use crate::memory::models::{Family, ModelConfig};
use crate::memory::optim::OptimizerKind;
use crate::memory::suite::{Purpose, StepResult, SweepFit};

/// The calibration shipped with the kit: `gpulab measure --save data/calibration-cpu.json`, run
/// on the project's CPU machine. Used until the learner saves one of their own.
pub const SHIPPED_CPU: &str = include_str!("../../data/calibration-cpu.json");

/// The calibrations `estimate` uses unless told otherwise: the shipped ones, with a label each
/// saying where they came from; or the files named, in order.
pub fn load_all(paths: &[std::path::PathBuf]) -> Result<Vec<(Calibration, String)>> {
    if paths.is_empty() {
        return Ok(shipped()?
            .into_iter()
            .map(|(c, file)| {
                let remeasure = match c.framework {
                    Framework::Candle => "gpulab measure --save FILE",
                    Framework::Pytorch => "gpulab measure --pytorch --save FILE",
                };
                let label = t!(
                    "cal-shipped",
                    file = file,
                    framework = c.framework.name(),
                    version = c.framework_version,
                    device = c.machine.device_name,
                    command = remeasure
                );
                (c, label)
            })
            .collect());
    }
    paths
        .iter()
        .map(|p| {
            let c = Calibration::load(p)?;
            let label = t!(
                "cal-given",
                file = p.display(),
                framework = c.framework.name(),
                version = c.framework_version,
                device = c.machine.device_name,
                spec = c.machine.device
            );
            Ok((c, label))
        })
        .collect()
}

/// The PyTorch calibration shipped with the kit: `gpulab measure --pytorch --save
/// data/calibration-torch-cpu.json`, run on the project's CPU machine with PyTorch's CPU build.
pub const SHIPPED_TORCH_CPU: &str = include_str!("../../data/calibration-torch-cpu.json");

/// The shipped calibrations, Candle's then PyTorch's, with their file names.
pub fn shipped() -> Result<Vec<(Calibration, &'static str)>> {
    Ok(vec![
        (
            Calibration::parse(SHIPPED_CPU, "data/calibration-cpu.json")?,
            "data/calibration-cpu.json",
        ),
        (
            Calibration::parse(SHIPPED_TORCH_CPU, "data/calibration-torch-cpu.json")?,
            "data/calibration-torch-cpu.json",
        ),
    ])
}

/// Version of the file layout.
pub const CALIBRATION_SCHEMA_VERSION: u32 = 2;

/// Which framework's training step a calibration measured (or a workload runs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Framework {
    /// Candle (gpulab's own step).
    Candle,
    /// PyTorch (the same step, `data/torch-step.py`, see `memory::torch`); what the course's
    /// lessons run.
    #[default]
    Pytorch,
}

impl Framework {
    /// Name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Framework::Candle => "Candle",
            Framework::Pytorch => "PyTorch",
        }
    }
}

/// Where the numbers were measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// CPU model.
    pub cpu_model: String,
    /// Operating system and version.
    pub os: String,
    /// "cpu" or "cuda:N".
    pub device: String,
    /// Device name.
    pub device_name: String,
}

/// One measured configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The network family measured.
    pub family: Family,
    /// Its element type.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: candle_core::DType,
    /// Its optimizer.
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
    /// Which framework's step was measured.
    pub framework: Framework,
    /// Its version.
    pub framework_version: String,
    /// The machine it was measured on.
    pub machine: Machine,
    /// The fitted memory models.
    #[serde(default)]
    pub models: Vec<crate::memory::empirical::StepModel>,
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
        models: Vec<crate::memory::empirical::StepModel>,
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
            framework: Framework::Candle,
            framework_version: crate::probe::framework::candle_version().into(),
            machine,
            models,
            entries,
            fits: fits.to_vec(),
        }
    }

    /// The fitted model for a family, dtype and optimizer, if this calibration has one.
    pub fn model(
        &self,
        family: Family,
        dtype: candle_core::DType,
        optimizer: OptimizerKind,
    ) -> Option<&crate::memory::empirical::StepModel> {
        // The default step only: gpulab's own modules with the CPU's for-loop update in a
        // PyTorch file (a variant is asked for through `model_for`).
        self.models.iter().find(|m| {
            m.family == family
                && m.dtype == dtype
                && m.optimizer == optimizer
                && m.variant.unwrap_or_default() == crate::memory::torch::Variant::default()
        })
    }

    /// The fitted model for this shape (its family, and LoRA's targets if it has adapters),
    /// dtype, optimizer and PyTorch variant (None: Candle's step). A PyTorch calibration saved
    /// before variants existed measured the default one (gpulab's modules, for-loop update).
    pub fn model_for(
        &self,
        m: &ModelConfig,
        dtype: candle_core::DType,
        optimizer: OptimizerKind,
        variant: Option<&crate::memory::torch::Variant>,
    ) -> Option<&crate::memory::empirical::StepModel> {
        let default = crate::memory::torch::Variant::default();
        let wanted = variant.map(|v| crate::memory::torch::Variant {
            lora: m.lora.map(|l| l.targets),
            ..*v
        });
        self.models.iter().find(|s| {
            s.family == m.family
                && s.dtype == dtype
                && s.optimizer == optimizer
                && match (self.framework, &wanted) {
                    (Framework::Candle, _) | (_, None) => m.lora.is_none(),
                    (Framework::Pytorch, Some(w)) => s.variant.unwrap_or(default) == *w,
                }
        })
    }

    /// Reads and checks a calibration file.
    pub fn load(path: &Path) -> Result<Calibration> {
        let text = crate::files::read_text(path)?;
        Calibration::parse(&text, &path.display().to_string())
    }

    /// Parses and checks calibration JSON; `name` labels errors.
    pub fn parse(text: &str, name: &str) -> Result<Calibration> {
        let c: Calibration = serde_json::from_str(text)
            .map_err(|e| crate::bad!("cal-not-a-file", name = name, error = e))?;
        c.header.expect(
            "gpulab.calibration",
            CALIBRATION_SCHEMA_VERSION,
            name,
            &t!("cal-redo", name = name),
        )?;
        for m in &c.models {
            let parts = std::iter::once(&m.forward)
                .chain(&m.backward)
                .chain(std::iter::once(&m.step));
            // The family's vocabulary once per model, not per term.
            let known = crate::memory::empirical::terms(
                &crate::memory::models::ModelConfig::default_for(m.family),
            );
            for term in parts.flat_map(|p| &p.terms) {
                if !known.contains_key(term.as_str()) {
                    return Err(crate::bad!(
                        "cal-unknown-term",
                        name = name,
                        family = m.family.name(),
                        term = format!("{term:?}")
                    ));
                }
            }
        }
        for e in &c.entries {
            for (field, v) in [
                ("weights_per_param", e.weights_per_param),
                ("gradients_per_param", e.gradients_per_param),
                ("optimizer_state_per_param", e.optimizer_state_per_param),
            ] {
                if !(v.is_finite() && (0.0..1e3).contains(&v)) {
                    return Err(crate::bad!(
                        "cal-impossible",
                        name = name,
                        entry = format!(
                            "{} {} {}",
                            e.family.name(),
                            crate::dtype::name(e.dtype),
                            e.optimizer.name()
                        ),
                        field = field,
                        value = v
                    ));
                }
            }
        }
        Ok(c)
    }

    /// `newer` written over this file (`measure --pytorch --save --append`): its models replace
    /// those of the same family, dtype, optimizer and variant; the rest stay, and the framework
    /// version becomes the newer one's.
    pub fn merge_newer(mut self, mut newer: Calibration) -> Calibration {
        let key = |m: &crate::memory::empirical::StepModel| {
            (
                m.family,
                m.dtype,
                m.optimizer,
                m.variant.unwrap_or_default(),
            )
        };
        self.models
            .retain(|old| !newer.models.iter().any(|new| key(new) == key(old)));
        self.models.append(&mut newer.models);
        self.framework_version = newer.framework_version;
        self
    }

    /// Writes it (atomically; refuses to overwrite without `force`).
    pub fn save(&self, path: &Path, force: bool) -> Result<()> {
        let text = serde_json::to_string_pretty(self)? + "\n";
        crate::files::write_atomic(path, text.as_bytes(), force)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_run_replaces_only_its_own_models() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/calibration-torch-cpu.json"
        );
        let earlier = Calibration::load(Path::new(path)).unwrap();
        assert!(earlier.models.len() >= 2, "{}", earlier.models.len());
        // A newer run that re-measured the first model only (its bytes per weight changed).
        let mut newer = earlier.clone();
        newer.models.truncate(1);
        newer.models[0].per_param[0] += 1.0;
        newer.framework_version = "9.9".into();
        let merged = earlier.clone().merge_newer(newer.clone());
        assert_eq!(merged.models.len(), earlier.models.len());
        assert_eq!(merged.framework_version, "9.9");
        assert_eq!(
            merged
                .models
                .iter()
                .filter(|m| **m == newer.models[0])
                .count(),
            1
        );
        assert!(!merged.models.contains(&earlier.models[0]));
        assert!(earlier.models[1..]
            .iter()
            .all(|m| merged.models.contains(m)));
    }

    #[test]
    fn a_misspelled_term_is_refused_not_read_as_zero() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/calibration-torch-cpu.json"
        );
        let text = std::fs::read_to_string(path).unwrap();
        assert!(Calibration::parse(&text, "shipped").is_ok());
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        json["models"][0]["forward"]["terms"][0] = "L·b·s·dd".into();
        let err = Calibration::parse(&json.to_string(), "edited").unwrap_err();
        assert_eq!(err.key(), Some("cal-unknown-term"), "{err}");
        assert!(err.to_string().contains("L·b·s·dd"), "{err}");
    }
}
