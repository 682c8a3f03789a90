//! Memory estimates for training and inference, three ways side by side, each number labelled
//! with where it comes from:
//!
//! 1. **The lesson's 2-byte rule** — fp16 weights at 2 B/param, nothing else: `P = memory / 2`.
//! 2. **Textbook formulas** ([`crate::memory::formulas`], where their sources are): model
//!    states per precision recipe and ZeRO stage, Korthikanti's activations, the KV cache,
//!    LoRA's trainable count, QLoRA's NF4 base and a typical CUDA context.
//! 3. **Measured** — the peak of a training step of this shape as gpulab's memory model
//!    ([`crate::memory::empirical`]) predicts it from real steps: one column per framework whose
//!    calibration is at hand (Candle's from `gpulab measure --save`, PyTorch's from the same
//!    step run in PyTorch), each labelled with its recipe. What a measured model does not cover
//!    (LoRA, checkpointing, ZeRO, inference, a recipe never measured) says "not measured" and why.
//!    On a GPU target, a fourth: the step on CUDA derived tensor by tensor
//!    ([`crate::memory::cuda_step`]).

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::memory::formulas::textbook_state_bytes;
pub use crate::memory::formulas::{
    kv_cache, lora_params, transformer_activations, Precision, TransformerShape,
    CUDA_CONTEXT_TYPICAL,
};
use crate::units::Bytes;

/// Parses a parameter count: `7B`, `124M`, `1.5k`, `11_181_642`, `7e9`.
pub fn parse_count(text: &str) -> Result<u64> {
    let t = text.trim().replace(['_', ','], "");
    let bad = || crate::bad!("params-invalid", given = format!("{text:?}"));
    if t.is_empty() || t.starts_with('-') {
        return Err(bad());
    }
    let (number, scale) = match t.chars().last() {
        Some(c) if c.is_ascii_alphabetic() && !t.ends_with(['e', 'E']) => {
            let scale = match c.to_ascii_uppercase() {
                'K' => 1e3,
                'M' => 1e6,
                'B' | 'G' => 1e9,
                'T' => 1e12,
                _ => return Err(bad()),
            };
            (&t[..t.len() - 1], scale)
        }
        _ => (t.as_str(), 1.0),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let count = value * scale;
    if !(count.is_finite() && count >= 1.0) {
        return Err(crate::bad!("params-zero", given = format!("{text:?}")));
    }
    if count > 1e15 {
        return Err(crate::bad!("params-too-many", given = format!("{text:?}")));
    }
    Ok(count.round() as u64)
}

/// Parses a memory size: `16GiB` (binary), `24 GB` (decimal, as GPUs are sold), `512MiB`.
pub fn parse_memory(text: &str) -> Result<Bytes> {
    let t = text.trim();
    if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(crate::bad!(
            "memory-no-unit",
            given = format!("{text:?}"),
            n = t
        ));
    }
    let value: bytesize::ByteSize = text.trim().parse().map_err(|e: String| {
        crate::bad!("memory-invalid", given = format!("{text:?}"), error = e)
    })?;
    if value.as_u64() == 0 {
        return Err(crate::bad!("memory-zero", given = format!("{text:?}")));
    }
    Ok(Bytes(value.as_u64()))
}

/// What the user named: a preset, a parameter count, shape flags, or a preset with some of
/// them changed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelQuery {
    /// A preset name ("gpt2", "llama-3-8b") or a parameter count ("7B").
    pub name_or_count: Option<String>,
    /// A model read from its Hugging Face config.json (`--config`): taken as a preset is.
    pub config: Option<crate::memory::models::ModelConfig>,
    /// The shape flags' family: gpt or llama (default gpt; a preset's own otherwise).
    pub arch: Option<crate::memory::models::Family>,
    /// Transformer blocks.
    pub layers: Option<u64>,
    /// Width d.
    pub d_model: Option<u64>,
    /// Query heads.
    pub heads: Option<u64>,
    /// Key/value heads (Llama's grouped-query attention).
    pub kv_heads: Option<u64>,
    /// FFN width.
    pub ffn: Option<u64>,
    /// Vocabulary size (default 50,257, GPT-2's).
    pub vocab: Option<u64>,
    /// Sequence length of a training step.
    pub seq_len: Option<u64>,
    /// Sequences per step on each GPU.
    pub batch: u64,
    /// GPT: an untied head (GPT-2 ties it).
    pub untied: bool,
    /// Llama: a head tied to the token embedding (Llama-3.2 ties it).
    pub tied: bool,
}

