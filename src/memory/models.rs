//! The small models whose training step `measure` runs, standing for the course's training
//! lessons (data/docs/lessons.md): an MNIST-sized MLP (03/11), a GPT-2-style decoder (19/35,
//! 19/36, 07/14), a Llama-style decoder (the fine-tuning lessons' models), and a small CNN
//! (04/04). Shapes are parameters; defaults are small enough for a 2-core CPU.
//!
//! Written for training in Candle: layer norm, softmax and the loss use the composite ops that
//! have a backward pass (candle-nn's fused LayerNorm and `softmax_last_dim` have none and would
//! silently leave parameters without gradients; data/docs/measured.md). The loss is computed
//! in f32 whatever the model's dtype, because CPU reductions accumulate in the tensor's dtype.
//!
//! Parameter counts, with the formulas in [`ModelConfig::param_count`]:
//! - MLP `in → h₁ → … → out`: Σ (inᵢ·outᵢ + outᵢ).
//! - GPT-2 style: V·d + S·d + L·(4d² + 4d + 2d·f + f + d + 4d) + 2d (+ d·V when the head is not
//!   tied to the token embedding; GPT-2 ties it): qkv 3d²+3d, proj d²+d, fc1 d·f+f, fc2 f·d+d,
//!   two layer norms 4d; with f = 4d the block is 12d² + 13d.
//! - Llama style: V·d + L·(2d² + 2d·kv·hd + 3d·f + 2d) + d + d·V: q and o d², k and v d·kv·hd
//!   (grouped-query attention: kv heads of width hd = d/h), gate, up and down d·f, two RMSNorm
//!   weights; rotary positions have no parameters, no biases, the head is untied.
//! - CNN: 3·c₁·9 + c₁ + c₁·c₂·9 + c₂ + c₂·(s/4)²·classes + classes.
//!
//! One file on purpose: each family's shape, parameter count, build and forward
//! sit side by side; the Llama block's parts and the presets are in `models/`.

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{Conv2d, Conv2dConfig, Embedding, Linear, VarBuilder};
use serde::{Deserialize, Serialize};

use crate::error::Result;

/// Which model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Multi-layer perceptron on flat inputs.
    Mlp,
    /// GPT-2-style decoder: learned positions, LayerNorm, GELU MLP, biases.
    Gpt,
    /// Llama-style decoder: RMSNorm, SwiGLU, rotary positions, grouped-query attention, no biases.
    Llama,
    /// Small convolutional network on images.
    Cnn,
}

impl Family {
    /// Parses "mlp", "gpt" (or "transformer"), "cnn".
    pub fn parse(text: &str) -> Result<Family> {
        match text.trim().to_ascii_lowercase().as_str() {
            "mlp" => Ok(Family::Mlp),
            "gpt" | "gpt2" | "transformer" => Ok(Family::Gpt),
            "llama" => Ok(Family::Llama),
            "cnn" | "conv" => Ok(Family::Cnn),
            other => Err(crate::bad!(
                "model-family-unknown",
                given = format!("{other:?}")
            )),
        }
    }

    /// Name as printed.
    pub fn name(self) -> &'static str {
        match self {
            Family::Mlp => "mlp",
            Family::Gpt => "gpt",
            Family::Llama => "llama",
            Family::Cnn => "cnn",
        }
    }

    /// A decoder-only transformer (GPT or Llama style)?
    pub fn is_transformer(self) -> bool {
        matches!(self, Family::Gpt | Family::Llama)
    }
}

/// Which linear layers of a transformer get LoRA adapters (as peft's `target_modules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoraTargets {
    /// The attention's query and value projections (GPT-2's fused q/k/v `c_attn` whole): the
    /// LoRA paper's choice and peft's default for these models.
    Qv,
    /// Every linear layer of every block (peft's "all-linear"; not the output head).
    AllLinear,
}

impl LoraTargets {
    /// Name as written on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            LoraTargets::Qv => "qv",
            LoraTargets::AllLinear => "all-linear",
        }
    }

    /// Parses "qv" or "all-linear".
    pub fn parse(text: &str) -> Result<LoraTargets> {
        match text.trim().to_ascii_lowercase().as_str() {
            "qv" | "q,v" => Ok(LoraTargets::Qv),
            "all-linear" | "all" => Ok(LoraTargets::AllLinear),
            other => Err(crate::bad!(
                "lora-targets-unknown",
                given = format!("{other:?}")
            )),
        }
    }
}

/// The linear layers of a block that LoRA can adapt, as a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Projections(pub u8);

