//! gpulab's memory model of a training step: what a framework holds at the step's peak, as a
//! function of the model's shape, with coefficients **measured** — fitted by least squares from
//! real steps of small shapes (`StepModel::fit`), saved in the calibration file, and judged on shapes it
//! was never fitted on (`measure --validate`). `estimate`, `fit` and `report` read their
//! measured columns from here; the textbook's formulas are [`crate::memory::formulas`].
//!
//! Why these terms (data/docs/memory.md, "What Candle holds during a step"): every tensor a step
//! keeps is one of a few sizes, and the peak is the largest phase, not a sum of phases.
//! - Model states: parameters P (weights, gradients, optimizer state: bytes per parameter
//!   depend on the dtype and optimizer, so they are fitted per pair) and the largest parameter
//!   tensor (an optimizer's update temporaries are per tensor: candle-nn's AdamW briefly holds
//!   ~14× the largest one).
//! - Activations kept for backward, per block: b·s·d (norms, projections, residuals), b·s·f
//!   (the FFN's hidden width), b·s·kv (keys and values of grouped-query attention: kv = key/value
//!   heads × head width), b·h·s² (attention scores, their softmax, the broadcast mask); once per
//!   step: b·s·V (logits, the f32 loss path), b·s·d (embeddings, the final norm), V·d (the
//!   gradient of the head or embedding).
//! - Gradients Candle keeps for non-parameter leaves (the causal mask): b·h·s².
//! - Overheads: a constant and one per block (graph nodes, the gradient store's maps).
//! - MLP: b·input, b·Σhidden, layers; CNN: b·px·c₁, b·px·c₂/4, b·px (px = image side²).
//!
//! What is fitted, per phase (rows weighted by 1/peak, so the fit minimises relative error):
//! - the bytes alive when the forward pass ends (weights, optimizer state, the batch and every
//!   activation the graph keeps): a sum of tensors, so linear in the features;
//! - the optimizer step's peak: everything is alive at once (Candle's step still holds the
//!   graph), plus the update's temporaries for one tensor at a time: linear too;
//! - what the backward pass adds on top of the forward's bytes. Not linear: backward frees each
//!   intermediate gradient once used while the parameters' gradients accumulate, so its peak is
//!   the largest of a few moments — early, when the loss's gradients (several b·s·V tensors)
//!   are alive, or late, when nearly every parameter's gradient exists beside one block's
//!   temporaries. It is fitted as the maximum of linear forms, one per such moment (max-affine
//!   regression: each shape is assigned to the form that predicts it larger, each form refitted
//!   on its shapes, until the assignment settles). Under activation checkpointing the forms are
//!   counted instead on top of bytes known without fitting — the model states, the gradients,
//!   the kept block inputs ([`CheckpointBase`]) — and only the activations are fitted.
//!
//! The step's predicted peak is the larger of the backward pass's and the optimizer step's.

use std::collections::HashMap;

use candle_core::DType;
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::memory::measure::{Phase, StepMeasurement};
use crate::memory::models::{Family, ModelConfig};
use crate::memory::optim::OptimizerKind;
use crate::units::Bytes;

/// Every term a model may use, by name, for one shape (element counts).
pub fn terms(m: &ModelConfig) -> HashMap<&'static str, f64> {
    let b = m.batch as f64;
    let mut t = HashMap::from([
        ("1", 1.0),
        ("P", m.param_count() as f64),
        ("Pt", m.trainable_count() as f64),
        ("largest", largest_tensor(m) as f64),
    ]);
    match m.family {
        Family::Mlp => {
            t.insert("layers", (m.mlp_hidden.len() + 1) as f64);
            t.insert("b·in", b * m.mlp_input as f64);
            t.insert("b·Σhidden", b * m.mlp_hidden.iter().sum::<usize>() as f64);
        }
        Family::Gpt | Family::Llama => {
            let (l, s, d, h, v, f) = (
                m.layers as f64,
                m.seq_len as f64,
                m.d_model as f64,
                m.heads as f64,
                m.vocab as f64,
                m.ffn_width() as f64,
            );
            let kv = m.kv_width() as f64;
            t.extend([
                ("L", l),
                ("L·b·s·d", l * b * s * d),
                ("L·b·s·f", l * b * s * f),
                ("L·b·s·kv", l * b * s * kv),
                ("L·b·h·s²", l * b * h * s * s),
                ("b·h·s²", b * h * s * s),
                ("b·s·V", b * s * v),
                ("b·s·d", b * s * d),
                ("b·s·f", b * s * f),
                ("b·s·kv", b * s * kv),
                ("V·d", v * d),
                ("L·b·s·r", l * b * s * m.lora.map_or(0.0, |r| r.rank as f64)),
            ]);
        }
        Family::Cnn => {
            let px = (m.image_size * m.image_size) as f64;
            t.insert("b·px·c1", b * px * m.channels[0] as f64);
            t.insert("b·px·c2/4", b * px * m.channels[1] as f64 / 4.0);
            t.insert("b·px", b * px);
        }
    }
    t
}

