//! The textbook's memory formulas, in one place: bytes per parameter of each precision recipe,
//! activations by Korthikanti et al., the KV cache, LoRA's trainable count, ZeRO's sharding, and
//! the CUDA context's typical size. [`crate::plan::estimate`] shows them beside the 2-byte rule
//! and the measured model; [`crate::plan::fit`] judges the course's (PyTorch) lessons with them.
//!
//! Sources: model states — Rajbhandari et al. 2020, "ZeRO", §3 and Fig. 1 (mixed-precision Adam
//! keeps 2 + 2 + K = 12 bytes per parameter: fp16 weights and gradients, fp32 master copy, m and
//! v), EleutherAI's Transformer Math 101 (pure f32: 4 + 4 + 4 per optimizer state); activations —
//! Korthikanti et al. 2022, "Reducing Activation Recomputation", eq. 2; QLoRA — Dettmers et al.
//! 2023 (NF4 at 0.5 B/param plus ~0.127 bits of double-quantised constants).

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::units::Bytes;

/// Typical CUDA context + library workspace with lazy loading (CUDA ≥ 12.2): 300-600 MiB on
/// current GPUs (data/docs/memory.md: 555 MiB on an RTX PRO 6000, 107 MiB on a 4060 Ti, more
/// without lazy loading). A round 500 MiB until measured.
pub const CUDA_CONTEXT_TYPICAL: Bytes = Bytes(500 * 1024 * 1024);

/// Numeric format of the weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// 64-bit float everywhere (some course lessons run in float64).
    F64,
    /// 32-bit float everywhere.
    F32,
    /// fp16 end to end: weights, gradients and optimizer state all 16-bit, no master copy.
    F16,
    /// bf16 end to end, as Candle trains in bf16: no fp32 master copy, bf16 optimizer state.
    Bf16,
    /// Mixed precision (PyTorch AMP, the ZeRO paper's case): 16-bit weights, gradients and
    /// activations, an fp32 master copy of the weights and fp32 optimizer state.
    Mixed,
    /// 4-bit NF4 frozen base (QLoRA); adapters in 16-bit.
    Nf4,
}

impl Precision {
    /// Short name as written in files and tables.
    pub fn name(self) -> &'static str {
        match self {
            Precision::F64 => "f64",
            Precision::F32 => "f32",
            Precision::F16 => "f16",
            Precision::Bf16 => "bf16",
            Precision::Mixed => "mixed",
            Precision::Nf4 => "nf4",
        }
    }

    /// Trains in 16-bit (mixed precision, or QLoRA's adapters)?
    pub fn is_half(self) -> bool {
        matches!(
            self,
            Precision::F16 | Precision::Bf16 | Precision::Mixed | Precision::Nf4
        )
    }

    /// The recipe in words, for column headings.
    pub fn recipe(self) -> String {
        match self {
            Precision::F64 => t!("recipe-f64"),
            Precision::F32 => t!("recipe-f32"),
            Precision::F16 => t!("recipe-f16"),
            Precision::Bf16 => t!("recipe-bf16"),
            Precision::Mixed => t!("recipe-mixed"),
            Precision::Nf4 => t!("recipe-nf4"),
        }
    }

    /// Parses f64, f32 / fp32, f16 / fp16 / half, bf16, nf4 / 4bit.
    pub fn parse(text: &str) -> Result<Precision> {
        match text.trim().to_ascii_lowercase().as_str() {
            "f64" | "fp64" | "float64" => Ok(Precision::F64),
            "f32" | "fp32" | "float32" => Ok(Precision::F32),
            "f16" | "fp16" | "half" => Ok(Precision::F16),
            "bf16" | "bfloat16" => Ok(Precision::Bf16),
            "mixed" | "amp" | "mixed-precision" => Ok(Precision::Mixed),
            "nf4" | "4bit" | "int4" => Ok(Precision::Nf4),
            other => Err(crate::bad!(
                "precision-unknown",
                given = format!("{other:?}")
            )),
        }
    }

    /// Bytes per weight.
    pub fn weight_bytes(self) -> f64 {
        match self {
            Precision::F64 => 8.0,
            Precision::F32 => 4.0,
            Precision::F16 | Precision::Bf16 | Precision::Mixed => 2.0,
            // NF4 plus double-quantised block constants (~0.127 bits/param).
            Precision::Nf4 => 0.5 + 0.127 / 8.0,
        }
    }

    /// Bytes per activation value.
    pub fn activation_bytes(self) -> f64 {
        match self {
            Precision::F64 => 8.0,
            Precision::F32 => 4.0,
            _ => 2.0,
        }
    }
}

