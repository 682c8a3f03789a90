//! `gpulab fit`: for every course workload and every target — this CPU, each local GPU, Colab's
//! free T4, cloud L4 / A100 / H100 — does it fit, how long does it take, what does it cost, and
//! which target should a learner pick.
//!
//! Memory (per workload, labelled *formula* — the lessons run PyTorch, so the textbook terms of
//! [`crate::plan::estimate`] apply): weights (+ other models alive), gradients and optimizer state of
//! the trainable parameters, activations (Korthikanti for transformers with a known shape, the
//! lesson file's per-sample figure elsewhere, else a rough `batch · 16·√P` values), and on a GPU
//! the CUDA context.
//!
//! Time: steps × (the larger of a step's compute and memory time + a per-step floor), in
//! [`crate::plan::timing`]. FLOPs: training 3× the forward (forward + backward at twice the
//! forward), LoRA 2× (no weight gradients for the frozen base), forward-backward 3×, forward 1×;
//! the forward is 2·P per token (transformers, Kaplan et al. 2020's 6·P·tokens for training) or
//! the lesson file's per-sample figure (CNNs). A run that fits but takes longer than a day on a
//! CPU, or longer than Colab's 12-hour session on its free T4, is judged impractical there.
//!
//! One file on purpose: a verdict's memory, time, cost and recommendation are one
//! judgement, read together.

use serde::{Deserialize, Serialize};

use crate::memory::formulas::CUDA_CONTEXT_TYPICAL;
use crate::plan::lessons::{RunMode, Workload};
use crate::probe::gpus::{Catalog, GpuSpec};
use crate::units::Bytes;

/// Free GPU sessions (Colab) end after at most 12 hours (data/docs/platforms.md).
pub const FREE_SESSION_HOURS: f64 = crate::probe::session::COLAB_FREE_SESSION_H;
/// The catalogue GPU a multi-GPU plan is made on when no single GPU holds a workload.
const MULTI_GPU_PLAN_ON: &str = "H100-SXM";

/// The target that stands for Colab's free T4 (free, and bounded by its session).
pub const COLAB_FREE_T4: &str = "T4 (Colab free)";

/// This CPU's target name (an identifier, like [`COLAB_FREE_T4`]; people read
/// [`target_label`]'s translation).
pub const THIS_CPU: &str = "this CPU";

/// A target's name as a person reads it: the two names gpulab gives are translated, GPU
/// names are names.
pub fn target_label(name: &str) -> String {
    match name {
        THIS_CPU => t!("target-this-cpu"),
        COLAB_FREE_T4 => t!("target-colab-free-t4"),
        other => other.to_string(),
    }
}

/// What bounds a step, as a person reads it.
pub fn bound_label(bound: crate::bench::roofline::Bound) -> String {
    use crate::bench::roofline::Bound;
    match bound {
        Bound::Compute => t!("bound-compute"),
        Bound::Memory => t!("bound-memory"),
        Bound::Overhead => t!("bound-overhead"),
    }
}
/// A run longer than this on a CPU is not a lesson one waits for: "✗ too slow" there, whatever
/// the memory says.
pub const CPU_PRACTICAL_HOURS: f64 = 24.0;
/// Longer than this on a CPU, and a learner should use a GPU.
pub const CPU_PATIENCE_HOURS: f64 = 0.5;

/// Every target a workload is judged on, in the order tables show them: this CPU (measured by
/// the caller: now, or from a bench it already ran), each GPU the driver lists, then Colab's and
/// the cloud's GPUs from the catalogue.
pub fn targets(
    cpu: Target,
    driver: &crate::probe::nvidia_smi::DriverView,
    catalog: &Catalog,
) -> Vec<Target> {
    let mut all = vec![cpu];
    all.extend(local_gpus(driver, catalog));
    all.extend(Target::cloud(catalog));
    all
}

/// `fit --json`: the targets and every verdict (schema `gpulab.fit`, version [`FIT_SCHEMA_VERSION`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FitReport {
    /// What this file is, and who wrote it when.
    #[serde(flatten)]
    pub header: crate::files::Header,
    /// The targets, in table order.
    pub targets: Vec<Target>,
    /// One verdict per workload.
    pub verdicts: Vec<Verdict>,
}

/// Version of `fit --json`'s schema (2: targets carry their rates; cells say when a run is
/// impractical).
pub const FIT_SCHEMA_VERSION: u32 = 2;

impl FitReport {
    /// Judges every workload on every target.
    pub fn judge_all(workloads: &[&Workload], targets: Vec<Target>) -> FitReport {
        let verdicts = workloads.iter().map(|w| judge(w, &targets)).collect();
        FitReport {
            header: crate::files::Header::new("gpulab.fit", FIT_SCHEMA_VERSION),
            targets,
            verdicts,
        }
    }

