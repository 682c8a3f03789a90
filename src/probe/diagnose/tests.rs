//! Tests of `diagnose.rs`, on recorded outputs (data/fixtures/); kept apart so the module reads as code.
use super::*;
use crate::probe::framework::KernelCheck;
use crate::probe::nvidia_smi::{attach_mig, parse_list, parse_query_csv, parse_versions, Versions};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/data/fixtures/nvidia-smi/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn driver_ok(csv: &str, banner: &str) -> DriverView {
    DriverView {
        failure: None,
        gpus: parse_query_csv(&fixture(csv)).unwrap(),
        versions: if banner.is_empty() {
            Versions::default()
        } else {
            parse_versions(&fixture(banner))
        },
        dropped_fields: vec![],
        elapsed_s: 0.0,
    }
}

fn driver_failed(failure: SmiFailure) -> DriverView {
    DriverView {
        failure: Some(failure),
        gpus: vec![],
        versions: Versions::default(),
        dropped_fields: vec![],
        elapsed_s: 0.0,
    }
}

fn cpu_build() -> FrameworkView {
    FrameworkView {
        compiled_with_cuda: false,
        candle_version: "0.11.1".into(),
        build_cuda_toolkit: None,
        build_compute_cap: None,
        driver_cuda_version: None,
        cuda_visible_devices: None,
        device_count: None,
        init_error: Some(CudaProblem::from_error(
            &"the candle crate has not been built with cuda support",
        )),
        devices: vec![],
    }
}

fn cuda_build(toolkit: &str, cap: &str, devices: Vec<CudaDeviceProbe>) -> FrameworkView {
    FrameworkView {
        compiled_with_cuda: true,
        candle_version: "0.11.1".into(),
        build_cuda_toolkit: Some(toolkit.into()),
        build_compute_cap: Some(cap.into()),
        driver_cuda_version: Some("12.4".into()),
        cuda_visible_devices: None,
        device_count: Some(devices.len()),
        init_error: None,
        devices,
    }
}

fn ok_check(dtype: &str) -> KernelCheck {
    KernelCheck {
        dtype: dtype.into(),
        ok: true,
        max_rel_error: Some(1e-6),
        error: None,
    }
}

fn failed_check(dtype: &str, text: &str) -> KernelCheck {
    KernelCheck {
        dtype: dtype.into(),
        ok: false,
        max_rel_error: None,
        error: Some(CudaProblem::from_error(&text)),
    }
}

fn device(ordinal: usize, uuid: Option<&str>, cap: &str, total_mib: u64) -> CudaDeviceProbe {
    CudaDeviceProbe {
        ordinal,
        open_error: None,
        name: Some("GPU".into()),
        uuid: uuid.map(str::to_string),
        pci_bus_id: None,
        compute_cap: ComputeCap::parse(cap),
        memory_total: Some(Bytes(total_mib * Bytes::MIB)),
        memory_free: Some(Bytes(total_mib * Bytes::MIB * 9 / 10)),
        kernel_f32: Some(ok_check("f32")),
        kernel_bf16: Some(ok_check("bf16")),
    }
}

#[test]
fn no_driver_on_a_cpu_build_is_friendly() {
    let d = diagnose(&driver_failed(SmiFailure::NotInstalled), &cpu_build());
    assert_eq!(d.overall, Readiness::NoGpu);
    assert_eq!(d.findings[0].cause, Cause::NoDriver);
    assert!(d.advice.contains("Colab"));
    assert!(d.headline.contains("No NVIDIA GPU to use"));
}

#[test]
fn an_nvidia_smi_that_fails_silently_proves_no_gpu() {
    // `check --nvidia-smi /bin/false` said "GPU present but not usable": nothing showed a GPU.
    let failed = SmiFailure::Failed {
        exit_code: Some(1),
        message: "(no output)".into(),
    };
    let d = diagnose(&driver_failed(failed), &cpu_build());
    assert_eq!(d.overall, Readiness::NoGpu);
    assert!(!d.headline.contains("present"), "{}", d.headline);
    assert!(d.headline.contains("printed nothing"), "{}", d.headline);
    assert!(d.headline.contains("unknown"), "{}", d.headline);
}

