//! End-to-end tests of the `gpulab` binary. `check` is run against a fake `nvidia-smi` put first
//! on PATH that replays real recorded outputs from data/fixtures/nvidia-smi (or hangs, or fails),
//! so every driver-side branch is exercised on a machine without a GPU.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
use tempfile::TempDir;

/// The binary, speaking English whatever this machine's locale (the assertions below read
/// English; `speaks_korean_everywhere` runs it in Korean).
fn english() -> Result<Command, assert_cmd::cargo::CargoError> {
    let mut cmd = Command::cargo_bin("gpulab")?;
    // Wide, so the content assertions below do not depend on where a line wraps; the widths
    // themselves are tested at 80 and 100 columns (`every_command_fits_the_terminal`).
    cmd.env("LC_ALL", "C.UTF-8")
        .env("COLUMNS", "1000")
        .current_dir(scratch());
    Ok(cmd)
}

/// A folder outside the repository that every run starts in, so that nothing a test runs
/// writes into the learner's `data/` (a test that needs its own folder sets `current_dir`).
fn scratch() -> &'static Path {
    static DIR: std::sync::OnceLock<TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/fixtures/nvidia-smi")
        .join(name)
}

/// A fake nvidia-smi: answers `--query-gpu` from `query.*`, `-L` from `list.*`, anything else
/// from `banner.*` (`.out` stdout, `.err` stderr, `.exit` status). With a `reject` file it refuses
/// a query naming that field the way driver 470 refused `compute_cap`.
struct FakeSmi {
    dir: TempDir,
}

const FAKE_SCRIPT: &str = r#"#!/bin/sh
D="$(dirname "$0")"
case "$*" in
  *--query-gpu*) f=query ;;
  -L) f=list ;;
  *) f=banner ;;
esac
if [ -f "$D/hang" ]; then exec sleep 30; fi
if [ "$f" = query ] && [ -f "$D/reject" ]; then
  field="$(cat "$D/reject")"
  case "$*" in *"$field"*) cat "$D/reject.out"; exit 2 ;; esac
fi
code=0
[ -f "$D/$f.exit" ] && code="$(cat "$D/$f.exit")"
[ -f "$D/$f.out" ] && cat "$D/$f.out"
[ -f "$D/$f.err" ] && cat "$D/$f.err" >&2
exit "$code"
"#;

impl FakeSmi {
    fn new() -> FakeSmi {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("nvidia-smi");
        fs::write(&script, FAKE_SCRIPT).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&script, fs::Permissions::from_mode(0o755)).unwrap();
        }
        FakeSmi { dir }
    }

    fn with(self, file: &str, fixture_name: &str) -> FakeSmi {
        fs::copy(fixture(fixture_name), self.dir.path().join(file)).unwrap();
        self
    }

    fn text(self, file: &str, text: &str) -> FakeSmi {
        fs::write(self.dir.path().join(file), text).unwrap();
        self
    }

    fn gpulab(&self) -> Command {
        let mut cmd = english().unwrap();
        // First on PATH; the system folders stay so the script finds `cat` and `sleep`.
        cmd.env(
            "PATH",
            format!("{}:/usr/bin:/bin", self.dir.path().display()),
        );
        cmd.env_remove("CUDA_VISIBLE_DEVICES");
        cmd
    }

    fn check_json(&self, extra: &[&str]) -> Value {
        json_of(self.gpulab().args(["check", "--json"]).args(extra))
    }
}

