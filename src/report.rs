//! `gpulab report`: the lesson's deliverable — the environment report of 산출물 만들기 — filled in
//! from what was measured here: `check`, a short `bench`, a quick `measure` and `fit`. Written as
//! Markdown for people and JSON for machines (schema `gpulab.report`, version
//! [`REPORT_SCHEMA_VERSION`]), in Korean or English, with SVG plots linked from the Markdown.
//! `compare` puts two reports side by side (the lesson's exercise 2: this laptop vs a Colab T4).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::bench::{BenchReport, PointStatus};
use crate::memory::export::MeasureReport;
use crate::plan::fit::Verdict;
use crate::probe::check::CheckReport;
use crate::probe::diagnose::Readiness;

/// Version of the report JSON.
pub const REPORT_SCHEMA_VERSION: u32 = 1;

/// Report language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    /// 한국어 (the course's language).
    Ko,
    /// English.
    En,
}

impl Lang {
    /// Parses "ko" / "en".
    pub fn parse(text: &str) -> crate::Result<Lang> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ko" | "kr" | "korean" => Ok(Lang::Ko),
            "en" | "english" => Ok(Lang::En),
            other => Err(crate::Error::Invalid(format!(
                "unknown language {other:?}: use ko or en"
            ))),
        }
    }

    /// From the locale (LC_ALL, LC_MESSAGES, LANG): Korean when it says ko, else English.
    pub fn from_locale() -> Lang {
        for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Ok(v) = std::env::var(var) {
                if !v.is_empty() {
                    return if v.to_ascii_lowercase().starts_with("ko") {
                        Lang::Ko
                    } else {
                        Lang::En
                    };
                }
            }
        }
        Lang::En
    }
}

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
    /// GPU memory.
    pub gpu_memory: Option<String>,
    /// Running on Colab?
    pub colab: bool,
    /// Running on a cloud GPU (a GPU in a container that is not Colab)?
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
        None => format!(
            "{} GPU(s), driver {}, CUDA {}",
            check.driver.gpus.len(),
            check.driver.versions.driver.as_deref().unwrap_or("?"),
            check.driver.versions.cuda.as_deref().unwrap_or("?")
        ),
    };
    let fw = &check.framework;
    let framework_cuda = if !fw.compiled_with_cuda {
        format!(
            "candle {}: built without CUDA (Device::new_cuda fails by design)",
            fw.candle_version
        )
    } else {
        format!(
            "candle {} with CUDA {} (cc {}): {} device(s), {}",
            fw.candle_version,
            fw.build_cuda_toolkit.as_deref().unwrap_or("?"),
            fw.build_compute_cap.as_deref().unwrap_or("?"),
            fw.device_count.unwrap_or(0),
            check.diagnosis.overall.label()
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
        let local =
            v.recommendation.starts_with("this CPU") || v.recommendation.starts_with("local:");
        if local {
            runs_here.push(v.id.clone());
        } else if !v.recommendation.starts_with("nothing to train") {
            needs_elsewhere.push((v.id.clone(), v.recommendation.clone()));
        }
    }
    let env = &check.host.environment;
    Fields {
        date: date_from_unix(check.header.created_unix_s),
        local_gpu,
        nvidia_smi,
        framework_cuda,
        gpu_memory,
        colab: env.colab,
        cloud_gpu: !env.colab && env.container.is_some() && !check.driver.gpus.is_empty(),
        bench_size,
        cpu_time_s,
        gpu_time_s,
        speedup,
        why_empty,
        runs_here,
        needs_elsewhere,
    }
}

struct Words {
    title: &'static str,
    date: &'static str,
    local_gpu: &'static str,
    smi: &'static str,
    framework: &'static str,
    memory: &'static str,
    colab: &'static str,
    cloud: &'static str,
    bench: &'static str,
    cpu_time: &'static str,
    gpu_time: &'static str,
    speedup: &'static str,
    judgement: &'static str,
    runs_here: &'static str,
    needs: &'static str,
    none: &'static str,
    yes: &'static str,
    no: &'static str,
    why: &'static str,
    size: &'static str,
    per_param: &'static str,
    per_param_note: &'static str,
    kernel_note: &'static str,
    table: &'static str,
    next: &'static str,
    next_no_gpu: &'static str,
    next_gpu: &'static str,
    details: &'static str,
    generated: &'static str,
}