impl Projections {
    /// Query.
    pub const Q: u8 = 1;
    /// Key.
    pub const K: u8 = 2;
    /// Value.
    pub const V: u8 = 4;
    /// Attention output.
    pub const O: u8 = 8;
    /// MLP gate (Llama family).
    pub const GATE: u8 = 16;
    /// MLP up (GPT-2: c_fc).
    pub const UP: u8 = 32;
    /// MLP down (GPT-2: the MLP's c_proj).
    pub const DOWN: u8 = 64;
    const NAMES: [(&'static str, u8); 7] = [
        ("q", Self::Q),
        ("k", Self::K),
        ("v", Self::V),
        ("o", Self::O),
        ("gate", Self::GATE),
        ("up", Self::UP),
        ("down", Self::DOWN),
    ];

    /// Every linear layer of a block (peft's "all-linear").
    pub const ALL: Projections = Projections(127);

    /// Parses "q,k,v,o,gate,up,down" (peft's module names with or without `_proj`; GPT-2's
    /// c_attn, c_proj, c_fc), or a family: qv, attention, mlp, all-linear.
    pub fn parse(text: &str) -> Result<Projections> {
        let bad = |given: &str| crate::bad!("lora-targets-unknown", given = format!("{given:?}"));
        let text = text.trim().to_ascii_lowercase().replace('_', "-");
        let family = match text.as_str() {
            "qv" => Some(Self::Q | Self::V),
            "attention" | "attn" => Some(Self::Q | Self::K | Self::V | Self::O),
            "mlp" => Some(Self::GATE | Self::UP | Self::DOWN),
            "all-linear" | "all" => Some(127),
            _ => None,
        };
        if let Some(bits) = family {
            return Ok(Projections(bits));
        }
        let mut bits = 0;
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let name = part.strip_suffix("-proj").unwrap_or(part);
            bits |= match name {
                "c-attn" => Self::Q | Self::K | Self::V,
                "c-fc" => Self::UP,
                _ => Self::NAMES
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, b)| *b)
                    .ok_or_else(|| bad(part))?,
            };
        }
        if bits == 0 {
            return Err(bad(&text));
        }
        Ok(Projections(bits))
    }

    /// The set a named family of targets stands for.
    pub fn of(targets: LoraTargets) -> Projections {
        match targets {
            LoraTargets::Qv => Projections(Self::Q | Self::V),
            LoraTargets::AllLinear => Self::ALL,
        }
    }

    /// Holds this projection?
    pub fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    /// "q,k,v,o".
    pub fn name(self) -> String {
        Self::NAMES
            .iter()
            .filter(|(_, b)| self.has(*b))
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// LoRA on a transformer: rank r adapters (r·(in + out) parameters per adapted layer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LoraShape {
    /// The adapters' rank r.
    pub rank: usize,
    /// Which layers carry them.
    pub targets: LoraTargets,
}

/// The shape of a model and its batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelConfig {
    /// Which network.
    pub family: Family,
    /// Batch size.
    pub batch: usize,
    /// MLP: input width (784 = 28×28 MNIST).
    pub mlp_input: usize,
    /// MLP: hidden widths.
    pub mlp_hidden: Vec<usize>,
    /// MLP and CNN: classes.
    pub classes: usize,
    /// GPT: vocabulary.
    pub vocab: usize,
    /// GPT: model width d.
    pub d_model: usize,
    /// GPT: attention heads.
    pub heads: usize,
    /// GPT: blocks.
    pub layers: usize,
    /// GPT: sequence length.
    pub seq_len: usize,
    /// Transformers: FFN width f (None: 4·d for GPT; Llama's is required in practice, default
    /// 8d/3 rounded up to a multiple of 32).
    #[serde(default)]
    pub ffn: Option<usize>,
    /// Llama: key/value heads for grouped-query attention (None: as many as query heads).
    #[serde(default)]
    pub kv_heads: Option<usize>,
    /// GPT: the head shares the token embedding's weights (GPT-2 does; gpulab's default is untied).
    #[serde(default)]
    pub tied: bool,
    /// GPT: rows of the learned position table (None: the sequence length). GPT-2's is 1,024
    /// whatever length a step trains on.
    #[serde(default)]
    pub context: Option<usize>,
    /// Transformers: LoRA adapters on some of the linear layers (peft's), the rest frozen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lora: Option<LoraShape>,
    /// CNN: image side (square, 3 channels).
    pub image_size: usize,
    /// CNN: channels of the two conv layers.
    pub channels: [usize; 2],
    /// Llama-style blocks as other families build them (Qwen's biases, Gemma's head width and
    /// norms); the plain Llama block when empty.
    #[serde(default, skip_serializing_if = "BlockExtras::is_plain")]
    pub extras: BlockExtras,
}

/// The largest dimension a shape may have (batch, widths, heads, layers, tokens, vocabulary).
pub const MAX_DIMENSION: usize = 1 << 24;

/// The most parameters a shape or a count may have: more than any model trained.
pub const MAX_PARAMS: u128 = 1_000_000_000_000_000;

