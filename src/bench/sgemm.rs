//! gpulab's own f32 matrix multiply for x86-64 CPUs with AVX2+FMA, and with AVX-512.
//!
//! Why it exists: the CPU number is the baseline of every speedup `bench` prints, so it must be
//! as fast as the CPU allows. Candle's CPU matmul goes through the `gemm` crate; on AVX2-only
//! CPUs (most laptops, AMD Zen 2/3 servers) it runs at ~0.7–0.8× of numpy's OpenBLAS, and on an
//! Intel Xeon with AVX-512 its `x86-v4` kernels ran at 0.90× (measured side by side by
//! `.ci/bench-vs-numpy`; data/docs/measured.md). This module is the classic BLIS/GotoBLAS
//! design, nothing exotic, with one register tile per instruction set (the `Kernel` trait):
//!
//! - AVX2: a 6×16 tile (12 of the 16 ymm registers hold C; one k step is 2 loads of B,
//!   6 broadcasts of A and 12 FMAs, so the two FMA pipes never wait on the load ports);
//! - AVX-512: a 12×32 tile (24 of the 32 zmm registers hold C; one k step is 2 loads of B,
//!   12 broadcasts of A and 24 FMAs), and B's block walked NC columns at a time so the part
//!   of it every strip of A reads stays in L2 rather than L3;
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
//! One file on purpose: the unsafe kernels, the packing and the invariants their
//! SAFETY notes rely on must be read together.
#![allow(unsafe_code)] // SIMD intrinsics and raw pointers into disjoint tiles of C; see SAFETY notes.

mod pool;

use candle_core::{CpuStorage, CustomOp2, Layout, Shape};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// A register tile and its cache blocking, for one instruction set. Only the tokens that prove
/// the CPU has the instructions implement it (`Avx2Fma`, `Avx512`), so holding a `Kernel` is
/// the precondition of its unsafe functions.
pub trait Kernel: Copy + Send + Sync + 'static {
    /// Rows of C in one register tile.
    const MR: usize;
    /// Columns of C in one register tile.
    const NR: usize;
    /// Depth of one packed block: deeper blocks mean fewer passes over C (each reads and writes
    /// it), but the MR×KC panel of A must stay in L1 beside the streaming slivers of B.
    const KC: usize;
    /// Rows of A packed at once (MC×KC floats sit in L2).
    const MC: usize;
    /// Columns of C walked with one strip of A before the next strip (a multiple of NR; at
    /// least n means the whole width).
    const NC: usize;
    /// What `bench` calls it.
    const NAME: CpuKernel;

    /// The micro-kernel: `C[0..MR, 0..NR] (+)= Σ_p a[p] ⊗ b[p]` over `kc` packed steps.
    ///
    /// # Safety
    /// `a` holds kc×MR floats, `b` kc×NR floats 64-byte aligned; `c` an MR×NR window with row
    /// stride `ldc`.
    unsafe fn micro(
        self,
        kc: usize,
        a: *const f32,
        b: *const f32,
        c: *mut f32,
        ldc: usize,
        acc: bool,
    );

    /// One full MR-tall panel of row-major A into `dst` (kc×MR floats, k-major).
    ///
    /// # Safety
    /// `rows` holds MR pointers, each readable for kc floats; `dst` writable for kc×MR.
    unsafe fn pack_a_rows(self, rows: &[*const f32], kc: usize, dst: *mut f32);

    /// The AVX2 token every such CPU also has (B is packed with AVX2 moves).
    fn avx2(self) -> Avx2Fma;
}

/// The largest MR×NR of any kernel (the edge tiles' scratch).
const MAX_TILE: usize = 12 * 32;

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
    /// This module's AVX-512 kernel.
    GpulabAvx512,
}

