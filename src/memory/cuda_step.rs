//! What a Hugging Face training step holds on a CUDA GPU, tensor by tensor: derived from the
//! code that runs it (transformers' modules, peft's adapters, bitsandbytes' 4-bit matmul,
//! PyTorch's fused attention, loss and optimizers), never fitted to a measurement.
//! data/docs/memory.md, "The step on CUDA", lists what each op saves and why.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::memory::models::{Family, ModelConfig, Projections};
use crate::units::Bytes;

/// The precision recipe as PyTorch runs it on a GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recipe {
    /// fp32 weights, activations, gradients and optimizer state.
    F32,
    /// One 16-bit type end to end (`torch_dtype=bfloat16`, no autocast).
    Pure16,
    /// fp32 weights and optimizer state, the forward pass under 16-bit autocast.
    Amp,
    /// A 4-bit NF4 base under 16-bit autocast, the other weights left 16-bit, LoRA on top.
    Qlora,
}

/// Which attention kernel transformers' `sdpa` (or `flash_attention_2`) ends in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kernel {
    /// Flash or memory-efficient attention: saves q, k, v, the output and one fp32
    /// log-sum-exp per head and token; never the s×s scores.
    Fused,
    /// The scores written out (eager attention, or SDPA's math fallback).
    Eager,
}

/// What a QLoRA recipe's preparation leaves in fp32 of the weights bitsandbytes does not
/// quantize. An fp32 norm weight promotes its output to fp32, bitsandbytes casts each 4-bit
/// linear's output back to its input's type, and so the residual stream turns fp32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KbitPrep {
    /// peft's `prepare_model_for_kbit_training`: norms, embeddings and head all fp32.
    #[default]
    Peft,
    /// TRL's SFTTrainer under `--bf16`: peft's preparation, then embeddings and head cast back
    /// to bf16 (`peft_module_casting_to_bf16`); the norms stay fp32.
    TrlBf16,
    /// No preparation (or one that casts nothing): every weight stays 16-bit.
    None,
}

impl KbitPrep {
    /// Parses peft, trl-bf16 and none.
    pub fn parse(s: &str) -> Result<KbitPrep> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "peft" => Ok(KbitPrep::Peft),
            "trl-bf16" | "trl" => Ok(KbitPrep::TrlBf16),
            "none" => Ok(KbitPrep::None),
            _ => Err(crate::bad!("cuda-bad-kbit-prep", given = format!("{s:?}"))),
        }
    }

    /// The flag's spelling.
    pub fn name(self) -> &'static str {
        match self {
            KbitPrep::Peft => "peft",
            KbitPrep::TrlBf16 => "trl-bf16",
            KbitPrep::None => "none",
        }
    }

    /// The norms' weights are fp32, and so the residual stream.
    fn fp32_norms(self) -> bool {
        self != KbitPrep::None
    }

    /// Embeddings and head are fp32.
    fn fp32_embeddings(self) -> bool {
        self == KbitPrep::Peft
    }

    /// The frozen base's bytes after this preparation: the blocks' linears in NF4, the
    /// embedding tables and the norms (biases with them) at the width it leaves them.
    pub fn base_bytes(self, m: &ModelConfig, double_quant: bool) -> f64 {
        let width = |fp32: bool| if fp32 { 4.0 } else { 2.0 };
        let rest = m.base_param_count().saturating_sub(m.block_linear_params()) as f64;
        let tables = if m.tied { 1.0 } else { 2.0 } * (m.vocab * m.d_model) as f64;
        m.nf4_bytes_as(double_quant) as f64
            + width(self.fp32_embeddings()) * tables.min(rest)
            + width(self.fp32_norms()) * (rest - tables).max(0.0)
    }
}

/// How transformers turns logits into the loss; each release line holds different copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossPath {
    /// Labels padded and shifted, logits upcast once (transformers 4.50 and later).
    PadLabels,
    /// The loss function upcasts and copies shifted logits; the model keeps its 16-bit
    /// logits in its output meanwhile (4.46 to 4.49).
    KeepLogits,
    /// The model upcasts its logits and copies the shifted part (4.45 and earlier).
    ShiftCopy,
}

