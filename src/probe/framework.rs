//! The framework's view of the GPUs: what Candle itself can open and run, as opposed to what the
//! driver lists. "Compiled with cuda" and "device opened" are separate facts (Candle's
//! `cuda_is_available()` only reads the feature flag), and many failures appear only at the
//! first kernel (PTX too new for the driver, bf16 symbols missing below compute capability 8.0),
//! so every device runs a tiny real matmul that is read back and checked on the host.
//!
//! The CPU build probes for real too: `Device::new_cuda(0)` is called and its refusal recorded.

use candle_core::{DType, Device, Tensor};
use serde::{Deserialize, Serialize};

use crate::probe::cuda;
pub use crate::probe::cuda_facts::{classify_cuda_error, format_uuid, CudaErrorKind, CudaProblem};
use crate::units::Bytes;

/// Result of running a tiny matmul on a device and checking it against the CPU in f64.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelCheck {
    /// dtype tried ("f32", "bf16").
    pub dtype: String,
    /// True when the result came back and matched the reference.
    pub ok: bool,
    /// Largest error relative to the largest reference value.
    pub max_rel_error: Option<f64>,
    /// The failure, if any.
    pub error: Option<CudaProblem>,
}

/// Side of the tiny matmul: big enough to go through the real GEMM path, small enough to be free.
const KERNEL_N: usize = 64;

/// Runs a small random matmul in `dtype` on `device`, reads it back and compares it with an f64
/// product computed on the host. Works on any device, so it is tested on the CPU.
pub fn kernel_check(device: &Device, dtype: DType) -> KernelCheck {
    let name = format!("{dtype:?}").to_lowercase();
    match run_kernel(device, dtype) {
        Ok(rel) => {
            let ok = rel.is_finite() && rel <= crate::dtype::matmul_tolerance(dtype);
            KernelCheck {
                dtype: name,
                ok,
                max_rel_error: Some(rel),
                error: (!ok).then(|| CudaProblem {
                    kind: CudaErrorKind::WrongResult,
                    message: crate::t!(
                        "cuda-matmul-off",
                        error = format!("{rel:.2e}"),
                        tolerance = format!("{:.0e}", crate::dtype::matmul_tolerance(dtype))
                    ),
                }),
            }
        }
        Err(err) => KernelCheck {
            dtype: name,
            ok: false,
            max_rel_error: None,
            error: Some(CudaProblem::from_error(&err)),
        },
    }
}

fn run_kernel(device: &Device, dtype: DType) -> candle_core::Result<f64> {
    let n = KERNEL_N;
    // Inputs are made on the host so the reference sees exactly the values the device sees
    // (after rounding to `dtype`).
    let a_host = Tensor::randn(0f32, 1.0, (n, n), &Device::Cpu)?.to_dtype(dtype)?;
    let b_host = Tensor::randn(0f32, 1.0, (n, n), &Device::Cpu)?.to_dtype(dtype)?;
    let a = a_host.to_device(device)?;
    let b = b_host.to_device(device)?;
    let c = a
        .matmul(&b)?
        .to_dtype(DType::F32)?
        .to_device(&Device::Cpu)?;
    let got = c.flatten_all()?.to_vec1::<f32>()?;
    let a64 = a_host.to_dtype(DType::F64)?.to_vec2::<f64>()?;
    let b64 = b_host.to_dtype(DType::F64)?.to_vec2::<f64>()?;
    let mut max_ref = 0f64;
    let mut max_err = 0f64;
    for i in 0..n {
        for j in 0..n {
            let want: f64 = (0..n).map(|k| a64[i][k] * b64[k][j]).sum();
            max_ref = max_ref.max(want.abs());
            max_err = max_err.max((want - got[i * n + j] as f64).abs());
        }
    }
    Ok(max_err / max_ref.max(f64::MIN_POSITIVE))
}

