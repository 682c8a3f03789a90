//! `gpulab measure`: runs a real Candle training step and records where every byte goes, phase
//! by phase, so the lesson's "2 bytes per parameter" becomes a measured table.
//!
//! Two independent views are kept and compared:
//! - **measured**: live bytes and high-water marks from the memory itself — the counting global
//!   allocator on the CPU ([`crate::memory::alloc`]), the CUDA stream-ordered pool's used-memory counters
//!   on a GPU;
//! - **accounted**: bytes of the tensors we can name — parameters (the VarMap), optimizer state,
//!   the batch, the activations the autograd graph keeps alive (every non-parameter node
//!   `loss.sorted_nodes()` reaches, storage shared by views counted once), and the gradient
//!   store (parameter gradients, and the gradients Candle also keeps for non-parameter leaves).
//!
//! The ledger at the step's peak is accounted tensors + the phase's transient temporaries
//! (measured: peak − live at the phase's end) against the measured peak; what is left is
//! non-tensor overhead (graph nodes, hash maps, allocator rounding) and is shown, not hidden.
//!
//! Phases: weights → optimizer state → batch → forward (loss kept alive, as in
//! `opt.backward_step(&loss)`) → backward (gradient store) → optimizer update → after the step.
//!
//! One file on purpose: the step, its phases, the meter and the ledger that
//! closes against the peak are read together.

use std::collections::HashMap;
use std::time::Instant;

use candle_core::{DType, Device, Tensor};
use candle_nn::{VarBuilder, VarMap};
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::memory::models::{random_batch, Model, ModelConfig};
use crate::memory::optim::{Opt, OptimizerKind};
use crate::probe::cuda;
use crate::probe::device::{self, DeviceSpec};
use crate::units::Bytes;

/// Version of the measure JSON layout.
pub const MEASURE_SCHEMA_VERSION: u32 = 1;

/// One configuration to measure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeasureConfig {
    /// Model and batch.
    pub model: ModelConfig,
    /// Parameter dtype.
    #[serde(with = "crate::dtype::serde_name")]
    pub dtype: DType,
    /// The optimizer of the step.
    pub optimizer: OptimizerKind,
    /// Where the step runs.
    pub device: DeviceSpec,
}

/// A phase of the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Building the parameters.
    Weights,
    /// Creating the optimizer (its state).
    OptimizerState,
    /// Creating the batch.
    Batch,
    /// Forward pass to the loss.
    Forward,
    /// `loss.backward()`.
    Backward,
    /// `optimizer.step(&grads)`.
    OptimizerStep,
    /// After dropping the gradients and the loss.
    AfterStep,
}

impl Phase {
    /// Name as printed.
    pub fn label(self) -> String {
        match self {
            Phase::Weights => t!("phase-weights"),
            Phase::OptimizerState => t!("phase-optimizer-state"),
            Phase::Batch => t!("phase-batch"),
            Phase::Forward => t!("phase-forward"),
            Phase::Backward => t!("phase-backward"),
            Phase::OptimizerStep => t!("phase-optimizer-step"),
            Phase::AfterStep => t!("phase-after-step"),
        }
    }
}

/// Measured memory of one phase, relative to the baseline before the model existed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PhaseMemory {
    /// The phase.
    pub phase: Phase,
    /// Live bytes when it started.
    pub live_before: Bytes,
    /// Live bytes when it ended.
    pub live_after: Bytes,
    /// Highest live bytes during it.
    pub peak: Bytes,
    /// Wall time of the phase, seconds.
    pub elapsed_s: f64,
}

impl PhaseMemory {
    /// Bytes that came and went inside the phase: peak above the higher of start and end.
    pub fn transient(&self) -> Bytes {
        Bytes(
            self.peak
                .0
                .saturating_sub(self.live_before.0.max(self.live_after.0)),
        )
    }
}

/// Bytes of the tensors we can name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Accounted {
    /// Weights, bytes.
    pub weights: Bytes,
    /// Optimizer state (measured at creation).
    pub optimizer_state: Bytes,
    /// Inputs and labels.
    pub batch: Bytes,
    /// Non-parameter graph nodes kept alive by the loss.
    pub activations: Bytes,
    /// Gradients of parameters.
    pub param_gradients: Bytes,
    /// Gradients Candle keeps for everything else (the mask, the input).
    pub other_gradients: Bytes,
    /// Backward-pass tensors kept alive by the gradients' own op history (Candle does not detach
    /// accumulated gradients): measured as what dropping the gradient store frees beyond them.
    pub gradient_graph: Bytes,
}