impl CpuKernel {
    /// Short name used in tables, JSON and `--cpu-kernel`.
    pub fn name(self) -> &'static str {
        match self {
            CpuKernel::Candle => "candle",
            CpuKernel::GpulabAvx2 => "gpulab-avx2",
            CpuKernel::GpulabAvx512 => "gpulab-avx512",
        }
    }

    /// True for this module's kernels.
    pub fn is_gpulab(self) -> bool {
        self != CpuKernel::Candle
    }

    /// `--cpu-kernel` for this CPU: auto picks by CPU; `gpulab` is this module's widest kernel
    /// here; a kernel this CPU cannot run is refused now rather than failing every point.
    pub fn parse_for_this_cpu(text: &str) -> crate::Result<CpuKernel> {
        let wanted = match text.trim().to_ascii_lowercase().as_str() {
            "auto" => return Ok(cpu_kernel_default()),
            "candle" => return Ok(CpuKernel::Candle),
            "gpulab" => {
                return Isa::best()
                    .map(Isa::name)
                    .ok_or_else(|| crate::bad!("cpu-kernel-no-avx2"))
            }
            "gpulab-avx2" => CpuKernel::GpulabAvx2,
            "gpulab-avx512" => CpuKernel::GpulabAvx512,
            other => {
                return Err(crate::bad!(
                    "cpu-kernel-unknown",
                    given = format!("{other:?}")
                ))
            }
        };
        match Isa::for_kernel(wanted) {
            Some(_) => Ok(wanted),
            None => Err(crate::bad!("cpu-kernel-cannot", kernel = wanted.name())),
        }
    }
}

/// The kernel `bench` uses unless told otherwise: this module's best for the CPU (AVX-512, else
/// AVX2+FMA), Candle's where neither exists. Candle's `gemm` is slower on both kinds of CPU
/// (its AVX2 kernel 0.7-0.8× numpy, its AVX-512 one 0.90× on an Intel Xeon: data/docs/measured.md).
pub fn cpu_kernel_default() -> CpuKernel {
    match Isa::best() {
        Some(isa) => isa.name(),
        None => CpuKernel::Candle,
    }
}

/// Proof of the best instruction set this CPU has for the kernels, as a value `bench` can hold.
#[derive(Debug, Clone, Copy)]
pub enum Isa {
    /// AVX2 and FMA.
    Avx2(Avx2Fma),
    /// AVX-512 (F and VL) as well.
    Avx512(Avx512),
}

impl Isa {
    /// The widest this CPU runs.
    pub fn best() -> Option<Isa> {
        Avx512::detect()
            .map(Isa::Avx512)
            .or_else(|| Avx2Fma::detect().map(Isa::Avx2))
    }

    /// The token for `kernel`, when this CPU runs it (None for Candle's).
    pub fn for_kernel(kernel: CpuKernel) -> Option<Isa> {
        match kernel {
            CpuKernel::Candle => None,
            CpuKernel::GpulabAvx2 => Avx2Fma::detect().map(Isa::Avx2),
            CpuKernel::GpulabAvx512 => Avx512::detect().map(Isa::Avx512),
        }
    }

    /// The kernel's name.
    pub fn name(self) -> CpuKernel {
        match self {
            Isa::Avx2(_) => Avx2Fma::NAME,
            Isa::Avx512(_) => Avx512::NAME,
        }
    }

    /// `matmul` with this instruction set's kernel.
    pub fn matmul(
        self,
        m: usize,
        k: usize,
        n: usize,
        a: MatRef,
        b: MatRef,
        threads: usize,
    ) -> Result<Vec<f32>, SgemmError> {
        match self {
            Isa::Avx2(cpu) => matmul(cpu, m, k, n, a, b, threads),
            Isa::Avx512(cpu) => matmul(cpu, m, k, n, a, b, threads),
        }
    }
}

/// Proof that this CPU has AVX-512 F and VL (and so AVX2 and FMA): only `Avx512::detect`
/// makes one.
#[derive(Debug, Clone, Copy)]
pub struct Avx512(Avx2Fma);

