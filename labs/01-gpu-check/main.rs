//! Lab 01: ask the driver and the framework, and see why you need both.
use gpulab::probe::{diagnose, framework, nvidia_smi};
use gpulab::t; // every sentence comes from the catalogue, data/locales/*.ftl
use std::{path::Path, time::Duration};

fn main() -> anyhow::Result<()> {
    gpulab::labs::LabArgs::parse(std::env::args()); // --ko (or a Korean locale): Korean output
                                                    // 1. The driver's view: what nvidia-smi says (bounded: a wedged driver can hang it).
    let driver = nvidia_smi::query(Path::new("nvidia-smi"), Duration::from_secs(10));
    match &driver.failure {
        Some(why) => gpulab::outln!("{}", t!("lab01-driver-failed", why = why.explain())),
        None => gpulab::outln!(
            "{}",
            t!(
                "lab01-driver",
                count = driver.gpus.len(),
                cuda = driver.versions.cuda.as_deref().unwrap_or("?")
            )
        ),
    }
    // 2. The framework's view: can Candle open each GPU and run a real matmul on it?
    let fw = framework::probe();
    let cuda = if fw.compiled_with_cuda {
        t!("yes-no-yes")
    } else {
        t!("yes-no-no")
    };
    gpulab::outln!(
        "{}",
        t!("lab01-framework", version = fw.candle_version, cuda = cuda)
    );
    if let Some(e) = &fw.init_error {
        gpulab::outln!("{}", t!("lab01-new-cuda", error = e.message));
    }
    // 3. Line them up: the two answers can disagree, and the disagreement names the fix.
    let verdict = diagnose::diagnose(&driver, &fw);
    gpulab::outln!(
        "\n{}",
        t!(
            "lab01-verdict",
            headline = verdict.headline,
            fix = verdict.fix
        )
    );
    let saved = gpulab::labs::save_result("lab01-gpu-check", &verdict)?;
    gpulab::outln!("\n{}", t!("lab-saved", path = saved.display()));
    Ok(())
}