const EN: Words = Words {
    title: "GPU/Cloud environment check",
    date: "Date",
    local_gpu: "local GPU",
    smi: "`nvidia-smi` result",
    framework: "framework CUDA (Candle)",
    memory: "GPU memory",
    colab: "Colab used",
    cloud: "cloud GPU used",
    bench: "Benchmark",
    cpu_time: "CPU time",
    gpu_time: "GPU time",
    speedup: "speedup",
    judgement: "Judgement",
    runs_here: "Lessons this environment can run",
    needs: "Lessons that need Colab/cloud",
    none: "none",
    yes: "yes",
    no: "no",
    why: "empty because",
    size: "matmul size",
    per_param: "Bytes per parameter, measured here (Candle, one real training step)",
    per_param_note: "The lesson's rule of thumb is 2 bytes per parameter (fp16 weights only); training also keeps gradients, optimizer state and activations.",
    kernel_note: "CPU f32 ran on gpulab's AVX2 kernel: Candle's own CPU matmul is about 1.5× slower on CPUs without AVX-512, and a slow CPU baseline would inflate every GPU speedup (`gpulab bench --cpu-kernel candle` to compare).",
    table: "Every lesson, every target",
    next: "What to do next",
    next_no_gpu: "Run the CPU lessons here. For GPU lessons open Colab (Runtime > Change runtime type > T4 GPU), run `gpulab report` there with a cuda build, and compare the two reports with `gpulab compare`.",
    next_gpu: "This GPU is ready: run the GPU lessons here; for what does not fit, use the recommended cloud GPU and stop the instance when done.",
    details: "Details",
    generated: "Generated by gpulab",
};

const KO: Words = Words {
    title: "GPU/Cloud 환경 점검 결과",
    date: "날짜",
    local_gpu: "local GPU",
    smi: "`nvidia-smi` 결과",
    framework: "프레임워크 CUDA (Candle)",
    memory: "GPU memory",
    colab: "Colab 실행 여부",
    cloud: "cloud GPU 사용 여부",
    bench: "벤치마크(Benchmark)",
    cpu_time: "CPU time",
    gpu_time: "GPU time",
    speedup: "speedup",
    judgement: "판단",
    runs_here: "이 환경으로 가능한 강의",
    needs: "Colab/클라우드가 필요한 강의",
    none: "없음",
    yes: "예",
    no: "아니요",
    why: "비어 있는 이유",
    size: "행렬 크기",
    per_param: "파라미터당 바이트, 이 머신에서 측정 (Candle, 실제 훈련 스텝 1회)",
    per_param_note: "강의의 경험칙은 파라미터당 2바이트(fp16 가중치만)입니다. 실제 훈련에서는 기울기(gradient), 옵티마이저 상태(optimizer state), 활성값(activation)이 추가로 필요합니다.",
    kernel_note: "CPU f32는 gpulab의 AVX2 커널로 측정했습니다. AVX-512가 없는 CPU에서 Candle 자체 CPU 행렬곱은 약 1.5배 느리고, 느린 CPU 기준값은 모든 GPU 속도 향상을 부풀립니다(비교: `gpulab bench --cpu-kernel candle`).",
    table: "모든 강의 × 모든 실행 환경",
    next: "다음에 할 일",
    next_no_gpu: "CPU 강의는 여기서 실행하세요. GPU 강의는 Colab(Runtime > Change runtime type > T4 GPU)에서 cuda 빌드로 `gpulab report`를 실행하고, `gpulab compare`로 두 보고서를 비교하세요.",
    next_gpu: "이 GPU는 준비되었습니다. GPU 강의를 여기서 실행하고, 들어가지 않는 것은 추천된 클라우드 GPU를 쓰되 실습이 끝나면 인스턴스를 중지하세요.",
    details: "자세한 내용",
    generated: "gpulab이 생성함",
};

fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::Ko => &KO,
        Lang::En => &EN,
    }
}

fn secs(v: Option<f64>) -> Option<String> {
    v.map(|s| {
        if s < 1.0 {
            format!("{:.2} ms", s * 1e3)
        } else {
            format!("{s:.3} s")
        }
    })
}