/// What a Llama-style block of another family adds (read from its Hugging Face config):
/// counted in parameters and activations; gpulab's own Candle Llama builds only the plain block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockExtras {
    /// Width of one attention head when it is not d / heads (Gemma: 256; Qwen3: 128).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<usize>,
    /// Biases on the q, k and v projections (Qwen2 and Qwen2.5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub qkv_bias: bool,
    /// d-wide norms per block when not two (Gemma 2 and 3: four).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub norms_per_block: Option<usize>,
    /// A norm over each query and key head (Qwen3, Gemma 3): two head-wide weights per block.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub qk_norm: bool,
}

impl BlockExtras {
    /// The plain Llama block (nothing added).
    pub fn is_plain(&self) -> bool {
        *self == BlockExtras::default()
    }
}

impl ModelConfig {
    /// Small defaults for a family: MNIST MLP 784-512-512-10 at batch 64 (lesson 03/11 trains a
    /// 784-256-128-10 at 64); a 2-block GPT with d 128, 4 heads, vocab 512, seq 64, batch 8; a
    /// 2-conv CNN on 32×32×3 at batch 32 (lesson 04/04's size class).
    pub fn default_for(family: Family) -> ModelConfig {
        ModelConfig {
            family,
            batch: match family {
                Family::Mlp => 64,
                Family::Gpt | Family::Llama => 8,
                Family::Cnn => 32,
            },
            mlp_input: 784,
            mlp_hidden: vec![512, 512],
            classes: 10,
            vocab: 512,
            d_model: 128,
            heads: 4,
            layers: 2,
            seq_len: 64,
            image_size: 32,
            channels: [16, 32],
            ffn: None,
            kv_heads: None,
            tied: false,
            context: None,
            lora: None,
            extras: BlockExtras::default(),
        }
    }

    /// An upper bound of the parameter count in u128 (no product can wrap): what `validate`
    /// holds against [`MAX_PARAMS`].
    fn params_u128(&self) -> u128 {
        let u = |x: usize| x as u128;
        let (v, d, l) = (u(self.vocab), u(self.d_model), u(self.layers));
        let f = u(self.ffn.unwrap_or(4 * self.d_model.min(MAX_DIMENSION)));
        let heads = u(self.heads.max(1));
        let hd = u(self.extras.head_dim.unwrap_or(0)).max(d / heads + 1);
        let q = heads * hd;
        let mlp: u128 = std::iter::once(self.mlp_input)
            .chain(self.mlp_hidden.iter().copied())
            .chain(std::iter::once(self.classes))
            .collect::<Vec<_>>()
            .windows(2)
            .map(|w| u(w[0]) * u(w[1]) + u(w[1]))
            .sum();
        let transformer =
            2 * v * d + u(self.position_rows()) * d + l * (4 * d * q + 3 * d * f + 8 * d + 3 * q);
        let conv = u(self.channels[0]) * u(self.channels[1]) * 9 * 4;
        match self.family {
            Family::Mlp => mlp,
            Family::Gpt | Family::Llama => transformer,
            Family::Cnn => conv + u(self.image_size).pow(2) * u(self.channels[1]) * u(self.classes),
        }
    }

    /// Width of one attention head.
    pub fn head_width(&self) -> usize {
        self.extras
            .head_dim
            .unwrap_or(self.d_model / self.heads.max(1))
    }

    /// Width of the query projection's output (heads × head width; d for the plain block).
    pub fn q_width(&self) -> usize {
        self.heads * self.head_width()
    }

    /// Width of the key (and of the value) projection's output.
    pub fn kv_width(&self) -> usize {
        self.kv_head_count() * self.head_width()
    }

    /// Rows of the position table (GPT).
    pub fn position_rows(&self) -> usize {
        self.context.unwrap_or(self.seq_len)
    }

    /// The FFN width f.
    pub fn ffn_width(&self) -> usize {
        match (self.ffn, self.family) {
            (Some(f), _) => f,
            (None, Family::Llama) => (8 * self.d_model / 3).div_ceil(32) * 32,
            (None, _) => 4 * self.d_model,
        }
    }

    /// Key/value heads (query heads unless grouped-query attention).
    pub fn kv_head_count(&self) -> usize {
        self.kv_heads.unwrap_or(self.heads)
    }