impl LossPath {
    /// The path of a transformers release ("4.45.2").
    pub fn of_release(version: &str) -> Result<LossPath> {
        let mut parts = version.split('.').map(|p| p.parse::<u32>());
        match (parts.next(), parts.next()) {
            (Some(Ok(major)), Some(Ok(minor))) => Ok(match (major, minor) {
                (4, m) if m <= 45 => LossPath::ShiftCopy,
                (4, m) if m <= 49 => LossPath::KeepLogits,
                (m, _) if m < 4 => LossPath::ShiftCopy,
                _ => LossPath::PadLabels,
            }),
            _ => Err(crate::bad!(
                "cuda-bad-release",
                given = format!("{version:?}")
            )),
        }
    }
}

/// How AdamW (or SGD) updates: PyTorch's three implementations hold different temporaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Update {
    /// Multi-tensor (CUDA's default): one temporary the size of the second moment.
    Foreach,
    /// One fused kernel: no temporary.
    Fused,
    /// Parameter by parameter: temporaries the size of the largest parameter.
    ForLoop,
}

/// peft's LoRA as a recipe sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adapters {
    /// Rank r.
    pub rank: usize,
    /// Which linear layers of every block.
    pub targets: Projections,
    /// `lora_dropout` above 0: a mask and a dropped copy of each adapted input are kept.
    pub dropout: bool,
}

/// The optimizer as the step's temporaries and state see it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Optimizer {
    /// State bytes per trainable parameter (AdamW: two moments in the weights' type;
    /// 8-bit AdamW: 2.004; SGD: 0).
    pub state_bytes: f64,
    /// How the update runs.
    pub update: Update,
    /// Moments kept (0 SGD, 1 momentum, 2 Adam): the foreach update's temporary exists only
    /// for Adam's second moment.
    pub moments: u8,
}

/// One training step on CUDA.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CudaStep {
    /// Shape, with `batch` and `seq_len`.
    pub model: ModelConfig,
    /// Precision recipe.
    pub recipe: Recipe,
    /// Attention kernel.
    pub kernel: Kernel,
    /// transformers' loss path.
    pub loss: LossPath,
    /// LoRA (None: full fine-tuning).
    pub lora: Option<Adapters>,
    /// The optimizer's state and update.
    pub optimizer: Optimizer,
    /// Full activation checkpointing (transformers' `gradient_checkpointing_enable()`).
    pub checkpointing: bool,
    /// The model's own dropout is on (GPT-2's configs set 0.1 on the residual branches and
    /// the attention; Llama-family configs set none).
    pub model_dropout: bool,
    /// Gradients accumulate over more than one micro-batch: from the second on, every
    /// gradient is alive through forward and backward.
    #[serde(default)]
    pub accumulates: bool,
    /// The training loop keeps the model's output (its logits) through backward, as a
    /// hand-written `out = model(...); out.loss.backward()` does; Trainer drops it first.
    #[serde(default)]
    pub keeps_outputs: bool,
    /// What the QLoRA preparation left fp32 (read only under [`Recipe::Qlora`]).
    #[serde(default)]
    pub kbit_prep: KbitPrep,
    /// bitsandbytes quantizes the 4-bit blocks' absmax again (`bnb_4bit_use_double_quant`).
    #[serde(default = "double_quant_default")]
    pub double_quant: bool,
}

/// Files written before `double_quant` was recorded ran with it, as QLoRA recipes do.
pub fn double_quant_default() -> bool {
    true
}

/// Where the peak falls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PeakAt {
    /// At the loss: every activation kept, the logits and their gradient alive.
    Loss,
    /// Backward through a block (with checkpointing: its recomputation).
    Backward,
    /// The optimizer step.
    Step,
}

