//! Lab 02: time a matmul the lesson's way (one cold call) and the proper way (warm-up, sync, median).
use candle_core::{Device, Tensor};
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
    let n = if gpulab::labs::LabArgs::parse(std::env::args()).fast {
        256
    } else {
        1024
    };
    let mut devices = vec![Device::Cpu];
    match Device::new_cuda(0) {
        Ok(gpu) => devices.push(gpu),
        Err(_) => println!("No usable GPU here: the GPU half needs a cuda build on a GPU machine (Colab: Runtime > Change runtime type > T4 GPU, then `cargo run --release --features cuda --example lab02-matmul-bench`).\n"),
    }
    let mut medians = Vec::new();
    let mut cpu_gflops = 0.0;
    for dev in &devices {
        let a = Tensor::randn(0f32, 1.0, (n, n), dev)?; // random, never zeros
        let b = Tensor::randn(0f32, 1.0, (n, n), dev)?;
        let cold = time_once(dev, &a, &b)?; // what the lesson's script measures
        let mut warm: Vec<f64> = (0..20)
            .map(|_| time_once(dev, &a, &b))
            .collect::<Result<_, _>>()?;
        warm.sort_by(f64::total_cmp);
        let median = warm[warm.len() / 2];
        let gflops = 2.0 * (n as f64).powi(3) / median / 1e9;
        println!(
            "{:?} n={n}: cold {:.2} ms, median of 20 {:.2} ms ({gflops:.1} GFLOP/s)",
            dev.location(),
            cold * 1e3,
            median * 1e3
        );
        medians.push(median);
        if cpu_gflops == 0.0 {
            cpu_gflops = gflops;
        }
    }
    if let [cpu, gpu] = medians[..] {
        println!("speedup (medians): {:.1}x", cpu / gpu);
    }
    // The roofline: does memory or arithmetic set this product's pace on the CPU?
    println!("{}", gpulab::bench::roofline::explain_cpu(n, cpu_gflops));
    gpulab::labs::save_result(
        "lab02-matmul-bench",
        &serde_json::json!({ "n": n, "median_s": medians }),
    )?;
    Ok(())
}
