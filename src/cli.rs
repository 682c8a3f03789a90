//! The command line, and nothing else: clap derive structs whose doc comments are the help text.
//! Only this file knows clap; `app.rs` turns these into library calls.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// gpulab: what can my machine actually train, and why?
#[derive(Debug, Parser)]
#[command(name = "gpulab", version, about, long_about = None)]
pub struct Cli {
    /// Hide progress bars.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Is there a usable NVIDIA GPU? Asks nvidia-smi and Candle, and says why they disagree.
    Check(CheckArgs),
}

/// `gpulab check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Print the result as JSON (schema gpulab.check, versioned) instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Seconds to wait for nvidia-smi before calling it hung.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub smi_timeout: f64,
    /// The nvidia-smi program to ask.
    #[arg(long, default_value = "nvidia-smi", value_name = "PATH")]
    pub nvidia_smi: PathBuf,
    /// Exit with status 1 unless a GPU is ready (for scripts).
    #[arg(long)]
    pub require_gpu: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}