impl Avx512 {
    /// The token, when this CPU has AVX-512F, AVX-512VL, AVX2 and FMA (checked at run time).
    pub fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            let avx2 = Avx2Fma::detect()?;
            let yes = std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl");
            yes.then_some(Avx512(avx2))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }
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
pub fn matmul<K: Kernel>(
    cpu: K,
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
    let n_pad = n.checked_next_multiple_of(K::NR).ok_or_else(too_big)?;
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
    // Threads as before (small products stay on one), but the work is claimed, not assigned:
    // C is cut into a few rectangles per thread and B's packing into small jobs, each taken
    // from a counter by whichever thread is free. On a shared CPU a descheduled thread then
    // delays only the piece it holds, not a whole static share (src/bench/sgemm/pool.rs).
    let width = split(m, n, k, threads, K::MR, K::NR).len();
    let chunks = split(m, n, k, width * CHUNKS_PER_THREAD, K::MR, K::NR);
    let blocks = k.div_ceil(K::KC);
    // Per block of B: pack jobs claimed and done, chunks of C claimed. Per chunk of C: how many
    // blocks it has added (block q of a chunk must follow its block q-1: the first stores, the
    // rest accumulate).
    let counters = |n: usize| (0..n).map(|_| AtomicUsize::new(0)).collect::<Vec<_>>();
    let (pack_claimed, packed, chunk_claimed) =
        (counters(blocks), counters(blocks), counters(blocks));
    let chunk_blocks = counters(chunks.len());
    let failed = AtomicBool::new(false);
    let jobs = pack_jobs(n_pad, K::NR);
    let job_panels = panels_per_job(K::NR);
    let work = |_me: usize| {
        // A panicking thread must not leave the others waiting for its piece forever.
        let guard = FailFlag(&failed);
        for q in 0..blocks {
            let (pc, kc) = (q * K::KC, K::KC.min(k - q * K::KC));
            let block = q * K::KC * n_pad;
            loop {
                let job = pack_claimed[q].fetch_add(1, Ordering::Relaxed);
                if job >= jobs {
                    break;
                }
                let jc = job * job_panels * K::NR;
                let len = (n_pad - jc).min(job_panels * K::NR) * kc;
                // SAFETY: job `job` of block q owns floats [block + jc·kc, +len) of the packed
                // buffer (k×n_pad floats): it is claimed once, and nobody reads them until
                // `packed` counts this job.
                let dst = unsafe {
                    std::slice::from_raw_parts_mut(bpack.get().add(block + jc * kc), len)
                };
                pack_b(cpu.avx2(), K::NR, &b, pc, kc, jc, n, dst);
                packed[q].fetch_add(1, Ordering::Release);
            }
            if !wait_until(&failed, || packed[q].load(Ordering::Acquire) >= jobs) {
                return;
            }
            loop {
                let j = chunk_claimed[q].fetch_add(1, Ordering::Relaxed);
                let Some(&(m0, m1, n0, n1)) = chunks.get(j) else {
                    break;
                };
                if !wait_until(&failed, || chunk_blocks[j].load(Ordering::Acquire) >= q) {
                    return;
                }
                // SAFETY: every job of block q has been counted, so its kc×n_pad floats are
                // written and no longer written to. Chunk j is claimed once per block and its
                // block q-1 is done; the chunks are disjoint and inside the m×n buffer that
                // outlives this call.
                unsafe {
                    let bblock = std::slice::from_raw_parts(bpack.get().add(block), kc * n_pad);
                    gemm_block(cpu, pc, kc, n, &a, bblock, c_ptr.get(), m0, m1, n0, n1)
                };
                chunk_blocks[j].store(q + 1, Ordering::Release);
            }
        }
        std::mem::forget(guard);
    };
    pool::run(width, &work);
    // SAFETY: the rectangles cover all m×n elements (`split`) and the first K::KC block
    // (`accumulate == false`) writes each of them before anything reads it.
    unsafe { c.set_len(c_len) };
    if buf.capacity() > KEEP_PACKED_B {
        *buf = Vec::new();
    }
    Ok(c)
}

/// Rectangles of C per thread: enough that a late thread's piece is small, few enough that each
/// still reads B's block from cache in long runs.
const CHUNKS_PER_THREAD: usize = 3;