/// Whether `name` is one of `family`'s terms: a model read from a file, or a name written in
/// the code, must say a real term, or it would count as 0.
pub fn is_term(family: Family, name: &str) -> bool {
    terms(&ModelConfig::default_for(family)).contains_key(name)
}

/// Which terms each fitted part of a family's model uses (see the module docs).
pub struct Layout {
    /// The bytes alive when the forward pass ends.
    pub forward: Vec<&'static str>,
    /// The backward pass's extra bytes: one list per linear form of the maximum.
    pub backward: Vec<Vec<&'static str>>,
    /// The optimizer step's peak.
    pub step: Vec<&'static str>,
    /// What the backward forms count on top of.
    pub counting: BackwardCounting,
}

/// What the fitted backward forms are counted on top of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackwardCounting {
    /// The forward's bytes: each form is what backward adds to them.
    Forward,
    /// Bytes known without fitting (activation checkpointing, `checkpointed_layout`): the
    /// first form counts beyond the model states (weights, optimizer state, the batch), the
    /// second beyond [`CheckpointBase::block`]'s gradients and kept inputs. Only the
    /// activations are fitted.
    Known,
}

/// The terms of each part, per family; with LoRA (`lora`), the trained parameters Pt (their
/// gradients and optimizer state) apart from all parameters P (the frozen weights). The
/// adapters' own activations (b·s·r per adapted layer) are left out: at the ranks people use
/// (r ≪ d) they are a sliver of the b·s·d ones, and a term fitted on small widths stands in for
/// other tensors (the figures: data/docs/memory.md, "Terms left out").
pub fn layout(
    family: Family,
    lora: bool,
    variant: Option<&crate::memory::variant::Variant>,
) -> Layout {
    let base = layout_for(family, variant);
    // A quantized base's weights are counted, not fitted (WeightStorage::counted): P leaves
    // every form. On the calibration's small shapes the weights are a sliver beside the
    // activations, too small for a fit to see.
    let quantized = variant.is_some_and(|v| v.quant.is_some());
    // Fused attention never writes out the s×s scores: transformers' Llama under SDPA (no
    // attention dropout) runs the fused kernel, which keeps b·h·s log-sum-exps, not b·h·s²
    // (data/docs/measured.md: no such tensor at the peak); a fitted b·h·s² term would stand
    // in for other tensors. GPT-2 trains with attention dropout, which the CPU's SDPA writes
    // out in full: its terms stay.
    let fused = family == Family::Llama
        && variant.is_some_and(|v| {
            v.implementation == crate::memory::variant::Implementation::Transformers
                && v.attention == crate::memory::variant::Attention::Sdpa
        });
    let with = |list: &[&'static str], extra: &[&'static str]| -> Vec<&'static str> {
        let mut out: Vec<&'static str> = list
            .iter()
            .copied()
            .filter(|&t| !(quantized && t == "P"))
            .filter(|&t| !(fused && (t == "b·h·s²" || t == "L·b·h·s²")))
            .collect();
        if lora {
            out.extend(extra);
        }
        out
    };
    // The first moment of backward (the loss's gradients) comes before any parameter's
    // gradient; counted on top of known bytes, the trained parameters' state is in those.
    Layout {
        forward: with(base.forward, &["Pt"]),
        backward: base
            .backward
            .iter()
            .enumerate()
            .map(|(i, form)| match base.counting {
                BackwardCounting::Forward if i > 0 => with(form, &["Pt"]),
                _ => with(form, &[]),
            })
            .collect(),
        step: with(base.step, &["Pt"]),
        counting: base.counting,
    }
}

/// The base layout of a family's step as the variant writes it (LoRA's terms come on top).
fn layout_for(family: Family, variant: Option<&crate::memory::variant::Variant>) -> BaseLayout {
    use crate::memory::variant::{Attention, Implementation};
    let transformer = family.is_transformer();
    match variant {
        Some(v) if transformer && v.checkpointing => checkpointed_layout(),
        Some(v)
            if transformer
                && v.implementation == Implementation::Transformers
                && v.attention == Attention::Eager =>
        {
            eager_layout(family)
        }
        _ => base_layout(family),
    }
}

