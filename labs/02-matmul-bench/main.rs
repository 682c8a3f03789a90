//! Lab 02: time a matmul the lesson's way (one cold call) and the proper way (warm-up, sync, median).
use candle_core::{Device, Tensor};
use gpulab::t; // every sentence comes from the catalogue, data/locales/*.ftl
use std::time::Instant;

fn time_once(dev: &Device, a: &Tensor, b: &Tensor) -> candle_core::Result<f64> {
    dev.synchronize()?; // nothing queued before the clock starts
    let start = Instant::now();
    let c = a.matmul(b)?;
    dev.synchronize()?; // a GPU launch returns at once: wait for the work before stopping the clock
    let seconds = start.elapsed().as_secs_f64();
    drop(c);
    Ok(seconds)
}

fn main() -> anyhow::Result<()> {
    let fast = gpulab::labs::LabArgs::parse(std::env::args()).fast;
    let n = if fast { 256 } else { 1024 };
    let mut devices = vec![Device::Cpu];
    match Device::new_cuda(0) {
        Ok(gpu) => devices.push(gpu),
        Err(_) => gpulab::outln!("{}\n", t!("lab02-no-gpu")),
    }
    let mut medians = Vec::new();
    for dev in &devices {
        let a = Tensor::randn(0f32, 1.0, (n, n), dev)?; // random, never zeros
        let b = Tensor::randn(0f32, 1.0, (n, n), dev)?;
        let cold = time_once(dev, &a, &b)?; // what the lesson's script measures
        let mut warm: Vec<f64> = (0..20)
            .map(|_| time_once(dev, &a, &b))
            .collect::<Result<_, _>>()?;
        warm.sort_by(f64::total_cmp);
        let median = warm[warm.len() / 2];
        let gflops = 2.0 * (n as f64).powi(3) / median / 1e9; // a matmul is 2·n³ FLOPs
        let ms = |s: f64| format!("{:.2}", s * 1e3);
        let name = if dev.is_cuda() { "cuda:0" } else { "cpu" };
        let (d, c, m) = (format!("{name} n={n}"), ms(cold), ms(median));
        let g = format!("{gflops:.1}");
        let line = t!("lab02-line", dev = d, cold = c, median = m, gflops = g);
        gpulab::outln!("{line}");
        medians.push(median);
    }
    if let [cpu, gpu] = medians[..] {
        let ratio = format!("{:.1}", cpu / gpu);
        gpulab::outln!("{}", t!("lab02-speedup", ratio = ratio));
    }
    // The roofline: does memory or arithmetic set this product's pace on the CPU?
    let cpu_gflops = 2.0 * (n as f64).powi(3) / medians[0] / 1e9;
    gpulab::outln!("{}", gpulab::bench::roofline::explain_cpu(n, cpu_gflops));
    gpulab::labs::save_result(
        "lab02-matmul-bench",
        &serde_json::json!({ "n": n, "median_s": medians }),
    )?;
    Ok(())
}
