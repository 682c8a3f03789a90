//! Lab 04: run one real training step and see where every byte goes.
use candle_core::DType;
use gpulab::device::DeviceSpec;
use gpulab::measure::{export, measure_step, MeasureConfig};
use gpulab::models::{Family, ModelConfig};
use gpulab::optim::OptimizerKind;

fn main() -> anyhow::Result<()> {
    let mut model = ModelConfig::default_for(Family::Gpt); // d 128, 2 blocks, 4 heads, seq 64
    model.batch = if gpulab::labs::fast_mode() { 2 } else { 8 }; // try doubling it
    let config = MeasureConfig {
        model,
        dtype: DType::F32,
        optimizer: OptimizerKind::Adamw,
        device: DeviceSpec::Cpu,
    };
    let m = measure_step(&config)?;
    println!(
        "{} · {} params · peak {} in the {} phase\n",
        m.description,
        m.params,
        m.ledger.measured_peak,
        m.ledger.peak_phase.label()
    );
    print!(
        "{}\n{}",
        export::phase_table(&m).to_text(),
        export::ledger_table(&m).to_text()
    );
    println!("\nbytes per parameter: weights {:.2}, gradients {:.2}, AdamW state {:.2} (the lesson's rule: 2)", m.per_param.weights, m.per_param.gradients, m.per_param.optimizer_state);
    gpulab::labs::save_result("lab04-train-step-memory", &m)?;
    Ok(())
}