/// A transformer trained with activation checkpointing keeps only each block's input through
/// the forward pass (L·b·s·d, beside the logits' b·s·V). Backward recomputes one block at a time
/// and frees that block's saved input once it is differentiated, while the parameters'
/// gradients accumulate, so its peak is one of three moments (data/docs/measured.md,
/// "Activation checkpointing"):
/// - the loss's gradients (a few b·s·V tensors) beside everything the forward kept;
/// - the last block recomputed and differentiated first: every block's input still alive, the
///   head's and that block's gradients;
/// - the first block last: its input alone left, every gradient but the input embedding's in.
///
/// Most of those bytes are known without fitting: the model states (weights, optimizer state,
/// the batch) and the gradients are bytes per parameter, measured; the kept inputs are the
/// forward's fitted L·b·s·d coefficient. Only the activations are fitted
/// ([`BackwardCounting::Known`]): the loss moment's beyond the states, and one block's
/// recomputed activations (b·s·d, b·s·f, b·h·s²) beyond the larger of the two block moments'
/// known bytes ([`CheckpointBase`]), one form for both ends. Fitted free (a share of P per
/// moment), the calibration's small shapes would let P trade against the activations.
fn checkpointed_layout() -> BaseLayout {
    const FORWARD: &[&str] = &["1", "L", "P", "L·b·s·d", "b·s·V", "b·s·d"];
    const STEP: &[&str] = &["1", "L", "P", "largest", "L·b·s·d", "b·s·V", "b·s·d"];
    // A block's keys and values (a few b·s·kv tensors) are left out: beside its b·s·f tensors
    // they are a sliver, and as a term of their own, fitted on the calibration's small shapes,
    // they stood in for other tensors. GPT-2's b·s·kv is its b·s·d anyway.
    const BACKWARD: &[&[&str]] = &[
        &["1", "L", "L·b·s·d", "b·s·V", "b·s·d"],
        &["1", "L", "b·s·d", "b·s·f", "b·h·s²"],
    ];
    BaseLayout {
        forward: FORWARD,
        backward: BACKWARD,
        step: STEP,
        counting: BackwardCounting::Known,
    }
}

/// The bytes of a checkpointed backward's moments that are known without fitting, from the
/// measured bytes per parameter and the forward's bytes per kept input element.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CheckpointBase {
    /// Weights, optimizer state and the batch: alive through the whole step.
    pub states: f64,
    /// The larger of the block moments' known bytes: the last block's (the states, the head's
    /// and one block's gradients, every other block's kept input) and the first block's (the
    /// states and every gradient but the input embedding's, computed last).
    pub block: f64,
}

impl CheckpointBase {
    /// For shape `m` stored as `storage`, with `per_param` (weights per frozen parameter,
    /// gradients and optimizer state per trained one, as [`StepModel::per_param`]) and
    /// `input_bytes` per element of a kept block input.
    pub fn of(
        m: &ModelConfig,
        storage: WeightStorage,
        per_param: [f64; 3],
        input_bytes: f64,
    ) -> CheckpointBase {
        let (p, trained) = (m.param_count() as f64, m.trainable_count() as f64);
        let [_, grad, state] = per_param;
        let weights = storage.bytes(m, per_param);
        // The step's batch: input ids and labels, int64 each (data/torch-step.py).
        let batch = 16.0 * (m.batch * m.seq_len) as f64;
        let states = weights + state * trained + batch;
        let lora = trained < p;
        let vd = (m.vocab * m.d_model) as f64;
        // The head's gradient comes first (with LoRA the head is frozen); the input
        // embedding's last, unless it is the head's (GPT-2's tied head).
        let head = if lora { 0.0 } else { grad * vd };
        let embedding = if lora || m.tied { 0.0 } else { grad * vd };
        let grads = grad * trained;
        let l = m.layers.max(1) as f64;
        let inputs = input_bytes * (l - 1.0) * (m.batch * m.seq_len * m.d_model) as f64;
        let last = states + head + (grads - head - embedding).max(0.0) / l + inputs;
        let first = states + grads - embedding;
        CheckpointBase {
            states,
            block: last.max(first),
        }
    }

    /// The known bytes under backward form `i` (0: the loss's moment, 1: a block's).
    pub fn of_form(&self, i: usize) -> f64 {
        if i == 0 {
            self.states
        } else {
            self.block
        }
    }
}

/// transformers with eager attention: its scores, their softmax and dropout and all their
/// gradients are written out, so a block's attention and FFN gradients are one moment of
/// backward's peak, not two.
fn eager_layout(family: Family) -> BaseLayout {
    const BACKWARD: &[&[&str]] = &[
        &["1", "b·s·V", "V·d", "b·s·d"],
        &["1", "L", "P", "b·h·s²", "L·b·h·s²", "b·s·f", "b·s·d"],
    ];
    let base = base_layout(family);
    BaseLayout {
        forward: base.forward,
        backward: BACKWARD,
        step: base.step,
        counting: BackwardCounting::Forward,
    }
}

