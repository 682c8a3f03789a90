//! The worker threads of gpulab's f32 kernel: started once, spinning briefly between products.
//!
//! Why not rayon or fresh threads: on the 2-vCPU VMs we measure on, a product split over threads
//! that went to sleep between calls came out at 60-80 % speed in a third of the runs — waking an
//! idle vCPU costs a hypervisor round trip, and every call paid it twice (pack B, compute).
//! OpenBLAS keeps its threads spinning for a while after each call for the same reason; so do
//! these, for [`SPIN`], then they sleep on a condition variable and cost nothing.
#![allow(unsafe_code)] // a job borrows the caller's stack; see `Job` and `run`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long an idle worker spins before sleeping: long enough to cover the gap between
/// back-to-back products (microseconds), short enough not to burn a core after a run.
const SPIN: Duration = Duration::from_millis(2);

/// The body of one dispatch, lifetime erased. Valid only while `run` waits (it never returns
/// before every worker has finished with it).
#[derive(Clone, Copy)]
struct Job(*const (dyn Fn(usize) + Sync));
// SAFETY: the pointee is `Sync` and outlives every use (see `run`).
unsafe impl Send for Job {}

struct Shared {
    /// Bumped once per dispatch; workers compare it with the last one they ran.
    epoch: AtomicU64,
    /// The current job (set before `epoch` is bumped).
    job: Mutex<Option<Job>>,
    /// How many threads the current job is spread over (caller included).
    width: AtomicUsize,
    /// Workers still running the current job.
    pending: AtomicUsize,
    /// A worker's part panicked; the caller re-raises.
    panicked: AtomicBool,
    /// Sleeping workers wait here for the next epoch.
    sleep: Mutex<()>,
    wake: Condvar,
}

struct Pool {
    shared: Arc<Shared>,
    workers: usize,
    /// One dispatch at a time; a concurrent caller uses scoped threads instead.
    busy: Mutex<()>,
}

static POOL: OnceLock<Pool> = OnceLock::new();

fn pool(workers: usize) -> &'static Pool {
    POOL.get_or_init(|| {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            job: Mutex::new(None),
            width: AtomicUsize::new(0),
            pending: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
        });
        let mut started = 0;
        for index in 1..=workers {
            let shared = Arc::clone(&shared);
            let spawned = std::thread::Builder::new()
                .name(format!("gpulab-sgemm-{index}"))
                .spawn(move || worker(&shared, index));
            if spawned.is_err() {
                break; // fewer workers: `run` falls back to scoped threads for wider jobs
            }
            started += 1;
        }
        Pool {
            shared,
            workers: started,
            busy: Mutex::new(()),
        }
    })
}

fn worker(shared: &Shared, index: usize) {
    let mut seen = 0u64;
    loop {
        let started = Instant::now();
        let mut spins = 0u32;
        while shared.epoch.load(Ordering::Acquire) == seen {
            spins = spins.wrapping_add(1);
            if !spins.is_multiple_of(256) || started.elapsed() < SPIN {
                std::hint::spin_loop();
                continue;
            }
            let guard = shared.sleep.lock().unwrap_or_else(|e| e.into_inner());
            let _guard = shared
                .wake
                .wait_while(guard, |_| shared.epoch.load(Ordering::Acquire) == seen)
                .unwrap_or_else(|e| e.into_inner());
        }
        seen = shared.epoch.load(Ordering::Acquire);
        if index < shared.width.load(Ordering::Acquire) {
            let job = *shared.job.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(Job(body)) = job {
                // SAFETY: `run` keeps the body alive until `pending` reaches zero.
                let body = unsafe { &*body };
                if catch_unwind(AssertUnwindSafe(|| body(index))).is_err() {
                    shared.panicked.store(true, Ordering::Release);
                }
            }
            shared.pending.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// Runs `body(i)` for i in 0..threads, one per thread (the caller runs 0), and returns when all
/// have finished. A panic in any part is re-raised here.
pub fn run(threads: usize, body: &(dyn Fn(usize) + Sync)) {
    if threads <= 1 {
        body(0);
        return;
    }
    let pool = pool(threads - 1);
    let busy = pool.busy.try_lock();
    if threads - 1 > pool.workers || busy.is_err() {
        // Wider than the pool, or another product is running: plain scoped threads.
        std::thread::scope(|scope| {
            for i in 1..threads {
                scope.spawn(move || body(i));
            }
            body(0);
        });
        return;
    }
    let shared = &pool.shared;
    // SAFETY (lifetime erasure): the pointer is cleared below, and we return only after every
    // worker that took it has decremented `pending`, so no worker uses it after `body` ends.
    let erased: *const (dyn Fn(usize) + Sync + '_) = body;
    let erased: *const (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(erased) };
    *shared.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(Job(erased));
    shared.width.store(threads, Ordering::Release);
    shared.pending.store(threads - 1, Ordering::Release);
    shared.panicked.store(false, Ordering::Release);
    {
        let _guard = shared.sleep.lock().unwrap_or_else(|e| e.into_inner());
        shared.epoch.fetch_add(1, Ordering::AcqRel);
    }
    shared.wake.notify_all();
    let mine = catch_unwind(AssertUnwindSafe(|| body(0)));
    while shared.pending.load(Ordering::Acquire) != 0 {
        std::hint::spin_loop();
    }
    *shared.job.lock().unwrap_or_else(|e| e.into_inner()) = None;
    drop(busy);
    if let Err(panic) = mine {
        std::panic::resume_unwind(panic);
    }
    if shared.panicked.load(Ordering::Acquire) {
        panic!("a gpulab-sgemm worker panicked");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_runs_once_per_dispatch() {
        for threads in [1, 2, 3, 2, 5] {
            let hits: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
            for _ in 0..50 {
                run(threads, &|i| {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                });
            }
            for h in &hits {
                assert_eq!(h.load(Ordering::Relaxed), 50, "{threads} threads");
            }
        }
    }

    #[test]
    fn a_panicking_part_is_reported_to_the_caller() {
        let result = catch_unwind(|| run(2, &|i| assert!(i != 1, "part one fails")));
        assert!(result.is_err());
        // The pool still works afterwards.
        let sum = AtomicUsize::new(0);
        run(2, &|i| {
            sum.fetch_add(i + 1, Ordering::Relaxed);
        });
        assert_eq!(sum.load(Ordering::Relaxed), 3);
    }
}