#[test]
fn gpu_seen_by_driver_but_build_has_no_cuda() {
    let d = diagnose(
        &driver_ok("query-rtx5080-580.csv", "smi-p4-550.txt"),
        &cpu_build(),
    );
    assert_eq!(d.overall, Readiness::NotUsable);
    assert_eq!(d.findings[0].cause, Cause::BuiltWithoutCuda);
    assert!(d.fix.contains("--features cuda"));
    assert_eq!(d.gpus.len(), 1);
    assert_eq!(d.gpus[0].readiness, Readiness::NotUsable);
}

#[test]
fn each_driver_failure_has_its_cause_and_a_fix() {
    let cases = [
        (SmiFailure::CannotCommunicate, Cause::DriverNotLoaded),
        (SmiFailure::VersionMismatch, Cause::DriverLibraryMismatch),
        (SmiFailure::NvmlUnknownError, Cause::ContainerLostGpu),
        (
            SmiFailure::NvmlLibraryMissing,
            Cause::DriverLibrariesMissing,
        ),
        (SmiFailure::NoDevices, Cause::NoDevices),
        (SmiFailure::TimedOut { after_s: 5.0 }, Cause::SmiTimedOut),
        (SmiFailure::PermissionDenied, Cause::SmiPermissionDenied),
        (
            SmiFailure::Unparseable { detail: "x".into() },
            Cause::SmiUnreadable,
        ),
    ];
    for (failure, cause) in cases {
        let d = diagnose(&driver_failed(failure.clone()), &cpu_build());
        assert_eq!(d.findings[0].cause, cause, "{failure:?}");
        assert!(!d.fix.is_empty(), "{failure:?}");
    }
    let d = diagnose(&driver_failed(SmiFailure::VersionMismatch), &cpu_build());
    assert_eq!(d.overall, Readiness::NotUsable);
    assert!(d.fix.contains("reboot"));
}

#[test]
fn ready_when_both_views_agree_by_uuid() {
    let driver = driver_ok("query-rtx5080-580.csv", "");
    let fw = cuda_build(
        "12.4",
        "120",
        vec![device(
            0,
            Some("GPU-49dacec4-c9d8-7109-cffc-9ff262186fe6"),
            "12.0",
            15900,
        )],
    );
    let d = diagnose(&driver, &fw);
    assert_eq!(d.overall, Readiness::Ready, "{d:#?}");
    assert_eq!(d.gpus[0].matched_by, "uuid");
    assert_eq!(d.gpus.len(), 1);
    assert!(d.headline.starts_with("Ready"));
}

#[test]
fn mixed_box_old_gpu_lacks_bf16_new_one_ready() {
    // TITAN V (7.0) + RTX 5880 Ada (8.9); CUDA orders fastest first, so ordinal 0 is the Ada.
    let driver = driver_ok("query-titanv-rtx5880-570.csv", "");
    let mut titan = device(1, None, "7.0", 12000);
    titan.kernel_bf16 = Some(failed_check(
        "bf16",
        "DriverError(CUDA_ERROR_NOT_FOUND, \"named symbol not found\") when loading cast_f32_bf16",
    ));
    let fw = cuda_build("12.4", "70", vec![titan, device(0, None, "8.9", 48000)]);
    let d = diagnose(&driver, &fw);
    assert_eq!(d.overall, Readiness::Ready);
    let titan_verdict = d.gpus.iter().find(|g| g.smi_index == Some(0)).unwrap();
    assert_eq!(titan_verdict.readiness, Readiness::Limited);
    assert_eq!(titan_verdict.findings[0].cause, Cause::NoBf16);
}

