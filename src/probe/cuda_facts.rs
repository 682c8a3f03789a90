//! What CUDA reports, as types the real CUDA module ([`crate::probe::cuda`]), its stub and
//! Candle's view ([`crate::probe::framework`]) share: errors classified by cause, UUIDs as
//! nvidia-smi prints them, and the host↔device copies the probe times.

use serde::{Deserialize, Serialize};

/// A CUDA-side failure, classified from Candle/cudarc's error text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CudaProblem {
    /// The cause.
    pub kind: CudaErrorKind,
    /// The first line of the error as Candle printed it (backtraces cut off).
    pub message: String,
}

/// The causes a learner can act on. See data/docs/gpu-probe.md for the issues
/// each one comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CudaErrorKind {
    /// "the candle crate has not been built with cuda support".
    NotCompiledWithCuda,
    /// CUDA_ERROR_NO_DEVICE: no device visible to CUDA (none, or hidden by CUDA_VISIBLE_DEVICES).
    NoDevice,
    /// CUDA_ERROR_INVALID_DEVICE: the ordinal does not exist.
    InvalidDevice,
    /// CUDA_ERROR_INSUFFICIENT_DRIVER (runtime error 35): the driver is older than the toolkit.
    InsufficientDriver,
    /// CUDA_ERROR_UNSUPPORTED_PTX_VERSION: PTX built by an nvcc newer than the driver supports.
    UnsupportedPtx,
    /// CUDA_ERROR_NOT_FOUND "named symbol not found": kernel missing, e.g. bf16 below cc 8.0.
    MissingKernel,
    /// CUDA_ERROR_NO_BINARY_FOR_GPU / INVALID_PTX: kernels built for another architecture.
    NoBinaryForGpu,
    /// A CUDA or driver library could not be loaded.
    LibraryNotFound,
    /// CUDA_ERROR_SYSTEM_DRIVER_MISMATCH / COMPAT_NOT_SUPPORTED: driver pieces out of step.
    DriverMismatch,
    /// CUDA_ERROR_OUT_OF_MEMORY.
    OutOfMemory,
    /// CUDA_ERROR_NOT_PERMITTED / OPERATING_SYSTEM / device busy or prohibited.
    NotPermitted,
    /// The kernel ran but gave a wrong answer.
    WrongResult,
    /// Anything else.
    Other,
}

impl CudaProblem {
    /// The problem as a person reads it: the catalogue's words where gpulab knows the case
    /// (Candle's refusal on a build without CUDA is English), Candle's own message otherwise.
    pub fn said(&self) -> String {
        match self.kind {
            CudaErrorKind::NotCompiledWithCuda => crate::t!("fw-not-compiled"),
            _ => self.message.clone(),
        }
    }

    /// Classifies an error by its text; keeps only the first line (RUST_BACKTRACE makes Candle
    /// append whole backtraces).
    pub fn from_error(error: &dyn std::fmt::Display) -> CudaProblem {
        let text = error.to_string();
        let message = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| crate::t!("cuda-empty-error"));
        CudaProblem {
            kind: classify_cuda_error(&text),
            message,
        }
    }
}

/// Names the cause of a Candle/cudarc error from its text.
pub fn classify_cuda_error(text: &str) -> CudaErrorKind {
    let has = |needle: &str| text.contains(needle);
    if has("not been built with cuda support") || has("NotCompiledWithCudaSupport") {
        CudaErrorKind::NotCompiledWithCuda
    } else if has("CUDA_ERROR_UNSUPPORTED_PTX_VERSION") {
        CudaErrorKind::UnsupportedPtx
    } else if has("CUDA_ERROR_INSUFFICIENT_DRIVER") || has("driver version is insufficient") {
        CudaErrorKind::InsufficientDriver
    } else if has("CUDA_ERROR_NOT_FOUND") || has("named symbol not found") {
        CudaErrorKind::MissingKernel
    } else if has("CUDA_ERROR_NO_BINARY_FOR_GPU") || has("CUDA_ERROR_INVALID_PTX") {
        CudaErrorKind::NoBinaryForGpu
    } else if has("CUDA_ERROR_NO_DEVICE") {
        CudaErrorKind::NoDevice
    } else if has("CUDA_ERROR_INVALID_DEVICE") {
        CudaErrorKind::InvalidDevice
    } else if has("CUDA_ERROR_SYSTEM_DRIVER_MISMATCH") || has("CUDA_ERROR_COMPAT_NOT_SUPPORTED") {
        CudaErrorKind::DriverMismatch
    } else if has("CUDA_ERROR_OUT_OF_MEMORY") || has("out of memory") {
        CudaErrorKind::OutOfMemory
    } else if has("CUDA_ERROR_NOT_PERMITTED")
        || has("CUDA_ERROR_OPERATING_SYSTEM")
        || has("CUDA_ERROR_DEVICE_UNAVAILABLE")
        || has("CUDA_ERROR_DEVICES_UNAVAILABLE")
    {
        CudaErrorKind::NotPermitted
    } else if has("cannot open shared object file")
        || has("DlOpen")
        || has("Unable to dynamically load")
        || has("error while loading shared libraries")
    {
        CudaErrorKind::LibraryNotFound
    } else {
        CudaErrorKind::Other
    }
}

/// Formats a 16-byte CUDA UUID the way nvidia-smi prints it: `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
pub fn format_uuid(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// A host↔device copy [`crate::probe::cuda::host_copies`] times (bench names them for people).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostCopy {
    /// Pageable host memory → device.
    ToDevicePageable,
    /// Device → pageable host memory.
    FromDevicePageable,
    /// Pinned host memory → device.
    ToDevicePinned,
    /// Device → pinned host memory.
    FromDevicePinned,
}

/// Times one call again and again (warm-up, synchronised): the caller's timing discipline,
/// handed to the probe so the probe needs no later stage.
pub type Timer<'a> =
    dyn FnMut(&mut dyn FnMut() -> candle_core::Result<()>) -> candle_core::Result<Vec<f64>> + 'a;
