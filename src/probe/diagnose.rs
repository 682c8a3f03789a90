//! Lines the driver's view (nvidia-smi) up with the framework's view (Candle) per GPU and turns
//! every disagreement into a named cause with a one-sentence fix. Pure: it takes the two views
//! and returns a [`Diagnosis`], so every branch is tested on recorded outputs.
//!
//! Devices are matched by UUID, then by PCI bus id, and only then by position: nvidia-smi
//! numbers GPUs in PCI order while CUDA's default order is fastest-first
//! (`CUDA_DEVICE_ORDER=PCI_BUS_ID` changes that), so index 0 need not be ordinal 0.
//!
//! One file on purpose: it is one decision table, and a cause's branch, its
//! precedence and its fix are read together.

use serde::{Deserialize, Serialize};

use crate::probe::framework::{CudaDeviceProbe, CudaErrorKind, CudaProblem, FrameworkView};
use crate::probe::nvidia_smi::{ComputeCap, DriverView, SmiFailure, SmiGpu};
use crate::units::Bytes;

/// How usable a GPU (or the machine) is for training with this binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Readiness {
    /// No NVIDIA GPU here: a CPU machine.
    NoGpu,
    /// A GPU is there but this binary cannot use it.
    NotUsable,
    /// Usable, with a limit (no bf16, a MIG slice, little free memory).
    Limited,
    /// Usable: f32 and bf16 kernels ran and were correct.
    Ready,
}

impl Readiness {
    /// Short label for the terminal.
    pub fn label(self) -> String {
        match self {
            Readiness::NoGpu => crate::t!("ready-no-gpu"),
            Readiness::NotUsable => crate::t!("ready-not-usable"),
            Readiness::Limited => crate::t!("ready-limited"),
            Readiness::Ready => crate::t!("ready-ready"),
        }
    }
}

/// Named causes. Stable snake_case names: they are part of the JSON schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Cause {
    NoDriver,
    DriverNotLoaded,
    DriverLibraryMismatch,
    ContainerLostGpu,
    DriverLibrariesMissing,
    NoDevices,
    SmiPermissionDenied,
    SmiTimedOut,
    SmiUnreadable,
    SmiFailed,
    BuiltWithoutCuda,
    HiddenByCudaVisibleDevices,
    NotVisibleToCuda,
    DriverTooOldForToolkit,
    KernelsForOtherArch,
    NoBf16,
    CudaLibrariesMissing,
    DeviceOpenFailed,
    KernelFailed,
    WrongResult,
    OutOfMemory,
    MigSlice,
    MemoryMismatch,
    GpuBusy,
    TorchCpuOnly,
    TorchCudaNewerThanDriver,
    TorchCannotUseGpu,
    TorchSeesOtherDevices,
    Ready,
}

/// One cause found, with what to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The named cause.
    pub cause: Cause,
    /// What is wrong (or right), in one sentence.
    pub summary: String,
    /// What to do, in one sentence. Empty when nothing needs doing.
    pub fix: String,
}

impl Finding {
    pub(crate) fn new(cause: Cause, summary: impl Into<String>, fix: impl Into<String>) -> Finding {
        Finding {
            cause,
            summary: summary.into(),
            fix: fix.into(),
        }
    }
}

/// How the driver's GPU and Candle's device were found to be the same card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MatchedBy {
    /// The same UUID.
    #[serde(rename = "uuid")]
    Uuid,
    /// The same PCI bus id.
    #[serde(rename = "pci_bus_id")]
    PciBusId,
    /// The same position, neither reporting a UUID.
    #[serde(rename = "position")]
    Position,
    /// Only one view has this GPU.
    #[serde(rename = "")]
    Unmatched,
}

/// Lets a reader compare with the serialized name (`matched_by == "uuid"`).
impl PartialEq<&str> for MatchedBy {
    fn eq(&self, other: &&str) -> bool {
        let name = match self {
            MatchedBy::Uuid => "uuid",
            MatchedBy::PciBusId => "pci_bus_id",
            MatchedBy::Position => "position",
            MatchedBy::Unmatched => "",
        };
        name == *other
    }
}

