//! Tests of `nvidia_smi.rs`, on recorded outputs (data/fixtures/); kept apart so the module reads as code.
use super::*;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/data/fixtures/nvidia-smi/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn compute_cap_parses_both_spellings() {
    assert_eq!(
        ComputeCap::parse("8.6"),
        Some(ComputeCap { major: 8, minor: 6 })
    );
    assert_eq!(
        ComputeCap::parse("90a"),
        Some(ComputeCap { major: 9, minor: 0 })
    );
    assert_eq!(
        ComputeCap::parse("120"),
        Some(ComputeCap {
            major: 12,
            minor: 0
        })
    );
    assert_eq!(ComputeCap::parse("x"), None);
    assert!(!ComputeCap::parse("7.5").unwrap().supports_bf16());
    assert!(ComputeCap::parse("8.0").unwrap().supports_bf16());
}

#[test]
fn csv_with_units_rtx5080() {
    let gpus = parse_query_csv(&fixture("query-rtx5080-580.csv")).unwrap();
    assert_eq!(gpus.len(), 1);
    let g = &gpus[0];
    assert_eq!(g.name, "NVIDIA GeForce RTX 5080");
    assert_eq!(g.memory_total, Some(Bytes(16303 * 1024 * 1024)));
    assert_eq!(g.compute_cap, ComputeCap::parse("12.0"));
    assert_eq!(g.driver_version.as_deref(), Some("580.159.03"));
    assert_eq!(g.pci_bus_id.as_deref(), Some("00000000:06:10.0"));
    assert_eq!(g.mig_enabled, None);
}

#[test]
fn csv_mixed_box_columns_in_another_order() {
    let gpus = parse_query_csv(&fixture("query-titanv-rtx5880-570.csv")).unwrap();
    assert_eq!(gpus.len(), 2);
    assert_eq!(gpus[0].name, "NVIDIA TITAN V");
    assert_eq!(gpus[0].compute_cap, ComputeCap::parse("7.0"));
    assert_eq!(gpus[1].index, 1);
    assert_eq!(gpus[1].compute_cap, ComputeCap::parse("8.9"));
    assert!(gpus[1].uuid.is_none());
}

#[test]
fn csv_not_applicable_values_are_unknown_not_errors() {
    let csv = "index, name, uuid, memory.total [MiB], compute_cap, mig.mode.current\n\
               0, Tesla T4, [N/A], 15360, 7.5, [N/A]\n";
    let gpus = parse_query_csv(csv).unwrap();
    assert_eq!(gpus[0].uuid, None);
    assert_eq!(gpus[0].mig_enabled, None);
    let gpus = parse_query_csv(&fixture("query-t4-name-memory.csv")).unwrap();
    assert_eq!(gpus[0].name, "Tesla T4");
    assert_eq!(gpus[0].index, 0);
    assert_eq!(gpus[0].memory_total, Some(Bytes(15360 * 1024 * 1024)));
    let gpus = parse_query_csv(&fixture("query-rtx3090-591.csv")).unwrap();
    assert_eq!(gpus[0].compute_cap, None);
}

#[test]
fn csv_garbage_is_unparseable() {
    assert!(matches!(
        parse_query_csv("hello\nworld, again"),
        Err(SmiFailure::Unparseable { .. })
    ));
    assert!(matches!(
        parse_query_csv(""),
        Err(SmiFailure::Unparseable { .. })
    ));
    assert!(matches!(
        parse_query_csv("index, name\nzero, x"),
        Err(SmiFailure::Unparseable { .. })
    ));
}

#[test]
fn banner_before_r610() {
    let v = parse_versions(&fixture("smi-titanxp-450.txt"));
    assert_eq!(v.driver.as_deref(), Some("450.57"));
    assert_eq!(v.cuda.as_deref(), Some("11.0"));
    assert_eq!(v.smi.as_deref(), Some("450.57"));
}

#[test]
fn banner_r610_renamed_fields() {
    let v = parse_versions(&fixture("smi-b200x2-610.txt"));
    assert_eq!(v.driver.as_deref(), Some("610.43.02"));
    assert_eq!(v.cuda.as_deref(), Some("13.3"));
}

#[test]
fn banner_smi_and_driver_differ() {
    // Colab Pro, 2020: the nvidia-smi binary (450.66) is newer than the driver (418.67).
    let v = parse_versions(&fixture("smi-v100-colab-418.txt"));
    assert_eq!(v.smi.as_deref(), Some("450.66"));
    assert_eq!(v.driver.as_deref(), Some("418.67"));
    assert_eq!(v.cuda.as_deref(), Some("10.1"));
}

#[test]
fn banner_without_cuda_version() {
    let v = parse_versions(&fixture("smi-gtx680x3-331.txt"));
    assert_eq!(v.driver.as_deref(), Some("331.62"));
    assert_eq!(v.cuda, None);
}

#[test]
fn versions_from_dash_q() {
    let v = parse_versions(&fixture("q-t4-colab-460.txt"));
    assert_eq!(v.driver.as_deref(), Some("460.32.03"));
    assert_eq!(v.cuda.as_deref(), Some("11.2"));
}

#[test]
fn list_with_mig_slices() {
    let listed = parse_list(&fixture("list-a100x4-mig.txt"));
    assert_eq!(listed.len(), 4);
    assert_eq!(listed[0].name, "NVIDIA A100-SXM4-80GB");
    assert_eq!(listed[0].mig_devices.len(), 4);
    assert_eq!(listed[0].mig_devices[2].profile, "1g.20gb");
    assert!(listed[0].mig_devices[0].uuid.starts_with("MIG-"));
    assert!(listed[1].mig_devices.is_empty());
}

#[test]
fn unknown_field_of_old_driver() {
    assert_eq!(
        unknown_field(&fixture("err-compute-cap-field-470.txt")).as_deref(),
        Some("compute_cap")
    );
    assert_eq!(unknown_field("all good"), None);
}

#[test]
fn every_failure_fixture_gets_its_cause() {
    let cases = [
        ("err-cannot-communicate.txt", SmiFailure::CannotCommunicate),
        ("err-version-mismatch.txt", SmiFailure::VersionMismatch),
        (
            "err-nvml-unknown-container.txt",
            SmiFailure::NvmlUnknownError,
        ),
        ("err-no-devices.txt", SmiFailure::NoDevices),
        (
            "err-libnvidia-ml-missing.txt",
            SmiFailure::NvmlLibraryMissing,
        ),
    ];
    assert_eq!(
        classify_failure(Some(9), "\n"),
        SmiFailure::CannotCommunicate
    );
    for (file, want) in cases {
        assert_eq!(classify_failure(Some(9), &fixture(file)), want, "{file}");
    }
    assert!(matches!(
        classify_failure(Some(3), "Something odd\n"),
        SmiFailure::Failed {
            exit_code: Some(3),
            ..
        }
    ));
}

#[test]
fn mig_rows_get_their_slices() {
    let mut gpus = vec![SmiGpu {
        index: 0,
        name: "NVIDIA A100-SXM4-80GB".into(),
        uuid: Some("GPU-513536b6-7d19-9063-b049-1e69664bb298".into()),
        pci_bus_id: None,
        memory_total: None,
        memory_used: None,
        memory_free: None,
        driver_version: None,
        compute_cap: None,
        mig_enabled: Some(true),
        mig_devices: vec![],
    }];
    attach_mig(&mut gpus, &parse_list(&fixture("list-a100x4-mig.txt")));
    assert_eq!(gpus[0].mig_devices.len(), 4);
}
