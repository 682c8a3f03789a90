//! The course's training workloads, `data/lessons.toml`: every lesson that builds or trains a
//! network, and the GPU-sized recipes its docs describe, with what `fit` needs to size them.
//! Embedded at compile time and validated on load (unknown keys, missing fields, impossible
//! values → an error naming the file, line and field). Also what a workload holds, by category
//! ([`WorkloadMemory`], sized by `fit`).

use serde::{Deserialize, Serialize};

use crate::error::Result;

/// The file as shipped.
pub const LESSONS_TOML: &str = include_str!("../../data/lessons.toml");

/// What the run does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunMode {
    /// Full training: forward, backward, optimizer step.
    Train,
    /// LoRA/QLoRA: backward through a frozen base, adapters updated.
    LoraTrain,
    /// One forward and backward, no optimizer.
    ForwardBackward,
    /// Forward passes only.
    Forward,
    /// Generation/inference.
    Inference,
    /// The code trains no network.
    None,
}

impl RunMode {
    /// What a person reads (never the Rust name).
    pub fn describe(self) -> String {
        match self {
            RunMode::Train => t!("run-train"),
            RunMode::LoraTrain => t!("run-lora"),
            RunMode::ForwardBackward => t!("run-forward-backward"),
            RunMode::Forward => t!("run-forward"),
            RunMode::Inference => t!("run-inference"),
            RunMode::None => t!("run-none"),
        }
    }
}

/// One workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// Lesson id ("04-computer-vision/05-transfer-learning") or recipe id ("recipe/…").
    pub id: String,
    /// The lesson's or recipe's title, as people read it.
    pub title: String,
    /// For recipes: the lesson that describes them.
    #[serde(default)]
    pub lesson: Option<String>,
    /// Architecture kind as the lesson names it.
    pub kind: String,
    /// The framework its code runs (the course's lessons: PyTorch; gpulab's labs: Candle).
    #[serde(default)]
    pub framework: crate::memory::calibration::Framework,
    /// Parameters of every model the run builds.
    pub params: u64,
    /// Parameters of further models alive at the same time (weights only).
    #[serde(default)]
    pub extra_params: u64,
    /// Trainable parameters when not all are (LoRA, head-only).
    #[serde(default)]
    pub trainable_params: Option<u64>,
    /// Batch size.
    pub batch: u64,
    /// Sequence length (tokens).
    #[serde(default)]
    pub seq_len: Option<u64>,
    /// Image side.
    #[serde(default)]
    pub image_size: Option<u64>,
    /// Transformer layers.
    #[serde(default)]
    pub layers: Option<u64>,
    /// Transformer width.
    #[serde(default)]
    pub d_model: Option<u64>,
    /// Attention heads.
    #[serde(default)]
    pub heads: Option<u64>,
    /// Vocabulary size (transformers), for the logits.
    #[serde(default)]
    pub vocab: Option<u64>,
    /// The exact model a recipe trains, as an `estimate` preset ("llama-3-8b", "gpt2"): its
    /// measured memory comes from the PyTorch (transformers) model of that shape.
    #[serde(default)]
    pub preset: Option<String>,
    /// LoRA's rank in the recipe (its adapted layers: `lora_targets`, default q and v).
    #[serde(default)]
    pub lora_rank: Option<u64>,
    /// LoRA's adapted layers.
    #[serde(default)]
    pub lora_targets: Option<crate::memory::models::LoraTargets>,
    /// f32, f64, f16, bf16 (mixed precision: the lessons run PyTorch), nf4.
    pub dtype: crate::memory::formulas::Precision,
    /// sgd, momentum, adamw, or none (no training).
    #[serde(with = "optimizer_or_none")]
    pub optimizer: Option<crate::memory::optim::OptimizerKind>,
    /// What the run does.
    pub mode: RunMode,
    /// Steps (or passes) of one full run.
    pub steps: u64,
    /// Tokens of the whole run (recipes).
    #[serde(default)]
    pub tokens: Option<u64>,
    /// Forward FLOPs per sample, where 2·P is wrong.
    #[serde(default)]
    pub flops_per_sample: Option<f64>,
    /// Training activations per sample, MB, where no formula applies.
    #[serde(default)]
    pub activation_mb_per_sample: Option<f64>,
    /// Activation checkpointing in the recipe.
    #[serde(default)]
    pub checkpointing: bool,
    /// The code has no GPU path.
    #[serde(default)]
    pub cpu_only: bool,
    /// The code has a GPU path but hard-codes `device="cpu"`: as written it never uses a GPU.
    #[serde(default)]
    pub cpu_pinned: bool,
    /// Hours the doc states.
    #[serde(default)]
    pub doc_hours: Option<f64>,
    /// GPU the doc states.
    #[serde(default)]
    pub doc_gpu: Option<String>,
    /// Notes (estimates are said to be).
    #[serde(default)]
    pub note: Option<String>,
    /// The note in Korean (the learner's language; `note_text` picks).
    #[serde(default)]
    pub note_ko: Option<String>,
    /// Where the facts come from.
    pub source: String,
}