/// A run that must succeed, its stdout read as JSON.
fn json_of(cmd: &mut Command) -> Value {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn causes(json: &Value) -> Vec<String> {
    json["diagnosis"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["cause"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn no_nvidia_smi_on_path_gives_a_friendly_cpu_verdict() {
    let empty = tempfile::tempdir().unwrap();
    let started = Instant::now();
    english()
        .unwrap()
        .env("PATH", empty.path())
        .arg("check")
        .assert()
        .success()
        .stdout(predicate::str::contains("nvidia-smi is not installed"))
        .stdout(predicate::str::contains("built without cuda"))
        .stdout(predicate::str::contains("Colab"));
    // Not a speed assertion (the goal is 0.5 s, checked by hand): a bound that only a hang breaks.
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn json_has_the_versioned_schema() {
    let fake = FakeSmi::new()
        .text("query.exit", "127\n")
        .text("query.err", "sh: nvidia-smi: not found\n");
    let json = fake.check_json(&[]);
    assert_eq!(json["schema"], "gpulab.check");
    assert_eq!(json["schema_version"], 1);
    for key in ["host", "driver", "framework", "diagnosis"] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    assert!(json["host"]["ram_total"].as_u64().unwrap() > 0);
    assert_eq!(
        json["framework"]["compiled_with_cuda"],
        cfg!(feature = "cuda")
    );
}

#[cfg(not(feature = "cuda"))]
#[test]
fn gpu_seen_by_driver_but_binary_without_cuda() {
    let fake = FakeSmi::new()
        .with("query.out", "query-rtx5080-580.csv")
        .with("banner.out", "smi-p4-550.txt");
    let json = fake.check_json(&[]);
    assert_eq!(json["driver"]["gpus"][0]["name"], "NVIDIA GeForce RTX 5080");
    assert_eq!(json["driver"]["versions"]["cuda"], "12.4");
    assert_eq!(json["diagnosis"]["overall"], "not_usable");
    assert_eq!(causes(&json)[0], "built_without_cuda");
    fake.gpulab()
        .arg("check")
        .assert()
        .success()
        .stdout(predicate::str::contains("--features cuda"))
        .stdout(predicate::str::contains("RTX 5080"));
}

#[test]
fn r610_banner_is_read() {
    let fake = FakeSmi::new()
        .with("query.out", "query-rtx3090-591.csv")
        .with("banner.out", "smi-b200x2-610.txt");
    let json = fake.check_json(&[]);
    assert_eq!(json["driver"]["versions"]["driver"], "610.43.02");
    assert_eq!(json["driver"]["versions"]["cuda"], "13.3");
}

#[test]
fn old_driver_field_is_dropped_and_the_query_retried() {
    let fake = FakeSmi::new()
        .text("reject", "compute_cap")
        .with("reject.out", "err-compute-cap-field-470.txt")
        .with("query.out", "query-rtx3090-591.csv")
        .with("banner.out", "smi-titanxp-450.txt");
    let json = fake.check_json(&[]);
    assert_eq!(json["driver"]["failure"], Value::Null);
    assert_eq!(json["driver"]["dropped_fields"][0], "compute_cap");
    assert_eq!(json["driver"]["gpus"][0]["name"], "NVIDIA GeForce RTX 3090");
}

#[test]
fn hanging_nvidia_smi_times_out() {
    let fake = FakeSmi::new().text("hang", "");
    let started = Instant::now();
    let json = fake.check_json(&["--smi-timeout", "0.5"]);
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_eq!(json["driver"]["failure"]["cause"], "timed_out");
    assert_eq!(causes(&json)[0], "smi_timed_out");
}

#[test]
fn failing_nvidia_smi_is_classified() {
    let cases = [
        (
            "err-version-mismatch.txt",
            "18",
            "driver_library_mismatch",
            "reboot",
        ),
        (
            "err-nvml-unknown-container.txt",
            "255",
            "container_lost_gpu",
            "--gpus all",
        ),
        (
            "err-cannot-communicate.txt",
            "9",
            "driver_not_loaded",
            "kernel driver",
        ),
        ("err-no-devices.txt", "6", "no_devices", "lspci"),
        (
            "err-libnvidia-ml-missing.txt",
            "12",
            "driver_libraries_missing",
            "libraries",
        ),
    ];
    for (file, code, cause, fix_word) in cases {
        let fake = FakeSmi::new()
            .with("query.out", file)
            .text("query.exit", code);
        let json = fake.check_json(&[]);
        assert_eq!(causes(&json)[0], cause, "{file}");
        assert!(
            json["diagnosis"]["fix"]
                .as_str()
                .unwrap()
                .contains(fix_word),
            "{file}: {}",
            json["diagnosis"]["fix"]
        );
    }
}

#[test]
fn unreadable_output_is_named_not_crashed_on() {
    let fake = FakeSmi::new().text("query.out", "<html>proxy error</html>\n");
    let json = fake.check_json(&[]);
    assert_eq!(json["driver"]["failure"]["cause"], "unparseable");
    assert_eq!(causes(&json)[0], "smi_unreadable");
}

#[test]
fn require_gpu_fails_without_one() {
    let empty = tempfile::tempdir().unwrap();
    english()
        .unwrap()
        .env("PATH", empty.path())
        .args(["check", "--require-gpu"])
        .assert()
        .code(1);
}

#[test]
fn nonsense_timeout_is_a_clear_error() {
    english()
        .unwrap()
        .args(["check", "--smi-timeout=-1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--smi-timeout must be a positive"));
}

#[test]
fn bench_cpu_tiny_writes_every_export_and_refuses_to_clobber() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("b.json");
    let csv = dir.path().join("b.csv");
    let md = dir.path().join("b.md");
    let svg = dir.path().join("b.svg");
    let args = |extra: &[&str]| {
        let mut v: Vec<String> = [
            "bench",
            "--device",
            "cpu",
            "--dtype",
            "f32,bf16",
            "--sizes",
            "32,16x48x24",
            "--budget",
            "0.02",
            "--min-runs",
            "3",
            "--naive",
            "--quiet",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for (flag, p) in [
            ("--json", &json),
            ("--csv", &csv),
            ("--markdown", &md),
            ("--plot", &svg),
        ] {
            v.push(flag.into());
            v.push(p.display().to_string());
        }
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    english()
        .unwrap()
        .args(args(&[]))
        .assert()
        .success()
        .stdout(predicate::str::contains("cold"))
        .stdout(predicate::str::contains("16x48x24"));
    let report: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["schema"], "gpulab.bench");
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    for r in results {
        assert_eq!(r["status"], "ok", "{r}");
        let t = &r["time"];
        let (min, med, max) = (
            t["min"].as_f64().unwrap(),
            t["median"].as_f64().unwrap(),
            t["max"].as_f64().unwrap(),
        );
        assert!(min <= med && med <= max);
        assert!(r["gflops"].as_f64().unwrap().is_finite());
        let c = &r["correctness"];
        assert!(c["samples"].as_u64().unwrap() > 0);
        assert!(c["max_rel_error"].as_f64().unwrap() <= c["tolerance"].as_f64().unwrap());
    }
    assert_eq!(fs::read_to_string(&csv).unwrap().lines().count(), 5);
    // The CPU's memory bandwidth, measured beside the matmuls (copy and triad).
    let bandwidth = report["bandwidth"].as_array().unwrap();
    assert_eq!(bandwidth.len(), 2, "{bandwidth:?}");
    for b in bandwidth {
        assert!(b["gbs"].as_f64().unwrap() > 0.1, "{b}");
    }
    assert!(report["elementwise_gbs"].as_f64().unwrap() > 0.0);
    let markdown = fs::read_to_string(&md).unwrap();
    assert!(markdown.contains("| cpu | bf16 |"));
    assert!(markdown.contains("## Memory bandwidth"), "{markdown}");
    assert!(markdown.contains("## Roofline"), "{markdown}");
    assert!(fs::read_to_string(&svg).unwrap().contains("Roofline"));
    assert!(fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // A second run without --force must not touch what the first wrote.
    let before = fs::read_to_string(&json).unwrap();
    english()
        .unwrap()
        .args(args(&[]))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--force"));
    assert_eq!(fs::read_to_string(&json).unwrap(), before);
}

#[test]
fn bench_rejects_nonsense_clearly() {
    for (flag, value, message) in [
        ("--sizes", "12XB", "is not N or MxKxN"),
        ("--sizes", "0", "zero dimension"),
        ("--dtype", "int3", "unknown dtype"),
        ("--device", "tpu:0", "unknown device"),
        ("--budget", "0", "--budget must be a positive"),
        ("--cpu-kernel", "mkl", "is not a kernel"),
    ] {
        english()
            .unwrap()
            .args(["bench", flag, value])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn bench_cpu_kernels_both_pass_the_check_on_ragged_shapes() {
    // gpulab's kernels need AVX2+FMA (and AVX-512F/VL); elsewhere asking for one must be
    // refused clearly.
    #[cfg(target_arch = "x86_64")]
    let (has_avx2, has_avx512) = (
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma"),
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl"),
    );
    #[cfg(not(target_arch = "x86_64"))]
    let (has_avx2, has_avx512) = (false, false);
    let widest = if has_avx512 {
        "gpulab-avx512"
    } else {
        "gpulab-avx2"
    };
    for (kernel, f32_name) in [
        ("candle", "candle"),
        ("gpulab", widest),
        ("gpulab-avx2", "gpulab-avx2"),
        ("gpulab-avx512", "gpulab-avx512"),
        ("auto", widest),
    ] {
        let out = english()
            .unwrap()
            .args([
                "bench",
                "--device",
                "cpu",
                "--dtype",
                "f32,f16",
                "--sizes",
                "7x300x17,33,13x257x545",
                "--budget",
                "0.01",
                "--min-runs",
                "2",
                "--cpu-kernel",
                kernel,
                "--json",
                "-",
            ])
            .output()
            .unwrap();
        if kernel == "auto" && !has_avx2 {
            continue; // Candle's, checked above
        }
        if (kernel.starts_with("gpulab") && !has_avx2)
            || (f32_name == "gpulab-avx512" && !has_avx512)
        {
            assert_eq!(out.status.code(), Some(2));
            assert!(String::from_utf8_lossy(&out.stderr).contains("needs"));
            continue;
        }
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["cpu_kernel"], f32_name);
        let results = v["results"].as_array().unwrap();
        assert_eq!(results.len(), 6);
        for r in results {
            assert_eq!(r["status"], "ok", "{r}");
            let want = if r["dtype"] == "f32" {
                f32_name
            } else {
                "candle"
            };
            assert_eq!(r["kernel"], want, "{r}");
            let c = &r["correctness"];
            assert!(c["max_rel_error"].as_f64().unwrap() <= c["tolerance"].as_f64().unwrap());
        }
    }
}

#[test]
fn bench_json_to_stdout_is_pure_json() {
    let out = english()
        .unwrap()
        .args([
            "bench",
            "--device",
            "cpu",
            "--sizes",
            "16",
            "--budget",
            "0.01",
            "--min-runs",
            "2",
            "--json",
            "-",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["results"][0]["shape"]["n"], 16);
}

#[test]
fn measure_cpu_writes_report_calibration_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let (json, cal, svg) = (
        dir.path().join("m.json"),
        dir.path().join("cal.json"),
        dir.path().join("m.svg"),
    );
    english()
        .unwrap()
        .args([
            "measure",
            "--quiet",
            "--arch",
            "mlp,gpt",
            "--dtype",
            "f32",
            "--optimizer",
            "adamw",
            "--batches",
            "1,2,3",
            "--seq-lens",
            "8,16,24",
            "--mlp-widths",
            "64",
            "--d-model",
            "32",
            "--vocab",
            "64",
            "--seq-len",
            "16",
        ])
        .args(["--json", &json.display().to_string()])
        .args(["--save", &cal.display().to_string()])
        .args(["--plot", &svg.display().to_string()])
        .assert()
        .success()
        .stdout(predicate::str::contains("Bytes per parameter"))
        .stdout(predicate::str::contains("unexplained"))
        .stdout(predicate::str::contains("R²"));
    let report: Value = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["schema"], "gpulab.measure");
    assert_eq!(report["fits"].as_array().unwrap().len(), 3);
    let cal = gpulab::memory::calibration::Calibration::load(&cal).unwrap();
    assert_eq!(cal.entries.len(), 2);
    // --save also fits the memory models: one per family, dtype and optimizer asked for.
    assert_eq!(cal.models.len(), 2);
    assert!(cal.models.iter().all(|m| m.calibration_points >= 24));
    assert!(fs::read_to_string(&svg).unwrap().contains("batch"));
}

#[test]
fn measure_rejects_nonsense_clearly() {
    for (args, message) in [
        (vec!["--arch", "rnn"], "unknown model"),
        (vec!["--optimizer", "lion"], "unknown optimizer"),
        (vec!["--arch", "gpt", "--heads", "3"], "multiple of heads"),
        (vec!["--batches", "1,2"], "at least 3"),
        (vec!["--lora-rank", "8"], "add --pytorch"),
        (
            vec!["--pytorch", "--impl", "keras"],
            "not an implementation",
        ),
        (
            vec!["--pytorch", "--update", "fast"],
            "not an optimizer update",
        ),
        (vec!["--device", "cuda:9x"], "unknown device"),
    ] {
        english()
            .unwrap()
            .arg("measure")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

/// The model `measure` or `estimate` describes for these flags: its one-line description and
/// its parameter count, read from what each prints (and the note on stderr, if any).
fn described(command: &str, flags: &str) -> (String, u64, String) {
    let flags: Vec<&str> = flags.split_whitespace().collect();
    let mut cmd = english().unwrap();
    cmd.arg(command).args(&flags);
    if command == "measure" {
        cmd.args([
            "--dtype",
            "f32",
            "--optimizer",
            "sgd",
            "--no-sweep",
            "--quiet",
        ]);
    }
    let out = cmd.output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    );
    assert!(out.status.success(), "{command} {flags:?}: {stderr}");
    // measure: "== gpt d… · N params · …"; estimate: the description line, then "N parameters".
    let line = stdout
        .lines()
        .find(|l| l.trim_start_matches("== ").starts_with(flags[1]))
        .unwrap_or_else(|| panic!("{command} printed no model line:\n{stdout}"));
    let description = line
        .trim_start_matches("== ")
        .split(" · ")
        .next()
        .unwrap()
        .to_string();
    let count = stdout
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .find(|w| w[1] == "params" || w[1] == "parameters")
        .and_then(|w| w[0].parse().ok())
        .unwrap_or_else(|| panic!("{command} printed no count:\n{stdout}"));
    (description, count, stderr)
}

#[test]
fn measure_and_estimate_share_one_vocabulary_for_shapes() {
    let gpt = "--arch gpt --layers 2 --d-model 64 --heads 4 --vocab 300 --seq-len 32";
    for shape in [
        format!("{gpt} --batch 2"),
        format!("{gpt} --batch 2 --untied"),
        "--arch llama --layers 2 --d-model 64 --heads 4 --kv-heads 2 --ffn 160 --vocab 300 \
         --seq-len 32 --batch 2"
            .to_string(),
    ] {
        let (m, m_count, _) = described("measure", &shape);
        let (e, e_count, _) = described("estimate", &shape);
        assert_eq!(m, e, "the same flags describe another model: {shape}");
        assert_eq!(m_count, e_count, "{shape}");
    }
    // GPT ties its head by default in both (as GPT-2 does): --untied adds vocab × d.
    let (tied, tied_count, _) = described("measure", gpt);
    assert!(tied.ends_with(" tied"), "{tied}");
    assert_eq!(
        described("measure", &format!("{gpt} --untied")).1,
        tied_count + 300 * 64
    );
    // The old spellings still work, with a note naming the new one.
    let (old_model, old_count, note) = described("estimate", &gpt.replace("--d-model", "--hidden"));
    assert_eq!(
        (old_model, old_count),
        (described("estimate", gpt).0, tied_count)
    );
    assert!(note.contains("--hidden is now --d-model"), "{note}");
    let (_, _, note) = described("measure", &gpt.replace("--arch", "--model"));
    assert!(note.contains("--model is now --arch"), "{note}");
    english()
        .unwrap()
        .args([
            "measure",
            "--arch",
            "mlp",
            "--hidden",
            "32",
            "--no-sweep",
            "--quiet",
        ])
        .args(["--dtype", "f32", "--optimizer", "sgd"])
        .assert()
        .success()
        .stdout(predicate::str::contains("mlp 784-32-10"))
        .stderr(predicate::str::contains("--hidden is now --mlp-widths"));
}

/// `estimate --json`'s PyTorch column: (its peak in bytes, what its step assumed).
fn pytorch_column(args: &[&str]) -> (Option<u64>, String) {
    let out = english()
        .unwrap()
        .arg("estimate")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let column = v["measured"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["framework"] == "pytorch")
        .unwrap()
        .clone();
    let said = column["assumes"]
        .as_str()
        .or(column["not_measured"].as_str())
        .unwrap_or("")
        .to_string();
    (column["prediction"]["peak"].as_u64(), said)
}

#[test]
fn the_pytorch_column_is_measured_for_lora_checkpointing_and_mixed_precision() {
    // The lesson's question: Llama-3 8B on a free T4, as people train it (Hugging Face's model,
    // CUDA's foreach AdamW), each recipe from a measured model of its own.
    let base = [
        "llama-3-8b",
        "--gpu",
        "T4",
        "--seq-len",
        "512",
        "--batch",
        "4",
    ];
    let run = |extra: &[&str]| pytorch_column(&[&base[..], extra].concat());
    let (full, said) = run(&[]);
    let full = full.unwrap_or_else(|| panic!("full fine-tuning: {said}"));
    assert!(
        said.contains("transformers, sdpa attention, foreach adamw"),
        "{said}"
    );
    let mut peaks = Vec::new();
    for (extra, assumed) in [
        (&["--lora-rank", "16"][..], "LoRA on qv"),
        (
            &["--lora-rank", "16", "--checkpointing"][..],
            "activation checkpointing",
        ),
        (
            &["--lora-rank", "16", "--lora-targets", "all-linear"][..],
            "LoRA on all-linear",
        ),
        (&["--checkpointing"][..], "activation checkpointing"),
        (&["--dtype", "mixed"][..], "autocast bf16"),
        (
            &["--dtype", "nf4", "--lora-rank", "16"][..],
            "4-bit nf4 base (bitsandbytes)",
        ),
    ] {
        let (peak, said) = run(extra);
        let peak = peak.unwrap_or_else(|| panic!("{extra:?}: {said}"));
        assert!(said.contains(assumed), "{extra:?}: {said}");
        peaks.push(peak);
    }
    // LoRA trains a sliver: far below full fine-tuning; checkpointing keeps less again; QLoRA's
    // 4-bit base is the smallest.
    assert!(peaks[0] < full / 2, "{peaks:?} vs {full}");
    assert!(peaks[1] < peaks[0], "{peaks:?}");
    assert!(peaks[3] < full, "{peaks:?}");
    assert!(peaks[5] < peaks[0], "{peaks:?}");
    // The CPU's default (for-loop) is another measured step; gpulab's own modules were only
    // measured with it, so on a GPU their column says what is missing.
    let (_, said) = pytorch_column(&["gpt2", "--seq-len", "256"]);
    assert!(said.contains("for-loop adamw"), "{said}");
    let (none, said) = pytorch_column(&["gpt2", "--gpu", "T4", "--impl", "gpulab"]);
    assert!(
        none.is_none() && said.contains("gpulab, foreach adamw"),
        "{said}"
    );
}

#[test]
fn estimate_answers_the_lesson_and_reverse_questions() {
    english()
        .unwrap()
        .args(["estimate", "7B", "--dtype", "mixed", "--gpu", "A100-80GB"])
        .assert()
        .success()
        .stdout(predicate::str::contains("2-byte rule"))
        .stdout(predicate::str::contains(
            "textbook (mixed: 16-bit + fp32 master copy",
        ))
        // Without a shape the measured models cannot answer, and say why.
        .stdout(predicate::str::contains(
            "not measured: a measured model needs the shape",
        ))
        .stdout(predicate::str::contains("does not fit"));
    // GPT-2's shape ties the head to the token embedding, as GPT-2 does; --untied adds V·d.
    let gpt2_params = |extra: &[&str]| {
        let out = english()
            .unwrap()
            .args([
                "estimate",
                "--layers",
                "12",
                "--d-model",
                "768",
                "--heads",
                "12",
            ])
            .args(["--seq-len", "1024", "--json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["estimate"]["input"]["params"].as_u64().unwrap()
    };
    assert_eq!(gpt2_params(&["--dtype", "f32"]), 124_439_808);
    assert_eq!(gpt2_params(&["--untied"]), 163_037_184);
    // A preset: its exact count, and a measured column with each term.
    english()
        .unwrap()
        .args([
            "estimate",
            "llama-3-8b",
            "--seq-len",
            "2048",
            "--gpu",
            "A100-80GB",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("8030261248 parameters"))
        .stdout(predicate::str::contains("Candle measured (bf16 end to end"))
        .stdout(predicate::str::contains("optimizer state"))
        .stdout(predicate::str::contains("peak falls in"));
    // A course lesson's transformer, by its id.
    english()
        .unwrap()
        .args(["estimate", "recipe/char-gpt-2000-steps", "--dtype", "f32"])
        .assert()
        .success()
        .stdout(predicate::str::contains("gpt d128 L4 h4 V65 s128"))
        .stdout(predicate::str::contains("training · f32 everywhere"))
        .stdout(predicate::str::contains("PyTorch measured"));
    // ZeRO on one GPU: allowed, and said to change nothing.
    english()
        .unwrap()
        .args(["estimate", "7B", "--zero", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("changes nothing"));
    for (args, message) in [
        (vec!["estimate", "-3B"], "parameter count"),
        (vec!["estimate", "12XB"], "parameter count"),
        (vec!["estimate", "gtp2"], "did you mean gpt2"),
        (
            vec![
                "estimate",
                "--layers",
                "2",
                "--d-model",
                "64",
                "--heads",
                "4",
                "--kv-heads",
                "3",
                "--arch",
                "llama",
            ],
            "must divide heads",
        ),
        (
            vec!["estimate", "gpt2", "--lora-rank", "1000"],
            "between 1 and the width (768)",
        ),
        (vec!["estimate", "7B", "--memory", "16"], "say 16GiB"),
        (
            vec![
                "estimate",
                "7B",
                "--layers",
                "12",
                "--d-model",
                "768",
                "--heads",
                "12",
            ],
            "disagree",
        ),
        (vec!["estimate", "0"], "at least one parameter"),
        (vec!["estimate", "7B", "--gpu", "A100"], "did you mean"),
        (
            vec!["estimate", "7B", "--memory", "lots"],
            "not a memory size",
        ),
        (vec!["estimate", "7B", "--zero", "4"], "--zero must be"),
        (
            vec!["estimate", "7B", "--kbit-prep", "peft"],
            "use them with --dtype nf4",
        ),
        (
            vec!["estimate", "7B", "--dtype", "nf4", "--kbit-prep", "bnb"],
            "is not one of peft",
        ),
    ] {
        english()
            .unwrap()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
}

#[test]
fn fit_judges_every_lesson_and_details_one() {
    let empty = tempfile::tempdir().unwrap();
    let out = english()
        .unwrap()
        .env("PATH", empty.path())
        .args(["fit", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdicts = v["verdicts"].as_array().unwrap();
    assert!(verdicts.len() >= 27);
    assert!(verdicts
        .iter()
        .all(|v| v["recommendation"].as_str().is_some_and(|r| !r.is_empty())));
    english()
        .unwrap()
        .env("PATH", empty.path())
        .args(["fit", "--lesson", "05-transfer-learning"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ResNet-18"))
        .stdout(predicate::str::contains("Recommended"));
    english()
        .unwrap()
        .args(["fit", "--lesson", "transfer-lerning"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("did you mean"));
}

#[test]
fn report_writes_both_formats_refuses_to_clobber_and_compares() {
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        english()
            .unwrap()
            .env("PATH", empty.path())
            .args(["report", "--quiet", "--lang", "en", "--name", "r", "--out"])
            .arg(dir.path())
            .args(extra)
            .assert()
    };
    // The terminal gets a summary that names the files; the Markdown holds the report.
    run(&[])
        .success()
        .stdout(predicate::str::contains("What to do next"))
        .stdout(predicate::str::contains("r.md"))
        .stdout(predicate::str::contains("## 판단 (judgement)").not());
    for f in ["r.md", "r.json", "r-bench.svg", "r-memory.svg"] {
        assert!(dir.path().join(f).exists(), "{f}");
    }
    assert!(fs::read_to_string(dir.path().join("r.md"))
        .unwrap()
        .contains("## 판단 (judgement)"));
    let json: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(json["schema"], "gpulab.report");
    assert_eq!(json["fields"]["gpu_time_s"], Value::Null);
    assert!(json["fields"]["why_empty"]
        .as_str()
        .unwrap()
        .contains("nvidia-smi"));
    let before = fs::read_to_string(dir.path().join("r.md")).unwrap();
    run(&[]).code(2).stderr(predicate::str::contains("--force"));
    assert_eq!(fs::read_to_string(dir.path().join("r.md")).unwrap(), before);
    english()
        .unwrap()
        .args(["compare", "--lang", "ko"])
        .arg(dir.path().join("r.json"))
        .arg(fixture("../report/cpu-1thread.json"))
        .assert()
        .success()
        .stdout(predicate::str::contains("판단이 바뀐 강의"));
    english()
        .unwrap()
        .args(["compare"])
        .arg(dir.path().join("r.md"))
        .arg(dir.path().join("r.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a gpulab report"));
    // The plots are part of the set: moving the .md and .json away does not free their names.
    let svg_before = fs::read(dir.path().join("r-bench.svg")).unwrap();
    fs::remove_file(dir.path().join("r.md")).unwrap();
    fs::remove_file(dir.path().join("r.json")).unwrap();
    run(&[])
        .code(2)
        .stderr(predicate::str::contains("r-bench.svg exists"));
    assert_eq!(
        fs::read(dir.path().join("r-bench.svg")).unwrap(),
        svg_before
    );
}

#[test]
fn measure_validate_runs_and_meets_its_goal_on_the_cpu() {
    english()
        .unwrap()
        .args(["measure", "--validate", "--quiet", "--arch", "cnn,mlp"])
        .assert()
        .success()
        .stdout(predicate::str::contains("held-out shape"))
        .stdout(predicate::str::contains("2-byte rule"))
        .stdout(predicate::str::contains(
            "Goal (median ≤ 3 %, worst ≤ 8 %): met",
        ));
}

/// A fake `python` that replays recorded answers of `data/torch-step.py`
/// (data/fixtures/torch/README.md): the version for `-c`, then the reply recorded for the job it
/// reads (by the job's SHA-256), or a failure that names the job.
fn fake_python(dir: &std::path::Path, torch: bool) -> std::path::PathBuf {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/data/fixtures/torch");
    let path = dir.join("python3");
    let script = if torch {
        // Replies are found by the job's SHA-256, as .ci/record-torch saved them.
        format!(
            "#!/bin/sh\nif [ \"$1\" = \"-c\" ]; then echo 2.15.0+cu132; exit 0; fi\n\
             sha=$(sha256sum | cut -c1-16)\n\
             if [ -f {fixtures}/replies/$sha.json ]; then cat {fixtures}/replies/$sha.json; \
             else echo \"no recorded reply for job $sha\" >&2; exit 3; fi\n"
        )
    } else {
        "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'torch'\" >&2\nexit 1\n".into()
    };
    fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// `gpulab measure --pytorch --validate --model gpt --python PYTHON`.
fn torch_validate(python: &std::path::Path) -> Command {
    let mut cmd = english().unwrap();
    cmd.args([
        "measure",
        "--pytorch",
        "--validate",
        "--arch",
        "gpt",
        "--python",
    ])
    .arg(python);
    cmd
}

#[test]
fn pytorch_step_is_fitted_and_judged_from_recorded_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let python = fake_python(dir.path(), true);
    // Hugging Face's GPT2LMHeadModel (the default), then gpulab's own modules; each judged on
    // its own held-out shapes (transformers' up to d 1024, L 12, s 512, V 50k).
    for (implementation, variant, largest) in [
        (
            "transformers",
            "transformers, sdpa attention, for-loop adamw",
            "gpt d1024 L8 h16",
        ),
        ("gpulab", "gpulab, for-loop adamw", "gpt d512 L4 h8"),
    ] {
        torch_validate(&python)
            .args(["--impl", implementation])
            .assert()
            .success()
            .stderr(predicate::str::contains(variant))
            .stdout(predicate::str::contains("gpt in PyTorch"))
            .stdout(predicate::str::contains(largest))
            .stdout(predicate::str::contains(
                "Goal (median ≤ 3 %, worst ≤ 8 %): met",
            ));
    }
    // LoRA through peft and bf16 autocast, as CUDA runs them (foreach AdamW), eager attention,
    // and activation checkpointing (whose backward frees each block's input as it goes: Llama
    // too, where its long-sequence shapes were the misses), from their own recorded runs.
    for (flags, largest) in [
        (
            "--update foreach --lora-targets qv --dtype bf16",
            "gpt d1024 L8 h16 V50257 s512 b1 tied",
        ),
        (
            "--update foreach --autocast bf16",
            "gpt d1024 L8 h16 V50257 s512 b1 tied",
        ),
        ("--attn eager", "gpt d1024 L8 h16 V50257 s512 b1 tied"),
        (
            "--update foreach --checkpointing",
            "gpt d1024 L8 h16 V50257 s512 b1 tied",
        ),
        (
            "--update foreach --checkpointing --arch llama",
            "llama d768 L4 h12/3 f2048 V8000 s512 b8",
        ),
        (
            "--update foreach --autocast bf16 --checkpointing",
            "gpt d1024 L8 h16 V50257 s512 b1 tied",
        ),
        // The CPU's for-loop update and LoRA, where backward's peak is not hidden by the
        // optimizer step's: the misses while checkpointed backward's states and gradients
        // were fitted rather than counted.
        (
            "--update for-loop --checkpointing --arch llama",
            "llama d768 L4 h12/3 f2048 V8000 s512 b8",
        ),
        (
            "--update foreach --checkpointing --lora-targets qv --dtype bf16 --arch llama",
            "llama d768 L4 h12/3 f2048 V8000 s512 b8 lora r16 qv",
        ),
        (
            "--update foreach --checkpointing --lora-targets all-linear --dtype bf16",
            "gpt d512 L4 h8 V16000 s64 b2 tied lora r16 all-linear",
        ),
        // QLoRA on bitsandbytes' real 4-bit base, its weights counted as NF4 stores them.
        (
            "--update foreach --quant nf4 --lora-targets qv --dtype bf16 --arch llama",
            "llama d768 L4 h12/3 f2048 V8000 s512 b8 lora r16 qv",
        ),
        (
            "--update foreach --quant nf4 --lora-targets qv --dtype bf16 --checkpointing",
            "gpt d1024 L8 h16 V50257 s512 b1 tied lora r16 qv",
        ),
    ] {
        torch_validate(&python)
            .args(flags.split_whitespace())
            .assert()
            .success()
            .stdout(predicate::str::contains(largest))
            .stdout(predicate::str::contains(
                "Goal (median ≤ 3 %, worst ≤ 8 %): met",
            ));
    }
    // A job nobody recorded fails and names itself, as a real python's error would.
    torch_validate(&python)
        .args(["--attn", "eager", "--update", "foreach", "--checkpointing"])
        .args([
            "--lora-targets",
            "all-linear",
            "--autocast",
            "f16",
            "--dtype",
            "bf16",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no recorded reply for job"));
}

#[test]
fn no_torch_or_no_python_is_said_plainly() {
    let dir = tempfile::tempdir().unwrap();
    torch_validate(&fake_python(dir.path(), false))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot import torch"))
        .stderr(predicate::str::contains("pip install torch"));
    english()
        .unwrap()
        .args([
            "measure",
            "--pytorch",
            "--validate",
            "--python",
            "/no/such/python",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no python at /no/such/python"));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // `gpulab fit --json | head -c 10`: the reader goes away after a few bytes.
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gpulab"))
        .current_dir(scratch())
        .args(["fit", "--json"])
        .env("PATH", "/nonexistent")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn more_threads_than_cpus_is_refused_at_once() {
    english()
        .unwrap()
        .args(["bench", "--threads", "1000", "--sizes", "256"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("logical CPUs"));
}

#[test]
fn impossible_sizes_reach_the_memory_guard_whole() {
    // Their byte counts overflowed: one panicked ("capacity overflow"), one aborted.
    for size in [
        "18446744073709551615x1x1",
        "4294967296x4294967296x4294967296",
    ] {
        english()
            .unwrap()
            .args(["bench", "--quiet", "--device", "cpu", "--sizes", size])
            .timeout(std::time::Duration::from_secs(30))
            .assert()
            .success()
            .stdout(predicate::str::contains("skipped: needs"));
    }
}

#[test]
fn report_refuses_an_unwritable_out_before_any_work() {
    // A file where the folder should be: refused at once, not after the 6 s of measuring.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-folder");
    fs::write(&file, "mine").unwrap();
    let started = Instant::now();
    english()
        .unwrap()
        .args(["report", "--quiet", "--out"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a file, not a folder"));
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "refused only after {:?}",
        started.elapsed()
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
}

#[test]
fn an_io_error_is_one_sentence() {
    // It printed "No such file or directory (os error 2): No such file or directory (os error 2)".
    let out = english()
        .unwrap()
        .args(["compare", "missing.json", "x.json"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("os error 2").count(), 1, "{stderr}");
    assert!(stderr.contains("missing.json"), "{stderr}");
    assert!(stderr.contains("check the path"), "{stderr}");
}

#[test]
fn two_exports_to_stdout_are_refused() {
    english()
        .unwrap()
        .args(["bench", "--sizes", "64", "--json", "-", "--csv", "-"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("only one output can go to stdout"));
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("out.txt");
    english()
        .unwrap()
        .args(["bench", "--sizes", "64", "--json"])
        .arg(&same)
        .arg("--markdown")
        .arg(&same)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("named for two outputs"));
}

#[test]
fn a_silently_failing_nvidia_smi_is_not_called_a_present_gpu() {
    english()
        .unwrap()
        .args(["check", "--nvidia-smi", "/bin/false"])
        .assert()
        .success()
        .stdout(predicate::str::contains("GPU present").not())
        .stdout(predicate::str::contains("printed nothing"));
}

#[test]
fn a_marketplace_gpu_shows_its_price_time_and_stop_command() {
    // A RunPod pod (its documented variables) with an RTX 3090 (a recorded nvidia-smi answer).
    let fake = FakeSmi::new()
        .with("query.out", "query-rtx3090-591.csv")
        .with("banner.out", "smi-p4-550.txt");
    let json = {
        let out = fake
            .gpulab()
            .env("RUNPOD_POD_ID", "pod42xyz")
            .args(["check", "--json"])
            .output()
            .unwrap();
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    assert_eq!(json["host"]["platform"]["provider"], "run-pod");
    assert_eq!(json["session"]["kind"], "cloud");
    assert_eq!(json["session"]["gpus"][0], "1× RTX-3090");
    assert!(json["session"]["usd_per_hour"][1].as_f64().unwrap() > 0.0);
    fake.gpulab()
        .env("RUNPOD_POD_ID", "pod42xyz")
        .arg("check")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "RunPod (rented, billed until stopped",
        ))
        .stdout(predicate::str::contains("1× RTX-3090 $"))
        .stdout(predicate::str::contains("runpodctl stop pod pod42xyz"));
}

#[test]
fn colab_names_its_runtime_and_what_to_do_without_a_gpu() {
    let t4 = FakeSmi::new()
        .with("query.out", "query-t4-name-memory.csv")
        .with("banner.out", "smi-v100-colab-418.txt");
    t4.gpulab()
        .env("COLAB_RELEASE_TAG", "release-colab_20241120-060125_RC00")
        .arg("check")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Google Colab, T4 runtime (the free tier's GPU",
        ))
        .stdout(predicate::str::contains("at most 12 h"));
    english()
        .unwrap()
        .env("PATH", "/nonexistent")
        .env("COLAB_GPU", "0")
        .arg("check")
        .assert()
        .success()
        .stdout(predicate::str::contains("CPU runtime"))
        .stdout(predicate::str::contains(
            "Runtime > Change runtime type > T4 GPU",
        ));
}

#[test]
fn fit_judges_alike_twice_from_its_cached_cpu_rates() {
    // The CPU's rates are measured once and cached in data/runs/cpu-rates.json: a second run
    // gives the same verdicts (they moved between runs when each run re-measured).
    let dir = tempfile::tempdir().unwrap();
    let run = || {
        let out = english()
            .unwrap()
            .current_dir(dir.path())
            .env("PATH", "/nonexistent")
            .args(["fit", "--json", "--gpu", "RTX-3090"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let first = run();
    assert!(dir.path().join("data/runs/cpu-rates.json").exists());
    let second = run();
    // The judgements, not the free RAM the CPU's headroom is counted from (that moves).
    let judged = |fit: &Value| -> Vec<String> {
        fit["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|v| {
                let mut rows = vec![format!("{} → {}", v["id"], v["recommendation"])];
                rows.extend(v["cells"].as_array().unwrap().iter().map(|c| {
                    format!(
                        "{} {}: fits {} runnable {} hours {} {}",
                        v["id"],
                        c["target"],
                        c["fits"],
                        c["runnable"],
                        c["hours"],
                        c["impractical"]
                    )
                }));
                rows
            })
            .collect()
    };
    assert_eq!(judged(&first), judged(&second));
    let names: Vec<&str> = first["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"RTX-3090"), "{names:?}");
    // Every cell carries its step's parts; a CPU run past a day is not offered as a choice.
    let qlora = first["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "recipe/qlora-llama3-8b")
        .unwrap();
    assert!(
        qlora["cells"][0]["impractical"].is_string(),
        "{}",
        qlora["cells"][0]
    );
    english()
        .unwrap()
        .current_dir(dir.path())
        .args(["fit", "--gpu", "NoSuchGPU"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("NoSuchGPU"));
}

#[test]
fn a_multi_gpu_plan_writes_configs_the_engines_read() {
    let dir = tempfile::tempdir().unwrap();
    english()
        .unwrap()
        .current_dir(dir.path())
        .env("PATH", "/nonexistent")
        .args(["fit", "--lesson", "full-ft-llama3-8b", "--configs", "cfg"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ZeRO-3"))
        .stdout(predicate::str::contains("deepspeed --num_gpus"));
    let ds: Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("cfg/ds_config.json")).unwrap())
            .unwrap();
    assert_eq!(ds["zero_optimization"]["stage"], 3);
    assert_eq!(ds["bf16"]["enabled"], true);
    let acc: Value = serde_json::from_str(
        &fs::read_to_string(dir.path().join("cfg/accelerate_fsdp.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(acc["distributed_type"], "FSDP");
    // Not clobbered without --force.
    english()
        .unwrap()
        .current_dir(dir.path())
        .args(["fit", "--lesson", "full-ft-llama3-8b", "--configs", "cfg"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--force"));
}

/// The binary in a Korean locale (no `--lang`): what a learner on a Korean desktop gets.
fn korean() -> Command {
    let mut cmd = Command::cargo_bin("gpulab").unwrap();
    cmd.current_dir(scratch())
        .env("COLUMNS", "1000")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "ko_KR.UTF-8");
    cmd
}

/// Every English text of the catalogue, as the pieces between its arguments that a Korean
/// output must not contain: the pieces long enough to be words (two or more, 12 characters or
/// more) that the Korean text of the same message does not also hold (commands, flags, names).
fn catalogue_english() -> Vec<(String, String)> {
    let en = gpulab::i18n::messages(gpulab::i18n::Lang::En);
    let ko = gpulab::i18n::messages(gpulab::i18n::Lang::Ko);
    let mut pieces = Vec::new();
    for (id, text) in &en {
        let korean = &ko[id];
        for piece in text.split(['\u{1}', '\n']) {
            let piece = piece.trim_matches(|c: char| !c.is_alphanumeric());
            let words = piece
                .split_whitespace()
                .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
                .count();
            if piece.len() >= 12 && words >= 2 && !korean.contains(piece) {
                pieces.push((id.clone(), piece.to_string()));
            }
        }
    }
    assert!(pieces.len() > 300, "only {} pieces", pieces.len());
    pieces
}

#[test]
fn speaks_korean_everywhere() {
    let empty = tempfile::tempdir().unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let report = fixture("../report/cpu-2threads.json");
    let fake = FakeSmi::new()
        .with("query.out", "query-titanv-rtx5880-570.csv")
        .with("banner.out", "smi-b200x2-610.txt");
    // (name, command, whether it must succeed)
    let mut runs: Vec<(&str, Command, bool)> = Vec::new();
    let mut with_path = |name: &'static str, args: &[&str], ok: bool| {
        let mut cmd = korean();
        cmd.env("PATH", empty.path()).args(args);
        runs.push((name, cmd, ok));
    };
    with_path("check without a driver", &["check", "--no-torch"], true);
    with_path(
        "bench",
        &[
            "bench", "--device", "cpu", "--sizes", "64,96", "--budget", "0.05", "--naive",
        ],
        true,
    );
    with_path(
        "measure",
        &[
            "measure",
            "--arch",
            "mlp",
            "--no-sweep",
            "--optimizer",
            "adamw",
        ],
        true,
    );
    with_path("estimate", &["estimate", "gpt2", "--gpu", "T4"], true);
    with_path(
        "estimate, inference",
        &[
            "estimate",
            "llama-3-8b",
            "--mode",
            "inference",
            "--memory",
            "24GB",
        ],
        true,
    );
    with_path("fit", &["fit"], true);
    with_path(
        "fit one lesson",
        &["fit", "--lesson", "recipe/sft-7b"],
        true,
    );
    with_path("labs", &["labs"], true);
    with_path("help", &["--help"], true);
    with_path("help of a command", &["estimate", "--help"], true);
    with_path("hint", &["hint", "1"], true);
    with_path("bad threads", &["bench", "--threads", "0"], false);
    with_path("unknown model", &["estimate", "gpt-5"], false);
    with_path(
        "missing file",
        &["compare", "missing.json", "x.json"],
        false,
    );
    with_path(
        "unknown lesson",
        &["fit", "--lesson", "no-such-lesson"],
        false,
    );
    with_path("mistyped command", &["chek"], false);
    with_path("mistyped option", &["check", "--jsn"], false);
    let mut cmd = korean();
    cmd.env("PATH", empty.path())
        .args(["report", "--quiet", "--no-torch", "--name", "r", "--out"])
        .arg(out_dir.path());
    runs.push(("report", cmd, true));
    let mut cmd = korean();
    cmd.arg("compare")
        .arg(&report)
        .arg(fixture("../report/cpu-1thread.json"));
    runs.push(("compare", cmd, true));
    // PyTorch's view: a CPU-only wheel beside the driver's GPUs (a recorded probe answer).
    let python = out_dir.path().join("probe-python");
    fs::write(
        &python,
        format!(
            "#!/bin/sh\ncat {}/data/fixtures/torch-probe/cpu-only-wheel.json\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&python, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut cmd = fake.gpulab();
    cmd.env_remove("LC_ALL")
        .env("LANG", "ko_KR.UTF-8")
        .args(["check", "--python"])
        .arg(&python);
    runs.push(("check with GPUs and PyTorch", cmd, true));
    // The PyTorch step fitted and judged from recorded outputs.
    let torch_dir = tempfile::tempdir().unwrap();
    let mut cmd = torch_validate(&fake_python(torch_dir.path(), true));
    cmd.env_remove("LC_ALL").env("LANG", "ko_KR.UTF-8");
    runs.push(("measure --pytorch --validate", cmd, true));

    let english = catalogue_english();
    let mut leaks = Vec::new();
    for (name, mut cmd, ok) in runs {
        let out = cmd.output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.success(), ok, "{name}: {text}");
        assert!(
            text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)),
            "{name} printed no Korean: {text}"
        );
        for (id, piece) in &english {
            if text.contains(piece.as_str()) {
                leaks.push(format!("{name}: {id}: {piece:?}"));
            }
        }
    }
    // The report written in a Korean locale is Korean too.
    let md = fs::read_to_string(out_dir.path().join("r.md")).unwrap();
    for (id, piece) in &english {
        if md.contains(piece.as_str()) {
            leaks.push(format!("r.md: {id}: {piece:?}"));
        }
    }
    leaks.sort();
    leaks.dedup();
    assert!(
        leaks.is_empty(),
        "catalogue English in Korean output: {leaks:#?}"
    );
}

/// QLoRA's PyTorch column (the LoRA step measured on a bf16 base, the base then re-sized to
/// NF4 by formula) against bitsandbytes' real 4-bit step on the held-out LoRA shapes, with and
/// without checkpointing: `.ci/qlora-check` replays the recorded steps (no torch needed) and
/// runs this build's `estimate` on each shape.
#[test]
fn qlora_column_matches_the_recorded_bitsandbytes_step() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new("python3")
        .arg(format!("{root}/.ci/qlora-check"))
        .arg(format!("{root}/.ci/replay-torch"))
        .arg(env!("CARGO_BIN_EXE_gpulab"))
        .env("LC_ALL", "C.UTF-8")
        .output()
        .expect("python3 runs .ci/qlora-check");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // 11 held-out shapes × 2 families × 2 recipes, each a row with its error.
    assert_eq!(text.matches("| QLoRA").count(), 44, "{text}");
    assert!(
        text.contains("goal (median <= 3 %, worst <= 8 %): met"),
        "{text}"
    );
}

/// A 4-bit base is frozen, and only the PyTorch step has one: both said before anything runs.
#[test]
fn a_quantized_base_needs_lora_and_the_pytorch_step() {
    english()
        .unwrap()
        .args(["measure", "--pytorch", "--arch", "llama", "--quant", "nf4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("only adapters can train"))
        .stderr(predicate::str::contains("--lora-rank"));
    english()
        .unwrap()
        .args(["measure", "--quant", "nf4", "--lora-rank", "8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a quantized base are measured on the PyTorch step",
        ));
    english()
        .unwrap()
        .args([
            "measure",
            "--pytorch",
            "--quant",
            "int3",
            "--lora-rank",
            "8",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--quant \"int3\" is not a quantization",
        ));
}

/// What a learner's terminal shows fits it: every command, at 80 and 100 columns, in both
/// languages, prints no line wider than the terminal (Hangul counts two columns).
#[test]
fn every_command_fits_the_terminal() {
    let empty = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let runs: &[&[&str]] = &[
        &["check", "--no-torch"],
        &["bench", "--sizes", "128", "--budget", "1"],
        &["estimate", "llama-3-8b", "--gpu", "T4"],
        &["estimate", "gpt2", "--lora-rank", "8", "--memory", "16GiB"],
        &["estimate", "--memory", "24GB"],
        &["fit"],
        &["fit", "--lesson", "recipe/qlora-llama3-8b"],
        &["labs"],
        &["hint", "3"],
        &["--help"],
        &["estimate", "--help"],
        &["measure", "--help"],
    ];
    for columns in [80usize, 100] {
        for lang in ["ko", "en"] {
            for args in runs {
                let output = english()
                    .unwrap()
                    .env("COLUMNS", columns.to_string())
                    .env("PATH", empty.path())
                    .args(*args)
                    .args(["--lang", lang])
                    .output()
                    .unwrap();
                assert!(output.status.success(), "{args:?}: {output:?}");
                let text = String::from_utf8(output.stdout).unwrap();
                assert!(!text.trim().is_empty(), "{args:?} printed nothing");
                for line in text.lines() {
                    assert!(
                        gpulab::table::width(line) <= columns,
                        "{args:?} --lang {lang} at {columns} columns: {} wide: {line:?}",
                        gpulab::table::width(line)
                    );
                }
            }
        }
    }
    // The report's summary, once (it measures for ~20 s).
    let output = english()
        .unwrap()
        .env("COLUMNS", "80")
        .env("PATH", empty.path())
        .args(["report", "--quiet", "--lang", "ko", "--name", "w", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("w.md"), "{text}");
    for line in text.lines() {
        assert!(gpulab::table::width(line) <= 80, "report: {line:?}");
    }
}

/// The hostile inputs of a broken machine or a careless hand, each ending in a clear refusal
/// or a correct answer within its bound: no panic (101), hang, orphan or clobber.
#[test]
fn hostile_inputs_end_in_a_clear_answer() {
    let no_panic = |out: &std::process::Output, what: &str| {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() != Some(101) && !err.contains("panicked"),
            "{what}: {out:?}"
        );
    };
    // Floats that overflow a Duration, shapes that overflow u64, a CUDA device on a CPU build.
    for args in [
        &["check", "--no-torch", "--smi-timeout", "1e20"][..],
        &["bench", "--budget", "1e308"],
        &[
            "estimate",
            "--arch",
            "gpt",
            "--layers",
            "1",
            "--d-model",
            "4294967296",
            "--heads",
            "1",
        ],
        &["measure", "--batch", "18446744073709551615"],
        &["bench", "--device", "cuda:0", "--sizes", "64"],
    ] {
        if args[0] == "bench" && args[2] == "cuda:0" && gpulab::probe::cuda::COMPILED {
            continue;
        }
        let out = english().unwrap().args(args).output().unwrap();
        no_panic(&out, &format!("{args:?}"));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    }
    // An argument that is not UTF-8.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"\xff.json");
        let out = english()
            .unwrap()
            .arg("compare")
            .arg(bad)
            .arg("b.json")
            .output()
            .unwrap();
        no_panic(&out, "non-UTF-8 argument");
        assert_eq!(out.status.code(), Some(2));
    }
    // Errors written to a full stderr.
    let full = fs::OpenOptions::new().write(true).open("/dev/full");
    if let Ok(full) = full {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_gpulab"))
            .current_dir(scratch())
            .args(["estimate", "gpt-5"])
            .stderr(full)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "{status:?}");
    }
    // An nvidia-smi that exits but leaves a helper holding its output, and one that never stops
    // printing: both bounded by the timeout.
    for script in ["echo hello; sleep 30 &", "yes"] {
        let fake = FakeSmi::new().text("nvidia-smi", &format!("#!/bin/sh\n{script}\n"));
        let started = Instant::now();
        let out = fake
            .gpulab()
            .args(["check", "--no-torch", "--smi-timeout", "2"])
            .output()
            .unwrap();
        no_panic(&out, script);
        assert!(started.elapsed() < Duration::from_secs(20), "{script}");
        assert!(out.stdout.len() < 100_000, "{script}: output echoed back");
    }
    // A report whose name the file system refuses: refused before measuring, nothing left.
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = english()
        .unwrap()
        .args([
            "report",
            "--quiet",
            "--no-torch",
            "--name",
            &"x".repeat(300),
            "--out",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
    // A hand-edited report with a negative time is refused by compare.
    let mut edited: Value =
        serde_json::from_str(&fs::read_to_string(fixture("../report/cpu-2threads.json")).unwrap())
            .unwrap();
    edited["fields"]["cpu_time_s"] = serde_json::json!(-3.0);
    let path = dir.path().join("edited.json");
    fs::write(&path, edited.to_string()).unwrap();
    english()
        .unwrap()
        .arg("compare")
        .arg(&path)
        .arg(fixture("../report/cpu-1thread.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("edited"));
    // Four writers of the same configs at once: exactly one wins, the set is one plan's.
    let race = tempfile::tempdir().unwrap();
    let runs: Vec<_> = (0..4)
        .map(|_| {
            let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gpulab"));
            cmd.current_dir(race.path())
                .env("LC_ALL", "C.UTF-8")
                .args(["fit", "--lesson", "full-ft-llama3-8b", "--configs", "cfg"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            cmd.spawn().unwrap()
        })
        .collect();
    let wins = runs
        .into_iter()
        .map(|mut c| c.wait().unwrap())
        .filter(|s| s.success())
        .count();
    assert_eq!(wins, 1);
}

#[test]
fn qlora_preparation_is_stated_and_changes_the_gpu_column() {
    // TRL's bf16 recast of the embeddings and head holds less than peft's fp32 preparation,
    // and the JSON says which was assumed.
    let run = |prep: &str| -> Value {
        json_of(english().unwrap().args([
            "estimate",
            "llama-3.2-1b",
            "--dtype",
            "nf4",
            "--lora-rank",
            "16",
            "--seq-len",
            "512",
            "--gpu",
            "T4",
            "--kbit-prep",
            prep,
            "--json",
        ]))
    };
    let (peft, trl) = (run("peft"), run("trl-bf16"));
    assert_eq!(peft["estimate"]["input"]["kbit_prep"], "peft");
    assert_eq!(trl["estimate"]["input"]["kbit_prep"], "trl_bf16");
    let allocated = |v: &Value| -> u64 {
        let columns = v["measured"].as_array().unwrap();
        let cuda = columns.iter().find(|c| !c["cuda"].is_null()).unwrap();
        cuda["cuda"]["allocated"].as_u64().unwrap()
    };
    // Llama-3.2-1B ties its head: one 128,256 × 2,048 table, 2 bytes apart, plus the head's
    // 16-bit cast that peft's fp32 table needs under autocast.
    let table = 128_256u64 * 2_048;
    assert!(
        allocated(&peft) >= allocated(&trl) + 2 * table,
        "{peft} {trl}"
    );
}

#[test]
fn a_refused_value_says_why_in_korean_too() {
    // clap's Korean message keeps the reason gpulab's parser gave, not only "invalid value".
    for (args, reason) in [
        (["estimate", "7B", "--mode", "foo"], "train 또는 inference"),
        (["estimate", "7B", "--kbit-prep", "x"], "trl-bf16"),
    ] {
        english()
            .unwrap()
            .args(args)
            .args(["--lang", "ko"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(reason));
    }
}
