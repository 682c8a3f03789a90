//! A counting global allocator: every heap allocation of the process goes through it, so the
//! bytes a CPU tensor holds (its `Vec` storage) are seen exactly, with a resettable high-water
//! mark. This is how `measure` sees memory on the CPU; it costs two relaxed atomic operations per
//! allocation.
//!
//! The library defines the type; each program that measures installs it (`src/main.rs`, the
//! labs that measure, the test binaries), as ripgrep's `main.rs` installs its allocator: a
//! library must not choose the allocator of every program that links it. [`installed`] tells
//! `measure` whether it can trust the counts.
//!
//! The counts are process-wide: a measurement is only clean while nothing else allocates, which
//! is why measurements take [`MEASURE_LOCK`] and the tests that measure live in their own test
//! binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// The allocator type. Install it in a program's `main.rs`:
/// `#[global_allocator] static ALLOC: CountingAllocator = CountingAllocator;`
pub struct CountingAllocator;

static CURRENT: AtomicU64 = AtomicU64::new(0);
static SEEN: AtomicBool = AtomicBool::new(false);
static PEAK: AtomicU64 = AtomicU64::new(0);

/// Held while measuring, so two measurements in one process never overlap.
pub static MEASURE_LOCK: Mutex<()> = Mutex::new(());

// The library's own unit tests measure too, so their test binary installs it.
#[cfg(test)]
#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn grow(bytes: u64) {
    if !SEEN.load(Ordering::Relaxed) {
        SEEN.store(true, Ordering::Relaxed);
    }
    let now = CURRENT.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn shrink(bytes: u64) {
    CURRENT.fetch_sub(bytes, Ordering::Relaxed);
}

#[allow(unsafe_code)]
// SAFETY: every method forwards to the system allocator with the caller's arguments unchanged
// and only updates counters on the side; the GlobalAlloc contract is the System allocator's.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is (see the impl's comment).
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grow(layout.size() as u64);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grow(layout.size() as u64);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size() as u64);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            let old = layout.size() as u64;
            let new_size = new_size as u64;
            if new_size > old {
                grow(new_size - old);
            } else {
                shrink(old - new_size);
            }
        }
        new
    }
}

/// Is [`CountingAllocator`] this program's global allocator? (Allocates once to find out.)
pub fn installed() -> bool {
    drop(std::hint::black_box(Box::new([0u8; 64])));
    SEEN.load(Ordering::Relaxed)
}

/// Bytes allocated and not yet freed, process-wide.
pub fn current() -> u64 {
    CURRENT.load(Ordering::Relaxed)
}

/// Highest [`current`] since the last [`reset_peak`].
pub fn peak() -> u64 {
    PEAK.load(Ordering::Relaxed)
}

/// Starts a new high-water mark at the current level.
pub fn reset_peak() {
    PEAK.store(current(), Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_binary_installs_it() {
        assert!(installed());
    }

    #[test]
    fn counts_a_big_allocation() {
        let _guard = MEASURE_LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let before = current();
        reset_peak();
        let v = vec![0u8; 64 << 20];
        // Other test threads allocate too, so allow their noise but not a miss of 64 MiB.
        assert!(current() >= before + (48 << 20));
        drop(v);
        assert!(peak() >= before + (48 << 20));
    }
}