/// What a workload is, by its id's prefix: the course's own lesson code, a recipe its docs
/// describe ("recipe/…"), or one of gpulab's labs ("lab/…").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A lesson's own code.
    Lesson,
    /// A GPU-sized recipe from a lesson's docs.
    Recipe,
    /// A gpulab lab.
    Lab,
}

impl Origin {
    /// The origin an id names.
    pub fn of(id: &str) -> Origin {
        if id.starts_with("recipe/") {
            Origin::Recipe
        } else if id.starts_with("lab/") {
            Origin::Lab
        } else {
            Origin::Lesson
        }
    }
}

impl Workload {
    /// Where it comes from.
    pub fn origin(&self) -> Origin {
        Origin::of(&self.id)
    }

    /// The note in the chosen language (English where no Korean is written).
    pub fn note_text(&self) -> Option<String> {
        match crate::i18n::current() {
            crate::i18n::Lang::Ko => self.note_ko.clone().or_else(|| self.note.clone()),
            crate::i18n::Lang::En => self.note.clone(),
        }
    }
}

/// serde for a lesson's optimizer: "sgd", "momentum", "adamw", or "none".
mod optimizer_or_none {
    use crate::memory::optim::OptimizerKind;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(o: &Option<OptimizerKind>, s: S) -> Result<S::Ok, S::Error> {
        match o {
            Some(kind) => kind.serialize(s),
            None => s.serialize_str("none"),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<OptimizerKind>, D::Error> {
        match String::deserialize(d)?.as_str() {
            "none" => Ok(None),
            "sgd" => Ok(Some(OptimizerKind::Sgd)),
            "momentum" => Ok(Some(OptimizerKind::Momentum)),
            "adamw" => Ok(Some(OptimizerKind::Adamw)),
            other => Err(serde::de::Error::custom(t!(
                "data-optimizer",
                given = format!("{other:?}")
            ))),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    workload: Vec<Workload>,
}

/// Parses and validates workload TOML; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<Vec<Workload>> {
    let parsed: File = crate::files::parse_toml(text, file)?;
    let mut seen = std::collections::HashSet::new();
    for w in &parsed.workload {
        let line = crate::files::line_of(text, &format!("id = \"{}\"", w.id));
        let bad = |field: &str, why: String| {
            crate::files::field_error(file, line, t!("kind-workload"), &w.id, field, why)
        };
        if !seen.insert(w.id.clone()) {
            return Err(bad("id", t!("data-duplicate")));
        }
        if w.params == 0 {
            return Err(bad("params", t!("data-at-least-one")));
        }
        if w.batch == 0 {
            return Err(bad("batch", t!("data-at-least-one")));
        }
        if w.trainable_params.is_some_and(|t| t > w.params) {
            return Err(bad("trainable_params", t!("data-trainable")));
        }
        if let (Some(d), Some(h)) = (w.d_model, w.heads) {
            if h == 0 || d % h != 0 {
                return Err(bad("heads", t!("data-heads")));
            }
        }
        if w.mode != RunMode::None && w.steps == 0 && w.tokens.is_none() {
            return Err(bad("steps", t!("data-steps")));
        }
        for (field, v) in [
            ("flops_per_sample", w.flops_per_sample),
            ("activation_mb_per_sample", w.activation_mb_per_sample),
            ("doc_hours", w.doc_hours),
        ] {
            if v.is_some_and(|x| !(x.is_finite() && x > 0.0)) {
                return Err(bad(field, t!("data-positive")));
            }
        }
    }
    Ok(parsed.workload)
}

/// The shipped workloads (validated by a test).
pub fn shipped() -> Vec<Workload> {
    parse(LESSONS_TOML, "data/lessons.toml").expect("data/lessons.toml is validated by tests")
}

/// Finds a workload by id or by a unique part of it; the error suggests the closest ids.
pub fn find<'a>(workloads: &'a [Workload], query: &str) -> Result<&'a Workload> {
    if let Some(w) = workloads.iter().find(|w| w.id == query) {
        return Ok(w);
    }
    let hits: Vec<&Workload> = workloads.iter().filter(|w| w.id.contains(query)).collect();
    if hits.len() == 1 {
        return Ok(hits[0]);
    }
    // Learners type the lesson's slug, not its phase: its last part counts too, with and
    // without the "NN-" number.
    let forms = |id: &'a str| {
        let last = id.rsplit('/').next().unwrap_or(id);
        let bare = last.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-');
        vec![id, last, bare]
    };
    let near = crate::suggest::closest(
        query,
        workloads.iter().map(|w| (w.id.as_str(), forms(&w.id))),
        3,
    );
    let names: Vec<&str> = if hits.len() > 1 {
        hits.iter().map(|w| w.id.as_str()).collect()
    } else {
        near
    };
    let (given, guesses) = (format!("{query:?}"), names.join(", "));
    Err(if hits.len() > 1 {
        crate::bad!("lesson-ambiguous", given = given, guesses = guesses)
    } else {
        crate::bad!("lesson-unknown", given = given, guesses = guesses)
    })
}

