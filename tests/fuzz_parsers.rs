//! Property tests of every parser of outside input: nvidia-smi's CSV, table banner and `-L`
//! list, compute capabilities, parameter counts, memory sizes, `MxKxN` shapes, device / dtype /
//! precision / optimizer / model / language names, `data/*.toml`, calibration, report and
//! PyTorch-reply JSON.
//!
//! Inputs are random strings and real recorded files (data/fixtures, data/*.toml, data/*.json)
//! cut, spliced and garbled. Each parser must return, never panic, and what it rejects must get a
//! message a person can act on. Valid inputs must round-trip. Case counts are bounded for
//! `cargo test`; `PROPTEST_CASES=20000 cargo test --release --test fuzz_parsers` is the long
//! run (README).

use std::path::Path;

use gpulab::bench::MatmulShape;
use gpulab::i18n::Lang;
use gpulab::memory::calibration::Calibration;
use gpulab::plan::estimate::{parse_count, parse_memory};
use gpulab::probe::device::DeviceSpec;
use gpulab::probe::nvidia_smi::{
    classify_failure, parse_list, parse_query_csv, parse_versions, unknown_field, ComputeCap,
};
use proptest::prelude::*;

/// `cases` unless PROPTEST_CASES asks for more (or fewer).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        // Failure persistence files would land in the source tree; the seed is printed anyway.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// Every recorded nvidia-smi output, as text.
fn smi_fixtures() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fixtures/nvidia-smi");
    let mut texts: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt" || x == "csv"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    texts.sort();
    texts
}

/// One edit of a text: where (a fraction of its length), what, and with which piece.
#[derive(Debug, Clone)]
enum Edit {
    /// Cut the text here (a truncated output).
    Truncate(f64),
    /// Delete up to n chars from here.
    Delete(f64, usize),
    /// Insert this piece here.
    Insert(f64, String),
    /// Repeat the line at this place.
    DuplicateLine(f64),
}

/// Pieces that matter to these formats: separators, brackets, quotes, numbers at their limits,
/// units, non-ASCII, control characters.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(",".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\"".to_string()),
        Just("[N/A]".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("]".to_string()),
        Just("=".to_string()),
        Just("|".to_string()),
        Just(" MiB".to_string()),
        Just("18446744073709551616".to_string()),
        Just("-1".to_string()),
        Just("1e309".to_string()),
        Just("NaN".to_string()),
        Just("한국어".to_string()),
        Just("\u{0}".to_string()),
        Just("x".to_string()),
        "[ -~]{0,12}",
        any::<char>().prop_map(String::from),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0f64).prop_map(Edit::Truncate),
        (0.0..1.0f64, 1usize..40).prop_map(|(at, n)| Edit::Delete(at, n)),
        (0.0..1.0f64, piece()).prop_map(|(at, p)| Edit::Insert(at, p)),
        (0.0..1.0f64).prop_map(Edit::DuplicateLine),
    ]
}

/// The char boundary nearest below `at`·len.
fn boundary(text: &str, at: f64) -> usize {
    let mut i = ((text.len() as f64) * at) as usize;
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i.min(text.len())
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut t = text.to_string();
    for e in edits {
        match e {
            Edit::Truncate(at) => {
                let i = boundary(&t, *at);
                t.truncate(i);
            }
            Edit::Delete(at, n) => {
                let i = boundary(&t, *at);
                let end = t[i..]
                    .char_indices()
                    .nth(*n)
                    .map_or(t.len(), |(j, _)| i + j);
                t.replace_range(i..end, "");
            }
            Edit::Insert(at, p) => {
                let i = boundary(&t, *at);
                t.insert_str(i, p);
            }
            Edit::DuplicateLine(at) => {
                let i = boundary(&t, *at);
                let start = t[..i].rfind('\n').map_or(0, |j| j + 1);
                let end = t[i..].find('\n').map_or(t.len(), |j| i + j + 1);
                let line = t[start..end].to_string();
                t.insert_str(start, &line);
            }
        }
    }
    t
}