/// Korean for the machine-made sentences that reach the report (causes, fixes,
/// recommendations); what has no translation here stays in English, as technical terms do in
/// the lesson.
fn ko_text(text: &str, cause: Option<crate::probe::diagnose::Cause>) -> String {
    use crate::probe::diagnose::Cause;
    if let Some(cause) = cause {
        let known = match cause {
            Cause::NoDriver => Some("NVIDIA GPU가 없습니다: nvidia-smi가 설치되어 있지 않습니다 (NVIDIA 드라이버 없음)"),
            Cause::BuiltWithoutCuda => Some("nvidia-smi는 GPU를 보지만 이 gpulab은 CUDA 없이 빌드되었습니다: `cargo run --release --features cuda -- report`로 다시 빌드하세요"),
            Cause::DriverNotLoaded => Some("nvidia-smi가 NVIDIA 커널 드라이버와 통신할 수 없습니다: 드라이버를 설치한 뒤 재부팅하세요"),
            Cause::DriverLibraryMismatch => Some("드라이버 커널 모듈과 라이브러리 버전이 다릅니다: 재부팅하세요"),
            Cause::ContainerLostGpu => Some("컨테이너가 GPU 접근을 잃었습니다 (NVML Unknown Error): `--gpus all`로 컨테이너를 다시 시작하세요"),
            Cause::NoDevices => Some("드라이버는 있지만 GPU가 보이지 않습니다"),
            _ => None,
        };
        if let Some(k) = known {
            return k.to_string();
        }
    }
    text.replace("this CPU, slowly", "이 CPU (느림)")
        .replace("this CPU", "이 CPU")
        .replace("Colab free", "Colab 무료")
        .replace(", free)", ", 무료)")
        .replace("about $", "약 $")
        .replace(
            "no single target: see the multi-GPU line",
            "단일 GPU로는 불가: 다중 GPU(ZeRO-3/FSDP) 필요",
        )
        .replace(
            "nothing to train in the lesson's code; see its recipe",
            "강의 코드는 학습하지 않음; 레시피 참고",
        )
}