/// Waits for `ready`, spinning briefly and then yielding the core, so a thread that holds the
/// awaited piece but lost its core gets it back sooner. False when another thread panicked.
fn wait_until(failed: &AtomicBool, ready: impl Fn() -> bool) -> bool {
    let mut spins = 0u32;
    while !ready() {
        if failed.load(Ordering::Relaxed) {
            return false;
        }
        spins = spins.saturating_add(1);
        if spins < 64 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    true
}

/// Jobs that pack one KC-deep block of B (the same for every block): `panels_per_job` panels
/// each, so a job stays small.
fn pack_jobs(n_pad: usize, nr: usize) -> usize {
    (n_pad / nr).div_ceil(panels_per_job(nr))
}

/// Panels of B packed by one job: 128 columns (512 bytes of each row).
fn panels_per_job(nr: usize) -> usize {
    (128 / nr).max(1)
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
fn split(
    m: usize,
    n: usize,
    k: usize,
    threads: usize,
    mr: usize,
    nr: usize,
) -> Vec<(usize, usize, usize, usize)> {
    let flops = 2.0 * m as f64 * n as f64 * k as f64;
    let by_work = ((flops / 2e6) as usize).max(1);
    let (m_tiles, n_tiles) = (m.div_ceil(mr), n.div_ceil(nr));
    let along_m = m_tiles >= n_tiles;
    let tiles = if along_m { m_tiles } else { n_tiles };
    let parts = threads.min(tiles).min(by_work).max(1);
    (0..parts)
        .map(|p| {
            let (t0, t1) = (tiles * p / parts, tiles * (p + 1) / parts);
            if along_m {
                (t0 * mr, (t1 * mr).min(m), 0, n)
            } else {
                (0, m, t0 * nr, (t1 * nr).min(n))
            }
        })
        .collect()
}

thread_local! {
    /// Per-thread buffer for packed blocks of A (MC×KC floats, 216 KiB), kept between calls.
    static PACK: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A 64-byte-aligned window of `len` floats inside `buf` (grown as needed): a cache line, so
/// no 64-byte load of a packed panel straddles two.
fn aligned(buf: &mut Vec<f32>, len: usize) -> &mut [f32] {
    if buf.len() < len + 16 {
        buf.resize(len + 16, 0.0);
    }
    let offset = buf.as_ptr().align_offset(64);
    &mut buf[offset..offset + len]
}

/// Adds one KC-deep block to the rectangle C[m0..m1, n0..n1]: C += A[m0..m1, pc..pc+kc] ·
/// B[pc..pc+kc, n0..n1] (C row-major, row stride `ldc`; the first block, pc = 0, stores instead
/// of adding). The Goto loop nest: MC rows of A packed in turn, then, NC columns of C at a
/// time, register tiles along each MR-row strip of C, so the strip's A panel stays in L1 while
/// B's slivers stream past it, and the kc×NC part of B that every strip reads stays in L2.
///
/// # Safety
/// `c` must point to an m×ldc row-major buffer and no other thread may write this rectangle;
/// `a` must have been checked with `check_view`; `bblock` must be block pc of B as packed by
/// `matmul` (kc rows, NR-wide slivers); `n0` a multiple of NR.
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_block<K: Kernel>(
    cpu: K,
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
    let (mr_full, nr_full) = (K::MR, K::NR);
    PACK.with(|abuf| {
        let abuf = &mut *abuf.borrow_mut();
        for ic in (m0..m1).step_by(K::MC) {
            let mc = K::MC.min(m1 - ic);
            let mc_pad = mc.div_ceil(mr_full) * mr_full;
            let apack = aligned(abuf, mc_pad * kc);
            pack_a(cpu, a, ic, mc, pc, kc, apack);
            for jc in (n0..n1).step_by(K::NC) {
                let jc_end = n1.min(jc.saturating_add(K::NC));
                // Along C's rows, not down its columns: consecutive tiles then sit 64 bytes
                // apart. Down a column, every tile's rows are a multiple of ldc×4 bytes apart,
                // which for power-of-two n lands all of them in the same two L1 sets, evicting
                // the B sliver the kernel is reading (4-6 % slower at n = 1024/2048, seen side
                // by side with OpenBLAS, which also walks along the rows).
                for ir in (0..mc).step_by(mr_full) {
                    let mr = mr_full.min(mc - ir);
                    let ap = apack[ir * kc..(ir + mr_full) * kc].as_ptr();
                    for jr in (jc..jc_end).step_by(nr_full) {
                        let nr = nr_full.min(jc_end - jr);
                        let bp = bblock[jr * kc..(jr + nr_full) * kc].as_ptr();
                        // SAFETY: C bounds forwarded from the caller; `cpu` proves the ISA.
                        unsafe {
                            let cp = c.add((ic + ir) * ldc + jr);
                            tile(cpu, kc, ap, bp, cp, ldc, mr, nr, pc > 0)
                        };
                    }
                }
            }
        }
    });
}

/// Packs `nr_full`-wide micro-panels of B (as many as `dst` holds) for rows pc..pc+kc, from
/// column jc (of `n`): each panel kc rows of NR floats, zero-padded on the right so the kernel
/// never needs an edge case in its inner loop. 256 contiguous bytes of each row at a time where
/// B is row-major (four 16-wide panels, two 32-wide ones): one 16-wide panel at a time read 64
/// bytes per row, each row on another page; packing took 5.5 % of a 1024² product on 2
/// threads, four at a time 3.5-4 %. More at once (8 panels, or whole rows) was slower again:
/// the stores, a panel (kc×64 bytes) apart, alias in L1.
#[allow(clippy::too_many_arguments)]
fn pack_b(
    cpu: Avx2Fma,
    nr_full: usize,
    b: &MatRef,
    pc: usize,
    kc: usize,
    jc: usize,
    n: usize,
    dst: &mut [f32],
) {
    let _ = cpu; // the token is the precondition of the AVX2 copies below
    let panels = dst.len() / (nr_full * kc);
    let group_of = (PACK_B_ROW / nr_full).max(1);
    let mut panel = 0;
    while panel < panels {
        let j0 = jc + panel * nr_full;
        // Full panels of row-major B take the vector copy: a group at once, or a lone one at
        // the end of a job.
        let full = |g: usize| b.cs == 1 && panel + g <= panels && j0 + g * nr_full <= n;
        let group = [group_of, 1].into_iter().find(|&g| full(g));
        #[cfg(target_arch = "x86_64")]
        if let Some(g) = group {
            let out = &mut dst[panel * kc * nr_full..(panel + g) * kc * nr_full];
            let first = pc * b.rs + j0;
            let last = (pc + kc - 1) * b.rs + j0 + g * nr_full;
            assert!(last <= b.data.len(), "B view checked by check_view");
            let (src, out) = (b.data.as_ptr().wrapping_add(first), out.as_mut_ptr());
            // SAFETY: rows pc..pc+kc, columns j0..j0+g·nr_full of B lie in b.data (asserted
            // above); `out` holds g panels of kc×nr_full floats; AVX2 present (`cpu`).
            unsafe { pack_b_panels(src, b.rs, kc, nr_full, g, out) };
            panel += g;
            continue;
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = group;
        let nr = nr_full.min(n - j0);
        let out = &mut dst[panel * kc * nr_full..(panel + 1) * kc * nr_full];
        for (p, row) in out.chunks_exact_mut(nr_full).enumerate() {
            let base = (pc + p) * b.rs + j0 * b.cs;
            for (j, v) in row[..nr].iter_mut().enumerate() {
                *v = b.data[base + j * b.cs];
            }
            row[nr..].fill(0.0);
        }
        panel += 1;
    }
}

/// Floats of each row of B that `pack_b_panels` copies together (256 bytes).
const PACK_B_ROW: usize = 64;

/// `g` full panels of row-major B: kc rows of g×nr floats, `rs` apart, each row split over the
/// g panels (kc×nr floats each, back to back in `dst`) with vector moves.
///
/// # Safety
/// `src` must be readable at rows 0..kc (stride `rs`) × g×nr floats, `dst` writable for
/// g×kc×nr floats; `nr` a multiple of 16; the CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pack_b_panels(src: *const f32, rs: usize, kc: usize, nr: usize, g: usize, dst: *mut f32) {
    use std::arch::x86_64::*;
    for p in 0..kc {
        // Each row is on another page of B, where the hardware prefetcher does not follow: ask
        // for the row 8 ahead (a prefetch never faults; wrapping_add keeps the arithmetic
        // defined past the end), one line per 16 floats.
        let ahead = src.wrapping_add((p + 8) * rs);
        let row = src.add(p * rs);
        for l in 0..g {
            let out = dst.add(l * kc * nr + p * nr);
            for v in (0..nr).step_by(16) {
                _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(l * nr + v) as *const i8);
                _mm256_storeu_ps(out.add(v), _mm256_loadu_ps(row.add(l * nr + v)));
                _mm256_storeu_ps(out.add(v + 8), _mm256_loadu_ps(row.add(l * nr + v + 8)));
            }
        }
    }
}

/// Packs A[ic..ic+mc, pc..pc+kc] as MR-tall micro-panels, each kc columns of MR floats,
/// zero-padded at the bottom.
fn pack_a<K: Kernel>(
    cpu: K,
    a: &MatRef,
    ic: usize,
    mc: usize,
    pc: usize,
    kc: usize,
    out: &mut [f32],
) {
    let mr_full = K::MR;
    for (panel, ir) in (0..mc).step_by(mr_full).enumerate() {
        let mr = mr_full.min(mc - ir);
        let dst = &mut out[panel * mr_full * kc..(panel + 1) * mr_full * kc];
        if mr < mr_full {
            dst.fill(0.0);
        }
        #[cfg(target_arch = "x86_64")]
        if mr == mr_full && a.cs == 1 {
            // Row-major A, the common case: the rows side by side, transposed 8 steps at a time.
            let mut rows = [std::ptr::null::<f32>(); MAX_MR];
            for (i, row) in rows.iter_mut().take(mr_full).enumerate() {
                let base = (ic + ir + i) * a.rs + pc;
                *row = a.data[base..base + kc].as_ptr();
            }
            // SAFETY: each row pointer is readable for kc floats (sliced above), `dst` holds
            // kc×MR; the instruction set is present (`cpu`).
            unsafe { cpu.pack_a_rows(&rows[..mr_full], kc, dst.as_mut_ptr()) };
            continue;
        }
        for i in 0..mr {
            let base = (ic + ir + i) * a.rs + pc * a.cs;
            for p in 0..kc {
                dst[p * mr_full + i] = a.data[base + p * a.cs];
            }
        }
    }
}

/// The most rows of any kernel's tile.
const MAX_MR: usize = 12;

/// Steps p..p+8 of six rows of A, transposed in registers (the classic 8×8
/// unpack/shuffle/permute, two rows zero): column j holds step p+j of rows 0..6 in lanes 0..6,
/// lanes 6 and 7 zero.
///
/// # Safety
/// Each row pointer must be readable for p+8 floats; AVX2 present.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn transpose6x8(rows: &[*const f32], p: usize) -> [std::arch::x86_64::__m256; 8] {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_ps();
    let r: [__m256; 6] = std::array::from_fn(|i| _mm256_loadu_ps(rows[i].add(p)));
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
    [
        _mm256_permute2f128_ps::<0x20>(s0, s4),
        _mm256_permute2f128_ps::<0x20>(s1, s5),
        _mm256_permute2f128_ps::<0x20>(s2, s6),
        _mm256_permute2f128_ps::<0x20>(s3, s7),
        _mm256_permute2f128_ps::<0x31>(s0, s4),
        _mm256_permute2f128_ps::<0x31>(s1, s5),
        _mm256_permute2f128_ps::<0x31>(s2, s6),
        _mm256_permute2f128_ps::<0x31>(s3, s7),
    ]
}

/// Six rows of A (kc floats each) into one k-major panel (the AVX2 tile's): 8 steps at a time
/// through `transpose6x8`, each step's six floats stored together; scalar code here cost 2 % of
/// a run, seen with perf.
///
/// # Safety
/// Six row pointers, each readable for kc floats; `dst` writable for kc×6; AVX2 present.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pack_a_panel6(rows: &[*const f32], kc: usize, dst: *mut f32) {
    use std::arch::x86_64::*;
    const MR: usize = 6;
    let mut p = 0;
    while p + 8 <= kc {
        let cols = transpose6x8(rows, p);
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
        for (i, row) in rows.iter().enumerate().take(MR) {
            *dst.add(q * MR + i) = *row.add(q);
        }
    }
}

