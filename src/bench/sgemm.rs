//! gpulab's own f32 matrix multiply for x86-64 CPUs that have AVX2 and FMA but not AVX-512.
//!
//! Why it exists: the CPU number is the baseline of every speedup `bench` prints, so it must be
//! as fast as the CPU allows. Candle's CPU matmul goes through the `gemm` crate; with AVX-512 its
//! kernels match OpenBLAS, but on AVX2-only CPUs (most laptops, AMD Zen 2/3 servers) it runs at
//! ~0.7–0.8× of numpy's OpenBLAS (measured side by side by `.ci/bench-vs-numpy`). This module is
//! the classic BLIS/GotoBLAS design, nothing exotic:
//!
//! - a 6×16 register tile (12 of the 16 ymm registers hold C; one k step is 2 loads of B,
//!   6 broadcasts of A and 12 FMAs, so the two FMA pipes never wait on the load ports);
//! - A and B packed into contiguous, 32-byte-aligned micro-panels, so the inner loop reads memory
//!   strictly sequentially (the hardware prefetcher then hides every miss);
//! - cache blocking: a 6×KC micro-panel of A (9 KiB) stays in L1 while the kernel walks along a
//!   strip of C's rows, streaming KC×NR slivers of B from the KC-deep packed block of B in L3;
//!   the MC×KC block of A (216 KiB) sits in L2;
//! - B is packed once, block by KC-deep block, by all threads together; each thread multiplies
//!   its own rectangle of C by a block as soon as the block is complete (no locks, no shared
//!   writes), on `pool`'s persistent threads, as many as Candle would use
//!   (`--threads`/`RAYON_NUM_THREADS`).
//!
//! `cpu_kernel_default` decides when to use it; `Sgemm` plugs it into Candle as a custom op so the
//! bench still works on Candle tensors.
//!
//! One file on purpose (~670 lines): the unsafe kernel, the packing and the invariants their
//! SAFETY notes rely on must be read together.
#![allow(unsafe_code)] // SIMD intrinsics and raw pointers into disjoint tiles of C; see SAFETY notes.

mod pool;

use candle_core::{CpuStorage, CustomOp2, Layout, Shape};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Rows of C in one register tile.
const MR: usize = 6;
/// Columns of C in one register tile (two 8-float ymm vectors).
const NR: usize = 16;
/// Depth of one packed block. Deeper blocks mean fewer passes over C (each reads and writes
/// it); the 6×KC panel of A (9 KiB) must stay in a 32 KiB L1d beside the streaming B. Side by
/// side with OpenBLAS on Zen 3: 384 and 512 best, 256 2-4 % slower, 128 5-9 % slower.
const KC: usize = 384;
/// Rows of A packed at once: MC×KC×4 = 216 KiB, inside a 512 KiB L2.
const MC: usize = 144;

/// Proof that this CPU has AVX2 and FMA: only `Avx2Fma::detect` makes one, and every safe
/// function that ends in the kernel's intrinsics (`matmul`, the packing) takes one, so none of
/// them relies on a check made somewhere else.
#[derive(Debug, Clone, Copy)]
pub struct Avx2Fma(());

impl Avx2Fma {
    /// The token, when this CPU has AVX2 and FMA (checked at run time, so one binary serves
    /// every x86-64 machine).
    pub fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            let yes = std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma");
            yes.then_some(Avx2Fma(()))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }
}

/// True when this CPU can run the kernel.
pub fn available() -> bool {
    Avx2Fma::detect().is_some()
}

/// Which implementation runs the CPU's f32 matmul in `bench`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CpuKernel {
    /// Candle's own matmul (the `gemm` crate; AVX-512 kernels where the CPU has them).
    Candle,
    /// This module's AVX2+FMA kernel.
    GpulabAvx2,
}

impl CpuKernel {
    /// Short name used in tables, JSON and `--cpu-kernel`.
    pub fn name(self) -> &'static str {
        match self {
            CpuKernel::Candle => "candle",
            CpuKernel::GpulabAvx2 => "gpulab-avx2",
        }
    }
}

/// The kernel `bench` uses unless told otherwise: ours where the CPU has AVX2+FMA but no AVX-512F
/// (there `gemm` only has its AVX2 kernel, the slow case), Candle's everywhere else — with
/// AVX-512, gemm's `x86-v4` kernels (which gpulab turns on) are faster than any AVX2 code can be.
pub fn cpu_kernel_default() -> CpuKernel {
    #[cfg(target_arch = "x86_64")]
    {
        if available() && !std::arch::is_x86_feature_detected!("avx512f") {
            return CpuKernel::GpulabAvx2;
        }
    }
    CpuKernel::Candle
}

