//! The driver's view of the GPUs: runs `nvidia-smi` (bounded by a timeout), parses what it
//! prints, and names every way it can fail.
//!
//! Three pure parsers do the work and are tested on real outputs in `data/fixtures/nvidia-smi/`:
//! - [`parse_query_csv`] reads `--query-gpu=… --format=csv,nounits`. Columns are found by their
//!   header names, never by position, so a dropped or reordered field is harmless.
//! - [`parse_versions`] reads the driver and CUDA versions from the banner of plain `nvidia-smi`
//!   (or from `nvidia-smi -q`). It looks for keys, not for a table layout: driver R610 renamed
//!   `Driver Version` to `KMD Version` and `CUDA Version` to `CUDA UMD Version`, which broke
//!   every regex that expected the old words (PyTorch's collect_env among them).
//! - [`parse_list`] reads `nvidia-smi -L`, the only cheap place that names MIG slices.
//!
//! [`classify_failure`] turns a failed run's text into a [`SmiFailure`] with a cause a learner
//! can act on. `[N/A]` and `[Not Supported]` are unknown values, not errors.

use std::path::Path;

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::units::Bytes;

/// The fields asked of `--query-gpu`, in order. `compute_cap` needs driver ≥ R510 and
/// `mig.mode.current` R450; an older driver rejects the whole query, so [`query`] drops the
/// field it names and asks again.
pub const QUERY_FIELDS: &[&str] = &[
    "index",
    "name",
    "uuid",
    "pci.bus_id",
    "memory.total",
    "memory.used",
    "memory.free",
    "driver_version",
    "compute_cap",
    "mig.mode.current",
];

/// A compute capability such as 8.6 (`major.minor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ComputeCap {
    /// Major version: 7 = Volta/Turing, 8 = Ampere/Ada, 9 = Hopper, 10/12 = Blackwell.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

impl ComputeCap {
    /// Parses "8.6" (nvidia-smi) or "86" (`CUDA_COMPUTE_CAP`, optionally with a suffix as in "90a").
    pub fn parse(text: &str) -> Option<ComputeCap> {
        let text = text.trim();
        if let Some((major, minor)) = text.split_once('.') {
            return Some(ComputeCap {
                major: major.trim().parse().ok()?,
                minor: minor.trim().parse().ok()?,
            });
        }
        let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
        if digits.len() < 2 {
            return None;
        }
        let (major, minor) = digits.split_at(digits.len() - 1);
        Some(ComputeCap {
            major: major.parse().ok()?,
            minor: minor.parse().ok()?,
        })
    }

    /// bf16 kernels exist from Ampere (8.0) on; below it Candle's bf16 symbols are absent.
    pub fn supports_bf16(self) -> bool {
        self.major >= 8
    }
}

impl std::fmt::Display for ComputeCap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// One GPU as the driver reports it. Every field but `index` and `name` may be unknown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SmiGpu {
    /// nvidia-smi's index (PCI bus order, which CUDA's default order need not follow).
    pub index: u32,
    /// Product name, e.g. "Tesla T4".
    pub name: String,
    /// `GPU-…` UUID: the stable key to line the driver up with CUDA.
    pub uuid: Option<String>,
    /// PCI bus id, e.g. "00000000:00:04.0".
    pub pci_bus_id: Option<String>,
    /// Total memory (nvidia-smi counts in MiB).
    pub memory_total: Option<Bytes>,
    /// Used memory.
    pub memory_used: Option<Bytes>,
    /// Free memory.
    pub memory_free: Option<Bytes>,
    /// Driver version this row was read with.
    pub driver_version: Option<String>,
    /// Compute capability (absent on drivers older than R510).
    pub compute_cap: Option<ComputeCap>,
    /// Whether MIG mode is on (None: not supported or not reported).
    pub mig_enabled: Option<bool>,
    /// The MIG slices `nvidia-smi -L` lists under this GPU.
    pub mig_devices: Vec<MigDevice>,
}

/// One MIG slice, from `nvidia-smi -L`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MigDevice {
    /// Profile such as "1g.10gb".
    pub profile: String,
    /// Index of the slice under its GPU.
    pub device: u32,
    /// `MIG-…` UUID (what `CUDA_VISIBLE_DEVICES` takes).
    pub uuid: String,
}