/// One GPU, both views lined up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GpuVerdict {
    /// nvidia-smi's index, when the driver lists it.
    pub smi_index: Option<u32>,
    /// CUDA's ordinal, when Candle sees it.
    pub cuda_ordinal: Option<usize>,
    /// How the two views were matched (serialized "uuid", "pci_bus_id", "position", or "" when
    /// only one view has the GPU).
    pub matched_by: MatchedBy,
    /// The GPU's name as Candle or the driver reports it.
    pub name: String,
    /// Compute capability (from whichever view knows it).
    pub compute_cap: Option<ComputeCap>,
    /// Memory total per nvidia-smi.
    pub memory_total_smi: Option<Bytes>,
    /// Memory total per CUDA.
    pub memory_total_cuda: Option<Bytes>,
    /// The verdict.
    pub readiness: Readiness,
    /// Causes, most important first.
    pub findings: Vec<Finding>,
}

/// The whole verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// Best readiness over all GPUs.
    pub overall: Readiness,
    /// One line a learner reads first.
    pub headline: String,
    /// The one thing to do next.
    pub fix: String,
    /// Per-GPU verdicts.
    pub gpus: Vec<GpuVerdict>,
    /// Machine-wide findings (driver failures, build without cuda…).
    pub findings: Vec<Finding>,
    /// What this machine is good for without a GPU, and where to go for GPU lessons.
    pub advice: String,
}

/// Relative gap allowed between nvidia-smi's and CUDA's memory totals. The CUDA-visible total is
/// the nvidia-smi total less the driver's reserve: 0.6 % on an H100 (81559 vs 479 MiB reserved),
/// 2.4 % on an L4 (23034 MiB vs 22478 MiB), per data/docs/gpu-probe.md.
pub const MEMORY_TOLERANCE: f64 = 0.06;

/// Free memory below this share of the total means someone else is using the GPU.
pub const BUSY_FREE_SHARE: f64 = 0.2;

/// Lines the two views up and decides.
pub fn diagnose(driver: &DriverView, framework: &FrameworkView) -> Diagnosis {
    let mut findings = Vec::new();
    if let Some(failure) = &driver.failure {
        if let Some(finding) = driver_failure_finding(failure, framework) {
            findings.push(finding);
        }
    }
    if !framework.compiled_with_cuda && !driver.gpus.is_empty() {
        findings.push(Finding::new(
            Cause::BuiltWithoutCuda,
            t!("diag-built-without-cuda", count = driver.gpus.len()),
            t!("fix-rebuild-with-cuda"),
        ));
    }
    if let Some(problem) = &framework.init_error {
        if framework.compiled_with_cuda {
            findings.push(framework_failure_finding(problem, framework, driver));
        }
    }
    if let (Some(smi_cuda), Some(toolkit)) = (&driver.versions.cuda, &framework.build_cuda_toolkit)
    {
        if version_lt(smi_cuda, toolkit) {
            findings.push(Finding::new(
                Cause::DriverTooOldForToolkit,
                t!("diag-driver-too-old", driver = smi_cuda, toolkit = toolkit),
                t!("fix-driver-too-old", driver = smi_cuda, toolkit = toolkit),
            ));
        }
    }

    let gpus = line_up(driver, framework);
    let overall = gpus
        .iter()
        .map(|g| g.readiness)
        .max()
        .unwrap_or(match &driver.failure {
            // A failure that names no driver problem (`nvidia-smi` exiting with nothing known in
            // its output, or not starting at all) proves no GPU either: with no device seen by
            // either view, there is none to use, and the headline says what is unknown.
            // So does an nvidia-smi that cannot be started (a folder, a file that is not a
            // program) or that prints something unreadable.
            None
            | Some(SmiFailure::NotInstalled)
            | Some(SmiFailure::NoDevices)
            | Some(SmiFailure::Failed { .. })
            | Some(SmiFailure::CannotStart { .. })
            | Some(SmiFailure::Unparseable { .. }) => Readiness::NoGpu,
            Some(_) => Readiness::NotUsable,
        });

    let (headline, fix) = summarize(overall, &gpus, &findings);
    Diagnosis {
        overall,
        headline,
        fix,
        gpus,
        findings,
        advice: match overall {
            Readiness::Ready => String::new(),
            _ => t!("advice-no-gpu"),
        },
    }
}

