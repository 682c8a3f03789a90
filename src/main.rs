//! The `gpulab` binary: parse, dispatch, map the outcome to an exit code. No logic lives here.

mod app;
mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match app::run(cli) {
        Ok(code) => code,
        Err(err) => {
            // `{:#}` prints the whole context chain on one line; no backtrace noise.
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