/// What the step holds, as `torch.cuda.max_memory_allocated` and the caching allocator see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CudaPeaks {
    /// Weights (4-bit blocks, adapters and all).
    pub weights: Bytes,
    /// Gradients of the trainable parameters.
    pub gradients: Bytes,
    /// Optimizer state.
    pub optimizer_state: Bytes,
    /// Activations kept for backward at the peak, with the phase's temporaries.
    pub activations: Bytes,
    /// The peak of allocated bytes.
    pub allocated: Bytes,
    /// Where it falls.
    pub peak_at: PeakAt,
    /// The largest single tensor allocated near the peak: the caching allocator needs a
    /// free block this big on top of what it already holds.
    pub largest_block: Bytes,
    /// What the caching allocator reserves (allocated + one largest block, in 2 MiB segments).
    pub reserved: Bytes,
}

/// Bytes of one token through one block, and the pieces the phases need.
struct BlockBytes {
    /// Everything one block saves for backward, its input apart.
    saved: f64,
    /// The block's input (what checkpointing keeps).
    input: f64,
    /// What of the block's input its own ops keep without checkpointing (a norm keeping the
    /// input itself; none where a 16-bit input is kept as an fp32 copy, counted in `saved`).
    kept_input: f64,
    /// Gradients alive while one block runs backward.
    backward: f64,
}

impl CudaStep {
    /// The dtype widths: (residual stream, linear outputs, attention kernel inputs).
    fn widths(&self) -> (f64, f64, f64) {
        match self.recipe {
            Recipe::F32 => (4.0, 4.0, 4.0),
            Recipe::Pure16 => (2.0, 2.0, 2.0),
            // Autocast: fp32 residual stream, 16-bit matmul outputs.
            Recipe::Amp => (4.0, 2.0, 2.0),
            // An fp32 norm weight promotes the stream; a 4-bit linear answers in its input's
            // type, so the MLP runs fp32; the attention kernel casts q, k, v to 16 bits.
            Recipe::Qlora if self.kbit_prep.fp32_norms() => (4.0, 4.0, 2.0),
            Recipe::Qlora => (2.0, 2.0, 2.0),
        }
    }

    /// Bytes a trained parameter is kept in, and so its gradient and PyTorch's moments: 16
    /// bits only when the whole model trains in 16 bits (peft's adapters are fp32).
    fn trained_width(&self) -> f64 {
        trained_width(self.recipe, self.lora.is_some())
    }

    fn autocast(&self) -> bool {
        matches!(self.recipe, Recipe::Amp | Recipe::Qlora)
    }

    /// Bytes one adapter keeps per token for an input `width` wide arriving `bytes` wide, and
    /// whether what lora_A keeps is that input itself (then shared with whoever else keeps it).
    fn adapter(&self, width: f64, bytes: f64) -> (f64, bool) {
        let Some(lora) = self.lora else {
            return (0.0, false);
        };
        let mask = if lora.dropout { width } else { 0.0 };
        // lora_A keeps its input; lora_B keeps lora_A's r-wide output.
        let (kept, shares) = match self.recipe {
            // peft's 4-bit path skips its fp32 cast under autocast: lora_A keeps the 16-bit
            // input (a cast copy when the input is fp32).
            Recipe::Qlora => (2.0 * width, !lora.dropout && bytes == 2.0),
            // Cast to the fp32 adapters, then back to 16 bits by autocast: a copy.
            Recipe::Amp => (2.0 * width, false),
            // A 16-bit input is cast to the fp32 adapters: a copy.
            Recipe::Pure16 => (4.0 * width, false),
            Recipe::F32 => (4.0 * width, !lora.dropout),
        };
        (mask + kept + 4.0 * lora.rank as f64, shares)
    }

    /// What a block's base linear keeps of an input `bytes` wide per element that `consumers`
    /// linears read: a frozen one nothing (nn.Linear, and bitsandbytes' 4-bit matmul, which
    /// keeps only its 4-bit weight); a trained one its input (under autocast, each its own
    /// 16-bit cast of an fp32 input).
    fn base_keeps(&self, bytes: f64, consumers: f64) -> f64 {
        let cast = if bytes == 2.0 { 2.0 } else { 2.0 * consumers };
        match (self.recipe, self.lora.is_none()) {
            (Recipe::Qlora, _) | (_, false) => 0.0,
            (Recipe::Amp, true) => cast,
            (_, true) => bytes,
        }
    }

