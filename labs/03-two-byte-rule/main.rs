//! Lab 03: the lesson's fp16 2-byte rule for your GPU (or the common ones), against training's needs.
use gpulab::plan::estimate::{estimate, max_params_textbook, EstimateInput};
use gpulab::{probe::gpus::Catalog, t, units::Bytes};

fn main() -> anyhow::Result<()> {
    gpulab::labs::LabArgs::parse(std::env::args()); // --ko (or a Korean locale): Korean output
    let catalog = Catalog::shipped();
    // Your GPUs if nvidia-smi lists any, else the ones the course points to.
    let driver = gpulab::probe::nvidia_smi::query(
        std::path::Path::new("nvidia-smi"),
        std::time::Duration::from_secs(10),
    );
    let mut gpus: Vec<(String, Bytes)> = driver
        .gpus
        .iter()
        .filter_map(|g| Some((g.name.clone(), g.memory_total?)))
        .collect();
    if gpus.is_empty() {
        gpulab::outln!("{}\n", t!("lab03-no-gpu"));
        for id in ["T4", "L4", "RTX-4090", "A100-80GB"] {
            let g = catalog.get(id)?;
            gpus.push((g.name.clone(), g.memory()));
        }
    }
    // Mixed-precision Adam, the lesson's setting; `params` is what max_params_textbook searches.
    let training = EstimateInput::mixed_precision_adam(1);
    let mut rows = Vec::new();
    for (name, memory) in gpus {
        let rule = memory.0 / 2; // fp16: 2 bytes per parameter, weights only
        let train = max_params_textbook(&training, memory); // + grads + fp32 master and Adam states
        gpulab::outln!(
            "{}",
            t!(
                "lab03-line",
                gpu = format!("{name:32}"),
                memory = format!("{:>10}", memory.to_string()),
                rule = format!("{:6.2}", rule as f64 / 1e9),
                train = format!("{:5.2}", train as f64 / 1e9)
            )
        );
        rows.push(serde_json::json!({ "gpu": name, "memory": memory, "rule_params": rule, "training_params": train }));
    }
    let seven_b = estimate(&EstimateInput {
        params: 7_000_000_000,
        ..training
    });
    gpulab::outln!(
        "\n{}",
        t!(
            "lab03-seven-b",
            rule = seven_b.rule_total,
            train = seven_b.textbook_total
        )
    );
    gpulab::labs::save_result("lab03-two-byte-rule", &rows)?;
    Ok(())
}
