//! The same training step in PyTorch: `data/torch-step.py` (embedded here) builds gpulab's GPT-2-
//! and Llama-style models in PyTorch, trains one step and reports the bytes of each phase —
//! on the CPU from the profiler's memory events (exact), on CUDA from `max_memory_allocated`.
//! gpulab runs it with the python the user has (`python3`, or `--python PATH`) as a child process
//! bounded by a timeout, and fits the same memory model ([`crate::memory::empirical`]) on what it
//! reports, so `estimate` can show PyTorch's peak beside Candle's: the course's later lessons run
//! PyTorch, and PyTorch holds far less for the same step (data/docs/memory.md).
//!
//! No python, or a python without torch, is a fact to report ([`Availability`]), not an error.

use std::path::{Path, PathBuf};
use std::time::Duration;

use candle_core::DType;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::memory::empirical::PhasePeaks;
use crate::memory::models::{Family, ModelConfig};
use crate::memory::optim::OptimizerKind;

pub use crate::memory::variant::{
    Attention, Autocast, Implementation, Quant, UpdateChoice, Variant,
};

/// The script, as shipped in `data/torch-step.py`.
pub const SCRIPT: &str = include_str!("../../data/torch-step.py");

/// How long one PyTorch job (a family × dtype × optimizer's shapes) may take.
pub const JOB_TIMEOUT: Duration = Duration::from_secs(900);

/// Is PyTorch there?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Availability {
    /// `import torch` worked.
    Available {
        /// The interpreter.
        python: PathBuf,
        /// torch.__version__.
        version: String,
    },
    /// No such interpreter.
    NoPython {
        /// What was tried.
        python: PathBuf,
    },
    /// The interpreter has no torch.
    NoTorch {
        /// The interpreter.
        python: PathBuf,
        /// Its complaint's last line.
        reason: String,
    },
}

impl Availability {
    /// One sentence for a person.
    pub fn explain(&self) -> String {
        match self {
            Availability::Available { python, version } => {
                t!(
                    "torch-available",
                    version = version,
                    python = python.display()
                )
            }
            Availability::NoPython { python } => {
                t!("torch-need-python", python = python.display())
            }
            Availability::NoTorch { python, reason } => t!(
                "torch-need-torch",
                python = python.display(),
                reason = reason
            ),
        }
    }
}

/// The interpreter to use: the one named, else `python3` on PATH.
pub fn python(explicit: Option<&Path>) -> PathBuf {
    explicit.map_or_else(|| PathBuf::from("python3"), Path::to_path_buf)
}

/// Asks `python` for torch's version (30 s at most: the first import of torch is slow).
pub fn availability(python: &Path) -> Availability {
    let run = crate::process::run_with_timeout(
        python,
        &["-c", "import torch; print(torch.__version__)"],
        None,
        Duration::from_secs(30),
    );
    match run {
        Err(_) => Availability::NoPython {
            python: python.to_path_buf(),
        },
        Ok(None) => Availability::NoTorch {
            python: python.to_path_buf(),
            reason: t!("torch-import-slow"),
        },
        Ok(Some(out)) if out.exit_code == Some(0) => Availability::Available {
            python: python.to_path_buf(),
            version: out.stdout.trim().to_string(),
        },
        Ok(Some(out)) => Availability::NoTorch {
            python: python.to_path_buf(),
            reason: out
                .stderr
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .map(|l| l.trim().to_string())
                .unwrap_or_else(|| t!("no-message")),
        },
    }
}

/// One step as the script reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TorchStep {
    /// Parameters of the model PyTorch built.
    pub params: u64,
    /// Parameters that train (all of them unless LoRA; absent in replies recorded before).
    #[serde(default)]
    pub trainable: Option<u64>,
    /// Their bytes (the size of their gradients).
    #[serde(default)]
    pub trainable_bytes: Option<u64>,
    /// Weights' bytes.
    pub weights: u64,
    /// Optimizer state's bytes.
    pub optimizer_state: u64,
    /// The batch's bytes.
    pub batch: u64,
    /// Bytes alive when the loss is computed.
    pub forward_live: u64,
    /// The backward pass's peak.
    pub backward_peak: u64,
    /// The optimizer step's peak.
    pub step_peak: u64,
    /// The step's peak.
    pub peak: u64,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StepOrError {
    Step(TorchStep),
    Error { error: String },
}