/// The model a course lesson trains, when `data/lessons.toml` gives its whole transformer shape
/// (GPT-2 style, untied head, as the lessons write it), at the lesson's batch and sequence.
pub fn lesson_model(id: &str) -> Option<crate::memory::models::ModelConfig> {
    use crate::memory::models::{Family, ModelConfig};
    let lessons = crate::plan::lessons::shipped();
    let w = lessons.iter().find(|w| w.id == id.trim())?;
    if w.kind != "transformer-decoder" {
        return None;
    }
    let m = ModelConfig {
        family: Family::Gpt,
        batch: w.batch as usize,
        layers: w.layers? as usize,
        d_model: w.d_model? as usize,
        heads: w.heads? as usize,
        seq_len: w.seq_len? as usize,
        vocab: w.vocab? as usize,
        ..ModelConfig::default_for(Family::Gpt)
    };
    m.validate().ok().map(|_| m)
}

/// How far a given parameter count may be from the shape's own count before the two are said
/// to disagree: "7B" names Llama 2 7B's 6.74 B; a shape 10 % off is another model.
pub const COUNT_AGREEMENT: f64 = 0.10;

/// Resolves a query into a parameter count and, when the shape is known, the model's shape.
pub fn resolve(q: &ModelQuery) -> Result<(u64, Option<crate::memory::models::ModelConfig>)> {
    use crate::memory::models::{preset, Family, ModelConfig, PRESETS};
    let mut count = None;
    let mut base = q.config.clone();
    if let Some(text) = q.name_or_count.as_ref().filter(|_| base.is_none()) {
        if let Some(m) = preset(text) {
            base = Some(m);
        } else {
            match parse_count(text) {
                Ok(c) => count = Some(c),
                Err(_) if lesson_model(text).is_some() => base = lesson_model(text),
                Err(_) if text.chars().any(|c| c.is_ascii_alphabetic()) => {
                    let near =
                        crate::suggest::closest(text, PRESETS.iter().map(|p| (*p, vec![*p])), 3);
                    return Err(crate::bad!(
                        "model-unknown",
                        given = format!("{text:?}"),
                        presets = PRESETS.join(", "),
                        guess = near.join(", ")
                    ));
                }
                Err(e) => return Err(e),
            }
        }
    }
    let shape_flags = q.layers.is_some() || q.d_model.is_some() || q.heads.is_some();
    let from_preset = base.is_some();
    let mut model = match (base, shape_flags) {
        (Some(m), _) => Some(m),
        (None, true) => {
            let (Some(layers), Some(hidden), Some(heads)) = (q.layers, q.d_model, q.heads) else {
                return Err(crate::bad!("shape-incomplete"));
            };
            let family = match q.arch {
                Some(f) if f.is_transformer() => f,
                Some(f) => return Err(crate::bad!("arch-not-transformer", arch = f.name())),
                None => Family::Gpt,
            };
            Some(ModelConfig {
                family,
                layers: layers as usize,
                d_model: hidden as usize,
                heads: heads as usize,
                vocab: q.vocab.unwrap_or(50257) as usize,
                seq_len: q.seq_len.unwrap_or(2048) as usize,
                tied: (family == Family::Gpt && !q.untied) || (family == Family::Llama && q.tied),
                ..ModelConfig::default_for(family)
            })
        }
        (None, false) => None,
    };
    if let Some(m) = model.as_mut() {
        let u = |x: u64| x as usize;
        if from_preset {
            // A preset with some of its numbers changed.
            if let Some(l) = q.layers {
                m.layers = u(l);
            }
            if let Some(h) = q.d_model {
                m.d_model = u(h);
            }
            if let Some(h) = q.heads {
                m.heads = u(h);
            }
            if let Some(v) = q.vocab {
                m.vocab = u(v);
            }
            if let Some(s) = q.seq_len {
                m.seq_len = u(s);
            }
            if q.untied {
                m.tied = false;
            }
            if q.tied {
                m.tied = true;
            }
        }
        if let Some(k) = q.kv_heads {
            m.kv_heads = Some(u(k));
        }
        if let Some(f) = q.ffn {
            m.ffn = Some(u(f));
        }
        m.batch = u(q.batch.max(1));
        m.validate()?;
    }
    let params = match (count, &model) {
        (Some(c), Some(m)) => {
            let own = m.param_count();
            if (c as f64 - own as f64).abs() > COUNT_AGREEMENT * own as f64 {
                return Err(crate::bad!(
                    "count-shape-disagree",
                    count = c,
                    shape = m.describe(),
                    own = own,
                    tolerance = format!("{:.0}", COUNT_AGREEMENT * 100.0)
                ));
            }
            c
        }
        (Some(c), None) => c,
        (None, Some(m)) => m.param_count(),
        (None, None) => return Err(crate::bad!("model-missing")),
    };
    Ok((params, model))
}