    /// The terminal text of `gpulab fit`: how it judges, the targets, the table, multi-GPU plans.
    pub fn to_text(&self) -> String {
        let mut out = t!(
            "fit-intro",
            cpu_floor = format!("{:.1}", crate::plan::timing::CPU_STEP_FLOOR_S * 1e3),
            gpu_floor = format!("{:.1}", crate::plan::timing::GPU_STEP_FLOOR_S * 1e3),
            cpu_hours = format!("{CPU_PRACTICAL_HOURS:.0}"),
            colab_hours = format!("{FREE_SESSION_HOURS:.0}")
        ) + "\n";
        for t in &self.targets {
            out.push_str(&format!(
                "  {}\n",
                t!(
                    "fit-target-line",
                    name = target_label(&t.name),
                    memory = t.memory,
                    source = t.rates.source
                )
            ));
        }
        out.push('\n');
        out.push_str(&table(&self.verdicts).to_text());
        if self
            .verdicts
            .iter()
            .any(|v| v.cells.iter().any(|c| c.caveat.is_some()))
        {
            out.push_str(&(t!("fit-caveat-legend") + "\n"));
        }
        for v in &self.verdicts {
            if let Some(p) = &v.multi_gpu {
                out.push_str(&format!("{}: {}\n", v.id, p.summary()));
            }
        }
        out
    }
}

/// A place to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// Short name: "cpu", "local:0 RTX 3090", "T4 (Colab)", "A100-80GB".
    pub name: String,
    /// Memory available for the workload.
    pub memory: Bytes,
    /// Is it a GPU (context memory, CUDA)?
    pub gpu: bool,
    /// Hourly price range (USD).
    pub price: (f64, f64),
    /// How fast it is, and where that comes from.
    pub rates: crate::plan::timing::Rates,
    /// The catalogue's id (data/gpus.toml) when the target is a catalogue GPU: its identity,
    /// where `name` is what people read.
    pub gpu_id: Option<String>,
}

impl Target {
    /// A cloud or Colab GPU from the catalog.
    pub fn from_catalog(spec: &GpuSpec, name: &str) -> Target {
        Target {
            name: name.to_string(),
            memory: spec.memory(),
            gpu: true,
            price: (spec.price_usd_hour_low, spec.price_usd_hour_high),
            rates: gpu_rates(spec),
            gpu_id: Some(spec.id.clone()),
        }
    }

    /// The standard cloud targets: Colab's free T4, L4, A100 80 GB, H100 SXM.
    pub fn cloud(catalog: &Catalog) -> Vec<Target> {
        [
            ("T4", COLAB_FREE_T4),
            ("L4", "L4"),
            ("A100-80GB", "A100-80GB"),
            (MULTI_GPU_PLAN_ON, "H100"),
        ]
        .iter()
        .filter_map(|(id, name)| catalog.get(id).ok().map(|g| Target::from_catalog(g, name)))
        .map(|mut t| {
            // The catalogue's T4 price is a rented one; Colab's free tier costs nothing.
            if t.name == COLAB_FREE_T4 {
                t.price = (0.0, 0.0);
            }
            t
        })
        .collect()
    }
}

/// A catalogue GPU's rates: datasheet peaks and bandwidth.
fn gpu_rates(spec: &GpuSpec) -> crate::plan::timing::Rates {
    crate::plan::timing::Rates::gpu(
        spec.fp32_tflops,
        spec.fp16_tflops.max(spec.bf16_tflops),
        spec.bandwidth_gbs,
        t!(
            "fit-datasheet",
            name = spec.name,
            f32 = spec.fp32_tflops,
            half = spec.fp16_tflops.max(spec.bf16_tflops),
            share = format!(
                "{:.0}",
                crate::plan::timing::GPU_LARGE_MATMUL_FRACTION * 100.0
            ),
            bandwidth = spec.bandwidth_gbs
        ),
    )
}

/// This CPU as a target: available RAM, and its rates from the cache in data/runs (measured
/// now when there is none for this CPU, or when `remeasure`).
pub fn this_cpu(remeasure: bool) -> Target {
    cpu_target(crate::plan::timing::this_cpu_rates(remeasure))
}

/// This CPU as a target, its rates taken from a bench already run.
pub fn cpu_from_bench(report: &crate::bench::BenchReport) -> Target {
    cpu_target(crate::plan::timing::cpu_rates_from_bench(report))
}