fn summarize(overall: Readiness, gpus: &[GpuVerdict], findings: &[Finding]) -> (String, String) {
    let first_fix = findings
        .iter()
        .chain(gpus.iter().flat_map(|g| g.findings.iter()))
        .find(|f| !f.fix.is_empty())
        .map(|f| f.fix.clone())
        .unwrap_or_default();
    match overall {
        Readiness::NoGpu => {
            let headline = findings
                .first()
                .map(|f| match f.cause {
                    Cause::SmiFailed | Cause::SmiUnreadable | Cause::SmiPermissionDenied => {
                        t!("head-no-gpu-unknown", reason = f.summary)
                    }
                    _ => t!("head-no-gpu-because", reason = f.summary),
                })
                .unwrap_or_else(|| t!("head-no-gpu"));
            (headline, first_fix)
        }
        Readiness::NotUsable => {
            let summary = findings
                .first()
                .or_else(|| gpus.iter().flat_map(|g| g.findings.first()).next())
                .map(|f| f.summary.clone())
                .unwrap_or_else(|| t!("diag-gpu-unusable"));
            (t!("head-not-usable", reason = summary), first_fix)
        }
        Readiness::Limited | Readiness::Ready => {
            let best: Vec<&GpuVerdict> = gpus.iter().filter(|g| g.readiness == overall).collect();
            let names: Vec<String> = best
                .iter()
                .map(|g| match g.cuda_ordinal {
                    Some(o) => format!("cuda:{o} {}", g.name),
                    None => g.name.clone(),
                })
                .collect();
            let headline = if overall == Readiness::Ready {
                t!("head-ready", gpus = names.join(", "))
            } else {
                let limit = best
                    .first()
                    .and_then(|g| g.findings.first())
                    .map(|f| f.summary.clone())
                    .unwrap_or_default();
                t!("head-limited", gpus = names.join(", "), limit = limit)
            };
            let fix = if overall == Readiness::Ready {
                t!("fix-nothing-ready")
            } else {
                first_fix
            };
            (headline, fix)
        }
    }
}

fn driver_failure_finding(failure: &SmiFailure, framework: &FrameworkView) -> Option<Finding> {
    let summary = failure.explain();
    let (cause, fix) = match failure {
        SmiFailure::NotInstalled => {
            if framework.device_count.unwrap_or(0) > 0 {
                // CUDA works but nvidia-smi is not on PATH (seen on Windows and minimal images):
                // not a problem for training.
                return Some(Finding::new(
                    Cause::NoDriver,
                    t!("diag-smi-missing-cuda-ok"),
                    t!("fix-smi-missing-cuda-ok"),
                ));
            }
            (Cause::NoDriver, t!("fix-no-driver"))
        }
        SmiFailure::CannotCommunicate => (Cause::DriverNotLoaded, t!("fix-driver-not-loaded")),
        SmiFailure::VersionMismatch => (Cause::DriverLibraryMismatch, t!("fix-driver-mismatch")),
        SmiFailure::NvmlUnknownError => (Cause::ContainerLostGpu, t!("fix-container-lost-gpu")),
        SmiFailure::NvmlLibraryMissing => (
            Cause::DriverLibrariesMissing,
            t!("fix-driver-libraries-missing"),
        ),
        SmiFailure::NoDevices => (Cause::NoDevices, t!("fix-no-devices")),
        SmiFailure::PermissionDenied | SmiFailure::CannotStart { .. } => {
            (Cause::SmiPermissionDenied, t!("fix-smi-permission"))
        }
        SmiFailure::TimedOut { .. } => (Cause::SmiTimedOut, t!("fix-smi-timed-out")),
        SmiFailure::Unparseable { .. } => (Cause::SmiUnreadable, t!("fix-smi-unreadable")),
        SmiFailure::Failed { .. } => (Cause::SmiFailed, t!("fix-smi-failed")),
    };
    Some(Finding::new(cause, summary, fix))
}

