//! `gpulab check`: asks the host, the driver and the framework, lines them up, and renders the
//! result for a terminal or as versioned JSON (schema `gpulab.check`, version
//! [`CHECK_SCHEMA_VERSION`]; fields are only ever added within a version).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::probe::diagnose::{diagnose, Diagnosis, Readiness};
use crate::probe::framework::{probe, FrameworkView};
use crate::probe::host::{detect, HostInfo};
use crate::probe::nvidia_smi::{query, DriverView};

/// Version of the JSON layout. Bump when a field changes meaning or disappears.
pub const CHECK_SCHEMA_VERSION: u32 = 1;

/// How to ask.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The nvidia-smi program (found on PATH when a bare name).
    pub smi_program: PathBuf,
    /// How long one nvidia-smi call may take.
    pub smi_timeout: Duration,
    /// The python to ask for PyTorch's view (`python3` on PATH by default); None: do not ask.
    pub python: Option<PathBuf>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            smi_program: PathBuf::from("nvidia-smi"),
            // nvidia-smi can take seconds when persistence mode is off and the driver has to
            // wake every GPU; a hung driver never answers.
            smi_timeout: Duration::from_secs(10),
            python: Some(PathBuf::from("python3")),
        }
    }
}

/// Everything `check` found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckReport {
    /// What this file is, and who wrote it when.
    #[serde(flatten)]
    pub header: crate::files::Header,
    /// The host.
    pub host: HostInfo,
    /// The driver's view.
    pub driver: DriverView,
    /// The framework's view.
    pub framework: FrameworkView,
    /// The verdict.
    pub diagnosis: Diagnosis,
    /// PyTorch's view, when a python was asked (None in files written before gpulab asked).
    #[serde(default)]
    pub torch: Option<crate::probe::pytorch::TorchView>,
    /// Where PyTorch and the driver disagree.
    #[serde(default)]
    pub torch_findings: Vec<crate::probe::diagnose::Finding>,
    /// This session on a rented or lent machine: cost so far and how to stop it, or Colab's
    /// runtime and limits.
    #[serde(default = "own_session")]
    pub session: crate::probe::session::Session,
    /// Wall time of the whole check, seconds.
    pub elapsed_s: f64,
}

/// Runs the whole check. Never fails: every environment fact is data.
pub fn run_check(options: &CheckOptions) -> CheckReport {
    let started = Instant::now();
    let host = detect();
    let driver = query(&options.smi_program, options.smi_timeout);
    let framework = probe();
    let diagnosis = diagnose(&driver, &framework);
    let torch = options
        .python
        .as_deref()
        .map(|py| crate::probe::pytorch::probe(py, crate::probe::pytorch::TIMEOUT));
    let torch_findings = torch
        .as_ref()
        .map(|t| crate::probe::pytorch::findings(t, &driver))
        .unwrap_or_default();
    let names: Vec<String> = driver.gpus.iter().map(|g| g.name.clone()).collect();
    let session = crate::probe::session::describe(
        &host.platform,
        host.uptime_s,
        &names,
        &crate::probe::gpus::Catalog::shipped(),
    );
    CheckReport {
        header: crate::files::Header::new("gpulab.check", CHECK_SCHEMA_VERSION),
        host,
        driver,
        framework,
        diagnosis,
        torch,
        torch_findings,
        session,
        elapsed_s: started.elapsed().as_secs_f64(),
    }
}

fn own_session() -> crate::probe::session::Session {
    crate::probe::session::Session::Own
}

fn or_unknown<T: std::fmt::Display>(value: &Option<T>) -> String {
    value
        .as_ref()
        .map(|v| v.to_string())
        .unwrap_or_else(|| "?".into())
}

/// The label column of the summary: 12 terminal columns, whatever the language. Two spaces
/// follow the widest label, so a wrapped line finds its column (src/output.rs).
fn label(id: &str) -> String {
    crate::table::pad(&crate::i18n::text(crate::i18n::current(), id, &[]), 12)
}