/// Driver and CUDA versions read from the banner.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Versions {
    /// Kernel driver version ("Driver Version", "KMD Version" from R610).
    pub driver: Option<String>,
    /// Highest CUDA version the driver supports ("CUDA Version", "CUDA UMD Version" from R610).
    pub cuda: Option<String>,
    /// Version of the nvidia-smi program itself ("NVIDIA-SMI 550.54.15"); differs from the
    /// driver when user-space and kernel parts are out of step.
    pub smi: Option<String>,
}

/// Why nvidia-smi gave no usable answer. Each cause has its own fix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum SmiFailure {
    /// No `nvidia-smi` on PATH: no NVIDIA driver installed (or not this machine's business).
    NotInstalled,
    /// nvidia-smi could not be started (permissions, broken file).
    CannotStart {
        /// The OS error.
        message: String,
    },
    /// "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver".
    CannotCommunicate,
    /// "No devices were found": driver loaded, no GPU visible.
    NoDevices,
    /// "Failed to initialize NVML: Driver/library version mismatch": updated, not rebooted.
    VersionMismatch,
    /// "Failed to initialize NVML: Unknown Error": typical inside containers.
    NvmlUnknownError,
    /// "couldn't find libnvidia-ml.so": driver's user-space libraries missing.
    NvmlLibraryMissing,
    /// "Insufficient Permissions" or similar.
    PermissionDenied,
    /// Did not answer within the timeout.
    TimedOut {
        /// The timeout, in seconds.
        after_s: f64,
    },
    /// Answered, but not in a form we understand.
    Unparseable {
        /// What was wrong.
        detail: String,
    },
    /// Any other non-zero exit.
    Failed {
        /// Exit status, if any.
        exit_code: Option<i32>,
        /// First line of what it printed.
        message: String,
    },
}

impl SmiFailure {
    /// A one-line explanation of the cause.
    pub fn explain(&self) -> String {
        match self {
            SmiFailure::NotInstalled => crate::t!("smi-not-installed"),
            SmiFailure::CannotStart { message } => crate::t!("smi-cannot-start", message = message),
            SmiFailure::CannotCommunicate => crate::t!("smi-cannot-communicate"),
            SmiFailure::NoDevices => crate::t!("smi-no-devices"),
            SmiFailure::VersionMismatch => crate::t!("smi-version-mismatch"),
            SmiFailure::NvmlUnknownError => crate::t!("smi-nvml-unknown"),
            SmiFailure::NvmlLibraryMissing => crate::t!("smi-nvml-missing"),
            SmiFailure::PermissionDenied => crate::t!("smi-permission-denied"),
            SmiFailure::TimedOut { after_s } => {
                crate::t!("smi-timed-out", seconds = format!("{after_s:.1}"))
            }
            SmiFailure::Unparseable { detail } => crate::t!(
                "smi-unparseable",
                detail = crate::process::excerpt(detail, 200)
            ),
            SmiFailure::Failed { exit_code, message } => {
                let how = match exit_code {
                    Some(code) => crate::t!("smi-failed-exit", code = code),
                    None => crate::t!("smi-killed"),
                };
                if message == NO_OUTPUT {
                    crate::t!("smi-printed-nothing", how = how)
                } else {
                    crate::t!(
                        "smi-failed-with",
                        how = how,
                        message = crate::process::excerpt(message, 200)
                    )
                }
            }
        }
    }
}

/// Everything the driver said, or why it said nothing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DriverView {
    /// `None` when nvidia-smi answered; the cause otherwise.
    pub failure: Option<SmiFailure>,
    /// The GPUs it listed.
    pub gpus: Vec<SmiGpu>,
    /// Driver / CUDA / nvidia-smi versions from the banner.
    pub versions: Versions,
    /// Query fields this driver did not know and that were dropped (e.g. `compute_cap` before R510).
    pub dropped_fields: Vec<String>,
    /// Wall time spent asking nvidia-smi, in seconds.
    pub elapsed_s: f64,
}