fn cpu_target(rates: crate::plan::timing::Rates) -> Target {
    Target {
        name: THIS_CPU.into(),
        memory: crate::probe::host::available_ram(),
        gpu: false,
        price: (0.0, 0.0),
        rates,
        gpu_id: None,
    }
}

/// Local GPUs as nvidia-smi lists them (throughput from the catalog when recognised).
pub fn local_gpus(driver: &crate::probe::nvidia_smi::DriverView, catalog: &Catalog) -> Vec<Target> {
    driver
        .gpus
        .iter()
        .filter_map(|g| {
            let memory = g.memory_total?;
            let spec = catalog.recognise(&g.name);
            Some(Target {
                name: format!("local:{} {}", g.index, g.name),
                memory,
                gpu: true,
                price: (0.0, 0.0),
                rates: spec.map(gpu_rates).unwrap_or_else(|| {
                    crate::plan::timing::Rates::gpu(5.0, 10.0, 300.0, t!("fit-unknown-gpu-rates"))
                }),
                gpu_id: spec.map(|s| s.id.clone()),
            })
        })
        .collect()
}

/// The detail of one verdict, for `fit --lesson`.
pub fn detail(w: &Workload, v: &Verdict, targets: &[Target]) -> String {
    use crate::table::pad;
    use std::fmt::Write as _;
    let mut out = format!("{} — {}\n", w.id, w.title);
    let _ = writeln!(
        out,
        "{}",
        t!(
            "fit-detail-params",
            params = w.params,
            trainable = w
                .trainable_params
                .map(|n| t!("fit-trainable", count = n))
                .unwrap_or_default(),
            dtype = w.dtype.name(),
            optimizer = w
                .optimizer
                .map_or_else(|| t!("fit-no-optimizer"), |o| o.name().to_string()),
            batch = w.batch,
            mode = w.mode.describe(),
            note = w
                .note_text()
                .map(|n| format!("\n{}", t!("fit-note", text = n)))
                .unwrap_or_default()
        )
    );
    let m = &v.memory;
    let _ = writeln!(out, "\n{}", t!("fit-memory-heading"));
    for (name, b) in [
        (t!("mem-weights"), m.weights),
        (t!("mem-gradients"), m.gradients),
        (t!("mem-optimizer-state"), m.optimizer_state),
        (t!("mem-activations"), m.activations),
    ] {
        let _ = writeln!(out, "  {} {b}", pad(&name, 16));
    }
    let _ = writeln!(
        out,
        "  {} {}",
        pad(&t!("mem-total"), 16),
        t!(
            "fit-total-line",
            total = m.total(),
            source = m.activations_source
        )
    );
    let _ = writeln!(
        out,
        "  {}",
        t!("fit-cuda-context", size = CUDA_CONTEXT_TYPICAL)
    );
    let _ = writeln!(
        out,
        "\n{}",
        t!("fit-work", flops = format!("{:.3e}", v.flops))
    );
    let _ = writeln!(out, "\n{}", t!("fit-targets"));
    for (c, t) in v.cells.iter().zip(targets) {
        let state = if !c.runnable {
            t!("fit-state-na")
        } else if !c.fits {
            t!("fit-state-too-small")
        } else if c.impractical.is_some() {
            t!("fit-state-too-slow")
        } else {
            t!("fit-state-fits")
        };
        let _ = writeln!(
            out,
            "  {}",
            t!(
                "fit-target-detail",
                name = pad(&target_label(&c.target), 22),
                state = pad(&state, 9),
                needed = format!("{:>10}", c.needed.to_string()),
                memory = format!("{:>10}", t.memory.to_string()),
                time = format!("{:>6}", fmt_hours(c.hours)),
                cost = crate::probe::session::usd_range(c.cost),
                source = t.rates.source
            )
        );
        if let Some(s) = &c.step {
            let _ = writeln!(
                out,
                "  {} {}",
                pad("", 22),
                t!(
                    "fit-step",
                    compute = format!("{:.2}", s.compute_s * 1e3),
                    n = format!("{:.0}", s.n_eff),
                    memory = format!("{:.2}", s.memory_s * 1e3),
                    floor = format!("{:.2}", s.floor_s * 1e3),
                    bound = bound_label(s.bound)
                )
            );
        }
        let caveat = c.caveat.as_ref().map(|_| t!("fit-caveat-cpu-pinned"));
        for note in impractical_text(c).iter().chain(&caveat).chain(&c.recorded) {
            let _ = writeln!(out, "  {} {note}", pad("", 22));
        }
    }
    if let (Some(h), Some(g)) = (w.doc_hours, &w.doc_gpu) {
        let _ = writeln!(out, "  {}", t!("fit-doc-says", hours = h, gpu = g));
    }
    let _ = writeln!(
        out,
        "\n{}",
        t!("fit-recommended", text = recommendation_text(v))
    );
    if let Some(p) = &v.multi_gpu {
        let _ = writeln!(out, "{}", t!("fit-multi-gpu", text = p.summary()));
        let pretty = |v: serde_json::Value| serde_json::to_string_pretty(&v).unwrap_or_default();
        let _ = writeln!(
            out,
            "\n{}",
            t!(
                "fit-configs",
                deepspeed = pretty(p.deepspeed_config()),
                accelerate = pretty(p.accelerate_fsdp_config()),
                first = p.launch_commands()[0],
                second = p.launch_commands()[1],
                id = v.id
            )
        );
    }
    out
}