/// The Markdown report. `plots` are file names (next to the Markdown) to link.
pub fn to_markdown(r: &EnvironmentReport, lang: Lang, plots: &[String]) -> String {
    let w = words(lang);
    let f = &r.fields;
    let first_cause = r.check.diagnosis.findings.first().map(|x| x.cause);
    let tr = |text: &str, cause: Option<crate::probe::diagnose::Cause>| match lang {
        Lang::Ko => ko_text(text, cause),
        Lang::En => text.to_string(),
    };
    let why_empty = f.why_empty.as_ref().map(|why| tr(why, first_cause));
    let empty = |v: Option<String>| -> String {
        v.unwrap_or_else(|| match &why_empty {
            Some(why) => format!("— ({}: {why})", w.why),
            None => "—".into(),
        })
    };
    let yn = |b: bool| if b { w.yes } else { w.no };
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", w.title);
    let _ = writeln!(out, "- {}: {}", w.date, f.date);
    let _ = writeln!(out, "- {}: {}", w.local_gpu, empty(f.local_gpu.clone()));
    let _ = writeln!(out, "- {}: {}", w.smi, f.nvidia_smi);
    let _ = writeln!(out, "- {}: {}", w.framework, f.framework_cuda);
    let _ = writeln!(out, "- {}: {}", w.memory, empty(f.gpu_memory.clone()));
    let _ = writeln!(out, "- {}: {}", w.colab, yn(f.colab));
    let _ = writeln!(out, "- {}: {}", w.cloud, yn(f.cloud_gpu));
    let _ = writeln!(out, "\n## {}\n", w.bench);
    if let Some(size) = &f.bench_size {
        let _ = writeln!(out, "- {}: {size}³ f32 (median)", w.size);
    }
    let _ = writeln!(
        out,
        "- {}: {}",
        w.cpu_time,
        secs(f.cpu_time_s).unwrap_or_else(|| "—".into())
    );
    let _ = writeln!(out, "- {}: {}", w.gpu_time, empty(secs(f.gpu_time_s)));
    let _ = writeln!(
        out,
        "- {}: {}",
        w.speedup,
        empty(
            f.speedup
                .map(|(m, lo, hi)| format!("{m:.1}× ({lo:.1}×…{hi:.1}×)"))
        )
    );
    let _ = writeln!(out, "\n## {}\n", w.judgement);
    let _ = writeln!(
        out,
        "- {}: {}",
        w.runs_here,
        if f.runs_here.is_empty() {
            w.none.to_string()
        } else {
            f.runs_here.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "- {}: {}",
        w.needs,
        if f.needs_elsewhere.is_empty() {
            w.none.to_string()
        } else {
            f.needs_elsewhere
                .iter()
                .map(|(id, rec)| format!("{id} → {}", tr(rec, None)))
                .collect::<Vec<_>>()
                .join("; ")
        }
    );
    let _ = writeln!(out, "\n## {}\n", w.next);
    let ready = matches!(
        r.check.diagnosis.overall,
        Readiness::Ready | Readiness::Limited
    );
    let _ = writeln!(out, "{}", if ready { w.next_gpu } else { w.next_no_gpu });
    if !r.check.diagnosis.fix.is_empty() {
        let fix = match (lang, first_cause) {
            (Lang::Ko, Some(crate::probe::diagnose::Cause::NoDriver)) => {
                "CPU 강의에는 고칠 것이 없습니다. 이 머신에 NVIDIA GPU가 있다면 드라이버를 설치한 뒤 `nvidia-smi`를 실행해 보세요.".to_string()
            }
            _ => r.check.diagnosis.fix.clone(),
        };
        let _ = writeln!(out, "\n> {fix}");
    }
    let _ = writeln!(out, "\n## {}\n", w.details);
    let _ = writeln!(out, "### {}\n", w.per_param);
    let family = if r
        .measure
        .results
        .iter()
        .any(|x| x.config.model.family == crate::memory::models::Family::Gpt)
    {
        crate::memory::models::Family::Gpt
    } else {
        crate::memory::models::Family::Mlp
    };
    out.push_str(&crate::memory::export::per_param_table(&r.measure.results, family).to_markdown());
    let _ = writeln!(out, "\n{}\n", w.per_param_note);
    let _ = writeln!(out, "### {}\n", w.bench);
    out.push_str(&crate::bench::export::results_table(&r.bench).to_markdown());
    if r.bench.cpu_kernel == Some(crate::bench::sgemm::CpuKernel::GpulabAvx2) {
        let _ = writeln!(out, "\n{}", w.kernel_note);
    }
    let _ = writeln!(out, "\n### {}\n", w.table);
    out.push_str(&crate::plan::fit::table(&r.fit).to_markdown());
    for p in plots {
        let _ = writeln!(out, "\n![{p}]({p})");
    }
    let _ = writeln!(
        out,
        "\n---\n{} {} · {} · {}",
        w.generated, r.header.gpulab_version, r.check.host.cpu_model, r.host_name
    );
    out
}

/// Runs every stage and assembles the report. `on_stage` hears each stage's name as it starts
/// (for one progress display across the stages).
pub fn gather(
    smi_timeout: std::time::Duration,
    mut on_stage: impl FnMut(&str),
) -> EnvironmentReport {
    use crate::bench::{self, BenchConfig};
    use crate::memory::models::Family;
    use crate::memory::optim::OptimizerKind;
    use crate::memory::suite::{self, SuiteConfig};

    on_stage("check");
    let check = crate::probe::check::run_check(&crate::probe::check::CheckOptions {
        smi_timeout,
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
    config.optimizers = vec![OptimizerKind::Sgd, OptimizerKind::Adamw];
    config.batches.clear();
    config.seq_lens.clear();
    let results = suite::run(&config, |_, _| {});
    let device_name = device
        .open()
        .map(|d| crate::probe::device::name(&d))
        .unwrap_or_else(|_| device.to_string());
    let measure = MeasureReport::new(device.to_string(), device_name, results);
    on_stage("fit");
    let catalog = crate::plan::gpus::Catalog::shipped();
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

/// Two reports side by side.
pub fn compare(a: &EnvironmentReport, b: &EnvironmentReport, lang: Lang) -> String {
    use crate::table::{Align, Table};
    let w = words(lang);
    let name =
        |tag: &str, r: &EnvironmentReport| format!("{tag}: {} ({})", r.host_name, r.fields.date);
    let (na, nb) = (name("A", a), name("B", b));
    let mut t = Table::new(&["", &na, &nb], &[Align::Left, Align::Left, Align::Left]);
    let dev = |r: &EnvironmentReport| r.fields.local_gpu.clone().unwrap_or_else(|| w.none.into());
    let cell = |v: Option<String>| v.unwrap_or_else(|| "—".into());
    t.push(vec![
        "CPU".into(),
        a.check.host.cpu_model.clone(),
        b.check.host.cpu_model.clone(),
    ]);
    t.push(vec![w.local_gpu.into(), dev(a), dev(b)]);
    t.push(vec![
        w.memory.into(),
        cell(a.fields.gpu_memory.clone()),
        cell(b.fields.gpu_memory.clone()),
    ]);
    t.push(vec![
        w.colab.into(),
        a.fields.colab.to_string(),
        b.fields.colab.to_string(),
    ]);
    t.push(vec![
        format!("{} ({})", w.cpu_time, w.size),
        cell(
            secs(a.fields.cpu_time_s)
                .map(|s| format!("{s} @ {}", a.fields.bench_size.clone().unwrap_or_default())),
        ),
        cell(
            secs(b.fields.cpu_time_s)
                .map(|s| format!("{s} @ {}", b.fields.bench_size.clone().unwrap_or_default())),
        ),
    ]);
    t.push(vec![
        w.gpu_time.into(),
        cell(secs(a.fields.gpu_time_s)),
        cell(secs(b.fields.gpu_time_s)),
    ]);
    t.push(vec![
        w.speedup.into(),
        cell(a.fields.speedup.map(|s| format!("{:.1}×", s.0))),
        cell(b.fields.speedup.map(|s| format!("{:.1}×", s.0))),
    ]);
    let best_cpu = |r: &EnvironmentReport| {
        r.bench
            .results
            .iter()
            .filter(|x| {
                x.device == crate::probe::device::DeviceSpec::Cpu
                    && x.dtype == candle_core::DType::F32
            })
            .filter_map(|x| x.gflops)
            .fold(0f64, f64::max)
    };
    t.push(vec![
        "CPU f32 GFLOP/s (best)".into(),
        format!("{:.1}", best_cpu(a)),
        format!("{:.1}", best_cpu(b)),
    ]);
    let mut out = format!("{}\n", t.to_markdown());
    // Lessons whose recommendation differs between the two environments.
    // Only a change of target counts, not a change of the estimated minutes.
    let target = |rec: &str| rec.split(" (").next().unwrap_or(rec).to_string();
    let mut changed = Table::new(
        &["lesson", &na, &nb],
        &[Align::Left, Align::Left, Align::Left],
    );
    for va in &a.fit {
        if let Some(vb) = b.fit.iter().find(|v| v.id == va.id) {
            if target(&va.recommendation) != target(&vb.recommendation) {
                changed.push(vec![
                    va.id.clone(),
                    va.recommendation.clone(),
                    vb.recommendation.clone(),
                ]);
            }
        }
    }
    let _ = writeln!(
        out,
        "\n{}: {}\n",
        match lang {
            Lang::Ko => "판단이 바뀐 강의",
            Lang::En => "Lessons whose verdict changes",
        },
        changed.rows.len()
    );
    if !changed.rows.is_empty() {
        out.push_str(&changed.to_markdown());
    }
    out
}

/// The report's memory plot: measured bytes per parameter of the GPT step against the number
/// of optimizer states, one line per dtype.
pub fn memory_panels(r: &EnvironmentReport) -> Vec<crate::plot::Panel> {
    vec![crate::plot::Panel {
        title: "Measured bytes per parameter (GPT, one training step)".into(),
        x_label: "optimizer states per parameter (0 sgd, 2 adamw)".into(),
        y_label: "bytes / parameter".into(),
        log_x: false,
        series: ["f32", "bf16"]
            .iter()
            .map(|dt| crate::plot::Series {
                label: format!("{dt} weights+grads+state"),
                points: r
                    .measure
                    .results
                    .iter()
                    .filter(|x| {
                        crate::dtype::name(x.config.dtype) == *dt
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
                    .collect(),
            })
            .collect(),
    }]
}

/// Reads a report JSON, with a clear error for anything else.
pub fn load(path: &std::path::Path) -> crate::Result<EnvironmentReport> {
    let text = std::fs::read_to_string(path).map_err(|source| crate::Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let r: EnvironmentReport = serde_json::from_str(&text).map_err(|e| {
        crate::Error::Invalid(format!(
            "{}: not a gpulab report (write one with `gpulab report`): {e}",
            path.display()
        ))
    })?;
    r.header.expect(
        "gpulab.report",
        REPORT_SCHEMA_VERSION,
        &path.display().to_string(),
        "write a current one with `gpulab report`",
    )?;
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "## 벤치마크(Benchmark)",
            "## 판단",
            "이 환경으로 가능한 강의",
            "Colab/클라우드가 필요한 강의",
        ] {
            assert!(ko.contains(heading), "{heading}");
        }
        let en = to_markdown(&r, Lang::En, &plots);
        assert!(
            en.contains("- GPU time: — (empty because"),
            "GPU fields say why they are empty"
        );
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