/// Asks the driver: the CSV query (retrying without fields an old driver rejects), the banner for
/// the CUDA version, and `-L` when a GPU has MIG on. `program` is usually `nvidia-smi`, found on PATH.
pub fn query(program: &Path, timeout: Duration) -> DriverView {
    let started = Instant::now();
    let mut view = DriverView {
        failure: None,
        gpus: Vec::new(),
        versions: Versions::default(),
        dropped_fields: Vec::new(),
        elapsed_s: 0.0,
    };
    let mut fields: Vec<&str> = QUERY_FIELDS.to_vec();
    let finish = |mut view: DriverView| {
        view.elapsed_s = started.elapsed().as_secs_f64();
        view
    };
    loop {
        let arg = format!("--query-gpu={}", fields.join(","));
        let run = match crate::process::run_with_timeout(
            program,
            &[&arg, "--format=csv,nounits"],
            None,
            timeout,
        ) {
            Ok(Some(run)) => run,
            Ok(None) => {
                view.failure = Some(SmiFailure::TimedOut {
                    after_s: timeout.as_secs_f64(),
                });
                return finish(view);
            }
            Err(err) => {
                view.failure = Some(spawn_failure(&err));
                return finish(view);
            }
        };
        if run.exit_code == Some(0) {
            match parse_query_csv(&run.stdout) {
                Ok(gpus) => view.gpus = gpus,
                Err(failure) => {
                    view.failure = Some(failure);
                    return finish(view);
                }
            }
            break;
        }
        let text = format!("{}\n{}", run.stdout, run.stderr);
        if let Some(field) = unknown_field(&text) {
            if let Some(pos) = fields.iter().position(|f| *f == field) {
                // Keep the identity fields: without them nothing can be lined up.
                if pos > 1 {
                    fields.remove(pos);
                    view.dropped_fields.push(field);
                    continue;
                }
            }
        }
        view.failure = Some(classify_failure(run.exit_code, &text));
        return finish(view);
    }
    // The banner: only for the versions. A failure here is not fatal: the per-GPU facts stand.
    if let Ok(Some(run)) = crate::process::run_with_timeout(program, &[], None, timeout) {
        view.versions = parse_versions(&run.stdout);
    }
    if view.versions.driver.is_none() {
        view.versions.driver = view.gpus.iter().find_map(|g| g.driver_version.clone());
    }
    if view.gpus.iter().any(|g| g.mig_enabled == Some(true)) {
        if let Ok(Some(run)) = crate::process::run_with_timeout(program, &["-L"], None, timeout) {
            attach_mig(&mut view.gpus, &parse_list(&run.stdout));
        }
    }
    finish(view)
}

fn spawn_failure(err: &std::io::Error) -> SmiFailure {
    match err.kind() {
        std::io::ErrorKind::NotFound => SmiFailure::NotInstalled,
        std::io::ErrorKind::PermissionDenied => SmiFailure::CannotStart {
            message: "permission denied".into(),
        },
        _ => SmiFailure::CannotStart {
            message: err.to_string(),
        },
    }
}

/// `Field "compute_cap" is not a valid field to query.` → `compute_cap`.
pub fn unknown_field(text: &str) -> Option<String> {
    let start = text.find("Field \"")? + "Field \"".len();
    let rest = &text[start..];
    let end = rest.find('"')?;
    if rest[end..].contains("not a valid field") {
        Some(rest[..end].to_string())
    } else {
        None
    }
}

/// Names the cause of a failed nvidia-smi run from its exit code and text.
pub fn classify_failure(exit_code: Option<i32>, text: &str) -> SmiFailure {
    let lower = text.to_lowercase();
    if lower.contains("couldn't communicate with the nvidia driver")
        || lower.contains("could not communicate with the nvidia driver")
    {
        SmiFailure::CannotCommunicate
    } else if lower.contains("driver/library version mismatch") {
        SmiFailure::VersionMismatch
    } else if lower.contains("failed to initialize nvml: unknown error") {
        SmiFailure::NvmlUnknownError
    } else if lower.contains("libnvidia-ml.so") || lower.contains("nvml.dll") {
        SmiFailure::NvmlLibraryMissing
    } else if lower.contains("no devices were found") {
        SmiFailure::NoDevices
    } else if lower.contains("insufficient permissions") || lower.contains("permission denied") {
        SmiFailure::PermissionDenied
    } else if let Some(by_code) = exit_code.and_then(failure_from_exit_code) {
        by_code
    } else {
        let message = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or(NO_OUTPUT)
            .to_string();
        SmiFailure::Failed { exit_code, message }
    }
}