/// One CUDA device as Candle sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CudaDeviceProbe {
    /// CUDA ordinal (CUDA's order, which may differ from nvidia-smi's).
    pub ordinal: usize,
    /// `Device::new_cuda(ordinal)` failure, if it failed.
    pub open_error: Option<CudaProblem>,
    /// Device name.
    pub name: Option<String>,
    /// `GPU-…` UUID (the key to match nvidia-smi's row).
    pub uuid: Option<String>,
    /// PCI bus id in nvidia-smi's spelling.
    pub pci_bus_id: Option<String>,
    /// Compute capability.
    pub compute_cap: Option<crate::probe::nvidia_smi::ComputeCap>,
    /// Total memory CUDA can see (less than nvidia-smi's total by the driver's reserve).
    pub memory_total: Option<Bytes>,
    /// Free memory now.
    pub memory_free: Option<Bytes>,
    /// The f32 matmul check.
    pub kernel_f32: Option<KernelCheck>,
    /// The bf16 matmul check.
    pub kernel_bf16: Option<KernelCheck>,
}

/// Everything the framework said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameworkView {
    /// Was this binary built with the `cuda` feature?
    pub compiled_with_cuda: bool,
    /// Candle's version.
    pub candle_version: String,
    /// CUDA toolkit the binary's kernels were compiled with (cuda builds only).
    pub build_cuda_toolkit: Option<String>,
    /// `CUDA_COMPUTE_CAP` the kernels were compiled for (cuda builds only).
    pub build_compute_cap: Option<String>,
    /// Highest CUDA version the installed driver supports, from `cuDriverGetVersion`.
    pub driver_cuda_version: Option<String>,
    /// `CUDA_VISIBLE_DEVICES` as set for this process.
    pub cuda_visible_devices: Option<String>,
    /// How many CUDA devices the driver API counts.
    pub device_count: Option<usize>,
    /// Why CUDA could not be used at all (e.g. built without cuda), if so.
    pub init_error: Option<CudaProblem>,
    /// Each device's probe.
    pub devices: Vec<CudaDeviceProbe>,
}

/// Asks Candle. On a CPU build this still calls `Device::new_cuda(0)` and records its refusal.
pub fn probe() -> FrameworkView {
    let mut view = FrameworkView {
        compiled_with_cuda: cuda::COMPILED,
        candle_version: candle_version().to_string(),
        build_cuda_toolkit: option_env!("GPULAB_BUILD_CUDA_TOOLKIT")
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        build_compute_cap: option_env!("GPULAB_BUILD_COMPUTE_CAP")
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        driver_cuda_version: None,
        cuda_visible_devices: std::env::var("CUDA_VISIBLE_DEVICES").ok(),
        device_count: None,
        init_error: None,
        devices: Vec::new(),
    };
    match cuda::device_count() {
        // On a CPU build this is Candle's own refusal to open cuda:0 (cuda_stub.rs).
        Err(problem) => view.init_error = Some(problem),
        Ok(count) => {
            view.device_count = Some(count);
            view.driver_cuda_version = cuda::driver_version().map(format_cuda_version);
            view.devices = (0..count).map(probe_device).collect();
        }
    }
    view
}

/// The candle-core version this binary was built against.
pub fn candle_version() -> &'static str {
    env!("GPULAB_CANDLE_VERSION")
}

/// `12040` (cuDriverGetVersion) → "12.4".
pub fn format_cuda_version(version: i32) -> String {
    format!("{}.{}", version / 1000, (version % 1000) / 10)
}