/// Training or inference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Forward, backward and an optimizer step.
    Train,
    /// Forward only (with a KV cache for decoders).
    Inference,
}

impl Mode {
    /// Parses train (training) or inference (infer).
    pub fn parse(s: &str) -> Result<Mode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "train" | "training" => Ok(Mode::Train),
            "inference" | "infer" => Ok(Mode::Inference),
            other => Err(crate::bad!("mode-unknown", given = format!("{other:?}"))),
        }
    }
}

/// Everything that shapes an estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EstimateInput {
    /// Total parameters Ψ.
    pub params: u64,
    /// Transformer shape, when known (activations and KV cache need it).
    pub shape: Option<TransformerShape>,
    /// Batch size b.
    pub batch: u64,
    /// Train or infer.
    pub mode: Mode,
    /// Weight precision.
    pub precision: Precision,
    /// Optimizer states per trainable parameter (0 SGD, 1 momentum, 2 Adam).
    pub optimizer_states: u64,
    /// The optimizer, when known (the measured models are per optimizer).
    #[serde(default)]
    pub optimizer: Option<crate::memory::optim::OptimizerKind>,
    /// LoRA rank (None = full fine-tuning); adapts q and v in every layer (the measured
    /// PyTorch column: `lora_targets`).
    pub lora_rank: Option<u64>,
    /// Which layers LoRA adapts in the measured PyTorch column (None: q and v).
    #[serde(default)]
    pub lora_targets: Option<crate::memory::models::LoraTargets>,
    /// How the PyTorch column's step is written (implementation, attention, optimizer update);
    /// checkpointing, LoRA and autocast come from this input's own fields.
    #[serde(default)]
    pub torch: crate::memory::torch::Variant,
    /// Full activation checkpointing.
    pub checkpointing: bool,
    /// Data-parallel GPUs N.
    pub gpus: u64,
    /// ZeRO stage 0-3 (3 = FSDP full sharding).
    pub zero_stage: u8,
    /// Count the CUDA context (on a GPU).
    pub on_gpu: bool,
    /// The target GPU's compute capability (major, minor), when one is named: it decides which
    /// attention kernel runs and whether bf16 is native.
    #[serde(default)]
    pub target_cc: Option<(u32, u32)>,
    /// The LoRA adapters' parameters as the model's own layers count them (k and v sized by
    /// the key/value heads, every target named); None: the textbook's 2·r·2d per layer.
    #[serde(default)]
    pub lora_trainable: Option<u64>,
    /// Optimizer state bytes per trainable parameter when the recipe's optimizer keeps other
    /// state than its measured kind (8-bit AdamW: 2.004; Adafactor: ~0); None: the kind's own.
    #[serde(default)]
    pub state_bytes: Option<f64>,
    /// LoRA's target layers as a list (`--lora-targets q,k,v,o`): the CUDA column adapts
    /// exactly these; None: `lora_targets`.
    #[serde(default)]
    pub lora_set: Option<crate::memory::models::Projections>,
    /// peft's `lora_dropout` above 0 (a mask and a dropped copy of each adapted input).
    #[serde(default)]
    pub lora_dropout: bool,
    /// AdamW's fused update (`adamw-fused`): no temporary at the step.
    #[serde(default)]
    pub fused_update: bool,
    /// Micro-batches a step accumulates gradients over (0 or 1: none).
    #[serde(default)]
    pub grad_accum: u64,
    /// The training loop keeps the model's output through backward.
    #[serde(default)]
    pub keeps_outputs: bool,
    /// What QLoRA's preparation left fp32 (read under NF4 only).
    #[serde(default)]
    pub kbit_prep: crate::memory::cuda_step::KbitPrep,
    /// bitsandbytes' double quantization (read under NF4 only; recorded inputs without it
    /// had it).
    #[serde(default = "crate::memory::cuda_step::double_quant_default")]
    pub double_quant: bool,
}

