//! Quantities that are easy to mix up get their own types: [`Bytes`] for memory. Display picks
//! binary units (KiB, MiB, GiB) because that is what nvidia-smi, CUDA and the OS report.

use serde::{Deserialize, Serialize};

/// A byte count. Serialised as a plain integer so JSON readers need no special handling.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Bytes(pub u64);

impl Bytes {
    /// One gibibyte (2^30 bytes).
    pub const GIB: u64 = 1 << 30;
    /// One mebibyte (2^20 bytes).
    pub const MIB: u64 = 1 << 20;

    /// The value in GiB, for arithmetic and tables.
    pub fn gib(self) -> f64 {
        self.0 as f64 / Self::GIB as f64
    }

    /// The value in MiB.
    pub fn mib(self) -> f64 {
        self.0 as f64 / Self::MIB as f64
    }
}

impl std::fmt::Display for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit < UNITS.len() - 1 {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} B", self.0)
        } else {
            write!(f, "{value:.1} {}", UNITS[unit])
        }
    }
}

/// Seconds since the Unix epoch (0 if the clock is before it): the timestamp of every output.
pub fn now_unix_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_picks_binary_units() {
        assert_eq!(Bytes(512).to_string(), "512 B");
        assert_eq!(Bytes(1536).to_string(), "1.5 KiB");
        assert_eq!(Bytes(15360 * Bytes::MIB).to_string(), "15.0 GiB");
        assert_eq!(Bytes(3 * Bytes::GIB).gib(), 3.0);
    }
}
