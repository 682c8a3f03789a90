//! Where the machine runs: Google Colab, a cloud VM (AWS, Google Cloud, Azure, Oracle, Alibaba,
//! DigitalOcean, Hetzner), a GPU marketplace container (RunPod, Vast.ai), a Kaggle notebook, WSL,
//! a laptop, or a machine of one's own — read from what the machine says about itself: DMI
//! (`/sys/class/dmi/id`) and the environment variables these platforms set. The signs and their
//! sources are in data/docs/platforms.md; recorded machines in data/fixtures/platform/.
//!
//! Why it matters to a learner: on a rented GPU every hour costs money until the instance is
//! stopped, and on Colab the session ends on its own; `check` and `report` say which, with the
//! price, the time so far and the command that stops it.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// What the machine says about itself: the inputs of [`classify`], read by [`Signs::read`] or
/// recorded in a fixture.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Signs {
    /// DMI fields by file name (`sys_vendor`, `product_name`, `chassis_asset_tag`,
    /// `chassis_type`, `board_asset_tag`, `bios_vendor`, `bios_version`, `product_version`).
    #[serde(default)]
    pub dmi: BTreeMap<String, String>,
    /// The environment variables that name a platform (only those in [`ENV_MARKERS`]).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// `/proc/sys/kernel/osrelease` (WSL's kernels say "microsoft").
    #[serde(default)]
    pub kernel_release: String,
    /// A container runtime's name when inside one (docker, podman, kubernetes, …).
    #[serde(default)]
    pub container: Option<String>,
}

/// DMI files read (all world-readable; the serial numbers and UUIDs that need root are not).
const DMI_FIELDS: [&str; 8] = [
    "sys_vendor",
    "product_name",
    "product_version",
    "chassis_asset_tag",
    "chassis_type",
    "board_asset_tag",
    "bios_vendor",
    "bios_version",
];

/// Environment variables that platforms set (data/docs/platforms.md).
pub const ENV_MARKERS: [&str; 9] = [
    "COLAB_RELEASE_TAG",
    "COLAB_GPU",
    "COLAB_BACKEND_VERSION",
    "RUNPOD_POD_ID",
    "RUNPOD_GPU_COUNT",
    "VAST_CONTAINERLABEL",
    "CONTAINER_ID",
    "KAGGLE_KERNEL_RUN_TYPE",
    "KAGGLE_URL_BASE",
];

impl Signs {
    /// Reads this machine's signs (cheap: a few small files and variables).
    pub fn read(container: Option<String>) -> Signs {
        Signs::read_from(
            Path::new("/sys/class/dmi/id"),
            |k| std::env::var(k).ok(),
            container,
        )
    }

    /// Reads DMI from `dmi_dir` and variables through `var` (tests point both at fixtures).
    pub fn read_from(
        dmi_dir: &Path,
        var: impl Fn(&str) -> Option<String>,
        container: Option<String>,
    ) -> Signs {
        let dmi = DMI_FIELDS
            .iter()
            .filter_map(|f| {
                let v = std::fs::read_to_string(dmi_dir.join(f)).ok()?;
                Some((f.to_string(), v.trim().to_string()))
            })
            .collect();
        let env = ENV_MARKERS
            .iter()
            .filter_map(|k| var(k).map(|v| (k.to_string(), v)))
            .collect();
        Signs {
            dmi,
            env,
            kernel_release: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .unwrap_or_default()
                .trim()
                .to_string(),
            container,
        }
    }

    fn dmi(&self, field: &str) -> &str {
        self.dmi.get(field).map(String::as_str).unwrap_or("")
    }

    fn has_env(&self, key: &str) -> bool {
        self.env.get(key).is_some_and(|v| !v.trim().is_empty())
    }
}