/// A family's terms without LoRA.
struct BaseLayout {
    forward: &'static [&'static str],
    backward: &'static [&'static [&'static str]],
    step: &'static [&'static str],
    counting: BackwardCounting,
}

fn base_layout(family: Family) -> BaseLayout {
    match family {
        Family::Mlp => {
            const ALL: &[&str] = &["1", "layers", "P", "b·in", "b·Σhidden"];
            BaseLayout {
                forward: ALL,
                backward: &[&["1", "layers", "P", "largest", "b·in", "b·Σhidden"]],
                step: &["1", "layers", "P", "largest", "b·in", "b·Σhidden"],
                counting: BackwardCounting::Forward,
            }
        }
        Family::Cnn => {
            const ALL: &[&str] = &["1", "P", "b·px·c1", "b·px·c2/4", "b·px"];
            BaseLayout {
                forward: ALL,
                // Backward's peak is the larger of two moments: the second conv's backward
                // (its input's unfolded copy, b·px·c1 sized) and the first conv's, at full
                // resolution (b·px) with nearly every gradient in.
                backward: &[
                    &["1", "P", "b·px·c1", "b·px·c2/4"],
                    &["1", "P", "b·px·c1", "b·px"],
                ],
                step: &["1", "P", "largest", "b·px·c1", "b·px·c2/4", "b·px"],
                counting: BackwardCounting::Forward,
            }
        }
        // GPT-2 attention has as many key/value heads as query heads: its b·s·kv is b·s·d, one
        // term, not two that least squares could not tell apart.
        Family::Gpt => BaseLayout {
            forward: &[
                "1",
                "L",
                "P",
                "L·b·s·d",
                "L·b·s·f",
                "L·b·h·s²",
                "b·s·V",
                "b·s·d",
            ],
            backward: &[
                // The loss's gradients (b·s·V) and the head's (V·d): the first moment.
                &["1", "b·s·V", "V·d", "b·s·d"],
                // Inside a block's attention: its softmax's gradients (b·h·s²) beside the
                // parameters' gradients so far and the mask's (L·b·h·s²).
                &["1", "L", "P", "b·h·s²", "L·b·h·s²", "b·s·d"],
                // Inside a block's FFN, or at the end: the FFN's gradients (b·s·f).
                &["1", "L", "P", "L·b·h·s²", "b·s·f", "b·s·d"],
            ],
            step: &[
                "1",
                "L",
                "P",
                "largest",
                "L·b·s·d",
                "L·b·s·f",
                "L·b·h·s²",
                "b·h·s²",
                "b·s·V",
                "b·s·d",
            ],
            counting: BackwardCounting::Forward,
        },
        Family::Llama => BaseLayout {
            forward: &[
                "1",
                "L",
                "P",
                "L·b·s·d",
                "L·b·s·f",
                "L·b·s·kv",
                "L·b·h·s²",
                "b·s·V",
                "b·s·d",
            ],
            backward: &[
                &["1", "b·s·V", "V·d", "b·s·d"],
                &["1", "L", "P", "b·h·s²", "L·b·h·s²", "b·s·d", "b·s·kv"],
                &["1", "L", "P", "L·b·h·s²", "b·s·f", "b·s·d"],
            ],
            step: &[
                "1",
                "L",
                "P",
                "largest",
                "L·b·s·d",
                "L·b·s·f",
                "L·b·s·kv",
                "L·b·h·s²",
                "b·h·s²",
                "b·s·V",
                "b·s·d",
            ],
            counting: BackwardCounting::Forward,
        },
    }
}

/// Elements of the largest parameter tensor.
pub fn largest_tensor(m: &ModelConfig) -> u64 {
    let u = |x: usize| x as u64;
    match m.family {
        Family::Mlp => m
            .mlp_widths()
            .windows(2)
            .map(|w| w[0] * w[1])
            .max()
            .unwrap_or(0),
        Family::Gpt => {
            let (d, f) = (u(m.d_model), u(m.ffn_width()));
            [u(m.vocab) * d, u(m.position_rows()) * d, 3 * d * d, d * f]
                .into_iter()
                .max()
                .unwrap_or(0)
        }
        Family::Llama => {
            let (d, f) = (u(m.d_model), u(m.ffn_width()));
            [u(m.vocab) * d, d * d, d * f]
                .into_iter()
                .max()
                .unwrap_or(0)
        }
        Family::Cnn => {
            let side = u(m.image_size / 4);
            (u(m.channels[1]) * side * side * u(m.classes))
                .max(u(m.channels[0]) * u(m.channels[1]) * 9)
        }
    }
}

