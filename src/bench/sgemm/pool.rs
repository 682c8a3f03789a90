//! The worker threads of gpulab's f32 kernel: started once, spinning briefly between products.
//!
//! A dispatch does not wait for a worker that has not started on it: the caller's job claims its
//! work from counters (src/bench/sgemm.rs), so when the caller is done every piece is claimed,
//! and the caller then closes the dispatch and waits only for workers already inside it. On a
//! shared CPU a descheduled worker therefore costs the piece it holds, not a whole share.
//!
//! Why not rayon or fresh threads: on the 2-vCPU VMs we measure on, a product split over threads
//! that went to sleep between calls came out at 60-80 % speed in a third of the runs — waking an
//! idle vCPU costs a hypervisor round trip, and every call paid it twice (pack B, compute).
//! OpenBLAS keeps its threads spinning for a while after each call for the same reason; so do
//! these, for [`SPIN`], then they sleep on a condition variable and cost nothing.
#![allow(unsafe_code)] // a job borrows the caller's stack; see `Job` and `run`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
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

/// One dispatch, published whole: a worker reads epoch, width and job together under one lock
/// and acts on that epoch only. (Read apart, a worker preempted between reading the epoch and
/// the width could take a wider next dispatch's part, run it, see the epoch changed and run it
/// again, counting itself out twice: `run` returned while another worker still wrote C.)
struct Dispatch {
    epoch: u64,
    /// How many threads the job is spread over (caller included).
    width: usize,
    job: Option<Job>,
}