/// A provider of rented machines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    /// Google Colab.
    Colab,
    /// Kaggle notebooks.
    Kaggle,
    /// Amazon Web Services (EC2, SageMaker).
    Aws,
    /// Google Cloud (Compute Engine).
    Gcp,
    /// Microsoft Azure.
    Azure,
    /// Oracle Cloud Infrastructure.
    Oracle,
    /// Alibaba Cloud ECS.
    Alibaba,
    /// DigitalOcean (Droplets, GPU Droplets).
    DigitalOcean,
    /// Hetzner.
    Hetzner,
    /// RunPod pods.
    RunPod,
    /// Vast.ai instances.
    VastAi,
}

impl Provider {
    /// The provider's name as people say it.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Colab => "Google Colab",
            Provider::Kaggle => "Kaggle",
            Provider::Aws => "AWS",
            Provider::Gcp => "Google Cloud",
            Provider::Azure => "Microsoft Azure",
            Provider::Oracle => "Oracle Cloud",
            Provider::Alibaba => "Alibaba Cloud",
            Provider::DigitalOcean => "DigitalOcean",
            Provider::Hetzner => "Hetzner",
            Provider::RunPod => "RunPod",
            Provider::VastAi => "Vast.ai",
        }
    }
}

/// What kind of place this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlaceKind {
    /// A notebook service whose sessions end on their own (Colab, Kaggle).
    Notebook,
    /// A rented VM or container, billed until stopped.
    Cloud,
    /// Windows Subsystem for Linux (the learner's own Windows PC).
    Wsl,
    /// A laptop (DMI chassis type).
    Laptop,
    /// A desktop or server of one's own (DMI chassis type).
    OwnMachine,
    /// A virtual machine of a hypervisor that names no cloud (VirtualBox, VMware, plain QEMU).
    VirtualMachine,
    /// Nothing recognisable (no DMI, e.g. a container on an unknown host, or macOS).
    Unknown,
}

/// Where the machine runs, and the evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Platform {
    /// What kind of place.
    pub kind: PlaceKind,
    /// Who runs it, for notebooks and clouds.
    pub provider: Option<Provider>,
    /// The instance type where the machine says it (AWS's DMI product name, e.g. g5.xlarge).
    pub instance_type: Option<String>,
    /// The instance's id where the machine says it (AWS Nitro's board asset tag, RunPod's pod,
    /// Vast.ai's container), for the stop command.
    pub instance_id: Option<String>,
    /// The sign that decided it, e.g. "DMI sys_vendor = Amazon EC2".
    pub evidence: String,
}

impl Platform {
    /// Nothing known (what a report written before detection existed reads as).
    pub fn unknown() -> Platform {
        Platform {
            kind: PlaceKind::Unknown,
            provider: None,
            instance_type: None,
            instance_id: None,
            evidence: "not recorded".into(),
        }
    }

    /// True on a rented machine billed by the hour.
    pub fn is_cloud(&self) -> bool {
        self.kind == PlaceKind::Cloud
    }

    /// The command that stops the billing, where the provider has one (with the id filled in
    /// when the machine says it), else where in the provider's console to do it.
    pub fn stop_hint(&self) -> Option<String> {
        let id = |placeholder: &str| {
            self.instance_id
                .clone()
                .unwrap_or_else(|| placeholder.to_string())
        };
        Some(match self.provider? {
            // Colab's and Kaggle's menus are named as the learner's interface shows them.
            Provider::Colab => t!("stop-colab"),
            Provider::Kaggle => t!("stop-kaggle"),
            Provider::Aws => format!(
                "aws ec2 stop-instances --instance-ids {}",
                id("<instance-id>")
            ),
            Provider::Gcp => "gcloud compute instances stop <instance-name> --zone <zone>".into(),
            // `az vm stop` keeps the VM allocated and billed; only deallocate stops the meter.
            Provider::Azure => "az vm deallocate --resource-group <group> --name <vm-name>".into(),
            Provider::Oracle => {
                "oci compute instance action --action STOP --instance-id <ocid>".into()
            }
            Provider::Alibaba => "aliyun ecs StopInstance --InstanceId <instance-id>".into(),
            // A powered-off Droplet is still billed: destroy it (after saving a snapshot).
            Provider::DigitalOcean => t!("stop-digitalocean", id = "<droplet-id>"),
            Provider::Hetzner => t!("stop-hetzner", id = "<server>"),
            Provider::RunPod => format!("runpodctl stop pod {}", id("<pod-id>")),
            Provider::VastAi => format!("vastai stop instance {}", id("<instance-id>")),
        })
    }
}