/// One fitted linear form: bytes = Σ coefficient × term.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Linear {
    /// Term names (see [`terms`]).
    pub terms: Vec<String>,
    /// Bytes per unit of each term.
    pub coefficients: Vec<f64>,
}

impl std::fmt::Display for Linear {
    /// "12.0·P + 3.9·b·s·V + …" (bytes per unit of each term).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .terms
            .iter()
            .zip(&self.coefficients)
            .map(|(t, c)| {
                if t == "1" {
                    format!("{c:.0}")
                } else {
                    format!("{c:.2}·{t}")
                }
            })
            .collect();
        write!(f, "{}", parts.join(" + ").replace("+ -", "− "))
    }
}

impl StepModel {
    /// What its backward forms are counted on top of: a property of the layout it was fitted
    /// with, so read from it rather than stored.
    pub fn counting(&self) -> BackwardCounting {
        layout_for(self.family, self.variant.as_ref()).counting
    }

    /// How its step stores the weights (what `per_param[0]` is per).
    pub fn storage(&self) -> WeightStorage {
        WeightStorage::of(self.dtype, self.variant.as_ref())
    }

    /// The fitted parts, one line each (bytes per unit of each term).
    pub fn describe(&self) -> String {
        let mut out = format!("  {}\n", t!("model-forward-ends", form = self.forward));
        let counting = self.counting();
        for (i, form) in self.backward.iter().enumerate() {
            let open = if i == 0 { "max(" } else { "    " };
            let line = match (counting, i) {
                (BackwardCounting::Forward, _) => {
                    t!("model-backward-adds", open = open, form = form)
                }
                (BackwardCounting::Known, 0) => {
                    t!("model-backward-states", open = open, form = form)
                }
                (BackwardCounting::Known, _) => {
                    t!("model-backward-block", open = open, form = form)
                }
            };
            out.push_str(&format!("  {line}\n"));
        }
        out.push_str(&format!("  {}\n", t!("model-step", form = self.step)));
        out
    }
}

impl Linear {
    /// The coefficient of term `name` (0 if the form does not use it).
    pub fn coefficient(&self, name: &str) -> f64 {
        debug_assert!(
            [Family::Mlp, Family::Gpt, Family::Llama, Family::Cnn]
                .iter()
                .any(|&f| is_term(f, name)),
            "{name:?} is no term"
        );
        self.terms
            .iter()
            .zip(&self.coefficients)
            .find(|(t, _)| t.as_str() == name)
            .map_or(0.0, |(_, c)| *c)
    }

    /// Its value for a shape's terms (negative sums count as 0).
    pub fn eval(&self, t: &HashMap<&'static str, f64>) -> f64 {
        self.terms
            .iter()
            .zip(&self.coefficients)
            .map(|(name, c)| c * t.get(name.as_str()).copied().unwrap_or(0.0))
            .sum::<f64>()
            .max(0.0)
    }
}

/// The fitted model of one family, dtype and optimizer, in one framework.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepModel {
    /// The network family it was fitted on.
    pub family: Family,
    /// Training dtype.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// The optimizer it was fitted with.
    pub optimizer: OptimizerKind,
    /// How the PyTorch step was written (None: Candle's step, or a PyTorch calibration saved
    /// before variants existed, which measured the default one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<crate::memory::variant::Variant>,
    /// Bytes alive when the forward pass ends.
    pub forward: Linear,
    /// The backward pass's extra bytes: the maximum of these forms.
    pub backward: Vec<Linear>,
    /// The optimizer step's peak.
    pub step: Linear,
    /// Measured bytes of the weights per parameter (with LoRA: per frozen parameter), and of the
    /// gradients and optimizer state per trained parameter (the largest calibration shape's),
    /// shown beside the prediction.
    pub per_param: [f64; 3],
    /// Shapes it was fitted on.
    pub calibration_points: usize,
}

/// What the model predicts for one shape.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// Weights (measured bytes per parameter × P).
    pub weights: Bytes,
    /// Gradients of the parameters.
    pub gradients: Bytes,
    /// Optimizer state.
    pub optimizer_state: Bytes,
    /// The backward pass's peak.
    pub backward_peak: Bytes,
    /// The optimizer step's peak.
    pub step_peak: Bytes,
    /// The step's peak: the larger of the two.
    pub peak: Bytes,
    /// The phase the peak falls in.
    pub peak_phase: Phase,
}

impl Prediction {
    /// What the peak holds beyond weights, gradients and optimizer state: activations kept for
    /// backward, gradients of non-parameters, and the phase's temporaries.
    pub fn activations_and_temporaries(&self) -> Bytes {
        Bytes(
            self.peak
                .0
                .saturating_sub(self.weights.0 + self.gradients.0 + self.optimizer_state.0),
        )
    }
}