/// One row of the ledger.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LedgerRow {
    /// The ledger line (weights, gradients, optimizer state, activations, …).
    pub category: String,
    /// Bytes at the peak.
    pub bytes: Bytes,
}

/// The ledger at the step's peak.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    /// The phase whose high-water mark is the step's peak.
    pub peak_phase: Phase,
    /// The rows (tensors live at the end of the peak phase, plus its transient temporaries).
    pub rows: Vec<LedgerRow>,
    /// Sum of the rows.
    pub accounted: Bytes,
    /// Measured peak.
    pub measured_peak: Bytes,
    /// measured_peak − accounted (negative is shown as 0 with `over_accounted` set).
    pub unexplained: Bytes,
    /// unexplained / measured_peak.
    pub unexplained_share: f64,
    /// True when accounted exceeds measured (should not happen; a sign of double counting).
    pub over_accounted: bool,
}

/// Bytes per parameter, measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PerParam {
    /// Weights, bytes per parameter.
    pub weights: f64,
    /// Parameter gradients.
    pub gradients: f64,
    /// Optimizer state.
    pub optimizer_state: f64,
    /// Everything at the peak, per parameter (includes activations: depends on the batch).
    pub peak: f64,
}

/// Everything measured for one configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepMeasurement {
    /// What was measured.
    pub config: MeasureConfig,
    /// "gpt d128 L2 …".
    pub description: String,
    /// Trainable parameters.
    pub params: u64,
    /// The loss of the step (finite, or the step is reported as failed).
    pub loss: f32,
    /// How memory was read: "counting allocator" or "cuda mem pool".
    pub method: String,
    /// Device memory in use before the model existed (CUDA: context, libraries, other processes).
    pub baseline: Bytes,
    /// Bytes a first (warm-up) step left behind for good: library workspaces and caches.
    pub workspace: Bytes,
    /// Each phase.
    pub phases: Vec<PhaseMemory>,
    /// Named tensors.
    pub accounted: Accounted,
    /// The ledger at the peak.
    pub ledger: Ledger,
    /// Per-parameter bytes.
    pub per_param: PerParam,
    /// Wall time of the whole step, seconds.
    pub elapsed_s: f64,
}

/// Reads live bytes and a resettable high-water mark on one device.
enum Meter {
    Cpu,
    Cuda(cuda::PoolMeter),
}

impl Meter {
    fn new(dev: &Device) -> Result<Meter> {
        if dev.is_cuda() {
            return Ok(Meter::Cuda(cuda::PoolMeter::new(dev)?));
        }
        if !crate::memory::alloc::installed() {
            return Err(crate::bad!("measure-no-counting-allocator"));
        }
        Ok(Meter::Cpu)
    }

    fn method(&self) -> String {
        match self {
            Meter::Cpu => t!("meter-cpu"),
            Meter::Cuda(_) => t!("meter-cuda"),
        }
    }

    fn current(&self) -> u64 {
        match self {
            Meter::Cpu => crate::memory::alloc::current(),
            Meter::Cuda(m) => m.current(),
        }
    }

    fn peak(&self) -> u64 {
        match self {
            Meter::Cpu => crate::memory::alloc::peak(),
            Meter::Cuda(m) => m.peak(),
        }
    }

    fn reset_peak(&self) {
        match self {
            Meter::Cpu => crate::memory::alloc::reset_peak(),
            Meter::Cuda(m) => m.reset_peak(),
        }
    }

    fn baseline_device_use(&self) -> Bytes {
        match self {
            Meter::Cpu => Bytes(0),
            Meter::Cuda(m) => m.device_used(),
        }
    }
}