    /// Checks the numbers make a model, with a message that says what to change.
    pub fn validate(&self) -> Result<()> {
        if self.batch == 0 {
            return Err(crate::bad!("mv-batch"));
        }
        // One limit for shapes and counts alike (the same as a count's: 10¹⁵ parameters), checked
        // in u128 before any u64 product can wrap.
        let dims = [
            self.batch,
            self.mlp_input,
            self.classes,
            self.vocab,
            self.d_model,
            self.heads,
            self.layers,
            self.seq_len,
            self.image_size,
            self.ffn.unwrap_or(0),
            self.kv_heads.unwrap_or(0),
            self.extras.head_dim.unwrap_or(0),
            self.context.unwrap_or(0),
            self.channels[0],
            self.channels[1],
        ];
        let widest = dims
            .iter()
            .chain(&self.mlp_hidden)
            .copied()
            .max()
            .unwrap_or(0);
        if widest > MAX_DIMENSION || self.mlp_hidden.len() > MAX_DIMENSION {
            return Err(crate::bad!(
                "mv-too-large",
                given = widest,
                limit = MAX_DIMENSION
            ));
        }
        if self.params_u128() > MAX_PARAMS {
            return Err(crate::bad!(
                "mv-too-many-params",
                given = format!("{:e}", self.params_u128() as f64),
                limit = format!("{:e}", MAX_PARAMS as f64)
            ));
        }
        match self.family {
            Family::Mlp => {
                if self.mlp_input == 0 || self.classes == 0 || self.mlp_hidden.contains(&0) {
                    return Err(crate::bad!("mv-mlp"));
                }
            }
            Family::Gpt | Family::Llama => {
                if self.vocab < 2 || self.d_model == 0 || self.layers == 0 || self.seq_len == 0 {
                    return Err(crate::bad!("mv-transformer"));
                }
                if self.heads == 0 || !self.d_model.is_multiple_of(self.heads) {
                    return Err(crate::bad!(
                        "mv-heads",
                        d = self.d_model,
                        heads = self.heads
                    ));
                }
                let kv = self.kv_head_count();
                if kv == 0 || !self.heads.is_multiple_of(kv) {
                    return Err(crate::bad!("mv-kv-heads", kv = kv, heads = self.heads));
                }
                if self.family == Family::Gpt && self.kv_heads.is_some_and(|k| k != self.heads) {
                    return Err(crate::bad!("mv-gpt-gqa"));
                }
                if self.family == Family::Gpt && self.seq_len > self.position_rows() {
                    return Err(crate::bad!(
                        "mv-positions",
                        rows = self.position_rows(),
                        tokens = self.seq_len
                    ));
                }
                if self.ffn == Some(0) {
                    return Err(crate::bad!("mv-ffn"));
                }
                if self.family == Family::Llama && !(self.d_model / self.heads).is_multiple_of(2) {
                    return Err(crate::bad!("mv-rotary", width = self.d_model / self.heads));
                }
            }
            Family::Cnn => {
                if self.image_size < 4 || !self.image_size.is_multiple_of(4) {
                    return Err(crate::bad!("mv-image", size = self.image_size));
                }
                if self.channels.contains(&0) || self.classes == 0 {
                    return Err(crate::bad!("mv-cnn"));
                }
            }
        }
        Ok(())
    }

    /// The MLP's layer widths, input to classes: layer i maps `widths[i]` to `widths[i + 1]`.
    pub fn mlp_widths(&self) -> Vec<u64> {
        std::iter::once(self.mlp_input)
            .chain(self.mlp_hidden.iter().copied())
            .chain(std::iter::once(self.classes))
            .map(|w| w as u64)
            .collect()
    }

    /// Trainable parameters, by formula (see the module docs).
    pub fn param_count(&self) -> u64 {
        self.base_param_count() + self.lora_params()
    }

    /// The element counts of one block's linear weights (biases apart): what QLoRA stores in 4
    /// bits (embeddings, norms, biases, the head and the adapters stay 16-bit). GPT-2: c_attn
    /// (q, k and v in one), c_proj, c_fc, the FFN's c_proj; Llama: q, k, v, o, gate, up, down.
    pub fn block_linears(&self) -> Vec<u64> {
        let u = |x: usize| x as u64;
        let (d, f) = (u(self.d_model), u(self.ffn_width()));
        let (q, kv) = (u(self.q_width()), u(self.kv_width()));
        match self.family {
            Family::Gpt => vec![3 * d * d, d * d, d * f, f * d],
            Family::Llama => vec![q * d, kv * d, kv * d, d * q, f * d, f * d, d * f],
            Family::Mlp | Family::Cnn => Vec::new(),
        }
    }

    /// Weights of all blocks' linear layers ([`ModelConfig::block_linears`] × layers).
    pub fn block_linear_params(&self) -> u64 {
        self.block_linears().iter().sum::<u64>() * self.layers as u64
    }

    /// The frozen base's bytes under QLoRA: its blocks' linear weights as bitsandbytes stores
    /// NF4 ([`ModelConfig::nf4_bytes`]), every other base parameter (embeddings, norms, biases,
    /// the head) at `unquantized` bytes each. Adapters are not counted.
    pub fn nf4_base_bytes(&self, unquantized: f64) -> f64 {
        let rest = self
            .base_param_count()
            .saturating_sub(self.block_linear_params());
        rest as f64 * unquantized + self.nf4_bytes() as f64
    }

    /// The bytes bitsandbytes stores for all blocks' linear weights in NF4
    /// ([`crate::memory::formulas::nf4_linear_bytes`]).
    pub fn nf4_bytes(&self) -> u64 {
        self.nf4_bytes_as(true)
    }

