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

/// Whose modules the PyTorch step trains.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Implementation {
    /// `data/torch-step.py`'s own GPT-2- and Llama-style modules (the same layers as Candle's).
    #[default]
    Gpulab,
    /// Hugging Face transformers' `GPT2LMHeadModel` / `LlamaForCausalLM`, built from a config:
    /// what the course's lessons train.
    Transformers,
}

impl Implementation {
    /// Name as written on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Implementation::Gpulab => "gpulab",
            Implementation::Transformers => "transformers",
        }
    }

    /// Parses "gpulab" or "transformers".
    pub fn parse(text: &str) -> Result<Implementation> {
        match text.trim().to_ascii_lowercase().as_str() {
            "gpulab" => Ok(Implementation::Gpulab),
            "transformers" | "hf" => Ok(Implementation::Transformers),
            other => Err(crate::bad!("impl-unknown", given = format!("{other:?}"))),
        }
    }
}

/// transformers' attention implementation (`attn_implementation`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attention {
    /// `torch.nn.functional.scaled_dot_product_attention`: the library's default.
    #[default]
    Sdpa,
    /// The score matrix written out (softmax(q·kᵀ)·v in plain ops).
    Eager,
}

/// How the optimizer's update is asked for (`--update`): the device's own default, or one way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateChoice {
    /// PyTorch's default for the device: foreach on CUDA, for-loop on the CPU.
    Auto,
    /// Multi-tensor (foreach).
    Foreach,
    /// Parameter by parameter.
    ForLoop,
}

impl UpdateChoice {
    /// Parses auto, foreach and for-loop.
    pub fn parse(text: &str) -> Result<UpdateChoice> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(UpdateChoice::Auto),
            "foreach" => Ok(UpdateChoice::Foreach),
            "for-loop" | "forloop" => Ok(UpdateChoice::ForLoop),
            other => Err(crate::bad!("update-unknown", given = format!("{other:?}"))),
        }
    }

    /// Whether the update runs foreach on CUDA (`cuda`) or the CPU.
    pub fn foreach(self, cuda: bool) -> bool {
        match self {
            UpdateChoice::Auto => cuda,
            UpdateChoice::Foreach => true,
            UpdateChoice::ForLoop => false,
        }
    }
}

impl Attention {
    /// Name as written on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Attention::Sdpa => "sdpa",
            Attention::Eager => "eager",
        }
    }

    /// Parses "sdpa" or "eager".
    pub fn parse(text: &str) -> Result<Attention> {
        match text.trim().to_ascii_lowercase().as_str() {
            "sdpa" => Ok(Attention::Sdpa),
            "eager" => Ok(Attention::Eager),
            other => Err(crate::bad!("attn-unknown", given = format!("{other:?}"))),
        }
    }
}

/// How the PyTorch step is written, beyond the shape, dtype and optimizer: each combination
/// holds different tensors, so each gets its own fitted memory model (the LoRA rank is a shape
/// dimension, `ModelConfig::lora`; its target layers are part of the variant).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Variant {
    /// Whose modules.
    pub implementation: Implementation,
    /// transformers' attention (the gpulab implementation writes its attention out, as eager).
    pub attention: Attention,
    /// AdamW's (and SGD's) multi-tensor update: PyTorch's default on CUDA; the single-tensor
    /// one is its default on the CPU.
    pub foreach: bool,
    /// Activation checkpointing (`gradient_checkpointing_enable()`, non-reentrant).
    pub checkpointing: bool,
    /// LoRA through peft on these layers (the base frozen).
    pub lora: Option<crate::memory::models::LoraTargets>,
    /// Mixed precision: the forward pass under `torch.autocast` in this dtype, the weights and
    /// optimizer in the step's dtype (f32).
    pub autocast: Option<Autocast>,
    /// QLoRA: the frozen base's block linears quantized to 4 bits (bitsandbytes), under LoRA.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quant: Option<Quant>,
}

/// A quantized frozen base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quant {
    /// bitsandbytes' 4-bit NormalFloat with double quantization (QLoRA's), computing in the
    /// step's dtype.
    Nf4,
}

impl Quant {
    /// "nf4".
    pub fn name(self) -> &'static str {
        match self {
            Quant::Nf4 => "nf4",
        }
    }

    /// Parses "nf4" (or "4bit").
    pub fn parse(text: &str) -> Result<Quant> {
        match text.trim().to_ascii_lowercase().as_str() {
            "nf4" | "4bit" => Ok(Quant::Nf4),
            other => Err(crate::bad!("quant-unknown", given = format!("{other:?}"))),
        }
    }
}

/// The 16-bit type autocast computes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Autocast {
    /// bfloat16 (the CPU's and Ampere's choice).
    Bf16,
    /// float16 (a T4's, with a gradient scaler in real runs).
    F16,
}

impl Autocast {
    /// Parses bf16 and f16.
    pub fn parse(text: &str) -> Result<Autocast> {
        match text.trim().to_ascii_lowercase().as_str() {
            "bf16" => Ok(Autocast::Bf16),
            "f16" => Ok(Autocast::F16),
            other => Err(crate::bad!(
                "autocast-unknown",
                given = format!("{other:?}")
            )),
        }
    }

    /// "bf16" or "f16".
    pub fn name(self) -> &'static str {
        match self {
            Autocast::Bf16 => "bf16",
            Autocast::F16 => "f16",
        }
    }
}

impl Variant {
    /// The variant PyTorch users run on this device: transformers with its defaults, and the
    /// device's default optimizer update (foreach on CUDA, for-loop on the CPU).
    pub fn people_run(cuda: bool) -> Variant {
        Variant {
            implementation: Implementation::Transformers,
            foreach: cuda,
            ..Variant::default()
        }
    }

    /// "transformers, sdpa attention, foreach AdamW, checkpointing, LoRA qv, autocast bf16": what
    /// a column assumes.
    pub fn describe(&self, optimizer: OptimizerKind) -> String {
        let mut parts = vec![self.implementation.name().to_string()];
        if self.implementation == Implementation::Transformers {
            parts.push(t!("variant-attention", name = self.attention.name()));
        }
        parts.push(if self.foreach {
            t!("variant-foreach", optimizer = optimizer.name())
        } else {
            t!("variant-for-loop", optimizer = optimizer.name())
        });
        if self.checkpointing {
            parts.push(t!("variant-checkpointing"));
        }
        if let Some(l) = self.lora {
            parts.push(t!("variant-lora", targets = l.name()));
        }
        if let Some(a) = self.autocast {
            parts.push(t!("variant-autocast", dtype = a.name()));
        }
        if let Some(q) = self.quant {
            parts.push(t!("variant-quant", quant = q.name()));
        }
        parts.join(", ")
    }
}

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