/// A read-only matrix view: element (i, j) is `data[i * rs + j * cs]`.
#[derive(Clone, Copy)]
pub struct MatRef<'a> {
    /// The backing slice.
    pub data: &'a [f32],
    /// Row stride, in elements.
    pub rs: usize,
    /// Column stride, in elements.
    pub cs: usize,
}

/// Error from `matmul` when a view does not hold the elements its shape and strides claim.
#[derive(Debug, thiserror::Error)]
#[error("sgemm: {0}")]
pub struct SgemmError(String);

fn check_view(name: &str, v: &MatRef, rows: usize, cols: usize) -> Result<(), SgemmError> {
    if rows == 0 || cols == 0 {
        return Ok(());
    }
    let last = (rows - 1)
        .checked_mul(v.rs)
        .and_then(|r| (cols - 1).checked_mul(v.cs).and_then(|c| r.checked_add(c)));
    match last {
        Some(last) if last < v.data.len() => Ok(()),
        _ => Err(SgemmError(format!(
            "{name} is {rows}×{cols} with strides ({}, {}) but holds only {} elements",
            v.rs,
            v.cs,
            v.data.len()
        ))),
    }
}

/// C = A·B for A m×k and B k×n, returned row-major (m×n), computed on `threads` threads. Errors
/// on views too short for their shape and on sizes that cannot be addressed.
pub fn matmul(
    cpu: Avx2Fma,
    m: usize,
    k: usize,
    n: usize,
    a: MatRef,
    b: MatRef,
    threads: usize,
) -> Result<Vec<f32>, SgemmError> {
    check_view("A", &a, m, k)?;
    check_view("B", &b, k, n)?;
    // Sizes are checked, not wrapped: a product whose C or packed B cannot be addressed is an
    // error, never a short buffer the kernel would write past.
    let too_big = || SgemmError(format!("{m}×{k}×{n} is too large to address"));
    let c_len = m.checked_mul(n).ok_or_else(too_big)?;
    let n_pad = n.checked_next_multiple_of(NR).ok_or_else(too_big)?;
    let b_len = k.checked_mul(n_pad).ok_or_else(too_big)?;
    if c_len.max(b_len) > isize::MAX as usize / std::mem::size_of::<f32>() {
        return Err(too_big());
    }
    if m == 0 || n == 0 || k == 0 {
        return Ok(vec![0f32; c_len]);
    }
    let threads = threads.max(1);

    // B is packed once, shared by every thread (packing it per thread cost 3 % of the run time
    // on 2 threads, seen with perf; OpenBLAS shares it too), into a buffer reused between calls
    // unless another call holds it, so its pages are not faulted in every time.
    // A poisoned lock only means an earlier call panicked while holding the buffer; its contents
    // are scratch that is overwritten before it is read, so the buffer is taken back (and the
    // poison cleared) rather than silently skipped for every later call.
    let mut cached = match PACKED_B.try_lock() {
        Ok(guard) => Some(guard),
        Err(std::sync::TryLockError::Poisoned(poisoned)) => {
            PACKED_B.clear_poison();
            Some(poisoned.into_inner())
        }
        Err(std::sync::TryLockError::WouldBlock) => None,
    };
    let mut fresh = Vec::new();
    let buf: &mut Vec<f32> = cached.as_deref_mut().unwrap_or(&mut fresh);
    let bpack = SendPtr(aligned(buf, b_len).as_mut_ptr());
    // C is not zeroed first: the first KC block stores every element without reading it
    // (zeroing cost ~1.5 %, seen with perf).
    let mut c: Vec<f32> = Vec::with_capacity(c_len);
    let c_ptr = SendPtr(c.as_mut_ptr());
    let parts = split(m, n, k, threads);
    let width = parts.len();
    let blocks = k.div_ceil(KC);
    // One dispatch, block by block: every thread packs its share of KC-deep block q of B, waits
    // until all shares are in, then multiplies its rectangle of C by that block. A thread that
    // finishes block q early packs its share of q+1 while the others still compute, and each
    // block is read while it is still in cache; packing all of B first, in its own dispatch,
    // left both threads idle behind the slower one twice per call.
    let packed: Vec<AtomicUsize> = (0..blocks).map(|_| AtomicUsize::new(0)).collect();
    let failed = AtomicBool::new(false);
    let jobs = pack_jobs(n_pad);
    let work = |me: usize| {
        // A panicking thread must not leave the others waiting for its share forever.
        let guard = FailFlag(&failed);
        for (q, done) in packed.iter().enumerate() {
            let (pc, kc) = (q * KC, KC.min(k - q * KC));
            let block = q * KC * n_pad;
            for job in (me..jobs).step_by(width) {
                let jc = job * PANELS_PER_PACK * NR;
                let len = (n_pad - jc).min(PANELS_PER_PACK * NR) * kc;
                // SAFETY: job `job` of block q owns floats [block + jc·kc, +len) of the packed
                // buffer (k×n_pad floats): no other job writes them, nobody reads them until
                // `done` counts this job.
                let dst = unsafe {
                    std::slice::from_raw_parts_mut(bpack.get().add(block + jc * kc), len)
                };
                pack_b(cpu, &b, pc, kc, jc, n, dst);
                done.fetch_add(1, Ordering::Release);
            }
            while done.load(Ordering::Acquire) < jobs {
                if failed.load(Ordering::Relaxed) {
                    return;
                }
                std::hint::spin_loop();
            }
            if let Some(&(m0, m1, n0, n1)) = parts.get(me) {
                // SAFETY: every job of block q has been counted, so its kc×n_pad floats are
                // written and no longer written to. The rectangles from `split` are disjoint
                // and inside the m×n buffer that outlives this call.
                unsafe {
                    let bblock = std::slice::from_raw_parts(bpack.get().add(block), kc * n_pad);
                    gemm_block(cpu, pc, kc, n, &a, bblock, c_ptr.get(), m0, m1, n0, n1)
                };
            }
        }
        std::mem::forget(guard);
    };
    pool::run(width, &work);
    // SAFETY: the rectangles cover all m×n elements (`split`) and the first KC block
    // (`accumulate == false`) writes each of them before anything reads it.
    unsafe { c.set_len(c_len) };
    if buf.capacity() > KEEP_PACKED_B {
        *buf = Vec::new();
    }
    Ok(c)
}