#[test]
fn ptx_too_new_for_driver_names_both_versions() {
    let driver = driver_ok("query-rtx5080-580.csv", "smi-p4-550.txt");
    let mut dev = device(
        0,
        Some("GPU-49dacec4-c9d8-7109-cffc-9ff262186fe6"),
        "12.0",
        15900,
    );
    dev.kernel_f32 = Some(failed_check("f32", "DriverError(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, \"the provided PTX was compiled with an unsupported toolchain.\") when loading cast_u32_f32"));
    let fw = cuda_build("13.0", "120", vec![dev]);
    let d = diagnose(&driver, &fw);
    assert_eq!(d.overall, Readiness::NotUsable);
    // Predicted from the banner alone, and confirmed by the kernel.
    assert_eq!(d.findings[0].cause, Cause::DriverTooOldForToolkit);
    assert!(d.findings[0].summary.contains("12.4"));
    assert!(d.findings[0].summary.contains("13.0"));
    assert_eq!(d.gpus[0].findings[0].cause, Cause::DriverTooOldForToolkit);
}

#[test]
fn kernels_built_for_a_newer_gpu() {
    let driver = driver_ok("query-rtx5080-580.csv", "");
    let dev = device(
        0,
        Some("GPU-49dacec4-c9d8-7109-cffc-9ff262186fe6"),
        "8.6",
        15900,
    );
    let fw = cuda_build("12.4", "90", vec![dev]);
    let d = diagnose(&driver, &fw);
    assert_eq!(d.gpus[0].readiness, Readiness::NotUsable);
    assert!(d.gpus[0]
        .findings
        .iter()
        .any(|f| f.cause == Cause::KernelsForOtherArch && f.fix.contains("CUDA_COMPUTE_CAP=86")));
}

#[test]
fn hidden_by_cuda_visible_devices() {
    let driver = driver_ok("query-rtx5080-580.csv", "");
    let mut fw = cuda_build("12.4", "120", vec![]);
    fw.cuda_visible_devices = Some("".into());
    fw.init_error = Some(CudaProblem::from_error(
        &"DriverError(CUDA_ERROR_NO_DEVICE, \"no CUDA-capable device is detected\")",
    ));
    let d = diagnose(&driver, &fw);
    assert_eq!(d.overall, Readiness::NotUsable);
    assert_eq!(d.findings[0].cause, Cause::HiddenByCudaVisibleDevices);
}

#[test]
fn mig_slice_is_named_with_the_uuid_to_use() {
    let mut driver = driver_ok("query-rtx3090-591.csv", "");
    driver.gpus[0].uuid = Some("GPU-7fdaf0a5-179b-f636-d15d-daf243e3ff16".into());
    driver.gpus[0].mig_enabled = Some(true);
    attach_mig(
        &mut driver.gpus,
        &parse_list(&fixture("list-a100-mig7-535.txt")),
    );
    let fw = cuda_build(
        "12.4",
        "80",
        vec![device(0, Some("MIG-feb88891"), "8.0", 9728)],
    );
    let d = diagnose(&driver, &fw);
    let mig = &d.gpus[0].findings[0];
    assert_eq!(mig.cause, Cause::MigSlice);
    assert!(mig.summary.contains("7 slice"));
    assert!(mig.fix.contains("MIG-feb88891-0321-5fef-9c87-d4af3b54259e"));
}

#[test]
fn memory_gap_beyond_the_reserve_is_flagged() {
    let driver = driver_ok("query-rtx5080-580.csv", "");
    let fw = cuda_build(
        "12.4",
        "120",
        vec![device(
            0,
            Some("GPU-49dacec4-c9d8-7109-cffc-9ff262186fe6"),
            "12.0",
            8000,
        )],
    );
    let d = diagnose(&driver, &fw);
    assert!(d.gpus[0]
        .findings
        .iter()
        .any(|f| f.cause == Cause::MemoryMismatch));
    let fw = cuda_build(
        "12.4",
        "120",
        vec![device(
            0,
            Some("GPU-49dacec4-c9d8-7109-cffc-9ff262186fe6"),
            "12.0",
            15900,
        )],
    );
    let d = diagnose(&driver, &fw);
    assert!(!d.gpus[0]
        .findings
        .iter()
        .any(|f| f.cause == Cause::MemoryMismatch));
}

#[test]
fn versions_compare_numerically() {
    assert!(version_lt("12.4", "13.0"));
    assert!(version_lt("9.2", "12.0"));
    assert!(!version_lt("13.0", "13.0"));
    assert!(!version_lt("12.10", "12.9"));
    assert!(same_pci("0000:03:00.0", "00000000:03:00.0"));
}
