//! The Colab notebook (labs/colab/gpulab.ipynb) is valid nbformat 4 and does its work through
//! labs/colab/run.sh, the script CI runs on its CPU machine (.ci/run); every explanation is in
//! Korean and English; it needs no edit (the source comes as the archive the README's one
//! command makes), and the README says how.

use std::path::Path;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn notebook() -> Value {
    let text = std::fs::read_to_string(root().join("labs/colab/gpulab.ipynb")).unwrap();
    serde_json::from_str(&text).expect("the notebook is JSON")
}

/// A cell's source: nbformat allows one string or a list of lines.
fn source(cell: &Value) -> String {
    match &cell["source"] {
        Value::String(s) => s.clone(),
        Value::Array(lines) => lines.iter().map(|l| l.as_str().unwrap()).collect(),
        other => panic!("source must be a string or a list of strings, got {other}"),
    }
}

#[test]
fn the_notebook_is_nbformat_4() {
    // The required keys of nbformat 4.5's JSON schema (nbformat.v4.5.schema.json).
    let nb = notebook();
    assert_eq!(nb["nbformat"], 4);
    assert!(nb["nbformat_minor"].as_u64().unwrap() >= 5);
    assert!(nb["metadata"].is_object());
    let cells = nb["cells"].as_array().unwrap();
    assert!(cells.len() >= 6);
    let mut ids = std::collections::HashSet::new();
    for cell in cells {
        let id = cell["id"].as_str().expect("nbformat 4.5 cells have ids");
        assert!(
            (1..=64).contains(&id.len())
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{id}"
        );
        assert!(ids.insert(id.to_string()), "{id} repeated");
        assert!(cell["metadata"].is_object());
        let _ = source(cell);
        match cell["cell_type"].as_str().unwrap() {
            "markdown" => assert!(cell.get("outputs").is_none()),
            "code" => {
                assert!(cell["outputs"].is_array());
                assert!(cell.get("execution_count").is_some());
            }
            other => panic!("cell type {other}"),
        }
    }
}

#[test]
fn the_notebook_calls_the_script_and_speaks_both_languages() {
    let nb = notebook();
    let cells = nb["cells"].as_array().unwrap();
    let code: String = cells
        .iter()
        .filter(|c| c["cell_type"] == "code")
        .map(source)
        .collect();
    assert!(
        code.contains("labs/colab/run.sh"),
        "the steps call the script"
    );
    assert!(
        code.contains("gpulab compare"),
        "and compare with the laptop"
    );
    assert!(code.contains("drive.mount") && code.contains("files.download"));
    // Nothing to edit: no placeholder address; the source is the archive the README makes.
    assert!(!code.contains("OWNER"), "no placeholder to edit");
    assert!(code.contains("gpulab-src") && code.contains("git archive -o gpulab-src.tar.gz HEAD"));
    // The compare line takes an uploaded name as it is ("report (1).json"): no shell line.
    assert!(!code.lines().any(|l| l.trim_start().starts_with('!')));
    for cell in cells.iter().filter(|c| c["cell_type"] == "markdown") {
        let text = source(cell);
        let hangul = text.chars().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c));
        let english = text
            .split_whitespace()
            .filter(|w| w.chars().all(|c| c.is_ascii_alphabetic()))
            .count()
            >= 3;
        assert!(
            hangul && english,
            "every step's text in Korean and English: {text}"
        );
    }
    let script = root().join("labs/colab/run.sh");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.starts_with("#!/usr/bin/env bash"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&script).unwrap().permissions().mode();
        assert!(mode & 0o111 != 0, "run.sh is executable");
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains("git archive -o gpulab-src.tar.gz HEAD"));
    assert!(readme.contains("labs/colab/gpulab.ipynb"));
}
