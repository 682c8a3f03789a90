//! The host's facts: OS, CPU model, cores, SIMD level, RAM, and where we run (a container, and
//! the platform from `platform.rs`: Colab, a cloud, WSL, a laptop …). Cheap to read: `gpulab check` must answer in well under half a second.

use serde::{Deserialize, Serialize};
use sysinfo::{CpuRefreshKind, MemoryRefreshKind, RefreshKind, System};

use crate::units::Bytes;

/// What the machine is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HostInfo {
    /// OS name and version, e.g. "Linux 12 (bookworm)".
    pub os: String,
    /// CPU architecture, e.g. "x86_64".
    pub arch: String,
    /// CPU model string.
    pub cpu_model: String,
    /// Physical cores (None where the OS does not say).
    pub physical_cores: Option<usize>,
    /// Logical CPUs (hardware threads) this process may use.
    pub logical_cpus: usize,
    /// Widest vector instruction set the CPU offers: "AVX-512", "AVX2", "AVX", "SSE4.2", "NEON"…
    pub simd: String,
    /// Total RAM.
    pub ram_total: Bytes,
    /// RAM available for new work.
    pub ram_available: Bytes,
    /// Where we run: Colab, container, WSL, or nothing special.
    pub environment: Environment,
    /// The platform (cloud provider, notebook service, laptop…) and the sign that told.
    #[serde(default = "crate::probe::platform::Platform::unknown")]
    pub platform: crate::probe::platform::Platform,
    /// Seconds this machine (in a container: the container) has been up.
    #[serde(default)]
    pub uptime_s: Option<f64>,
}

/// Special environments worth knowing about, detected from cheap signs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Environment {
    /// Google Colab (its runtime sets COLAB_* variables).
    pub colab: bool,
    /// Inside a container (Docker/Podman/Kubernetes signs).
    pub container: Option<String>,
    /// Windows Subsystem for Linux.
    pub wsl: bool,
}

/// Reads the host's facts.
pub fn detect() -> HostInfo {
    let system = System::new_with_specifics(
        RefreshKind::nothing()
            .with_memory(MemoryRefreshKind::nothing().with_ram())
            .with_cpu(CpuRefreshKind::nothing()),
    );
    let cpu_model = system
        .cpus()
        .first()
        .map(|c| c.brand().trim().to_string())
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| t!("cpu-unknown"));
    let os = match (System::name(), System::os_version()) {
        (Some(name), Some(version)) => format!("{name} {version}"),
        (Some(name), None) => name,
        _ => std::env::consts::OS.to_string(),
    };
    // Colab and WSL are what the platform's signs say (one reading of the variables and of
    // the kernel release); the container is read first because the platform needs it.
    let container = detect_container();
    let platform =
        crate::probe::platform::classify(&crate::probe::platform::Signs::read(container.clone()));
    let environment = Environment {
        colab: platform.provider == Some(crate::probe::platform::Provider::Colab),
        wsl: platform.kind == crate::probe::platform::PlaceKind::Wsl,
        container,
    };
    HostInfo {
        os,
        arch: std::env::consts::ARCH.to_string(),
        cpu_model,
        physical_cores: System::physical_core_count(),
        logical_cpus: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        simd: simd_level().to_string(),
        ram_total: Bytes(system.total_memory()),
        ram_available: Bytes(system.available_memory()),
        uptime_s: crate::probe::platform::uptime_s(environment.container.is_some()),
        platform,
        environment,
    }
}

/// RAM available for new allocations right now.
pub fn available_ram() -> Bytes {
    let system = System::new_with_specifics(
        RefreshKind::nothing().with_memory(MemoryRefreshKind::nothing().with_ram()),
    );
    Bytes(system.available_memory())
}

/// The widest SIMD level, checked at run time (the binary is built for baseline x86-64).
pub fn simd_level() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            return "AVX-512";
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            return "AVX2+FMA";
        }
        if std::arch::is_x86_feature_detected!("avx") {
            return "AVX";
        }
        if std::arch::is_x86_feature_detected!("sse4.2") {
            return "SSE4.2";
        }
        "SSE2"
    }
    #[cfg(target_arch = "aarch64")]
    {
        "NEON"
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        "unknown"
    }
}

/// Inside a container: which runtime (Docker, Podman, Kubernetes, or what /proc/1/cgroup names).
fn detect_container() -> Option<String> {
    if std::path::Path::new("/.dockerenv").exists() {
        Some("docker".to_string())
    } else if std::path::Path::new("/run/.containerenv").exists() {
        Some("podman".to_string())
    } else if std::env::var_os("KUBERNETES_SERVICE_HOST").is_some() {
        Some("kubernetes".to_string())
    } else {
        std::fs::read_to_string("/proc/1/cgroup")
            .ok()
            .and_then(|cg| {
                ["docker", "kubepods", "containerd", "lxc"]
                    .into_iter()
                    .find(|k| cg.contains(k))
            })
            .map(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_this_host() {
        let host = detect();
        assert!(host.logical_cpus >= 1);
        assert!(host.ram_total.0 > 0);
        assert!(host.ram_available <= host.ram_total);
        assert!(!host.simd.is_empty());
    }
}

/// Threads of other programs running right now: the median of five readings of Linux's
/// `procs_running` (/proc/stat) over 40 ms, less this one. Not the load average, which lags a
/// minute behind and counts our own last run. None where the OS does not say.
pub fn load_average() -> Option<f64> {
    let read = || -> Option<f64> {
        let text = std::fs::read_to_string("/proc/stat").ok()?;
        let line = text.lines().find(|l| l.starts_with("procs_running"))?;
        line.split_whitespace().nth(1)?.parse::<f64>().ok()
    };
    let mut samples = Vec::new();
    for i in 0..5 {
        if i > 0 {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        samples.push(read()?);
    }
    samples.sort_by(f64::total_cmp);
    Some((samples[2] - 1.0).max(0.0))
}