/// Memory of a workload, by category.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkloadMemory {
    /// Weights of every model alive.
    pub weights: crate::units::Bytes,
    /// Gradients of the trained parameters.
    pub gradients: crate::units::Bytes,
    /// Optimizer state (with the fp32 master copy in mixed precision).
    pub optimizer_state: crate::units::Bytes,
    /// Activations kept for backward at the peak, with their source below.
    pub activations: crate::units::Bytes,
    /// How activations were sized.
    pub activations_source: String,
}

impl WorkloadMemory {
    /// Everything but the CUDA context.
    pub fn total(&self) -> crate::units::Bytes {
        crate::units::Bytes(
            self.weights.0 + self.gradients.0 + self.optimizer_state.0 + self.activations.0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_note_has_its_korean() {
        for w in shipped() {
            assert_eq!(
                w.note.is_some(),
                w.note_ko.is_some(),
                "{}: a note needs its Korean (note_ko) in data/lessons.toml",
                w.id
            );
        }
    }

    #[test]
    fn shipped_lessons_are_valid_and_cover_the_catalog() {
        let w = parse(LESSONS_TOML, "data/lessons.toml").unwrap();
        assert_eq!(
            w.iter().filter(|w| w.origin() == Origin::Lesson).count(),
            27
        );
        assert!(w.iter().any(|w| w.id == "recipe/qlora-llama3-8b"));
        let resnet = find(&w, "05-transfer-learning").unwrap();
        assert_eq!(resnet.params, 11_181_642);
        assert!(find(&w, "transfer-lerning")
            .unwrap_err()
            .to_string()
            .contains("05-transfer-learning"));
        assert!(find(&w, "recipe")
            .unwrap_err()
            .to_string()
            .contains("ambiguous"));
    }

    #[test]
    fn bad_entries_name_the_line_and_field() {
        let good = "[[workload]]\nid = \"a\"\ntitle = \"A\"\nkind = \"mlp\"\nparams = 10\nbatch = 1\ndtype = \"f32\"\noptimizer = \"sgd\"\nmode = \"train\"\nsteps = 5\nsource = \"x\"\n";
        assert!(parse(good, "l.toml").is_ok());
        let err = parse(&good.replace("params = 10", "params = 0"), "l.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("l.toml:2") && err.contains("params"), "{err}");
        let err = parse(&good.replace("steps = 5", "stepz = 5"), "l.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("stepz"), "{err}");
        let err = parse(&good.replace("\"f32\"", "\"f8\""), "l.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("dtype"), "{err}");
        assert!(parse(
            &good.replace("mode = \"train\"", "mode = \"dream\""),
            "l.toml"
        )
        .is_err());
    }
}