/// Identity of a tensor's storage (shared by its views) and its size in bytes. On the CPU the
/// size is the storage's real length: a gradient can be a small view of a larger buffer, and the
/// whole buffer is what stays alive. Elsewhere it is the furthest element the view reaches.
fn storage_span(t: &Tensor) -> (usize, u64) {
    use candle_core::{CpuStorage, Storage};
    let (storage, layout) = t.storage_and_layout();
    let key = &*storage as *const Storage as usize;
    if let Storage::Cpu(cpu) = &*storage {
        let bytes = match cpu {
            CpuStorage::U8(v) => Some(v.len()),
            CpuStorage::U32(v) => Some(v.len() * 4),
            CpuStorage::I16(v) => Some(v.len() * 2),
            CpuStorage::I32(v) => Some(v.len() * 4),
            CpuStorage::I64(v) => Some(v.len() * 8),
            CpuStorage::BF16(v) => Some(v.len() * 2),
            CpuStorage::F16(v) => Some(v.len() * 2),
            CpuStorage::F32(v) => Some(v.len() * 4),
            CpuStorage::F64(v) => Some(v.len() * 8),
            _ => None,
        };
        if let Some(bytes) = bytes {
            return (key, bytes as u64);
        }
    }
    // Broadcast dimensions (stride 0) add nothing, so a mask broadcast over batch and heads
    // counts as the one (s, s) buffer it really is.
    let reach: usize = layout
        .dims()
        .iter()
        .zip(layout.stride())
        .map(|(&d, &st)| d.saturating_sub(1) * st)
        .sum();
    let span = if layout.shape().elem_count() == 0 {
        0
    } else {
        layout.start_offset() + reach + 1
    };
    (key, (span * t.dtype().size_in_bytes()) as u64)
}

/// Sums storage bytes, counting a storage shared by several tensors once (at its largest span)
/// and skipping storages in `exclude`.
fn unique_bytes<'a>(
    tensors: impl Iterator<Item = &'a Tensor>,
    exclude: &HashMap<usize, u64>,
) -> u64 {
    let mut seen: HashMap<usize, u64> = HashMap::new();
    for t in tensors {
        let (key, bytes) = storage_span(t);
        if exclude.contains_key(&key) {
            continue;
        }
        let e = seen.entry(key).or_insert(0);
        *e = (*e).max(bytes);
    }
    seen.values().sum()
}

/// Runs one measured training step, as a Candle program ordinarily writes it
/// (`opt.backward_step(&loss)` with candle-nn's optimizers). Takes the measurement lock: nothing
/// else in this process should allocate meanwhile.
pub fn measure_step(config: &MeasureConfig) -> Result<StepMeasurement> {
    measure(config, false, 2)
}

/// `measure_step` again, right after a measurement of the same step: the workspaces the warm-up
/// grows are grown already, so one quiet warm-up step is enough (the calibration measures every
/// shape twice; this saves one step of the six or so each shape takes).
pub fn measure_step_again(config: &MeasureConfig) -> Result<StepMeasurement> {
    measure(config, false, 1)
}

/// The same step written to hold only what it must: the graph (the loss) and the gradients of
/// non-parameters are dropped before the optimizer step, and gpulab's lean optimizers
/// ([`crate::memory::optim::LeanOpt`]) update one detached parameter at a time.
pub fn measure_lean_step(config: &MeasureConfig) -> Result<StepMeasurement> {
    measure(config, true, 2)
}

/// The optimizer of a measured step: candle-nn's as a program would use it, or gpulab's lean one.
enum StepOpt {
    Ordinary(Opt),
    Lean(crate::memory::optim::LeanOpt),
}