#[derive(Deserialize)]
struct Reply {
    torch: String,
    device: String,
    steps: Vec<StepOrError>,
}

/// What a job gave back.
#[derive(Debug, Clone, PartialEq)]
pub struct TorchRun {
    /// torch.__version__.
    pub torch: String,
    /// Device name.
    pub device: String,
    /// Per shape, the step or why it failed.
    pub steps: Vec<std::result::Result<PhasePeaks, String>>,
}

/// The job's JSON for one dtype × optimizer × variant over `shapes` (GPT and Llama only).
pub fn job(
    shapes: &[ModelConfig],
    dtype: DType,
    optimizer: OptimizerKind,
    variant: &Variant,
    cuda: bool,
) -> String {
    let shapes: Vec<serde_json::Value> = shapes
        .iter()
        .map(|m| {
            let mut shape = serde_json::json!({
                "family": m.family.name(),
                "batch": m.batch,
                "layers": m.layers,
                "d_model": m.d_model,
                "heads": m.heads,
                "kv_heads": m.kv_head_count(),
                "ffn": m.ffn_width(),
                "vocab": m.vocab,
                "seq_len": m.seq_len,
                "context": m.context,
                "tied": m.tied,
            });
            if let Some(l) = m.lora {
                shape["lora"] = serde_json::json!({"rank": l.rank, "targets": l.targets.name()});
            }
            shape
        })
        .collect();
    let mut job = serde_json::json!({
        "device": if cuda { "cuda" } else { "cpu" },
        "dtype": crate::dtype::name(dtype),
        "optimizer": optimizer.name(),
        "shapes": shapes,
    });
    // The default variant's job is the one gpulab always sent (the recorded replies stay valid).
    if *variant != Variant::default() {
        job["impl"] = variant.implementation.name().into();
        job["attn"] = variant.attention.name().into();
        job["foreach"] = variant.foreach.into();
        job["checkpointing"] = variant.checkpointing.into();
        job["autocast"] = variant.autocast.map(|a| a.name()).into();
        // Only when set: the jobs recorded before quantized bases existed keep their names.
        if let Some(q) = variant.quant {
            job["quant"] = q.name().into();
        }
    }
    job.to_string()
}

/// Parses the script's reply (its last line of output) for the shapes it was given.
pub fn parse_reply(
    stdout: &str,
    shapes: &[ModelConfig],
    dtype: DType,
    optimizer: OptimizerKind,
    variant: &Variant,
) -> Result<TorchRun> {
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .ok_or_else(|| crate::bad!("tstep-no-result"))?;
    let reply: Reply =
        serde_json::from_str(line).map_err(|e| crate::bad!("tstep-unreadable", error = e))?;
    if reply.steps.len() != shapes.len() {
        return Err(crate::bad!(
            "tstep-count",
            answered = reply.steps.len(),
            asked = shapes.len()
        ));
    }
    let steps = reply
        .steps
        .into_iter()
        .zip(shapes)
        .map(|(s, m)| match s {
            StepOrError::Error { error } => Err(error),
            StepOrError::Step(t) => {
                let expected = m.param_count();
                let trainable = t.trainable.unwrap_or(t.params);
                if t.params != expected || trainable != m.trainable_count() {
                    return Err(t!("tstep-other-model", theirs = t.params, ours = expected));
                }
                let trained = trainable.max(1) as f64;
                // PyTorch's gradients have the trained parameters' sizes.
                let trained_bytes = t.trainable_bytes.unwrap_or(t.weights);
                let gradients = trained_bytes as f64 / trained;
                // With LoRA the frozen base and the adapters differ in dtype (peft keeps a 16-bit
                // base's adapters in f32): the weights' figure is the frozen ones' (with a
                // quantized base, the quantized ones').
                let weights = crate::memory::empirical::WeightStorage::of(dtype, Some(variant))
                    .per_frozen(m, t.weights as f64, trained_bytes as f64);
                Ok(PhasePeaks {
                    model: m.clone(),
                    dtype,
                    optimizer,
                    variant: Some(*variant),
                    params: t.params,
                    forward_live: t.forward_live as f64,
                    backward_peak: t.backward_peak as f64,
                    step_peak: t.step_peak as f64,
                    peak: t.peak as f64,
                    per_param: [weights, gradients, t.optimizer_state as f64 / trained],
                })
            }
        })
        .collect();
    Ok(TorchRun {
        torch: reply.torch,
        device: reply.device,
        steps,
    })
}

