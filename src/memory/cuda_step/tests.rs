//! The derived CUDA step against the published rows and against hand counts.

use super::*;
use crate::memory::models::Projections;

#[test]
fn published_rows_are_met() {
    let rows = crate::memory::published::parse(crate::memory::published::SHIPPED).unwrap();
    assert!(rows.len() >= 15, "{} rows", rows.len());
    let (judged, median, worst, _) = crate::memory::published::judge(&rows).unwrap();
    for j in &judged {
        eprintln!(
            "{:<40} {:>14} {:>14} {:+6.2} %",
            j.id, j.measured.0, j.derived.0, j.error_pct
        );
    }
    eprintln!("all rows: median {median:.2} % worst {worst:.2} %");
    // Full fine-tuning and LoRA meet the goals (5 % median, 10 % worst).
    let plain: Vec<_> = rows
        .iter()
        .zip(&judged)
        .filter(|(_, j)| !j.qlora)
        .map(|(r, _)| r.clone())
        .collect();
    let (_, median, worst, _) = crate::memory::published::judge(&plain).unwrap();
    assert!(median <= 5.0, "median {median:.2} %");
    assert!(worst <= 10.0, "worst {worst:.2} %");
    // QLoRA through bitsandbytes holds more per token than the derivation accounts for (an
    // open gap, data/docs/memory.md): every such row is under-estimated, by less than a third.
    for j in judged.iter().filter(|j| j.qlora) {
        assert!(
            (-35.0..0.0).contains(&j.error_pct),
            "{} {:+.2} %",
            j.id,
            j.error_pct
        );
    }
}

#[test]
fn hand_counts() {
    // Mistral-7B, pure bf16, full fine-tuning with foreach AdamW: the step holds weights,
    // gradients and both moments at 2 bytes plus the foreach temporary: 10 bytes a parameter.
    let mut model = crate::memory::models::preset("mistral-7b").unwrap();
    model.batch = 1;
    model.seq_len = 512;
    let step = CudaStep {
        model: model.clone(),
        recipe: Recipe::Pure16,
        kernel: Kernel::Fused,
        loss: LossPath::PadLabels,
        lora: None,
        optimizer: Optimizer {
            state_bytes: 4.0,
            update: Update::Foreach,
            moments: 2,
        },
        checkpointing: false,
    };
    let p = step.peaks();
    assert_eq!(p.peak_at, PeakAt::Step);
    assert_eq!(p.allocated.0, 10 * model.param_count());
    // Fused AdamW drops the temporary: 8 bytes a parameter at the step, so the backward's
    // start (the head's gradient beside the activations) may now be the higher point.
    let fused = CudaStep {
        optimizer: Optimizer {
            update: Update::Fused,
            ..step.optimizer
        },
        ..step.clone()
    };
    let fused = fused.peaks().allocated.0 as f64 / model.param_count() as f64;
    assert!((8.0..8.1).contains(&fused), "{fused} bytes a parameter");
    // Eager attention keeps s×s scores; the fused kernel never does.
    let long = |kernel| {
        let mut m = model.clone();
        m.seq_len = 4096;
        CudaStep {
            model: m,
            kernel,
            lora: Some(Adapters {
                rank: 8,
                targets: Projections::parse("qv").unwrap(),
                dropout: false,
            }),
            ..step.clone()
        }
        .peaks()
        .allocated
        .0
    };
    assert!(long(Kernel::Eager) > 2 * long(Kernel::Fused));
}

#[test]
fn targets_parse_and_refuse() {
    assert_eq!(
        Projections::parse("q,k,v,o").unwrap(),
        Projections::parse("attention").unwrap()
    );
    assert_eq!(
        Projections::parse("q_proj, v_proj").unwrap(),
        Projections::parse("qv").unwrap()
    );
    assert_eq!(Projections::parse("all-linear").unwrap(), Projections::ALL);
    assert!(Projections::parse("q,x").is_err());
    assert!(Projections::parse("").is_err());
    assert_eq!(LossPath::of_release("4.45.2").unwrap(), LossPath::ShiftCopy);
    assert_eq!(
        LossPath::of_release("4.48.1").unwrap(),
        LossPath::KeepLogits
    );
    assert_eq!(LossPath::of_release("5.0.0").unwrap(), LossPath::PadLabels);
    assert!(LossPath::of_release("latest").is_err());
}