fn measure(config: &MeasureConfig, lean: bool, quiet_steps: usize) -> Result<StepMeasurement> {
    config.model.validate()?;
    let _guard = crate::memory::alloc::MEASURE_LOCK
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let dev = config.device.open()?;
    preflight(config, &dev)?;
    let meter = Meter::new(&dev)?;
    let started = Instant::now();
    let workspace = warm_until_quiet(config, &dev, &meter, quiet_steps)?;
    let device_baseline = meter.baseline_device_use();
    let mut rec = PhaseRecorder::new(&meter, &dev);

    let varmap = VarMap::new();
    let model = rec.run(Phase::Weights, || {
        Model::build(
            &config.model,
            VarBuilder::from_varmap(&varmap, config.dtype, &dev),
        )
    })?;
    let vars = varmap.all_vars();
    let var_storages: HashMap<usize, u64> =
        vars.iter().map(|v| storage_span(v.as_tensor())).collect();
    let weights_bytes: u64 = var_storages.values().sum();
    let params: u64 = vars.iter().map(|v| v.elem_count() as u64).sum();

    let mut opt = rec.run(Phase::OptimizerState, || {
        Ok(if lean {
            StepOpt::Lean(crate::memory::optim::LeanOpt::new(
                config.optimizer,
                vars.clone(),
                config.dtype,
            )?)
        } else {
            StepOpt::Ordinary(Opt::new(config.optimizer, vars.clone(), config.dtype)?)
        })
    })?;
    let optimizer_bytes = rec.last_growth();

    let (x, y) = rec.run(Phase::Batch, || {
        random_batch(&config.model, config.dtype, &dev)
    })?;
    let batch_bytes = (x.elem_count() * x.dtype().size_in_bytes()
        + y.elem_count() * y.dtype().size_in_bytes()) as u64;

    let loss = rec.run(Phase::Forward, || Ok(model.loss(&x, &y)?))?;
    let loss_value = loss.to_dtype(DType::F32)?.to_scalar::<f32>()?;
    let mut graph_exclude = var_storages.clone();
    // The batch is data, not an activation.
    graph_exclude.extend([storage_span(&x), storage_span(&y)]);
    let activation_bytes = {
        let nodes = loss.sorted_nodes();
        unique_bytes(
            nodes.iter().copied().filter(|t| !t.is_variable()),
            &graph_exclude,
        )
    };

    let grads = rec.run(Phase::Backward, || Ok(loss.backward()?))?;
    let (param_grad_bytes, other_grad_bytes) = gradient_bytes(&grads, &vars);

    let grads_freed = match &mut opt {
        StepOpt::Ordinary(opt) => {
            rec.run(Phase::OptimizerStep, || Ok(opt.step(&grads)?))?;
            // After the step: the gradients and the graph go; weights, state and batch stay.
            // What dropping the gradient store frees beyond the gradients themselves is the
            // backward graph that Candle's non-detached gradients keep alive (e.g. conv
            // backward's inputs).
            rec.run(Phase::AfterStep, || {
                let before = meter.current();
                drop(grads);
                dev.synchronize()?;
                let freed = before.saturating_sub(meter.current());
                drop(loss);
                Ok(freed)
            })?
        }
        StepOpt::Lean(opt) => {
            // Keep the parameters' gradients, let the store (non-parameters' gradients) and the
            // graph go before the update: this is where the lean step saves.
            let kept = crate::memory::optim::var_grads(&vars, &grads);
            drop(grads);
            drop(loss);
            rec.run(Phase::OptimizerStep, || Ok(opt.step(&kept)?))?;
            rec.run(Phase::AfterStep, || {
                let before = meter.current();
                drop(kept);
                dev.synchronize()?;
                Ok(before.saturating_sub(meter.current()))
            })?
        }
    };
    let phases = rec.phases;

    if !loss_value.is_finite() {
        return Err(crate::bad!(
            "loss-broken",
            loss = loss_value,
            dtype = crate::dtype::name(config.dtype)
        ));
    }

    let accounted = Accounted {
        weights: Bytes(weights_bytes),
        optimizer_state: Bytes(optimizer_bytes),
        batch: Bytes(batch_bytes),
        activations: Bytes(activation_bytes),
        param_gradients: Bytes(param_grad_bytes),
        other_gradients: Bytes(other_grad_bytes),
        gradient_graph: Bytes(grads_freed.saturating_sub(param_grad_bytes + other_grad_bytes)),
    };
    let ledger = ledger(&phases, &accounted, lean);
    let p = params.max(1) as f64;
    let per_param = PerParam {
        weights: phases[0].live_after.0 as f64 / p,
        gradients: param_grad_bytes as f64 / p,
        optimizer_state: optimizer_bytes as f64 / p,
        peak: ledger.measured_peak.0 as f64 / p,
    };
    Ok(StepMeasurement {
        config: config.clone(),
        description: if lean {
            t!("lean-step-name", model = config.model.describe())
        } else {
            config.model.describe()
        },
        params,
        loss: loss_value,
        method: meter.method(),
        baseline: device_baseline,
        workspace,
        phases,
        accounted,
        ledger,
        per_param,
        elapsed_s: started.elapsed().as_secs_f64(),
    })
}