    /// [`ModelConfig::nf4_bytes`], with or without double quantization.
    pub fn nf4_bytes_as(&self, double_quant: bool) -> u64 {
        self.block_linears()
            .iter()
            .map(|&n| crate::memory::formulas::nf4_linear_bytes_as(n, double_quant))
            .sum::<u64>()
            * self.layers as u64
    }

    /// Parameters of the model without any adapters.
    pub fn base_param_count(&self) -> u64 {
        let u = |x: usize| x as u64;
        match self.family {
            Family::Mlp => self
                .mlp_widths()
                .windows(2)
                .map(|w| w[0] * w[1] + w[1])
                .sum(),
            Family::Gpt => {
                let (v, d, s, l, f) = (
                    u(self.vocab),
                    u(self.d_model),
                    u(self.position_rows()),
                    u(self.layers),
                    u(self.ffn_width()),
                );
                let head = if self.tied { 0 } else { d * v };
                v * d + s * d + l * (4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d) + 2 * d + head
            }
            Family::Llama => {
                let (v, d, l, f) = (
                    u(self.vocab),
                    u(self.d_model),
                    u(self.layers),
                    u(self.ffn_width()),
                );
                let (q, kv) = (u(self.q_width()), u(self.kv_width()));
                let x = self.extras;
                let bias = if x.qkv_bias { q + 2 * kv } else { 0 };
                let norms = u(x.norms_per_block.unwrap_or(2)) * d;
                let qk_norm = if x.qk_norm {
                    2 * u(self.head_width())
                } else {
                    0
                };
                let block = 2 * d * q + 2 * d * kv + 3 * d * f + norms + bias + qk_norm;
                let head = if self.tied { 0 } else { d * v };
                v * d + l * block + d + head
            }
            Family::Cnn => {
                let (c1, c2) = (u(self.channels[0]), u(self.channels[1]));
                let side = u(self.image_size / 4);
                3 * c1 * 9
                    + c1
                    + c1 * c2 * 9
                    + c2
                    + c2 * side * side * u(self.classes)
                    + u(self.classes)
            }
        }
    }

    /// The adapters' parameters (0 without LoRA): r·(in + out) for each adapted layer.
    pub fn lora_params(&self) -> u64 {
        let Some(lora) = self.lora.filter(|_| self.family.is_transformer()) else {
            return 0;
        };
        let r = lora.rank as u64;
        let per_block: u64 = self
            .adapted_linears(Projections::of(lora.targets))
            .iter()
            .map(|(i, o)| r * (i + o))
            .sum();
        self.layers as u64 * per_block
    }

    /// (in, out) of each linear layer of one block that `targets` adapts. GPT-2 fuses q, k and
    /// v in c_attn (adapted whole when any of them is named) and has no gate.
    pub fn adapted_linears(&self, targets: Projections) -> Vec<(u64, u64)> {
        let u = |x: usize| x as u64;
        let (d, f) = (u(self.d_model), u(self.ffn_width()));
        let (q, kv) = (u(self.q_width()), u(self.kv_width()));
        let layers = match self.family {
            Family::Gpt => vec![
                (Projections::Q | Projections::K | Projections::V, (d, 3 * d)),
                (Projections::O, (d, d)),
                (Projections::UP, (d, f)),
                (Projections::DOWN, (f, d)),
            ],
            Family::Llama => vec![
                (Projections::Q, (d, q)),
                (Projections::K, (d, kv)),
                (Projections::V, (d, kv)),
                (Projections::O, (q, d)),
                (Projections::GATE, (d, f)),
                (Projections::UP, (d, f)),
                (Projections::DOWN, (f, d)),
            ],
            Family::Mlp | Family::Cnn => Vec::new(),
        };
        layers
            .into_iter()
            .filter(|(bits, _)| targets.has(*bits))
            .map(|(_, io)| io)
            .collect()
    }

    /// Parameters that train: the adapters with LoRA, else all of them.
    pub fn trainable_count(&self) -> u64 {
        match self.lora {
            Some(_) if self.family.is_transformer() => self.lora_params(),
            _ => self.param_count(),
        }
    }

    /// A one-line description: "gpt d128 L2 h4 V512 s64 b8" (and " lora r16 qv" with adapters).
    pub fn describe(&self) -> String {
        let shape = self.describe_shape();
        match self.lora.filter(|_| self.family.is_transformer()) {
            Some(l) => format!("{shape} lora r{} {}", l.rank, l.targets.name()),
            None => shape,
        }
    }

