//! Tests of `sgemm.rs`, kept apart so the module reads as code.
use super::*;

fn reference(m: usize, k: usize, n: usize, a: &MatRef, b: &MatRef) -> Vec<f64> {
    let mut c = vec![0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k)
                .map(|p| a.data[i * a.rs + p * a.cs] as f64 * b.data[p * b.rs + j * b.cs] as f64)
                .sum();
        }
    }
    c
}

fn values(len: usize, seed: u32) -> Vec<f32> {
    // A small LCG: deterministic, non-zero, mixed signs.
    let mut s = seed.wrapping_mul(2654435761).wrapping_add(1);
    (0..len)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        })
        .collect()
}

/// Every kernel this CPU runs, after saying which are skipped. A skip is never silent, and
/// where `GPULAB_REQUIRE_AVX2` / `GPULAB_REQUIRE_AVX512` is set (`.ci/run` sets the first on
/// every machine, the second where the CPU has AVX-512F/VL) it is a failure, so a green CI run
/// means each kernel the machine can run was tested.
fn cpus() -> Vec<Isa> {
    let mut out = Vec::new();
    match Avx2Fma::detect() {
        Some(cpu) => out.push(Isa::Avx2(cpu)),
        None => {
            assert!(
                std::env::var_os("GPULAB_REQUIRE_AVX2").is_none(),
                "GPULAB_REQUIRE_AVX2 is set but this CPU lacks AVX2/FMA: the kernel tests cannot run"
            );
            eprintln!("skipped: no AVX2/FMA on this CPU (the AVX2 kernel is not tested here)");
        }
    }
    match Avx512::detect() {
        Some(cpu) => out.push(Isa::Avx512(cpu)),
        None => {
            assert!(
                std::env::var_os("GPULAB_REQUIRE_AVX512").is_none(),
                "GPULAB_REQUIRE_AVX512 is set but this CPU lacks AVX-512F/VL: the AVX-512 kernel tests cannot run"
            );
            eprintln!(
                "skipped: no AVX-512F/VL on this CPU (the AVX-512 kernel is not tested here)"
            );
        }
    }
    out
}

fn check(
    cpu: Isa,
    m: usize,
    k: usize,
    n: usize,
    transpose_a: bool,
    transpose_b: bool,
    threads: usize,
) {
    let (ad, bd) = (values(m * k, 1), values(k * n, 2));
    // A rows×cols view of row-major data, or of its transpose's (column-major) storage.
    let view = |data, rows, cols, transposed: bool| {
        let (rs, cs) = if transposed { (1, rows) } else { (cols, 1) };
        MatRef { data, rs, cs }
    };
    let a = view(&ad, m, k, transpose_a);
    let b = view(&bd, k, n, transpose_b);
    let got = cpu.matmul(m, k, n, a, b, threads).unwrap();
    let want = reference(m, k, n, &a, &b);
    assert_eq!(got.len(), m * n);
    for (idx, (g, w)) in got.iter().zip(&want).enumerate() {
        let tol = 1e-5 * (k as f64).sqrt().max(1.0);
        assert!(
            (*g as f64 - w).abs() <= tol,
            "{:?} {m}×{k}×{n} (tA {transpose_a}, tB {transpose_b}, {threads} thr) at {idx}: {g} vs {w}",
            cpu.name()
        );
    }
}

#[test]
fn matches_f64_reference_on_ragged_shapes() {
    for cpu in cpus() {
        ragged_shapes(cpu);
    }
}

fn ragged_shapes(cpu: Isa) {
    for &(m, k, n) in &[
        (1, 1, 1),
        (6, 16, 16),
        (12, 32, 32),
        (12, 256, 512),
        (13, 257, 545),
        (7, 300, 17),
        (13, 513, 33),
        (9, 769, 20),
        (150, 260, 40),
        (5, 3, 300),
        (200, 600, 4100),
    ] {
        for threads in [1, 2, 3] {
            check(cpu, m, k, n, false, false, threads);
        }
    }
    check(cpu, 37, 70, 29, true, false, 2);
    check(cpu, 37, 70, 29, false, true, 2);
    check(cpu, 37, 70, 29, true, true, 1);
}

#[test]
fn concurrent_calls_each_get_their_own_product() {
    // Several products at once: one gets the pool and the shared packed-B buffer, the others
    // fall back to scoped threads and a fresh buffer; block-by-block waits must not mix them.
    for cpu in cpus() {
        concurrent(cpu);
    }
}

fn concurrent(cpu: Isa) {
    std::thread::scope(|s| {
        for (i, threads) in [2, 3, 2, 1].into_iter().enumerate() {
            s.spawn(move || {
                check(
                    cpu,
                    40 + 7 * i,
                    800 + 50 * i,
                    90 + 16 * i,
                    false,
                    false,
                    threads,
                )
            });
        }
    });
}

#[test]
fn empty_and_short_inputs() {
    for cpu in cpus() {
        empty_and_short(cpu);
    }
}