/// Refuses, before anything is allocated, what cannot run: bf16 on a GPU without it, a step that
/// would not fit in the device's free memory.
fn preflight(config: &MeasureConfig, dev: &Device) -> Result<()> {
    if config.dtype == DType::BF16 {
        if let Some(cap) = device::compute_cap(dev) {
            if !cap.supports_bf16() {
                return Err(crate::bad!(
                    "preflight-no-bf16",
                    device = config.device,
                    cc = cap
                ));
            }
        }
    }
    let estimate = rough_step_bytes(config);
    if let Some(free) = device::free_memory(dev) {
        if estimate.0 > free.0 / 10 * 9 {
            return Err(crate::bad!(
                "preflight-too-big",
                model = config.model.describe(),
                dtype = crate::dtype::name(config.dtype),
                optimizer = config.optimizer.name(),
                estimate = estimate,
                device = config.device,
                free = free
            ));
        }
    }
    Ok(())
}

/// Untimed steps first, so lazily created, then cached buffers (gemm's thread-local packing
/// buffers, cuBLAS workspaces, loaded kernels) exist before the baseline and are not mistaken for
/// the step's memory; returns what they left behind for good.
///
/// gemm keeps one packing buffer per worker thread and grows it on first need; which worker runs
/// which block varies from run to run, so one warm-up may leave a worker's buffer to grow inside
/// the measured step. Warm up until `quiet_steps` steps in a row leave nothing new behind (at
/// most 6): for a fresh step two, since one quiet step was not enough, a worker idle in it could
/// still grow its buffer later (seen as a 1-in-6 flaky CNN validation); right after a measured
/// step of the same shape (`measure_step_again`) one, the buffers being grown already.
fn warm_until_quiet(
    config: &MeasureConfig,
    dev: &Device,
    meter: &Meter,
    quiet_steps: usize,
) -> Result<Bytes> {
    let before_warmup = meter.current();
    let mut quiet = 0;
    for _ in 0..6 {
        let before = meter.current();
        warm_up(config, dev)?;
        dev.synchronize()?;
        quiet = if meter.current().saturating_sub(before) < 4096 {
            quiet + 1
        } else {
            0
        };
        if quiet >= quiet_steps {
            break;
        }
    }
    Ok(Bytes(meter.current().saturating_sub(before_warmup)))
}

/// Runs the step's phases one by one, recording each one's live bytes before and after and its
/// high-water mark, relative to the level when the recorder was made.
struct PhaseRecorder<'a> {
    meter: &'a Meter,
    dev: &'a Device,
    base: u64,
    phases: Vec<PhaseMemory>,
}

impl<'a> PhaseRecorder<'a> {
    fn new(meter: &'a Meter, dev: &'a Device) -> Self {
        PhaseRecorder {
            meter,
            dev,
            base: meter.current(),
            phases: Vec::new(),
        }
    }

    fn live(&self) -> Bytes {
        Bytes(self.meter.current().saturating_sub(self.base))
    }

    /// Runs `phase` and hands back what it made.
    fn run<T>(&mut self, phase: Phase, f: impl FnOnce() -> Result<T>) -> Result<T> {
        self.dev.synchronize()?;
        let before = self.live();
        self.meter.reset_peak();
        let t = Instant::now();
        let value = f()?;
        self.dev.synchronize()?;
        self.phases.push(PhaseMemory {
            phase,
            live_before: before,
            live_after: self.live(),
            peak: Bytes(self.meter.peak().saturating_sub(self.base)),
            elapsed_s: t.elapsed().as_secs_f64(),
        });
        Ok(value)
    }

    /// Bytes the last phase left alive beyond what was there before it.
    fn last_growth(&self) -> u64 {
        self.phases
            .last()
            .map_or(0, |p| p.live_after.0.saturating_sub(p.live_before.0))
    }
}

/// Bytes of the gradient store: (parameters' gradients, other leaves' gradients).
fn gradient_bytes(
    grads: &candle_core::backprop::GradStore,
    vars: &[candle_core::Var],
) -> (u64, u64) {
    let var_ids: std::collections::HashSet<_> = vars.iter().map(|v| v.as_tensor().id()).collect();
    let grad_tensors: Vec<(bool, &Tensor)> = grads
        .get_ids()
        .filter_map(|id| grads.get_id(*id).map(|t| (var_ids.contains(id), t)))
        .collect();
    let none = HashMap::new();
    let of = |params: bool| {
        unique_bytes(
            grad_tensors
                .iter()
                .filter(|(p, _)| *p == params)
                .map(|(_, t)| *t),
            &none,
        )
    };
    (of(true), of(false))
}

