//! The binary's half: clap's definitions ([`args`]) and the dispatch that turns them into
//! library calls ([`dispatch`], and [`measure`] for `gpulab measure`'s many modes), with `--help`
//! in the learner's language ([`help`]). Nothing here decides anything a lab or a test also needs.

// Results go to stdout through these, not print!: print! panics when stdout is a closed pipe
// (`gpulab fit | head -1`); a failed write here is an error main() ends quietly on.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($t)*)?
    }};
}
macro_rules! sayln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($t)*)?
    }};
}

pub mod args;
pub mod dispatch;
pub mod help;
pub mod measure;
