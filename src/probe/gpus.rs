//! The GPU catalog, `data/gpus.toml`: datasheet memory, bandwidth and dense throughput, compute
//! capability and typical hourly price for the GPUs a learner meets (Colab's T4 up to an H200).
//! Embedded at compile time and validated on load: an unknown key, a missing field or an
//! impossible value is an error that names the file, line and field.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::probe::nvidia_smi::ComputeCap;
use crate::units::Bytes;

/// The catalog as shipped.
pub const GPUS_TOML: &str = include_str!("../../data/gpus.toml");

/// One GPU model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuSpec {
    /// Short id used on the command line, e.g. "T4", "A100-80GB".
    pub id: String,
    /// Product name.
    pub name: String,
    /// Substrings of nvidia-smi's name that identify this model.
    #[serde(rename = "match")]
    pub matches: Vec<String>,
    /// Memory in GiB, as sold.
    pub memory_gib: f64,
    /// Memory as CUDA and nvidia-smi report it, MiB, where it is known to be less than sold
    /// (ECC, reserved regions): what a verdict may use.
    #[serde(default)]
    pub usable_mib: Option<u64>,
    /// Where `usable_mib` was seen.
    #[serde(default)]
    pub usable_source: Option<String>,
    /// Memory bandwidth, GB/s.
    pub bandwidth_gbs: f64,
    /// fp32 (non-tensor) TFLOP/s.
    pub fp32_tflops: f64,
    /// Dense fp16 tensor TFLOP/s (fp32 accumulate).
    pub fp16_tflops: f64,
    /// Dense bf16 tensor TFLOP/s; 0 = no bf16.
    pub bf16_tflops: f64,
    /// Compute capability, "8.0".
    pub compute_cap: String,
    /// Typical hourly price, low end (USD).
    pub price_usd_hour_low: f64,
    /// Typical hourly price, high end (USD).
    pub price_usd_hour_high: f64,
    /// Where the price applies.
    pub price_note: String,
    /// Where the figures come from.
    pub source: String,
}

impl GpuSpec {
    /// Memory a workload can use, as bytes: the reported usable size where the catalogue has
    /// one, else the size as sold.
    pub fn memory(&self) -> Bytes {
        match self.usable_mib {
            Some(mib) => Bytes(mib * 1024 * 1024),
            None => Bytes((self.memory_gib * Bytes::GIB as f64) as u64),
        }
    }

    /// Dense peak for a dtype name ("f32", "f16", "bf16"), TFLOP/s; None when unsupported.
    pub fn peak_tflops(&self, dtype: &str) -> Option<f64> {
        let v = match dtype {
            "f32" => self.fp32_tflops,
            "f16" => self.fp16_tflops,
            "bf16" => self.bf16_tflops,
            _ => return None,
        };
        (v > 0.0).then_some(v)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogFile {
    gpu: Vec<GpuSpec>,
}

/// The validated catalog.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// All GPUs, in file order.
    pub gpus: Vec<GpuSpec>,
}

impl Catalog {
    /// The shipped catalog. Validated by a unit test, so this cannot fail in a released build.
    pub fn shipped() -> Catalog {
        Catalog::parse(GPUS_TOML, "data/gpus.toml").expect("data/gpus.toml is validated by tests")
    }

    /// Parses and validates catalog text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Catalog> {
        let parsed: CatalogFile = crate::files::parse_toml(text, file)?;
        let mut seen = std::collections::HashSet::new();
        for g in &parsed.gpu {
            let line = crate::files::line_of(text, &format!("id = \"{}\"", g.id));
            let bad = |field: &str, why: String| {
                crate::files::field_error(file, line, t!("kind-gpu"), &g.id, field, why)
            };
            if !seen.insert(g.id.to_lowercase()) {
                return Err(bad("id", t!("data-duplicate")));
            }
            for (field, v) in [
                ("memory_gib", g.memory_gib),
                ("bandwidth_gbs", g.bandwidth_gbs),
                ("fp32_tflops", g.fp32_tflops),
                ("fp16_tflops", g.fp16_tflops),
            ] {
                if !(v.is_finite() && v > 0.0) {
                    return Err(bad(field, t!("data-positive")));
                }
            }
            if !(g.bf16_tflops.is_finite() && g.bf16_tflops >= 0.0) {
                return Err(bad("bf16_tflops", t!("data-bf16-nonnegative")));
            }
            let cap = ComputeCap::parse(&g.compute_cap)
                .ok_or_else(|| bad("compute_cap", t!("data-compute-cap")))?;
            if cap.supports_bf16() != (g.bf16_tflops > 0.0) {
                return Err(bad("bf16_tflops", t!("data-bf16-cap")));
            }
            if g.price_usd_hour_low < 0.0 || g.price_usd_hour_high < g.price_usd_hour_low {
                return Err(bad("price_usd_hour_high", t!("data-price")));
            }
            if g.matches.is_empty() {
                return Err(bad("match", t!("data-match")));
            }
            if let Some(mib) = g.usable_mib {
                if mib == 0 || mib as f64 > g.memory_gib * 1024.0 {
                    return Err(bad("usable_mib", t!("data-usable")));
                }
                if g.usable_source.as_deref().is_none_or(str::is_empty) {
                    return Err(bad("usable_source", t!("data-usable-source")));
                }
            }
        }
        Ok(Catalog { gpus: parsed.gpu })
    }