pub use crate::plan::lessons::WorkloadMemory;

/// The memory model (see the module docs).
pub fn memory(w: &Workload) -> WorkloadMemory {
    use crate::memory::formulas::{textbook_state_bytes, Precision};
    let vb = w.dtype.weight_bytes();
    let act_bytes = w.dtype.activation_bytes();
    let trains = matches!(w.mode, RunMode::Train | RunMode::LoraTrain);
    let trainable = w.trainable_params.unwrap_or(w.params) as f64;
    let states = w.optimizer.map_or(0, |o| o.states_per_param());
    // The lessons run PyTorch: their 16-bit training is automatic mixed precision.
    let recipe = match w.dtype {
        Precision::F16 | Precision::Bf16 => Precision::Mixed,
        other => other,
    };
    let per = textbook_state_bytes(recipe, states);
    let mut weights = (w.params + w.extra_params) as f64 * vb;
    if w.dtype == Precision::Nf4 {
        // QLoRA quantizes the blocks' linear weights only; the rest is as peft's preparation,
        // which the recipes run, leaves it, and peft keeps its adapters fp32. Where the recipe
        // names its model the split is counted; else all at NF4's rate. (The preset's exact
        // count: a recipe's `params` is a round figure.)
        if let Some(model) = w.preset.as_deref().and_then(crate::memory::models::preset) {
            weights = crate::memory::cuda_step::KbitPrep::default().base_bytes(&model, true);
        }
        weights += trainable * 4.0;
    }
    let gradients = match w.mode {
        RunMode::Train | RunMode::LoraTrain => trainable * per.gradients,
        RunMode::ForwardBackward => w.params as f64 * vb,
        _ => 0.0,
    };
    let optimizer_state = if trains {
        trainable * per.optimizer
    } else {
        0.0
    };
    let keeps_graph = matches!(
        w.mode,
        RunMode::Train | RunMode::LoraTrain | RunMode::ForwardBackward
    );
    if let Some((activations, source)) = measured_activations(w) {
        return WorkloadMemory {
            weights: Bytes(weights as u64),
            gradients: Bytes(gradients as u64),
            optimizer_state: Bytes(optimizer_state as u64),
            activations,
            activations_source: source,
        };
    }
    let (activations, source) = match (w.layers, w.d_model, w.heads, w.seq_len) {
        (Some(l), Some(d), Some(h), Some(s)) => {
            let shape = crate::memory::formulas::TransformerShape {
                layers: l,
                hidden: d,
                heads: h,
                kv_heads: h,
                seq_len: s,
                vocab: w.vocab.unwrap_or(0),
            };
            let full = crate::memory::formulas::transformer_activations(
                &shape,
                w.batch,
                act_bytes,
                w.checkpointing && keeps_graph,
            );
            if keeps_graph {
                (full, t!("act-formula"))
            } else {
                // Inference frees each layer's activations as it goes.
                (full / l as f64, t!("act-formula-layer"))
            }
        }
        _ => match w.activation_mb_per_sample {
            Some(mb) => {
                let per = mb * 1e6 * w.batch as f64;
                (
                    if keeps_graph { per } else { per * 0.3 },
                    t!("act-lessons-toml"),
                )
            }
            None => (
                w.batch as f64 * 16.0 * (w.params as f64).sqrt() * act_bytes,
                t!("act-rough"),
            ),
        },
    };
    WorkloadMemory {
        weights: Bytes(weights as u64),
        gradients: Bytes(gradients as u64),
        optimizer_state: Bytes(optimizer_state as u64),
        activations: Bytes(activations as u64),
        activations_source: source,
    }
}