fn framework_failure_finding(
    problem: &CudaProblem,
    framework: &FrameworkView,
    driver: &DriverView,
) -> Finding {
    match problem.kind {
        CudaErrorKind::NoDevice => match &framework.cuda_visible_devices {
            Some(cvd) if !driver.gpus.is_empty() => Finding::new(
                Cause::HiddenByCudaVisibleDevices,
                t!("diag-hidden-by-cvd", value = format!("{cvd:?}")),
                t!("fix-hidden-by-cvd"),
            ),
            _ if !driver.gpus.is_empty() => Finding::new(
                Cause::NotVisibleToCuda,
                t!("diag-not-visible-to-cuda"),
                t!("fix-not-visible-to-cuda"),
            ),
            _ => Finding::new(
                Cause::NoDevices,
                t!("diag-cuda-no-device"),
                t!("fix-cpu-lessons-ok"),
            ),
        },
        _ => cuda_problem_finding(problem, None, framework, driver),
    }
}

/// Finding for a CUDA failure on one device (or at init).
fn cuda_problem_finding(
    problem: &CudaProblem,
    device_cap: Option<ComputeCap>,
    framework: &FrameworkView,
    driver: &DriverView,
) -> Finding {
    let toolkit = framework.build_cuda_toolkit.as_deref().unwrap_or("?");
    let driver_cuda = framework
        .driver_cuda_version
        .as_deref()
        .or(driver.versions.cuda.as_deref())
        .unwrap_or("?");
    let built_cap = framework.build_compute_cap.as_deref().unwrap_or("?");
    match problem.kind {
        CudaErrorKind::UnsupportedPtx | CudaErrorKind::InsufficientDriver => Finding::new(
            Cause::DriverTooOldForToolkit,
            t!(
                "diag-ptx-too-new",
                driver = driver_cuda,
                toolkit = toolkit,
                message = problem.message
            ),
            t!("fix-ptx-too-new", toolkit = toolkit),
        ),
        CudaErrorKind::MissingKernel if device_cap.is_some_and(|c| !c.supports_bf16()) => {
            Finding::new(
                Cause::NoBf16,
                t!(
                    "diag-no-bf16-kernels",
                    cc = device_cap.map(|c| c.to_string()).unwrap_or_default()
                ),
                t!("fix-no-bf16-kernels"),
            )
        }
        CudaErrorKind::MissingKernel | CudaErrorKind::NoBinaryForGpu => Finding::new(
            Cause::KernelsForOtherArch,
            t!(
                "diag-kernels-other-arch",
                built = built_cap,
                cc = device_cap
                    .map(|c| c.to_string())
                    .unwrap_or_else(|| "?".into()),
                message = problem.message
            ),
            t!(
                "fix-kernels-other-arch",
                cap = device_cap
                    .map(|c| format!("{}{}", c.major, c.minor))
                    .unwrap_or_else(|| "<cc>".into())
            ),
        ),
        CudaErrorKind::LibraryNotFound => Finding::new(
            Cause::CudaLibrariesMissing,
            t!("diag-cuda-library-missing", message = problem.message),
            t!("fix-cuda-library-missing"),
        ),
        CudaErrorKind::DriverMismatch => Finding::new(
            Cause::DriverLibraryMismatch,
            t!("diag-cuda-driver-mismatch", message = problem.message),
            t!("fix-cuda-driver-mismatch"),
        ),
        CudaErrorKind::OutOfMemory => Finding::new(
            Cause::OutOfMemory,
            t!("diag-out-of-memory", message = problem.message),
            t!("fix-out-of-memory"),
        ),
        CudaErrorKind::NotPermitted => Finding::new(
            Cause::DeviceOpenFailed,
            t!("diag-context-refused", message = problem.message),
            t!("fix-context-refused"),
        ),
        CudaErrorKind::WrongResult => Finding::new(
            Cause::WrongResult,
            problem.message.clone(),
            t!("fix-wrong-result"),
        ),
        CudaErrorKind::NotCompiledWithCuda => Finding::new(
            Cause::BuiltWithoutCuda,
            t!("diag-built-without-cuda-plain"),
            t!("fix-features-cuda"),
        ),
        _ => Finding::new(
            Cause::KernelFailed,
            t!("diag-cuda-failed", message = problem.message),
            t!("fix-cuda-failed"),
        ),
    }
}

fn same_pci(a: &str, b: &str) -> bool {
    // nvidia-smi prints an 8-digit domain ("00000000:17:00.0"); older drivers printed 4 ("0000:03:00.0").
    let norm = |s: &str| {
        let s = s.to_ascii_uppercase();
        match s.split_once(':') {
            Some((domain, rest)) => format!("{:0>8}:{rest}", domain.trim_start_matches('0')),
            None => s,
        }
    };
    norm(a) == norm(b)
}

