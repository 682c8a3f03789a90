//! Lab 01: ask the driver and the framework, and see why you need both.
use gpulab::probe::{diagnose, framework, nvidia_smi};
use std::{path::Path, time::Duration};

fn main() -> anyhow::Result<()> {
    // 1. The driver's view: what nvidia-smi says (bounded: a wedged driver can hang it).
    let driver = nvidia_smi::query(Path::new("nvidia-smi"), Duration::from_secs(10));
    match &driver.failure {
        Some(why) => println!("driver:    {}", why.explain()),
        None => println!(
            "driver:    {} GPU(s), CUDA up to {:?}",
            driver.gpus.len(),
            driver.versions.cuda
        ),
    }
    // 2. The framework's view: can Candle open each GPU and run a real matmul on it?
    let fw = framework::probe();
    println!(
        "framework: candle {} built with cuda: {}",
        fw.candle_version, fw.compiled_with_cuda
    );
    if let Some(e) = &fw.init_error {
        println!("           Device::new_cuda(0) -> {}", e.message);
    }
    // 3. Line them up: the two answers can disagree, and the disagreement names the fix.
    let verdict = diagnose::diagnose(&driver, &fw);
    println!(
        "\nverdict:   {}\nnext:      {}",
        verdict.headline, verdict.fix
    );
    let saved = gpulab::labs::save_result("lab01-gpu-check", &verdict)?;
    println!("\nsaved {}", saved.display());
    Ok(())
}