    /// The bytes an input of `width` elements, `bytes` each, costs the linears in `bits` that
    /// read it: the base's copies and every adapter's. `already_kept`: another op keeps that
    /// very tensor (the attention its own output), so keeping it again costs nothing.
    fn linear_inputs(&self, bits: &[u8], width: f64, bytes: f64, already_kept: bool) -> f64 {
        let targets = self.lora.map(|l| l.targets).unwrap_or_default();
        let base = self.base_keeps(bytes, bits.len() as f64);
        let shares_input = base == bytes;
        let mut input_kept = already_kept || shares_input;
        let mut total = if shares_input && already_kept {
            0.0
        } else {
            base * width
        };
        for &bit in bits {
            if !targets.has(bit) {
                continue;
            }
            let (kept, shares) = self.adapter(width, bytes);
            if shares && input_kept {
                total += kept - bytes * width;
            } else {
                total += kept;
                input_kept |= shares;
            }
        }
        total
    }

    /// One block, per token.
    fn block(&self) -> BlockBytes {
        let m = &self.model;
        let full = self.lora.is_none();
        let (sd, lo, kd) = self.widths();
        let auto = self.autocast();
        let d = m.d_model as f64;
        let f = m.ffn_width() as f64;
        let h = m.heads as f64;
        let s = m.seq_len as f64;
        let p = Projections::Q | Projections::K | Projections::V;
        let mut saved;
        match m.family {
            Family::Gpt => {
                // ln_1 keeps its input (the block's input) and fp32 mean and rstd; its output
                // feeds c_attn.
                saved = 8.0 + self.linear_inputs(&[p], d, sd, false);
                // c_attn's fused q, k, v output, viewed by the attention.
                let qkv = 3.0 * lo * d;
                // The fused kernel keeps its output, laid out as the merged heads c_proj reads;
                // eager attention keeps the softmax (fp32 under autocast) and what the product
                // with v reads, and c_proj reads a merged copy.
                // (The fused kernel's dropout keeps a random seed, no mask.)
                let fused = self.kernel == Kernel::Fused;
                let mask = if self.model_dropout { 1.0 } else { 0.0 };
                saved += match self.kernel {
                    Kernel::Fused => qkv + kd * d + 4.0 * h,
                    // The product with v keeps the dropped scores, or without dropout the
                    // softmax cast back to 16 bits (the softmax itself where no cast is needed).
                    Kernel::Eager => {
                        let softmax = if auto { 4.0 } else { kd };
                        let into_v = match (self.model_dropout, softmax == kd) {
                            (true, _) => mask + kd,
                            (false, true) => 0.0,
                            (false, false) => kd,
                        };
                        qkv + (softmax + into_v) * h * s
                    }
                };
                // Then the residual dropout's mask.
                saved += self.linear_inputs(&[Projections::O], d, kd, fused) + mask * d;
                // ln_2 keeps the stream after attention.
                saved += sd * d + 8.0 + self.linear_inputs(&[Projections::UP], d, sd, false);
                // gelu_new in Python ops keeps its input, tanh, 0.5·x and 1 + tanh (autocast
                // runs pow, and so the rest, in fp32).
                saved += if auto { 14.0 * f } else { 4.0 * lo * f };
                let y = if auto { 4.0 } else { lo };
                saved += self.linear_inputs(&[Projections::DOWN], f, y, false) + mask * d;
            }
            _ => {
                let q = m.q_width() as f64;
                let kv = m.kv_width() as f64;
                // An RMSNorm keeps an fp32 view of its input (a copy when the stream is 16-bit;
                // the block's input itself otherwise, counted as the input) and, when its weight
                // trains, its normalized input.
                let norm = |input_counted: bool| -> f64 {
                    let fp32 = if sd == 4.0 && input_counted {
                        0.0
                    } else {
                        4.0 * d
                    };
                    fp32 + 4.0 + if full { sd * d } else { 0.0 }
                };
                let extra_norms = m.extras.norms_per_block.unwrap_or(2).saturating_sub(2) as f64;
                saved = norm(true) + extra_norms * norm(false);
                saved += self.linear_inputs(
                    &[Projections::Q, Projections::K, Projections::V],
                    d,
                    sd,
                    false,
                );
                if m.extras.qk_norm {
                    saved += 4.0 * (q + kv) + if full { lo * (q + kv) } else { 0.0 };
                }
                // Rotary embedding keeps only cos and sin (once per model).
                // The fused kernel keeps q, k, v, its output (laid out as the merged heads the
                // output projection reads) and the log-sum-exp; eager keeps q, k and v repeated
                // to every query head, the fp32 softmax and its cast back, and the output
                // projection reads a merged copy.
                let fused = self.kernel == Kernel::Fused;
                saved += match self.kernel {
                    Kernel::Fused => kd * (q + 2.0 * kv) + kd * q + 4.0 * h,
                    Kernel::Eager => {
                        let back = if kd == 4.0 { 0.0 } else { kd };
                        kd * 3.0 * q + (4.0 + back) * h * s
                    }
                };
                saved += self.linear_inputs(&[Projections::O], q, kd, fused);
                // The second norm keeps the stream after attention.
                saved += norm(false);
                saved += self.linear_inputs(&[Projections::GATE, Projections::UP], d, sd, false);
                // SiLU keeps the gate; the product keeps both of its factors.
                saved += 3.0 * lo * f;
                saved += self.linear_inputs(&[Projections::DOWN], f, lo, false);
            }
        }
        // While one block runs backward: the stream's gradient in and out, and the MLP's
        // three f-wide gradients.
        let backward = 2.0 * sd * d + 3.0 * lo * f;
        // GPT-2's layer norm keeps its input itself; an RMSNorm keeps an fp32 stream itself and
        // a 16-bit one as a copy (in `saved`).
        let kept_input = match m.family {
            Family::Gpt => sd * d,
            _ if sd == 4.0 => sd * d,
            _ => 0.0,
        };
        BlockBytes {
            saved,
            input: sd * d,
            kept_input,
            backward,
        }
    }

