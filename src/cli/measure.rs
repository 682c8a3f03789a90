//! `gpulab measure`'s dispatch (binary only): the measured grid and sweeps, `--save`,
//! `--validate`, `--lean` and `--pytorch`, each a few library calls and their output.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Context};

use super::args::MeasureArgs;
use super::common::claim_outputs;
use gpulab::files::write_atomic;
use gpulab::output::progress;
use gpulab::probe::device::{self, DeviceSpec};
use gpulab::t;

impl MeasureArgs {
    /// The architectures asked for, under either spelling.
    fn archs(&self) -> &[gpulab::memory::models::Family] {
        if self.model.is_empty() {
            &self.arch
        } else {
            &self.model
        }
    }
}

/// A family's default shape with the shape flags applied, checked.
fn shape(
    args: &MeasureArgs,
    family: gpulab::memory::models::Family,
) -> gpulab::Result<gpulab::memory::models::ModelConfig> {
    let mut s = gpulab::memory::models::ModelConfig::default_for(family);
    if let Some(b) = args.batch {
        s.batch = b;
    }
    let widths = if args.hidden.is_empty() {
        &args.mlp_widths
    } else {
        &args.hidden
    };
    if !widths.is_empty() {
        s.mlp_hidden = widths.clone();
    }
    let shape = &args.shape;
    let u = |v: Option<u64>, or: usize| v.map_or(or, |v| v as usize);
    s.d_model = u(shape.d_model, s.d_model);
    s.layers = u(shape.layers, s.layers);
    s.heads = u(shape.heads, s.heads);
    s.vocab = u(shape.vocab, s.vocab);
    s.seq_len = u(shape.seq_len, s.seq_len);
    if s.family.is_transformer() {
        s.ffn = shape.ffn.map(|f| f as usize).or(s.ffn);
        s.kv_heads = shape.kv_heads.map(|k| k as usize).or(s.kv_heads);
        // GPT ties its head unless told otherwise, as GPT-2 does and as `estimate` assumes.
        s.tied = !shape.untied && s.family == gpulab::memory::models::Family::Gpt;
    }
    s.image_size = args.image_size.unwrap_or(s.image_size);
    s.validate().map(|_| s)
}

/// What `gpulab measure` was asked to do, resolved once from its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `--pytorch`: the step in PyTorch.
    Torch,
    /// `--validate`: fit on small shapes, judge on larger ones.
    Validate,
    /// `--lean`: the ordinary and the lean step side by side.
    Lean,
    /// The suite: grid and sweeps (with `--save`, the fitted models too).
    Suite,
}

impl Mode {
    fn of(args: &MeasureArgs) -> Mode {
        if args.pytorch {
            Mode::Torch
        } else if args.validate {
            Mode::Validate
        } else if args.lean {
            Mode::Lean
        } else {
            Mode::Suite
        }
    }
}

/// `gpulab measure`: one mode per run, chosen by its flags.
pub fn measure(args: &MeasureArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    let spec = args.device;
    super::common::say_old_spellings(&[
        ("--model", "--arch", !args.model.is_empty()),
        ("--hidden", "--mlp-widths", !args.hidden.is_empty()),
    ]);
    let mode = Mode::of(args);
    // Candle's step trains every parameter and keeps every activation: these are PyTorch's.
    let torch_recipe = args.checkpointing
        || args.lora_rank.is_some()
        || args.torch.lora_targets.is_some()
        || args.autocast.is_some()
        || args.quant.is_some();
    if torch_recipe && mode != Mode::Torch {
        bail!("{}", t!("recipe-needs-pytorch"));
    }
    match mode {
        Mode::Torch => measure_torch(args, spec),
        Mode::Validate => validate(args, spec, quiet),
        Mode::Lean | Mode::Suite => {
            let config = suite_config(args, spec)?;
            claim_outputs(&[&args.json, &args.save, &args.plot], args.force)?;
            if mode == Mode::Lean {
                measure_lean(&config, quiet)
            } else {
                run_suite(args, &config, spec, quiet)
            }
        }
    }
}

/// The suite the flags describe: families, dtypes, optimizers, shapes and sweeps.
fn suite_config(
    args: &MeasureArgs,
    spec: DeviceSpec,
) -> anyhow::Result<gpulab::memory::suite::SuiteConfig> {
    let mut config = gpulab::memory::suite::SuiteConfig::default_for(spec);
    config.families = args.archs().to_vec();
    config.dtypes = args.dtype.clone();
    config.optimizers = args.optimizer.clone();
    config.shapes = config
        .families
        .iter()
        .map(|&f| shape(args, f))
        .collect::<Result<_, _>>()?;
    if args.no_sweep {
        config.batches.clear();
        config.seq_lens.clear();
    } else {
        for (name, list) in [("--batches", &args.batches), ("--seq-lens", &args.seq_lens)] {
            if list.len() < 3 || list.contains(&0) {
                bail!("{}", t!("sweep-too-short", name = name));
            }
        }
        config.batches = args.batches.clone();
        config.seq_lens = args.seq_lens.clone();
    }
    Ok(config)
}