/// A decoder-only transformer trained in f32 with all its parameters gets its activations and
/// temporaries from the measured memory model of the framework its code runs — PyTorch for the
/// course's lessons (data/calibration-torch-cpu.json), Candle for gpulab's own labs
/// (data/calibration-cpu.json) — not from a formula. None where no model applies (another
/// architecture, mixed precision, LoRA, checkpointing, no shape).
pub fn measured_activations(w: &Workload) -> Option<(Bytes, String)> {
    use crate::memory::models::{Family, ModelConfig};
    if let (Some(name), "transformer-decoder") = (&w.preset, w.kind.as_str()) {
        return measured_recipe(w, name);
    }
    let full_training = w.mode == RunMode::Train
        && w.trainable_params.is_none_or(|t| t == w.params)
        && !w.checkpointing;
    if w.kind != "transformer-decoder" || !full_training {
        return None;
    }
    let dtype = match w.dtype {
        crate::memory::formulas::Precision::F32 => candle_core::DType::F32,
        _ => return None,
    };
    let (l, d, h, s, v) = (w.layers?, w.d_model?, w.heads?, w.seq_len?, w.vocab?);
    let model = ModelConfig {
        family: Family::Gpt,
        batch: w.batch as usize,
        layers: l as usize,
        d_model: d as usize,
        heads: h as usize,
        seq_len: s as usize,
        vocab: v as usize,
        ..ModelConfig::default_for(Family::Gpt)
    };
    model.validate().ok()?;
    let (cal, file) = crate::memory::calibration::shipped()
        .ok()?
        .into_iter()
        .find(|(c, _)| c.framework == w.framework)?;
    let fitted = cal.model(Family::Gpt, dtype, w.optimizer?)?;
    Some((
        fitted.predict(&model).activations_and_temporaries(),
        t!("act-measured", framework = w.framework.name(), file = file),
    ))
}

/// A doc recipe that names its model (`preset`): Hugging Face's model of that shape trained
/// on a GPU as the recipe says (LoRA through peft, checkpointing; 16-bit: autocast over fp32
/// weights for full training, a 16-bit base under LoRA; QLoRA's 4-bit base), its step derived
/// for CUDA (src/memory/cuda_step.rs): the activations and temporaries of its peak, with the
/// caching allocator's reserve on top, since that is what runs out on a GPU.
fn measured_recipe(w: &Workload, name: &str) -> Option<(Bytes, String)> {
    use crate::memory::cuda_step::{Adapters, CudaStep, Kernel, LossPath, Recipe, Update};
    use crate::memory::formulas::Precision;
    use crate::memory::models::{LoraTargets, Projections};
    let mut model = crate::memory::models::preset(name)?;
    model.batch = w.batch as usize;
    model.seq_len = w.seq_len? as usize;
    let lora = w.lora_rank.map(|r| Adapters {
        rank: r as usize,
        targets: Projections::of(w.lora_targets.unwrap_or(LoraTargets::Qv)),
        dropout: false,
    });
    let recipe = match w.dtype {
        Precision::F32 => Recipe::F32,
        Precision::Nf4 if lora.is_some() => Recipe::Qlora,
        Precision::Bf16 | Precision::F16 | Precision::Mixed if lora.is_some() => Recipe::Pure16,
        Precision::Bf16 | Precision::F16 | Precision::Mixed => Recipe::Amp,
        _ => return None,
    };
    let kind = w.optimizer?;
    let step = CudaStep::new(
        model,
        recipe,
        Kernel::Fused,
        LossPath::PadLabels,
        lora,
        crate::memory::optim::OptimizerRecipe {
            kind,
            name: kind.name(),
            state_bytes: None,
        },
        Update::Foreach,
        w.checkpointing,
    );
    step.validate().ok()?;
    let peaks = step.peaks();
    let reserve = peaks.reserved.0.saturating_sub(peaks.allocated.0);
    let mut source = t!(
        "act-cuda-recipe",
        model = step.model.describe(),
        recipe = format!("{recipe:?}").to_lowercase(),
        reserve = Bytes(reserve)
    );
    if recipe == Recipe::Qlora {
        source = format!("{source}. {}", t!("cuda-kbit-prep", prep = "peft"));
    }
    Some((Bytes(peaks.activations.0 + reserve), source))
}