    /// Bytes per token around the loss: (forward, backward) holdings of the logits' copies.
    fn loss_bytes(&self) -> (f64, f64) {
        let v = self.model.vocab as f64;
        let (_, lo, _) = self.widths();
        let upcast = if lo == 4.0 { 0.0 } else { 4.0 };
        // log_softmax keeps its fp32 output; backward adds the incoming and outgoing fp32
        // gradients (and the logits themselves when the loop still holds the output).
        let backward = 12.0 * v + if self.keeps_outputs { lo * v } else { 0.0 };
        let forward = match self.loss {
            LossPath::PadLabels => (lo + upcast + 4.0) * v,
            LossPath::KeepLogits => (lo + upcast + 8.0) * v,
            LossPath::ShiftCopy => 12.0 * v,
        };
        (forward, backward)
    }

    /// Parameters: (total, trained, in 4-bit block linears).
    fn counts(&self) -> (u64, u64, u64) {
        let base = self.model.base_param_count();
        let adapters = self.lora.map(|l| self.adapter_params(l)).unwrap_or(0);
        let trained = if self.lora.is_some() { adapters } else { base };
        (base + adapters, trained, self.model.block_linear_params())
    }

    /// LoRA's parameters: r·(in + out) for every adapted linear of every block.
    fn adapter_params(&self, lora: Adapters) -> u64 {
        let r = lora.rank as u64;
        let per_block: u64 = self
            .model
            .adapted_linears(lora.targets)
            .iter()
            .map(|(i, o)| r * (i + o))
            .sum();
        self.model.layers as u64 * per_block
    }