/// A transformer's shape, for activations and the KV cache.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TransformerShape {
    /// Layers L.
    pub layers: u64,
    /// Hidden size h (d_model).
    pub hidden: u64,
    /// Attention heads a.
    pub heads: u64,
    /// Key/value heads (GQA); equal to heads for classic attention.
    pub kv_heads: u64,
    /// Sequence length s.
    pub seq_len: u64,
    /// Vocabulary V.
    pub vocab: u64,
}

/// Bytes per trainable parameter of the model states, by the textbook.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StateBytes {
    /// Weights (for NF4: the 4-bit base; adapters are counted by the caller).
    pub weights: f64,
    /// Gradients, bytes per parameter.
    pub gradients: f64,
    /// Optimizer state, and the fp32 master copy where the recipe keeps one.
    pub optimizer: f64,
}

impl StateBytes {
    /// Their sum.
    pub fn total(self) -> f64 {
        self.weights + self.gradients + self.optimizer
    }
}

/// Bytes bitsandbytes stores for one linear weight of `n` elements quantized to NF4 with double
/// quantization (as QLoRA loads a model): the 4-bit codes (n/2), one 8-bit absmax per block of
/// 64, one f32 absmax of those per 256 blocks, and 1,092 bytes of per-layer constants (the NF4
/// codebook, 16 f32; the nested absmax's 256-entry f32 code; its f32 offset). Measured, not
/// assumed: every shape recorded under data/fixtures/torch/replies/ with "quant": "nf4" holds
/// exactly this (data/docs/measured.md).
pub fn nf4_linear_bytes(n: u64) -> u64 {
    nf4_linear_bytes_as(n, true)
}

/// [`nf4_linear_bytes`], or without double quantization (`BitsAndBytesConfig`'s default):
/// an f32 absmax per block of 64 and only the 64-byte NF4 codebook as constants.
pub fn nf4_linear_bytes_as(n: u64, double_quant: bool) -> u64 {
    let blocks = n.div_ceil(64);
    if double_quant {
        n.div_ceil(2) + blocks + 4 * blocks.div_ceil(256) + 1092
    } else {
        n.div_ceil(2) + 4 * blocks + 64
    }
}

/// The textbook's bytes per parameter for `precision` with `states` optimizer states: a
/// single-precision recipe keeps weights, gradients and states at its width (f32, or bf16 end
/// to end as Candle does); mixed precision keeps 16-bit weights and gradients, an fp32 master
/// copy and fp32 states; QLoRA trains its adapters in mixed precision over an NF4 base.
pub fn textbook_state_bytes(precision: Precision, states: u64) -> StateBytes {
    let k = states as f64;
    match precision {
        Precision::F64 => StateBytes {
            weights: 8.0,
            gradients: 8.0,
            optimizer: 8.0 * k,
        },
        Precision::F32 => StateBytes {
            weights: 4.0,
            gradients: 4.0,
            optimizer: 4.0 * k,
        },
        Precision::F16 | Precision::Bf16 => StateBytes {
            weights: 2.0,
            gradients: 2.0,
            optimizer: 2.0 * k,
        },
        Precision::Mixed => StateBytes {
            weights: 2.0,
            gradients: 2.0,
            optimizer: 4.0 + 4.0 * k,
        },
        Precision::Nf4 => StateBytes {
            weights: Precision::Nf4.weight_bytes(),
            gradients: 2.0,
            optimizer: 4.0 + 4.0 * k,
        },
    }
}

/// LoRA adapters on q and v of every layer: 2 matrices × r·(d + d) per layer.
pub fn lora_params(shape: &TransformerShape, rank: u64) -> u64 {
    shape.layers * 2 * rank * (shape.hidden + shape.hidden)
}

/// Korthikanti et al. 2022, eq. 2: bytes of activations per layer with 16-bit values and no
/// recomputation: `s·b·h·(34 + 5·a·s/h)`; scaled ×2 for f32. With full checkpointing, each layer
/// keeps only its 16-bit input `2·s·b·h` (one layer's full activations are recomputed at a time).
pub fn transformer_activations(
    shape: &TransformerShape,
    batch: u64,
    value_bytes: f64,
    checkpointing: bool,
) -> f64 {
    let (s, b, h, a, l) = (
        shape.seq_len as f64,
        batch as f64,
        shape.hidden as f64,
        shape.heads as f64,
        shape.layers as f64,
    );
    let per_layer = s * b * h * (34.0 + 5.0 * a * s / h) * value_bytes / 2.0;
    if checkpointing {
        l * s * b * h * value_bytes + per_layer
    } else {
        l * per_layer
    }
}

/// KV cache bytes for inference at the full sequence length.
pub fn kv_cache(shape: &TransformerShape, batch: u64, value_bytes: f64) -> f64 {
    let head_dim = shape.hidden as f64 / shape.heads as f64;
    2.0 * shape.layers as f64
        * shape.kv_heads as f64
        * head_dim
        * shape.seq_len as f64
        * batch as f64
        * value_bytes
}
