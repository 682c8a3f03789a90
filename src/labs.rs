//! The labs a learner steps through: the manifest (`labs/labs.toml`, embedded), progress (a lab
//! is done when its result file `data/runs/lab<id>-<slug>.json` exists), running a lab (its own
//! program, `cargo run --release --example lab<id>-<slug>`, so a learner's edits take effect),
//! and the helpers the lab programs share.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Result;

/// The manifest as shipped.
pub const LABS_TOML: &str = include_str!("../labs/labs.toml");

/// One lab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lab {
    /// Two-digit id, "01".
    pub id: String,
    /// kebab-case slug.
    pub slug: String,
    /// English title.
    pub title: String,
    /// Korean title.
    pub title_ko: String,
    /// Does its main part need a GPU?
    pub needs_gpu: bool,
    /// Hints, several lines.
    pub hint: String,
    /// The hints in Korean.
    pub hint_ko: String,
    /// Answers to the README's questions, in order.
    pub answers: Vec<String>,
    /// The answers in Korean.
    pub answers_ko: Vec<String>,
}

impl Lab {
    /// Folder name and example suffix: "01-gpu-check".
    pub fn dir_name(&self) -> String {
        format!("{}-{}", self.id, self.slug)
    }

    /// The hints and the answers to the README's questions, in the learner's language.
    pub fn hints(&self, korean: bool) -> String {
        self.hints_then(korean, true)
    }

    /// The hints; the answers only when asked (`hint N --answers`), so a learner can try first.
    pub fn hints_then(&self, korean: bool, answers_too: bool) -> String {
        let (hint, answers, lang) = if korean {
            (&self.hint_ko, &self.answers_ko, crate::i18n::Lang::Ko)
        } else {
            (&self.hint, &self.answers, crate::i18n::Lang::En)
        };
        let hint = reflow(hint.trim());
        if !answers_too {
            let later = tl!(lang, "labs-answers-later", id = self.id.as_str());
            return format!("{hint}\n\n{later}\n");
        }
        let heading = tl!(lang, "labs-answers");
        let mut out = format!("{hint}\n\n{heading}:\n");
        for (i, a) in answers.iter().enumerate() {
            out.push_str(&format!("{}. {a}\n", i + 1));
        }
        out
    }

    /// Cargo example name: "lab01-gpu-check" (a letter first, as Cargo wants).
    pub fn example(&self) -> String {
        format!("lab{}", self.dir_name())
    }

    /// Where its result goes.
    pub fn result_path(&self, runs: &Path) -> PathBuf {
        runs.join(format!("{}.json", self.example()))
    }

    /// Done: its result file holds what the lab measures, written by this version of gpulab (a
    /// file that merely exists, is empty, or came from an older version does not count).
    pub fn is_done(&self, runs: &Path) -> bool {
        let Ok(text) = std::fs::read_to_string(self.result_path(runs)) else {
            return false;
        };
        let Ok(saved) = serde_json::from_str::<SavedResult>(&text) else {
            return false;
        };
        saved.lab == self.example()
            && saved.gpulab_version == env!("CARGO_PKG_VERSION")
            && match &saved.result {
                serde_json::Value::Null => false,
                serde_json::Value::Object(o) => !o.is_empty(),
                serde_json::Value::Array(a) => !a.is_empty(),
                _ => true,
            }
    }
}

/// A lab's result as `save_result` writes it.
#[derive(Debug, Serialize, Deserialize)]
struct SavedResult {
    lab: String,
    gpulab_version: String,
    result: serde_json::Value,
}

/// The manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Layout version.
    pub format_version: u32,
    /// Labs in order.
    pub labs: Vec<Lab>,
}

impl Manifest {
    /// The shipped manifest (checked by tests/labs.rs).
    pub fn shipped() -> Manifest {
        crate::files::parse_toml(LABS_TOML, "labs/labs.toml")
            .expect("labs/labs.toml is checked by tests")
    }

    /// Every lab's result is saved (`lab next` has nothing left to run).
    pub fn all_done(&self, runs: &Path) -> bool {
        self.labs.iter().all(|l| l.is_done(runs))
    }

