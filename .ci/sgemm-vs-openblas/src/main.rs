//! Times gpulab's f32 matmul (`gpulab::bench::sgemm::matmul`) against OpenBLAS's `sgemm` from the
//! library numpy ships, alternating call by call in one process, so both see the same machine
//! state (a shared VM drifts by 10-30 % within seconds; separate processes compare different
//! moments). Usage: sgemm-vs-openblas LIBOPENBLAS THREADS PAIRS N [N ...]
use gpulab::stats::Summary;
use std::ffi::{c_void, CString};
use std::time::{Duration, Instant};

#[link(name = "dl")]
extern "C" {
    fn dlopen(file: *const i8, flag: i32) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const i8) -> *mut c_void;
}

/// cblas_sgemm of an ILP64 OpenBLAS (64-bit integers), as numpy's scipy-openblas exports it.
type CblasSgemm64 = unsafe extern "C" fn(
    i32,
    i32,
    i32,
    i64,
    i64,
    i64,
    f32,
    *const f32,
    i64,
    *const f32,
    i64,
    f32,
    *mut f32,
    i64,
);
type SetThreads = unsafe extern "C" fn(i32);

const RTLD_NOW: i32 = 2;
const ROW_MAJOR: i32 = 101;
const NO_TRANS: i32 = 111;

fn symbol(lib: *mut c_void, names: &[&str]) -> Result<*mut c_void, String> {
    for name in names {
        let c = CString::new(*name).map_err(|e| e.to_string())?;
        // SAFETY: `lib` is a live handle from dlopen; `c` is NUL-terminated.
        let p = unsafe { dlsym(lib, c.as_ptr()) };
        if !p.is_null() {
            return Ok(p);
        }
    }
    Err(format!(
        "none of {names:?} in the library (not numpy's scipy-openblas?)"
    ))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 4 {
        return Err("usage: sgemm-vs-openblas LIBOPENBLAS THREADS PAIRS N [N ...]".into());
    }
    let num = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let (threads, pairs) = (num(&args[1])?.max(1), num(&args[2])?.max(1));
    let path = CString::new(args[0].as_str()).map_err(|e| e.to_string())?;
    // SAFETY: dlopen with a NUL-terminated path; a null result is handled.
    let lib = unsafe { dlopen(path.as_ptr(), RTLD_NOW) };
    if lib.is_null() {
        return Err(format!("cannot dlopen {}", args[0]));
    }
    // SAFETY: the symbols have these C signatures in scipy-openblas (ILP64, suffix 64_).
    let sgemm: CblasSgemm64 =
        unsafe { std::mem::transmute(symbol(lib, &["scipy_cblas_sgemm64_", "cblas_sgemm64_"])?) };
    let set_threads: SetThreads = unsafe {
        std::mem::transmute(symbol(
            lib,
            &[
                "scipy_openblas_set_num_threads64_",
                "openblas_set_num_threads64_",
            ],
        )?)
    };
    // SAFETY: plain call into OpenBLAS.
    unsafe { set_threads(threads as i32) };
    // Between calls both sides' idle threads must be asleep, or the one that just ran still
    // spins on a vCPU the other needs (OPENBLAS_THREAD_TIMEOUT=4 is set by the script; gpulab's
    // workers sleep after 2 ms): pause 5 ms before each timed call when threads > 1.
    let pause = if threads > 1 {
        Duration::from_millis(5)
    } else {
        Duration::ZERO
    };
    // The kernel `bench` picks by default on this CPU (AVX-512 where it has it, else AVX2).
    let cpu = gpulab::bench::sgemm::Isa::best().ok_or("this CPU lacks AVX2/FMA".to_string())?;
    println!(
        "gpulab kernel {} vs OpenBLAS ({}), {threads} thread(s), {pairs} alternating pairs per size",
        cpu.name().name(),
        args[0]
    );
    for n_arg in &args[3..] {
        let n = num(n_arg)?;
        let a: Vec<f32> = (0..n * n)
            .map(|i| ((i * 7919) % 1000) as f32 / 1000.0 - 0.5)
            .collect();
        let b: Vec<f32> = (0..n * n)
            .map(|i| ((i * 104_729) % 997) as f32 / 997.0 - 0.5)
            .collect();
        let view = |data| gpulab::bench::sgemm::MatRef { data, rs: n, cs: 1 };
        let ours = || {
            cpu.matmul(n, n, n, view(&a), view(&b), threads).map_err(|e| e.to_string())
        };
        let theirs = || {
            // Uninitialised like gpulab's output and numpy's (beta = 0: OpenBLAS writes all of C).
            let mut c: Vec<f32> = Vec::with_capacity(n * n);
            let ni = n as i64;
            // SAFETY: a, b are n×n row-major; c has room for n×n and is fully written.
            unsafe {
                sgemm(
                    ROW_MAJOR,
                    NO_TRANS,
                    NO_TRANS,
                    ni,
                    ni,
                    ni,
                    1.0,
                    a.as_ptr(),
                    ni,
                    b.as_ptr(),
                    ni,
                    0.0,
                    c.as_mut_ptr(),
                    ni,
                );
                c.set_len(n * n);
            }
            c
        };
        // Same answer first (both are f32 sums in different orders: compare relative to scale).
        let (x, y) = (ours()?, theirs());
        let scale = y.iter().fold(0f32, |m, v| m.max(v.abs())).max(1e-30);
        let diff = x
            .iter()
            .zip(&y)
            .fold(0f32, |m, (p, q)| m.max((p - q).abs()))
            / scale;
        if diff > 1e-4 {
            return Err(format!(
                "n={n}: results differ by {diff:e} of the largest value"
            ));
        }
        for _ in 0..2 {
            ours()?;
            theirs();
        }
        let (mut t_ours, mut t_theirs, mut ratio) = (vec![], vec![], vec![]);
        for i in 0..pairs {
            let time = |ours_turn: bool| -> Result<f64, String> {
                std::thread::sleep(pause);
                let t = Instant::now();
                if ours_turn {
                    std::hint::black_box(ours()?);
                } else {
                    std::hint::black_box(theirs());
                }
                Ok(t.elapsed().as_secs_f64())
            };
            // Alternate which goes first, so neither always runs on the warmer machine.
            let (o, t) = if i % 2 == 0 {
                let o = time(true)?;
                (o, time(false)?)
            } else {
                let t = time(false)?;
                (time(true)?, t)
            };
            t_ours.push(o);
            t_theirs.push(t);
            ratio.push(t / o);
        }
        // gpulab's own statistics (the bench's medians), not a second median here.
        let summary = |v: &[f64]| Summary::of(v).ok_or(format!("n={n}: a timing was not finite"));
        let (o, t, r) = (summary(&t_ours)?, summary(&t_theirs)?, summary(&ratio)?);
        let gf = |s: f64| 2.0 * (n as f64).powi(3) / s / 1e9;
        println!(
            "n={n:5}: gpulab {:6.1} GFLOP/s (best {:6.1}) | OpenBLAS {:6.1} (best {:6.1}) | median pair ratio gpulab/OpenBLAS {:.3} | max diff {diff:.1e}",
            gf(o.median), gf(o.min), gf(t.median), gf(t.min), r.median
        );
    }
    Ok(())
}
