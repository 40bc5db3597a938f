//! A global allocator that counts, when asked, to report allocations per node execution
//! natively. Off, it costs one relaxed load per call, so timed runs are not slowed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static LIVE_BYTES: AtomicU64 = AtomicU64::new(0);

pub fn set_counting(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

pub fn counting() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Adds an allocation of `new` bytes in place of `old` ones, when counting.
fn note(allocations: u64, new: usize, old: usize) {
    if counting() {
        ALLOCATIONS.fetch_add(allocations, Ordering::Relaxed);
        LIVE_BYTES.fetch_add(new as u64, Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(old as u64, Ordering::Relaxed);
    }
}

/// Allocations (reallocations included) since the process started.
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Heap bytes held now.
pub fn live_bytes() -> u64 {
    LIVE_BYTES.load(Ordering::Relaxed)
}

// SAFETY: forwards every call to the system allocator unchanged.
#[allow(unsafe_code, reason = "a global allocator wrapper is unsafe by definition")]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(1, layout.size(), 0);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(0, 0, layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(1, new_size, layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;
