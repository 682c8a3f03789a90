//! `gpulab report`: the lesson's deliverable — the environment report of 산출물 만들기 — filled in
//! from what was measured here: `check`, a short `bench`, a quick `measure` and `fit`. Written as
//! Markdown for people and JSON for machines (schema `gpulab.report`, version
//! [`REPORT_SCHEMA_VERSION`]), in Korean or English, with SVG plots linked from the Markdown.
//! `compare` puts two reports side by side (the lesson's exercise 2: this laptop vs a Colab T4).

use serde::{Deserialize, Serialize};

use crate::bench::{BenchReport, PointStatus};
use crate::memory::export::MeasureReport;
use crate::plan::fit::Verdict;
use crate::probe::check::CheckReport;
use crate::probe::diagnose::Readiness;

mod compare;
mod markdown;
pub use compare::compare;
pub use markdown::{summary, to_markdown};

/// Version of the report JSON.
pub const REPORT_SCHEMA_VERSION: u32 = 1;

/// The report's language: the catalogue's (re-exported where reports were always written).
pub use crate::i18n::Lang;

/// The template's fields, filled (each `None` carries its reason in `why_empty`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fields {
    /// Date (UTC, YYYY-MM-DD).
    pub date: String,
    /// Local GPU(s), or None.
    pub local_gpu: Option<String>,
    /// nvidia-smi's answer in one line.
    pub nvidia_smi: String,
    /// Framework CUDA (Candle): built with CUDA? device opened?
    pub framework_cuda: String,
    /// PyTorch CUDA (the template's own field): torch's version, its CUDA, is_available().
    #[serde(default)]
    pub pytorch_cuda: String,
    /// GPU memory.
    pub gpu_memory: Option<String>,
    /// Running on Colab?
    pub colab: bool,
    /// Running on a rented cloud GPU (the platform detected from DMI and the environment, with
    /// a GPU nvidia-smi sees)?
    pub cloud_gpu: bool,
    /// Benchmark size used for the template's three numbers.
    pub bench_size: Option<String>,
    /// CPU time (median, seconds).
    pub cpu_time_s: Option<f64>,
    /// GPU time (median, seconds).
    pub gpu_time_s: Option<f64>,
    /// Speedup (median, with its spread).
    pub speedup: Option<(f64, f64, f64)>,
    /// Why GPU fields are empty.
    pub why_empty: Option<String>,
    /// Lessons this environment runs.
    pub runs_here: Vec<String>,
    /// Lessons that need Colab or the cloud, with the recommended target.
    pub needs_elsewhere: Vec<(String, String)>,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnvironmentReport {
    /// What this file is, and who wrote it when.
    #[serde(flatten)]
    pub header: crate::files::Header,
    /// Host name (for the file name and `compare`).
    pub host_name: String,
    /// The filled template.
    pub fields: Fields,
    /// `check`.
    pub check: CheckReport,
    /// The short bench.
    pub bench: BenchReport,
    /// The quick measure.
    pub measure: MeasureReport,
    /// `fit` for every lesson.
    pub fit: Vec<Verdict>,
}