fn line_up(driver: &DriverView, framework: &FrameworkView) -> Vec<GpuVerdict> {
    let mut used = vec![false; framework.devices.len()];
    let mut verdicts = Vec::new();
    for (position, gpu) in driver.gpus.iter().enumerate() {
        let by_uuid = framework
            .devices
            .iter()
            .position(|d| d.uuid.is_some() && d.uuid == gpu.uuid);
        let by_pci = || {
            framework
                .devices
                .iter()
                .position(|d| match (&d.pci_bus_id, &gpu.pci_bus_id) {
                    (Some(a), Some(b)) => same_pci(a, b),
                    _ => false,
                })
        };
        let (found, how) = if let Some(i) = by_uuid {
            (Some(i), MatchedBy::Uuid)
        } else if let Some(i) = by_pci() {
            (Some(i), MatchedBy::PciBusId)
        } else if gpu.mig_enabled != Some(true)
            && position < framework.devices.len()
            && framework.devices[position].uuid.is_none()
            && !used[position]
        {
            (Some(position), MatchedBy::Position)
        } else {
            (None, MatchedBy::Unmatched)
        };
        if let Some(i) = found {
            used[i] = true;
        }
        let device = found.map(|i| &framework.devices[i]);
        verdicts.push(judge(Some(gpu), device, how, driver, framework));
    }
    for (i, device) in framework.devices.iter().enumerate() {
        if !used[i] {
            verdicts.push(judge(
                None,
                Some(device),
                MatchedBy::Unmatched,
                driver,
                framework,
            ));
        }
    }
    verdicts
}