/// Chassis types of portable machines (SMBIOS 3.x, table 17: Portable, Laptop, Notebook, Sub
/// Notebook, Convertible, Detachable).
const LAPTOP_CHASSIS: [&str; 6] = ["8", "9", "10", "14", "31", "32"];

/// Decides the place from its signs. Notebook services first (Colab runs on Google Cloud and
/// says so in DMI; its variables are what make it Colab), then marketplaces by their variables
/// (their containers run on hosts whose DMI names someone else), then the clouds' DMI, then the
/// learner's own machines.
pub fn classify(s: &Signs) -> Platform {
    let found = |kind, provider, evidence: String| Platform {
        kind,
        provider,
        instance_type: None,
        instance_id: None,
        evidence,
    };
    if let Some(k) = ["COLAB_RELEASE_TAG", "COLAB_GPU", "COLAB_BACKEND_VERSION"]
        .into_iter()
        .find(|k| s.has_env(k))
    {
        return found(
            PlaceKind::Notebook,
            Some(Provider::Colab),
            t!("plat-env-set", name = k),
        );
    }
    if let Some(k) = ["KAGGLE_KERNEL_RUN_TYPE", "KAGGLE_URL_BASE"]
        .into_iter()
        .find(|k| s.has_env(k))
    {
        return found(
            PlaceKind::Notebook,
            Some(Provider::Kaggle),
            t!("plat-env-set", name = k),
        );
    }
    if s.has_env("RUNPOD_POD_ID") {
        let mut p = found(
            PlaceKind::Cloud,
            Some(Provider::RunPod),
            t!("plat-env-set", name = "RUNPOD_POD_ID"),
        );
        p.instance_id = s.env.get("RUNPOD_POD_ID").cloned();
        return p;
    }
    if s.has_env("VAST_CONTAINERLABEL") {
        let mut p = found(
            PlaceKind::Cloud,
            Some(Provider::VastAi),
            t!("plat-env-set", name = "VAST_CONTAINERLABEL"),
        );
        // "C.12345": the instance id is the number (CONTAINER_ID holds it too).
        p.instance_id = s.env.get("CONTAINER_ID").cloned().or_else(|| {
            s.env
                .get("VAST_CONTAINERLABEL")
                .map(|l| l.trim_start_matches("C.").to_string())
        });
        return p;
    }
    let vendor = s.dmi("sys_vendor");
    let product = s.dmi("product_name");
    let asset = s.dmi("chassis_asset_tag");
    let dmi_says = |field: &str, value: &str| format!("DMI {field} = {value}");
    let cloud = |provider, evidence| Some((provider, evidence));
    let by_dmi = if vendor == "Amazon EC2" {
        cloud(Provider::Aws, dmi_says("sys_vendor", vendor))
    } else if s.dmi("bios_version").to_lowercase().contains("amazon")
        || s.dmi("product_version").to_lowercase().contains("amazon")
    {
        // Older Xen-based EC2 instances say "Xen" as vendor and "amazon" in the BIOS version.
        cloud(
            Provider::Aws,
            dmi_says("bios_version", s.dmi("bios_version")),
        )
    } else if product == "Google Compute Engine" || vendor == "Google" {
        cloud(Provider::Gcp, dmi_says("product_name", product))
    } else if asset == "7783-7084-3265-9085-8269-3286-77" {
        // Azure's constant asset tag; Hyper-V on a desktop says "Microsoft Corporation" /
        // "Virtual Machine" too, but not this.
        cloud(Provider::Azure, dmi_says("chassis_asset_tag", asset))
    } else if asset == "OracleCloud.com" {
        cloud(Provider::Oracle, dmi_says("chassis_asset_tag", asset))
    } else if vendor == "Alibaba Cloud" || product == "Alibaba Cloud ECS" {
        cloud(Provider::Alibaba, dmi_says("sys_vendor", vendor))
    } else if vendor == "DigitalOcean" {
        cloud(Provider::DigitalOcean, dmi_says("sys_vendor", vendor))
    } else if vendor == "Hetzner" {
        cloud(Provider::Hetzner, dmi_says("sys_vendor", vendor))
    } else {
        None
    };
    if let Some((provider, evidence)) = by_dmi {
        let mut p = found(PlaceKind::Cloud, Some(provider), evidence);
        if provider == Provider::Aws {
            // On Nitro instances the product name is the instance type and the board's asset
            // tag the instance id (i-…).
            p.instance_type = looks_like_ec2_type(product).then(|| product.to_string());
            let board = s.dmi("board_asset_tag");
            p.instance_id = board.starts_with("i-").then(|| board.to_string());
        }
        return p;
    }
    if s.kernel_release.to_lowercase().contains("microsoft") {
        return found(
            PlaceKind::Wsl,
            None,
            t!("plat-wsl-kernel", release = s.kernel_release),
        );
    }
    let chassis = s.dmi("chassis_type");
    if LAPTOP_CHASSIS.contains(&chassis) {
        return found(PlaceKind::Laptop, None, dmi_says("chassis_type", chassis));
    }
    let hypervisor = [
        "QEMU",
        "VMware, Inc.",
        "innotek GmbH",
        "Xen",
        "Microsoft Corporation",
        "Parallels",
    ]
    .into_iter()
    .find(|h| vendor.starts_with(h))
    .or_else(|| (product == "KVM").then_some("KVM"));
    if let Some(h) = hypervisor {
        return found(PlaceKind::VirtualMachine, None, dmi_says("sys_vendor", h));
    }
    if !vendor.is_empty() || !chassis.is_empty() {
        return found(PlaceKind::OwnMachine, None, dmi_says("sys_vendor", vendor));
    }
    found(
        PlaceKind::Unknown,
        None,
        match &s.container {
            Some(c) => t!("plat-container-no-dmi", kind = c),
            None => t!("plat-no-signs"),
        },
    )
}