/// What a model is fitted on: one measured step's shape and the bytes of its phases, from
/// Candle ([`StepMeasurement`]) or from PyTorch (`crate::memory::torch`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PhasePeaks {
    /// The shape.
    pub model: ModelConfig,
    /// Training dtype.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// The optimizer of the step.
    pub optimizer: OptimizerKind,
    /// How the PyTorch step was written (None: Candle's step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<crate::memory::variant::Variant>,
    /// Parameters of the model, adapters included.
    pub params: u64,
    /// Bytes alive when the forward pass (and the loss) ends, weights and state included.
    pub forward_live: f64,
    /// The backward pass's peak.
    pub backward_peak: f64,
    /// The optimizer step's peak.
    pub step_peak: f64,
    /// The step's peak.
    pub peak: f64,
    /// Bytes per parameter of weights, gradients and optimizer state.
    pub per_param: [f64; 3],
}

impl From<&StepMeasurement> for PhasePeaks {
    fn from(m: &StepMeasurement) -> PhasePeaks {
        let phase = |ph: Phase| m.phases.iter().find(|p| p.phase == ph);
        PhasePeaks {
            model: m.config.model.clone(),
            dtype: m.config.dtype,
            optimizer: m.config.optimizer,
            variant: None,
            params: m.params,
            forward_live: phase(Phase::Forward).map_or(0.0, |p| p.live_after.0 as f64),
            backward_peak: phase(Phase::Backward).map_or(0.0, |p| p.peak.0 as f64),
            step_peak: phase(Phase::OptimizerStep).map_or(0.0, |p| p.peak.0 as f64),
            peak: m.ledger.measured_peak.0 as f64,
            per_param: [
                m.per_param.weights,
                m.per_param.gradients,
                m.per_param.optimizer_state,
            ],
        }
    }
}

impl StepModel {
    /// Fits from measured steps of one family, dtype and optimizer (the shapes should vary every
    /// dimension independently: see `validate::calibration_shapes`).
    pub fn fit(steps: &[PhasePeaks]) -> Result<StepModel> {
        let first = steps.first().ok_or_else(|| crate::bad!("fit-no-steps"))?;
        let (family, dtype, optimizer, variant) = (
            first.model.family,
            first.dtype,
            first.optimizer,
            first.variant,
        );
        let lora = first.model.lora.map(|l| l.targets);
        if steps.iter().any(|m| {
            m.model.family != family
                || m.dtype != dtype
                || m.optimizer != optimizer
                || m.variant != variant
                || m.model.lora.map(|l| l.targets) != lora
        }) {
            return Err(crate::bad!("fit-mixed-steps"));
        }
        let too_alike =
            || crate::bad!("fit-too-alike", family = family.name(), count = steps.len());
        let shape_terms: Vec<HashMap<&'static str, f64>> =
            steps.iter().map(|m| terms(&m.model)).collect();
        let scale: Vec<f64> = steps.iter().map(|m| m.peak.max(1.0)).collect();
        // A quantized base's weights are counted (NF4's exact storage, the rest of the base in
        // the step's dtype), and the forward's and the step's forms fitted beyond them (its
        // layout leaves P out).
        let storage = WeightStorage::of(dtype, variant.as_ref());
        let counted = |m: &PhasePeaks| storage.counted(&m.model, m.per_param);
        let forward: Vec<f64> = steps.iter().map(|m| m.forward_live - counted(m)).collect();
        let parts = layout(family, lora.is_some(), variant.as_ref());
        let forward_model =
            weighted_fit(&parts.forward, &shape_terms, &forward, &scale).ok_or_else(too_alike)?;
        // The bytes each backward form is counted on top of, per shape (see BackwardCounting).
        let known: Vec<Vec<f64>> = steps
            .iter()
            .map(|m| match parts.counting {
                BackwardCounting::Forward => vec![0.0; parts.backward.len()],
                BackwardCounting::Known => {
                    let base = CheckpointBase::of(
                        &m.model,
                        storage,
                        m.per_param,
                        forward_model.coefficient("L·b·s·d"),
                    );
                    (0..parts.backward.len()).map(|i| base.of_form(i)).collect()
                }
            })
            .collect();
        let backward: Vec<f64> = steps
            .iter()
            .map(|m| match parts.counting {
                BackwardCounting::Known => m.backward_peak,
                BackwardCounting::Forward => (m.backward_peak - m.forward_live).max(0.0),
            })
            .collect();
        let step: Vec<f64> = steps.iter().map(|m| m.step_peak - counted(m)).collect();
        let largest = steps
            .iter()
            .max_by_key(|m| m.params)
            .expect("steps is not empty");
        Ok(StepModel {
            family,
            dtype,
            optimizer,
            variant,
            forward: forward_model,
            backward: max_fit(&parts.backward, &shape_terms, &backward, &known, &scale)
                .ok_or_else(too_alike)?,
            step: weighted_fit(&parts.step, &shape_terms, &step, &scale).ok_or_else(too_alike)?,
            per_param: largest.per_param,
            calibration_points: steps.len(),
        })
    }