/// Jobs that pack one KC-deep block of B (the same for every block): PANELS_PER_PACK panels
/// each, so a job stays small.
fn pack_jobs(n_pad: usize) -> usize {
    (n_pad / NR).div_ceil(PANELS_PER_PACK)
}

/// Raises the flag if dropped during a panic (the normal path forgets it).
struct FailFlag<'a>(&'a AtomicBool);

impl Drop for FailFlag<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Packed B kept between calls (see `matmul`), up to `KEEP_PACKED_B` floats (64 MiB: a 4096²
/// B); bigger ones are freed after the call.
static PACKED_B: std::sync::Mutex<Vec<f32>> = std::sync::Mutex::new(Vec::new());
const KEEP_PACKED_B: usize = 16 << 20;

/// Raw pointer to C that may cross threads (the rectangles written through it are disjoint).
#[derive(Clone, Copy)]
struct SendPtr(*mut f32);

impl SendPtr {
    /// Through a method, so closures capture the `Sync` wrapper, not the bare pointer field.
    fn get(self) -> *mut f32 {
        self.0
    }
}
// SAFETY: see `matmul`: each thread writes only its own rectangle of C.
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

/// Splits C into at most `threads` rectangles along the dimension with more register tiles, in
/// whole tiles, so no thread gets a ragged share. Small products stay on one thread: below ~2
/// MFLOP per part, waking a thread costs more than it saves.
fn split(m: usize, n: usize, k: usize, threads: usize) -> Vec<(usize, usize, usize, usize)> {
    let flops = 2.0 * m as f64 * n as f64 * k as f64;
    let by_work = ((flops / 2e6) as usize).max(1);
    let (m_tiles, n_tiles) = (m.div_ceil(MR), n.div_ceil(NR));
    let along_m = m_tiles >= n_tiles;
    let tiles = if along_m { m_tiles } else { n_tiles };
    let parts = threads.min(tiles).min(by_work).max(1);
    (0..parts)
        .map(|p| {
            let (t0, t1) = (tiles * p / parts, tiles * (p + 1) / parts);
            if along_m {
                (t0 * MR, (t1 * MR).min(m), 0, n)
            } else {
                (0, m, t0 * NR, (t1 * NR).min(n))
            }
        })
        .collect()
}

thread_local! {
    /// Per-thread buffer for packed blocks of A (216 KiB), kept between calls.
    static PACK: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A 32-byte-aligned window of `len` floats inside `buf` (grown as needed).
fn aligned(buf: &mut Vec<f32>, len: usize) -> &mut [f32] {
    if buf.len() < len + 8 {
        buf.resize(len + 8, 0.0);
    }
    let offset = buf.as_ptr().align_offset(32);
    &mut buf[offset..offset + len]
}

/// Adds one KC-deep block to the rectangle C[m0..m1, n0..n1]: C += A[m0..m1, pc..pc+kc] ·
/// B[pc..pc+kc, n0..n1] (C row-major, row stride `ldc`; the first block, pc = 0, stores instead
/// of adding). The Goto loop nest: MC rows of A packed in turn, then register tiles along each
/// 6-row strip of C, so the strip's A panel stays in L1 while B's slivers stream past it.
///
/// # Safety
/// `c` must point to an m×ldc row-major buffer and no other thread may write this rectangle;
/// `a` must have been checked with `check_view`; `bblock` must be block pc of B as packed by
/// `matmul` (kc rows, NR-wide slivers); `n0` a multiple of NR.
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_block(
    cpu: Avx2Fma,
    pc: usize,
    kc: usize,
    ldc: usize,
    a: &MatRef,
    bblock: &[f32],
    c: *mut f32,
    m0: usize,
    m1: usize,
    n0: usize,
    n1: usize,
) {
    PACK.with(|abuf| {
        let abuf = &mut *abuf.borrow_mut();
        for ic in (m0..m1).step_by(MC) {
            let mc = MC.min(m1 - ic);
            let mc_pad = mc.div_ceil(MR) * MR;
            let apack = aligned(abuf, mc_pad * kc);
            pack_a(cpu, a, ic, mc, pc, kc, apack);
            // Along C's rows, not down its columns: consecutive tiles then sit 64 bytes apart.
            // Down a column, every tile's rows are a multiple of ldc×4 bytes apart, which for
            // power-of-two n lands all of them in the same two L1 sets, evicting the B sliver
            // the kernel is reading (4-6 % slower at n = 1024/2048, seen side by side with
            // OpenBLAS, which also walks along the rows).
            for ir in (0..mc).step_by(MR) {
                let mr = MR.min(mc - ir);
                let ap = apack[ir * kc..(ir + MR) * kc].as_ptr();
                for jr in (n0..n1).step_by(NR) {
                    let nr = NR.min(n1 - jr);
                    let bp = bblock[jr * kc..(jr + NR) * kc].as_ptr();
                    // SAFETY: C bounds forwarded from the caller; `cpu` proves AVX2+FMA.
                    unsafe {
                        let cp = c.add((ic + ir) * ldc + jr);
                        tile(kc, ap, bp, cp, ldc, mr, nr, pc > 0)
                    };
                }
            }
        }
    });
}

/// Panels of B packed by one task (8 × 16 columns = 512 bytes of each row).
const PANELS_PER_PACK: usize = 8;

/// Packs NR-wide micro-panels of B (as many as `dst` holds) for rows pc..pc+kc, from column jc
/// (of `n`): each panel kc rows of NR floats, zero-padded on the right so the kernel never needs
/// an edge case in its inner loop. Four panels at a time where B is row-major: 256 contiguous
/// bytes of each row feed four panels (one panel at a time read 64 bytes per row, each row on
/// another page; packing took 5.5 % of a 1024² product on 2 threads, four at a time 3.5-4 %).
/// More panels at once (8, or whole rows) was slower again: the stores, a panel (kc×64 bytes)
/// apart, alias in L1.
fn pack_b(cpu: Avx2Fma, b: &MatRef, pc: usize, kc: usize, jc: usize, n: usize, dst: &mut [f32]) {
    let _ = cpu; // the token is the precondition of the AVX2 copies below
    let panels = dst.len() / (NR * kc);
    let mut panel = 0;
    while panel < panels {
        let j0 = jc + panel * NR;
        // Full panels of row-major B take the vector copy: four at once, or a lone one at the
        // end of a job.
        let full = |g: usize| b.cs == 1 && panel + g <= panels && j0 + g * NR <= n;
        let group = [PACK_B_GROUP, 1].into_iter().find(|&g| full(g));
        #[cfg(target_arch = "x86_64")]
        if let Some(g) = group {
            let out = &mut dst[panel * kc * NR..(panel + g) * kc * NR];
            let first = pc * b.rs + j0;
            let last = (pc + kc - 1) * b.rs + j0 + g * NR;
            assert!(last <= b.data.len(), "B view checked by check_view");
            let (src, out) = (b.data.as_ptr().wrapping_add(first), out.as_mut_ptr());
            // SAFETY: rows pc..pc+kc, columns j0..j0+g·NR of B lie in b.data (asserted above);
            // `out` holds g panels of kc×NR floats; AVX2 present (`cpu`).
            unsafe {
                if g == PACK_B_GROUP {
                    pack_b_panels::<PACK_B_GROUP>(src, b.rs, kc, out)
                } else {
                    pack_b_panels::<1>(src, b.rs, kc, out)
                }
            };
            panel += g;
            continue;
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = group;
        let nr = NR.min(n - j0);
        let out = &mut dst[panel * kc * NR..(panel + 1) * kc * NR];
        for (p, row) in out.chunks_exact_mut(NR).enumerate() {
            let base = (pc + p) * b.rs + j0 * b.cs;
            for (j, v) in row[..nr].iter_mut().enumerate() {
                *v = b.data[base + j * b.cs];
            }
            row[nr..].fill(0.0);
        }
        panel += 1;
    }
}

/// Panels of B that `pack_b_panels` fills together.
const PACK_B_GROUP: usize = 4;

/// G full panels of row-major B: kc rows of G×16 floats, `rs` apart, each row split over the
/// G panels (kc×NR floats each, back to back in `dst`) with vector moves.
///
/// # Safety
/// `src` must be readable at rows 0..kc (stride `rs`) × G×16 floats, `dst` writable for
/// G×kc×16 floats; the CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pack_b_panels<const G: usize>(src: *const f32, rs: usize, kc: usize, dst: *mut f32) {
    use std::arch::x86_64::*;
    for p in 0..kc {
        // Each row is on another page of B, where the hardware prefetcher does not follow: ask
        // for the row 8 ahead (a prefetch never faults; wrapping_add keeps the arithmetic
        // defined past the end).
        let ahead = src.wrapping_add((p + 8) * rs);
        let row = src.add(p * rs);
        for l in 0..G {
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(l * NR) as *const i8);
            let out = dst.add(l * kc * NR + p * NR);
            _mm256_storeu_ps(out, _mm256_loadu_ps(row.add(l * NR)));
            _mm256_storeu_ps(out.add(8), _mm256_loadu_ps(row.add(l * NR + 8)));
        }
    }
}

/// Packs A[ic..ic+mc, pc..pc+kc] as MR-tall micro-panels, each kc columns of MR floats,
/// zero-padded at the bottom.
fn pack_a(cpu: Avx2Fma, a: &MatRef, ic: usize, mc: usize, pc: usize, kc: usize, out: &mut [f32]) {
    let _ = cpu; // the token is the precondition of the AVX2 transpose below
    for (panel, ir) in (0..mc).step_by(MR).enumerate() {
        let mr = MR.min(mc - ir);
        let dst = &mut out[panel * MR * kc..(panel + 1) * MR * kc];
        if mr < MR {
            dst.fill(0.0);
        }
        #[cfg(target_arch = "x86_64")]
        if mr == MR && a.cs == 1 {
            // Row-major A, the common case: six rows side by side, transposed 8 steps at a time.
            let rows: [&[f32]; MR] = std::array::from_fn(|i| {
                let base = (ic + ir + i) * a.rs + pc;
                &a.data[base..base + kc]
            });
            // SAFETY: each row slice holds kc floats, `dst` kc×MR; AVX2 present (`cpu`).
            unsafe { pack_a_panel(rows.map(|r| r.as_ptr()), kc, dst.as_mut_ptr()) };
            continue;
        }
        for i in 0..mr {
            let base = (ic + ir + i) * a.rs + pc * a.cs;
            for p in 0..kc {
                dst[p * MR + i] = a.data[base + p * a.cs];
            }
        }
    }
}

/// Six rows of A (kc floats each) into one k-major panel: 8 steps at a time, six row vectors
/// are transposed in registers (the classic 8×8 unpack/shuffle/permute, two rows zero) and each
/// step's six floats stored together; scalar code here cost 2 % of a run, seen with perf.
///
/// # Safety
/// Each row pointer must be readable for kc floats, `dst` writable for kc×MR; AVX2 present.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pack_a_panel(rows: [*const f32; MR], kc: usize, dst: *mut f32) {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_ps();
    let mut p = 0;
    while p + 8 <= kc {
        let r: [__m256; MR] = std::array::from_fn(|i| _mm256_loadu_ps(rows[i].add(p)));
        let t0 = _mm256_unpacklo_ps(r[0], r[1]);
        let t1 = _mm256_unpackhi_ps(r[0], r[1]);
        let t2 = _mm256_unpacklo_ps(r[2], r[3]);
        let t3 = _mm256_unpackhi_ps(r[2], r[3]);
        let t4 = _mm256_unpacklo_ps(r[4], r[5]);
        let t5 = _mm256_unpackhi_ps(r[4], r[5]);
        let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let s4 = _mm256_shuffle_ps::<0x44>(t4, zero);
        let s5 = _mm256_shuffle_ps::<0xEE>(t4, zero);
        let s6 = _mm256_shuffle_ps::<0x44>(t5, zero);
        let s7 = _mm256_shuffle_ps::<0xEE>(t5, zero);
        // Column j (step p + j): rows 0..6 in lanes 0..6.
        let cols = [
            _mm256_permute2f128_ps::<0x20>(s0, s4),
            _mm256_permute2f128_ps::<0x20>(s1, s5),
            _mm256_permute2f128_ps::<0x20>(s2, s6),
            _mm256_permute2f128_ps::<0x20>(s3, s7),
            _mm256_permute2f128_ps::<0x31>(s0, s4),
            _mm256_permute2f128_ps::<0x31>(s1, s5),
            _mm256_permute2f128_ps::<0x31>(s2, s6),
            _mm256_permute2f128_ps::<0x31>(s3, s7),
        ];
        let out = dst.add(p * MR);
        // Steps 0..7 as 8-float stores, each overlapping the next one's first two floats
        // (rewritten by it); the last step as 4 + 2 floats, so nothing past step 7 is written.
        for (j, col) in cols.iter().enumerate().take(7) {
            _mm256_storeu_ps(out.add(j * MR), *col);
        }
        _mm_storeu_ps(out.add(7 * MR), _mm256_castps256_ps128(cols[7]));
        _mm_storel_epi64(
            out.add(7 * MR + 4) as *mut __m128i,
            _mm_castps_si128(_mm256_extractf128_ps::<1>(cols[7])),
        );
        p += 8;
    }
    for q in p..kc {
        for (i, row) in rows.iter().enumerate() {
            *dst.add(q * MR + i) = *row.add(q);
        }
    }
}