impl EstimateInput {
    /// Full training of `params` with mixed-precision Adam on one GPU, batch 1, shape unknown:
    /// the lesson's setting, and the start of most what-ifs (`..EstimateInput::mixed_precision_adam(p)`).
    pub fn mixed_precision_adam(params: u64) -> Self {
        EstimateInput {
            params,
            shape: None,
            batch: 1,
            mode: Mode::Train,
            precision: Precision::Mixed,
            optimizer_states: 2,
            optimizer: Some(crate::memory::optim::OptimizerKind::Adamw),
            lora_rank: None,
            lora_targets: None,
            torch: crate::memory::torch::Variant::people_run(true),
            checkpointing: false,
            gpus: 1,
            zero_stage: 0,
            on_gpu: true,
            target_cc: None,
            lora_trainable: None,
            state_bytes: None,
            lora_set: None,
            lora_dropout: false,
            fused_update: false,
            grad_accum: 1,
            keeps_outputs: false,
            kbit_prep: crate::memory::cuda_step::KbitPrep::default(),
            double_quant: true,
        }
    }
}

/// Where a number comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The lesson's 2-byte rule.
    Rule,
    /// A published formula.
    Formula,
    /// A stated typical value.
    Typical,
}

/// One category of an estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// What the line counts (weights, gradients, optimizer state, activations, …).
    pub category: String,
    /// The 2-byte rule's bytes (only weights have any).
    pub rule: Bytes,
    /// Textbook bytes per GPU.
    pub textbook: Bytes,
    /// Where the textbook number comes from.
    pub textbook_source: Source,
}

/// A finished estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The input.
    pub input: EstimateInput,
    /// Trainable parameters (LoRA adapters, or all).
    pub trainable: u64,
    /// The rows.
    pub lines: Vec<Line>,
    /// The 2-byte rule's total.
    pub rule_total: Bytes,
    /// Textbook total per GPU.
    pub textbook_total: Bytes,
}

/// ZeRO model states per GPU (bytes): weights, gradients, optimizer state.
pub fn zero_model_states(input: &EstimateInput, trainable: u64) -> (f64, f64, f64) {
    let n = input.gpus.max(1) as f64;
    let psi = input.params as f64;
    let t = trainable as f64;
    let per = textbook_state_bytes(input.precision, input.optimizer_states);
    let (w_bytes, g_bytes, mut k) = (per.weights, per.gradients, per.optimizer);
    if let Some(state) = input.state_bytes {
        // The moments replaced; AMP's fp32 master copy stays.
        let master = if input.precision == Precision::Mixed {
            4.0
        } else {
            0.0
        };
        k = master + state;
    }
    let mut weights = psi * w_bytes;
    if input.precision == Precision::Nf4 {
        // Adapters are kept in 16-bit next to the 4-bit base.
        weights += t * 2.0;
    }
    let (mut grads, mut states) = match input.mode {
        Mode::Train => (t * g_bytes, t * k),
        Mode::Inference => (0.0, 0.0),
    };
    let stage = input.zero_stage.min(3);
    if stage >= 1 {
        states /= n;
    }
    if stage >= 2 {
        grads /= n;
    }
    if stage >= 3 {
        weights /= n;
    }
    (weights, grads, states)
}

/// Builds the textbook half of an estimate (the 2-byte rule and the formulas).
pub fn estimate(input: &EstimateInput) -> Estimate {
    let trainable = match (input.lora_rank, input.shape) {
        (Some(_), _) if input.lora_trainable.is_some() => {
            input.lora_trainable.unwrap_or(0).min(input.params)
        }
        (Some(r), Some(shape)) => lora_params(&shape, r).min(input.params),
        (Some(r), None) => {
            // Without a shape, assume a GPT-like model: h ≈ sqrt(Ψ / 12L) with L = 32.
            let h = ((input.params as f64) / (12.0 * 32.0)).sqrt();
            (32.0 * 2.0 * r as f64 * 2.0 * h) as u64
        }
        (None, _) => input.params,
    };
    let (w, g, o) = zero_model_states(input, trainable);
    let value_bytes = input.precision.activation_bytes();
    let mut lines = Vec::new();
    lines.push(Line {
        category: "weights".into(),
        rule: Bytes(input.params * 2),
        textbook: Bytes(w as u64),
        textbook_source: Source::Formula,
    });
    if input.mode == Mode::Train {
        lines.push(Line {
            category: "gradients".into(),
            rule: Bytes(0),
            textbook: Bytes(g as u64),
            textbook_source: Source::Formula,
        });
        lines.push(Line {
            category: "optimizer state".into(),
            rule: Bytes(0),
            textbook: Bytes(o as u64),
            textbook_source: Source::Formula,
        });
    }
    if let Some(shape) = input.shape {
        match input.mode {
            Mode::Train => lines.push(Line {
                category: if input.checkpointing {
                    "activations (checkpointed)".into()
                } else {
                    "activations".into()
                },
                rule: Bytes(0),
                textbook: Bytes(transformer_activations(
                    &shape,
                    input.batch,
                    value_bytes,
                    input.checkpointing,
                ) as u64),
                textbook_source: Source::Formula,
            }),
            Mode::Inference => lines.push(Line {
                category: "KV cache".into(),
                rule: Bytes(0),
                textbook: Bytes(kv_cache(&shape, input.batch, value_bytes) as u64),
                textbook_source: Source::Formula,
            }),
        }
    }
    if input.on_gpu {
        lines.push(Line {
            category: "CUDA context and workspace".into(),
            rule: Bytes(0),
            textbook: CUDA_CONTEXT_TYPICAL,
            textbook_source: Source::Typical,
        });
    }
    let rule_total = Bytes(lines.iter().map(|l| l.rule.0).sum());
    let textbook_total = Bytes(lines.iter().map(|l| l.textbook.0).sum());
    Estimate {
        input: input.clone(),
        trainable,
        lines,
        rule_total,
        textbook_total,
    }
}

