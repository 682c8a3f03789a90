//! Memory estimates for training and inference, three ways side by side, each number labelled
//! with where it comes from:
//!
//! 1. **The lesson's 2-byte rule** — fp16 weights at 2 B/param, nothing else: `P = memory / 2`.
//! 2. **Textbook formulas**:
//!    - Model states (Rajbhandari et al. 2020, "ZeRO", §3 and Fig. 1): mixed-precision Adam keeps
//!      2 (fp16 weights) + 2 (fp16 grads) + K = 12 (fp32 master, m, v) bytes per parameter; with
//!      N data-parallel GPUs ZeRO-1 shards the K part, ZeRO-2 also the gradients, ZeRO-3 (and
//!      FSDP full sharding) also the weights: per GPU
//!      `(2+2+K)Ψ`, `4Ψ + KΨ/N`, `2Ψ + (2+K)Ψ/N`, `(4+K)Ψ/N`.
//!      Pure f32 keeps 4 + 4 + 4 per optimizer state (Transformer Math 101, EleutherAI 2023).
//!    - Activations (Korthikanti et al. 2022, "Reducing Activation Recomputation", eq. 2):
//!      `s·b·h·(34 + 5·a·s/h)` bytes per transformer layer with 16-bit activations and no
//!      recomputation; full checkpointing keeps only each layer's input, `2·s·b·h` per layer.
//!    - KV cache for inference: `2 · L · kv_heads · head_dim · s · b · bytes`.
//!    - LoRA: trainable `r · (d_in + d_out)` per adapted matrix; only those get gradients and
//!      optimizer state. QLoRA stores the frozen base in 4-bit NF4 (0.5 B/param plus ~3 % for the
//!      quantisation constants with double quantisation, Dettmers et al. 2023).
//!    - CUDA context and workspace: not in any formula above; a stated typical value
//!      ([`CUDA_CONTEXT_TYPICAL`]) until `measure` on the GPU gives the real one.
//! 3. **gpulab's empirical model** — bytes per parameter as measured by `gpulab measure` in
//!    Candle (from a calibration file, or the one shipped in `data/calibration-cpu.json`).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::memory::formulas::textbook_state_bytes;
pub use crate::memory::formulas::{
    kv_cache, lora_params, transformer_activations, Precision, TransformerShape,
    CUDA_CONTEXT_TYPICAL,
};
use crate::units::Bytes;

/// Parses a parameter count: `7B`, `124M`, `1.5k`, `11_181_642`, `7e9`.
pub fn parse_count(text: &str) -> Result<u64> {
    let t = text.trim().replace(['_', ','], "");
    let bad = || {
        Error::Invalid(format!(
            "{text:?} is not a parameter count: use e.g. 7B, 124M, 1.5k or 11_181_642"
        ))
    };
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
        return Err(Error::Invalid(format!(
            "{text:?}: a model needs at least one parameter"
        )));
    }
    if count > 1e15 {
        return Err(Error::Invalid(format!(
            "{text:?} is more parameters than any model has"
        )));
    }
    Ok(count.round() as u64)
}

/// Parses a memory size: `16GiB` (binary), `24 GB` (decimal, as GPUs are sold), `512MiB`.
pub fn parse_memory(text: &str) -> Result<Bytes> {
    let value: bytesize::ByteSize = text.trim().parse().map_err(|e| {
        Error::Invalid(format!(
            "{text:?} is not a memory size ({e}): use e.g. 16GiB or 24GB"
        ))
    })?;
    if value.as_u64() == 0 {
        return Err(Error::Invalid(format!("{text:?} is no memory at all")));
    }
    Ok(Bytes(value.as_u64()))
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
    /// LoRA rank (None = full fine-tuning); adapts q and v in every layer.
    pub lora_rank: Option<u64>,
    /// Full activation checkpointing.
    pub checkpointing: bool,
    /// Data-parallel GPUs N.
    pub gpus: u64,
    /// ZeRO stage 0-3 (3 = FSDP full sharding).
    pub zero_stage: u8,
    /// Count the CUDA context (on a GPU).
    pub on_gpu: bool,
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
            precision: Precision::Bf16,
            optimizer_states: 2,
            lora_rank: None,
            checkpointing: false,
            gpus: 1,
            zero_stage: 0,
            on_gpu: true,
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
    /// Measured by gpulab measure.
    Measured,
    /// Fitted from measurements.
    Fitted,
    /// A stated typical value.
    Typical,
}