/// Twelve rows of A into one k-major panel (the AVX-512 tile's): each half of six rows through
/// `transpose6x8`, stored with a six-lane mask, so nothing is written twice or past the panel.
///
/// # Safety
/// Twelve row pointers, each readable for kc floats; `dst` writable for kc×12; AVX-512F/VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn pack_a_panel12(rows: &[*const f32], kc: usize, dst: *mut f32) {
    use std::arch::x86_64::*;
    const MR: usize = 12;
    let mut p = 0;
    while p + 8 <= kc {
        let lo = transpose6x8(&rows[..6], p);
        let hi = transpose6x8(&rows[6..], p);
        let out = dst.add(p * MR);
        for j in 0..8 {
            _mm256_mask_storeu_ps(out.add(j * MR), 0x3f, lo[j]);
            _mm256_mask_storeu_ps(out.add(j * MR + 6), 0x3f, hi[j]);
        }
        p += 8;
    }
    for q in p..kc {
        for (i, row) in rows.iter().enumerate().take(MR) {
            *dst.add(q * MR + i) = *row.add(q);
        }
    }
}

/// One register tile of C: full tiles go straight to C, edge tiles through a scratch tile.
///
/// # Safety
/// `a`/`b` point to packed panels of `kc` steps; `c` to an mr×nr window of a row-major buffer
/// with row stride `ldc`.
#[allow(clippy::too_many_arguments)]
#[inline]
unsafe fn tile<K: Kernel>(
    cpu: K,
    kc: usize,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    ldc: usize,
    mr: usize,
    nr: usize,
    accumulate: bool,
) {
    if mr == K::MR && nr == K::NR {
        // SAFETY: forwarded from the caller.
        unsafe { cpu.micro(kc, a, b, c, ldc, accumulate) };
        return;
    }
    #[repr(align(64))]
    struct Scratch([f32; MAX_TILE]);
    let mut scratch = Scratch([0.0; MAX_TILE]);
    // SAFETY: the scratch tile holds a full MR×NR row-major tile (MAX_TILE ≥ MR·NR).
    unsafe { cpu.micro(kc, a, b, scratch.0.as_mut_ptr(), K::NR, false) };
    for i in 0..mr {
        for j in 0..nr {
            // SAFETY: (i, j) is inside the caller's mr×nr window.
            unsafe {
                let dst = c.add(i * ldc + j);
                let v = scratch.0[i * K::NR + j];
                *dst = if accumulate { *dst + v } else { v };
            }
        }
    }
}