    /// Predicts a step of `m` (its family must be the model's).
    pub fn predict(&self, m: &ModelConfig) -> Prediction {
        self.predict_with(m, AttentionPath::AsMeasured)
    }

    /// Predicts a step of `m` whose attention runs on `path`. A fused kernel writes no s×s
    /// tensor (scores, softmax, dropout mask): the b·h·s² terms drop out, and each layer keeps
    /// its f32 log-sum-exp (b·h·s) for backward instead.
    pub fn predict_with(&self, m: &ModelConfig, path: AttentionPath) -> Prediction {
        let mut t = terms(m);
        let mut kept = 0.0;
        if path == AttentionPath::Fused && matches!(m.family, Family::Gpt | Family::Llama) {
            for name in ["b·h·s²", "L·b·h·s²"] {
                t.insert(name, 0.0);
            }
            kept = 4.0 * (m.layers * m.batch * m.heads * m.seq_len) as f64;
        }
        let counted = self.storage().counted(m, self.per_param) + kept;
        let forward = counted + self.forward.eval(&t);
        let backward = match self.counting() {
            BackwardCounting::Forward => {
                forward + self.backward.iter().map(|f| f.eval(&t)).fold(0.0, f64::max)
            }
            BackwardCounting::Known => {
                let base = CheckpointBase::of(
                    m,
                    self.storage(),
                    self.per_param,
                    self.forward.coefficient("L·b·s·d"),
                );
                let moments = self
                    .backward
                    .iter()
                    .enumerate()
                    .map(|(i, f)| base.of_form(i) + f.eval(&t))
                    .fold(0.0, f64::max);
                // Backward starts from the forward's bytes: its peak is never below them.
                moments.max(forward)
            }
        };
        let step = counted + self.step.eval(&t);
        let trained = m.trainable_count() as f64;
        let bytes = |per: f64, n: f64| Bytes((per * n) as u64);
        Prediction {
            weights: Bytes(self.storage().bytes(m, self.per_param) as u64),
            gradients: bytes(self.per_param[1], trained),
            optimizer_state: bytes(self.per_param[2], trained),
            backward_peak: Bytes(backward as u64),
            step_peak: Bytes(step as u64),
            peak: Bytes(backward.max(step) as u64),
            peak_phase: if step > backward {
                Phase::OptimizerStep
            } else {
                Phase::Backward
            },
        }
    }
}

/// Where a step's attention runs: as in the measured step, or in a fused kernel (PyTorch's
/// flash and memory-efficient SDPA on CUDA) that never writes the s×s scores out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttentionPath {
    /// The tensors the calibration's step held.
    AsMeasured,
    /// Flash or memory-efficient attention: output and log-sum-exp kept, no b·h·s² tensor.
    Fused,
}

/// How a step stores its weights: what `per_param[0]` of [`StepModel::per_param`] is per.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeightStorage {
    /// The step's dtype: a quantized base keeps its other frozen weights in it.
    pub dtype: DType,
    /// The frozen base's block linears are quantized (QLoRA): they weigh what NF4's storage
    /// holds exactly ([`ModelConfig::nf4_bytes`]), and `per_param[0]` is the measured bytes per
    /// quantized weight (shown, not used: at small shapes the per-layer constants inflate it).
    pub quantized: bool,
}

impl WeightStorage {
    /// For a step in `dtype` written as `variant`.
    pub fn of(dtype: DType, variant: Option<&crate::memory::variant::Variant>) -> WeightStorage {
        WeightStorage {
            dtype,
            quantized: variant.is_some_and(|v| v.quant.is_some()),
        }
    }

    /// The weights' bytes of shape `m` from the measured bytes per parameter (`per_param`):
    /// with LoRA, `per_param[0]` is the frozen weights' and the adapters weigh what their
    /// gradients do; a quantized base weighs what NF4's storage holds, the rest of it in the
    /// step's dtype ([`ModelConfig::nf4_base_bytes`]).
    pub fn bytes(&self, m: &ModelConfig, per_param: [f64; 3]) -> f64 {
        let (p, trained) = (m.param_count() as f64, m.trainable_count() as f64);
        if self.quantized {
            m.nf4_base_bytes(self.dtype.size_in_bytes() as f64) + per_param[1] * trained
        } else if trained < p {
            per_param[0] * (p - trained) + per_param[1] * trained
        } else {
            per_param[0] * p
        }
    }