/// The largest parameter count whose textbook estimate fits `budget` (bisection over Ψ, with the
/// transformer shape scaled by width when given). Returns 0 when not even one parameter fits.
pub fn max_params_textbook(input: &EstimateInput, budget: Bytes) -> u64 {
    let fits = |p: u64| {
        let mut i = input.clone();
        i.params = p;
        estimate(&i).textbook_total <= budget
    };
    let (mut lo, mut hi) = (0u64, 1u64);
    while fits(hi) && hi < (1u64 << 50) {
        lo = hi;
        hi *= 2;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The largest power-of-two batch whose textbook estimate fits `budget` (0 when not even batch
/// 1 fits); only meaningful with a shape.
pub fn largest_batch(input: &EstimateInput, budget: Bytes) -> u64 {
    let mut probe = input.clone();
    let mut best = 0;
    let mut batch = 1;
    while batch <= 1 << 20 {
        probe.batch = batch;
        if estimate(&probe).textbook_total > budget {
            break;
        }
        best = batch;
        batch *= 2;
    }
    best
}

/// One framework's measured column: its memory model's prediction for this shape and recipe,
/// or why it has none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasuredColumn {
    /// Whose step.
    pub framework: crate::memory::calibration::Framework,
    /// The recipe measured ("bf16 end to end, no fp32 master copy", …).
    pub recipe: String,
    /// Where the calibration came from.
    pub source: String,
    /// The prediction, when the model covers this case.
    pub prediction: Option<crate::memory::empirical::Prediction>,
    /// The CUDA context added on a GPU (a typical value, as in the textbook column).
    pub context: Bytes,
    /// Peak + context.
    pub total: Option<Bytes>,
    /// Why there is no prediction.
    pub not_measured: Option<String>,
    /// What the fitted model's step was (PyTorch: implementation, attention, optimizer update,
    /// checkpointing, LoRA, autocast; and QLoRA's formula part), said beside its source.
    #[serde(default)]
    pub assumes: Option<String>,
    /// On a GPU: the derived CUDA step's allocated and reserved peaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda: Option<crate::memory::cuda_step::CudaPeaks>,
}

/// The measured column of one calibration for this input and model shape.
pub fn measured_column(
    cal: &crate::memory::calibration::Calibration,
    source: &str,
    input: &EstimateInput,
    model: Option<&crate::memory::models::ModelConfig>,
) -> MeasuredColumn {
    use candle_core::DType;
    let framework = cal.framework;
    let context = if input.on_gpu {
        CUDA_CONTEXT_TYPICAL
    } else {
        Bytes(0)
    };
    let mut column = MeasuredColumn {
        framework,
        recipe: input.precision.recipe(),
        source: source.into(),
        prediction: None,
        context,
        total: None,
        not_measured: None,
        assumes: None,
        cuda: None,
    };
    let torch = framework == crate::memory::calibration::Framework::Pytorch;
    let why = match (input.mode, model) {
        (Mode::Inference, _) => Some(t!("nm-inference")),
        (_, None) => Some(t!("nm-shape")),
        // Candle's step trains every parameter and keeps every activation.
        _ if !torch && input.lora_rank.is_some() => Some(t!("nm-lora")),
        _ if !torch && input.checkpointing => Some(t!("nm-checkpointing")),
        (_, Some(m)) if !torch && m.family == crate::memory::models::Family::Llama && m.tied => {
            Some(t!("mv-llama-tied"))
        }
        _ if input.gpus > 1 || input.zero_stage > 0 => Some(t!("nm-multi-gpu")),
        _ => None,
    };
    if let Some(why) = why {
        column.not_measured = Some(why);
        return column;
    }
    let mut model = model.expect("checked above").clone();
    let lora = input
        .lora_rank
        .filter(|_| torch)
        .map(|rank| crate::memory::models::LoraShape {
            rank: rank as usize,
            targets: input
                .lora_targets
                .unwrap_or(crate::memory::models::LoraTargets::Qv),
        });
    model.lora = lora;
    // (the step's dtype, autocast, the frozen base re-sized to NF4 afterwards)
    let (dtype, autocast, nf4) = match input.precision {
        Precision::F32 => (DType::F32, None, false),
        Precision::Bf16 => (DType::BF16, None, false),
        // PyTorch AMP: f32 weights and optimizer, the forward under autocast. bf16 and f16
        // hold the same bytes; the model was measured with bf16 (the CPU's).
        Precision::Mixed if torch => (
            DType::F32,
            Some(crate::memory::torch::Autocast::Bf16),
            false,
        ),
        // QLoRA: the bf16 step under LoRA (on a 4-bit base where measured; see below).
        Precision::Nf4 if torch && lora.is_some() => (DType::BF16, None, true),
        other => {
            column.not_measured = Some(t!(
                "nm-precision",
                name = other.name(),
                recipe = other.recipe(),
                framework = framework.name()
            ));
            return column;
        }
    };
    let Some(optimizer) = input.optimizer else {
        column.not_measured = Some(t!("nm-no-optimizer"));
        return column;
    };
    let mut variant = crate::memory::torch::Variant {
        checkpointing: input.checkpointing,
        lora: lora.map(|l| l.targets),
        autocast,
        ..input.torch
    };
    // QLoRA: a step measured on a really quantized base where the calibration has one
    // (`measure --pytorch --quant nf4 --save`); else the bf16 LoRA step with the blocks' linear
    // weights re-sized to NF4's exact storage (below, and said so). A 4-bit base holds the same
    // bytes beyond its weights as a bf16 base under the same adapters (data/docs/measured.md).
    let quantized = crate::memory::torch::Variant {
        quant: Some(crate::memory::torch::Quant::Nf4),
        ..variant
    };
    let measured_4bit = nf4
        && cal
            .model_for(&model, dtype, optimizer, Some(&quantized))
            .is_some();
    if measured_4bit {
        variant = quantized;
    }
    let nf4 = nf4 && !measured_4bit;
    // On a CUDA target PyTorch's SDPA runs a fused kernel (flash, or memory-efficient; a GPU
    // without bf16 is counted in fp16, as recipes there run it): no s×s scores are written out.
    // Only eager attention keeps them (data/docs/memory.md, "Attention on CUDA").
    let path =
        if torch && input.on_gpu && variant.attention == crate::memory::torch::Attention::Sdpa {
            crate::memory::empirical::AttentionPath::Fused
        } else {
            crate::memory::empirical::AttentionPath::AsMeasured
        };
    match cal.model_for(&model, dtype, optimizer, torch.then_some(&variant)) {
        Some(m) => {
            let mut p = m.predict_with(&model, path);
            if nf4 {
                let saved = ((m.per_param[0] * model.block_linear_params() as f64) as u64)
                    .saturating_sub(model.nf4_bytes());
                for b in [
                    &mut p.weights,
                    &mut p.backward_peak,
                    &mut p.step_peak,
                    &mut p.peak,
                ] {
                    b.0 = b.0.saturating_sub(saved);
                }
            }
            if let Some(state) = input.state_bytes {
                // The measured AdamW step with its fp32 moments swapped for the recipe's state:
                // every moment that holds them moves by the difference.
                let trained = model.trainable_count() as f64;
                let delta = (state - m.per_param[2]) * trained;
                for b in [
                    &mut p.optimizer_state,
                    &mut p.backward_peak,
                    &mut p.step_peak,
                ] {
                    b.0 = (b.0 as f64 + delta).max(0.0) as u64;
                }
                p.peak = p.backward_peak.max(p.step_peak);
            }
            column.total = Some(Bytes(p.peak.0 + context.0));
            column.prediction = Some(p);
            if torch {
                let mut said = variant.describe(optimizer);
                if nf4 {
                    said = format!("{said}; {}", t!("assumes-nf4"));
                }
                if let Some(state) = input.state_bytes {
                    said = format!(
                        "{said}; {}",
                        t!("assumes-state", bytes = format!("{state:.2}"))
                    );
                }
                if input.on_gpu && path == crate::memory::empirical::AttentionPath::Fused {
                    said = format!("{said}; {}", t!("assumes-cuda-fused"));
                    if input.target_cc.is_some_and(|(major, _)| major < 8) {
                        said = format!("{said}; {}", t!("assumes-cuda-fp16"));
                    }
                }
                column.assumes = Some(said);
            }
        }
        None => {
            column.not_measured = Some(if torch {
                t!(
                    "nm-no-variant",
                    source = source,
                    family = model.family.name(),
                    dtype = crate::dtype::name(dtype),
                    variant = variant.describe(optimizer)
                )
            } else {
                t!(
                    "nm-no-model",
                    source = source,
                    family = model.family.name(),
                    dtype = crate::dtype::name(dtype),
                    optimizer = optimizer.name(),
                    framework = framework.name()
                )
            })
        }
    }
    column
}

/// On a GPU target, the PyTorch step derived for CUDA (src/memory/cuda_step.rs) as a column of
/// its own beside the CPU calibration's: its total is what nvidia-smi would show (reserved +
/// context), the number an out-of-memory error is decided by. None off a GPU, for inference,
/// sharded runs, gpulab's own modules, or a model that is not a transformer.
pub fn cuda_column(
    input: &EstimateInput,
    model: Option<&crate::memory::models::ModelConfig>,
) -> Option<MeasuredColumn> {
    use crate::memory::cuda_step as cs;
    let model = model.filter(|m| m.family.is_transformer())?;
    if !input.on_gpu
        || input.mode != Mode::Train
        || input.gpus > 1
        || input.zero_stage > 0
        || input.torch.implementation != crate::memory::torch::Implementation::Transformers
    {
        return None;
    }
    let mut column = MeasuredColumn {
        framework: crate::memory::calibration::Framework::Pytorch,
        recipe: input.precision.recipe(),
        source: t!("cuda-source"),
        prediction: None,
        context: CUDA_CONTEXT_TYPICAL,
        total: None,
        not_measured: None,
        assumes: None,
        cuda: None,
    };
    let recipe = match input.precision {
        Precision::F32 => cs::Recipe::F32,
        Precision::Bf16 | Precision::F16 => cs::Recipe::Pure16,
        Precision::Mixed => cs::Recipe::Amp,
        Precision::Nf4 => cs::Recipe::Qlora,
        Precision::F64 => {
            column.not_measured = Some(t!(
                "nm-precision",
                name = input.precision.name(),
                recipe = input.precision.recipe(),
                framework = "PyTorch"
            ));
            return Some(column);
        }
    };
    let lora = input.lora_rank.map(|rank| cs::Adapters {
        rank: rank as usize,
        targets: input.lora_set.unwrap_or_else(|| {
            crate::memory::models::Projections::of(
                input
                    .lora_targets
                    .unwrap_or(crate::memory::models::LoraTargets::Qv),
            )
        }),
        dropout: input.lora_dropout,
    });
    let kind = input
        .optimizer
        .unwrap_or(crate::memory::optim::OptimizerKind::Adamw);
    let update = if input.fused_update {
        cs::Update::Fused
    } else if input.torch.foreach {
        cs::Update::Foreach
    } else {
        cs::Update::ForLoop
    };
    let step = cs::CudaStep {
        accumulates: input.grad_accum > 1,
        keeps_outputs: input.keeps_outputs,
        kbit_prep: input.kbit_prep,
        double_quant: input.double_quant,
        ..cs::CudaStep::new(
            crate::memory::models::ModelConfig {
                batch: input.batch as usize,
                lora: None,
                ..model.clone()
            },
            recipe,
            match input.torch.attention {
                crate::memory::torch::Attention::Sdpa => cs::Kernel::Fused,
                crate::memory::torch::Attention::Eager => cs::Kernel::Eager,
            },
            cs::LossPath::PadLabels,
            lora,
            crate::memory::optim::OptimizerRecipe {
                kind,
                name: kind.name(),
                state_bytes: input.state_bytes,
            },
            update,
            input.checkpointing,
        )
    };
    if let Err(e) = step.validate() {
        column.not_measured = Some(e.to_string());
        return Some(column);
    }
    let peaks = step.peaks();
    let context = column.context;
    column.total = Some(Bytes(peaks.reserved.0 + context.0));
    column.prediction = Some(crate::memory::empirical::Prediction {
        weights: peaks.weights,
        gradients: peaks.gradients,
        optimizer_state: peaks.optimizer_state,
        backward_peak: peaks.allocated,
        step_peak: peaks.allocated,
        peak: peaks.allocated,
        peak_phase: match peaks.peak_at {
            cs::PeakAt::Step => crate::memory::measure::Phase::OptimizerStep,
            cs::PeakAt::Loss => crate::memory::measure::Phase::Forward,
            cs::PeakAt::Backward => crate::memory::measure::Phase::Backward,
        },
    });
    let targets = lora
        .map(|l| {
            format!(
                ", LoRA r{} {}{}",
                l.rank,
                l.targets.name(),
                if l.dropout { " dropout" } else { "" }
            )
        })
        .unwrap_or_default();
    column.assumes = Some(t!(
        "cuda-assumes",
        recipe = format!("{recipe:?}").to_lowercase(),
        kernel = format!("{:?}", step.kernel).to_lowercase(),
        lora = targets,
        loop = [
            (step.accumulates, t!("cuda-accumulates", steps = input.grad_accum)),
            (step.keeps_outputs, t!("cuda-keeps-outputs")),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, said)| format!(", {said}"))
        .collect::<String>(),
        allocated = peaks.allocated,
        reserved = peaks.reserved,
        context = context
    ));
    if recipe == cs::Recipe::Qlora {
        let quant = if step.double_quant {
            t!("cuda-nf4-double")
        } else {
            t!("cuda-nf4-single")
        };
        column.assumes = column.assumes.map(|a| {
            format!(
                "{a}. {}. {quant}",
                t!("cuda-kbit-prep", prep = step.kbit_prep.name())
            )
        });
    }
    column.cuda = Some(peaks);
    Some(column)
}

mod render;
pub use render::{against_budget, render, render_budget};

#[cfg(test)]
mod tests;

/// How a bare memory budget is answered (`estimate --memory 24GB`, the lesson's exercise 3):
/// the 2-byte rule's count, the textbook's count for training, and the largest preset whose
/// measured step fits.
#[derive(Debug, Clone, Serialize)]
pub struct BudgetAnswer {
    /// The budget as given.
    pub budget: Bytes,
    /// Parameters by the 2-byte rule (weights only, 16-bit).
    pub rule_params: u64,
    /// Parameters by the textbook for training with `input`'s recipe (no activations).
    pub textbook_params: u64,
    /// The largest preset whose measured PyTorch step fits, with its peak; None when none does.
    pub measured: Option<(String, Bytes)>,
    /// Sequence length the measured presets were judged at (batch 1).
    pub seq_len: usize,
}

/// Answers a bare budget for training with `template`'s recipe: the presets are judged at
/// batch 1 and `seq_len`, by the first calibration that covers them.
pub fn answer_budget(
    template: &EstimateInput,
    budget: Bytes,
    calibrations: &[(crate::memory::calibration::Calibration, String)],
    seq_len: usize,
) -> BudgetAnswer {
    let mut measured: Option<(String, Bytes)> = None;
    for name in crate::memory::models::PRESETS {
        let Some(mut m) = crate::memory::models::preset(name) else {
            continue;
        };
        m.seq_len = seq_len;
        let mut input = template.clone();
        input.params = m.param_count();
        input.shape = Some(TransformerShape::of(&m));
        input.batch = 1;
        let total = calibrations
            .iter()
            .filter(|(c, _)| c.framework == crate::memory::calibration::Framework::Pytorch)
            .find_map(|(cal, source)| measured_column(cal, source, &input, Some(&m)).total);
        if let Some(total) = total {
            let bigger = measured
                .as_ref()
                .map(|(n, _)| {
                    crate::memory::models::preset(n).is_none_or(|p| p.param_count() < input.params)
                })
                .unwrap_or(true);
            if total <= budget && bigger {
                measured = Some((name.to_string(), total));
            }
        }
    }
    BudgetAnswer {
        budget,
        rule_params: budget.0 / 2,
        textbook_params: max_params_textbook(template, budget),
        measured,
        seq_len,
    }
}
