//! Measurement tests, in their own test binary: the counting allocator sees the whole process,
//! so these must not share it with unrelated tests (each measurement also takes gpulab's
//! measurement lock, so the tests here never overlap each other).

use candle_core::DType;
use gpulab::memory::calibration::{Calibration, Machine};
use gpulab::memory::measure::{measure_step, MeasureConfig, Phase};
use gpulab::memory::models::{Family, ModelConfig};
use gpulab::memory::optim::OptimizerKind;
use gpulab::memory::suite::{self, SuiteConfig};
use gpulab::probe::device::DeviceSpec;

// This test binary measures CPU memory, so it counts its allocations (src/memory/alloc.rs).
#[global_allocator]
static ALLOC: gpulab::memory::alloc::CountingAllocator = gpulab::memory::alloc::CountingAllocator;

/// Every test here holds this for its whole run, so nothing it does outside a measurement
/// (serialising, fitting) allocates while another test is measuring.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn step(
    family: Family,
    dtype: DType,
    optimizer: OptimizerKind,
) -> gpulab::memory::measure::StepMeasurement {
    measure_step(&MeasureConfig {
        model: ModelConfig::default_for(family),
        dtype,
        optimizer,
        device: DeviceSpec::Cpu,
    })
    .unwrap()
}

fn within(value: f64, want: f64, rel: f64) -> bool {
    (value - want).abs() <= rel * want
}

#[test]
fn f32_bytes_per_parameter_are_what_candle_keeps() {
    let _serial = serial();
    for family in [Family::Mlp, Family::Gpt] {
        let sgd = step(family, DType::F32, OptimizerKind::Sgd);
        let p = sgd.params as f64;
        assert_eq!(sgd.params, ModelConfig::default_for(family).param_count());
        // Weights: P × 4 bytes within 1 % (the VarMap's names and hash map are the rest).
        assert!(
            within(sgd.phases[0].live_after.0 as f64, 4.0 * p, 0.01),
            "{family:?} weights {:?}",
            sgd.phases[0]
        );
        assert!(within(sgd.per_param.gradients, 4.0, 0.01));
        // SGD keeps no state: a few bytes of bookkeeping at most.
        assert!(
            sgd.per_param.optimizer_state < 0.01,
            "{}",
            sgd.per_param.optimizer_state
        );
        let momentum = step(family, DType::F32, OptimizerKind::Momentum);
        assert!(
            within(momentum.per_param.optimizer_state, 4.0, 0.01),
            "{}",
            momentum.per_param.optimizer_state
        );
        let adamw = step(family, DType::F32, OptimizerKind::Adamw);
        assert!(
            within(adamw.per_param.optimizer_state, 8.0, 0.01),
            "{}",
            adamw.per_param.optimizer_state
        );
    }
}

#[test]
fn bf16_halves_weights_gradients_and_state() {
    let _serial = serial();
    let m = step(Family::Gpt, DType::BF16, OptimizerKind::Adamw);
    assert!(within(m.per_param.weights, 2.0, 0.02));
    assert!(within(m.per_param.gradients, 2.0, 0.01));
    assert!(within(m.per_param.optimizer_state, 4.0, 0.02));
    assert!(m.loss.is_finite());
}

#[test]
fn the_ledger_closes_within_three_percent() {
    let _serial = serial();
    for family in [Family::Mlp, Family::Gpt, Family::Cnn] {
        for optimizer in [OptimizerKind::Sgd, OptimizerKind::Adamw] {
            let m = step(family, DType::F32, optimizer);
            assert!(
                !m.ledger.over_accounted,
                "{family:?} {optimizer:?}: {:?}",
                m.ledger
            );
            assert!(
                m.ledger.unexplained_share <= 0.03,
                "{family:?} {optimizer:?}: {:?}",
                m.ledger
            );
            let peak = m.phases.iter().map(|p| p.peak).max().unwrap();
            assert_eq!(m.ledger.measured_peak, peak);
            // After the step only weights, state and the batch remain.
            let after = m
                .phases
                .iter()
                .find(|p| p.phase == Phase::AfterStep)
                .unwrap();
            let kept = m.accounted.weights.0 + m.accounted.optimizer_state.0 + m.accounted.batch.0;
            assert!(
                within(after.live_after.0 as f64, kept as f64, 0.03),
                "{family:?}: {after:?} vs {kept}"
            );
        }
    }
}

