//! The labs: the manifest, the folders, both READMEs, Cargo.toml's examples and labs/README.md
//! stay in step (rustlings' `dev check`), and every lab runs on the CPU in its fast mode.

use std::path::{Path, PathBuf};
use std::process::Command;

use gpulab::labs::Manifest;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Section headings outside code blocks (recorded outputs may contain Markdown of their own).
fn headings(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|l| {
            if l.starts_with("```") {
                fenced = !fenced;
            }
            !fenced && l.starts_with("## ")
        })
        .collect()
}

#[test]
fn manifest_folders_readmes_and_examples_agree() {
    let manifest = Manifest::shipped();
    assert_eq!(manifest.format_version, 1);
    let cargo = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let index = std::fs::read_to_string(root().join("labs/README.md")).unwrap();
    let mut slugs = std::collections::HashSet::new();
    for (i, lab) in manifest.labs.iter().enumerate() {
        assert_eq!(lab.id, format!("{:02}", i + 1), "ids run 01..N in order");
        assert!(slugs.insert(lab.slug.clone()), "slug {} repeated", lab.slug);
        assert!(lab
            .slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
        assert!(!lab.hint.trim().is_empty() && !lab.title_ko.trim().is_empty());
        let dir = root().join("labs").join(lab.dir_name());
        let main = std::fs::read_to_string(dir.join("main.rs")).expect("main.rs");
        assert!(
            main.starts_with("//! Lab"),
            "{}: main.rs opens with what it teaches",
            lab.dir_name()
        );
        assert!(main.contains("fn main()"));
        assert!(
            main.lines().count() <= 60,
            "{}: a lab stays short",
            lab.dir_name()
        );
        let en = std::fs::read_to_string(dir.join("README.md")).expect("README.md");
        let ko = std::fs::read_to_string(dir.join("README.ko.md")).expect("README.ko.md");
        assert_eq!(
            headings(&en).len(),
            6,
            "{}: Goal, Run it, What you should see, What it means, Questions, Further reading",
            lab.dir_name()
        );
        assert_eq!(
            headings(&en).len(),
            headings(&ko).len(),
            "{}: same sections in both languages",
            lab.dir_name()
        );
        assert!(en.contains(&lab.example()) && ko.contains(&lab.example()));
        // Every question in the READMEs has its answer in the hints, in both languages.
        let questions = |text: &str, heading: &str| {
            text.split(heading)
                .nth(1)
                .and_then(|rest| rest.split("\n## ").next())
                .map(|section| {
                    section
                        .lines()
                        .filter(|l| {
                            l.split_once(". ")
                                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
                        })
                        .count()
                })
                .unwrap_or(0)
        };
        let (q_en, q_ko) = (
            questions(&en, "## Questions to think about"),
            questions(&ko, "## 생각해 볼 질문"),
        );
        assert!(q_en > 0, "{}: questions found", lab.dir_name());
        assert_eq!(
            q_en,
            q_ko,
            "{}: the same questions in both READMEs",
            lab.dir_name()
        );
        assert_eq!(
            lab.answers.len(),
            q_en,
            "{}: an answer per question",
            lab.dir_name()
        );
        assert_eq!(
            lab.answers_ko.len(),
            q_en,
            "{}: 한국어 답도",
            lab.dir_name()
        );
        assert!(!lab.hint_ko.trim().is_empty());
        assert!(
            cargo.contains(&format!(
                "name = \"{}\"\npath = \"labs/{}/main.rs\"",
                lab.example(),
                lab.dir_name()
            )),
            "Cargo.toml lacks the [[example]] for {}",
            lab.dir_name()
        );
        assert!(
            index.contains(&format!("({}/README.md)", lab.dir_name())),
            "labs/README.md lists {}",
            lab.dir_name()
        );
    }
    // labs/colab holds the Colab notebook and its script (tests/colab.rs), not a numbered lab.
    let folders = std::fs::read_dir(root().join("labs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && !p.ends_with("colab"))
        .count();
    assert_eq!(
        folders,
        manifest.labs.len(),
        "a folder without a manifest entry"
    );
}

fn example(name: &str) -> PathBuf {
    // target/<profile>/deps/labs-<hash> → target/<profile>/examples/<name>
    let exe = std::env::current_exe().unwrap();
    exe.parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join(name)
}

#[test]
fn every_lab_runs_on_the_cpu_in_fast_mode() {
    let work = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    for lab in Manifest::shipped().labs {
        let out = Command::new(example(&lab.example()))
            .arg("--fast")
            .current_dir(work.path())
            // No nvidia-smi on PATH: the labs must work (and say so) without a GPU.
            .env("PATH", empty.path())
            .env("LC_ALL", "C.UTF-8")
            .env("COLUMNS", "80")
            .output()
            .unwrap_or_else(|e| panic!("{}: {e} (cargo test builds the examples)", lab.example()));
        assert!(
            out.status.success(),
            "{} failed:\n{}\n{}",
            lab.example(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // Fitted to an 80-column terminal, as every command is.
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            assert!(
                gpulab::table::width(line) <= 80,
                "{}: {line:?}",
                lab.example()
            );
        }
        let runs = work.path().join(gpulab::labs::RUNS_DIR);
        assert!(
            lab.is_done(&runs),
            "{} saved no result of this version",
            lab.example()
        );
    }
}