impl Kernel for Avx2Fma {
    const MR: usize = 6;
    const NR: usize = 16;
    // The 6×KC panel of A (9 KiB) stays in a 32 KiB L1d beside the streaming B. Side by side
    // with OpenBLAS on Zen 3: 384 and 512 best, 256 2-4 % slower, 128 5-9 % slower.
    const KC: usize = 384;
    // MC×KC×4 = 216 KiB, inside a 512 KiB L2.
    const MC: usize = 144;
    // The whole width: tuned that way on Zen 3, where it matches OpenBLAS.
    const NC: usize = usize::MAX;
    const NAME: CpuKernel = CpuKernel::GpulabAvx2;

    unsafe fn micro(
        self,
        kc: usize,
        a: *const f32,
        b: *const f32,
        c: *mut f32,
        ldc: usize,
        acc: bool,
    ) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: forwarded; `self` proves AVX2+FMA.
        unsafe {
            kernel_6x16(kc, a, b, c, ldc, acc)
        };
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (kc, a, b, c, ldc, acc);
            unreachable!("no Avx2Fma token can exist off x86-64");
        }
    }

    unsafe fn pack_a_rows(self, rows: &[*const f32], kc: usize, dst: *mut f32) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: forwarded; `self` proves AVX2.
        unsafe {
            pack_a_panel6(rows, kc, dst)
        };
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (rows, kc, dst);
            unreachable!("no Avx2Fma token can exist off x86-64");
        }
    }

    fn avx2(self) -> Avx2Fma {
        self
    }
}