/// Civil date from Unix days (Howard Hinnant's algorithm), to avoid a date crate for one line.
pub fn date_from_unix(secs: u64) -> String {
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Fills the template from the measurements.
pub fn fields(check: &CheckReport, bench: &BenchReport, fit: &[Verdict]) -> Fields {
    let gpus = &check.diagnosis.gpus;
    let local_gpu = (!gpus.is_empty()).then(|| {
        gpus.iter()
            .map(|g| {
                format!(
                    "{} (cc {})",
                    g.name,
                    g.compute_cap
                        .map(|c| c.to_string())
                        .unwrap_or_else(|| "?".into())
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    });
    let nvidia_smi = match &check.driver.failure {
        Some(f) => f.explain(),
        None => t!(
            "rep-smi-ok",
            count = check.driver.gpus.len(),
            driver = check.driver.versions.driver.as_deref().unwrap_or("?"),
            cuda = check.driver.versions.cuda.as_deref().unwrap_or("?")
        ),
    };
    let fw = &check.framework;
    let framework_cuda = if !fw.compiled_with_cuda {
        t!("rep-framework-no-cuda", version = fw.candle_version)
    } else {
        t!(
            "rep-framework-cuda",
            version = fw.candle_version,
            cuda = fw.build_cuda_toolkit.as_deref().unwrap_or("?"),
            cc = fw.build_compute_cap.as_deref().unwrap_or("?"),
            count = fw.device_count.unwrap_or(0),
            readiness = check.diagnosis.overall.label()
        )
    };
    let gpu_memory = (!gpus.is_empty()).then(|| {
        gpus.iter()
            .map(|g| {
                g.memory_total_cuda
                    .or(g.memory_total_smi)
                    .map(|b| b.to_string())
                    .unwrap_or_else(|| "?".into())
            })
            .collect::<Vec<_>>()
            .join(", ")
    });
    // The template's three numbers: the largest size both CPU and GPU measured, else the CPU's.
    let best_speedup = bench
        .speedups
        .iter()
        .filter(|s| s.dtype == candle_core::DType::F32)
        .max_by_key(|s| s.shape.m * s.shape.k * s.shape.n);
    let cpu_largest = bench
        .results
        .iter()
        .filter(|r| {
            r.device == crate::probe::device::DeviceSpec::Cpu
                && r.dtype == candle_core::DType::F32
                && r.status == PointStatus::Ok
        })
        .max_by_key(|r| r.shape.m * r.shape.k * r.shape.n);
    let (bench_size, cpu_time_s, gpu_time_s, speedup) = match best_speedup {
        Some(s) => {
            let time = |device: crate::probe::device::DeviceSpec| {
                bench
                    .results
                    .iter()
                    .find(|r| r.device == device && r.dtype == s.dtype && r.shape == s.shape)
                    .and_then(|r| r.time.map(|t| t.median))
            };
            (
                Some(s.shape.to_string()),
                time(crate::probe::device::DeviceSpec::Cpu),
                time(s.device),
                Some((s.ratio.median, s.ratio.low, s.ratio.high)),
            )
        }
        None => (
            cpu_largest.map(|r| r.shape.to_string()),
            cpu_largest.and_then(|r| r.time.map(|t| t.median)),
            None,
            None,
        ),
    };
    let why_empty = match check.diagnosis.overall {
        Readiness::Ready | Readiness::Limited => None,
        _ => Some(check.diagnosis.headline.clone()),
    };
    let mut runs_here = Vec::new();
    let mut needs_elsewhere = Vec::new();
    for v in fit {
        // Judged by the target's name, not the sentence: the sentence is in a language.
        let local = v
            .target()
            .is_some_and(|t| t == crate::plan::fit::THIS_CPU || t.starts_with("local:"));
        if local {
            runs_here.push(v.id.clone());
        } else if !trains_nothing(v) {
            needs_elsewhere.push((v.id.clone(), crate::plan::fit::recommendation_text(v)));
        }
    }
    let env = &check.host.environment;
    Fields {
        date: date_from_unix(check.header.created_unix_s),
        local_gpu,
        nvidia_smi,
        framework_cuda,
        pytorch_cuda: match &check.torch {
            Some(t) => t.summary(),
            None => t!("rep-torch-not-asked"),
        },
        gpu_memory,
        colab: env.colab,
        cloud_gpu: check.host.platform.is_cloud() && !check.driver.gpus.is_empty(),
        bench_size,
        cpu_time_s,
        gpu_time_s,
        speedup,
        why_empty,
        runs_here,
        needs_elsewhere,
    }
}

/// The report with every sentence said again in the thread's language: the diagnosis and
/// PyTorch's findings from the two views they were drawn from, the template's fields from the
/// measurements (the JSON keeps the sentences of the language it was gathered in).
pub fn localized(r: &EnvironmentReport) -> EnvironmentReport {
    let mut out = r.clone();
    out.check.diagnosis = crate::probe::diagnose::diagnose(&out.check.driver, &out.check.framework);
    out.check.torch_findings = out
        .check
        .torch
        .as_ref()
        .map(|t| crate::probe::pytorch::findings(t, &out.check.driver))
        .unwrap_or_default();
    out.fields = fields(&out.check, &out.bench, &out.fit);
    out
}

/// A lesson whose code trains nothing runs nowhere: every cell is "n/a".
pub fn trains_nothing(v: &Verdict) -> bool {
    v.cells.iter().all(|c| !c.runnable)
}

/// Runs every stage and assembles the report. `on_stage` hears each stage's name as it starts
/// (for one progress display across the stages).
pub fn gather(
    smi_timeout: std::time::Duration,
    python: Option<std::path::PathBuf>,
    mut on_stage: impl FnMut(&str),
) -> EnvironmentReport {
    use crate::bench::{self, BenchConfig};
    use crate::memory::models::Family;
    use crate::memory::optim::OptimizerKind;
    use crate::memory::suite::{self, SuiteConfig};

    on_stage("check");
    let check = crate::probe::check::run_check(&crate::probe::check::CheckOptions {
        smi_timeout,
        python,
        ..Default::default()
    });
    on_stage("bench");
    let devices = crate::probe::device::available();
    let bench_report = bench::run(
        &BenchConfig {
            devices: devices.clone(),
            budget: std::time::Duration::from_millis(300),
            ..BenchConfig::default()
        },
        |_, _| {},
    );
    on_stage("measure");
    // Measure on the first GPU when there is one: that is where training would happen.
    let device = devices
        .get(1)
        .copied()
        .unwrap_or(crate::probe::device::DeviceSpec::Cpu);
    let mut config = SuiteConfig::default_for(device);
    config.families = vec![Family::Gpt, Family::Mlp];
    config.shapes = config
        .families
        .iter()
        .map(|&f| crate::memory::models::ModelConfig::default_for(f))
        .collect();
    config.optimizers = vec![
        OptimizerKind::Sgd,
        OptimizerKind::Momentum,
        OptimizerKind::Adamw,
    ];
    config.batches.clear();
    config.seq_lens.clear();
    let results = suite::run(&config, |_, _| {});
    let device_name = device
        .open()
        .map(|d| crate::probe::device::name(&d))
        .unwrap_or_else(|_| device.to_string());
    let measure = MeasureReport::new(device.to_string(), device_name, results);
    on_stage("fit");
    let catalog = crate::probe::gpus::Catalog::shipped();
    // The bench above already measured this CPU: no second benchmark.
    let targets = crate::plan::fit::targets(
        crate::plan::fit::cpu_from_bench(&bench_report),
        &check.driver,
        &catalog,
    );
    let fit: Vec<Verdict> = crate::plan::lessons::shipped()
        .iter()
        .map(|w| crate::plan::fit::judge(w, &targets))
        .collect();
    let fields = fields(&check, &bench_report, &fit);
    EnvironmentReport {
        header: crate::files::Header {
            created_unix_s: check.header.created_unix_s,
            ..crate::files::Header::new("gpulab.report", REPORT_SCHEMA_VERSION)
        },
        host_name: host_name(),
        fields,
        check,
        bench: bench_report,
        measure,
        fit,
    }
}

/// This machine's name, for file names: /etc/hostname or HOSTNAME, made file-safe.
pub fn host_name() -> String {
    let raw = std::fs::read_to_string("/etc/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_else(|| "host".into());
    let safe: String = raw
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if safe.is_empty() {
        "host".into()
    } else {
        safe
    }
}

/// The report's memory plot: measured bytes per parameter of the GPT step against the number
/// of optimizer states (SGD 0, momentum 1, AdamW 2), one colour per dtype: measured points beside
/// the textbook's line for the same recipe, and the lesson's 2-byte rule it exists to contrast.
pub fn memory_panels(r: &EnvironmentReport) -> Vec<crate::plot::Panel> {
    use crate::memory::formulas::{textbook_state_bytes, Precision};
    use crate::plot::{Series, Style};
    let mut series = Vec::new();
    for (i, (dt, precision)) in [("f32", Precision::F32), ("bf16", Precision::Bf16)]
        .into_iter()
        .enumerate()
    {
        let mut points: Vec<(f64, f64)> = r
            .measure
            .results
            .iter()
            .filter(|x| {
                crate::dtype::name(x.config.dtype) == dt
                    && x.config.model.family == crate::memory::models::Family::Gpt
            })
            .filter_map(|x| {
                x.measurement.as_ref().map(|m| {
                    (
                        x.config.optimizer.states_per_param() as f64,
                        crate::memory::export::model_states_per_param(m),
                    )
                })
            })
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        series.push(Series {
            label: t!("plot-measured-states", dtype = dt),
            points,
            style: Style::Points,
            color: Some(i),
        });
        series.push(Series {
            label: t!("plot-textbook-series", dtype = dt),
            points: (0..=2)
                .map(|k| (k as f64, textbook_state_bytes(precision, k).total()))
                .collect(),
            style: Style::Line,
            color: Some(i),
        });
    }
    series.push(Series {
        label: t!("plot-two-byte-series"),
        points: vec![(0.0, 2.0), (2.0, 2.0)],
        style: Style::Line,
        color: Some(3),
    });
    vec![crate::plot::Panel {
        title: t!("plot-per-param-title"),
        x_label: t!("plot-states-axis"),
        y_label: t!("plot-bytes-axis"),
        log_x: false,
        log_y: false,
        x_ticks: Vec::new(),
        series,
    }]
}

/// Reads a report JSON, with a clear error for anything else.
pub fn load(path: &std::path::Path) -> crate::Result<EnvironmentReport> {
    let text = crate::files::read_text(path)?;
    parse(&text, &path.display().to_string())
}

/// Parses a report JSON's text (`name` says where it came from, for the error).
pub fn parse(text: &str, name: &str) -> crate::Result<EnvironmentReport> {
    let r: EnvironmentReport = serde_json::from_str(text)
        .map_err(|e| crate::bad!("report-not-a-file", name = name, error = e))?;
    r.header.expect(
        "gpulab.report",
        REPORT_SCHEMA_VERSION,
        name,
        &t!("report-redo"),
    )?;
    // A hand-edited report must not print negative or absurd times: every time positive and
    // under a day, every speed-up and rate positive and finite.
    let f = &r.fields;
    let time_ok = |t: Option<f64>| t.is_none_or(|t| t.is_finite() && t > 0.0 && t < 86_400.0);
    let ratio_ok = |x: f64| x.is_finite() && x > 0.0 && x < 1e9;
    let speedup_ok = f
        .speedup
        .is_none_or(|(m, lo, hi)| ratio_ok(m) && ratio_ok(lo) && ratio_ok(hi));
    let rates_ok = r.bench.results.iter().all(|p| {
        p.gflops
            .is_none_or(|g| g.is_finite() && (0.0..1e9).contains(&g))
    });
    if !(time_ok(f.cpu_time_s) && time_ok(f.gpu_time_s) && speedup_ok && rates_ok) {
        return Err(crate::bad!("report-bad-numbers", name = name));
    }
    Ok(r)
}

/// The report's stages as they took last time on this machine (`report-stages.json` in the
/// runs folder; typical times on a 2-core machine the first time), so a progress bar's ETA
/// follows the real, uneven stages rather than counting them as equal steps.
pub struct StageClock {
    path: std::path::PathBuf,
    expected: Vec<u64>,
    took: Vec<u64>,
    started: Option<std::time::Instant>,
}

impl StageClock {
    /// The stages [`gather`] reports, in order.
    pub const STAGES: [&'static str; 4] = ["check", "bench", "measure", "fit"];

    /// The last run's timings from `runs_dir`, or typical ones.
    pub fn load(runs_dir: &std::path::Path) -> StageClock {
        let path = runs_dir.join("report-stages.json");
        let expected = std::fs::read_to_string(&path)
            .ok()
            .and_then(|t| serde_json::from_str::<Vec<u64>>(&t).ok())
            .filter(|v| v.len() == Self::STAGES.len() && v.iter().all(|ms| *ms > 0))
            .unwrap_or_else(|| vec![2_000, 8_000, 10_000, 2_000]);
        StageClock {
            path,
            expected,
            took: Vec::new(),
            started: None,
        }
    }

    /// Milliseconds all stages are expected to take.
    pub fn total_ms(&self) -> u64 {
        self.expected.iter().sum()
    }

    /// A stage starts: the expected milliseconds of the one that just ended (0 at the first).
    pub fn start_stage(&mut self) -> u64 {
        let ended = self.end_stage();
        self.started = Some(std::time::Instant::now());
        ended
    }

    /// The last stage ended: its time is kept, and a complete set is saved for the next run.
    pub fn finish(&mut self) {
        self.end_stage();
        if self.took.len() == Self::STAGES.len() {
            // Only a hint for the next bar: a write that fails costs nothing.
            if let Ok(text) = serde_json::to_string(&self.took) {
                let _ = crate::files::write_atomic(&self.path, text.as_bytes(), true);
            }
        }
    }

    fn end_stage(&mut self) -> u64 {
        let Some(started) = self.started.take() else {
            return 0;
        };
        self.took.push(started.elapsed().as_millis().max(1) as u64);
        self.expected.get(self.took.len() - 1).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stage_clock_learns_this_machines_stages() {
        let dir = tempfile::tempdir().unwrap();
        let mut clock = StageClock::load(dir.path());
        assert_eq!(clock.total_ms(), 22_000, "typical times the first time");
        let mut ended = Vec::new();
        for _ in StageClock::STAGES {
            ended.push(clock.start_stage());
        }
        clock.finish();
        // Each stage's bar step is the expected time of the stage that just ended.
        assert_eq!(ended, vec![0, 2_000, 8_000, 10_000]);
        let again = StageClock::load(dir.path());
        assert_eq!(again.expected.len(), 4);
        assert!(again.expected.iter().all(|ms| *ms >= 1));
        assert!(
            again.total_ms() < 22_000,
            "this run's own times: {:?}",
            again.expected
        );
    }

    #[test]
    fn dates_from_unix_seconds() {
        assert_eq!(date_from_unix(0), "1970-01-01");
        assert_eq!(date_from_unix(951_782_400), "2000-02-29");
        assert_eq!(date_from_unix(1_796_212_800), "2026-12-02");
    }

    /// Snapshot tests: fixed inputs (two real reports recorded on the project's CPU machine, with
    /// 2 and 1 matmul threads) rendered in both languages and compared with the committed
    /// Markdown. `UPDATE_SNAPSHOTS=1 cargo test` rewrites them after an intended change.
    fn snapshot(name: &str, got: &str) {
        let path = format!("{}/data/fixtures/report/{name}", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
            std::fs::write(&path, got).unwrap();
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            got, want,
            "{name} changed; rerun with UPDATE_SNAPSHOTS=1 if intended"
        );
    }

    fn fixture(name: &str) -> EnvironmentReport {
        load(std::path::Path::new(&format!(
            "{}/data/fixtures/report/{name}",
            env!("CARGO_MANIFEST_DIR")
        )))
        .unwrap()
    }

    #[test]
    fn a_detected_cloud_gpu_shows_provider_price_and_the_stop_reminder() {
        use crate::probe::platform::{classify, Signs};
        // The recorded CPU report, moved onto a recorded AWS g5 (data/fixtures/platform) with
        // the A10G its nvidia-smi would list, up two hours.
        let mut r = fixture("cpu-2threads.json");
        let text = std::fs::read_to_string(format!(
            "{}/data/fixtures/platform/aws-g5-nitro.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap();
        let dmi = table["dmi"]
            .as_table()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
            .collect();
        let platform = classify(&Signs {
            dmi,
            ..Signs::default()
        });
        r.check.session = crate::probe::session::describe(
            &platform,
            Some(7200.0),
            &["NVIDIA A10G".to_string()],
            &crate::probe::gpus::Catalog::shipped(),
        );
        r.check.host.platform = platform;
        for (lang, reminder, price) in [
            (Lang::En, "Stop it when done", "· 1× A10G $1.00–1.30/h"),
            (
                Lang::Ko,
                "다 쓰면 꼭 멈추세요",
                "· 1× A10G 시간당 $1.00–1.30",
            ),
        ] {
            let md = to_markdown(&r, lang, &[]);
            assert!(md.contains("AWS g5.xlarge"), "{md}");
            assert!(md.contains(price), "{md}");
            assert!(md.contains("$2.00–2.60"), "two hours so far: {md}");
            assert!(md.contains(reminder), "{md}");
            assert!(
                md.contains("aws ec2 stop-instances --instance-ids i-0abc1234def567890"),
                "{md}"
            );
        }
        // Nothing detected is said plainly.
        let plain = to_markdown(&fixture("cpu-2threads.json"), Lang::En, &[]);
        assert!(plain.contains("no cloud or Colab detected"), "{plain}");
    }

    #[test]
    fn markdown_snapshots_in_both_languages() {
        let r = fixture("cpu-2threads.json");
        let plots = ["a-bench.svg".to_string(), "a-memory.svg".to_string()];
        for (lang, file) in [
            (Lang::En, "cpu-2threads.en.md"),
            (Lang::Ko, "cpu-2threads.ko.md"),
        ] {
            let md = to_markdown(&r, lang, &plots);
            snapshot(file, &md);
        }
        let ko = to_markdown(&r, Lang::Ko, &plots);
        for heading in [
            "# GPU/Cloud 환경 점검 결과",
            "- 날짜:",
            "## 벤치마크",
            "## 판단",
            "이 환경으로 가능한 강의",
            "Colab/클라우드가 필요한 강의",
        ] {
            assert!(ko.contains(heading), "{heading}");
        }
        let en = to_markdown(&r, Lang::En, &plots);
        // The reason is said once, at the first empty GPU field; the others point at it.
        assert_eq!(en.matches("(empty because:").count(), 1, "{en}");
        assert!(
            en.contains("- GPU time: — (empty for the reason above)"),
            "GPU fields say why they are empty"
        );
    }

    /// The lesson's template (data/report-template.md, verbatim): its headings and field names,
    /// in its order, as (line prefix, is a heading).
    fn template_lines() -> Vec<(String, bool)> {
        let text = std::fs::read_to_string(format!(
            "{}/data/report-template.md",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let lines: Vec<(String, bool)> = text
            .lines()
            .filter_map(|l| {
                if l.starts_with('#') {
                    Some((l.to_string(), true))
                } else {
                    l.strip_prefix("- ")
                        .and_then(|f| f.strip_suffix(':'))
                        .map(|f| (format!("- {f}"), false))
                }
            })
            .collect();
        assert_eq!(
            lines.len(),
            15,
            "the template has 3 headings and 12 fields: {lines:?}"
        );
        lines
    }

    #[test]
    fn keeps_the_lessons_template_verbatim() {
        let r = fixture("cpu-2threads.json");
        for lang in [Lang::Ko, Lang::En] {
            let md = to_markdown(&r, lang, &[]);
            let mut from = 0;
            for (want, heading) in template_lines() {
                // Korean: the line as the template writes it. English: the same, and a
                // translation may follow in parentheses.
                let found = md.lines().enumerate().skip(from).find(|(_, line)| {
                    let rest = line.strip_prefix(want.as_str());
                    match (lang, heading, rest) {
                        (_, _, None) => false,
                        (Lang::Ko, true, Some(rest)) => rest.is_empty(),
                        (_, true, Some(rest)) => rest.is_empty() || rest.starts_with(" ("),
                        (Lang::Ko, false, Some(rest)) => rest.starts_with(": "),
                        (_, false, Some(rest)) => rest.starts_with(": ") || rest.starts_with(" ("),
                    }
                });
                let Some((at, _)) = found else {
                    panic!("{lang:?} report lacks the template's `{want}` (in its order):\n{md}");
                };
                from = at + 1;
            }
        }
    }

    #[test]
    fn json_round_trips_and_compare_shows_both() {
        let a = fixture("cpu-2threads.json");
        let b = fixture("cpu-1thread.json");
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<EnvironmentReport>(&json).unwrap(), a);
        let table = compare(&a, &b, Lang::En);
        snapshot("compare.en.md", &table);
        assert!(table.contains("CPU f32 GFLOP/s (best)"));
        assert!(compare(&a, &b, Lang::Ko).contains("판단이 바뀐 강의"));
    }

    #[test]
    fn languages() {
        assert_eq!(Lang::parse("KO").unwrap(), Lang::Ko);
        assert!(Lang::parse("fr").is_err());
    }
}