    fn describe_shape(&self) -> String {
        match self.family {
            Family::Mlp => format!(
                "mlp {}-{}-{} b{}",
                self.mlp_input,
                self.mlp_hidden
                    .iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join("-"),
                self.classes,
                self.batch
            ),
            Family::Gpt => format!(
                "gpt d{} L{} h{}{} V{} s{} b{}{}",
                self.d_model,
                self.layers,
                self.heads,
                self.ffn
                    .filter(|&f| f != 4 * self.d_model)
                    .map(|f| format!(" f{f}"))
                    .unwrap_or_default(),
                self.vocab,
                self.seq_len,
                self.batch,
                if self.tied { " tied" } else { "" }
            ),
            Family::Llama => format!(
                "llama d{} L{} h{}/{}{} f{} V{} s{} b{}{}{}{}{}",
                self.d_model,
                self.layers,
                self.heads,
                self.kv_head_count(),
                self.extras
                    .head_dim
                    .map(|h| format!(" hd{h}"))
                    .unwrap_or_default(),
                self.ffn_width(),
                self.vocab,
                self.seq_len,
                self.batch,
                if self.tied { " tied" } else { "" },
                if self.extras.qkv_bias {
                    " qkv-bias"
                } else {
                    ""
                },
                self.extras
                    .norms_per_block
                    .map(|n| format!(" norms{n}"))
                    .unwrap_or_default(),
                if self.extras.qk_norm { " qk-norm" } else { "" },
            ),
            Family::Cnn => format!(
                "cnn {}x{}x3 c{}-{} b{}",
                self.image_size, self.image_size, self.channels[0], self.channels[1], self.batch
            ),
        }
    }
}

mod llama;
mod presets;
use llama::{llama_attention, rms_norm, LlamaBlock, Rope};
pub use presets::{preset, PRESETS};

pub mod hf_config;

struct Block {
    ln1: (Tensor, Tensor),
    qkv: Linear,
    proj: Linear,
    ln2: (Tensor, Tensor),
    fc1: Linear,
    fc2: Linear,
}

/// A built model, ready for a training step.
pub enum Model {
    /// MLP layers.
    Mlp(Vec<Linear>),
    /// GPT parts.
    Gpt {
        /// Token embedding.
        tok: Embedding,
        /// Learned position embedding.
        pos: Embedding,
        /// The transformer blocks, in order.
        blocks: Vec<BlockParts>,
        /// Final layer norm.
        ln_f: (Tensor, Tensor),
        /// LM head (None: tied to the token embedding).
        head: Option<Linear>,
        /// Attention heads per block.
        heads: usize,
    },
    /// Llama parts.
    Llama {
        /// Token embedding.
        tok: Embedding,
        /// The Llama blocks, in order.
        blocks: Vec<LlamaParts>,
        /// Final RMSNorm weight.
        norm: Tensor,
        /// LM head (untied).
        head: Linear,
        /// Query heads.
        heads: usize,
        /// Key/value heads.
        kv_heads: usize,
    },
    /// CNN parts.
    Cnn {
        /// First conv.
        conv1: Conv2d,
        /// Second conv.
        conv2: Conv2d,
        /// The classifier on the pooled features.
        fc: Linear,
    },
}

/// One transformer block (opaque; built by [`Model::build`]).
pub struct BlockParts(Block);

/// One Llama block (opaque; built by [`Model::build`]).
pub struct LlamaParts(LlamaBlock);

fn layer_norm_params(d: usize, vb: VarBuilder) -> candle_core::Result<(Tensor, Tensor)> {
    Ok((
        vb.get_with_hints(d, "weight", candle_nn::Init::Const(1.0))?,
        vb.get_with_hints(d, "bias", candle_nn::Init::Const(0.0))?,
    ))
}

fn layer_norm(x: &Tensor, p: &(Tensor, Tensor)) -> candle_core::Result<Tensor> {
    candle_nn::ops::layer_norm_slow(x, &p.0, &p.1, 1e-5)
}