    /// Checks the step can be counted: a transformer, and LoRA where the recipe needs it.
    pub fn validate(&self) -> Result<()> {
        self.model.validate()?;
        if !self.model.family.is_transformer() {
            return Err(crate::bad!("cuda-not-transformer"));
        }
        if self.recipe == Recipe::Qlora && self.lora.is_none() {
            return Err(crate::bad!("cuda-qlora-needs-lora"));
        }
        if self.model.family == Family::Gpt
            && self.lora.is_some_and(|l| l.targets.has(Projections::GATE))
        {
            return Err(crate::bad!("cuda-gpt-gate"));
        }
        Ok(())
    }

    /// The step's peaks.
    pub fn peaks(&self) -> CudaPeaks {
        let m = &self.model;
        let (total, trained, linears) = self.counts();
        let untrained = total - trained;
        let (sd, _, _) = self.widths();
        let tokens = (m.batch * m.seq_len) as f64;
        let d = m.d_model as f64;
        let v = m.vocab as f64;
        let layers = m.layers as f64;
        // Weights: fp32 adapters over a 16-bit (or 4-bit) base; one width otherwise.
        let weights = match self.recipe {
            Recipe::F32 | Recipe::Amp => 4.0 * total as f64,
            Recipe::Pure16 => 2.0 * untrained as f64 + self.trained_width() * trained as f64,
            Recipe::Qlora => self.kbit_prep.base_bytes(m, self.double_quant) + 4.0 * trained as f64,
        };
        let grad_width = self.trained_width();
        let gradients = grad_width * trained as f64;
        let state = self.optimizer.state_bytes * trained as f64;
        let held = weights + state;

        let block = self.block();
        // Once per model per token: token ids, labels and their shifted copy (int64), the
        // rotary cos and sin, and the final norm.
        let per_token_fixed = 32.0
            + match m.family {
                Family::Gpt => 8.0,
                _ => 4.0 * m.head_width() as f64,
            };
        let full = self.lora.is_none();
        // The final norm keeps an fp32 view of its input; trained, also its normalized input,
        // and the head keeps its own input (a 16-bit cast under autocast).
        let final_norm = d
            * (4.0
                + if full {
                    sd + if self.autocast() { 2.0 } else { sd }
                } else {
                    0.0
                });
        let (loss_fwd, loss_bwd) = self.loss_bytes();
        // Under autocast the 16-bit copies of linear weights are kept for backward: all of
        // them until backward reaches them without checkpointing, the head's always.
        let head = (m.vocab * m.d_model) as f64;
        // An fp32 head left frozen by QLoRA's preparation is cast the same way.
        let linear_copies = match self.recipe {
            Recipe::Amp if self.checkpointing => 2.0 * head,
            Recipe::Amp => 2.0 * (linears as f64 + head),
            Recipe::Qlora if self.kbit_prep.fp32_embeddings() => 2.0 * head,
            _ => 0.0,
        };
        // A 16-bit embedding under fp32 norms hands the first block a 16-bit input.
        let first_narrower = if self.recipe == Recipe::Qlora
            && self.kbit_prep.fp32_norms()
            && !self.kbit_prep.fp32_embeddings()
        {
            (sd - 2.0) * d
        } else {
            0.0
        };
        let kept = if self.checkpointing {
            layers * block.input - first_narrower
        } else {
            layers * (block.kept_input + block.saved)
        };
        let accumulated = if self.accumulates { gradients } else { 0.0 };
        let at_loss = tokens * (kept + final_norm + per_token_fixed + loss_fwd.max(loss_bwd))
            + linear_copies
            + accumulated;
        // The head's weight gradient arrives before any block's (full fine-tuning).
        let head_grad = if full { grad_width * head } else { 0.0 };
        // bitsandbytes' backward dequantizes a 4-bit weight to 16 bits for the input's
        // gradient: one linear's worth is alive at a time, the largest at the MLP.
        let dequantized = if self.recipe == Recipe::Qlora {
            2.0 * (m.ffn_width() * m.d_model) as f64
        } else {
            0.0
        };
        let at_backward = if self.checkpointing {
            tokens * (kept + block.saved + block.backward + per_token_fixed)
                + head_grad
                + dequantized
                + accumulated
        } else {
            // Backward frees a block's activations as it produces its gradients: the larger
            // end of that exchange.
            let start = tokens * (kept + block.backward + per_token_fixed)
                + head_grad
                + linear_copies
                + dequantized
                + accumulated;
            let end = gradients + tokens * (block.kept_input + block.saved + block.backward);
            start.max(end)
        };
        // The step: every gradient, the state, and the update's temporaries.
        let largest_param = (m.ffn_width() * m.d_model).max(m.vocab * m.d_model) as f64;
        let step_temp = match (self.optimizer.moments, self.optimizer.update) {
            (2, Update::Foreach) => self.optimizer.state_bytes / 2.0 * trained as f64,
            (_, Update::Fused) => 0.0,
            (_, Update::ForLoop) | (_, Update::Foreach) => {
                grad_width * largest_param.min(trained as f64)
            }
        };
        let at_step = gradients + step_temp;
        let (activations, peak_at) = [
            (at_loss, PeakAt::Loss),
            (at_backward, PeakAt::Backward),
            (at_step, PeakAt::Step),
        ]
        .into_iter()
        .fold(
            (0.0, PeakAt::Step),
            |best, x| if x.0 > best.0 { x } else { best },
        );
        let allocated = held + activations;
        let largest = match peak_at {
            PeakAt::Loss | PeakAt::Backward => tokens * 4.0 * v,
            PeakAt::Step => largest_param * grad_width,
        };
        const SEGMENT: f64 = 2.0 * 1024.0 * 1024.0;
        let reserved = ((allocated + largest) / SEGMENT).ceil() * SEGMENT;
        CudaPeaks {
            weights: Bytes(weights as u64),
            gradients: Bytes(if peak_at == PeakAt::Step {
                gradients as u64
            } else {
                0
            }),
            optimizer_state: Bytes(state as u64),
            activations: Bytes(
                (activations
                    - if peak_at == PeakAt::Step {
                        gradients
                    } else {
                        0.0
                    }) as u64,
            ),
            allocated: Bytes(allocated as u64),
            peak_at,
            largest_block: Bytes(largest as u64),
            reserved: Bytes(reserved as u64),
        }
    }
}