/// The suite run: every planned step measured, then the models fitted (`--save`), the plot and
/// the table or JSON.
fn run_suite(
    args: &MeasureArgs,
    config: &gpulab::memory::suite::SuiteConfig,
    spec: DeviceSpec,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    use gpulab::memory::export::{self, MeasureReport};
    let device_name = device::name(
        &spec
            .open()
            .with_context(|| t!("opening-device", device = spec))?,
    );
    let plan = gpulab::memory::suite::plan(config);
    let bar = progress(plan.len() as u64, quiet);
    let results = gpulab::memory::suite::run(config, |r, _| {
        bar.set_message(format!(
            "{} {} {}",
            r.config.model.describe(),
            gpulab::dtype::name(r.config.dtype),
            r.config.optimizer.name()
        ));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let report = MeasureReport::new(spec.to_string(), device_name.clone(), results);
    if let Some(path) = &args.save {
        save_models(path, config, &report, spec, device_name, quiet)?;
    }
    if let Some(path) = &args.plot {
        gpulab::plot::write_svg(path, &export::plot_panels(&report), true)?;
        note!("{}", t!("wrote", path = path.display()));
    }
    match &args.json {
        Some(p) if p == Path::new("-") => emitln!("{}", serde_json::to_string_pretty(&report)?),
        Some(p) => {
            // The table first: a file that cannot be written (a full disk) must not cost the
            // learner the measurements.
            say!("{}", export::to_text(&report));
            write_atomic(
                p,
                (serde_json::to_string_pretty(&report)? + "\n").as_bytes(),
                true,
            )?;
            note!("{}", t!("wrote", path = p.display()));
        }
        None => say!("{}", export::to_text(&report)),
    }
    let measured = report.results.iter().any(|r| r.measurement.is_some());
    Ok(if measured {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `--save`: the memory models for every family × dtype × optimizer asked for, fitted on the
/// small calibration shapes (a minute or two on a CPU), written with the suite's results.
fn save_models(
    path: &Path,
    config: &gpulab::memory::suite::SuiteConfig,
    report: &gpulab::memory::export::MeasureReport,
    spec: DeviceSpec,
    device_name: String,
    quiet: bool,
) -> anyhow::Result<()> {
    use gpulab::memory::calibration::{Calibration, Machine};
    let combos = config.families.len() * config.dtypes.len() * config.optimizers.len();
    let bar = progress(
        (combos * gpulab::memory::validate::CALIBRATION_SHAPES) as u64,
        quiet,
    );
    bar.set_message(t!("measure-fitting"));
    let (models, failed) = gpulab::memory::validate::calibrate_all(
        &config.families,
        &config.dtypes,
        &config.optimizers,
        spec,
        &mut || bar.inc(1),
    );
    bar.finish_and_clear();
    for f in &failed {
        note!("{}", t!("not-calibrated", what = f));
    }
    let host = gpulab::probe::host::detect();
    Calibration::from_results(
        &report.results,
        &report.fits,
        models,
        Machine {
            cpu_model: host.cpu_model,
            os: host.os,
            device: spec.to_string(),
            device_name,
        },
    )
    .save(path, true)?;
    note!("{}", t!("wrote", path = path.display()));
    Ok(())
}

/// `measure --lean`: the ordinary and the lean step, side by side, for every planned grid point.
fn measure_lean(
    config: &gpulab::memory::suite::SuiteConfig,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    use gpulab::memory::measure::{measure_lean_step, measure_step};
    let plan: Vec<_> = gpulab::memory::suite::plan(config)
        .into_iter()
        .filter(|(p, _)| *p == gpulab::memory::suite::Purpose::Grid)
        .map(|(_, c)| c)
        .collect();
    let bar = progress(2 * plan.len() as u64, quiet);
    let mut pairs = Vec::new();
    let mut skipped = Vec::new();
    for c in &plan {
        bar.set_message(c.model.describe());
        let ordinary = measure_step(c);
        bar.inc(1);
        let lean = measure_lean_step(c);
        bar.inc(1);
        match (ordinary, lean) {
            (Ok(a), Ok(b)) => pairs.push((a, b)),
            (Err(e), _) | (_, Err(e)) => skipped.push(format!(
                "{} {} {}: {}",
                c.model.describe(),
                gpulab::dtype::name(c.dtype),
                c.optimizer.name(),
                e.to_string().lines().next().unwrap_or("")
            )),
        }
    }
    bar.finish_and_clear();
    sayln!("{}\n", t!("lean-heading"));
    say!("{}", gpulab::memory::export::lean_table(&pairs).to_text());
    for s in &skipped {
        sayln!("{}", t!("not-measured", what = s));
    }
    Ok(ExitCode::SUCCESS)
}

/// The PyTorch variant the flags describe, on this device.
fn torch_variant(args: &MeasureArgs, cuda: bool) -> anyhow::Result<gpulab::memory::torch::Variant> {
    let mut v = super::common::torch_variant(&args.torch, cuda)?;
    v.checkpointing = args.checkpointing;
    if let (Some(given), None) = (args.torch.lora_targets.as_deref(), v.lora) {
        anyhow::bail!("{}", t!("measure-lora-list", given = format!("{given:?}")));
    }
    if args.lora_rank.is_some() && v.lora.is_none() {
        v.lora = Some(gpulab::memory::models::LoraTargets::Qv);
    }
    v.autocast = args.autocast;
    v.quant = args.quant;
    // A quantized base is frozen: only adapters can train over it.
    if v.quant.is_some() && v.lora.is_none() {
        bail!("{}", t!("quant-needs-lora"));
    }
    Ok(v)
}

/// `measure --pytorch`: the same step in PyTorch, fitted (--save) or validated (--validate).
fn measure_torch(args: &MeasureArgs, spec: DeviceSpec) -> anyhow::Result<ExitCode> {
    use gpulab::memory::models::Family;
    use gpulab::memory::torch::{self, Availability};
    let cuda = matches!(spec, DeviceSpec::Cuda(_));
    // The flags are checked before python is asked (a mistyped flag is said at once).
    let variant = torch_variant(args, cuda)?;
    let python = torch::python(args.python.as_deref());
    let version = match torch::availability(&python) {
        Availability::Available { version, .. } => version,
        other => bail!("{}", other.explain()),
    };
    let families: Vec<Family> = args
        .archs()
        .iter()
        .copied()
        .filter(|f| f.is_transformer())
        .collect();
    if families.is_empty() {
        bail!("{}", t!("torch-families"));
    }
    note!(
        "{}",
        t!(
            "torch-same-step",
            version = version,
            python = python.display(),
            device = spec
        )
    );
    note!(
        "{}",
        t!(
            "torch-variant",
            variant = variant.describe(gpulab::memory::optim::OptimizerKind::Adamw)
        )
    );
    match &args.save {
        _ if args.validate => validate_torch(args, &python, &families, &variant, spec),
        Some(path) => save_torch(args, path, &python, &families, &variant, spec, version),
        None => measure_torch_shapes(args, &python, &families, &variant, cuda),
    }
}

/// `measure --pytorch --validate`: each family's PyTorch model fitted on small shapes and
/// judged on larger ones.
fn validate_torch(
    args: &MeasureArgs,
    python: &Path,
    families: &[gpulab::memory::models::Family],
    variant: &gpulab::memory::torch::Variant,
    spec: DeviceSpec,
) -> anyhow::Result<ExitCode> {
    use gpulab::memory::validate::{self, FamilyValidation};
    let cuda = matches!(spec, DeviceSpec::Cuda(_));
    let mut met = true;
    let dtype = args
        .dtype
        .first()
        .copied()
        .unwrap_or(candle_core::DType::F32);
    let optimizer = args
        .optimizer
        .last()
        .copied()
        .unwrap_or(gpulab::memory::optim::OptimizerKind::Adamw);
    for &family in families {
        let v = FamilyValidation::run_torch(python, family, dtype, optimizer, variant, cuda)?;
        say!("{}", v.to_text(spec));
        met &= v.meets_goal();
    }
    sayln!("{}", validate::goal_line(met));
    Ok(if met {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `measure --pytorch --save FILE` (`--append` keeps the file's other models): the PyTorch
/// models of every family × dtype × optimizer asked for.
fn save_torch(
    args: &MeasureArgs,
    path: &Path,
    python: &Path,
    families: &[gpulab::memory::models::Family],
    variant: &gpulab::memory::torch::Variant,
    spec: DeviceSpec,
    version: String,
) -> anyhow::Result<ExitCode> {
    use gpulab::memory::calibration::{Calibration, Framework, Machine};
    let cuda = matches!(spec, DeviceSpec::Cuda(_));
    // --append: the file must be a PyTorch calibration, read before any measuring.
    let earlier = if args.append {
        let cal = Calibration::load(path)?;
        if cal.framework != Framework::Pytorch {
            bail!("{}", t!("append-not-torch", path = path.display()));
        }
        Some(cal)
    } else {
        claim_outputs(&[&args.save], args.force)?;
        None
    };
    let models = fit_torch_models(args, python, families, variant, cuda)?;
    let host = gpulab::probe::host::detect();
    let mut cal = Calibration::from_results(
        &[],
        &[],
        models,
        Machine {
            cpu_model: host.cpu_model.clone(),
            os: host.os,
            device: spec.to_string(),
            device_name: if cuda {
                spec.to_string()
            } else {
                host.cpu_model
            },
        },
    );
    cal.framework = Framework::Pytorch;
    cal.framework_version = version;
    if let Some(earlier) = earlier {
        cal = earlier.merge_newer(cal);
    }
    cal.save(path, true)?;
    sayln!(
        "{}",
        t!(
            "wrote-torch-models",
            path = path.display(),
            count = cal.models.len()
        )
    );
    Ok(ExitCode::SUCCESS)
}

/// PyTorch's model fitted for every family × dtype × optimizer asked for; one that cannot be
/// fitted is said and skipped.
fn fit_torch_models(
    args: &MeasureArgs,
    python: &Path,
    families: &[gpulab::memory::models::Family],
    variant: &gpulab::memory::torch::Variant,
    cuda: bool,
) -> anyhow::Result<Vec<gpulab::memory::empirical::StepModel>> {
    use gpulab::memory::validate;
    let mut models = Vec::new();
    for &family in families {
        for &dtype in &args.dtype {
            let d = gpulab::dtype::name(dtype);
            for &optimizer in &args.optimizer {
                let o = optimizer.name();
                match validate::calibrate_torch(python, family, dtype, optimizer, variant, cuda) {
                    Ok((m, _)) => {
                        note!(
                            "{}",
                            t!("fitted", what = format!("{} {d} {o}", family.name()))
                        );
                        models.push(m);
                    }
                    Err(e) => note!(
                        "{}",
                        t!(
                            "not-calibrated",
                            what = format!("{} {d} {o}: {e}", family.name())
                        )
                    ),
                }
            }
        }
    }
    Ok(models)
}

/// `measure --pytorch` with a shape: PyTorch's phases for it, beside what the shipped PyTorch
/// model predicts.
fn measure_torch_shapes(
    args: &MeasureArgs,
    python: &Path,
    families: &[gpulab::memory::models::Family],
    variant: &gpulab::memory::torch::Variant,
    cuda: bool,
) -> anyhow::Result<ExitCode> {
    use gpulab::memory::export::{compared_table, Compared};
    let shipped = gpulab::memory::calibration::shipped()?;
    let torch_cal = shipped
        .iter()
        .find(|(c, _)| c.framework == gpulab::memory::calibration::Framework::Pytorch);
    let mut rows = Vec::new();
    for &family in families {
        let mut m = shape(args, family)?;
        if let Some(targets) = variant.lora {
            m.lora = Some(gpulab::memory::models::LoraShape {
                rank: args.lora_rank.unwrap_or(16),
                targets,
            });
        }
        for &dtype in &args.dtype {
            for &optimizer in &args.optimizer {
                let run = gpulab::memory::torch::run(
                    python,
                    std::slice::from_ref(&m),
                    dtype,
                    optimizer,
                    variant,
                    cuda,
                )?;
                for step in run.steps {
                    let step = step.map_err(|e| anyhow::anyhow!("{}: {e}", m.describe()))?;
                    let predicted = torch_cal
                        .and_then(|(c, _)| c.model_for(&m, dtype, optimizer, Some(variant)))
                        .map(|fitted| fitted.predict(&m).peak);
                    rows.push(Compared::new(m.clone(), dtype, optimizer, step, predicted));
                }
            }
        }
    }
    let table = compared_table(&rows);
    match &args.json {
        Some(p) if p == Path::new("-") => emitln!("{}", serde_json::to_string_pretty(&rows)?),
        Some(p) => {
            claim_outputs(&[&args.json], args.force)?;
            write_atomic(
                p,
                (serde_json::to_string_pretty(&rows)? + "\n").as_bytes(),
                true,
            )?;
        }
        None => say!("{}\n\n{}", t!("torch-step-heading"), table.to_text()),
    }
    Ok(ExitCode::SUCCESS)
}

fn validate(args: &MeasureArgs, spec: DeviceSpec, quiet: bool) -> anyhow::Result<ExitCode> {
    use gpulab::memory::validate::{self, FamilyValidation};
    let families = args.archs().to_vec();
    let total: usize = families
        .iter()
        .map(|&f| validate::calibration_shapes(f).len() + validate::held_out_shapes(f).len())
        .sum();
    let bar = progress(total as u64, quiet);
    let mut out = String::new();
    let mut met = true;
    for family in families {
        bar.set_message(t!("measure-validate-bar", family = family.name()));
        let v = FamilyValidation::run(family, spec, || bar.inc(1))?;
        out.push_str(&v.to_text(spec));
        met &= v.meets_goal();
    }
    bar.finish_and_clear();
    say!("{out}");
    sayln!("{}", validate::goal_line(met));
    Ok(if met {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