    /// By id, case-insensitively; the error suggests the closest ids.
    pub fn get(&self, id: &str) -> Result<&GpuSpec> {
        if let Some(g) = self.gpus.iter().find(|g| g.id.eq_ignore_ascii_case(id)) {
            return Ok(g);
        }
        let names = crate::suggest::closest(
            id,
            self.gpus
                .iter()
                .map(|g| (g.id.as_str(), vec![g.id.as_str()])),
            3,
        );
        Err(crate::bad!(
            "gpu-unknown",
            given = format!("{id:?}"),
            guess = names.join(", "),
            all = self
                .gpus
                .iter()
                .map(|g| g.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }

    /// The entry whose `match` fragments best fit a name nvidia-smi or CUDA printed: the
    /// longest matching fragment wins, so "A100-SXM4-80GB" beats "A100".
    pub fn recognise(&self, device_name: &str) -> Option<&GpuSpec> {
        self.gpus
            .iter()
            .filter_map(|g| {
                g.matches
                    .iter()
                    .filter(|m| device_name.contains(m.as_str()))
                    .map(|m| m.len())
                    .max()
                    .map(|len| (len, g))
            })
            .max_by_key(|(len, _)| *len)
            .map(|(_, g)| g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_catalog_is_valid_and_complete() {
        let c = Catalog::parse(GPUS_TOML, "data/gpus.toml").unwrap();
        for id in [
            "T4",
            "L4",
            "A10G",
            "V100",
            "A100-40GB",
            "A100-80GB",
            "H100-SXM",
            "H100-PCIe",
            "H200",
            "L40S",
            "RTX-3060-12GB",
            "RTX-3090",
            "RTX-4060Ti-16GB",
            "RTX-4090",
            "RTX-5090",
        ] {
            assert!(c.get(id).is_ok(), "{id}");
        }
        // The T4's price is a rented one (Colab's free T4 is priced at 0 by `fit`'s target), and
        // its memory is what nvidia-smi reports with ECC on.
        assert!(c.get("t4").unwrap().price_usd_hour_low > 0.0);
        assert_eq!(c.get("T4").unwrap().memory(), Bytes(15360 << 20));
        assert_eq!(c.get("L4").unwrap().memory(), Bytes(23034 << 20));
        assert_eq!(c.get("L40S").unwrap().memory(), Bytes(46068 << 20));
        assert_eq!(
            c.get("H200").unwrap().memory(),
            Bytes(141 << 30),
            "as sold where unknown"
        );
        assert!(c.get("T4").unwrap().peak_tflops("bf16").is_none());
    }

    #[test]
    fn recognises_nvidia_smi_names() {
        let c = Catalog::shipped();
        assert_eq!(c.recognise("Tesla T4").unwrap().id, "T4");
        assert_eq!(c.recognise("NVIDIA H200").unwrap().id, "H200");
        assert_eq!(
            c.recognise("NVIDIA A100-SXM4-80GB").unwrap().id,
            "A100-80GB"
        );
        assert_eq!(c.recognise("NVIDIA H100 80GB HBM3").unwrap().id, "H100-SXM");
        assert!(c.recognise("NVIDIA TITAN V").is_none());
    }

    #[test]
    fn unknown_names_suggest_close_ones() {
        let err = Catalog::shipped().get("A100").unwrap_err().to_string();
        assert!(
            err.contains("A100-40GB") || err.contains("A100-80GB"),
            "{err}"
        );
    }

    #[test]
    fn bad_files_name_line_and_field() {
        let good = "[[gpu]]\nid = \"X\"\nname = \"X\"\nmatch = [\"X\"]\nmemory_gib = 1\nbandwidth_gbs = 1\nfp32_tflops = 1\nfp16_tflops = 1\nbf16_tflops = 1\ncompute_cap = \"8.0\"\nprice_usd_hour_low = 0\nprice_usd_hour_high = 1\nprice_note = \"\"\nsource = \"\"\n";
        assert!(Catalog::parse(good, "f.toml").is_ok());
        let unknown = good.replace("source", "sauce");
        let err = Catalog::parse(&unknown, "f.toml").unwrap_err().to_string();
        assert!(err.contains("f.toml") && err.contains("sauce"), "{err}");
        let impossible = good.replace("memory_gib = 1", "memory_gib = -4");
        let err = Catalog::parse(&impossible, "f.toml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("memory_gib") && err.contains("f.toml:2"),
            "{err}"
        );
        let no_bf16 = good.replace("compute_cap = \"8.0\"", "compute_cap = \"7.5\"");
        assert!(Catalog::parse(&no_bf16, "f.toml").is_err());
        let missing = good.replace("fp32_tflops = 1\n", "");
        let err = Catalog::parse(&missing, "f.toml").unwrap_err().to_string();
        assert!(err.contains("fp32_tflops"), "{err}");
    }
}
