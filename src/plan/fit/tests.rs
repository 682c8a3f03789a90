//! Tests of `fit.rs`, kept apart so the module reads as code.
use super::*;
use crate::plan::lessons::{find, shipped};

fn fixed_targets() -> Vec<Target> {
    let catalog = Catalog::shipped();
    let mut t = vec![Target {
        name: "cpu".into(),
        memory: Bytes(16 << 30),
        gpu: false,
        price: (0.0, 0.0),
        rates: crate::plan::timing::Rates {
            measured_f32: vec![(128.0, 40.0), (512.0, 100.0)],
            peak_f32: 150.0,
            peak_half: 150.0,
            large_fraction: 1.0,
            bandwidth_gbs: 20.0,
            elementwise_gbs: 15.0,
            step_floor_s: crate::plan::timing::CPU_STEP_FLOOR_S,
            source: "fixed for the test".into(),
        },
        gpu_id: None,
    }];
    t.extend(Target::cloud(&catalog));
    t
}

#[test]
fn small_lessons_stay_on_the_cpu() {
    let w = shipped();
    let v = judge(
        find(&w, "03-deep-learning-core/11-intro-to-pytorch").unwrap(),
        &fixed_targets(),
    );
    assert!(v.cells.iter().all(|c| c.fits));
    assert!(
        v.recommendation.starts_with("this CPU"),
        "{}",
        v.recommendation
    );
    // 6·P per sample · 64 · 46900 steps = 4.2 TFLOP → at 30 GFLOP/s about 2.4 minutes.
    assert!((v.flops - 6.0 * 235_146.0 * 64.0 * 46_900.0).abs() < 1.0);
}

#[test]
fn numpy_lessons_cannot_use_a_gpu() {
    let w = shipped();
    let v = judge(
        find(&w, "10-llms-from-scratch/04-pre-training-mini-gpt").unwrap(),
        &fixed_targets(),
    );
    assert!(v.cells.iter().skip(1).all(|c| !c.runnable));
    assert!(v.cells[0].fits);
}

#[test]
fn full_fine_tune_of_8b_needs_several_gpus_and_qlora_fits_a_t4() {
    let w = shipped();
    let full = judge(
        find(&w, "recipe/full-ft-llama3-8b").unwrap(),
        &fixed_targets(),
    );
    // 8B × (2 + 2 + 12) = 128 GB of model states: no single GPU here.
    assert!(full.cells.iter().all(|c| !c.fits));
    assert!(full
        .multi_gpu
        .as_ref()
        .unwrap()
        .summary()
        .contains("ZeRO-3"));
    let qlora = judge(
        find(&w, "recipe/qlora-llama3-8b").unwrap(),
        &fixed_targets(),
    );
    let t4 = qlora
        .cells
        .iter()
        .find(|c| c.target.starts_with("T4"))
        .unwrap();
    assert!(t4.fits, "{:?}", qlora.memory);
    // QLoRA quantizes the blocks' linears only: Llama-3 8B's embeddings and head (2 × 128,256 ×
    // 4,096 = 1.05 B parameters) are left to peft's preparation, which keeps them fp32: 4.2 GB
    // that NF4's rate for every parameter (0.52 B) would put at 0.54 GB.
    let model = crate::memory::models::preset("llama-3-8b").unwrap();
    let linear = model.block_linear_params();
    let sixteen_bit = (model.base_param_count() - linear) as f64;
    assert!((1.0e9..1.1e9).contains(&sixteen_bit), "{sixteen_bit}");
    let adapters = qlora.memory.weights.0 as f64 - 4.0 * sixteen_bit - model.nf4_bytes() as f64;
    assert!((0.0..1e8).contains(&adapters), "{:?}", qlora.memory);
    // The doc says 12 h on a T4; the model's estimate must be within a factor of 2.
    assert!((6.0..24.0).contains(&t4.hours), "{}", t4.hours);
}

#[test]
fn the_table_has_a_row_per_workload() {
    let w = shipped();
    let verdicts: Vec<Verdict> = w.iter().map(|w| judge(w, &fixed_targets())).collect();
    let t = table(&verdicts);
    assert_eq!(t.rows.len(), w.len());
    assert_eq!(t.header.len(), 2 + 5 + 1);
}

#[test]
fn a_verdict_names_its_target_from_an_older_reports_sentence_too() {
    let w = shipped();
    let mut v = judge(
        find(&w, "03-deep-learning-core/11-intro-to-pytorch").unwrap(),
        &fixed_targets(),
    );
    assert_eq!(v.target(), v.recommended);
    // As a report written before the name was kept reads: only the English sentence.
    v.by_target = false;
    v.recommended = None;
    v.recommendation = "cpu, slowly (3.0h)".into();
    assert_eq!(v.target().as_deref(), Some("cpu"));
    v.recommendation = "no single GPU: see the multi-GPU plan".into();
    assert_eq!(v.target(), None);
}

#[test]
fn a_tiny_gpu_step_is_the_floor_and_a_big_one_is_compute() {
    let w = crate::plan::lessons::shipped();
    let mnist =
        crate::plan::lessons::find(&w, "03-deep-learning-core/11-intro-to-pytorch").unwrap();
    let mem = crate::plan::fit::memory(mnist);
    let t4 = crate::plan::timing::Rates::gpu(8.1, 65.0, 320.0, "datasheet".into());
    let s = crate::plan::timing::step_time(mnist, &mem, crate::plan::fit::flops(mnist), &t4, false);
    assert_eq!(s.bound, "overhead", "{s:?}");
    assert!((s.total_s - (s.compute_s + s.memory_s + s.floor_s)).abs() < 1e-12);
    // An 8 B model's step is its products (QLoRA's: a few GiB of activations beside them).
    let qlora = crate::plan::lessons::find(&w, "recipe/qlora-llama3-8b").unwrap();
    let mem = crate::plan::fit::memory(qlora);
    let a100 = crate::plan::timing::Rates::gpu(19.5, 312.0, 2039.0, "datasheet".into());
    let s =
        crate::plan::timing::step_time(qlora, &mem, crate::plan::fit::flops(qlora), &a100, true);
    assert_eq!(s.bound, "compute", "{s:?}");
    // GPT-125M at batch 32 × 1024 tokens holds ~90 GiB of measured activations (logits of a
    // 50k vocabulary included): their element-wise traffic outweighs its products.
    let gpt = crate::plan::lessons::find(&w, "recipe/gpt-125m-pretrain").unwrap();
    let mem = crate::plan::fit::memory(gpt);
    let s = crate::plan::timing::step_time(gpt, &mem, crate::plan::fit::flops(gpt), &a100, true);
    assert_eq!(s.bound, "memory", "{s:?}");
    assert!(crate::plan::timing::steps(gpt) > 1000.0);
}