    /// A lab by "3", "03", a slug, or "next" (the first not done under `runs`).
    pub fn find(&self, query: &str, runs: &Path) -> Result<&Lab> {
        let q = query.trim();
        if q.eq_ignore_ascii_case("next") {
            return self
                .labs
                .iter()
                .find(|l| !l.is_done(runs))
                .ok_or_else(|| crate::bad!("labs-all-done"));
        }
        let as_id = q.parse::<u32>().ok().map(|n| format!("{n:02}"));
        self.labs
            .iter()
            .find(|l| Some(&l.id) == as_id.as_ref() || l.slug == q || l.dir_name() == q)
            .ok_or_else(|| {
                crate::bad!(
                    "labs-unknown",
                    given = format!("{q:?}"),
                    last = format!("{:02}", self.labs.len()),
                    slugs = self
                        .labs
                        .iter()
                        .map(|l| l.slug.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }

    /// The progress line and one line per lab (✓ done, · to do).
    pub fn progress(&self, runs: &Path, korean: bool) -> String {
        let lang = if korean {
            crate::i18n::Lang::Ko
        } else {
            crate::i18n::Lang::En
        };
        let done: Vec<bool> = self.labs.iter().map(|l| l.is_done(runs)).collect();
        let n = done.iter().filter(|d| **d).count();
        let width = 20;
        let filled = n * width / self.labs.len().max(1);
        let mut out = format!(
            "{}: [{}{}] {n}/{}\n\n",
            tl!(lang, "labs-progress"),
            "#".repeat(filled),
            "-".repeat(width - filled),
            self.labs.len()
        );
        for (lab, d) in self.labs.iter().zip(done) {
            out.push_str(&format!(
                "{} {}  {}{}\n",
                if d { "✓" } else { "·" },
                lab.dir_name(),
                if korean { &lab.title_ko } else { &lab.title },
                if lab.needs_gpu {
                    tl!(lang, "labs-gpu-optional")
                } else {
                    String::new()
                }
            ));
        }
        out
    }
}

/// Where lab results and generated files go, relative to the repository (git-ignored).
pub const RUNS_DIR: &str = "data/runs";

/// The repository holding `start` (the nearest folder above it with `Cargo.toml` and
/// `labs/labs.toml`), so `gpulab lab` works from any folder inside it.
pub fn repo_root(start: &std::path::Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("Cargo.toml").is_file() && d.join("labs/labs.toml").is_file())
        .map(std::path::Path::to_path_buf)
}

/// Where lab results are, seen from `start`: the repository's `data/runs` when `start` is inside
/// it, else `data/runs` below `start`.
pub fn runs_dir(start: &std::path::Path) -> PathBuf {
    repo_root(start)
        .map(|r| r.join(RUNS_DIR))
        .unwrap_or_else(|| PathBuf::from(RUNS_DIR))
}

/// Saves a lab's result as JSON under `data/runs/` (atomically; a rerun replaces it).
pub fn save_result(example: &str, value: &impl Serialize) -> Result<PathBuf> {
    let path = PathBuf::from(RUNS_DIR).join(format!("{example}.json"));
    let saved = SavedResult {
        lab: example.to_string(),
        gpulab_version: env!("CARGO_PKG_VERSION").to_string(),
        result: serde_json::to_value(value)?,
    };
    let text = serde_json::to_string_pretty(&saved)? + "\n";
    crate::files::write_atomic(&path, text.as_bytes(), true)?;
    Ok(path)
}

/// A text's lines joined into paragraphs (a blank line ends one; a line starting a list item
/// starts a new line), so the terminal, not the file's line breaks, decides where lines wrap.
pub fn reflow(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.trim();
        let item = line.starts_with("- ")
            || line.starts_with("* ")
            || line
                .split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok());
        if line.is_empty() {
            out.push_str("\n\n");
        } else if out.is_empty() || out.ends_with('\n') {
            out.push_str(line);
        } else if item {
            out.push('\n');
            out.push_str(line);
        } else {
            out.push(' ');
            out.push_str(line);
        }
    }
    out.trim_end().to_string()
}

/// What a lab program was asked for. The lab passes its own `std::env::args()`: the library
/// never reads a program's command line itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LabArgs {
    /// Run the quick version (`--fast`, or GPULAB_LAB_FAST set: CI does).
    pub fast: bool,
    /// Print in Korean (`--ko`).
    pub korean: bool,
}

