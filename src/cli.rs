//! The binary's half: clap's definitions ([`args`]) and the dispatch that turns them into
//! library calls ([`dispatch`], [`measure`] for `gpulab measure`'s many modes, [`common`] for
//! the flag handling both share), with `--help` in the learner's language ([`help`]). Nothing
//! here decides anything a lab or a test also needs.

// Results go to stdout through these, not print!: print! panics when stdout is a closed pipe
// (`gpulab fit | head -1`); a failed write here is an error main() ends quietly on. Lines are
// fitted to the terminal's width on the way (src/output.rs).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut out = gpulab::output::Fitted::stdout();
        write!(out, $($t)*)?;
        out.flush()?
    }};
}
macro_rules! sayln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let mut out = gpulab::output::Fitted::stdout();
        writeln!(out, $($t)*)?;
        out.flush()?
    }};
}

// Machine-readable output (JSON, CSV, Markdown to `-`): written as it is, never wrapped.
macro_rules! emit {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($t)*)?
    }};
}
macro_rules! emitln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($t)*)?
    }};
}

pub mod args;
pub mod common;
pub mod dispatch;
pub mod help;
pub mod measure;
