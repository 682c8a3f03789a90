//! PyTorch's view, the third beside the driver's and Candle's: every later lesson of the course
//! runs PyTorch, and the lesson's template asks for "PyTorch CUDA". gpulab asks the learner's
//! python (the active environment's `python3`, or `--python PATH`) with `data/torch-probe.py`,
//! in a child process bounded by a timeout: torch's version, the CUDA it was built with,
//! `is_available()`, its devices and their memory. No python and no torch are answers, not
//! errors. Disagreements with the driver get a cause and a fix ([`findings`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::probe::diagnose::{version_lt, Cause, Finding};
use crate::probe::nvidia_smi::DriverView;
use crate::units::Bytes;

/// The probe, as shipped in `data/torch-probe.py`.
pub const SCRIPT: &str = include_str!("../../data/torch-probe.py");

/// The first `import torch` of a session can take several seconds (and far more on a cold
/// network filesystem); a hung CUDA initialisation never returns.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// One device as PyTorch lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TorchDevice {
    /// CUDA ordinal.
    pub index: usize,
    /// Product name.
    pub name: String,
    /// `get_device_properties(i).total_memory` (the lesson's snippet spells it `total_mem`,
    /// which PyTorch does not have).
    pub total_memory: Bytes,
    /// Compute capability, major.
    pub major: u32,
    /// Compute capability, minor.
    pub minor: u32,
}

/// What torch said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TorchFacts {
    /// torch.__version__.
    pub version: String,
    /// torch.version.cuda: the CUDA the wheel was built with (None: a CPU-only wheel).
    pub cuda_built: Option<String>,
    /// torch.cuda.is_available().
    pub available: bool,
    /// torch.cuda.device_count().
    pub device_count: usize,
    /// The devices (when available).
    pub devices: Vec<TorchDevice>,
    /// Warnings CUDA's initialisation printed (their first lines).
    pub warnings: Vec<String>,
    /// An exception from the CUDA calls, if any.
    pub cuda_error: Option<String>,
}

/// The answer, or why there is none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum TorchStatus {
    /// torch answered.
    Found(TorchFacts),
    /// No such interpreter.
    NoPython,
    /// The interpreter cannot import torch.
    NoTorch {
        /// Its error.
        reason: String,
    },
    /// No answer within the timeout.
    TimedOut,
    /// An answer gpulab could not read.
    Unreadable {
        /// What was wrong.
        reason: String,
    },
}

/// PyTorch's view, with the interpreter asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TorchView {
    /// The interpreter.
    pub python: PathBuf,
    /// What it said.
    pub status: TorchStatus,
}

#[derive(Deserialize)]
struct Reply {
    import_error: Option<String>,
    torch: Option<String>,
    cuda_built: Option<String>,
    #[serde(default)]
    available: bool,
    #[serde(default)]
    device_count: usize,
    #[serde(default)]
    devices: Vec<ReplyDevice>,
    #[serde(default)]
    warnings: Vec<String>,
    cuda_error: Option<String>,
}

#[derive(Deserialize)]
struct ReplyDevice {
    index: usize,
    name: String,
    total_memory: u64,
    major: u32,
    minor: u32,
}

/// Reads the probe's output (its last JSON line).
pub fn parse(stdout: &str) -> TorchStatus {
    let Some(line) = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
    else {
        return TorchStatus::Unreadable {
            reason: t!("torch-no-result"),
        };
    };
    let reply: Reply = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(e) => {
            return TorchStatus::Unreadable {
                reason: t!("torch-unreadable", error = e),
            }
        }
    };
    if let Some(reason) = reply.import_error {
        return TorchStatus::NoTorch {
            reason: crate::process::excerpt(&reason, 300),
        };
    }
    let Some(version) = reply.torch else {
        return TorchStatus::Unreadable {
            reason: t!("torch-no-version"),
        };
    };
    TorchStatus::Found(TorchFacts {
        version,
        cuda_built: reply.cuda_built,
        available: reply.available,
        device_count: reply.device_count,
        devices: reply
            .devices
            .into_iter()
            .map(|d| TorchDevice {
                index: d.index,
                name: d.name,
                total_memory: Bytes(d.total_memory),
                major: d.major,
                minor: d.minor,
            })
            .collect(),
        warnings: reply.warnings,
        cuda_error: reply.cuda_error,
    })
}

/// The last line of a program's error output, at most 200 characters: enough to name a crash
/// without printing a 5 MB traceback back.
fn last_words(stderr: &str) -> String {
    let line = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    crate::process::excerpt(line, 200)
}