/// An error a person can act on: it says something, on its own terms (no Rust debug dump), and
/// does not end in the middle of nothing.
fn clear(message: &str) {
    assert!(!message.trim().is_empty(), "empty error message");
    for debug in [
        "Rejected(",
        "Message {",
        "Error {",
        "Some(",
        "panicked",
        "unwrap",
    ] {
        assert!(!message.contains(debug), "debug text in {message:?}");
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn nvidia_smi_outputs_never_panic(pick in 0usize..64, edits in prop::collection::vec(edit(), 0..6)) {
        let fixtures = smi_fixtures();
        let text = apply(&fixtures[pick % fixtures.len()], &edits);
        if let Err(failure) = parse_query_csv(&text) {
            clear(&failure.explain());
        }
        let _ = parse_versions(&text);
        let _ = parse_list(&text);
        let _ = unknown_field(&text);
        let code = (pick as i32) - 8;
        clear(&classify_failure(Some(code), &text).explain());
        clear(&classify_failure(None, &text).explain());
    }

    #[test]
    fn short_values_never_panic_and_say_what_to_use(text in prop_oneof![
        "[0-9a-zA-Z._,×xX \\-+]{0,24}",
        any::<String>(),
    ]) {
        let _ = ComputeCap::parse(&text);
        // Both catalogues: the learner's locale picks the language, so the test must not.
        for (lang, say) in [(Lang::En, "use"), (Lang::Ko, "쓰세요")] {
            let results = gpulab::i18n::scoped(lang, || [
                (parse_count(&text).map(|_| ()).map_err(|e| e.to_string()), ""),
                (parse_memory(&text).map(|_| ()).map_err(|e| e.to_string()), ""),
                (MatmulShape::parse(&text).map(|_| ()).map_err(|e| e.to_string()), ""),
                (DeviceSpec::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
                (gpulab::dtype::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
                (gpulab::memory::formulas::Precision::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
                (gpulab::memory::optim::OptimizerKind::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
                (gpulab::memory::models::Family::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
                (gpulab::report::Lang::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
                (gpulab::memory::torch::Implementation::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
                (gpulab::memory::torch::Attention::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
                (gpulab::memory::models::LoraTargets::parse(&text).map(|_| ()).map_err(|e| e.to_string()), say),
            ]);
            for (result, hint) in results {
                if let Err(message) = result {
                    clear(&message);
                    prop_assert!(message.contains(hint), "{lang:?}: {message}");
                }
            }
        }
    }

    #[test]
    fn counts_sizes_and_shapes_round_trip(n in 1u64..1_000_000_000_000_000, m in 1usize..100_000, k in 1usize..100_000, p in 1usize..100_000) {
        prop_assert_eq!(parse_count(&n.to_string()).unwrap(), n);
        let grouped = n.to_string().as_bytes().rchunks(3).rev()
            .map(|c| std::str::from_utf8(c).unwrap()).collect::<Vec<_>>().join("_");
        prop_assert_eq!(parse_count(&grouped).unwrap(), n);
        prop_assert_eq!(parse_memory(&format!("{m}MiB")).unwrap().0, m as u64 * 1024 * 1024);
        let shape = MatmulShape::parse(&format!("{m}x{k}x{p}")).unwrap();
        prop_assert_eq!((shape.m, shape.k, shape.n), (m, k, p));
        prop_assert_eq!(MatmulShape::parse(&shape.to_string()).unwrap(), shape);
        let cap = ComputeCap::parse(&format!("{}.{}", m % 20, k % 10)).unwrap();
        prop_assert_eq!((cap.major, cap.minor), ((m % 20) as u32, (k % 10) as u32));
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn catalogues_never_panic(which in 0usize..2, edits in prop::collection::vec(edit(), 1..6)) {
        if which == 0 {
            let text = apply(&read("data/gpus.toml"), &edits);
            if let Err(e) = gpulab::probe::gpus::Catalog::parse(&text, "gpus.toml") {
                let message = e.to_string();
                clear(&message);
                prop_assert!(message.contains("gpus.toml"), "{message}");
            }
        } else {
            let text = apply(&read("data/lessons.toml"), &edits);
            if let Err(e) = gpulab::plan::lessons::parse(&text, "lessons.toml") {
                let message = e.to_string();
                clear(&message);
                prop_assert!(message.contains("lessons.toml"), "{message}");
            }
        }
    }

    #[test]
    fn json_files_never_panic(which in 0usize..4, edits in prop::collection::vec(edit(), 1..6)) {
        match which {
            0 | 1 => {
                let file = ["data/calibration-cpu.json", "data/calibration-torch-cpu.json"][which];
                let text = apply(&read(file), &edits);
                if let Err(e) = Calibration::parse(&text, "cal.json") {
                    let message = e.to_string();
                    clear(&message);
                    prop_assert!(message.contains("cal.json"), "{message}");
                }
            }
            2 => {
                let text = apply(&read("data/fixtures/report/cpu-2threads.json"), &edits);
                if let Err(e) = gpulab::report::parse(&text, "r.json") {
                    let message = e.to_string();
                    clear(&message);
                    prop_assert!(message.contains("r.json"), "{message}");
                }
            }
            _ => {
                let text = apply(&read("data/fixtures/torch/replies/e613548b6e6704a0.json"), &edits);
                let shapes = gpulab::memory::validate::held_out_shapes(gpulab::memory::models::Family::Gpt);
                if let Err(e) = gpulab::memory::torch::parse_reply(
                    &text,
                    &shapes,
                    candle_core::DType::F32,
                    gpulab::memory::optim::OptimizerKind::Adamw,
                    &gpulab::memory::torch::Variant::default(),
                ) {
                    clear(&e.to_string());
                }
            }
        }
    }
}

#[test]
fn the_unedited_files_parse() {
    // The mutations above start from real files: they must be valid to begin with, or the
    // properties would only ever see errors.
    for text in smi_fixtures() {
        let _ = parse_query_csv(&text);
    }
    gpulab::probe::gpus::Catalog::parse(&read("data/gpus.toml"), "gpus.toml").unwrap();
    gpulab::plan::lessons::parse(&read("data/lessons.toml"), "lessons.toml").unwrap();
    Calibration::parse(&read("data/calibration-cpu.json"), "c").unwrap();
    Calibration::parse(&read("data/calibration-torch-cpu.json"), "c").unwrap();
    gpulab::report::parse(&read("data/fixtures/report/cpu-2threads.json"), "r").unwrap();
}

proptest! {
    #![proptest_config(config(256))]

    /// Shapes of any size: refused with a clear message or counted exactly, never wrapped (a
    /// u64 product that overflowed once read 77 G parameters for 9.2e19), and a config.json with
    /// any numbers likewise.
    #[test]
    fn shapes_of_any_size_are_refused_or_counted_without_overflow(
        layers in 1u64..1 << 40, d in 1u64..1 << 40, heads in 1u64..64, vocab in 2u64..1 << 40,
        llama in any::<bool>(),
    ) {
        let q = gpulab::plan::estimate::ModelQuery {
            arch: Some(if llama {
                gpulab::memory::models::Family::Llama
            } else {
                gpulab::memory::models::Family::Gpt
            }),
            layers: Some(layers),
            d_model: Some(d * heads),
            heads: Some(heads),
            vocab: Some(vocab),
            seq_len: Some(128),
            batch: 1,
            ..Default::default()
        };
        match gpulab::plan::estimate::resolve(&q) {
            Ok((params, _)) => {
                prop_assert!(params as u128 <= gpulab::memory::models::MAX_PARAMS);
                // Every term is below the total, so nothing wrapped: the embedding alone.
                prop_assert!(params as u128 >= vocab as u128 * (d * heads) as u128);
            }
            Err(e) => clear(&e.to_string()),
        }
        let config = format!(
            r#"{{"model_type":"{}","hidden_size":{},"num_attention_heads":{heads},"num_hidden_layers":{layers},"intermediate_size":{d},"vocab_size":{vocab}}}"#,
            if llama { "qwen2" } else { "mistral" },
            d * heads
        );
        if let Err(e) = gpulab::memory::models::hf_config::from_hf_config(&config, "c.json") {
            clear(&e.to_string());
        }
    }
}