/// FLOPs of the whole run.
pub fn flops(w: &Workload) -> f64 {
    let multiplier = match w.mode {
        RunMode::Train | RunMode::ForwardBackward => 3.0,
        RunMode::LoraTrain => 2.0,
        RunMode::Forward | RunMode::Inference => 1.0,
        RunMode::None => 0.0,
    };
    let p = w.params as f64;
    // Attention's own products (QKᵀ and the weighted sum) add 2·L·s·d per token to the forward
    // beyond 2·P (Kaplan et al. 2020's C_forward), where the lesson gives the shape.
    let attention = match (w.layers, w.seq_len, w.d_model) {
        (Some(l), Some(s), Some(d)) if w.kind.starts_with("transformer") => {
            2.0 * (l * s * d) as f64
        }
        _ => 0.0,
    };
    if let Some(tokens) = w.tokens {
        return multiplier * (2.0 * p + attention) * tokens as f64;
    }
    let per_sample = match (w.flops_per_sample, w.seq_len, w.image_size) {
        (Some(f), _, _) => f,
        (None, Some(s), _) => (2.0 * p + attention) * s as f64,
        // A conv weight is reused at every position; after two poolings about (side/4)².
        (None, None, Some(side)) if w.kind == "cnn" => 2.0 * p * (side * side) as f64 / 16.0,
        _ => 2.0 * p,
    };
    multiplier * per_sample * w.batch as f64 * w.steps as f64
}

/// One workload on one target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// Target name.
    pub target: String,
    /// Does it fit?
    pub fits: bool,
    /// Can it run there at all (NumPy lessons cannot use a GPU)?
    pub runnable: bool,
    /// Memory needed there (with the CUDA context on a GPU).
    pub needed: Bytes,
    /// Memory − needed (negative: short).
    pub headroom_bytes: i64,
    /// Estimated hours for the whole run.
    pub hours: f64,
    /// Cost range of the run (USD).
    pub cost: (f64, f64),
    /// One step's time by part (None where the run cannot run there, and in files written
    /// before gpulab timed steps).
    #[serde(default)]
    pub step: Option<crate::plan::timing::StepTime>,
    /// Why a run that fits is still no choice here (too slow for a CPU, longer than a free
    /// session).
    #[serde(default)]
    pub impractical: Option<String>,
    /// What must change for the lesson's code to run as timed here (a GPU cell of a lesson that
    /// hard-codes the CPU).
    #[serde(default)]
    pub caveat: Option<String>,
    /// On the CPU, where the lesson's own code was run and timed (data/lessons-measured.json):
    /// how its time and memory were taken from that run, or why the run failed.
    #[serde(default)]
    pub recorded: Option<String>,
}

/// One workload on every target, and the recommendation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// Workload id.
    pub id: String,
    /// The workload's title.
    pub title: String,
    /// Memory by category (formula).
    pub memory: WorkloadMemory,
    /// FLOPs of the run.
    pub flops: f64,
    /// Per target.
    pub cells: Vec<Cell>,
    /// Recommended target and why (a sentence in the language it was judged in).
    pub recommendation: String,
    /// The recommended target's name (a [`Target`] name; None when nothing is to be trained or
    /// no single target holds it). Reports from before it was kept read as None.
    #[serde(default)]
    pub recommended: Option<String>,
    /// Whether `recommended` was decided (true in every verdict judged now): false only in
    /// reports written before it was kept, whose stored sentence is then shown as written.
    #[serde(default)]
    pub by_target: bool,
    /// When no single GPU fits: how many H100s with ZeRO-3 (FSDP) would, and the configs.
    /// (Reports written before the plan had configs held a sentence here; it reads as none.)
    #[serde(default, deserialize_with = "crate::plan::multi_gpu::plan_or_legacy")]
    pub multi_gpu: Option<crate::plan::multi_gpu::MultiGpuPlan>,
}

impl Verdict {
    /// The recommended target's name; None when nothing is to be trained or no single target
    /// holds it. Reports from before the name was kept have only their English sentence, which
    /// opens with the target ("this CPU (…)", "this CPU, slowly (…)", "T4 (Colab free) (…)").
    pub fn target(&self) -> Option<String> {
        if self.by_target {
            return self.recommended.clone();
        }
        let rec = &self.recommendation;
        self.cells
            .iter()
            .map(|c| &c.target)
            .filter(|t| rec.starts_with(t.as_str()))
            .max_by_key(|t| t.len())
            .cloned()
    }
}

