//! Tests of `pytorch.rs`: recorded probe outputs (data/fixtures/torch-probe) replayed through
//! fake interpreters, and the findings they give against recorded nvidia-smi answers.
use super::*;
use crate::probe::nvidia_smi::{parse_query_csv, parse_versions, DriverView};

fn recorded(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/data/fixtures/torch-probe/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn smi(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/data/fixtures/nvidia-smi/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// A fake python: a script that ignores its arguments and prints the recorded answer.
fn fake_python(dir: &Path, answer: &str) -> PathBuf {
    let path = dir.join("python3");
    std::fs::write(&path, format!("#!/bin/sh\ncat <<'EOF'\n{answer}\nEOF\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

fn driver(csv: &str, banner: &str) -> DriverView {
    DriverView {
        failure: None,
        gpus: parse_query_csv(&smi(csv)).unwrap(),
        versions: parse_versions(&smi(banner)),
        dropped_fields: vec![],
        elapsed_s: 0.0,
    }
}

#[test]
fn a_colab_t4_answers_with_its_device_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let py = fake_python(dir.path(), &recorded("colab-t4-cu121.json"));
    let view = probe(&py, Duration::from_secs(10));
    let f = view.facts().expect("found");
    assert_eq!(f.version, "2.5.1+cu121");
    assert_eq!(f.cuda_built.as_deref(), Some("12.1"));
    assert!(f.available);
    assert_eq!(f.devices[0].name, "Tesla T4");
    assert_eq!(f.devices[0].total_memory, Bytes(15095 << 20));
    assert!(view.summary().contains("is_available() True"));
    // The T4 the driver lists agrees: no finding.
    let d = driver("query-t4-name-memory.csv", "smi-v100-colab-418.txt");
    assert!(findings(&view, &d).is_empty());
}

#[test]
fn a_cpu_only_wheel_beside_a_gpu_says_which_wheel_to_install() {
    let dir = tempfile::tempdir().unwrap();
    let py = fake_python(dir.path(), &recorded("cpu-only-wheel.json"));
    let view = probe(&py, Duration::from_secs(10));
    let d = driver("query-rtx5080-580.csv", "smi-p4-550.txt");
    let found = findings(&view, &d);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].cause, Cause::TorchCpuOnly);
    assert!(
        found[0].fix.contains("download.pytorch.org/whl/cu124"),
        "{}",
        found[0].fix
    );
}

#[test]
fn a_torch_newer_than_the_driver_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let py = fake_python(dir.path(), &recorded("old-driver-cu124.json"));
    let view = probe(&py, Duration::from_secs(10));
    // A driver that supports CUDA 12.4 would do; the recorded one is older (the warning says so).
    let mut d = driver("query-rtx5080-580.csv", "smi-p4-550.txt");
    d.versions.cuda = Some("11.8".into());
    let found = findings(&view, &d);
    assert_eq!(found[0].cause, Cause::TorchCudaNewerThanDriver, "{found:?}");
    assert!(found[0].fix.contains("cu118"), "{}", found[0].fix);
}

#[test]
fn no_torch_and_no_python_are_answers() {
    let dir = tempfile::tempdir().unwrap();
    let py = fake_python(dir.path(), &recorded("no-torch.json"));
    let view = probe(&py, Duration::from_secs(10));
    assert!(
        matches!(view.status, TorchStatus::NoTorch { .. }),
        "{view:?}"
    );
    assert!(view.summary().contains("pip install torch"));
    let none = probe(Path::new("/nonexistent/python3"), Duration::from_secs(10));
    assert_eq!(none.status, TorchStatus::NoPython);
    assert!(findings(&none, &driver("query-rtx5080-580.csv", "smi-p4-550.txt")).is_empty());
    // A CUDA build on a machine without a GPU (recorded here): nothing to disagree about.
    let py = fake_python(dir.path(), &recorded("cuda-build-no-gpu.json"));
    let view = probe(&py, Duration::from_secs(10));
    assert_eq!(view.facts().unwrap().cuda_built.as_deref(), Some("13.2"));
    assert!(parse("garbage").eq(&TorchStatus::Unreadable {
        reason: "the probe printed no result".into()
    }));
}

#[test]
fn the_real_probe_runs_where_torch_is_installed() {
    // The shipped script against a real interpreter, when the environment names one with torch
    // (GPULAB_TEST_PYTHON); skipped, and said so, elsewhere.
    let Some(py) = std::env::var_os("GPULAB_TEST_PYTHON") else {
        eprintln!("skipped: set GPULAB_TEST_PYTHON to a python with torch to run the real probe");
        return;
    };
    let view = probe(Path::new(&py), TIMEOUT);
    assert!(view.facts().is_some(), "{view:?}");
}

#[test]
fn index_tags_follow_the_driver() {
    assert_eq!(index_tag("12.4"), "124");
    assert_eq!(index_tag("12.5"), "124");
    assert_eq!(index_tag("13.0"), "130");
    assert_eq!(index_tag("11.4"), "118");
}