/// Bytes a trained parameter is kept in under `recipe` (see [`CudaStep::new`]).
fn trained_width(recipe: Recipe, lora: bool) -> f64 {
    match recipe {
        Recipe::Pure16 if !lora => 2.0,
        _ => 4.0,
    }
}

impl CudaStep {
    /// A step whose optimizer keeps its moments as PyTorch does, in the trained parameters'
    /// type, unless the recipe's optimizer says otherwise (8-bit, Adafactor).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        model: ModelConfig,
        recipe: Recipe,
        kernel: Kernel,
        loss: LossPath,
        lora: Option<Adapters>,
        optimizer: crate::memory::optim::OptimizerRecipe,
        update: Update,
        checkpointing: bool,
    ) -> CudaStep {
        let width = trained_width(recipe, lora.is_some());
        CudaStep {
            model_dropout: model.family == Family::Gpt,
            model,
            recipe,
            kernel,
            loss,
            lora,
            optimizer: Optimizer::of(optimizer, width, update),
            checkpointing,
            accumulates: false,
            keeps_outputs: false,
            kbit_prep: KbitPrep::default(),
            double_quant: true,
        }
    }
}

impl Optimizer {
    /// An optimizer as recipes name it, its moments kept `width` bytes wide (PyTorch keeps
    /// them in the parameter's type), updated as `update` says.
    pub fn of(recipe: crate::memory::optim::OptimizerRecipe, width: f64, update: Update) -> Self {
        use crate::memory::optim::OptimizerKind;
        let moments = recipe.kind.states_per_param() as u8;
        let state_bytes = recipe.state_bytes.unwrap_or(width * f64::from(moments));
        // Recipes that keep next to no state (Adafactor) or quantize it update block by block.
        let update = match (recipe.kind, recipe.state_bytes) {
            (OptimizerKind::Adamw, Some(_)) => Update::Fused,
            _ => update,
        };
        Optimizer {
            state_bytes,
            update,
            moments,
        }
    }
}

#[cfg(test)]
mod tests;