impl Kernel for Avx512 {
    const MR: usize = 12;
    const NR: usize = 32;
    // The 12×KC panel of A (12 KiB) stays in L1 (48 KiB on Zen 4 and Sapphire Rapids) beside
    // a 32 KiB sliver of B.
    const KC: usize = 256;
    // MC×KC×4 = 144 KiB of A in L2.
    const MC: usize = 144;
    // KC×NC×4 = 512 KiB of B read by every strip of A: half of Zen 4's 1 MiB L2, a quarter of
    // Sapphire Rapids' 2 MiB.
    const NC: usize = 512;
    const NAME: CpuKernel = CpuKernel::GpulabAvx512;

    unsafe fn micro(
        self,
        kc: usize,
        a: *const f32,
        b: *const f32,
        c: *mut f32,
        ldc: usize,
        acc: bool,
    ) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: forwarded; `self` proves AVX-512F.
        unsafe {
            kernel_12x32(kc, a, b, c, ldc, acc)
        };
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (kc, a, b, c, ldc, acc);
            unreachable!("no Avx512 token can exist off x86-64");
        }
    }

    unsafe fn pack_a_rows(self, rows: &[*const f32], kc: usize, dst: *mut f32) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: forwarded; `self` proves AVX-512F/VL.
        unsafe {
            pack_a_panel12(rows, kc, dst)
        };
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (rows, kc, dst);
            unreachable!("no Avx512 token can exist off x86-64");
        }
    }

    fn avx2(self) -> Avx2Fma {
        self.0
    }
}