impl Model {
    /// Builds the model's parameters through `vb` (a VarMap-backed builder, so they are Vars).
    pub fn build(config: &ModelConfig, vb: VarBuilder) -> Result<Model> {
        config.validate()?;
        // A tied Llama (Llama-3.2 1B/3B) is a shape estimate and PyTorch count; gpulab's own
        // Llama has an untied head.
        if config.family == Family::Llama && config.tied {
            return Err(crate::bad!("mv-llama-tied"));
        }
        if !config.extras.is_plain() {
            return Err(crate::bad!("mv-llama-extras"));
        }
        Ok(match config.family {
            Family::Mlp => {
                let mut widths = vec![config.mlp_input];
                widths.extend(&config.mlp_hidden);
                widths.push(config.classes);
                let layers = widths
                    .windows(2)
                    .enumerate()
                    .map(|(i, w)| candle_nn::linear(w[0], w[1], vb.pp(format!("fc{i}"))))
                    .collect::<candle_core::Result<Vec<_>>>()?;
                Model::Mlp(layers)
            }
            Family::Llama => {
                let (d, f) = (config.d_model, config.ffn_width());
                let kv_width = config.kv_head_count() * d / config.heads;
                let mut blocks = Vec::new();
                for i in 0..config.layers {
                    let vb = vb.pp(format!("layers{i}"));
                    let lin = |i, o, name: &str| candle_nn::linear_no_bias(i, o, vb.pp(name));
                    blocks.push(LlamaParts(LlamaBlock {
                        norm1: vb.get_with_hints(d, "norm1", candle_nn::Init::Const(1.0))?,
                        q: lin(d, d, "q")?,
                        k: lin(d, kv_width, "k")?,
                        v: lin(d, kv_width, "v")?,
                        o: lin(d, d, "o")?,
                        norm2: vb.get_with_hints(d, "norm2", candle_nn::Init::Const(1.0))?,
                        gate: lin(d, f, "gate")?,
                        up: lin(d, f, "up")?,
                        down: lin(f, d, "down")?,
                    }));
                }
                Model::Llama {
                    tok: candle_nn::embedding(config.vocab, d, vb.pp("embed"))?,
                    blocks,
                    norm: vb.get_with_hints(d, "norm", candle_nn::Init::Const(1.0))?,
                    head: candle_nn::linear_no_bias(d, config.vocab, vb.pp("lm_head"))?,
                    heads: config.heads,
                    kv_heads: config.kv_head_count(),
                }
            }
            Family::Gpt => {
                let (d, f) = (config.d_model, config.ffn_width());
                let mut blocks = Vec::new();
                for i in 0..config.layers {
                    let vb = vb.pp(format!("h{i}"));
                    blocks.push(BlockParts(Block {
                        ln1: layer_norm_params(d, vb.pp("ln1"))?,
                        qkv: candle_nn::linear(d, 3 * d, vb.pp("qkv"))?,
                        proj: candle_nn::linear(d, d, vb.pp("proj"))?,
                        ln2: layer_norm_params(d, vb.pp("ln2"))?,
                        fc1: candle_nn::linear(d, f, vb.pp("fc1"))?,
                        fc2: candle_nn::linear(f, d, vb.pp("fc2"))?,
                    }));
                }
                Model::Gpt {
                    tok: candle_nn::embedding(config.vocab, d, vb.pp("wte"))?,
                    pos: candle_nn::embedding(config.position_rows(), d, vb.pp("wpe"))?,
                    blocks,
                    ln_f: layer_norm_params(d, vb.pp("ln_f"))?,
                    head: if config.tied {
                        None
                    } else {
                        Some(candle_nn::linear_no_bias(
                            d,
                            config.vocab,
                            vb.pp("lm_head"),
                        )?)
                    },
                    heads: config.heads,
                }
            }
            Family::Cnn => {
                let conv = Conv2dConfig {
                    padding: 1,
                    ..Default::default()
                };
                let [c1, c2] = config.channels;
                let side = config.image_size / 4;
                Model::Cnn {
                    conv1: candle_nn::conv2d(3, c1, 3, conv, vb.pp("conv1"))?,
                    conv2: candle_nn::conv2d(c1, c2, 3, conv, vb.pp("conv2"))?,
                    fc: candle_nn::linear(c2 * side * side, config.classes, vb.pp("fc"))?,
                }
            }
        })
    }

    /// Logits for a batch.
    pub fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        match self {
            Model::Mlp(layers) => {
                let mut h = x.clone();
                for (i, layer) in layers.iter().enumerate() {
                    h = layer.forward(&h)?;
                    if i + 1 < layers.len() {
                        h = h.relu()?;
                    }
                }
                Ok(h)
            }
            Model::Gpt {
                tok,
                pos,
                blocks,
                ln_f,
                head,
                heads,
            } => {
                let (b, s) = x.dims2()?;
                let positions = Tensor::arange(0u32, s as u32, x.device())?;
                let mut h = tok.forward(x)?.broadcast_add(&pos.forward(&positions)?)?;
                let mask = causal_mask(s, h.dtype(), x.device())?;
                for BlockParts(block) in blocks {
                    h = (&h + attention(&layer_norm(&h, &block.ln1)?, block, *heads, &mask)?)?;
                    let m = block.fc1.forward(&layer_norm(&h, &block.ln2)?)?.gelu()?;
                    h = (&h + block.fc2.forward(&m)?)?;
                }
                let h = layer_norm(&h, ln_f)?;
                let logits = match head {
                    Some(head) => head.forward(&h)?,
                    // GPT-2 ties the head to the token embedding: logits = h · Eᵀ.
                    None => h.broadcast_matmul(&tok.embeddings().t()?)?,
                };
                logits.reshape((b * s, ()))
            }
            Model::Llama {
                tok,
                blocks,
                norm,
                head,
                heads,
                kv_heads,
            } => {
                let (b, s) = x.dims2()?;
                let mut h = tok.forward(x)?;
                let d = h.dim(2)?;
                let mask = causal_mask(s, h.dtype(), x.device())?;
                let rope = Rope::new(s, d / heads, h.dtype(), x.device())?;
                for LlamaParts(block) in blocks {
                    let a = llama_attention(
                        &rms_norm(&h, &block.norm1)?,
                        block,
                        (*heads, *kv_heads),
                        &mask,
                        &rope,
                    )?;
                    h = (&h + a)?;
                    let n = rms_norm(&h, &block.norm2)?;
                    let m = (block.gate.forward(&n)?.silu()? * block.up.forward(&n)?)?;
                    h = (&h + block.down.forward(&m)?)?;
                }
                let logits = head.forward(&rms_norm(&h, norm)?)?;
                logits.reshape((b * s, ()))
            }
            Model::Cnn { conv1, conv2, fc } => {
                let h = conv1.forward(x)?.relu()?.max_pool2d(2)?;
                let h = conv2.forward(&h)?.relu()?.max_pool2d(2)?;
                fc.forward(&h.flatten_from(1)?)
            }
        }
    }

    /// Cross-entropy loss of a batch, in f32.
    pub fn loss(&self, x: &Tensor, y: &Tensor) -> candle_core::Result<Tensor> {
        let logits = self.forward(x)?.to_dtype(DType::F32)?;
        candle_nn::loss::cross_entropy(&logits, y)
    }
}