fn empty_and_short(cpu: Isa) {
    let a = [1.0f32; 6];
    let view = MatRef {
        data: &a,
        rs: 3,
        cs: 1,
    };
    assert_eq!(cpu.matmul(2, 0, 3, view, view, 1).unwrap(), vec![0.0; 6]);
    let b = MatRef {
        data: &a,
        rs: 2,
        cs: 1,
    };
    assert!(cpu.matmul(0, 3, 2, view, b, 1).unwrap().is_empty());
    let err = cpu.matmul(3, 3, 3, view, view, 1).unwrap_err();
    assert!(err.to_string().contains("holds only 6"), "{err}");
}

#[test]
fn split_covers_c_once_in_whole_tiles() {
    for &(m, n, k, t) in &[
        (1024, 1024, 1024, 2),
        (7, 5000, 64, 4),
        (100, 3, 100, 8),
        (8, 8, 8, 2),
    ] {
        for (mr, nr) in [(6, 16), (12, 32)] {
            let parts = split(m, n, k, t, mr, nr);
            assert!(parts.len() <= t);
            let area: usize = parts.iter().map(|&(a, b, c, d)| (b - a) * (d - c)).sum();
            assert_eq!(area, m * n, "{m}×{n} on {t}: {parts:?}");
            for &(m0, _, n0, _) in &parts {
                assert!(m0 % mr == 0 && n0 % nr == 0, "whole tiles: {parts:?}");
            }
        }
    }
    assert_eq!(
        split(8, 8, 8, 2, 6, 16).len(),
        1,
        "tiny products stay on one thread"
    );
    assert_eq!(split(1024, 1024, 1024, 2, 12, 32).len(), 2);
}

#[test]
fn sizes_that_cannot_be_addressed_are_an_error_not_a_wild_write() {
    for cpu in cpus() {
        unaddressable(cpu);
    }
}

fn unaddressable(cpu: Isa) {
    // A stride-0 view of one value passes the view check for any size; m·n wrapped to a tiny C
    // before, and the kernel stored through address 0x4.
    let one = [1.0f32];
    let view = MatRef {
        data: &one,
        rs: 0,
        cs: 0,
    };
    let err = cpu.matmul(1 << 60, 1, 16, view, view, 1).unwrap_err();
    assert!(format!("{err:?}").contains("too large"), "{err:?}");
    let err = cpu
        .matmul(1, usize::MAX / 2, 16, view, view, 1)
        .unwrap_err();
    assert!(format!("{err:?}").contains("too large"), "{err:?}");
}

/// A view of `rows`×`cols` over fresh data: row-major, its transpose's storage, or row-major
/// with padded rows (`pad` extra elements per row, the layout of a slice of a wider matrix).
fn strided(
    rows: usize,
    cols: usize,
    layout: u8,
    pad: usize,
    seed: u32,
) -> (Vec<f32>, usize, usize) {
    match layout % 3 {
        0 => (values(rows * cols, seed), cols, 1),
        1 => (values(rows * cols, seed), 1, rows.max(1)),
        _ => (values(rows * (cols + pad), seed), cols + pad, 1),
    }
}

proptest::proptest! {
    // 48 cases in `cargo test`; PROPTEST_CASES raises it for a long run (README).
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48),
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]
    /// Each kernel against an f64 reference over random shapes (edges of every tile and block
    /// size included), transposed and strided views, and thread counts up to more threads than
    /// parts.
    #[test]
    fn kernel_matches_f64_reference(
        m in 1usize..80,
        k in 1usize..900,
        n in 1usize..90,
        la in 0u8..3,
        lb in 0u8..3,
        pad in 1usize..9,
        threads in 1usize..9,
    ) {
        let (ad, ars, acs) = strided(m, k, la, pad, 11);
        let (bd, brs, bcs) = strided(k, n, lb, pad, 12);
        let a = MatRef { data: &ad, rs: ars, cs: acs };
        let b = MatRef { data: &bd, rs: brs, cs: bcs };
        let want = reference(m, k, n, &a, &b);
        let tol = 1e-5 * (k as f64).sqrt().max(1.0);
        for cpu in cpus() {
            let got = cpu.matmul(m, k, n, a, b, threads).unwrap();
            for (idx, (g, w)) in got.iter().zip(&want).enumerate() {
                proptest::prop_assert!(
                    (*g as f64 - w).abs() <= tol, "{:?} at {}: {} vs {}", cpu.name(), idx, g, w
                );
            }
        }
    }
}

#[test]
fn a_poisoned_packed_b_lock_is_taken_back() {
    let Some(&cpu) = cpus().first() else { return };
    // Poison the lock the way a panicking call would.
    let _ = std::thread::spawn(|| {
        let _guard = PACKED_B.lock().unwrap();
        panic!("poison the packed-B lock on purpose");
    })
    .join();
    check(cpu, 30, 500, 40, false, false, 2);
    assert!(
        !PACKED_B.is_poisoned(),
        "the next call clears the poison and reuses the buffer"
    );
}
