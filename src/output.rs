//! The terminal's side of output: the one progress-bar factory (stderr, hidden with `--quiet` or
//! when stderr is not a terminal). Files are [`crate::files`]'.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar over `len` steps with an ETA, drawn on stderr; hidden when `quiet`
/// (indicatif also draws nothing when stderr is not a terminal).
pub fn progress(len: u64, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        // The template is the catalogue's: "ETA" in English, "남은 시간" in Korean.
        ProgressStyle::with_template(&crate::t!("progress-template"))
            .expect("template is valid")
            .progress_chars("=> "),
    );
    // Redrawn on a timer, not only when a point ends: a 2048³ point or a measure step runs for
    // seconds, and a bar that stands still looks like a hang.
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}