/// Judges one workload on the targets (the first target must be the CPU).
pub fn judge(w: &Workload, targets: &[Target]) -> Verdict {
    let mem = memory(w);
    let total_flops = flops(w);
    let run = crate::plan::recorded::shipped().and_then(|r| r.find(&w.id).map(|run| (r, run)));
    let half = w.dtype.is_half();
    let cells: Vec<Cell> = targets
        .iter()
        .map(|t| {
            // NumPy lessons have no GPU path; the SD lesson's fp16 pipeline only runs on CUDA;
            // a lesson whose code trains nothing has nothing to run.
            let runnable = w.mode != RunMode::None
                && !(t.gpu && w.cpu_only)
                && !(w.dtype == crate::memory::formulas::Precision::F16
                    && !t.gpu
                    && w.kind == "diffusion-unet"
                    && w.mode == RunMode::Inference);
            let mut needed = Bytes(mem.total().0 + if t.gpu { CUDA_CONTEXT_TYPICAL.0 } else { 0 });
            let step =
                crate::plan::timing::step_time(w, &mem, total_flops, &t.rates, half && t.gpu);
            let mut hours = crate::plan::timing::steps(w) * step.total_s / 3600.0;
            // On a CPU a lesson that was run for real is judged by that run: its whole time
            // (imports, data, evaluation) scaled by how much faster or slower the step model
            // finds this CPU than the recording's, and the memory the process really held.
            let recorded = match run.filter(|_| !t.gpu) {
                Some((r, run)) if run.ran() => {
                    let there =
                        crate::plan::timing::step_time(w, &mem, total_flops, &r.rates.rates, false);
                    let scale = if there.total_s > 0.0 {
                        step.total_s / there.total_s
                    } else {
                        1.0
                    };
                    hours = run.wall_s * scale / 3600.0;
                    needed = Bytes(run.peak_rss);
                    Some(t!(
                        "fit-recorded",
                        cpu = r.cpu.clone(),
                        wall = format!("{:.1}", run.wall_s),
                        scale = format!("{scale:.2}"),
                        rss = Bytes(run.peak_rss)
                    ))
                }
                Some((r, run)) => Some(t!(
                    "fit-recorded-failed",
                    cpu = r.cpu.clone(),
                    why = run.why.clone()
                )),
                None => None,
            };
            let fits = runnable && needed <= t.memory;
            let too_slow = (!t.gpu && hours > CPU_PRACTICAL_HOURS)
                || (t.name == COLAB_FREE_T4 && hours > FREE_SESSION_HOURS);
            let impractical = (fits && too_slow).then(|| too_slow_text(&t.name, hours));
            Cell {
                target: t.name.clone(),
                fits,
                runnable,
                needed,
                headroom_bytes: t.memory.0 as i64 - needed.0 as i64,
                hours,
                cost: (hours * t.price.0, hours * t.price.1),
                step: runnable.then_some(step),
                impractical,
                caveat: (t.gpu && w.cpu_pinned).then(|| t!("fit-caveat-cpu-pinned")),
                recorded,
            }
        })
        .collect();
    let recommended = recommend(w, targets, &cells);
    let recommendation = recommendation_sentence(w.mode == RunMode::None, &cells, &recommended);
    // No single GPU holds it: plan it on H100s, timed from what one H100 would take.
    let multi_gpu =
        if cells.iter().skip(1).all(|c| !c.fits) && !w.cpu_only && w.mode != RunMode::None {
            let h100 = cells
                .iter()
                .zip(targets)
                .find(|(_, t)| t.gpu_id.as_deref() == Some(MULTI_GPU_PLAN_ON))
                .or_else(|| cells.iter().zip(targets).rfind(|(_, t)| t.gpu));
            h100.and_then(|(c, t)| crate::plan::multi_gpu::plan(w, &mem, c.hours, t.price))
        } else {
            None
        };
    Verdict {
        id: w.id.clone(),
        title: w.title.clone(),
        memory: mem,
        flops: total_flops,
        cells,
        recommendation,
        recommended,
        by_target: true,
        multi_gpu,
    }
}

fn fmt_hours(h: f64) -> String {
    if !h.is_finite() {
        "-".into()
    } else if h < 1.0 / 60.0 {
        t!("dur-seconds", n = format!("{:.0}", (h * 3600.0).max(1.0)))
    } else if h < 1.0 {
        t!("dur-minutes", n = format!("{:.0}", h * 60.0))
    } else {
        t!("dur-hours", n = format!("{h:.1}"))
    }
}

/// Why a cell that fits is no use, in the chosen language (a CPU past a day, the free T4 past
/// its session): said from the target and the hours, so any report can be read in any language.
fn too_slow_text(target: &str, hours: f64) -> String {
    if target == COLAB_FREE_T4 {
        t!(
            "fit-too-slow-colab",
            time = fmt_hours(hours),
            limit = format!("{FREE_SESSION_HOURS:.0}")
        )
    } else {
        t!(
            "fit-too-slow-cpu",
            time = fmt_hours(hours),
            limit = format!("{CPU_PRACTICAL_HOURS:.0}")
        )
    }
}