/// Runs the step for `shapes` (GPT and Llama) with `python`, on the CPU or CUDA.
pub fn run(
    python: &Path,
    shapes: &[ModelConfig],
    dtype: DType,
    optimizer: OptimizerKind,
    variant: &Variant,
    cuda: bool,
) -> Result<TorchRun> {
    if let Some(m) = shapes.iter().find(|m| !m.family.is_transformer()) {
        return Err(crate::bad!("tstep-family", family = m.family.name()));
    }
    // Removed on return and on Ctrl-C alike (src/process.rs).
    let dir = crate::process::TempFolder::new().map_err(|source| Error::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let script = dir.path().join("torch-step.py");
    crate::files::write_atomic(&script, SCRIPT.as_bytes(), true)?;
    let input = job(shapes, dtype, optimizer, variant, cuda);
    let out = crate::process::run_with_timeout(
        python,
        &[&script.display().to_string()],
        Some(input.as_bytes()),
        JOB_TIMEOUT,
    )
    .map_err(|source| Error::Io {
        path: python.to_path_buf(),
        source,
    })?
    .ok_or_else(|| crate::bad!("tstep-timeout", seconds = JOB_TIMEOUT.as_secs()))?;
    if out.exit_code != Some(0) {
        let last = out
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| t!("no-message"));
        return Err(crate::bad!(
            "tstep-failed",
            code = out.exit_code.map_or("?".to_string(), |c| c.to_string()),
            last = last
        ));
    }
    parse_reply(&out.stdout, shapes, dtype, optimizer, variant)
}

/// The families the PyTorch step builds.
pub const FAMILIES: [Family; 2] = [Family::Gpt, Family::Llama];

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded(name: &str) -> String {
        let path = format!("{}/data/fixtures/torch/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn reads_a_recorded_reply_for_the_shapes_it_was_given() {
        let shapes = crate::memory::validate::held_out_shapes(Family::Gpt);
        // The job gpulab sends today is the job that was recorded.
        let v = Variant::default();
        let sent = job(&shapes, DType::F32, OptimizerKind::Adamw, &v, false);
        // Byte for byte: the tests' fake interpreter finds a reply by the job's SHA-256.
        assert_eq!(sent, recorded("replies/e613548b6e6704a0.job.json"));
        let run = parse_reply(
            &recorded("replies/e613548b6e6704a0.json"),
            &shapes,
            DType::F32,
            OptimizerKind::Adamw,
            &v,
        )
        .unwrap();
        assert!(run.torch.starts_with("2."));
        for step in &run.steps {
            let s = step.as_ref().unwrap();
            // AdamW in f32: 4 B of weights and 8 B of state per parameter, exactly.
            assert!((s.per_param[0] - 4.0).abs() < 0.01 && (s.per_param[2] - 8.0).abs() < 0.01);
            assert!(s.peak >= s.backward_peak.max(s.step_peak));
        }
        // Another shape list: the parameter counts no longer match, and it says so.
        let mut other = shapes.clone();
        other[0].d_model *= 2;
        let run = parse_reply(
            &recorded("replies/e613548b6e6704a0.json"),
            &other,
            DType::F32,
            OptimizerKind::Adamw,
            &v,
        )
        .unwrap();
        assert!(run.steps[0]
            .as_ref()
            .unwrap_err()
            .contains("not the same model"));
        assert!(parse_reply(
            "Traceback ...",
            &shapes,
            DType::F32,
            OptimizerKind::Adamw,
            &v
        )
        .is_err());
    }
}
