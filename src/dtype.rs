//! Candle's element types as gpulab names, parses, serialises and checks them: one place, so
//! `bench`, `measure`, `check` and the calibration file agree on "bf16" and on what a correct
//! bf16 matmul is.

use candle_core::DType;

use crate::error::Result;

/// Parses "f32", "f16", "bf16" (and the usual long spellings).
pub fn parse(text: &str) -> Result<DType> {
    match text.trim().to_ascii_lowercase().as_str() {
        "f32" | "fp32" | "float32" => Ok(DType::F32),
        "f16" | "fp16" | "float16" | "half" => Ok(DType::F16),
        "bf16" | "bfloat16" => Ok(DType::BF16),
        other => Err(crate::bad!("dtype-unknown", given = format!("{other:?}"))),
    }
}

/// Short name as used in outputs and files.
pub fn name(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 => "f32",
        DType::F16 => "f16",
        DType::BF16 => "bf16",
        DType::F64 => "f64",
        _ => "other",
    }
}

/// Relative error a correct matmul in `dtype` stays under, for every check gpulab makes of one
/// (`bench`'s sampled check relative to Σ|a·b|, `check`'s 64×64 kernel check relative to the
/// largest output). bf16 keeps 8 mantissa bits (relative step 2⁻⁸ ≈ 4e-3 per rounding): its
/// inputs and output are rounded, so a few 1e-2 is a correct result and 1e-1 is not; f16 keeps
/// 11 bits; f32 accumulates in f32.
pub fn matmul_tolerance(dtype: DType) -> f64 {
    match dtype {
        DType::F32 => 1e-4,
        DType::F16 => 5e-3,
        DType::BF16 => 3e-2,
        _ => 1e-10,
    }
}

/// serde for Candle's DType as its short name (`#[serde(with = "crate::dtype::serde_name")]`).
pub mod serde_name {
    use candle_core::DType;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes the short name.
    pub fn serialize<S: Serializer>(dtype: &DType, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(super::name(*dtype))
    }

    /// Reads the short name.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DType, D::Error> {
        let text = String::deserialize(d)?;
        super::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_is_an_error() {
        for d in [DType::F32, DType::F16, DType::BF16] {
            assert_eq!(parse(name(d)).unwrap(), d);
        }
        assert!(parse("int8").is_err());
        assert!(matmul_tolerance(DType::BF16) > matmul_tolerance(DType::F32));
    }
}