/// The one-screen terminal summary, in the chosen language.
pub fn render_text(report: &CheckReport) -> String {
    let mut out = String::new();
    let h = &report.host;
    let blank = " ".repeat(12);
    let mut place = Vec::new();
    if h.environment.colab {
        place.push("Google Colab".to_string());
    }
    if let Some(c) = &h.environment.container {
        place.push(t!("check-container", kind = c));
    }
    if h.environment.wsl {
        place.push("WSL".to_string());
    }
    let _ = writeln!(out, "{}\n", t!("check-title"));
    let _ = writeln!(
        out,
        "{}",
        t!(
            "check-host",
            os = h.os,
            arch = h.arch,
            place = if place.is_empty() {
                String::new()
            } else {
                format!(" · {}", place.join(", "))
            }
        )
    );
    let _ = writeln!(
        out,
        "{blank}{}",
        t!(
            "check-host-cpu",
            cpu = h.cpu_model,
            cores = or_unknown(&h.physical_cores),
            threads = h.logical_cpus,
            simd = h.simd
        )
    );
    let _ = writeln!(
        out,
        "{blank}{}",
        t!(
            "check-host-ram",
            total = h.ram_total,
            available = h.ram_available
        )
    );
    let place = crate::probe::session::lines(&h.platform, &report.session, crate::i18n::current());
    for (i, line) in place.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}{line}",
            if i == 0 {
                label("check-place")
            } else {
                blank.clone()
            }
        );
    }

    let d = &report.driver;
    match &d.failure {
        Some(f) => {
            let _ = writeln!(out, "{}nvidia-smi: {}", label("check-driver"), f.explain());
        }
        None => {
            let _ = writeln!(
                out,
                "{}{}",
                label("check-driver"),
                t!(
                    "check-driver-line",
                    count = d.gpus.len(),
                    driver = or_unknown(&d.versions.driver),
                    cuda = or_unknown(&d.versions.cuda),
                    dropped = if d.dropped_fields.is_empty() {
                        String::new()
                    } else {
                        t!("check-dropped-fields", fields = d.dropped_fields.join(", "))
                    }
                )
            );
        }
    }
    let fw = &report.framework;
    let line = if fw.compiled_with_cuda {
        t!(
            "check-framework-cuda",
            version = fw.candle_version,
            cuda = or_unknown(&fw.build_cuda_toolkit),
            cc = or_unknown(&fw.build_compute_cap),
            count = or_unknown(&fw.device_count),
            error = fw
                .init_error
                .as_ref()
                .map(|e| format!(" · {}", e.message))
                .unwrap_or_default()
        )
    } else {
        t!(
            "check-framework-no-cuda",
            version = fw.candle_version,
            error = fw
                .init_error
                .as_ref()
                .map_or_else(|| "?".to_string(), |e| e.said())
        )
    };
    let _ = writeln!(out, "{}{line}", label("check-framework"));

    if let Some(t) = &report.torch {
        let _ = writeln!(out, "{}{}", crate::table::pad("PyTorch", 12), t.summary());
        if let Some(f) = t.facts() {
            for d in &f.devices {
                let _ = writeln!(
                    out,
                    "{blank}{}",
                    t!(
                        "check-torch-device",
                        index = d.index,
                        name = d.name,
                        cc = format!("{}.{}", d.major, d.minor),
                        memory = d.total_memory
                    )
                );
            }
            for w in &f.warnings {
                let _ = writeln!(out, "{blank}{}", t!("check-warning", text = w));
            }
            let _ = writeln!(
                out,
                "{blank}{}",
                t!("check-note", text = crate::probe::pytorch::snippet_note())
            );
        }
        for f in &report.torch_findings {
            let _ = writeln!(out, "{blank}- {}", f.summary);
            let _ = writeln!(out, "{blank}  {}", t!("check-fix", text = f.fix));
        }
    }

    let diag = &report.diagnosis;
    if !diag.gpus.is_empty() {
        let _ = writeln!(out);
        for g in &diag.gpus {
            let _ = writeln!(
                out,
                "{}",
                t!(
                    "check-gpu-line",
                    smi = g
                        .smi_index
                        .map(|i| format!("smi {i}"))
                        .unwrap_or_else(|| "smi -".into()),
                    cuda = g
                        .cuda_ordinal
                        .map(|i| format!("cuda:{i}"))
                        .unwrap_or_else(|| "cuda -".into()),
                    name = g.name,
                    cc = or_unknown(&g.compute_cap),
                    smi_memory = or_unknown(&g.memory_total_smi),
                    cuda_memory = or_unknown(&g.memory_total_cuda),
                    readiness = g.readiness.label()
                )
            );
            for f in &g.findings {
                let _ = writeln!(out, "    - {}", f.summary);
                if !f.fix.is_empty() {
                    let _ = writeln!(out, "      {}", t!("check-fix", text = f.fix));
                }
            }
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "{}{}", label("check-verdict"), diag.headline);
    if !diag.fix.is_empty() {
        let _ = writeln!(out, "{}{}", label("check-next"), diag.fix);
    }
    for f in diag.findings.iter().skip(1) {
        let _ = writeln!(out, "{}{}", label("check-also"), f.summary);
    }
    if diag.overall != Readiness::Ready && !diag.advice.is_empty() {
        let _ = writeln!(out, "{}{}", label("check-meanwhile"), diag.advice);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_check_round_trips_through_json() {
        let options = CheckOptions {
            smi_program: PathBuf::from("/nonexistent/nvidia-smi"),
            python: Some(PathBuf::from("/nonexistent/python3")),
            ..CheckOptions::default()
        };
        let report = run_check(&options);
        assert_eq!(report.header.schema_version, CHECK_SCHEMA_VERSION);
        let json = serde_json::to_string(&report).unwrap();
        let back: CheckReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back, report);
        let text = crate::i18n::scoped(crate::i18n::Lang::En, || render_text(&report));
        assert!(text.contains("nvidia-smi is not installed"), "{text}");
        assert!(text.contains("Verdict"));
        assert!(
            text.contains("PyTorch     no python at /nonexistent/python3"),
            "{text}"
        );
    }
}