    /// The weights' bytes a fitted form is counted on top of rather than fitting: a
    /// quantized base's (see [`layout`]); 0 otherwise.
    pub fn counted(&self, m: &ModelConfig, per_param: [f64; 3]) -> f64 {
        if self.quantized {
            self.bytes(m, per_param)
        } else {
            0.0
        }
    }

    /// The inverse of [`WeightStorage::bytes`]: `per_param[0]` from a step's measured `weights`
    /// and its trained parameters' bytes.
    pub fn per_frozen(&self, m: &ModelConfig, weights: f64, trained_bytes: f64) -> f64 {
        let (p, trained) = (m.param_count() as f64, m.trainable_count() as f64);
        if self.quantized {
            // Measured bytes per quantized weight: the base less its 16-bit rest.
            let q = m.block_linear_params() as f64;
            let rest = m.nf4_base_bytes(self.dtype.size_in_bytes() as f64) - m.nf4_bytes() as f64;
            (weights - trained_bytes - rest).max(0.0) / q.max(1.0)
        } else if trained < p {
            (weights - trained_bytes).max(0.0) / (p - trained)
        } else {
            weights / p.max(1.0)
        }
    }
}

/// Non-negative least squares of `y` on the named terms, each row weighted by 1/`scale`
/// (relative error).
fn weighted_fit(
    names: &[&str],
    shapes: &[HashMap<&'static str, f64>],
    y: &[f64],
    scale: &[f64],
) -> Option<Linear> {
    let rows: Vec<Vec<f64>> = shapes
        .iter()
        .zip(scale)
        .map(|(t, s)| {
            names
                .iter()
                .map(|n| t.get(n).copied().unwrap_or(0.0) / s)
                .collect()
        })
        .collect();
    let target: Vec<f64> = y.iter().zip(scale).map(|(v, s)| v / s).collect();
    // Every term counts tensors (or per-parameter bytes): non-negative coefficients only.
    let coefficients = crate::stats::least_squares::nonnegative(&rows, &target)?;
    Some(Linear {
        terms: names.iter().map(|n| n.to_string()).collect(),
        coefficients,
    })
}

/// y ≈ the maximum over forms k of `known[k]` + a linear form (max-affine regression, weighted
/// like [`weighted_fit`]; `known` holds, per shape, the bytes each form is counted on top of).
/// Starts by giving each shape to the form whose own terms make up the larger share of it (each
/// form fitted alone on all shapes first), then alternates: refit each form on its shapes, give
/// each shape to the form that predicts it larger; stops when no shape moves (at most 50 rounds).
fn max_fit(
    forms: &[Vec<&str>],
    shapes: &[HashMap<&'static str, f64>],
    y: &[f64],
    known: &[Vec<f64>],
    scale: &[f64],
) -> Option<Vec<Linear>> {
    let beyond = |k: usize| -> Vec<f64> { y.iter().zip(known).map(|(v, o)| v - o[k]).collect() };
    let mut fitted: Vec<Linear> = forms
        .iter()
        .enumerate()
        .map(|(k, names)| weighted_fit(names, shapes, &beyond(k), scale))
        .collect::<Option<_>>()?;
    if forms.len() == 1 {
        return Some(fitted);
    }
    let argmax = |fitted: &[Linear]| -> Vec<usize> {
        shapes
            .iter()
            .zip(known)
            .map(|(t, o)| {
                let at = |k: usize| o[k] + fitted[k].eval(t);
                (0..fitted.len())
                    .max_by(|&a, &b| at(a).total_cmp(&at(b)))
                    .unwrap_or(0)
            })
            .collect()
    };
    let mut assign = argmax(&fitted);
    for _ in 0..50 {
        for (k, names) in forms.iter().enumerate() {
            let mine: Vec<usize> = (0..shapes.len()).filter(|&i| assign[i] == k).collect();
            if mine.len() < names.len() {
                continue;
            }
            let target = beyond(k);
            let pick = |v: &[f64]| mine.iter().map(|&i| v[i]).collect::<Vec<_>>();
            let sub: Vec<HashMap<&'static str, f64>> =
                mine.iter().map(|&i| shapes[i].clone()).collect();
            if let Some(f) = weighted_fit(names, &sub, &pick(&target), &pick(scale)) {
                fitted[k] = f;
            }
        }
        let next = argmax(&fitted);
        if next == assign {
            break;
        }
        assign = next;
    }
    Some(fitted)
}
