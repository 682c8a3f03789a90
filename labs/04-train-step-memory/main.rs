//! Lab 04: run one real training step and see where every byte goes.
use candle_core::DType;
use gpulab::memory::export;
use gpulab::memory::measure::{measure_step, MeasureConfig};
use gpulab::memory::models::{Family, ModelConfig};
use gpulab::memory::optim::OptimizerKind;
use gpulab::probe::device::DeviceSpec;
use gpulab::t; // every sentence comes from the catalogue, data/locales/*.ftl

// gpulab counts every byte this program allocates: that is how it measures CPU memory.
#[global_allocator]
static ALLOC: gpulab::memory::alloc::CountingAllocator = gpulab::memory::alloc::CountingAllocator;

fn main() -> anyhow::Result<()> {
    let mut model = ModelConfig::default_for(Family::Gpt); // d 128, 2 blocks, 4 heads, seq 64
    model.batch = if gpulab::labs::LabArgs::parse(std::env::args()).fast {
        2
    } else {
        8
    }; // try doubling it
    let config = MeasureConfig {
        model,
        dtype: DType::F32,
        optimizer: OptimizerKind::Adamw,
        device: DeviceSpec::Cpu,
    };
    let m = measure_step(&config)?;
    gpulab::outln!(
        "{}\n",
        t!(
            "lab04-headline",
            model = m.description,
            params = m.params,
            peak = m.ledger.measured_peak,
            phase = m.ledger.peak_phase.label()
        )
    );
    gpulab::out!(
        "{}\n{}",
        export::phase_table(&m).to_text(),
        export::ledger_table(&m).to_text()
    );
    gpulab::outln!(
        "\n{}",
        t!(
            "lab04-per-param",
            weights = format!("{:.2}", m.per_param.weights),
            gradients = format!("{:.2}", m.per_param.gradients),
            state = format!("{:.2}", m.per_param.optimizer_state)
        )
    );
    gpulab::labs::save_result("lab04-train-step-memory", &m)?;
    Ok(())
}