fn judge(
    gpu: Option<&SmiGpu>,
    device: Option<&CudaDeviceProbe>,
    matched_by: MatchedBy,
    driver: &DriverView,
    framework: &FrameworkView,
) -> GpuVerdict {
    let name = device
        .and_then(|d| d.name.clone())
        .or_else(|| gpu.map(|g| g.name.clone()))
        .unwrap_or_else(|| t!("gpu-unknown-name"));
    let compute_cap = device
        .and_then(|d| d.compute_cap)
        .or_else(|| gpu.and_then(|g| g.compute_cap));
    let mut findings = Vec::new();
    let mut readiness = Readiness::Ready;
    let mut cap = |r: Readiness| readiness = readiness.min(r);

    if let Some(g) = gpu {
        if g.mig_enabled == Some(true) {
            let profiles: Vec<String> = g.mig_devices.iter().map(|m| m.profile.clone()).collect();
            let first = g.mig_devices.first().map(|m| m.uuid.clone());
            findings.push(Finding::new(
                Cause::MigSlice,
                if profiles.is_empty() {
                    t!("diag-mig-whole")
                } else {
                    t!(
                        "diag-mig-slices",
                        count = profiles.len(),
                        profiles = profiles.join(", ")
                    )
                },
                match first {
                    Some(uuid) => t!("fix-mig-pick", uuid = uuid),
                    None => t!("fix-mig-pick-any"),
                },
            ));
            cap(Readiness::Limited);
        }
    }

    match device {
        None => {
            cap(Readiness::NotUsable);
            if framework.compiled_with_cuda && framework.init_error.is_none() {
                let cause = if framework.cuda_visible_devices.is_some() {
                    Cause::HiddenByCudaVisibleDevices
                } else {
                    Cause::NotVisibleToCuda
                };
                findings.push(Finding::new(
                    cause,
                    t!(
                        "diag-gpu-not-in-cuda",
                        hidden = framework
                            .cuda_visible_devices
                            .as_ref()
                            .map(|v| format!(" (CUDA_VISIBLE_DEVICES={v:?})"))
                            .unwrap_or_default()
                    ),
                    t!("fix-gpu-not-in-cuda"),
                ));
            } else if !framework.compiled_with_cuda {
                findings.push(Finding::new(
                    Cause::BuiltWithoutCuda,
                    t!("diag-build-no-cuda-gpu"),
                    t!("fix-features-cuda"),
                ));
            }
        }
        Some(d) => {
            if let Some(problem) = &d.open_error {
                cap(Readiness::NotUsable);
                findings.push(cuda_problem_finding(
                    problem,
                    compute_cap,
                    framework,
                    driver,
                ));
            } else {
                match &d.kernel_f32 {
                    Some(k) if !k.ok => {
                        cap(Readiness::NotUsable);
                        if let Some(problem) = &k.error {
                            findings.push(cuda_problem_finding(
                                problem,
                                compute_cap,
                                framework,
                                driver,
                            ));
                        }
                    }
                    _ => {}
                }
                match &d.kernel_bf16 {
                    Some(k) if !k.ok => {
                        cap(Readiness::Limited);
                        let problem = k.error.clone().unwrap_or(CudaProblem {
                            kind: CudaErrorKind::Other,
                            message: t!("diag-bf16-check-failed"),
                        });
                        let mut finding =
                            cuda_problem_finding(&problem, compute_cap, framework, driver);
                        if compute_cap.is_some_and(|c| !c.supports_bf16()) {
                            finding.cause = Cause::NoBf16;
                        }
                        findings.push(finding);
                    }
                    _ => {}
                }
                if let (Some(free), Some(total)) = (d.memory_free, d.memory_total) {
                    if (free.0 as f64) < BUSY_FREE_SHARE * total.0 as f64 {
                        cap(Readiness::Limited);
                        findings.push(Finding::new(
                            Cause::GpuBusy,
                            t!("diag-gpu-busy", free = free, total = total),
                            t!("fix-gpu-busy"),
                        ));
                    }
                }
            }
        }
    }
    if let Some(c) = compute_cap {
        if !c.supports_bf16() && !findings.iter().any(|f| f.cause == Cause::NoBf16) {
            cap(Readiness::Limited);
            findings.push(Finding::new(
                Cause::NoBf16,
                t!("diag-no-bf16", cc = c),
                t!("fix-no-bf16"),
            ));
        }
        if let Some(built) = framework
            .build_compute_cap
            .as_deref()
            .and_then(ComputeCap::parse)
        {
            // PTX is forward compatible (built for 8.0 runs on 8.6 and 9.0) but never backward.
            if c < built
                && !findings
                    .iter()
                    .any(|f| f.cause == Cause::KernelsForOtherArch)
            {
                cap(Readiness::NotUsable);
                findings.push(Finding::new(
                    Cause::KernelsForOtherArch,
                    t!("diag-kernels-newer", built = built, cc = c),
                    t!("fix-rebuild-cap", cap = format!("{}{}", c.major, c.minor)),
                ));
            }
        }
    }
    let memory_total_smi = gpu.and_then(|g| g.memory_total);
    let memory_total_cuda = device.and_then(|d| d.memory_total);
    if let (Some(smi), Some(cuda)) = (memory_total_smi, memory_total_cuda) {
        let gap = (smi.0 as f64 - cuda.0 as f64).abs() / smi.0.max(1) as f64;
        if gap > MEMORY_TOLERANCE {
            findings.push(Finding::new(
                Cause::MemoryMismatch,
                t!(
                    "diag-memory-mismatch",
                    smi = smi,
                    cuda = cuda,
                    gap = format!("{:.1}", gap * 100.0)
                ),
                t!("fix-memory-mismatch"),
            ));
        }
    }
    if readiness == Readiness::Ready {
        findings.push(Finding::new(Cause::Ready, t!("diag-ready"), ""));
    }
    GpuVerdict {
        smi_index: gpu.map(|g| g.index),
        cuda_ordinal: device.map(|d| d.ordinal),
        matched_by,
        name,
        compute_cap,
        memory_total_smi,
        memory_total_cuda,
        readiness,
        findings,
    }
}

/// "12.4" < "13.0"? Compares dotted numbers; unknown parts count as 0.
pub fn version_lt(a: &str, b: &str) -> bool {
    let parse = |s: &str| -> Vec<u32> {
        s.split('.')
            .map(|p| p.trim().parse().unwrap_or(0))
            .collect()
    };
    let (a, b) = (parse(a), parse(b));
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (
            a.get(i).copied().unwrap_or(0),
            b.get(i).copied().unwrap_or(0),
        );
        if x != y {
            return x < y;
        }
    }
    false
}

#[cfg(test)]
mod tests;