#[test]
fn activations_grow_linearly_with_batch_and_calibration_round_trips() {
    let _serial = serial();
    let config = SuiteConfig {
        families: vec![Family::Mlp, Family::Gpt, Family::Cnn],
        dtypes: vec![DType::F32],
        optimizers: vec![OptimizerKind::Adamw],
        batches: vec![1, 2, 4, 8],
        seq_lens: vec![16, 32, 48],
        ..SuiteConfig::default_for(DeviceSpec::Cpu)
    };
    let results = suite::run(&config, |_, _| {});
    let fits = suite::fits(&results);
    for family in [Family::Mlp, Family::Gpt, Family::Cnn] {
        let fit = fits
            .iter()
            .find(|f| f.family == family && f.variable == "batch")
            .unwrap();
        assert_eq!(fit.points.len(), 4);
        assert!(
            fit.activations.r2 > 0.99,
            "{family:?}: {:?}",
            fit.activations
        );
        assert!(fit.activations.coefficients[1] > 0.0);
    }
    let seq = fits.iter().find(|f| f.variable == "seq_len").unwrap();
    assert!(seq.activations.r2 > 0.99, "{:?}", seq.activations);
    // Attention makes the s² term positive.
    assert!(
        seq.activations.coefficients[2] > 0.0,
        "{:?}",
        seq.activations
    );

    let cal = Calibration::from_results(
        &results,
        &fits,
        Vec::new(),
        Machine {
            cpu_model: "test".into(),
            os: "test".into(),
            device: "cpu".into(),
            device_name: "test".into(),
        },
    );
    assert_eq!(cal.entries.len(), 3);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cal.json");
    cal.save(&path, false).unwrap();
    assert!(
        cal.save(&path, false).is_err(),
        "no clobbering without force"
    );
    let back = Calibration::load(&path).unwrap();
    assert_eq!(back, cal);
    let broken = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"schema_version\": 2", "\"schema_version\": 99");
    gpulab::i18n::set(gpulab::i18n::Lang::En);
    assert!(Calibration::parse(&broken, "x.json")
        .unwrap_err()
        .to_string()
        .contains("version 99"));
}

#[test]
fn nonsense_and_too_big_are_refused_before_starting() {
    let _serial = serial();
    // The messages below are read in English, whatever this machine's locale.
    gpulab::i18n::set(gpulab::i18n::Lang::En);
    let mut model = ModelConfig::default_for(Family::Gpt);
    model.heads = 5;
    let err = measure_step(&MeasureConfig {
        model,
        dtype: DType::F32,
        optimizer: OptimizerKind::Sgd,
        device: DeviceSpec::Cpu,
    })
    .unwrap_err();
    assert!(err.to_string().contains("multiple of heads"));
    let mut model = ModelConfig::default_for(Family::Mlp);
    model.mlp_hidden = vec![1 << 20, 1 << 20];
    let err = measure_step(&MeasureConfig {
        model,
        dtype: DType::F32,
        optimizer: OptimizerKind::Adamw,
        device: DeviceSpec::Cpu,
    })
    .unwrap_err();
    assert!(err.to_string().contains("needs roughly"), "{err}");
}

#[test]
fn the_empirical_model_predicts_unseen_shapes_within_the_goal() {
    let _serial = serial();
    use gpulab::memory::validate::{errors, meets_goal, summary, validate};
    for family in [Family::Mlp, Family::Gpt, Family::Llama, Family::Cnn] {
        let (_, rows) = validate(family, DeviceSpec::Cpu, || {}).unwrap();
        let (median, worst) = errors(&rows);
        assert!(
            meets_goal((median, worst)),
            "{family:?}: median {median}, worst {worst}"
        );
        // And the rule of thumb really is far off: that is the point of measuring.
        let (rule, _) = summary(&rows.iter().map(|r| r.error(r.rule)).collect::<Vec<_>>());
        assert!(rule > 0.5, "{family:?}: {rule}");
    }
}