/// A cell's reason for "too slow", in the chosen language (None when it is not).
pub fn impractical_text(c: &Cell) -> Option<String> {
    c.impractical
        .as_ref()
        .map(|_| too_slow_text(&c.target, c.hours))
}

/// A verdict's recommendation in the chosen language, from the target it names and its cell;
/// reports older than `recommended` keep the sentence they were written with.
pub fn recommendation_text(v: &Verdict) -> String {
    if !v.by_target {
        return v.recommendation.clone();
    }
    let trains_nothing = v.cells.iter().all(|c| !c.runnable);
    recommendation_sentence(trains_nothing, &v.cells, &v.recommended)
}

fn recommendation_sentence(
    trains_nothing: bool,
    cells: &[Cell],
    recommended: &Option<String>,
) -> String {
    if trains_nothing {
        return t!("rec-nothing-to-train");
    }
    let Some(c) = recommended
        .as_ref()
        .and_then(|name| cells.iter().find(|c| &c.target == name))
    else {
        return t!("rec-multi-gpu");
    };
    let time = fmt_hours(c.hours);
    // The first cell is always this CPU's (`judge`'s contract), whatever its name.
    if cells.first().is_some_and(|cpu| cpu.target == c.target) {
        return if c.hours <= CPU_PATIENCE_HOURS {
            t!("rec-this-cpu", time = time)
        } else {
            t!("rec-cpu-slowly", time = time)
        };
    }
    if c.cost.1 <= 0.0 {
        return t!("rec-free", target = target_label(&c.target), time = time);
    }
    // Why the free T4 is not the answer, when it fits but runs past its session.
    let note = cells
        .iter()
        .find(|x| x.target == COLAB_FREE_T4 && x.fits)
        .and_then(impractical_text)
        .map(|why| t!("rec-not-free-t4", why = why))
        .unwrap_or_default();
    t!(
        "rec-paid",
        target = target_label(&c.target),
        time = time,
        cost = crate::probe::session::usd_range(c.cost),
        note = note
    )
}

/// The target to recommend: this CPU when it is quick, else the fastest free GPU within a free
/// session, else the cheapest paid one, else this CPU slowly; None when nothing is to be
/// trained or no single target holds it.
fn recommend(w: &Workload, targets: &[Target], cells: &[Cell]) -> Option<String> {
    if w.mode == RunMode::None {
        return None;
    }
    let cpu = &cells[0];
    if cpu.fits && cpu.hours <= CPU_PATIENCE_HOURS {
        return Some(cpu.target.clone());
    }
    // Free GPUs (local, Colab) next, if the run ends within a free session.
    let free = cells
        .iter()
        .zip(targets)
        .skip(1)
        .filter(|(c, t)| {
            c.fits && c.impractical.is_none() && t.price.1 == 0.0 && c.hours <= FREE_SESSION_HOURS
        })
        .min_by(|a, b| a.0.hours.total_cmp(&b.0.hours));
    if let Some((c, _)) = free {
        return Some(c.target.clone());
    }
    let paid = cells
        .iter()
        .zip(targets)
        .skip(1)
        .filter(|(c, t)| c.fits && t.price.1 > 0.0)
        .min_by(|a, b| a.0.cost.1.total_cmp(&b.0.cost.1));
    match paid {
        Some((c, _)) => Some(c.target.clone()),
        None if cpu.fits && cpu.impractical.is_none() => Some(cpu.target.clone()),
        None => None,
    }
}

/// The compact table: one row per workload.
pub fn table(verdicts: &[Verdict]) -> crate::table::Table {
    use crate::table::Table;
    let mut header: Vec<String> = vec![t!("col-lesson"), t!("col-needs")];
    if let Some(v) = verdicts.first() {
        header.extend(v.cells.iter().map(|c| target_label(&c.target)));
    }
    header.push(t!("col-recommended"));
    // Lesson and recommendation read left to right; sizes and cells line up on the right.
    let spec = format!("l{}l", "r".repeat(header.len() - 2));
    let mut t = Table::titled(header, &spec);
    for v in verdicts {
        let mut row = vec![v.id.clone(), v.memory.total().to_string()];
        for c in &v.cells {
            row.push(if !c.runnable {
                t!("cell-na")
            } else if !c.fits {
                t!("cell-memory")
            } else if c.impractical.is_some() {
                t!("cell-too-slow", time = fmt_hours(c.hours))
            } else if c.caveat.is_some() {
                format!("✓* {}", fmt_hours(c.hours))
            } else {
                format!("✓ {}", fmt_hours(c.hours))
            });
        }
        row.push(recommendation_text(v));
        t.push(row);
    }
    t
}

#[cfg(test)]
mod tests;