fn warm_up(config: &MeasureConfig, dev: &Device) -> Result<()> {
    let varmap = VarMap::new();
    let model = Model::build(
        &config.model,
        VarBuilder::from_varmap(&varmap, config.dtype, dev),
    )?;
    let mut opt = Opt::new(config.optimizer, varmap.all_vars(), config.dtype)?;
    let (x, y) = random_batch(&config.model, config.dtype, dev)?;
    let loss = model.loss(&x, &y)?;
    opt.step(&loss.backward()?)?;
    Ok(())
}

/// Builds the ledger at the peak phase: the tensors live at its end plus its transient bytes.
/// `lean`: the graph and the non-parameters' gradients were dropped before the optimizer step.
pub fn ledger(phases: &[PhaseMemory], a: &Accounted, lean: bool) -> Ledger {
    // The first phase to reach the highest mark (later phases that only start there, like
    // "after step", do not set it).
    let mut peak = *phases.first().expect("a step has phases");
    for p in phases {
        if p.peak > peak.peak {
            peak = *p;
        }
    }
    let after = |phase: Phase| phases.iter().position(|p| p.phase == phase).unwrap_or(0);
    let at = after(peak.phase);
    let live = |phase: Phase| at >= after(phase) && peak.phase != Phase::AfterStep;
    let mut rows = vec![
        LedgerRow {
            category: t!("ledger-weights"),
            bytes: a.weights,
        },
        LedgerRow {
            category: t!("ledger-optimizer-state"),
            bytes: a.optimizer_state,
        },
        LedgerRow {
            category: t!("ledger-batch"),
            bytes: a.batch,
        },
    ];
    let graph_gone = lean && peak.phase == Phase::OptimizerStep;
    if live(Phase::Forward) && !graph_gone {
        rows.push(LedgerRow {
            category: t!("ledger-activations"),
            bytes: a.activations,
        });
    }
    if live(Phase::Backward) {
        rows.push(LedgerRow {
            category: t!("ledger-param-grads"),
            bytes: a.param_gradients,
        });
        if !graph_gone {
            rows.push(LedgerRow {
                category: t!("ledger-other-grads"),
                bytes: a.other_gradients,
            });
            rows.push(LedgerRow {
                category: t!("ledger-graph"),
                bytes: a.gradient_graph,
            });
        }
    }
    rows.push(LedgerRow {
        category: t!("ledger-temporaries", phase = peak.phase.label()),
        bytes: peak.transient(),
    });
    let accounted: u64 = rows.iter().map(|r| r.bytes.0).sum();
    let measured = peak.peak.0;
    Ledger {
        peak_phase: peak.phase,
        rows,
        accounted: Bytes(accounted),
        measured_peak: Bytes(measured),
        unexplained: Bytes(measured.saturating_sub(accounted)),
        unexplained_share: measured.saturating_sub(accounted) as f64 / measured.max(1) as f64,
        over_accounted: accounted > measured,
    }
}
/// A rough upper estimate of one step's bytes, used only to refuse what cannot fit before
/// starting: parameters × (weights + grads + state), plus activations at ~40 values per hidden
/// unit and sample (GPT adds the attention matrices, per head and layer).
pub fn rough_step_bytes(config: &MeasureConfig) -> Bytes {
    let m = &config.model;
    let size = config.dtype.size_in_bytes() as u64;
    let params = m.param_count();
    let states = 2 + config.optimizer.states_per_param();
    let b = m.batch as u64;
    let activations = match m.family {
        crate::memory::models::Family::Mlp => {
            b * (m.mlp_input as u64 + m.mlp_hidden.iter().sum::<usize>() as u64) * 8
        }
        crate::memory::models::Family::Gpt | crate::memory::models::Family::Llama => {
            let (s, d, l, h, f) = (
                m.seq_len as u64,
                m.d_model as u64,
                m.layers as u64,
                m.heads as u64,
                m.ffn_width() as u64,
            );
            b * s * (l * (24 * d + 4 * f + 6 * h * s) + 4 * m.vocab as u64)
        }
        crate::memory::models::Family::Cnn => {
            let px = (m.image_size * m.image_size) as u64;
            b * px * (3 + 6 * m.channels[0] as u64 + 2 * m.channels[1] as u64)
        }
    };
    // Gradients of intermediates roughly double the activations.
    Bytes(params * states * size + 2 * activations * size.max(4))
}