/// One device: opened through Candle, its facts read, and a real matmul checked in f32 and bf16.
fn probe_device(ordinal: usize) -> CudaDeviceProbe {
    let mut probe = CudaDeviceProbe {
        ordinal,
        open_error: None,
        name: None,
        uuid: None,
        pci_bus_id: None,
        compute_cap: None,
        memory_total: None,
        memory_free: None,
        kernel_f32: None,
        kernel_bf16: None,
    };
    let device = match Device::new_cuda(ordinal) {
        Ok(d) => d,
        Err(err) => {
            probe.open_error = Some(CudaProblem::from_error(&err));
            return probe;
        }
    };
    probe.name = cuda::device_name(&device);
    probe.uuid = cuda::uuid(&device);
    probe.compute_cap = cuda::compute_cap(&device);
    probe.pci_bus_id = cuda::pci_bus_id(&device);
    if let Some((free, total)) = cuda::memory_info(&device) {
        probe.memory_free = Some(free);
        probe.memory_total = Some(total);
    }
    probe.kernel_f32 = Some(kernel_check(&device, DType::F32));
    probe.kernel_bf16 = Some(kernel_check(&device, DType::BF16));
    probe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_kernel_check_passes_for_real() {
        for dtype in [DType::F32, DType::BF16, DType::F16] {
            let check = kernel_check(&Device::Cpu, dtype);
            assert!(check.ok, "{dtype:?}: {check:?}");
            let err = check.max_rel_error.unwrap();
            assert!(
                err < crate::dtype::matmul_tolerance(dtype),
                "{dtype:?}: {err}"
            );
        }
    }

    #[test]
    fn cpu_build_reports_not_compiled_from_a_real_probe() {
        if cuda::COMPILED {
            return; // a cuda build probes real devices; the GPU run covers it
        }
        let view = probe();
        assert!(!view.compiled_with_cuda);
        let problem = view
            .init_error
            .expect("new_cuda must refuse on a CPU build");
        assert_eq!(problem.kind, CudaErrorKind::NotCompiledWithCuda);
        assert!(view.devices.is_empty());
    }

    #[test]
    fn classifies_recorded_candle_errors() {
        // Texts as users pasted them; see data/docs/gpu-probe.md for the issue numbers.
        let cases = [
            ("DriverError(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, \"the provided PTX was compiled with an unsupported toolchain.\") when loading cast_u32_f32", CudaErrorKind::UnsupportedPtx),
            ("DriverError(CUDA_ERROR_NOT_FOUND, \"named symbol not found\") when loading cast_f32_bf16", CudaErrorKind::MissingKernel),
            ("DriverError(CUDA_ERROR_NO_DEVICE, \"no CUDA-capable device is detected\")", CudaErrorKind::NoDevice),
            ("DriverError(CUDA_ERROR_INSUFFICIENT_DRIVER, \"CUDA driver version is insufficient for CUDA runtime version\")", CudaErrorKind::InsufficientDriver),
            ("DlOpen { desc: \"libcuda.so: cannot open shared object file: No such file or directory\" }", CudaErrorKind::LibraryNotFound),
            ("the candle crate has not been built with cuda support", CudaErrorKind::NotCompiledWithCuda),
            ("DriverError(CUDA_ERROR_OUT_OF_MEMORY, \"out of memory\")", CudaErrorKind::OutOfMemory),
            ("something new", CudaErrorKind::Other),
        ];
        for (text, want) in cases {
            assert_eq!(classify_cuda_error(text), want, "{text}");
        }
        let problem = CudaProblem::from_error(&"first line\nstack backtrace:\n 0: x");
        assert_eq!(problem.message, "first line");
    }

    #[test]
    fn formats_uuid_and_versions_like_nvidia_smi() {
        let bytes = [
            0x49, 0xda, 0xce, 0xc4, 0xc9, 0xd8, 0x71, 0x09, 0x2c, 0xff, 0x9f, 0xf2, 0x62, 0x18,
            0x6f, 0xe6,
        ];
        assert_eq!(
            format_uuid(&bytes),
            "GPU-49dacec4-c9d8-7109-2cff-9ff262186fe6"
        );
        assert_eq!(format_cuda_version(12040), "12.4");
        assert_eq!(format_cuda_version(13000), "13.0");
    }
}
