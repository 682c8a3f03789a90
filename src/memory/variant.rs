//! How a PyTorch training step is written: whose modules, which attention, the optimizer's
//! update, checkpointing, LoRA, autocast and a quantized base. `memory::torch` runs such a step
//! and the memory model (`memory::empirical`) keeps one model per way of writing it.

use serde::{Deserialize, Serialize};

use crate::error::Result;
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