impl LabArgs {
    /// Reads a lab's arguments (the program name included or not; unknown words are ignored).
    pub fn parse(args: impl IntoIterator<Item = String>) -> LabArgs {
        let mut parsed = LabArgs {
            fast: std::env::var_os("GPULAB_LAB_FAST").is_some(),
            korean: false,
        };
        let mut asked = None;
        let args: Vec<String> = args.into_iter().collect();
        for (i, arg) in args.iter().enumerate() {
            match arg.as_str() {
                "--fast" => parsed.fast = true,
                "--ko" => asked = Some(crate::i18n::Lang::Ko),
                "--en" => asked = Some(crate::i18n::Lang::En),
                // The same spelling as every gpulab command: `--lang ko`, `--lang=en`.
                "--lang" => {
                    asked = args
                        .get(i + 1)
                        .and_then(|l| crate::i18n::Lang::parse(l).ok())
                }
                other => {
                    if let Some(l) = other.strip_prefix("--lang=") {
                        asked = crate::i18n::Lang::parse(l).ok();
                    }
                }
            }
        }
        // `gpulab lab` passes --ko for a Korean learner; a lab run by hand speaks the locale's
        // language unless asked. Everything the lab prints through the library follows.
        if let Some(lang) = asked {
            crate::i18n::set(lang);
        }
        parsed.korean = asked.unwrap_or_else(crate::i18n::current) == crate::i18n::Lang::Ko;
        parsed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lab_is_done_only_when_its_result_holds_a_measurement_of_this_version() {
        let dir = tempfile::tempdir().unwrap();
        let lab = Manifest::shipped().labs[0].clone();
        let path = lab.result_path(dir.path());
        assert!(!lab.is_done(dir.path()));
        std::fs::write(&path, "").unwrap();
        assert!(!lab.is_done(dir.path()), "an empty file is not a result");
        std::fs::write(&path, "{\"ok\": true}").unwrap();
        assert!(
            !lab.is_done(dir.path()),
            "an older, unversioned file is not either"
        );
        let saved = SavedResult {
            lab: lab.example(),
            gpulab_version: env!("CARGO_PKG_VERSION").into(),
            result: serde_json::json!({ "n": 1024 }),
        };
        std::fs::write(&path, serde_json::to_string(&saved).unwrap()).unwrap();
        assert!(lab.is_done(dir.path()));
    }

    #[test]
    fn the_repository_is_found_from_any_folder_inside_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(
            repo_root(&root.join("labs/02-matmul-bench")).as_deref(),
            Some(root)
        );
        assert_eq!(runs_dir(&root.join("src/bench")), root.join(RUNS_DIR));
        assert_eq!(repo_root(std::path::Path::new("/")), None);
    }

    #[test]
    fn finds_labs_and_next() {
        let m = Manifest::shipped();
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(m.find("3", dir.path()).unwrap().slug, "two-byte-rule");
        assert_eq!(m.find("gpu-check", dir.path()).unwrap().id, "01");
        assert_eq!(m.find("next", dir.path()).unwrap().id, "01");
        std::fs::write(m.labs[0].result_path(dir.path()), "{}").unwrap();
        assert_eq!(
            m.find("next", dir.path()).unwrap().id,
            "01",
            "an empty result is no result"
        );
        let saved = SavedResult {
            lab: m.labs[0].example(),
            gpulab_version: env!("CARGO_PKG_VERSION").into(),
            result: serde_json::json!({ "verdict": "no GPU" }),
        };
        std::fs::write(
            m.labs[0].result_path(dir.path()),
            serde_json::to_string(&saved).unwrap(),
        )
        .unwrap();
        assert_eq!(m.find("next", dir.path()).unwrap().id, "02");
        assert!(m.progress(dir.path(), false).contains("1/6"));
        assert!(m.progress(dir.path(), true).contains("진행"));
        assert!(m
            .find("99", dir.path())
            .unwrap_err()
            .to_string()
            .contains("01-06"));
    }

    #[test]
    fn lab_args_come_from_the_caller() {
        let args = |words: &[&str]| LabArgs::parse(words.iter().map(|w| w.to_string()));
        assert!(args(&["lab", "--fast"]).fast);
        assert!(args(&["--ko"]).korean);
        assert!(!args(&["lab", "--slow"]).korean);
    }
}