/// The 12×32 AVX-512 micro-kernel: C[0..12, 0..32] (+)= Σ_p a[p] ⊗ b[p] over `kc` packed steps.
/// 24 zmm accumulators; one k step is 2 aligned loads of B, 12 broadcasts of A (folded into the
/// FMAs as memory operands) and 24 FMAs: 12 loads per 24 FMAs, inside two load ports.
///
/// # Safety
/// AVX-512F present; `a` holds kc×12 floats, `b` kc×32 floats 64-byte aligned; `c` a 12×32
/// window with row stride `ldc`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,fma")]
unsafe fn kernel_12x32(
    kc: usize,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    ldc: usize,
    accumulate: bool,
) {
    use std::arch::x86_64::*;
    const MR: usize = 12;
    const NR: usize = 32;
    for i in 0..MR {
        _mm_prefetch::<_MM_HINT_T0>(c.add(i * ldc) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(c.add(i * ldc + NR - 1) as *const i8);
    }
    let mut acc = [[_mm512_setzero_ps(); 2]; MR];
    let (mut a, mut b) = (a, b);
    macro_rules! step {
        ($s:expr) => {{
            let b0 = _mm512_load_ps(b.add($s * NR));
            let b1 = _mm512_load_ps(b.add($s * NR + 16));
            for (i, row) in acc.iter_mut().enumerate() {
                let ai = _mm512_set1_ps(*a.add($s * MR + i));
                row[0] = _mm512_fmadd_ps(ai, b0, row[0]);
                row[1] = _mm512_fmadd_ps(ai, b1, row[1]);
            }
        }};
    }
    // Four steps per trip; A (192 bytes per trip) prefetched 8 steps ahead, as the AVX2 kernel
    // does for the same reason (B's stream evicts A's panel from L1 between tiles).
    for _ in 0..kc / 4 {
        _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add(8 * MR) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add(8 * MR + 16) as *const i8);
        _mm_prefetch::<_MM_HINT_T0>(a.wrapping_add(8 * MR + 32) as *const i8);
        step!(0);
        step!(1);
        step!(2);
        step!(3);
        a = a.add(4 * MR);
        b = b.add(4 * NR);
    }
    for _ in 0..kc % 4 {
        step!(0);
        a = a.add(MR);
        b = b.add(NR);
    }
    for (i, row) in acc.iter().enumerate() {
        let p = c.add(i * ldc);
        let (mut lo, mut hi) = (row[0], row[1]);
        if accumulate {
            lo = _mm512_add_ps(lo, _mm512_loadu_ps(p));
            hi = _mm512_add_ps(hi, _mm512_loadu_ps(p.add(16)));
        }
        _mm512_storeu_ps(p, lo);
        _mm512_storeu_ps(p.add(16), hi);
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
    const MR: usize = 6;
    const NR: usize = 16;
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
    /// The kernel, its instruction set proven.
    pub cpu: Isa,
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
        let c = self
            .cpu
            .matmul(m, k, n, a, b, self.threads)
            .map_err(|e| candle_core::Error::Msg(e.to_string()))?;
        Ok((CpuStorage::F32(c), Shape::from((m, n))))
    }
}

#[cfg(test)]
mod tests;