struct Shared {
    /// The current dispatch's epoch, mirrored for spinning without the lock.
    epoch: AtomicU64,
    /// The current dispatch.
    state: Mutex<Dispatch>,
    /// Who may still join the current job: the dispatch's epoch (high 32 bits), a closed bit,
    /// and how many workers are inside it (low bits).
    gate: AtomicU64,
    /// A worker's part panicked (its message, for the caller to re-raise).
    panicked: Mutex<Option<String>>,
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
            state: Mutex::new(Dispatch {
                epoch: 0,
                width: 0,
                job: None,
            }),
            gate: AtomicU64::new(CLOSED),
            panicked: Mutex::new(None),
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

/// The gate's closed bit; the count of workers inside is below it, the epoch above.
const CLOSED: u64 = 1 << 31;
const INSIDE: u64 = CLOSED - 1;

/// The gate's value that opens dispatch `epoch`.
fn opened(epoch: u64) -> u64 {
    (epoch & 0xFFFF_FFFF) << 32
}

/// Enters dispatch `epoch` if it is still open: false when the caller has closed it (its work
/// is all claimed) or a later dispatch has replaced it.
fn enter(gate: &AtomicU64, epoch: u64) -> bool {
    let mut g = gate.load(Ordering::Acquire);
    loop {
        if g >> 32 != epoch & 0xFFFF_FFFF || g & CLOSED != 0 {
            return false;
        }
        match gate.compare_exchange_weak(g, g + 1, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return true,
            Err(now) => g = now,
        }
    }
}

fn worker(shared: &Shared, index: usize) {
    let mut seen = 0u64;
    loop {
        let started = Instant::now();
        let mut spins = 0u32;
        while shared.epoch.load(Ordering::Acquire) == seen {
            spins = spins.wrapping_add(1);
            if !spins.is_multiple_of(256) {
                std::hint::spin_loop();
                continue;
            }
            // Now and then give the core away: on a busy machine a spinning idle worker takes
            // time from the thread that has the work.
            if started.elapsed() < SPIN {
                std::thread::yield_now();
                continue;
            }
            let guard = lock(&shared.sleep);
            let _guard = shared
                .wake
                .wait_while(guard, |_| shared.epoch.load(Ordering::Acquire) == seen)
                .unwrap_or_else(|e| e.into_inner());
        }
        // One snapshot of the dispatch. If this worker is part of it (index < width), that
        // dispatch cannot end before this worker counts itself out, so the snapshot is current.
        let (epoch, width, job) = {
            let d = lock(&shared.state);
            (d.epoch, d.width, d.job)
        };
        seen = epoch;
        if index < width && job.is_some() && enter(&shared.gate, epoch) {
            if let Some(Job(body)) = job {
                // SAFETY: `run` keeps the body alive until no worker is inside the gate, and
                // this worker entered it for this very epoch.
                let body = unsafe { &*body };
                if let Err(panic) = catch_unwind(AssertUnwindSafe(|| body(index))) {
                    lock(&shared.panicked).get_or_insert(panic_message(&*panic));
                }
            }
            shared.gate.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// Runs `body(0)` on the caller and `body(i)`, 0 < i < threads, on each worker that starts in
/// time, and returns when all that started have finished. `body` must finish the whole job
/// from any subset of its parts (claim work from a counter): a worker that has not started by
/// the time the caller's part returns is not waited for. A panic in any part is re-raised here.
pub fn run(threads: usize, body: &(dyn Fn(usize) + Sync)) {
    if threads <= 1 {
        body(0);
        return;
    }
    let pool = pool(threads - 1);
    let busy = pool.busy.try_lock();
    if threads - 1 > pool.workers || busy.is_err() {
        // Wider than the pool, or another product is running: plain scoped threads.
        // Joined by hand so a part's panic reaches the caller with its own message (the scope
        // would replace it with "a scoped thread panicked").
        std::thread::scope(|scope| {
            let parts: Vec<_> = (1..threads).map(|i| scope.spawn(move || body(i))).collect();
            body(0);
            for part in parts {
                if let Err(panic) = part.join() {
                    std::panic::resume_unwind(panic);
                }
            }
        });
        return;
    }
    let shared = &pool.shared;
    // SAFETY (lifetime erasure): the pointer is cleared below, and we return only after every
    // worker that took it has decremented `pending`, so no worker uses it after `body` ends.
    let erased: *const (dyn Fn(usize) + Sync + '_) = body;
    let erased: *const (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(erased) };
    *lock(&shared.panicked) = None;
    let epoch = {
        let mut d = lock(&shared.state);
        shared.gate.store(opened(d.epoch + 1), Ordering::Release);
        d.epoch += 1;
        d.width = threads;
        d.job = Some(Job(erased));
        d.epoch
    };
    {
        let _guard = lock(&shared.sleep);
        shared.epoch.store(epoch, Ordering::Release);
    }
    shared.wake.notify_all();
    let mine = catch_unwind(AssertUnwindSafe(|| body(0)));
    // Close the dispatch, then wait for the workers inside it (briefly spinning, then yielding
    // the core to them).
    shared.gate.fetch_or(CLOSED, Ordering::AcqRel);
    let mut spins = 0u32;
    while shared.gate.load(Ordering::Acquire) & INSIDE != 0 {
        spins = spins.saturating_add(1);
        if spins < 64 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    lock(&shared.state).job = None;
    let worker_panic = lock(&shared.panicked).take();
    drop(busy);
    if let Err(panic) = mine {
        std::panic::resume_unwind(panic);
    }
    if let Some(message) = worker_panic {
        panic!("a gpulab-sgemm worker panicked: {message}");
    }
}

/// Locks, taking the data of a poisoned lock as it is: every value here is written whole under
/// its lock, and a panicking part is caught before it could leave one half-written.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A panic's message, when it has one.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    /// A job as the kernel writes one: items claimed from a counter by whichever part runs.
    fn claimed_job(threads: usize, items: usize) -> (Vec<usize>, Vec<usize>) {
        let next = AtomicUsize::new(0);
        let done: Vec<AtomicUsize> = (0..items).map(|_| AtomicUsize::new(0)).collect();
        let parts: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
        run(threads, &|i| {
            parts[i].fetch_add(1, Ordering::Relaxed);
            loop {
                let j = next.fetch_add(1, Ordering::Relaxed);
                let Some(d) = done.get(j) else { break };
                d.fetch_add(1, Ordering::Relaxed);
            }
        });
        let load = |v: Vec<AtomicUsize>| v.into_iter().map(|a| a.into_inner()).collect();
        (load(done), load(parts))
    }

    #[test]
    fn every_claimed_item_is_done_once_and_no_part_runs_twice() {
        for threads in [1, 2, 3, 2, 5] {
            for _ in 0..50 {
                let (done, parts) = claimed_job(threads, 97);
                assert!(done.iter().all(|&d| d == 1), "{threads} threads: {done:?}");
                assert_eq!(parts[0], 1, "the caller always runs its part");
                assert!(parts.iter().all(|&p| p <= 1), "{parts:?}");
            }
        }
    }

    #[test]
    fn dispatches_of_alternating_widths_never_run_a_part_twice_or_late() {
        // The race this guards against needs a worker preempted between two reads; alternating
        // widths many times over gives it every chance (the dispatch is read as one value, and
        // a worker joins only the epoch it read, while it is open).
        let widths = [2, 3, 2, 4, 3, 2];
        let pool_threads = std::thread::available_parallelism()
            .map_or(2, |n| n.get())
            .max(4);
        for round in 0..3000 {
            let threads = widths[round % widths.len()].min(pool_threads);
            let (done, parts) = claimed_job(threads, 7);
            assert!(done.iter().all(|&d| d == 1), "round {round}: {done:?}");
            assert!(parts.iter().all(|&p| p <= 1), "round {round}: {parts:?}");
        }
    }

    #[test]
    fn a_panicking_part_is_reported_to_the_caller() {
        // The caller's part waits until part one has started, so part one is sure to run.
        let started = AtomicBool::new(false);
        let result = catch_unwind(|| {
            run(2, &|i| {
                if i == 1 {
                    started.store(true, Ordering::Release);
                    panic!("part one fails");
                }
                while !started.load(Ordering::Acquire) {
                    std::thread::yield_now();
                }
            })
        });
        let message = result.unwrap_err();
        let text = panic_message(&*message);
        assert!(text.contains("part one fails"), "{text}");
        // The pool still works afterwards.
        let (done, _) = claimed_job(2, 10);
        assert!(done.iter().all(|&d| d == 1));
    }
}