/// The message of a failure that printed nothing.
const NO_OUTPUT: &str = "(no output)";

/// The nvidia-smi man page's return codes, for a failure whose text says nothing known.
fn failure_from_exit_code(code: i32) -> Option<SmiFailure> {
    match code {
        4 => Some(SmiFailure::PermissionDenied),
        6 => Some(SmiFailure::NoDevices),
        9 => Some(SmiFailure::CannotCommunicate),
        12 => Some(SmiFailure::NvmlLibraryMissing),
        18 => Some(SmiFailure::VersionMismatch),
        _ => None,
    }
}

/// `[N/A]`, `[Not Supported]`, `N/A`, empty, and `[Unknown Error]` are unknown values.
fn known(value: &str) -> Option<&str> {
    let v = value.trim();
    let unknown =
        v.is_empty() || v.eq_ignore_ascii_case("n/a") || (v.starts_with('[') && v.ends_with(']'));
    (!unknown).then_some(v)
}

/// "16303 MiB" or "16303" (with `nounits`) → bytes. nvidia-smi's memory unit is always MiB.
fn parse_mib(value: &str) -> Option<Bytes> {
    let v = known(value)?;
    let number = v.trim_end_matches("MiB").trim();
    // No GPU has a petabyte: a larger figure is garbage, not a number to wrap (2^44 MiB once
    // read as 1 MiB).
    number
        .parse::<u64>()
        .ok()
        .filter(|&mib| mib <= 1 << 30)
        .map(|mib| Bytes(mib << 20))
}

/// Parses the CSV of `--query-gpu` (with its header line). Column names may carry a unit
/// (`memory.total [MiB]`); unknown columns are ignored; a GPU name containing a comma is not a
/// concern because the name is never last and NVIDIA names have none.
pub fn parse_query_csv(text: &str) -> Result<Vec<SmiGpu>, SmiFailure> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let header = lines.next().ok_or_else(|| SmiFailure::Unparseable {
        detail: "empty output".into(),
    })?;
    if text.to_lowercase().contains("no devices were found") {
        return Err(SmiFailure::NoDevices);
    }
    let columns: Vec<String> = header
        .split(',')
        .map(|c| c.split('[').next().unwrap_or("").trim().to_lowercase())
        .collect();
    let col = |name: &str| columns.iter().position(|c| c == name);
    let Some(name_col) = col("name") else {
        return Err(SmiFailure::Unparseable {
            detail: crate::t!("smi-no-name-column", header = format!("{header:?}")),
        });
    };
    let index_col = col("index");
    let mut gpus = Vec::new();
    for (row, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split(',').map(str::trim).collect();
        if cells.len() != columns.len() {
            return Err(SmiFailure::Unparseable {
                detail: crate::t!(
                    "smi-row-fields",
                    cells = cells.len(),
                    columns = columns.len(),
                    line = format!("{line:?}")
                ),
            });
        }
        let get = |c: Option<usize>| c.and_then(|i| known(cells[i]));
        // Without an index column the rows come in index order.
        let index = match index_col {
            Some(i) => cells[i]
                .parse::<u32>()
                .map_err(|_| SmiFailure::Unparseable {
                    detail: crate::t!("smi-index-nan", given = format!("{:?}", cells[i])),
                })?,
            None => row as u32,
        };
        gpus.push(SmiGpu {
            index,
            name: cells[name_col].to_string(),
            uuid: get(col("uuid")).map(str::to_string),
            pci_bus_id: get(col("pci.bus_id")).map(str::to_string),
            memory_total: col("memory.total").and_then(|i| parse_mib(cells[i])),
            memory_used: col("memory.used").and_then(|i| parse_mib(cells[i])),
            memory_free: col("memory.free").and_then(|i| parse_mib(cells[i])),
            driver_version: get(col("driver_version")).map(str::to_string),
            compute_cap: get(col("compute_cap")).and_then(ComputeCap::parse),
            mig_enabled: get(col("mig.mode.current")).map(|v| v.eq_ignore_ascii_case("enabled")),
            mig_devices: Vec::new(),
        });
    }
    Ok(gpus)
}