/// One register tile of C: full tiles go straight to C, edge tiles through a scratch tile.
///
/// # Safety
/// AVX2+FMA present; `a`/`b` point to packed panels of `kc` steps; `c` to an mr×nr window of a
/// row-major buffer with row stride `ldc`.
#[allow(clippy::too_many_arguments)]
#[inline]
unsafe fn tile(
    kc: usize,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    ldc: usize,
    mr: usize,
    nr: usize,
    accumulate: bool,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if mr == MR && nr == NR {
            // SAFETY: forwarded from the caller.
            unsafe { kernel_6x16(kc, a, b, c, ldc, accumulate) };
            return;
        }
        #[repr(align(32))]
        struct Scratch([f32; MR * NR]);
        let mut scratch = Scratch([0.0; MR * NR]);
        // SAFETY: the scratch tile is a full MR×NR row-major buffer.
        unsafe { kernel_6x16(kc, a, b, scratch.0.as_mut_ptr(), NR, false) };
        for i in 0..mr {
            for j in 0..nr {
                // SAFETY: (i, j) is inside the caller's mr×nr window.
                unsafe {
                    let dst = c.add(i * ldc + j);
                    let v = scratch.0[i * NR + j];
                    *dst = if accumulate { *dst + v } else { v };
                }
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (kc, a, b, c, ldc, mr, nr, accumulate);
        unreachable!("no Avx2Fma token can exist off x86-64");
    }
}

/// The 6×16 micro-kernel: C[0..6, 0..16] (+)= Σ_p a[p] ⊗ b[p] over `kc` packed steps.
///
/// # Safety
/// AVX2+FMA present; `a` holds kc×6 floats, `b` kc×16 floats 32-byte aligned; `c` a 6×16
/// window with row stride `ldc`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn kernel_6x16(
    kc: usize,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    ldc: usize,
    accumulate: bool,
) {
    use std::arch::x86_64::*;
    // Warm C's lines while the k loop runs: they are needed only at the end.
    for i in 0..MR {
        _mm_prefetch::<_MM_HINT_T0>(c.add(i * ldc) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(c.add(i * ldc + NR - 1) as *const i8);
    }
    let mut acc = [[_mm256_setzero_ps(); 2]; MR];
    let (mut a, mut b) = (a, b);
    // One k step: 2 loads of B, 6 broadcasts of A, 12 FMAs (unrolled by the compiler: MR is a
    // constant).
    macro_rules! step {
        ($s:expr) => {{
            let b0 = _mm256_load_ps(b.add($s * NR));
            let b1 = _mm256_load_ps(b.add($s * NR + 8));
            for (i, row) in acc.iter_mut().enumerate() {
                let ai = _mm256_broadcast_ss(&*a.add($s * MR + i));
                row[0] = _mm256_fmadd_ps(ai, b0, row[0]);
                row[1] = _mm256_fmadd_ps(ai, b1, row[1]);
            }
        }};
    }
    // Eight steps per trip: the loop overhead shrinks and A (192 bytes per trip) is prefetched
    // 12 steps ahead, three lines per trip, as OpenBLAS's kernel does. A comes from L2 only on
    // a strip's first tile, yet dropping the prefetch measured 12 % slower: the B stream
    // evicts A's lines from L1 between tiles. Prefetching B as well (8 lines per trip) cost 6 %.
    for _ in 0..kc / 8 {
        _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add(12 * MR) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add(12 * MR + 16) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add(12 * MR + 32) as *const i8);
        step!(0);
        step!(1);
        step!(2);
        step!(3);
        step!(4);
        step!(5);
        step!(6);
        step!(7);
        a = a.add(8 * MR);
        b = b.add(8 * NR);
    }
    for _ in 0..kc % 8 {
        step!(0);
        a = a.add(MR);
        b = b.add(NR);
    }
    for (i, row) in acc.iter().enumerate() {
        let p = c.add(i * ldc);
        let (mut lo, mut hi) = (row[0], row[1]);
        if accumulate {
            lo = _mm256_add_ps(lo, _mm256_loadu_ps(p));
            hi = _mm256_add_ps(hi, _mm256_loadu_ps(p.add(8)));
        }
        _mm256_storeu_ps(p, lo);
        _mm256_storeu_ps(p.add(8), hi);
    }
}