/// "g5.xlarge", "p4d.24xlarge": family, a dot, a size.
fn looks_like_ec2_type(name: &str) -> bool {
    let Some((family, size)) = name.split_once('.') else {
        return false;
    };
    !family.is_empty()
        && family
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
        && family.starts_with(|c: char| c.is_ascii_lowercase())
        && !size.is_empty()
        && size.chars().all(|c| c.is_ascii_alphanumeric())
}

/// How long this machine (or, in a container, the container) has been up, in seconds: what a
/// rented machine has been billed for so far. In a container `/proc/uptime` is the host's, so
/// the age of process 1 is used instead.
pub fn uptime_s(in_container: bool) -> Option<f64> {
    let uptime: f64 = std::fs::read_to_string("/proc/uptime")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    if !in_container {
        return Some(uptime);
    }
    let stat = std::fs::read_to_string("/proc/1/stat").ok()?;
    Some(uptime - pid1_start_s(&stat)?).filter(|age| *age >= 0.0)
}

/// Process 1's start, seconds after boot, from its `/proc/1/stat` (field 22, in clock ticks of
/// 1/100 s on every Linux gpulab runs on: USER_HZ is 100 on x86-64 and arm64).
fn pid1_start_s(stat: &str) -> Option<f64> {
    // The command name (field 2) may hold spaces; fields after its ')' are plain.
    let after = stat.rsplit_once(')')?.1;
    let ticks: f64 = after.split_whitespace().nth(19)?.parse().ok()?;
    Some(ticks / 100.0)
}

#[cfg(test)]
mod tests;
