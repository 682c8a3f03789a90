//! The course's lessons run for real on one CPU (data/lessons-measured.json, recorded by
//! .ci/time-lessons): their whole wall time and peak resident memory, which `fit` scales to
//! this CPU instead of modelling only the training steps.

use serde::Deserialize;

use crate::plan::timing::Rates;

/// The recordings shipped with gpulab.
const SHIPPED: &str = include_str!("../../data/lessons-measured.json");

/// One lesson as it ran.
#[derive(Debug, Clone, Deserialize)]
pub struct Run {
    /// The lesson's id (data/lessons.toml).
    pub id: String,
    /// Wall time of `python <file>` in the lesson's folder, imports and data included.
    pub wall_s: f64,
    /// Its exit: 0, another code, or "timeout".
    pub exit: serde_json::Value,
    /// Peak resident set of the process, bytes.
    pub peak_rss: u64,
    /// The last error line when it failed.
    pub why: String,
}

impl Run {
    /// Did the lesson's code finish?
    pub fn ran(&self) -> bool {
        self.exit == serde_json::json!(0)
    }
}

/// The machine the lessons ran on and its measured rates.
#[derive(Debug, Clone, Deserialize)]
pub struct Recordings {
    /// CPU model.
    pub cpu: String,
    /// Threads each lesson had.
    pub threads: u32,
    /// That machine's rates as `fit` measured them (data/runs/cpu-rates.json's layout).
    pub rates: RatesFile,
    /// Every lesson with a Python source.
    pub lessons: Vec<Run>,
}

/// The rates file's body.
#[derive(Debug, Clone, Deserialize)]
pub struct RatesFile {
    /// The rates.
    pub rates: Rates,
}

/// The shipped recordings, read once (None if they cannot be read, which a test rules out).
pub fn shipped() -> Option<&'static Recordings> {
    static READ: std::sync::OnceLock<Option<Recordings>> = std::sync::OnceLock::new();
    READ.get_or_init(|| serde_json::from_str(SHIPPED).ok())
        .as_ref()
}

impl Recordings {
    /// The recording of one lesson.
    pub fn find(&self, id: &str) -> Option<&Run> {
        self.lessons.iter().find(|r| r.id == id)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shipped_recordings_load_and_name_known_lessons() {
        let r = super::shipped().expect("data/lessons-measured.json reads");
        assert!(r.lessons.len() >= 20, "{}", r.lessons.len());
        let known = crate::plan::lessons::shipped();
        for run in &r.lessons {
            assert!(known.iter().any(|w| w.id == run.id), "{}", run.id);
            assert!(run.wall_s > 0.0 && run.peak_rss > 0, "{run:?}");
        }
        assert!(r.lessons.iter().filter(|l| l.ran()).count() >= 15);
    }
}