/// Asks `python` (a bounded child process).
pub fn probe(python: &Path, timeout: Duration) -> TorchView {
    let status = match crate::process::run_with_timeout(python, &["-c", SCRIPT], None, timeout) {
        Err(_) => TorchStatus::NoPython,
        Ok(None) => TorchStatus::TimedOut,
        Ok(Some(out)) => match parse(&out.stdout) {
            // No answer at all: say how the python ended and the last of what it said.
            TorchStatus::Unreadable { reason } if out.exit_code != Some(0) => {
                let said = last_words(&out.stderr);
                TorchStatus::Unreadable {
                    reason: t!(
                        "torch-crashed",
                        reason = reason,
                        code = out
                            .exit_code
                            .map_or_else(|| t!("torch-by-signal"), |c| c.to_string()),
                        said = said
                    ),
                }
            }
            status => status,
        },
    };
    TorchView {
        python: python.to_path_buf(),
        status,
    }
}

impl TorchView {
    /// One line for `check`'s PyTorch row.
    pub fn summary(&self) -> String {
        let py = self.python.display();
        match &self.status {
            TorchStatus::Found(f) => t!(
                "torch-found",
                version = f.version,
                python = py,
                cuda = f
                    .cuda_built
                    .clone()
                    .unwrap_or_else(|| t!("torch-cpu-wheel")),
                available = if f.available { "True" } else { "False" },
                count = f.devices.len()
            ),
            TorchStatus::NoPython => t!("torch-no-python", python = py),
            TorchStatus::NoTorch { reason } => t!("torch-missing", python = py, reason = reason),
            TorchStatus::TimedOut => {
                t!("torch-timed-out", python = py, seconds = TIMEOUT.as_secs())
            }
            TorchStatus::Unreadable { reason } => format!("{py}: {reason}"),
        }
    }

    /// The facts, when torch answered.
    pub fn facts(&self) -> Option<&TorchFacts> {
        match &self.status {
            TorchStatus::Found(f) => Some(f),
            _ => None,
        }
    }
}

/// What the lesson's own snippet gets wrong, said wherever the snippet is shown.
pub fn snippet_note() -> String {
    t!("torch-snippet-note")
}

/// Where PyTorch and the driver disagree: a cause and a fix for each.
pub fn findings(view: &TorchView, driver: &DriverView) -> Vec<Finding> {
    let Some(f) = view.facts() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let gpus = driver.gpus.len();
    let driver_cuda = driver.versions.cuda.as_deref();
    match (&f.cuda_built, f.available) {
        (None, _) if gpus > 0 => out.push(Finding::new(
            Cause::TorchCpuOnly,
            t!("torch-diag-cpu-only", version = f.version, gpus = gpus),
            t!(
                "torch-fix-cpu-only",
                tag = driver_cuda.map_or("126".to_string(), index_tag),
                driver = driver_cuda.unwrap_or("?")
            ),
        )),
        (Some(built), false) if gpus > 0 => {
            let too_new = driver_cuda.is_some_and(|d| version_lt(d, built))
                || f.warnings
                    .iter()
                    .any(|w| w.contains("driver on your system is too old"));
            if too_new {
                out.push(Finding::new(
                    Cause::TorchCudaNewerThanDriver,
                    t!(
                        "torch-diag-too-new",
                        version = f.version,
                        built = built,
                        driver =
                            driver_cuda.map_or_else(|| t!("torch-see-warning"), str::to_string)
                    ),
                    t!(
                        "torch-fix-too-new",
                        tag = driver_cuda.map_or("118".to_string(), index_tag)
                    ),
                ));
            } else {
                out.push(Finding::new(
                    Cause::TorchCannotUseGpu,
                    t!(
                        "torch-diag-unavailable",
                        gpus = gpus,
                        detail = f
                            .warnings
                            .first()
                            .or(f.cuda_error.as_ref())
                            .map(|w| format!(": {w}"))
                            .unwrap_or_default()
                    ),
                    t!("torch-fix-unavailable"),
                ));
            }
        }
        (_, true) if f.devices.len() != gpus && gpus > 0 => out.push(Finding::new(
            Cause::TorchSeesOtherDevices,
            t!(
                "torch-diag-other-devices",
                torch = f.devices.len(),
                gpus = gpus
            ),
            t!("torch-fix-other-devices"),
        )),
        _ => {}
    }
    out
}

/// The PyTorch index tag for a driver's CUDA version: the newest wheel series it can run
/// (cu118, cu121, cu124, cu126, cu128, cu129, cu130: the series download.pytorch.org serves).
fn index_tag(driver_cuda: &str) -> String {
    const SERIES: [&str; 7] = ["11.8", "12.1", "12.4", "12.6", "12.8", "12.9", "13.0"];
    SERIES
        .iter()
        .rev()
        .find(|s| !version_lt(driver_cuda, s))
        .unwrap_or(&"11.8")
        .replace('.', "")
}

#[cfg(test)]
mod tests;
