//! Dispatch: turns parsed arguments into library calls and decides what goes to stdout (results)
//! and what to stderr (progress, diagnostics).

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};

use crate::cli::{CheckArgs, Cli, Command};
use gpulab::check::{render_text, run_check, CheckOptions};
use gpulab::diagnose::Readiness;

/// Runs one command. `Ok(code)` for outcomes, `Err` for failures the user must fix.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check(&args),
    }
}

fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    if !(args.smi_timeout.is_finite() && args.smi_timeout > 0.0) {
        bail!(
            "--smi-timeout must be a positive number of seconds, got {}",
            args.smi_timeout
        );
    }
    let options = CheckOptions {
        smi_program: args.nvidia_smi.clone(),
        smi_timeout: Duration::from_secs_f64(args.smi_timeout),
    };
    let report = run_check(&options);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).context("writing the check as JSON")?
        );
    } else {
        print!("{}", render_text(&report));
    }
    let ready = matches!(
        report.diagnosis.overall,
        Readiness::Ready | Readiness::Limited
    );
    Ok(if args.require_gpu && !ready {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
