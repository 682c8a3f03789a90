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
    // A container's memory limit and this process's address-space limit bind before the
    // host's RAM does: a guard that read only the host's was OOM-killed in a 1.5 GiB cgroup.
    let host = system.available_memory();
    let limits = [container_headroom(), address_space_headroom()];
    Bytes(limits.into_iter().flatten().fold(host, u64::min))
}

/// Memory left under this process's cgroup limit (v2 `memory.max` − `memory.current`, or v1's
/// `limit_in_bytes` − `usage_in_bytes`); None when no limit is set or the files are absent.
fn container_headroom() -> Option<u64> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let own = read("/proc/self/cgroup")
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("0::").map(|p| p.trim().to_string()))
        })
        .unwrap_or_default();
    let v2 = [format!("/sys/fs/cgroup{own}"), "/sys/fs/cgroup".to_string()]
        .into_iter()
        .find_map(|dir| {
            headroom(
                &read(&format!("{dir}/memory.max"))?,
                &read(&format!("{dir}/memory.current"))?,
            )
        });
    v2.or_else(|| {
        headroom(
            &read("/sys/fs/cgroup/memory/memory.limit_in_bytes")?,
            &read("/sys/fs/cgroup/memory/memory.usage_in_bytes")?,
        )
    })
}

/// A limit and a usage as cgroup files write them; None for "max" or a v1 "no limit" (a value
/// near 2^63).
pub fn headroom(limit: &str, usage: &str) -> Option<u64> {
    let limit: u64 = limit.trim().parse().ok()?;
    let usage: u64 = usage.trim().parse().ok()?;
    (limit < 1 << 60).then(|| limit.saturating_sub(usage))
}

/// Address space left under `ulimit -v` (RLIMIT_AS): its soft limit from /proc/self/limits
/// less this process's VmSize; None when unlimited or unknown.
fn address_space_headroom() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    address_space_left(&limits, &status)
}

/// The address-space headroom from the texts of /proc/self/limits and /proc/self/status.
pub fn address_space_left(limits: &str, status: &str) -> Option<u64> {
    let soft: u64 = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?
        .split_whitespace()
        .nth(3)?
        .parse()
        .ok()?;
    let used_kib: u64 = status
        .lines()
        .find(|l| l.starts_with("VmSize:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(soft.saturating_sub(used_kib.saturating_mul(1024)))
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

#[cfg(test)]
mod tests {

    #[test]
    fn container_and_address_space_limits_are_read() {
        assert_eq!(headroom("1610612736\n", "1073741824\n"), Some(536_870_912));
        assert_eq!(headroom("max\n", "5\n"), None);
        assert_eq!(headroom("9223372036854771712", "5"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units\nMax address space         2147483648           unlimited            bytes\n";
        let status = "Name:\tgpulab\nVmSize:\t  1048576 kB\n";
        assert_eq!(address_space_left(limits, status), Some(1 << 30));
        let unlimited = limits.replace("2147483648", "unlimited ");
        assert_eq!(address_space_left(&unlimited, status), None);
    }

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
