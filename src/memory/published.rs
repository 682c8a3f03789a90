//! Published GPU measurements of Hugging Face training steps (data/published/gpu-steps.toml)
//! set beside the derived CUDA step ([`crate::memory::cuda_step`]): the check that keeps the
//! derivation honest. The rows judge it; nothing is fitted to them.

use serde::Deserialize;

use crate::error::Result;
use crate::memory::cuda_step::{Adapters, CudaStep, Kernel, LossPath, Recipe, Update};
use crate::memory::models::Projections;
use crate::units::Bytes;

/// The rows shipped with gpulab.
pub const SHIPPED: &str = include_str!("../../data/published/gpu-steps.toml");

/// One published step, as its source states it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// Short name.
    pub id: String,
    /// Where the number was published.
    pub source: String,
    /// When (YYYY-MM-DD).
    pub published: String,
    /// The GPU it ran on (data/gpus.toml's name).
    pub gpu: String,
    /// Library versions as the source pins them.
    pub libraries: String,
    /// The transformers release (decides the loss path).
    pub transformers: String,
    /// A gpulab preset.
    pub model: String,
    /// Sequences per step (per GPU).
    pub batch: usize,
    /// Tokens per sequence.
    pub seq_len: usize,
    /// `torch_dtype` as given.
    pub dtype: String,
    /// pure16, amp, f32 or qlora.
    pub recipe: Recipe,
    /// transformers' attn_implementation.
    pub attention: String,
    /// Gradient checkpointing.
    pub checkpointing: bool,
    /// The optimizer as the recipe names it (adamw, adamw-8bit, …).
    pub optimizer: String,
    /// foreach, fused or for_loop.
    pub update: Update,
    /// LoRA rank, with LoRA.
    #[serde(default)]
    pub lora_rank: Option<usize>,
    /// LoRA's target modules ("q,k,v,o").
    #[serde(default)]
    pub lora_targets: Option<String>,
    /// LoRA dropout.
    #[serde(default)]
    pub lora_dropout: Option<f64>,
    /// What QLoRA's preparation left fp32 (peft, trl_bf16 or none), with QLoRA.
    #[serde(default)]
    pub kbit_prep: Option<crate::memory::cuda_step::KbitPrep>,
    /// bitsandbytes' double quantization, with QLoRA (default true).
    #[serde(default)]
    pub double_quant: Option<bool>,
    /// `torch.cuda.max_memory_allocated`, bytes.
    pub allocated: u64,
    /// Peak nvidia-smi memory.used in MiB (what the process held, context included).
    #[serde(default)]
    pub nvidia_smi_mib: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    row: Vec<Row>,
}

/// Reads rows from TOML text.
pub fn parse(text: &str) -> Result<Vec<Row>> {
    let file: File = toml::from_str(text)
        .map_err(|e| crate::bad!("published-bad", error = e.message().to_string()))?;
    Ok(file.row)
}

impl Row {
    /// The derived step this row describes.
    pub fn step(&self) -> Result<CudaStep> {
        let mut model = crate::memory::models::preset(&self.model)
            .ok_or_else(|| crate::bad!("published-model", given = self.model.clone()))?;
        model.batch = self.batch;
        model.seq_len = self.seq_len;
        let kernel = match self.attention.as_str() {
            "sdpa" | "flash_attention_2" => Kernel::Fused,
            "eager" => Kernel::Eager,
            other => {
                return Err(crate::bad!(
                    "published-field",
                    field = "attention",
                    given = other.to_string()
                ))
            }
        };
        let lora = match self.lora_rank {
            Some(rank) => Some(Adapters {
                rank,
                targets: Projections::parse(self.lora_targets.as_deref().unwrap_or("qv"))?,
                dropout: self.lora_dropout.unwrap_or(0.0) > 0.0,
            }),
            None => None,
        };
        let mut step = CudaStep::new(
            model,
            self.recipe,
            kernel,
            LossPath::of_release(&self.transformers)?,
            lora,
            crate::memory::optim::OptimizerRecipe::parse(&self.optimizer)?,
            self.update,
            self.checkpointing,
        );
        step.kbit_prep = self.kbit_prep.unwrap_or_default();
        step.double_quant = self.double_quant.unwrap_or(true);
        Ok(step)
    }
}

/// One row judged.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Judged {
    /// The row's id.
    pub id: String,
    /// Published allocated peak.
    pub measured: Bytes,
    /// Derived allocated peak.
    pub derived: Bytes,
    /// (derived − measured) / measured, in percent.
    pub error_pct: f64,
    /// QLoRA (an under-estimate there is the unsafe direction the goals single out).
    pub qlora: bool,
    /// Published nvidia-smi peak, MiB.
    pub nvidia_smi_mib: Option<u64>,
    /// Derived nvidia-smi peak (reserved + the GPU's context), MiB.
    pub derived_smi_mib: u64,
}

/// Every row judged, and the summary: (rows, median |error| %, worst |error| %, worst QLoRA
/// under-estimate % (≥ 0)).
pub fn judge(rows: &[Row]) -> Result<(Vec<Judged>, f64, f64, f64)> {
    let mut judged = Vec::new();
    for row in rows {
        let step = row.step()?;
        step.validate()?;
        let peaks = step.peaks();
        let context = crate::memory::formulas::CUDA_CONTEXT_TYPICAL;
        let derived = peaks.allocated;
        let error_pct = (derived.0 as f64 - row.allocated as f64) / row.allocated as f64 * 100.0;
        judged.push(Judged {
            id: row.id.clone(),
            measured: Bytes(row.allocated),
            derived,
            error_pct,
            qlora: step.recipe == Recipe::Qlora,
            nvidia_smi_mib: row.nvidia_smi_mib,
            derived_smi_mib: (peaks.reserved.0 + context.0) >> 20,
        });
    }
    let mut abs: Vec<f64> = judged.iter().map(|j| j.error_pct.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let median = if abs.is_empty() {
        0.0
    } else if abs.len() % 2 == 1 {
        abs[abs.len() / 2]
    } else {
        (abs[abs.len() / 2 - 1] + abs[abs.len() / 2]) / 2.0
    };
    let worst = abs.last().copied().unwrap_or(0.0);
    let qlora_under = judged
        .iter()
        .filter(|j| j.qlora)
        .map(|j| (-j.error_pct).max(0.0))
        .fold(0.0, f64::max);
    Ok((judged, median, worst, qlora_under))
}
