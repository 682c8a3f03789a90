//! Dispatch: turns parsed arguments into library calls and decides what goes to stdout (results)
//! and what to stderr (progress, diagnostics).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};

use super::args::{
    BenchArgs, CheckArgs, Cli, Command, CompareArgs, EstimateArgs, FitArgs, LabArgs, ReportArgs,
};
use super::common::{claim_outputs, say_old_spellings, torch_variant};
use gpulab::bench::{self, BenchConfig, MatmulShape, PointStatus};
use gpulab::files::write_atomic;
use gpulab::output::progress;
use gpulab::probe::check::{render_text, run_check, CheckOptions};
use gpulab::probe::device::{self, DeviceSpec};
use gpulab::probe::diagnose::Readiness;
use gpulab::t;

/// Runs one command. `Ok(code)` for outcomes, `Err` for failures the user must fix.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    // main.rs chose the run's language before parsing (so `--help` speaks it); clap refused a
    // `--lang` it could not read, with the catalogue's sentence.
    match cli.command {
        Command::Check(args) => check(&args),
        Command::Bench(args) => bench(&args, cli.quiet),
        Command::Measure(args) => super::measure::measure(&args, cli.quiet),
        Command::Estimate(args) => estimate(&args),
        Command::Fit(args) => fit(&args),
        Command::Report(args) => report(&args, cli.quiet),
        Command::Compare(args) => compare(&args),
        Command::Labs => {
            let korean = korean();
            say!(
                "{}",
                gpulab::labs::Manifest::shipped().progress(&gpulab::labs::runs_dir(&cwd()), korean)
            );
            sayln!("\n{}", t!("labs-next"));
            Ok(ExitCode::SUCCESS)
        }
        Command::Lab(args) => lab(&args),
        Command::Hint(args) => {
            let manifest = gpulab::labs::Manifest::shipped();
            let runs = gpulab::labs::runs_dir(&cwd());
            if finished(&manifest, &args.which, &runs) {
                sayln!("{}", t!("labs-finished"));
                return Ok(ExitCode::SUCCESS);
            }
            let lab = manifest.find(&args.which, &runs)?;
            let korean = korean();
            let (first, second) = if korean {
                (&lab.title_ko, &lab.title)
            } else {
                (&lab.title, &lab.title_ko)
            };
            sayln!(
                "{} {} / {}\n{}",
                lab.dir_name(),
                first,
                second,
                lab.hints_then(korean, args.answers).trim_end()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Seconds from a flag: positive and at most a day (a wait or a budget longer than that is a
/// typo, and `Duration` cannot hold 1e20 s).
fn positive_seconds(name: &str, value: f64) -> anyhow::Result<Duration> {
    const MAX_SECONDS: f64 = 86_400.0;
    if !(value.is_finite() && value > 0.0 && value <= MAX_SECONDS) {
        bail!(
            "{}",
            t!(
                "seconds-positive",
                name = name,
                value = if value.abs() < 1e9 {
                    value.to_string()
                } else {
                    format!("{value:e}")
                },
                max = MAX_SECONDS
            )
        );
    }
    Ok(Duration::from_secs_f64(value))
}

fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let options = CheckOptions {
        smi_program: args.nvidia_smi.clone(),
        smi_timeout: positive_seconds("--smi-timeout", args.smi_timeout)?,
        python: (!args.no_torch).then(|| gpulab::memory::torch::python(args.python.as_deref())),
    };
    let report = run_check(&options);
    if args.json {
        emitln!(
            "{}",
            serde_json::to_string_pretty(&report).context(t!("check-json-failed"))?
        );
    } else {
        say!("{}", render_text(&report));
    }
    let ready = matches!(
        report.diagnosis.overall,
        Readiness::Ready | Readiness::Limited
    );
    Ok(if args.require_gpu && !ready {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn is_stdout(path: &Option<PathBuf>) -> bool {
    path.as_deref() == Some(Path::new("-"))
}

/// The sweep the flags describe: threads, devices, dtypes, sizes, budget and kernel, checked.
fn bench_config(args: &BenchArgs) -> anyhow::Result<BenchConfig> {
    if let Some(threads) = args.threads {
        if threads == 0 {
            bail!("{}", t!("threads-zero"));
        }
        // More threads than the CPU has only queue behind each other (a matmul with 1000 of
        // them ran for minutes without a line): refuse, and say how many there are.
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        if threads > cpus {
            bail!("{}", t!("threads-too-many", asked = threads, cpus = cpus));
        }
        // candle reads RAYON_NUM_THREADS for its matmul and rayon for its pool; both happen
        // later, on first use, so setting it here (before any tensor exists) takes effect.
        std::env::set_var("RAYON_NUM_THREADS", threads.to_string());
    }
    let mut devices = Vec::new();
    for d in &args.device {
        if d.trim().eq_ignore_ascii_case("all") {
            devices.extend(device::available());
        } else {
            let spec = DeviceSpec::parse(d)?;
            // A CUDA device on a build without CUDA would skip every point and "succeed".
            if matches!(spec, DeviceSpec::Cuda(_)) && !gpulab::probe::cuda::COMPILED {
                bail!("{}", t!("cuda-not-built"));
            }
            devices.push(spec);
        }
    }
    devices.dedup();
    let dtypes = args.dtype.clone();
    let sizes = if args.sizes.is_empty() {
        None
    } else {
        Some(
            args.sizes
                .iter()
                .map(|s| MatmulShape::parse(s))
                .collect::<Result<Vec<_>, _>>()?,
        )
    };
    if args.min_runs == 0 {
        bail!("{}", t!("min-runs-zero"));
    }
    Ok(BenchConfig {
        devices,
        dtypes,
        sizes,
        budget: positive_seconds("--budget", args.budget)?,
        min_runs: args.min_runs,
        naive: args.naive,
        cpu_kernel: args.cpu_kernel,
        ..BenchConfig::default()
    })
}

fn bench(args: &BenchArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    let config = bench_config(args)?;
    claim_outputs(
        &[&args.json, &args.csv, &args.markdown, &args.plot],
        args.force,
    )?;
    let points = bench::plan(&config);
    // The bar counts work, not points: a point costs its multiply-adds, so a 5000³ point after
    // two small ones does not make the bar jump back.
    let cost = |s: &bench::MatmulShape| ((s.m as u64 * s.k as u64 * s.n as u64) >> 20).max(1);
    let bar = progress(points.iter().map(|(_, _, s)| cost(s)).sum(), quiet);
    if let Some((d, t, s)) = points.first() {
        bar.set_message(format!("{d} {} {s}", gpulab::dtype::name(*t)));
    }
    let mut write_error = None;
    let report = bench::run(&config, |report, i| {
        bar.inc(points.get(i).map_or(1, |(_, _, s)| cost(s)));
        if let Some((d, t, s)) = points.get(i + 1) {
            bar.set_message(format!("{d} {} {s}", gpulab::dtype::name(*t)));
        }
        // Save as we go: an interrupted sweep keeps every finished point.
        if let Err(e) = write_bench_files(args, report, false) {
            write_error.get_or_insert(e);
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        // The files could not be written (a full disk): the measurements still reach the
        // terminal before the error says why the files are missing.
        sayln!("{}", bench::export::to_text(&report, args.naive).trim_end());
        return Err(e);
    }
    write_bench_files(args, &report, true)?;
    let any_stdout = is_stdout(&args.json) || is_stdout(&args.csv) || is_stdout(&args.markdown);
    if !any_stdout {
        sayln!("{}", bench::export::to_text(&report, args.naive).trim_end());
    }
    let failed = report
        .results
        .iter()
        .any(|r| r.status == PointStatus::Failed);
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn write_bench_files(
    args: &BenchArgs,
    report: &bench::BenchReport,
    last: bool,
) -> anyhow::Result<()> {
    let outputs: [(&Option<PathBuf>, String); 3] = [
        (&args.json, serde_json::to_string_pretty(report)? + "\n"),
        (&args.csv, bench::export::to_csv(report)),
        (&args.markdown, bench::export::to_markdown(report)),
    ];
    for (path, text) in outputs {
        match path {
            Some(p) if p == Path::new("-") && last => emit!("{text}"),
            Some(p) if p == Path::new("-") => {}
            Some(p) => {
                write_atomic(p, text.as_bytes(), true)?;
                if last {
                    note!("{}", t!("wrote", path = p.display()));
                }
            }
            None => {}
        }
    }
    if let (Some(path), true) = (&args.plot, last) {
        gpulab::plot::write_svg(path, &bench::export::plot_panels(report), true)?;
        note!("{}", t!("wrote", path = path.display()));
    }
    Ok(())
}

fn estimate(args: &EstimateArgs) -> anyhow::Result<ExitCode> {
    use gpulab::plan::estimate as est;
    let (precision, recipe) = (args.dtype, args.optimizer);
    if args.zero > 3 {
        bail!("{}", t!("zero-range"));
    }
    say_old_spellings(&[("--hidden", "--d-model", args.hidden.is_some())]);
    let shape = &args.shape;
    if args.gpus == 0 || args.batch == 0 || shape.seq_len == Some(0) {
        bail!("{}", t!("counts-zero"));
    }
    let no_model = args.params.is_none()
        && args.config.is_none()
        && args.arch.is_none()
        && shape.layers.is_none()
        && shape.d_model.or(args.hidden).is_none();
    if let (true, Some(given), None) = (no_model, &args.memory, &args.gpu) {
        return estimate_budget(args, given, precision, recipe);
    }
    let (params, model) = resolve_model(args)?;
    let mut notes = Vec::new();
    let (budget, target_cc) = budget_of(args, precision, &mut notes)?;
    let input = estimate_input(args, params, model.as_ref(), precision, recipe, target_cc)?;
    let calibrations = gpulab::memory::calibration::load_all(&args.calibration)?;
    let result = est::estimate(&input);
    let mut measured: Vec<est::MeasuredColumn> = calibrations
        .iter()
        .map(|(cal, source)| est::measured_column(cal, source, &input, model.as_ref()))
        .collect();
    measured.extend(est::cuda_column(&input, model.as_ref()));
    if args.json {
        emitln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "model": model,
                "estimate": result,
                "measured": measured,
            }))?
        );
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(m) = &model {
        sayln!("{}", m.describe());
    }
    if args.zero > 0 && args.gpus == 1 {
        notes.push(t!("zero-one-gpu", stage = args.zero));
    }
    say!("{}", est::render(&result, &measured, &notes));
    if let Some((budget, label)) = budget {
        say!(
            "{}",
            est::against_budget(&input, &result, &measured, budget, &label)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Everything the estimate's columns read: the model, the recipe, the target.
fn estimate_input(
    args: &EstimateArgs,
    params: u64,
    model: Option<&gpulab::memory::models::ModelConfig>,
    precision: gpulab::plan::estimate::Precision,
    recipe: gpulab::memory::optim::OptimizerRecipe,
    target_cc: Option<(u32, u32)>,
) -> anyhow::Result<gpulab::plan::estimate::EstimateInput> {
    use gpulab::plan::estimate::{EstimateInput, TransformerShape};
    // The PyTorch column's step as people run it on the target: foreach on a GPU.
    let on_gpu = args.gpu.is_some() || args.gpus > 1;
    let input = EstimateInput {
        params,
        shape: model.map(TransformerShape::of),
        batch: args.batch,
        mode: args.mode,
        gpus: args.gpus,
        zero_stage: args.zero,
        target_cc,
        ..recipe_input(args, precision, recipe, on_gpu)?
    };
    Ok(EstimateInput {
        lora_trainable: lora_trainable(args.lora_rank, &input, model),
        ..input
    })
}

/// The model the flags name (a preset, a count, a shape or `--config`), its LoRA rank checked
/// against its width.
fn resolve_model(
    args: &EstimateArgs,
) -> anyhow::Result<(u64, Option<gpulab::memory::models::ModelConfig>)> {
    use gpulab::plan::estimate::{self as est, ModelQuery};
    let shape = &args.shape;
    let config = match &args.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| t!("read-failed", path = path.display()))?;
            Some(gpulab::memory::models::hf_config::from_hf_config(
                &text,
                &path.display().to_string(),
            )?)
        }
        None => None,
    };
    let (params, model) = est::resolve(&ModelQuery {
        name_or_count: args.params.clone(),
        config,
        arch: args.arch,
        layers: shape.layers,
        d_model: shape.d_model.or(args.hidden),
        heads: shape.heads,
        kv_heads: shape.kv_heads,
        ffn: shape.ffn,
        vocab: shape.vocab,
        seq_len: shape.seq_len,
        batch: args.batch,
        untied: shape.untied,
        tied: shape.tied,
    })?;
    if let (Some(r), Some(m)) = (args.lora_rank, &model) {
        if r == 0 || r > m.d_model as u64 {
            bail!("{}", t!("lora-rank-range", width = m.d_model, rank = r));
        }
    } else if args.lora_rank == Some(0) {
        bail!("{}", t!("lora-rank-zero"));
    }
    Ok((params, model))
}

/// The budget `--gpu` or `--memory` names (bytes and its label) and the GPU's compute
/// capability; a note when the GPU has no bf16 for a 16-bit recipe.
#[allow(clippy::type_complexity)]
fn budget_of(
    args: &EstimateArgs,
    precision: gpulab::plan::estimate::Precision,
    notes: &mut Vec<String>,
) -> anyhow::Result<(Option<(gpulab::units::Bytes, String)>, Option<(u32, u32)>)> {
    use gpulab::plan::estimate::Precision;
    Ok(match (&args.gpu, &args.memory) {
        (Some(_), Some(_)) => bail!("{}", t!("gpu-or-memory")),
        (Some(g), None) => {
            let spec = gpulab::probe::gpus::Catalog::shipped().get(g)?.clone();
            let cap = gpulab::probe::nvidia_smi::ComputeCap::parse(&spec.compute_cap);
            // bf16 needs compute capability 8.0: a T4 or V100 emulates it, slowly.
            if cap.is_some_and(|c| !c.supports_bf16())
                && matches!(
                    precision,
                    Precision::Bf16 | Precision::Mixed | Precision::Nf4
                )
            {
                notes.push(t!(
                    "est-no-bf16",
                    gpu = spec.id.as_str(),
                    cap = spec.compute_cap.as_str()
                ));
            }
            (
                Some((spec.memory(), format!("{} ({})", spec.id, spec.memory()))),
                cap.map(|c| (c.major, c.minor)),
            )
        }
        (None, Some(m)) => {
            let b = gpulab::plan::estimate::parse_memory(m)?;
            (Some((b, b.to_string())), None)
        }
        (None, None) => (None, None),
    })
}

/// The adapters as peft counts them on this model's own layers.
fn lora_trainable(
    rank: Option<u64>,
    input: &gpulab::plan::estimate::EstimateInput,
    model: Option<&gpulab::memory::models::ModelConfig>,
) -> Option<u64> {
    let (rank, m) = (rank?, model?);
    let mut adapted = m.clone();
    adapted.lora = Some(gpulab::memory::models::LoraShape {
        rank: rank as usize,
        targets: input
            .lora_targets
            .unwrap_or(gpulab::memory::models::LoraTargets::Qv),
    });
    Some(adapted.lora_params())
}

/// The training recipe the flags name (precision, optimizer, LoRA, checkpointing, PyTorch's
/// step), for a model still to be filled in.
fn recipe_input(
    args: &EstimateArgs,
    precision: gpulab::plan::estimate::Precision,
    recipe: gpulab::memory::optim::OptimizerRecipe,
    on_gpu: bool,
) -> anyhow::Result<gpulab::plan::estimate::EstimateInput> {
    let torch = torch_variant(&args.torch, on_gpu)?;
    if (args.kbit_prep.is_some() || args.no_double_quant)
        && precision != gpulab::plan::estimate::Precision::Nf4
    {
        bail!("{}", t!("kbit-prep-needs-nf4"));
    }
    Ok(gpulab::plan::estimate::EstimateInput {
        precision,
        optimizer_states: recipe.kind.states_per_param(),
        optimizer: Some(recipe.kind),
        lora_rank: args.lora_rank,
        lora_targets: torch.lora,
        torch,
        checkpointing: args.checkpointing,
        on_gpu,
        state_bytes: recipe.state_bytes,
        lora_set: args
            .torch
            .lora_targets
            .as_deref()
            .map(gpulab::memory::models::Projections::parse)
            .transpose()?,
        lora_dropout: lora_dropout(args.dropout.unwrap_or(0.0))?,
        fused_update: recipe.name == "adamw-fused",
        grad_accum: args.grad_accum,
        keeps_outputs: args.keep_outputs,
        kbit_prep: args.kbit_prep.unwrap_or_default(),
        double_quant: !args.no_double_quant,
        ..gpulab::plan::estimate::EstimateInput::mixed_precision_adam(1)
    })
}

/// peft's dropout probability, checked: 0 ≤ p < 1.
fn lora_dropout(p: f64) -> anyhow::Result<bool> {
    if !(0.0..1.0).contains(&p) {
        bail!("{}", t!("lora-dropout-range", given = p));
    }
    Ok(p > 0.0)
}

/// `estimate --memory 24GB` with no model: the lesson's exercise 3 in one command.
fn estimate_budget(
    args: &EstimateArgs,
    given: &str,
    precision: gpulab::plan::estimate::Precision,
    recipe: gpulab::memory::optim::OptimizerRecipe,
) -> anyhow::Result<ExitCode> {
    use gpulab::plan::estimate as est;
    let budget = est::parse_memory(given)?;
    let template = recipe_input(args, precision, recipe, true)?;
    let calibrations = gpulab::memory::calibration::load_all(&args.calibration)?;
    let seq_len = args.shape.seq_len.map_or(512, |s| s as usize);
    let answer = est::answer_budget(&template, budget, &calibrations, seq_len);
    if args.json {
        emitln!("{}", serde_json::to_string_pretty(&answer)?);
    } else {
        say!(
            "{}",
            est::render_budget(&answer, given, &precision.recipe())
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn fit(args: &FitArgs) -> anyhow::Result<ExitCode> {
    use gpulab::plan::fit;
    let catalog = gpulab::probe::gpus::Catalog::shipped();
    let mut workloads = gpulab::plan::lessons::shipped();
    if args.no_recipes {
        workloads.retain(|w| w.origin() != gpulab::plan::lessons::Origin::Recipe);
    }
    let selected: Vec<&gpulab::plan::lessons::Workload> = match &args.lesson {
        Some(q) => vec![gpulab::plan::lessons::find(&workloads, q)?],
        None => workloads.iter().collect(),
    };
    let driver = gpulab::probe::nvidia_smi::query(Path::new("nvidia-smi"), Duration::from_secs(10));
    let mut targets = fit::targets(fit::this_cpu(args.remeasure), &driver, &catalog);
    for name in &args.gpu {
        let spec = catalog.get(name)?;
        if !targets.iter().any(|t| t.name == spec.id) {
            targets.push(fit::Target::from_catalog(spec, &spec.id));
        }
    }
    let fit_report = fit::FitReport::judge_all(&selected, targets);
    if args.json {
        emitln!("{}", serde_json::to_string_pretty(&fit_report)?);
        return Ok(ExitCode::SUCCESS);
    }
    if let (Some(w), Some(v)) = (selected.first(), fit_report.verdicts.first()) {
        if args.lesson.is_some() {
            say!("{}", fit::detail(w, v, &fit_report.targets));
            if let Some(dir) = &args.configs {
                let Some(plan) = &v.multi_gpu else {
                    bail!("{}", t!("fit-no-plan", id = v.id));
                };
                for (name, value) in [
                    ("ds_config.json", plan.deepspeed_config()),
                    ("accelerate_fsdp.json", plan.accelerate_fsdp_config()),
                ] {
                    let path = dir.join(name);
                    write_atomic(
                        &path,
                        (serde_json::to_string_pretty(&value)? + "\n").as_bytes(),
                        args.force,
                    )?;
                    note!("{}", t!("wrote", path = path.display()));
                }
            }
            return Ok(ExitCode::SUCCESS);
        }
    }
    say!("{}", fit_report.to_text());
    sayln!("\n{}", t!("fit-more-detail"));
    Ok(ExitCode::SUCCESS)
}

/// The working folder (".", where the OS cannot say).
fn cwd() -> PathBuf {
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

/// Whether the run speaks Korean (labs keep a Korean and an English text side by side).
fn korean() -> bool {
    gpulab::i18n::current() == gpulab::i18n::Lang::Ko
}

fn report(args: &ReportArgs, quiet: bool) -> anyhow::Result<ExitCode> {
    use gpulab::report;
    let lang = gpulab::i18n::current();
    let timeout = positive_seconds("--smi-timeout", args.smi_timeout)?;
    let base = report_name(args)?;
    let md = args.out.join(format!("{base}.md"));
    let json = args.out.join(format!("{base}.json"));
    let speed_svg = format!("{base}-bench.svg");
    let memory_svg = format!("{base}-memory.svg");
    let (speed_path, memory_path) = (args.out.join(&speed_svg), args.out.join(&memory_svg));
    // Refuse before measuring anything, so a minute of work is never thrown away: the folder
    // must be writable, and no file of the set (plots included) is replaced without --force.
    // The set is claimed (created empty, exclusively) now, so two runs cannot both write it;
    // a run that fails removes what it claimed.
    gpulab::files::writable_dir(&args.out)?;
    for p in [&md, &json, &speed_path, &memory_path] {
        if p.exists() && !args.force {
            bail!("{}", t!("out-exists-report", path = p.display()));
        }
    }
    let claim = gpulab::files::Claim::new(&[&md, &json, &speed_path, &memory_path], args.force)?;
    let r = gather_with_bar(args, timeout, quiet);
    let measured = serde_json::to_string_pretty(&r)? + "\n";
    let write_all = || -> anyhow::Result<()> {
        // The files are ours now (claimed above): replaced in place.
        gpulab::plot::write_svg(&speed_path, &bench::export::plot_panels(&r.bench), true)?;
        gpulab::plot::write_svg(&memory_path, &report::memory_panels(&r), true)?;
        let text = report::to_markdown(&r, lang, &[speed_svg.clone(), memory_svg.clone()]);
        write_atomic(&json, measured.as_bytes(), true)?;
        write_atomic(&md, text.as_bytes(), true)?;
        Ok(())
    };
    if let Err(e) = write_all() {
        // A full disk must not lose the measurements: they go to the temporary folder (or, if
        // even that fails, to stdout), and the claimed set is removed so a rerun is not blocked.
        drop(claim);
        let fallback = std::env::temp_dir().join(format!("{base}.json"));
        let kept = match write_atomic(&fallback, measured.as_bytes(), true) {
            Ok(()) => fallback.display().to_string(),
            Err(_) => {
                emitln!("{measured}");
                "stdout".to_string()
            }
        };
        bail!("{}: {}", e, t!("report-kept", path = kept));
    }
    claim.keep();
    let written: Vec<String> = [&md, &json, &speed_path, &memory_path]
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    say!("{}", report::summary(&r, lang, &written));
    Ok(ExitCode::SUCCESS)
}

/// The report's file name: `--name`, plain, or the date and host.
fn report_name(args: &ReportArgs) -> anyhow::Result<String> {
    use gpulab::report;
    Ok(match &args.name {
        Some(n) => {
            if n.is_empty() || n.contains(['/', '\\']) {
                bail!("{}", t!("name-plain", given = format!("{n:?}")));
            }
            n.clone()
        }
        None => format!(
            "gpulab-report-{}-{}",
            report::date_from_unix(gpulab::units::now_unix_s()),
            report::host_name()
        ),
    })
}

/// The report's measurements, with a bar whose ETA follows the stages as they took last time
/// here (gpulab::report::StageClock).
fn gather_with_bar(
    args: &ReportArgs,
    timeout: Duration,
    quiet: bool,
) -> gpulab::report::EnvironmentReport {
    let mut clock = gpulab::report::StageClock::load(&gpulab::labs::runs_dir(&cwd()));
    let bar = progress(clock.total_ms(), quiet);
    let python = (!args.no_torch).then(|| gpulab::memory::torch::python(args.python.as_deref()));
    let r = gpulab::report::gather(timeout, python, |stage| {
        bar.inc(clock.start_stage());
        bar.set_message(match stage {
            "check" => t!("stage-check"),
            "bench" => t!("stage-bench"),
            "measure" => t!("stage-measure"),
            _ => t!("stage-fit"),
        });
    });
    clock.finish();
    bar.finish_and_clear();
    r
}

fn compare(args: &CompareArgs) -> anyhow::Result<ExitCode> {
    let a = gpulab::report::load(&args.a)?;
    let b = gpulab::report::load(&args.b)?;
    say!(
        "{}",
        gpulab::report::compare(&a, &b, gpulab::i18n::current())
    );
    Ok(ExitCode::SUCCESS)
}

/// `next` after the last lab: a "done" screen, not an error.
fn finished(manifest: &gpulab::labs::Manifest, which: &str, runs: &Path) -> bool {
    which.trim().eq_ignore_ascii_case("next") && manifest.all_done(runs)
}

/// Runs a lab's own program through cargo, so the learner's edits to labs/NN-slug/main.rs count.
fn lab(args: &LabArgs) -> anyhow::Result<ExitCode> {
    let Some(root) = gpulab::labs::repo_root(&cwd()) else {
        bail!("{}", t!("lab-outside-repo"));
    };
    let manifest = gpulab::labs::Manifest::shipped();
    let runs = root.join(gpulab::labs::RUNS_DIR);
    if finished(&manifest, &args.which, &runs) {
        sayln!("{}", t!("labs-finished"));
        return Ok(ExitCode::SUCCESS);
    }
    let lab = manifest.find(&args.which, &runs)?;
    let (title, other) = if korean() {
        (&lab.title_ko, &lab.title)
    } else {
        (&lab.title, &lab.title_ko)
    };
    note!(
        "{}\n",
        t!(
            "lab-banner",
            id = lab.id,
            title = title,
            other = other,
            dir = lab.dir_name()
        )
    );
    if lab.needs_gpu && gpulab::probe::device::cuda_device_count() == 0 {
        note!("{}\n", t!("lab-needs-gpu"));
    }
    if !root
        .join("target/release/examples")
        .join(lab.example())
        .exists()
    {
        note!("{}\n", t!("lab-first-build"));
    }
    let mut cmd = std::process::Command::new("cargo");
    cmd.current_dir(&root);
    cmd.args(["run", "--quiet", "--release", "--example", &lab.example()]);
    if gpulab::probe::cuda::COMPILED {
        cmd.args(["--features", "cuda"]);
    }
    // The lab's own arguments: the quick version, and the learner's language.
    let mut lab_args = Vec::new();
    if args.fast {
        lab_args.push("--fast");
    }
    if korean() {
        lab_args.push("--ko");
    }
    if !lab_args.is_empty() {
        cmd.arg("--").args(lab_args);
    }
    let status = cmd.status().context(t!("lab-cargo-failed"))?;
    Ok(if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