/// One category of an estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// Category.
    pub category: String,
    /// The 2-byte rule's bytes (only weights have any).
    pub rule: Bytes,
    /// Textbook bytes per GPU.
    pub textbook: Bytes,
    /// Where the textbook number comes from.
    pub textbook_source: Source,
    /// Empirical (Candle-measured) bytes, when a calibration covers it.
    pub empirical: Option<Bytes>,
    /// Where the empirical number comes from.
    pub empirical_source: Option<Source>,
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
    /// Sums.
    pub rule_total: Bytes,
    /// Textbook total per GPU.
    pub textbook_total: Bytes,
    /// Empirical total per GPU (rows without an empirical value use the textbook's).
    pub empirical_total: Option<Bytes>,
}

/// Measured Candle bytes per parameter for one precision and optimizer (from a calibration).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MeasuredPerParam {
    /// Weights.
    pub weights: f64,
    /// Gradients.
    pub gradients: f64,
    /// Optimizer state.
    pub optimizer_state: f64,
    /// Optimizer-step temporaries, per parameter of the largest tensor's share (as measured).
    pub step_temporaries: f64,
}

/// ZeRO model states per GPU (bytes): weights, gradients, optimizer state.
pub fn zero_model_states(input: &EstimateInput, trainable: u64) -> (f64, f64, f64) {
    let n = input.gpus.max(1) as f64;
    let psi = input.params as f64;
    let t = trainable as f64;
    let per = textbook_state_bytes(input.precision, input.optimizer_states);
    let (w_bytes, g_bytes, k) = (per.weights, per.gradients, per.optimizer);
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

/// Builds the estimate. `measured` adds the empirical column for model states.
pub fn estimate(input: &EstimateInput, measured: Option<MeasuredPerParam>) -> Estimate {
    let trainable = match (input.lora_rank, input.shape) {
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
    let full = input.lora_rank.is_none() && input.zero_stage == 0 && input.gpus <= 1;
    let emp = |per: f64, count: u64| {
        measured
            .filter(|_| full)
            .map(|_| Bytes((per * count as f64) as u64))
    };
    lines.push(Line {
        category: "weights".into(),
        rule: Bytes(input.params * 2),
        textbook: Bytes(w as u64),
        textbook_source: Source::Formula,
        empirical: emp(measured.map(|m| m.weights).unwrap_or(0.0), input.params),
        empirical_source: measured.filter(|_| full).map(|_| Source::Measured),
    });
    if input.mode == Mode::Train {
        lines.push(Line {
            category: "gradients".into(),
            rule: Bytes(0),
            textbook: Bytes(g as u64),
            textbook_source: Source::Formula,
            empirical: emp(measured.map(|m| m.gradients).unwrap_or(0.0), trainable),
            empirical_source: measured.filter(|_| full).map(|_| Source::Measured),
        });
        lines.push(Line {
            category: "optimizer state".into(),
            rule: Bytes(0),
            textbook: Bytes(o as u64),
            textbook_source: Source::Formula,
            empirical: emp(
                measured.map(|m| m.optimizer_state).unwrap_or(0.0),
                trainable,
            ),
            empirical_source: measured.filter(|_| full).map(|_| Source::Measured),
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
                empirical: None,
                empirical_source: None,
            }),
            Mode::Inference => lines.push(Line {
                category: "KV cache".into(),
                rule: Bytes(0),
                textbook: Bytes(kv_cache(&shape, input.batch, value_bytes) as u64),
                textbook_source: Source::Formula,
                empirical: None,
                empirical_source: None,
            }),
        }
    }
    if input.on_gpu {
        lines.push(Line {
            category: "CUDA context and workspace".into(),
            rule: Bytes(0),
            textbook: CUDA_CONTEXT_TYPICAL,
            textbook_source: Source::Typical,
            empirical: None,
            empirical_source: None,
        });
    }
    let rule_total = Bytes(lines.iter().map(|l| l.rule.0).sum());
    let textbook_total = Bytes(lines.iter().map(|l| l.textbook.0).sum());
    let empirical_total = measured.filter(|_| full).map(|_| {
        Bytes(
            lines
                .iter()
                .map(|l| l.empirical.unwrap_or(l.textbook).0)
                .sum(),
        )
    });
    Estimate {
        input: input.clone(),
        trainable,
        lines,
        rule_total,
        textbook_total,
        empirical_total,
    }
}

/// The largest parameter count whose textbook estimate fits `budget` (bisection over Ψ, with the
/// transformer shape scaled by width when given). Returns 0 when not even one parameter fits.
pub fn max_params_textbook(input: &EstimateInput, budget: Bytes) -> u64 {
    let fits = |p: u64| {
        let mut i = input.clone();
        i.params = p;
        estimate(&i, None).textbook_total <= budget
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
        if estimate(&probe, None).textbook_total > budget {
            break;
        }
        best = batch;
        batch *= 2;
    }
    best
}

/// The verdicts of an estimate against a memory budget (`label` names it: a GPU or a size):
/// each column's fit, the largest batch (with a shape) and the largest model.
pub fn against_budget(input: &EstimateInput, e: &Estimate, budget: Bytes, label: &str) -> String {
    let verdict = |total: Bytes| {
        if total <= budget {
            format!("fits, {} to spare", Bytes(budget.0 - total.0))
        } else {
            format!("does not fit, {} short", Bytes(total.0 - budget.0))
        }
    };
    let mut out = format!("\nAgainst {label}:\n");
    out.push_str(&format!("  2-byte rule: {}\n", verdict(e.rule_total)));
    out.push_str(&format!("  textbook:    {}\n", verdict(e.textbook_total)));
    if let Some(total) = e.empirical_total {
        out.push_str(&format!("  gpulab:      {}\n", verdict(total)));
    }
    if input.shape.is_some() {
        match largest_batch(input, budget) {
            0 => out.push_str("  even batch 1 does not fit by the textbook: shorten --seq-len, add --checkpointing, or use --lora-rank\n"),
            best => out.push_str(&format!(
                "  largest power-of-two batch that fits by the textbook: {best}\n"
            )),
        }
    }
    out.push_str(&format!(
        "  largest model that fits: {:.2}B by the 2-byte rule, {:.2}B by the textbook for this set-up\n",
        budget.0 as f64 / 2.0 / 1e9,
        max_params_textbook(input, budget) as f64 / 1e9
    ));
    out
}

/// Reads the measured per-parameter bytes for a precision and optimizer from a calibration
/// (GPT entries first, then any family).
pub fn measured_from(
    cal: &crate::memory::calibration::Calibration,
    precision: Precision,
    states: u64,
) -> Option<MeasuredPerParam> {
    use candle_core::DType;
    let dtype = match precision {
        Precision::F32 => DType::F32,
        Precision::Bf16 | Precision::F16 => DType::BF16,
        Precision::Nf4 | Precision::F64 => return None,
    };
    let mut entries: Vec<&crate::memory::calibration::Entry> = cal
        .entries
        .iter()
        .filter(|e| e.dtype == dtype && e.optimizer.states_per_param() == states)
        .collect();
    entries.sort_by_key(|e| e.family != crate::memory::models::Family::Gpt);
    entries.first().map(|e| MeasuredPerParam {
        weights: e.weights_per_param,
        gradients: e.gradients_per_param,
        optimizer_state: e.optimizer_state_per_param,
        step_temporaries: e.step_temporaries_per_param,
    })
}

/// The terminal table of an estimate.
pub fn render(e: &Estimate, calibration_note: &str) -> String {
    use crate::table::Table;
    let mut t = Table::aligned(
        &[
            "category",
            "2-byte rule",
            "textbook",
            "source",
            "gpulab (Candle)",
            "source",
        ],
        "lrrlrl",
    );
    let label = |s: Source| match s {
        Source::Rule => "rule",
        Source::Formula => "formula",
        Source::Measured => "measured",
        Source::Fitted => "fitted",
        Source::Typical => "typical value",
    };
    for l in &e.lines {
        t.push(vec![
            l.category.clone(),
            if l.rule.0 > 0 {
                l.rule.to_string()
            } else {
                "-".into()
            },
            l.textbook.to_string(),
            label(l.textbook_source).into(),
            l.empirical
                .map(|b| b.to_string())
                .unwrap_or_else(|| "-".into()),
            l.empirical_source.map(label).unwrap_or("").into(),
        ]);
    }
    t.push(vec![
        "total per GPU".into(),
        e.rule_total.to_string(),
        e.textbook_total.to_string(),
        String::new(),
        e.empirical_total
            .map(|b| b.to_string())
            .unwrap_or_else(|| "-".into()),
        String::new(),
    ]);
    let i = &e.input;
    let mut out = format!(
        "{} parameters ({} trainable) · {} · {}{}{}{}\n\n",
        i.params,
        e.trainable,
        match i.mode {
            Mode::Train => "training",
            Mode::Inference => "inference",
        },
        match i.precision {
            Precision::F64 => "f64",
            Precision::F32 => "f32",
            Precision::F16 | Precision::Bf16 => "16-bit (mixed precision)",
            Precision::Nf4 => "NF4 base (QLoRA)",
        },
        i.lora_rank
            .map(|r| format!(" · LoRA r{r}"))
            .unwrap_or_default(),
        if i.checkpointing {
            " · checkpointing"
        } else {
            ""
        },
        if i.gpus > 1 {
            format!(" · {} GPUs, ZeRO-{}", i.gpus, i.zero_stage)
        } else {
            String::new()
        },
    );
    out.push_str(&t.to_text());
    if i.shape.is_none() {
        out.push_str(
            "Activations need the model's shape: add --layers, --hidden, --heads and --seq-len.\n",
        );
    }
    if !calibration_note.is_empty() {
        out.push_str(calibration_note);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests;