/// Candle custom op running `matmul` on two contiguous-or-strided f32 CPU matrices.
pub struct Sgemm {
    /// Threads to use (normally `candle_core::utils::get_num_threads()`).
    pub threads: usize,
    /// This CPU's AVX2+FMA, proven.
    pub cpu: Avx2Fma,
}

impl CustomOp2 for Sgemm {
    fn name(&self) -> &'static str {
        "gpulab-sgemm"
    }

    fn cpu_fwd(
        &self,
        s1: &CpuStorage,
        l1: &Layout,
        s2: &CpuStorage,
        l2: &Layout,
    ) -> candle_core::Result<(CpuStorage, Shape)> {
        let (CpuStorage::F32(a), CpuStorage::F32(b)) = (s1, s2) else {
            candle_core::bail!("gpulab-sgemm multiplies f32 matrices only");
        };
        let (&[m, k], &[k2, n]) = (l1.dims(), l2.dims()) else {
            candle_core::bail!(
                "gpulab-sgemm multiplies 2-D matrices, got {:?} and {:?}",
                l1.dims(),
                l2.dims()
            );
        };
        if k != k2 {
            candle_core::bail!("gpulab-sgemm: inner sizes differ ({m}×{k} · {k2}×{n})");
        }
        let a = MatRef {
            data: &a[l1.start_offset()..],
            rs: l1.stride()[0],
            cs: l1.stride()[1],
        };
        let b = MatRef {
            data: &b[l2.start_offset()..],
            rs: l2.stride()[0],
            cs: l2.stride()[1],
        };
        let c = matmul(self.cpu, m, k, n, a, b, self.threads)
            .map_err(|e| candle_core::Error::Msg(e.to_string()))?;
        Ok((CpuStorage::F32(c), Shape::from((m, n))))
    }
}

#[cfg(test)]
mod tests;