/// Additive causal mask: 0 on and below the diagonal, −∞ above, in the model's dtype. It is a
/// float tensor that takes part in an op, so Candle's backward stores a gradient for it too —
/// part of what `measure` shows.
fn causal_mask(s: usize, dtype: DType, device: &Device) -> candle_core::Result<Tensor> {
    let values: Vec<f32> = (0..s)
        .flat_map(|i| (0..s).map(move |j| if j > i { f32::NEG_INFINITY } else { 0.0 }))
        .collect();
    Tensor::from_vec(values, (s, s), device)?.to_dtype(dtype)
}

fn attention(
    x: &Tensor,
    block: &Block,
    heads: usize,
    mask: &Tensor,
) -> candle_core::Result<Tensor> {
    let (b, s, d) = x.dims3()?;
    let hd = d / heads;
    let qkv = block.qkv.forward(x)?.reshape((b, s, 3, heads, hd))?;
    let part = |i: usize| {
        qkv.narrow(2, i, 1)?
            .squeeze(2)?
            .transpose(1, 2)?
            .contiguous()
    };
    let (q, k, v) = (part(0)?, part(1)?, part(2)?);
    let scores = (q.matmul(&k.t()?)? / (hd as f64).sqrt())?.broadcast_add(mask)?;
    let weights = candle_nn::ops::softmax(&scores, D::Minus1)?;
    let out = weights.matmul(&v)?.transpose(1, 2)?.reshape((b, s, d))?;
    block.proj.forward(&out)
}

/// A random batch of the right shape and dtype: features or images for MLP/CNN, token ids for
/// the GPT; labels (u32) for the loss.
pub fn random_batch(
    config: &ModelConfig,
    dtype: DType,
    device: &Device,
) -> Result<(Tensor, Tensor)> {
    let b = config.batch;
    Ok(match config.family {
        Family::Mlp => (
            Tensor::randn(0f32, 1.0, (b, config.mlp_input), device)?.to_dtype(dtype)?,
            labels(b, config.classes, device)?,
        ),
        Family::Gpt | Family::Llama => {
            let n = b * config.seq_len;
            let tokens: Vec<u32> = (0..n)
                .map(|i| ((i as u64 * 2_654_435_761) % config.vocab as u64) as u32)
                .collect();
            (
                Tensor::from_vec(tokens, (b, config.seq_len), device)?,
                labels(n, config.vocab, device)?,
            )
        }
        Family::Cnn => (
            Tensor::randn(
                0f32,
                1.0,
                (b, 3, config.image_size, config.image_size),
                device,
            )?
            .to_dtype(dtype)?,
            labels(b, config.classes, device)?,
        ),
    })
}

fn labels(n: usize, classes: usize, device: &Device) -> candle_core::Result<Tensor> {
    let values: Vec<u32> = (0..n).map(|i| ((i * 7 + 3) % classes) as u32).collect();
    Tensor::from_vec(values, n, device)
}

/// Lives here, beside the shapes it reads, so the formulas need no model.
impl crate::memory::formulas::TransformerShape {
    /// The shape of a measured model (for activations and the KV cache).
    pub fn of(m: &ModelConfig) -> crate::memory::formulas::TransformerShape {
        crate::memory::formulas::TransformerShape {
            layers: m.layers as u64,
            hidden: m.d_model as u64,
            heads: m.heads as u64,
            kv_heads: m.kv_head_count() as u64,
            seq_len: m.seq_len as u64,
            vocab: m.vocab as u64,
        }
    }
}

#[cfg(test)]
mod tests;
