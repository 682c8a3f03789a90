//! Devices by name ("cpu", "cuda:0"): opening them, their display names, and their free memory.
//! CUDA facts come from [`crate::probe::cuda`]; a CPU build answers "not compiled".

use candle_core::Device;
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::probe::cuda;
use crate::units::Bytes;

/// Where to run. Written in files as its name ("cpu", "cuda:0").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeviceSpec {
    /// The host CPU.
    Cpu,
    /// A CUDA device by ordinal.
    Cuda(usize),
}

impl DeviceSpec {
    /// Parses "cpu", "cuda", "cuda:N", "gpu" or "gpu:N".
    pub fn parse(text: &str) -> Result<DeviceSpec> {
        let t = text.trim().to_ascii_lowercase();
        if t == "cpu" {
            return Ok(DeviceSpec::Cpu);
        }
        for prefix in ["cuda", "gpu"] {
            if t == prefix {
                return Ok(DeviceSpec::Cuda(0));
            }
            if let Some(rest) = t.strip_prefix(prefix).and_then(|r| r.strip_prefix(':')) {
                if let Ok(n) = rest.parse() {
                    return Ok(DeviceSpec::Cuda(n));
                }
            }
        }
        Err(crate::bad!("device-unknown", given = format!("{text:?}")))
    }

    /// Opens it.
    pub fn open(self) -> Result<Device> {
        Ok(match self {
            DeviceSpec::Cpu => Device::Cpu,
            DeviceSpec::Cuda(n) => Device::new_cuda(n)?,
        })
    }
}

impl Serialize for DeviceSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DeviceSpec {
    /// Reads "cpu" / "cuda:N", and the forms files written before this one used ("Cpu",
    /// `{"Cuda": N}`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Name(String),
            Old {
                #[serde(rename = "Cuda")]
                cuda: usize,
            },
        }
        match Form::deserialize(d)? {
            Form::Name(name) => DeviceSpec::parse(&name).map_err(serde::de::Error::custom),
            Form::Old { cuda } => Ok(DeviceSpec::Cuda(cuda)),
        }
    }
}

impl std::fmt::Display for DeviceSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceSpec::Cpu => write!(f, "cpu"),
            DeviceSpec::Cuda(n) => write!(f, "cuda:{n}"),
        }
    }
}

/// The CPU plus every CUDA device that opens (none on a CPU build).
pub fn available() -> Vec<DeviceSpec> {
    let mut all = vec![DeviceSpec::Cpu];
    all.extend((0..cuda_device_count()).map(DeviceSpec::Cuda));
    all
}

/// How many CUDA devices the driver counts (0 on a CPU build or without a driver).
pub fn cuda_device_count() -> usize {
    cuda::device_count().unwrap_or(0)
}

/// Display name: the GPU's product name, or the CPU model.
pub fn name(device: &Device) -> String {
    cuda::device_name(device).unwrap_or_else(|| crate::probe::host::detect().cpu_model)
}

/// Compute capability of a CUDA device (None for the CPU).
pub fn compute_cap(device: &Device) -> Option<crate::probe::nvidia_smi::ComputeCap> {
    cuda::compute_cap(device)
}

/// Memory free for new tensors: the GPU's free memory, or the host's available RAM.
pub fn free_memory(device: &Device) -> Option<Bytes> {
    if device.is_cuda() {
        return cuda::memory_info(device).map(|(free, _)| free);
    }
    Some(crate::probe::host::available_ram())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_device_names() {
        assert_eq!(DeviceSpec::parse("cpu").unwrap(), DeviceSpec::Cpu);
        assert_eq!(DeviceSpec::parse("CUDA:1").unwrap(), DeviceSpec::Cuda(1));
        assert_eq!(DeviceSpec::parse("gpu").unwrap(), DeviceSpec::Cuda(0));
        assert!(DeviceSpec::parse("tpu").is_err());
        assert!(DeviceSpec::parse("cuda:x").is_err());
        assert_eq!(DeviceSpec::Cuda(2).to_string(), "cuda:2");
        let json = serde_json::to_string(&DeviceSpec::Cuda(1)).unwrap();
        assert_eq!(json, "\"cuda:1\"");
        for old in ["\"Cpu\"", "\"cpu\""] {
            assert_eq!(
                serde_json::from_str::<DeviceSpec>(old).unwrap(),
                DeviceSpec::Cpu
            );
        }
        let old: DeviceSpec = serde_json::from_str("{\"Cuda\": 3}").unwrap();
        assert_eq!(old, DeviceSpec::Cuda(3));
    }

    #[test]
    fn cpu_opens_and_has_memory() {
        let dev = DeviceSpec::Cpu.open().unwrap();
        assert!(free_memory(&dev).unwrap().0 > 0);
        assert!(compute_cap(&dev).is_none());
    }
}