/// Value after `key` and a colon, up to the next run of two spaces, a `|`, or the line's end.
fn value_after(line: &str, key: &str) -> Option<String> {
    let at = line.find(key)?;
    let rest = line[at + key.len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start();
    let end = rest
        .find("  ")
        .or_else(|| rest.find('|'))
        .unwrap_or(rest.len());
    known(rest[..end].trim()).map(str::to_string)
}

/// Reads driver, CUDA and nvidia-smi versions from the banner or from `nvidia-smi -q`, by key:
/// both the pre-R610 (`Driver Version`, `CUDA Version`) and R610 (`KMD Version`,
/// `CUDA UMD Version`) spellings.
pub fn parse_versions(text: &str) -> Versions {
    let mut versions = Versions::default();
    for line in text.lines() {
        if versions.driver.is_none() {
            versions.driver =
                value_after(line, "KMD Version").or_else(|| value_after(line, "Driver Version"));
        }
        if versions.cuda.is_none() {
            versions.cuda =
                value_after(line, "CUDA UMD Version").or_else(|| value_after(line, "CUDA Version"));
        }
        if versions.smi.is_none() {
            if let Some(at) = line.find("NVIDIA-SMI ") {
                versions.smi = line[at + "NVIDIA-SMI ".len()..]
                    .split_whitespace()
                    .next()
                    .filter(|v| v.chars().next().is_some_and(|c| c.is_ascii_digit()))
                    .map(str::to_string);
            }
        }
    }
    versions
}

/// One `GPU n:` line of `nvidia-smi -L`, with the MIG slices listed under it.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedGpu {
    /// nvidia-smi's index (its order, not CUDA's).
    pub index: u32,
    /// The product name nvidia-smi prints ("NVIDIA GeForce RTX 3090").
    pub name: String,
    /// UUID, when printed.
    pub uuid: Option<String>,
    /// MIG slices under it.
    pub mig_devices: Vec<MigDevice>,
}

/// Parses `nvidia-smi -L`: `GPU 0: NAME (UUID: GPU-…)` lines and indented
/// `MIG 1g.10gb Device 0: (UUID: MIG-…)` lines.
pub fn parse_list(text: &str) -> Vec<ListedGpu> {
    let mut gpus: Vec<ListedGpu> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        let uuid = trimmed
            .find("(UUID: ")
            .map(|at| trimmed[at + 7..].trim_end_matches(')').trim().to_string());
        if let Some(rest) = trimmed.strip_prefix("GPU ") {
            let Some((index, after)) = rest.split_once(':') else {
                continue;
            };
            let Ok(index) = index.trim().parse() else {
                continue;
            };
            let name = after.split("(UUID").next().unwrap_or("").trim().to_string();
            gpus.push(ListedGpu {
                index,
                name,
                uuid,
                mig_devices: Vec::new(),
            });
        } else if let Some(rest) = trimmed.strip_prefix("MIG ") {
            let mut words = rest.split_whitespace();
            let profile = words.next().unwrap_or("").to_string();
            let device = words
                .skip_while(|w| *w != "Device")
                .nth(1)
                .and_then(|w| w.trim_end_matches(':').parse().ok());
            if let (Some(gpu), Some(device), Some(uuid)) = (gpus.last_mut(), device, uuid) {
                gpu.mig_devices.push(MigDevice {
                    profile,
                    device,
                    uuid,
                });
            }
        }
    }
    gpus
}

/// Copies the MIG slices of `-L` onto the matching CSV rows (by UUID, else by index).
pub fn attach_mig(gpus: &mut [SmiGpu], listed: &[ListedGpu]) {
    for gpu in gpus.iter_mut() {
        let found = listed
            .iter()
            .find(|l| l.uuid.is_some() && l.uuid == gpu.uuid)
            .or_else(|| listed.iter().find(|l| l.index == gpu.index));
        if let Some(l) = found {
            gpu.mig_devices = l.mig_devices.clone();
        }
    }
}

#[cfg(test)]
mod tests;
